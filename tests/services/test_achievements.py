"""Achievements on real games: played through the service on every map (people's seats play the
AI's choices), awarded at the end, each rule checked on the records of those games, recomputed
from the stored games, forgotten with the player and purged with the server."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.host.achievements import (
    ACHIEVEMENTS,
    BY_ID,
    Career,
    GameRecord,
    SeatRecord,
    achievements_of,
    career_of,
    map_ids,
)
from bot.host.services import GameService
from bot.host.services._achievements import fewest_points
from bot.host.storage import Storage, open_storage
from maps.loader import load_ruleset
from tests.services.conftest import BOB, HOST, FakeClock, lobby, play_for

MAPS = ("usa", "europe", "nordic", "paris", "amsterdam", "germany")


async def play_game(
    service: GameService, storage: Storage, clock: FakeClock, map_id: str, channel: int
) -> int:
    """A whole game of HOST and BOB (their moves the AI's choices) and one normal AI seat."""
    gid = await lobby(service, map_id=map_id, users=(HOST, BOB), ais=1, channel=channel)
    await service.lobby.start(gid, HOST)
    while (state := await service.loader.game_state(gid)).result is None:
        seat = state.seats_to_act()[0]
        user = (await storage.seats.seats(gid))[seat].user_id
        assert user is not None
        await play_for(service, storage, gid, user)
        clock.advance(60)
    return gid


@pytest.fixture
async def games(service: GameService, storage: Storage, clock: FakeClock) -> dict[str, int]:
    """One finished game per map, in the order of MAPS."""
    return {m: await play_game(service, storage, clock, m, 100 + n) for n, m in enumerate(MAPS)}


async def test_a_game_awards_at_its_end_what_its_record_meets_first(
    service: GameService, storage: Storage, games: dict[str, int]
) -> None:
    """Every game stored finished was awarded by the recorder: its rows are the pairs its record
    meets that no earlier game of the server gave the player, stamped with its finish time."""
    seen: set[tuple[int, str]] = set()
    total = 0
    for map_id in MAPS:
        gid = games[map_id]
        record = await service.achievements.record(gid)
        met = await service.achievements.earned(record)
        rows = await service.achievements.of_game(gid)
        assert {(r.user_id, r.achievement) for r in rows} == met - seen, map_id
        game = await storage.games.get_game(gid)
        assert game is not None and {r.earned_at for r in rows} <= {game.finished_at}
        seen |= met
        total += len(rows)
    assert total > 5  # the six games earn something: the test looks at real awards
    assert await service.achievements.award(games["usa"]) == await service.achievements.of_game(
        games["usa"]
    )  # awarding again changes nothing


async def test_the_records_read_the_replay_and_the_results(
    service: GameService, storage: Storage, games: dict[str, int]
) -> None:
    """A record's facts are the game's: points and tickets as in the results, routes, ferries and
    trains left as in the final state, a computer seat without a user."""
    for map_id in MAPS:
        gid = games[map_id]
        record = await service.achievements.record(gid)
        state = await service.loader.game_state(gid)
        rules = load_ruleset(map_id)
        results = {r.seat: r for r in await storage.results.results(gid)}
        assert record.map_id == map_id and record.ruleset == rules.name
        for seat in record.seats:
            player = state.players[seat.seat]
            routes = [rules.board.routes[r] for r in player.routes]
            assert seat.score == results[seat.seat].score
            assert seat.won == results[seat.seat].won
            assert seat.tickets_completed == results[seat.seat].tickets_completed
            assert seat.longest_route == max((r.length for r in routes), default=0)
            assert seat.ferries == sum(r.locomotives > 0 for r in routes)
            assert seat.pieces_left == player.pieces
            assert (seat.user_id is None) == (seat.ai_level is not None)
        lasts = [s.seat for s in record.seats if s.last_at_last_round]
        assert len(lasts) <= 1


def _seat(record: GameRecord, **changes: object) -> SeatRecord:
    """The first person's seat of ``record`` with ``changes``."""
    seat = next(s for s in record.seats if s.user_id is not None)
    return dataclasses.replace(seat, **changes)  # type: ignore[arg-type]


def _with(record: GameRecord, seat: SeatRecord, **changes: object) -> GameRecord:
    seats = tuple(seat if s.seat == seat.seat else s for s in record.seats)
    return dataclasses.replace(record, seats=seats, **changes)  # type: ignore[arg-type]


#: achievement -> (map whose real record is used, the change that earns it, one that does not).
Change = Callable[[GameRecord], tuple[GameRecord, SeatRecord]]


def _set(**changes: object) -> Change:
    def change(record: GameRecord) -> tuple[GameRecord, SeatRecord]:
        seat = _seat(record, **changes)
        return _with(record, seat), seat

    return change


def _against(level: str | None, place: int) -> Change:
    """The person's seat at place 2; the other seats played by ``level`` at ``place``."""

    def change(record: GameRecord) -> tuple[GameRecord, SeatRecord]:
        me = _seat(record, place=2)
        seats = tuple(
            me if s.seat == me.seat else dataclasses.replace(s, ai_level=level, place=place)
            for s in record.seats
        )
        return dataclasses.replace(record, seats=seats), me

    return change


def _margin(mine: int, best_other: int, *, shared: bool = False) -> Change:
    def change(record: GameRecord) -> tuple[GameRecord, SeatRecord]:
        me = _seat(record, won=True, score=mine)
        seats = tuple(
            me
            if s.seat == me.seat
            else dataclasses.replace(s, won=shared and n == 0, score=best_other - n)
            for n, s in enumerate(x for x in record.seats if x.seat != me.seat)
        )
        return dataclasses.replace(record, seats=(*seats,)), me

    return change


def _rated(mine: float, other: float, *, rated: bool = True) -> Change:
    def change(record: GameRecord) -> tuple[GameRecord, SeatRecord]:
        me = _seat(record, won=True, rating_before=mine)
        seats = tuple(
            me if s.seat == me.seat else dataclasses.replace(s, rating_before=other)
            for s in record.seats
        )
        return dataclasses.replace(record, seats=seats, rated=rated), me

    return change


def _players(n: int, *, won: bool = True) -> Change:
    def change(record: GameRecord) -> tuple[GameRecord, SeatRecord]:
        me = _seat(record, won=won)
        others = [s for s in record.seats if s.seat != me.seat]
        extra = [dataclasses.replace(others[0], seat=10 + k) for k in range(n - len(record.seats))]
        return dataclasses.replace(record, seats=(me, *others, *extra)), me

    return change


def _merchandise(mine: int, other: int) -> Change:
    def change(record: GameRecord) -> tuple[GameRecord, SeatRecord]:
        me = _seat(record, won=True, bonuses={"merchandise": mine})
        seats = tuple(
            me if s.seat == me.seat else dataclasses.replace(s, bonuses={"merchandise": other})
            for s in record.seats
        )
        return dataclasses.replace(record, seats=seats), me

    return change


CASES: dict[str, tuple[str, Change, Change]] = {
    "first_win": ("usa", _set(won=True), _set(won=False)),
    "regular": ("usa", _set(), _set()),  # career: below
    "veteran": ("usa", _set(), _set()),
    "grand_tour": ("usa", _set(), _set()),
    "globetrotter": (
        "nordic",
        _set(bonuses={"globetrotter": 10}),
        _set(bonuses={"globetrotter": 0}),
    ),
    "busy_timetable": ("usa", _set(tickets_completed=5), _set(tickets_completed=4)),
    "long_haul": ("usa", _set(longest_route=6), _set(longest_route=5)),
    "perfect_game": (
        "usa",
        _set(tickets_completed=4, tickets_failed=0),
        _set(tickets_completed=6, tickets_failed=1),
    ),
    "longest_path": (
        "usa",
        _set(bonuses={"longest_path": 10}),
        _set(bonuses={"longest_path": 0}),
    ),
    "european_express": (
        "europe",
        _set(won=True, stations_built=0, bonuses={"longest_path": 10, "stations": 12}),
        _set(won=True, stations_built=1, bonuses={"longest_path": 10, "stations": 8}),
    ),
    "machine_beater": ("usa", _against("hard", 3), _against("hard", 1)),
    "comeback": (
        "usa",
        _set(won=True, last_at_last_round=True),
        _set(won=False, last_at_last_round=True),
    ),
    "through_the_mountain": (
        "europe",
        _set(won=True, tunnel_extra=2),
        _set(won=True, tunnel_extra=0),
    ),
    "ferryman": ("nordic", _set(won=True, ferries=1), _set(won=False, ferries=3)),
    "vive_la_france": (
        "paris",
        _set(won=True, bonuses={"flags": 4}),
        _set(won=True, bonuses={"flags": 0}),
    ),
    "merchant": ("amsterdam", _merchandise(8, 8), _merchandise(6, 8)),
    "landslide": ("usa", _margin(140, 100), _margin(139, 100)),
    "photo_finish": ("usa", _margin(100, 98), _margin(100, 97)),
    "upset": ("usa", _rated(1.0, 2.0), _rated(1.0, 2.0, rated=False)),
    "full_house": ("usa", _players(5), _players(5, won=False)),
    "last_train": ("usa", _set(pieces_left=0), _set(pieces_left=1)),
}


def test_every_achievement_has_a_case_and_words() -> None:
    assert set(CASES) == set(BY_ID) and len(ACHIEVEMENTS) == len(BY_ID) >= 20
    for a in ACHIEVEMENTS:
        assert a.name and a.rule.endswith(".") and a.id.isidentifier()


@pytest.mark.parametrize("achievement", sorted(CASES))
async def test_each_rule_on_a_real_record(
    service: GameService, games: dict[str, int], achievement: str
) -> None:
    """The rule holds on a real game's record changed to meet it, and not on one changed not
    to; the map-only ones hold on no other rule set."""
    map_id, earns, misses = CASES[achievement]
    record = await service.achievements.record(games[map_id])
    rule = BY_ID[achievement].earned
    career = Career(games=1)
    if achievement in ("regular", "veteran", "grand_tour"):
        need = {"regular": 10, "veteran": 50}.get(achievement)
        seat = _seat(record)
        if need is not None:
            assert rule(record, seat, Career(need)) and not rule(record, seat, Career(need - 1))
        else:
            every = map_ids()
            assert rule(record, seat, Career(3, every))
            assert not rule(record, seat, Career(3, every - {"paris"}))
        return
    got, seat = earns(record)
    assert rule(got, seat, career), achievement
    got, seat = misses(record)
    assert not rule(got, seat, career), achievement
    if achievement == "european_express":
        usa = await service.achievements.record(games["usa"])
        got, seat = earns(usa)
        assert not rule(got, seat, career)


def test_computer_and_resigned_seats_earn_nothing() -> None:
    me = SeatRecord(seat=0, user_id=7, ai_level=None, won=True, place=1, score=50)
    ai = SeatRecord(seat=1, user_id=None, ai_level="hard", won=False, place=2, score=10)
    game = GameRecord(1, 1, "usa", "classic", 0.0, False, (me, ai))
    assert (7, "first_win") in achievements_of(game, {})
    assert (7, "machine_beater") in achievements_of(game, {})
    gone = dataclasses.replace(game, seats=(dataclasses.replace(me, resigned=True), ai))
    assert achievements_of(gone, {}) == frozenset()


def test_a_career_counts_the_games_up_to_this_one() -> None:
    rows = [(1, "usa", True, 10.0), (2, "paris", False, 20.0), (3, "europe", True, 20.0)]
    assert career_of(rows, (20.0, 2)) == Career(2, frozenset({"usa"}))
    assert career_of(rows, (30.0, 0)) == Career(3, frozenset({"usa", "europe"}))


async def test_the_comeback_reads_the_points_when_the_last_round_began(
    service: GameService, games: dict[str, int]
) -> None:
    """``fewest_points`` on a real state: the seat strictly lowest, none on a tie."""
    state = await service.loader.game_state(games["usa"])
    points = [p.route_points + p.bonus_points for p in state.players]
    low = min(points)
    expected = points.index(low) if points.count(low) == 1 else None
    assert fewest_points(state) == expected
    tied = dataclasses.replace(
        state,
        players=[dataclasses.replace(p, route_points=5, bonus_points=0) for p in state.players],
    )
    assert fewest_points(tied) is None


async def test_ten_games_make_a_regular_in_the_tenth(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """The career achievement comes with the game that completes it, once."""
    ids = [await play_game(service, storage, clock, "amsterdam", 300 + n) for n in range(10)]
    for user in (HOST, BOB):
        mine = {r.achievement: r for r in await service.achievements.of_user(1, user)}
        assert mine["regular"].game_id == ids[-1]
    earlier = [r for g in ids[:-1] for r in await service.achievements.of_game(g)]
    assert earlier and all(r.achievement != "regular" for r in earlier)


async def test_a_recompute_gives_the_same_set_and_repairs_a_lost_one(
    service: GameService, storage: Storage, games: dict[str, int], tmp_path: Path
) -> None:
    found = await service.achievements.recompute()
    stored = await storage.achievements.every_row()
    assert found.same and found.games == len(MAPS) and list(found.expected) == sorted(stored)
    lost = stored[0]
    with sqlite3.connect(tmp_path / "ttr.sqlite3") as conn:
        conn.execute(
            "DELETE FROM achievements WHERE user_id = ? AND achievement = ?",
            (lost.user_id, lost.achievement),
        )
    found = await service.achievements.recompute()
    assert found.missing == (lost,) and found.extra == () and not found.same
    assert (await service.achievements.recompute(repair=True)).repaired
    assert await storage.achievements.every_row() == stored
    assert (await service.achievements.recompute()).same
    with sqlite3.connect(tmp_path / "ttr.sqlite3") as conn:  # a log that no longer replays
        for (trigger,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'actions'"
        ).fetchall():
            conn.execute(f"DROP TRIGGER {trigger}")  # the damage the append-only log refuses
        conn.execute(
            'UPDATE actions SET action = \'{"kind": "pass"}\' WHERE game_id = ? AND seq = 1',
            (games["paris"],),
        )
    service.loader.forget_all()
    found = await service.achievements.recompute()
    assert found.skipped == (games["paris"],)
    assert {r.game_id for r in found.extra} == {games["paris"]}  # its rows are not recomputed


async def test_forgetting_a_player_and_purging_the_server_remove_them(
    service: GameService, storage: Storage, games: dict[str, int], tmp_path: Path
) -> None:
    assert await service.achievements.of_user(1, HOST) and await service.achievements.of_user(
        1, BOB
    )
    await service.privacy.forget_user(HOST)
    assert await service.achievements.of_user(1, HOST) == ()
    with sqlite3.connect(tmp_path / "ttr.sqlite3") as conn:
        cells = conn.execute("SELECT * FROM achievements").fetchall()
    assert cells and all(HOST not in row for row in cells)
    assert (await service.achievements.recompute()).same  # her results no longer name her
    await service.privacy.purge_guild(1)
    assert await storage.achievements.every_row() == []


async def test_awarding_and_recomputing_on_both_backends(any_url: str, clock: FakeClock) -> None:
    """The store's SQL (an insert that keeps the first game, the forgotten guard, the repair)
    on SQLite and on a real PostgreSQL."""
    async with await open_storage(any_url, clock=clock) as storage:
        service = GameService(storage, clock=clock, seed_source=lambda: 11)
        first = await play_game(service, storage, clock, "amsterdam", 1)
        second = await play_game(service, storage, clock, "amsterdam", 2)
        rows = await storage.achievements.every_row()
        assert rows and {r.game_id for r in rows} <= {first, second}
        assert await service.achievements.award(second) == await service.achievements.of_game(
            second
        )
        assert await storage.achievements.every_row() == rows  # the first game kept
        await storage.achievements.replace_all(rows[:1], [])
        found = await service.achievements.recompute(repair=True)
        assert found.missing == (rows[0],) and found.repaired
        assert await storage.achievements.every_row() == rows
        await service.privacy.forget_user(HOST)
        assert all(r.user_id != HOST for r in await storage.achievements.every_row())
        await service.close()
