"""Ratings, seasons and server settings in the storage, on both backends.

A rated game is rated in the transaction that stores its results (from each result's
rating identity and place), once; casual games never touch ratings; seasons start
afresh; server settings keep their defaults until an admin changes them; two
processes finishing games of one server at once rate them one after the other.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.host.ratings import OVERALL, Entrant, Rating, rate
from bot.host.storage import GameRow, GuildSettings, PlayerResult, Storage, open_storage

from .conftest import FakeClock
from .test_storage import move, new_game

GUILD = 77


async def finished(
    storage: Storage,
    clock: FakeClock,
    channel: int,
    places: dict[str, int],
    *,
    rated: bool = True,
    map_id: str = "usa",
    guild_id: int = GUILD,
) -> GameRow:
    """A game of ``places`` (identity -> place) played to its end; people are ``user:<id>``."""
    people = tuple(int(p.split(":")[1]) for p in places if p.startswith("user:"))
    lobby = await storage.create_game(
        guild_id=guild_id,
        channel_id=channel,
        host_user_id=people[0] if people else 1,
        map_id=map_id,
        rated=rated,
    )
    game = await storage.start_game(lobby.id, seed=1, snapshot={"seq": 0}, engine_version="t")
    clock.now += 60
    results = [
        PlayerResult(
            seat=i,
            user_id=int(p.split(":")[1]) if p.startswith("user:") else None,
            score=100 - 10 * place,
            rank=place,
            won=place == 1,
            player=p,
            place=place,
            longest_path_bonus=place == 1,
        )
        for i, (p, place) in enumerate(places.items())
    ]
    return await move(storage, game, new_status="finished", results=results)


def replayed(
    games: list[dict[str, int]], scope_games: list[bool] | None = None
) -> dict[str, Rating]:
    """The ratings after ``games`` (each identity -> place, seat order) by bot.host.ratings alone."""
    now: dict[str, Rating] = {}
    for places in games:
        entrants = [Entrant(i, p, place) for i, (p, place) in enumerate(places.items())]
        now.update(rate(entrants, now))
    return now


async def test_a_rated_game_is_rated_with_its_results(storage: Storage, clock: FakeClock) -> None:
    """Finishing a rated game stores every identity's new rating, overall and for the map, and
    the change; the values are bot.host.ratings.rate's; the game's result keeps identity and place."""
    places = {"user:1": 1, "user:2": 2, "ai:hard": 2, "user:3": 4}
    game = await finished(storage, clock, 10, places)
    want = replayed([places])
    for scope in (OVERALL, "usa"):
        rows = await storage.ratings(GUILD, scope=scope)
        assert {r.player: (r.mu, r.sigma, r.games) for r in rows} == {
            p: (r.mu, r.sigma, r.games) for p, r in want.items()
        }
        assert [r.ordinal for r in rows] == sorted((r.ordinal for r in rows), reverse=True)
        assert {r.player: r.user_id for r in rows}["ai:hard"] is None
    changes = await storage.game_rating_changes(game.id)
    assert (
        len(changes) == 8 and {c.seq for c in changes} == {1} and {c.season for c in changes} == {1}
    )
    first = next(c for c in changes if c.player == "user:1" and c.scope == OVERALL)
    assert (first.mu_before, first.sigma_before) == (Rating().mu, Rating().sigma)
    assert first.after > first.before and first.user_id == 1
    stored = await storage.results(game.id)
    assert [(r.player, r.place, r.longest_path_bonus) for r in stored] == [
        ("user:1", 1, True), ("user:2", 2, False), ("ai:hard", 2, False), ("user:3", 4, False)
    ]  # fmt: skip
    [rated] = await storage.rated_games()
    assert (rated.game_id, rated.guild_id, rated.season, rated.seq) == (game.id, GUILD, 1, 1)


async def test_ratings_carry_over_from_game_to_game_per_map(
    storage: Storage, clock: FakeClock
) -> None:
    """Three games on two maps: overall takes all three in order, each map only its own."""
    a = {"user:1": 1, "user:2": 2}
    b = {"user:2": 1, "user:1": 2, "ai:easy": 3}
    c = {"user:1": 1, "ai:easy": 2}
    await finished(storage, clock, 10, a)
    await finished(storage, clock, 11, b, map_id="germany")
    await finished(storage, clock, 12, c)
    overall = {r.player: (r.mu, r.sigma, r.games) for r in await storage.ratings(GUILD)}
    assert overall == {p: (r.mu, r.sigma, r.games) for p, r in replayed([a, b, c]).items()}
    usa = {r.player: (r.mu, r.sigma) for r in await storage.ratings(GUILD, scope="usa")}
    assert usa == {p: (r.mu, r.sigma) for p, r in replayed([a, c]).items()}
    germany = await storage.ratings(GUILD, scope="germany")
    assert {r.player: r.games for r in germany} == {"user:2": 1, "user:1": 1, "ai:easy": 1}
    assert [g.seq for g in await storage.rated_games(GUILD)] == [1, 2, 3]
    history = await storage.player_rating_history(GUILD, "user:1")
    assert [h.seq for h in history] == [1, 2, 3] and history[-1].games == 3
    assert [h.mu_before for h in history[1:]] == [h.mu_after for h in history[:-1]]


async def test_casual_games_never_touch_ratings(storage: Storage, clock: FakeClock) -> None:
    await finished(storage, clock, 10, {"user:1": 1, "user:2": 2}, rated=False)
    assert await storage.ratings(GUILD) == [] and await storage.rated_games() == []
    assert (await storage.current_season(GUILD)).started_at is None


async def test_a_game_is_rated_once(storage: Storage, clock: FakeClock) -> None:
    """Storing a rated game's results again replaces the results but rates nothing twice."""
    game = await finished(storage, clock, 10, {"user:1": 1, "user:2": 2})
    before = await storage.ratings(GUILD)
    await storage.record_results(
        game.id,
        [
            PlayerResult(0, 1, 5, 2, False, player="user:1", place=2),
            PlayerResult(1, 2, 9, 1, True, player="user:2", place=1),
        ],
    )
    assert await storage.ratings(GUILD) == before and len(await storage.rated_games()) == 1


