"""Ratings through the game service.

The rating updates equal openskill's Plackett-Luce called directly on the same results (a
fresh ``PlackettLuce()`` with the library's defaults, not ours): with ties, with a resignation
and in a five-player game played through the service; a casual game and a cancelled one are
never rated; the server's settings give new games their defaults and the channels they may be
opened in; seasons start afresh; statistics; and the operators' replay of every rated game
gives exactly the stored values.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.cli.main import main
from bot.host import ratings
from bot.host.ratings import OVERALL, Entrant, Rating, places, rate
from bot.host.services import GameService, ServiceError, favourite_map, hints_by_default
from bot.host.services.ops import verify_storage
from bot.host.services.rating_tools import print_ratings, rating_problems
from bot.host.storage import GuildSettings, ResultRow, Storage, open_storage
from engine import KeepTickets

from .conftest import BOB, CAROL, HOST, FakeClock, lobby, state_of

Teams = list[list[object]]


def openskill_direct(games: list[list[tuple[str, float]]]) -> dict[str, tuple[float, float, int]]:
    """Rate ``games`` (each a list of (identity, rank) in seat order) with openskill itself:
    one call of a fresh PlackettLuce() per game; an identity on several seats takes the mean."""
    model = PlackettLuce()
    now: dict[str, tuple[float, float, int]] = {}
    for game in games:
        prior = {p: now.get(p, (model.mu, model.sigma, 0)) for p, _ in game}
        teams = [[model.rating(mu=prior[p][0], sigma=prior[p][1])] for p, _ in game]
        out = model.rate(teams, ranks=[rank for _, rank in game])
        got: dict[str, list[tuple[float, float]]] = {}
        for (p, _), team in zip(game, out, strict=True):
            got.setdefault(p, []).append((team[0].mu, team[0].sigma))
        for p, values in got.items():
            now[p] = (
                sum(v[0] for v in values) / len(values),
                sum(v[1] for v in values) / len(values),
                prior[p][2] + 1,
            )
    return now


def ours(games: list[list[tuple[str, int]]]) -> dict[str, tuple[float, float, int]]:
    now: dict[str, Rating] = {}
    for game in games:
        now.update(rate([Entrant(i, p, place) for i, (p, place) in enumerate(game)], now))
    return {p: (r.mu, r.sigma, r.games) for p, r in now.items()}


# ----------------------------------------------------------------------------- the model


def test_a_tie_shares_a_rank_as_openskill_rates_it() -> None:
    game = [("user:1", 1), ("user:2", 1), ("user:3", 3)]
    assert ours([game]) == openskill_direct([[(p, float(r)) for p, r in game]])
    after = ours([game])
    assert after["user:1"] == after["user:2"] and after["user:1"][0] > after["user:3"][0]


def test_a_resigned_seat_ranks_last_even_with_the_most_points() -> None:
    keys = [(120, 5, 30), (80, 4, 12), (95, 2, 20)]
    assert places(keys, [True, False, False]) == [3, 2, 1]
    assert places(keys, [True, True, False]) == [2, 2, 1]  # resigned seats share the last place
    assert places(keys, [True, True, True]) == [1, 1, 1]
    assert places([(50, 1), (50, 1), (40, 0)], [False] * 3) == [1, 1, 3]
    game = list(
        zip(["user:1", "user:2", "ai:hard"], places(keys, [True, False, False]), strict=True)
    )
    assert ours([game]) == openskill_direct([[(p, float(r)) for p, r in game]])


def test_five_players_over_several_games_with_ties_equal_openskill() -> None:
    games = [
        [("user:1", 1), ("user:2", 2), ("ai:hard", 2), ("user:4", 4), ("ai:easy", 5)],
        [("ai:easy", 1), ("user:1", 2), ("user:2", 3), ("user:5", 4), ("ai:hard", 5)],
        [("user:2", 1), ("user:1", 1), ("ai:normal", 3), ("ai:normal", 4), ("user:4", 5)],
        [("user:5", 1), ("ai:hard", 2)],
    ]
    assert ours(games) == openskill_direct([[(p, float(r)) for p, r in g] for g in games])
    assert ours(games)["user:1"][2] == 3 and ours(games)["ai:normal"][2] == 1


def test_ordinal_provisional_and_identities() -> None:
    fresh = Rating()
    assert fresh.ordinal == 0 and fresh.provisional
    assert Rating(games=ratings.PROVISIONAL_GAMES).provisional
    assert not Rating(games=ratings.PROVISIONAL_GAMES + 1).provisional
    assert ratings.user_of(ratings.user_player(42)) == 42 and ratings.user_of("ai:hard") is None
    assert ratings.ai_level_of(ratings.ai_player("hard")) == "hard"
    assert ratings.ai_level_of("user:1") is None
    assert rate([Entrant(0, "ai:normal", 1), Entrant(1, "ai:normal", 2)], {}) == {}
    model = PlackettLuce()
    assert (ratings.MODEL.mu, ratings.MODEL.sigma, ratings.MODEL.beta, ratings.MODEL.tau) == (
        model.mu, model.sigma, model.beta, model.tau
    )  # fmt: skip


def test_favourite_map_and_hints_default() -> None:
    def row(map_id: str) -> ResultRow:
        return ResultRow(1, 0, 1, 1, map_id, 10, 1, True, 0, 0, 0.0)

    assert favourite_map([]) is None
    assert favourite_map([row("usa"), row("germany"), row("germany")]) == "germany"
    assert favourite_map([row("usa"), row("germany")]) == "usa"  # a tie: the one played last
    assert hints_by_default(GuildSettings(1), rated=False) is True
    assert hints_by_default(GuildSettings(1), rated=True) is False
    assert hints_by_default(GuildSettings(1, hints=False), rated=False) is False


# ----------------------------------------------------------------------------- the service


async def five_player_game(service: GameService, storage: Storage) -> int:
    """A rated USA game of HOST and BOB (both resign at once) and computer seats easy, normal and
    normal, played to its end by the service; returns its id."""
    gid = await lobby(service, users=(HOST, BOB))
    for level in ("easy", "normal", "normal"):
        await service.lobby.add_ai(gid, HOST, level=level)
    await service.lobby.start(gid, HOST)
    state = await state_of(storage, gid)
    await service.play.act(gid, HOST, KeepTickets(0, state.players[0].offer), expected_version=None)
    await service.play.resign(gid, HOST)
    await service.play.resign(gid, BOB)
    return gid


def expected_ranks(state: object) -> list[float]:
    """Places of a finished state worked out here: points, then completed tickets, then the
    longest path (USA), ties sharing, resigned seats last."""
    result = state.result  # type: ignore[attr-defined]
    resigned = [p.resigned for p in state.players]  # type: ignore[attr-defined]
    keys = [(s.score, s.tickets_completed, s.longest_path) for s in result.seats]
    out = []
    for i, key in enumerate(keys):
        ahead = sum(1 for j, k in enumerate(keys) if not resigned[j] and k > key)
        out.append(float(1 + sum(not r for r in resigned) if resigned[i] else 1 + ahead))
    return out


async def test_a_five_player_game_with_resignations_is_rated_as_openskill_rates_it(
    service: GameService, storage: Storage
) -> None:
    gid = await five_player_game(service, storage)
    state = await state_of(storage, gid)
    assert state.finished and (await storage.games.get_game(gid)).rated  # type: ignore[union-attr]
    ranks = expected_ranks(state)
    assert ranks[0] == ranks[1] == 4.0  # both resigned: tied for the last place
    identities = [f"user:{HOST}", f"user:{BOB}", "ai:easy", "ai:normal", "ai:normal"]
    want = openskill_direct([list(zip(identities, ranks, strict=True))])
    for scope in (OVERALL, "usa"):
        got = {
            r.player: (r.mu, r.sigma, r.games)
            for r in await storage.ratings.ratings(1, scope=scope)
        }
        assert got == want
    stored = await storage.results.results(gid)
    assert [r.place for r in stored] == [int(r) for r in ranks]
    assert [r.player for r in stored] == identities
    shifts = await service.ladder.game_ratings(gid)
    assert [s.seat for s in shifts] == [0, 1, 2, 3, 4]
    assert shifts[3].after == shifts[4].after  # two seats of one level: one identity
    assert all(s.before == 0 and s.provisional and s.games == 1 for s in shifts)
    assert shifts[0].after < 0  # resigned: last
    assert await rating_problems(storage) == []
    assert (await verify_storage(storage))[1] == []


async def test_casual_and_cancelled_games_are_not_rated(
    service: GameService, storage: Storage
) -> None:
    game = await service.lobby.create(
        guild_id=1, channel_id=1, host_id=HOST, host_name="h", map_id="usa", rated=False
    )
    await service.lobby.add_ai(game.id, HOST)
    await service.lobby.start(game.id, HOST)
    state = await state_of(storage, game.id)
    await service.play.act(
        game.id, HOST, KeepTickets(0, state.players[0].offer), expected_version=None
    )
    await service.play.resign(game.id, HOST)
    assert (await storage.games.get_game(game.id)).status == "finished"  # type: ignore[union-attr]
    assert await storage.results.results(game.id) != []
    cancelled = await lobby(service, channel=2)
    await service.lobby.add_ai(cancelled, HOST)
    await service.lobby.start(cancelled, HOST)
    await service.lobby.cancel(cancelled, HOST)
    assert await storage.ratings.ratings(1) == [] and await storage.ratings.rated_games() == []
    assert await service.ladder.game_ratings(game.id) == []


async def test_new_games_take_the_servers_settings(service: GameService, storage: Storage) -> None:
    with pytest.raises(ServiceError, match="not_manager"):
        await service.ladder.set_server_settings(1, HOST, manage_server=False, rated=False)
    with pytest.raises(ServiceError, match="bad_turn_time"):
        await service.ladder.set_server_settings(1, HOST, manage_server=True, turn_seconds=-5)
    settings = await service.ladder.set_server_settings(
        1, HOST, manage_server=True, language="de", turn_seconds=600, rated=False, channels=(42,)
    )
    assert settings == await service.ladder.server_settings(1) and settings.updated_by == HOST
    base = {"guild_id": 1, "host_id": HOST, "host_name": "h", "map_id": "usa"}
    with pytest.raises(ServiceError) as refused:
        await service.lobby.create(channel_id=7, **base)  # type: ignore[arg-type]
    assert refused.value.code == "channel_not_allowed"
    assert refused.value.detail == {"channels": "<#42>"}
    game = await service.lobby.create(channel_id=42, **base)  # type: ignore[arg-type]
    assert (game.language, game.turn_seconds, game.rated) == ("de", 600, False)
    await service.lobby.cancel(game.id, HOST)
    thread = await service.lobby.create(
        channel_id=77, thread_id=77, parent_id=42, rated=True, **base
    )  # type: ignore[arg-type]
    assert thread.rated and thread.language == "de"
    other = await service.lobby.create(channel_id=8, **{**base, "guild_id": 2})  # type: ignore[arg-type]
    assert (other.language, other.turn_seconds, other.rated) == ("en", 86_400, True)


async def test_seasons_start_afresh_for_managers_only(
    service: GameService, storage: Storage
) -> None:
    with pytest.raises(ServiceError, match="season_empty"):
        await service.ladder.start_season(1, HOST, manage_server=True)
    gid = await five_player_game(service, storage)
    with pytest.raises(ServiceError, match="not_manager"):
        await service.ladder.start_season(1, HOST, manage_server=False)
    season = await service.ladder.start_season(1, CAROL, manage_server=True)
    assert season.number == 2 and season.started_by == CAROL
    now = await service.ladder.ladder(1)
    assert (now.season, now.current, now.lines) == (2, 2, ())
    old = await service.ladder.ladder(1, season=1)
    assert len(old.lines) == 4 and old.lines[0].rank == 1
    assert [line.ordinal for line in old.lines] == sorted(
        (line.ordinal for line in old.lines), reverse=True
    )
    usa = await service.ladder.ladder(1, season=1, map_id="usa")
    assert usa.map_id == "usa" and len(usa.lines) == 4
    with pytest.raises(ServiceError, match="unknown_season"):
        await service.ladder.ladder(1, season=3)
    with pytest.raises(ServiceError, match="unknown_map"):
        await service.ladder.ladder(1, map_id="atlantis")
    stats = await service.ladder.stats(1, HOST)
    assert stats.season == 2 and stats.rating is None and stats.history == ()
    assert stats.games == 1 and stats.favourite_map == "usa"
    assert gid


async def test_stats_give_the_rating_and_its_history(
    service: GameService, storage: Storage
) -> None:
    gid = await five_player_game(service, storage)
    stats = await service.ladder.stats(1, BOB)
    results = await storage.results.results(gid)
    assert (stats.games, stats.wins, stats.win_rate) == (1, 0, 0.0)
    assert stats.longest_path_bonuses == int(bool(results[1].longest_path_bonus))
    assert stats.favourite_map == "usa" and stats.season == 1
    assert stats.rating is not None and stats.rating.provisional and stats.rating.games == 1
    assert [p.game_id for p in stats.history] == [gid]
    assert stats.history[0].ordinal == stats.rating.ordinal
    ladder = await service.ladder.ladder(1)
    line = ladder.line_of(BOB)
    assert line == stats.rating and line.rank == ladder.lines.index(line) + 1
    assert (
        ladder.pages(2) == 2
        and len(ladder.page(9, 2)) == 2
        and ladder.page(0, 2) == ladder.lines[:2]
    )


# ----------------------------------------------------------------------------- operators


async def test_the_replay_gives_exactly_the_stored_ratings_and_verify_finds_a_change(
    tmp_path: Path, clock: FakeClock
) -> None:
    db = tmp_path / "ratings.sqlite3"
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 11)
    try:
        await five_player_game(service, storage)
        clock.advance(60)
        gid = await lobby(service, channel=6000, users=(CAROL,))
        await service.lobby.add_ai(gid, CAROL, level="easy")
        await service.lobby.start(gid, CAROL)
        state = await state_of(storage, gid)
        await service.play.act(
            gid, CAROL, KeepTickets(0, state.players[0].offer), expected_version=None
        )
        await service.play.resign(gid, CAROL)
    finally:
        await service.close()
        await storage.close()
    assert await asyncio.to_thread(main, ["ratings", "--db", str(db), "--json"]) == 0
    storage = await open_storage(db, clock=clock)
    try:
        assert await rating_problems(storage) == []
        assert await print_ratings(storage, recompute=True, as_json=True) == 0
        from tests.storage.conftest import raw_execute

        await raw_execute(
            f"sqlite:///{db}", "UPDATE ratings SET mu = mu + 1e-9 WHERE player = 'ai:easy'"
        )
        problems = await rating_problems(storage)
        assert any("differ from a replay" in why for _, why in problems)
        assert await print_ratings(storage, recompute=True, as_json=False) == 1
    finally:
        await storage.close()


def test_the_ratings_command_prints_the_same_json_stored_and_recomputed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "ttr.sqlite3"

    async def build() -> None:
        clock = FakeClock()
        storage = await open_storage(db, clock=clock)
        service = GameService(storage, clock=clock, seed_source=lambda: 11)
        try:
            await five_player_game(service, storage)
        finally:
            await service.close()
            await storage.close()

    asyncio.run(build())
    capsys.readouterr()
    assert main(["ratings", "--db", str(db), "--json"]) == 0
    stored = capsys.readouterr().out.splitlines()
    assert main(["ratings", "--db", str(db), "--json", "--recompute"]) == 0
    recomputed = capsys.readouterr()
    assert recomputed.out.splitlines() == stored
    assert "exactly the stored ratings" in recomputed.err
    doc = json.loads(stored[-1])
    [server] = doc["servers"]
    tables = server["seasons"][0]["tables"]
    assert [t["scope"] for t in tables] == ["overall", "usa"]
    assert {r["player"] for r in tables[0]["rows"]} == {
        f"user:{HOST}", f"user:{BOB}", "ai:easy", "ai:normal"
    }  # fmt: skip
    assert any("AI (normal)" in line and "(provisional)" in line for line in stored)
    assert main(["ratings", "--db", str(tmp_path / "missing.sqlite3")]) == 2
