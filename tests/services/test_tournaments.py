"""Tournaments through the real service and a SQLite file: every format to its end, the
forfeit of a player who leaves, and refusals that change nothing."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.host.services import GameService, RoundStep, ServiceError
from bot.host.storage import Storage, open_storage

GUILD = 4242
CHANNEL = 77


async def _service(tmp_path: Path) -> tuple[Storage, GameService]:
    storage = await open_storage(tmp_path / "ttr.sqlite3")
    return storage, GameService(storage, seed_source=lambda: 11)


_threads = itertools.count(10_000)


async def play_round(service: GameService, step: RoundStep, *, resign: bool = True) -> RoundStep:
    """Open every table of ``step`` in a new thread and let the computer play every seat
    (each player resigns at once); returns the step after the round's last game."""
    opened = []
    for table in step.to_open:
        await service.tournaments.open_table(
            step.tournament.id, table.round, table.table_no, next(_threads)
        )
        opened.append(table)
    last = step
    tables = await service.storage.tournaments.tables(step.tournament.id)
    for table in tables:
        if table.round != step.tournament.round or table.game_id is None or table.done:
            continue
        for user in table.players:
            if resign:
                await service.play.resign(table.game_id, user)
        game = await service.storage.games.get_game(table.game_id)
        assert game is not None and game.status == "finished"
        after = await service.tournaments.game_over(table.game_id)
        if after is not None:
            last = after
    return last


async def test_a_swiss_of_nine_at_tables_of_three_avoids_repeat_pairs(tmp_path: Path) -> None:
    """Nine players, tables of three, three rounds: every round seats everyone once at three
    tables, no pair meets twice (it can be avoided for nine), and the standings rank every
    player with the place points 2/1/0 adding up to 3 per table."""
    storage, service = await _service(tmp_path)
    async with storage:
        t = await service.tournaments.open(
            guild_id=GUILD, channel_id=CHANNEL, user_id=1, manage_server=True, name="Autumn Cup",
            maps=["usa"], format="swiss", table_size=3, rated=False, turn_seconds=3600, rounds=3,
        )  # fmt: skip
        for user in range(1, 10):
            await service.tournaments.join(t.id, user, f"p{user}")
        step = await service.tournaments.start(t.id, manage_server=True)
        for _ in range(3):
            step = await play_round(service, step)
        assert step.finished
        view = await service.tournaments.view(t.id)
        assert view.tournament.status == "finished" and view.tournament.round == 3
        pairs: set[frozenset[int]] = set()
        for r in (1, 2, 3):
            tables = view.round_tables(r)
            assert sorted(p for x in tables for p in x.players) == list(range(1, 10))
            assert [len(x.players) for x in tables] == [3, 3, 3]
            for x in tables:
                for pair in itertools.combinations(x.players, 2):
                    assert frozenset(pair) not in pairs, f"round {r} repeats {pair}"
                    pairs.add(frozenset(pair))
        assert sum(s.points for s in view.standings) == 9 * 3
        assert [s.place for s in view.standings] == sorted(s.place for s in view.standings)
        await service.close()


async def test_a_round_robin_of_four_meets_everyone_once(tmp_path: Path) -> None:
    """Four players at tables of two: three rounds, every pair exactly once, then finished."""
    storage, service = await _service(tmp_path)
    async with storage:
        t = await service.tournaments.open(
            guild_id=GUILD, channel_id=CHANNEL, user_id=1, manage_server=True, name="League",
            maps=["usa"], format="round_robin", table_size=2, rated=True, turn_seconds=3600,
        )  # fmt: skip
        for user in range(1, 5):
            await service.tournaments.join(t.id, user, f"p{user}")
        step = await service.tournaments.start(t.id, manage_server=True)
        rounds = 0
        while not step.finished:
            step = await play_round(service, step)
            rounds += 1
        view = await service.tournaments.view(t.id)
        met = [frozenset(x.players) for x in view.tables]
        assert rounds == 3 and len(met) == 6 and len(set(met)) == 6
        assert sum(s.points for s in view.standings) == 6
        await service.close()


async def test_an_elimination_of_eight_ends_with_one_winner(tmp_path: Path) -> None:
    """Eight players at tables of two: 4, 2, 1 tables; each winner goes on, the last table's
    winner is first in the standings, everyone else is out."""
    storage, service = await _service(tmp_path)
    async with storage:
        t = await service.tournaments.open(
            guild_id=GUILD, channel_id=CHANNEL, user_id=1, manage_server=True, name="Knockout",
            maps=["usa"], format="elimination", table_size=2, rated=False, turn_seconds=3600,
        )  # fmt: skip
        for user in range(1, 9):
            await service.tournaments.join(t.id, user, f"p{user}")
        step = await service.tournaments.start(t.id, manage_server=True)
        assert [x.players for x in step.to_open] == [(1, 8), (4, 5), (2, 7), (3, 6)]
        while not step.finished:
            step = await play_round(service, step)
        view = await service.tournaments.view(t.id)
        assert [len(view.round_tables(r)) for r in (1, 2, 3)] == [4, 2, 1]
        final = view.round_tables(3)[0]
        winner = next(s.user_id for s in final.seats if s.place == 1)
        assert [s.player for s in view.standings if s.active] == [winner]
        for r in (1, 2):
            winners = {
                next(s.user_id for s in x.seats if s.place == 1) for x in view.round_tables(r)
            }
            assert {p for x in view.round_tables(r + 1) for p in x.players} == winners
        await service.close()