async def test_a_rated_result_needs_identity_and_place(storage: Storage, clock: FakeClock) -> None:
    lobby = await storage.create_game(
        guild_id=GUILD, channel_id=9, host_user_id=1, map_id="usa", rated=True
    )
    game = await storage.start_game(lobby.id, seed=1, snapshot={}, engine_version="t")
    with pytest.raises(ValueError, match="player and place"):
        await move(storage, game, new_status="finished", results=[PlayerResult(0, 1, 5, 1, True)])
    assert (await storage.get_game(game.id)).status == "active"  # type: ignore[union-attr]
    assert await storage.results(game.id) == [] and await storage.ratings(GUILD) == []


async def test_one_identity_alone_is_not_rated(storage: Storage, clock: FakeClock) -> None:
    """Four computer seats of one level learn nothing about that level: no rating moves."""
    lobby = await storage.create_game(
        guild_id=GUILD, channel_id=9, host_user_id=1, map_id="usa", rated=True
    )
    game = await storage.start_game(lobby.id, seed=1, snapshot={}, engine_version="t")
    results = [
        PlayerResult(s, None, 9 - s, s + 1, s == 0, player="ai:normal", place=s + 1)
        for s in range(4)
    ]
    await move(storage, game, new_status="finished", results=results)
    assert await storage.ratings(GUILD) == [] and await storage.game_rating_changes(game.id) == []
    assert [g.game_id for g in await storage.rated_games()] == [game.id]


async def test_seasons_start_afresh_and_stay_viewable(storage: Storage, clock: FakeClock) -> None:
    assert await storage.start_season(GUILD, 5) is None  # nothing rated in season 1 yet
    await finished(storage, clock, 10, {"user:1": 1, "user:2": 2})
    season1 = await storage.ratings(GUILD)
    clock.now += 1000
    started = await storage.start_season(GUILD, 5)
    assert started is not None and (started.number, started.started_by) == (2, 5)
    assert await storage.start_season(GUILD, 5) is None  # season 2 is still empty
    assert await storage.ratings(GUILD) == []
    assert await storage.ratings(GUILD, season=1) == season1
    game = await finished(storage, clock, 11, {"user:2": 1, "user:1": 2})
    assert {r.player: r.games for r in await storage.ratings(GUILD)} == {"user:1": 1, "user:2": 1}
    fresh = replayed([{"user:2": 1, "user:1": 2}])
    assert {r.player: r.mu for r in await storage.ratings(GUILD)} == {
        p: r.mu for p, r in fresh.items()
    }
    assert {c.season for c in await storage.game_rating_changes(game.id)} == {2}
    seasons = await storage.seasons(GUILD)
    assert [(s.number, s.started_by) for s in seasons] == [(1, None), (2, 5)]
    assert seasons[1].started_at == clock.now - 60
    assert (await storage.current_season(GUILD)).number == 2
    assert [s.number for s in await storage.seasons(999)] == [1]  # other servers: season 1
    assert len(await storage.player_rating_history(GUILD, "user:1")) == 2
    assert len(await storage.player_rating_history(GUILD, "user:1", season=2)) == 1


async def test_other_servers_have_their_own_ladder(storage: Storage, clock: FakeClock) -> None:
    await finished(storage, clock, 10, {"user:1": 1, "user:2": 2})
    await finished(storage, clock, 11, {"user:1": 2, "user:2": 1}, guild_id=78)
    assert [g.seq for g in await storage.rated_games(78)] == [1]
    assert {r.games for r in await storage.ratings(78)} == {1}
    assert len(await storage.all_ratings()) == 8  # 2 servers x 2 scopes x 2 players


async def test_server_settings_defaults_changes_and_checks(
    storage: Storage, clock: FakeClock
) -> None:
    assert await storage.get_guild_settings(GUILD) == GuildSettings(GUILD)
    now = await storage.set_guild_settings(GUILD, updated_by=9, language="de", rated=False)
    assert (now.language, now.rated, now.hints, now.turn_seconds) == ("de", False, True, None)
    assert (now.updated_at, now.updated_by) == (clock.now, 9)
    now = await storage.set_guild_settings(GUILD, channels=(30, 20, 30), turn_seconds=3600)
    assert (now.language, now.channels, now.turn_seconds) == ("de", (20, 30), 3600)
    now = await storage.set_guild_settings(GUILD, language=None, channels=())
    assert (now.language, now.channels, now.rated) == (None, (), False)
    assert await storage.get_guild_settings(GUILD) == now
    assert await storage.get_guild_settings(GUILD + 1) == GuildSettings(GUILD + 1)
    for bad in (
        {"colour": 1},
        {"language": "fr"},
        {"turn_seconds": 0},
        {"rated": 1},
        {"channels": "x"},
    ):
        with pytest.raises(ValueError):
            await storage.set_guild_settings(GUILD, **bad)
    assert await storage.get_guild_settings(GUILD) == now


async def test_games_remember_whether_they_are_rated(storage: Storage) -> None:
    assert (await new_game(storage)).rated is False
    game = await storage.create_game(
        guild_id=GUILD, channel_id=3, host_user_id=1, map_id="usa", rated=True
    )
    assert game.rated is True and (await storage.get_game(game.id)).rated is True  # type: ignore[union-attr]


async def test_two_processes_rate_one_server_one_after_the_other(
    database_url: str, clock: FakeClock
) -> None:
    """Two storages (two processes' connections) finish games of one server at the same moment:
    the second game is rated from the first one's ratings, never from the same old ones."""
    a = await open_storage(database_url, clock=clock)
    b = await open_storage(database_url, clock=clock)
    try:
        games = []
        for store, channel in ((a, 10), (b, 11), (a, 12), (b, 13)):
            lobby = await store.create_game(
                guild_id=GUILD, channel_id=channel, host_user_id=1, map_id="usa", rated=True
            )
            games.append(
                (store, await store.start_game(lobby.id, seed=1, snapshot={}, engine_version="t"))
            )
        results = [
            PlayerResult(0, 1, 50, 1, True, player="user:1", place=1),
            PlayerResult(1, 2, 40, 2, False, player="user:2", place=2),
        ]
        await asyncio.gather(
            *(move(store, game, new_status="finished", results=results) for store, game in games)
        )
        rated = await a.rated_games(GUILD)
        assert [g.seq for g in rated] == [1, 2, 3, 4]
        want = replayed([{"user:1": 1, "user:2": 2}] * 4)
        assert {r.player: (r.mu, r.sigma, r.games) for r in await a.ratings(GUILD)} == {
            p: (r.mu, r.sigma, r.games) for p, r in want.items()
        }
    finally:
        await a.close()
        await b.close()