async def test_a_player_who_leaves_forfeits_the_later_rounds(tmp_path: Path) -> None:
    """Player 3 leaves during round one: their game goes on, they are seated in no later
    round, they keep their points and are listed as out."""
    storage, service = await _service(tmp_path)
    async with storage:
        t = await service.tournaments.open(
            guild_id=GUILD, channel_id=CHANNEL, user_id=1, manage_server=True, name="Cup",
            maps=["usa"], format="swiss", table_size=2, rated=False, turn_seconds=3600, rounds=2,
        )  # fmt: skip
        for user in range(1, 6):
            await service.tournaments.join(t.id, user, f"p{user}")
        step = await service.tournaments.start(t.id, manage_server=True)
        assert [len(x.players) for x in step.to_open] == [2, 2]  # and player 5's bye
        await service.tournaments.leave(t.id, 3)
        with pytest.raises(ServiceError) as left:
            await service.tournaments.leave(t.id, 3)
        assert left.value.code == "tournament_not_joined"
        step = await play_round(service, step)
        assert step.tournament.round == 2
        view = await service.tournaments.view(t.id)
        assert 3 in {p for x in view.round_tables(1) for p in x.players}
        assert 3 not in {p for x in view.round_tables(2) for p in x.players}
        line = next(s for s in view.standings if s.player == 3)
        assert not line.active and line.games == 1
        await service.close()


async def test_refusals_change_nothing(tmp_path: Path) -> None:
    """Without Manage Server, with a table size the map cannot seat, a round robin at tables
    of three, a second sign-up, a sign-up after the start: refused, nothing stored."""
    storage, service = await _service(tmp_path)
    async with storage:
        common = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=1, name="X", maps=["usa"],
                      rated=False, turn_seconds=3600)  # fmt: skip
        for kwargs, code in (
            ({"manage_server": False, "format": "swiss", "table_size": 3}, "not_manager"),
            ({"manage_server": True, "format": "swiss", "table_size": 6}, "tournament_bad_table"),
            ({"manage_server": True, "format": "round_robin", "table_size": 3},
             "tournament_pairs_only"),
            ({"manage_server": True, "format": "cup", "table_size": 3}, "tournament_bad_format"),
        ):  # fmt: skip
            with pytest.raises(ServiceError) as exc:
                await service.tournaments.open(**common, **kwargs)  # type: ignore[arg-type]
            assert exc.value.code == code
        assert await service.tournaments.in_guild(GUILD) == []
        t = await service.tournaments.open(**common, manage_server=True, format="swiss",  # type: ignore[arg-type]
                                           table_size=2)  # fmt: skip
        await service.tournaments.join(t.id, 1, "a")
        with pytest.raises(ServiceError) as again:
            await service.tournaments.join(t.id, 1, "a")
        assert again.value.code == "tournament_joined_already"
        with pytest.raises(ServiceError) as few:
            await service.tournaments.start(t.id, manage_server=True)
        assert few.value.code == "tournament_few_players"
        await service.tournaments.join(t.id, 2, "b")
        await service.tournaments.start(t.id, manage_server=True)
        with pytest.raises(ServiceError) as late:
            await service.tournaments.join(t.id, 3, "c")
        assert late.value.code == "tournament_started"
        assert [p.user_id for p in await storage.tournaments.players(t.id)] == [1, 2]
        await service.close()


async def test_a_round_robin_goes_on_when_only_byes_are_left_in_a_round(tmp_path: Path) -> None:
    """Four players in a round robin; two leave during round one: the rounds in which the two
    left do not meet are byes only and pass at once, and the tournament ends after their one
    remaining meeting."""
    storage, service = await _service(tmp_path)
    async with storage:
        t = await service.tournaments.open(
            guild_id=GUILD, channel_id=CHANNEL, user_id=1, manage_server=True, name="League",
            maps=["usa"], format="round_robin", table_size=2, rated=False, turn_seconds=3600,
        )  # fmt: skip
        for user in range(1, 5):
            await service.tournaments.join(t.id, user, f"p{user}")
        step = await service.tournaments.start(t.id, manage_server=True)
        await service.tournaments.leave(t.id, 3)
        await service.tournaments.leave(t.id, 4)
        while not step.finished:
            step = await play_round(service, step)
        view = await service.tournaments.view(t.id)
        assert view.tournament.status == "finished" and view.tournament.round == 3
        later = [x.players for x in view.tables if x.round > 1]
        assert {3, 4}.isdisjoint(p for players in later for p in players)
        assert sum(len(players) == 2 for players in later) == 1  # 1 and 2 meet once more
        await service.close()
