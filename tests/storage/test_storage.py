"""Storage on real SQLite files: migrations, constraints, versioning, queries."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import (
    ChannelBusy,
    GameNotFound,
    GameRow,
    GameStatusError,
    MigrationError,
    NewSeat,
    NextTimer,
    PlayerResult,
    SeatNotFound,
    SeatTaken,
    Storage,
    StorageError,
    VersionConflict,
    _migrate,
    latest_version,
    load_migrations,
    migrate,
    open_storage,
    user_version,
)
from bot.storage._migrate import Migration, split_statements
from bot.storage._storage import _NEXT_TIMER_SQL

from .conftest import FakeClock

GUILD = 111
HOST = 1001


async def new_game(
    storage: Storage,
    channel_id: int = 500,
    users: tuple[int, ...] = (HOST,),
    *,
    guild_id: int = GUILD,
    map_id: str = "usa",
) -> GameRow:
    """A lobby game with one seat per user (seat numbers from 0)."""
    return await storage.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        host_user_id=users[0],
        map_id=map_id,
        options={"turn": "async"},
        seats=[NewSeat(display_name=f"user{u}", user_id=u) for u in users],
    )


async def started_game(
    storage: Storage, channel_id: int = 500, users: tuple[int, ...] = (HOST, 1002), **kw: object
) -> GameRow:
    """An active game at version 0 whose snapshot records seq 0."""
    game = await new_game(storage, channel_id, users, **kw)  # type: ignore[arg-type]
    return await storage.start_game(game.id, seed=42, snapshot={"seq": 0}, engine_version="test-1")


async def move(storage: Storage, game: GameRow, **kw: object) -> GameRow:
    """Append one action on top of ``game``'s version; the snapshot carries the seq."""
    seq = game.version + 1
    args: dict[str, object] = {
        "action": {"kind": "draw_blind", "n": seq},
        "new_snapshot": {"seq": seq},
        "seat": 0,
        "actor_user_id": HOST,
        "deadline_at": None,
        "reminder_at": None,
    }
    args.update(kw)
    return await storage.append_action(game.id, game.version, **args)  # type: ignore[arg-type]


def raw(path: Path) -> sqlite3.Connection:
    """A plain second connection for looking under the hood."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


# -- migrations -----------------------------------------------------------


async def test_empty_file_migrates_to_latest(db_path: Path) -> None:
    """A new file (in a missing folder) ends at the latest user_version with every table."""
    async with await open_storage(db_path) as storage:
        assert (await storage.pragmas())["user_version"] == latest_version() == 2
    tables = {r[0] for r in raw(db_path).execute("SELECT name FROM sqlite_master")}
    assert {"games", "seats", "actions", "results"} <= tables


async def test_version_1_database_upgrades_in_place(db_path: Path) -> None:
    """A database stopped at migration 1 with a game in it upgrades with its data intact."""
    db_path.parent.mkdir(parents=True)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await migrate(conn, upto=1) == 1
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, map_id, options, status,"
            " seed, engine_version, version, snapshot, created_at, updated_at)"
            " VALUES (7, 1, 2, 3, 'europe', '{\"x\":1}', 'active', 99, 'e1', 1,"
            " '{\"seq\":1}', 10.0, 11.0)"
        )
        await conn.execute(
            "INSERT INTO seats (game_id, seat, user_id, display_name, color, is_ai, joined_at)"
            " VALUES (7, 0, 3, 'Ann', 'red', 0, 10.0)"
        )
        await conn.execute(
            "INSERT INTO actions VALUES (7, 1, 0, '{\"kind\":\"draw_blind\"}', 3, 'player', 10.5)"
        )
        assert await user_version(conn) == 1

    async with await open_storage(db_path) as storage:
        assert (await storage.pragmas())["user_version"] == 2
        game = await storage.get_game(7)
        assert game is not None
        assert (game.map_id, game.options, game.status, game.seed, game.version) == (
            "europe",
            {"x": 1},
            "active",
            99,
            1,
        )
        assert game.snapshot == {"seq": 1}
        assert (game.turn_seconds, game.deadline_at, game.reminder_at) == (86_400, None, None)
        [seat] = await storage.seats(7)
        assert (seat.display_name, seat.color, seat.expiries_in_row, seat.resigned) == (
            "Ann",
            "red",
            0,
            False,
        )
        [action] = await storage.actions(7)
        assert (action.seq, action.action, action.source) == (1, {"kind": "draw_blind"}, "player")
        assert await storage.integrity_check() == ["ok"]
        # the upgraded game keeps working
        game = await move(storage, game)
        assert game.version == 2


async def test_migrate_twice_is_a_no_op(db_path: Path) -> None:
    """Re-running migrate on an up-to-date file changes nothing."""
    db_path.parent.mkdir(parents=True)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await migrate(conn) == latest_version()
        schema = list(await conn.execute_fetchall("SELECT sql FROM sqlite_master ORDER BY name"))
        assert await migrate(conn) == latest_version()
        again = list(await conn.execute_fetchall("SELECT sql FROM sqlite_master ORDER BY name"))
        assert [tuple(r) for r in again] == [tuple(r) for r in schema]


async def test_newer_database_is_refused(db_path: Path) -> None:
    """A file written by newer code (higher user_version) is not touched."""
    db_path.parent.mkdir(parents=True)
    raw(db_path).execute("PRAGMA user_version = 99")
    with pytest.raises(MigrationError, match="newer"):
        await open_storage(db_path)


async def test_failed_migration_rolls_back_whole_file(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration that fails halfway leaves neither its tables nor its version behind."""
    first = load_migrations()[0]
    broken = Migration(2, "0002_broken.sql", ("CREATE TABLE half_done (x)", "NOT VALID SQL"))
    monkeypatch.setattr(_migrate, "load_migrations", lambda: (first, broken))
    db_path.parent.mkdir(parents=True)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(MigrationError, match="0002_broken.sql"):
            await migrate(conn)
        assert await user_version(conn) == 1
        assert not conn.in_transaction
        names = {r[0] for r in await conn.execute_fetchall("SELECT name FROM sqlite_master")}
        assert "games" in names and "half_done" not in names


def test_shipped_migrations_split_into_complete_statements() -> None:
    """Every shipped file is numbered in order and splits into complete single statements."""
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    for migration in migrations:
        assert migration.statements, migration.name
        for statement in migration.statements:
            assert sqlite3.complete_statement(statement), (migration.name, statement)


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    """Semicolons inside a trigger body or a comment do not end a statement."""
    script = (
        "-- first; a comment\n"
        "CREATE TABLE t (x);\n"
        "CREATE TRIGGER g BEFORE INSERT ON t\n"
        "BEGIN\n"
        "    SELECT 1;\n"
        "    SELECT 2;\n"
        "END;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(MigrationError):
        split_statements("CREATE TABLE t (x)\n")


# -- connection -------------------------------------------------------------


async def test_wal_foreign_keys_and_synchronous(storage: Storage) -> None:
    """The connection runs WAL with synchronous=NORMAL, foreign keys and a busy timeout."""
    pragmas = await storage.pragmas()
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["foreign_keys"] == 1
    assert pragmas["synchronous"] == 1  # NORMAL
    assert pragmas["busy_timeout"] > 0
    assert raw(storage.path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_close_is_idempotent_and_reopen_sees_data(db_path: Path) -> None:
    """Closing twice is harmless and a reopened file has the committed game."""
    storage = await open_storage(db_path)
    game = await new_game(storage)
    await storage.close()
    await storage.close()
    async with await open_storage(db_path) as again:
        assert await again.get_game(game.id) == game


async def test_memory_database_is_refused(tmp_path: Path) -> None:
    """WAL is mandatory, so an in-memory database is rejected."""
    with pytest.raises(StorageError, match="WAL"):
        await open_storage(":memory:")


# -- games ------------------------------------------------------------------


async def test_create_game_returns_lobby_row(storage: Storage, clock: FakeClock) -> None:
    """A new game is a lobby at version 0 without snapshot, with the host seated."""
    game = await new_game(storage, channel_id=77)
    assert game.status == "lobby" and game.version == 0 and game.snapshot is None
    assert (game.guild_id, game.channel_id, game.host_user_id) == (GUILD, 77, HOST)
    assert game.options == {"turn": "async"}
    assert game.created_at == game.updated_at == clock.now
    assert [s.user_id for s in await storage.seats(game.id)] == [HOST]
    assert await storage.get_game(game.id) == game
    assert await storage.active_game_in_channel(77) == game
    assert await storage.get_game(999) is None


async def test_one_open_game_per_channel(storage: Storage) -> None:
    """A channel holds one lobby/active game; cancelling or finishing frees it."""
    lobby = await new_game(storage, channel_id=9)
    with pytest.raises(ChannelBusy) as busy:
        await new_game(storage, channel_id=9)
    assert busy.value.game_id == lobby.id
    await new_game(storage, channel_id=10)  # other channels are free

    await storage.set_status(lobby.id, "cancelled")
    assert await storage.active_game_in_channel(9) is None
    second = await started_game(storage, channel_id=9)
    with pytest.raises(ChannelBusy):
        await new_game(storage, channel_id=9)

    await move(storage, second, new_status="finished")
    third = await new_game(storage, channel_id=9)
    assert await storage.active_game_in_channel(9) == third
    assert len(await storage.list_games()) == 4
    assert [g.id for g in await storage.list_games("lobby")] == [2, third.id]


async def test_partial_unique_index_holds_without_the_repository(storage: Storage) -> None:
    """The database itself refuses a second open game in a channel."""
    await new_game(storage, channel_id=9)
    conn = raw(storage.path)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, map_id, status, created_at,"
            " updated_at) VALUES (1, 9, 1, 'usa', 'active', 0, 0)"
        )
    conn.execute(
        "INSERT INTO games (guild_id, channel_id, host_user_id, map_id, status, created_at,"
        " updated_at) VALUES (1, 9, 1, 'usa', 'finished', 0, 0)"
    )


async def test_start_game_once(storage: Storage) -> None:
    """start_game turns a lobby active with seed, snapshot and timers; a second start fails."""
    game = await new_game(storage)
    started = await storage.start_game(
        game.id, seed=7, snapshot={"seq": 0}, engine_version="e2", deadline_at=5.0, reminder_at=4.0
    )
    assert (started.status, started.seed, started.engine_version, started.version) == (
        "active",
        7,
        "e2",
        0,
    )
    assert (started.snapshot, started.deadline_at, started.reminder_at) == ({"seq": 0}, 5.0, 4.0)
    with pytest.raises(GameStatusError):
        await storage.start_game(game.id, seed=8, snapshot={}, engine_version="e2")
    with pytest.raises(GameNotFound):
        await storage.start_game(999, seed=8, snapshot={}, engine_version="e2")


async def test_status_transitions(storage: Storage, clock: FakeClock) -> None:
    """Only lobby->cancelled and active->finished/cancelled; final statuses stay final."""
    lobby = await new_game(storage, channel_id=1)
    with pytest.raises(GameStatusError):
        await storage.set_status(lobby.id, "finished")
    with pytest.raises(GameStatusError):
        await storage.set_status(lobby.id, "active")

    game = await started_game(storage, channel_id=2)
    await storage.set_deadline(game.id, 100.0, 50.0)
    clock.now += 60
    finished = await storage.set_status(game.id, "finished", expected_version=0)
    assert (finished.status, finished.finished_at) == ("finished", clock.now)
    assert (finished.deadline_at, finished.reminder_at) == (None, None)
    assert await storage.set_status(game.id, "finished") == finished  # retry is a no-op
    with pytest.raises(GameStatusError):
        await storage.set_status(game.id, "cancelled")
    with pytest.raises(GameNotFound):
        await storage.set_status(999, "cancelled")


async def test_message_ids(storage: Storage) -> None:
    """set_message_ids changes only the given ids; None clears one."""
    game = await new_game(storage)
    await storage.set_message_ids(game.id, lobby_message_id=5)
    await storage.set_message_ids(game.id, board_message_id=6)
    game = await storage.get_game(game.id)
    assert game is not None and (game.lobby_message_id, game.board_message_id) == (5, 6)
    await storage.set_message_ids(game.id, lobby_message_id=None)
    game = await storage.get_game(game.id)
    assert game is not None and (game.lobby_message_id, game.board_message_id) == (None, 6)
    with pytest.raises(GameNotFound):
        await storage.set_message_ids(999, board_message_id=1)


async def test_json_is_compact_sorted_utf8(storage: Storage) -> None:
    """JSON columns are stored compact, key-sorted and without ASCII escapes."""
    game = await new_game(storage)
    await storage.start_game(
        game.id, seed=1, snapshot={"b": "München", "a": [1, 2]}, engine_version="e"
    )
    text = raw(storage.path).execute("SELECT snapshot FROM games").fetchone()[0]
    assert text == '{"a":[1,2],"b":"München"}'


# -- actions and versions ---------------------------------------------------


async def test_append_action_advances_version(storage: Storage, clock: FakeClock) -> None:
    """Each action gets seq = old version + 1, and the game takes the new snapshot and timers."""
    game = await started_game(storage)
    clock.now += 1
    game = await move(storage, game, deadline_at=clock.now + 100, reminder_at=clock.now + 50)
    game = await move(storage, game, seat=1, actor_user_id=None, source="ai")
    assert game.version == 2 and game.snapshot == {"seq": 2}
    assert (game.deadline_at, game.reminder_at) == (None, None)
    log = await storage.actions(game.id)
    assert [(a.seq, a.seat, a.source, a.actor_user_id) for a in log] == [
        (1, 0, "player", HOST),
        (2, 1, "ai", None),
    ]
    assert log[0].action == {"kind": "draw_blind", "n": 1}
    assert [a.seq for a in await storage.actions(game.id, after_seq=1)] == [2]
    assert [a.seq for a in await storage.actions(game.id, limit=1)] == [1]


async def test_stale_version_conflicts_and_changes_nothing(storage: Storage) -> None:
    """A stale expected_version raises VersionConflict; version, snapshot and log stay."""
    game = await started_game(storage)
    moved = await move(storage, game)
    with pytest.raises(VersionConflict) as conflict:
        await move(storage, game, new_snapshot={"seq": "stale"})
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    with pytest.raises(VersionConflict):
        await storage.append_action(
            game.id,
            5,
            action={"x": 1},
            new_snapshot={"seq": 6},
            seat=0,
            deadline_at=None,
            reminder_at=None,
        )
    assert await storage.get_game(game.id) == moved
    assert [a.seq for a in await storage.actions(game.id)] == [1]


async def test_racing_appends_on_one_game_let_exactly_one_win(storage: Storage) -> None:
    """Ten simultaneous moves from the same version: one lands, nine conflict."""
    game = await started_game(storage)
    outcomes = await asyncio.gather(
        *(move(storage, game, seat=i % 2) for i in range(10)), return_exceptions=True
    )
    assert sum(isinstance(o, GameRow) for o in outcomes) == 1
    assert sum(isinstance(o, VersionConflict) for o in outcomes) == 9
    assert [a.seq for a in await storage.actions(game.id)] == [1]


async def test_actions_need_an_active_game(storage: Storage) -> None:
    """Appending to a lobby, a finished or a missing game fails."""
    lobby = await new_game(storage, channel_id=1)
    with pytest.raises(GameStatusError):
        await move(storage, lobby)
    game = await started_game(storage, channel_id=2)
    game = await move(storage, game, new_status="finished")
    assert game.status == "finished" and game.finished_at is not None
    with pytest.raises(GameStatusError):
        await move(storage, game)
    with pytest.raises(GameNotFound):
        await storage.append_action(
            999, 0, action={}, new_snapshot={}, seat=0, deadline_at=None, reminder_at=None
        )
    with pytest.raises(ValueError):
        await move(storage, game, new_status="active")


async def test_unencodable_snapshot_writes_nothing(storage: Storage) -> None:
    """NaN is not JSON: the append fails before touching the database."""
    game = await started_game(storage)
    with pytest.raises(ValueError):
        await move(storage, game, new_snapshot={"seq": float("nan")})
    assert await storage.get_game(game.id) == game
    assert await storage.actions(game.id) == []


async def test_action_log_is_append_only_and_gapless(storage: Storage) -> None:
    """Triggers refuse updating, deleting or skipping seqs in the log."""
    game = await started_game(storage)
    await move(storage, game)
    conn = raw(storage.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE actions SET seat = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM actions")
    with pytest.raises(sqlite3.IntegrityError, match="seq must follow"):
        conn.execute(f"INSERT INTO actions VALUES ({game.id}, 3, 0, '{{}}', NULL, 'ai', 0)")


async def test_two_hundred_concurrent_appends_on_different_games(storage: Storage) -> None:
    """200 append_action calls on 200 games via gather all land, each exactly once."""
    games = [await started_game(storage, channel_id=10_000 + i) for i in range(200)]
    started = time.perf_counter()
    moved = await asyncio.gather(*(move(storage, g) for g in games))
    elapsed = time.perf_counter() - started
    assert [g.version for g in moved] == [1] * 200
    assert [g.snapshot for g in moved] == [{"seq": 1}] * 200
    conn = raw(storage.path)
    assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT game_id) FROM actions").fetchone() == (
        200,
        200,
    )
    assert conn.execute("SELECT MIN(version), MAX(version) FROM games").fetchone() == (1, 1)
    assert elapsed < 10, elapsed


# -- seats ------------------------------------------------------------------


async def test_seats_add_number_update_remove(storage: Storage) -> None:
    """Seats take the lowest free number, refuse duplicates, update and free cleanly."""
    game = await new_game(storage, users=(HOST,))
    ai = await storage.add_seat(game.id, NewSeat(display_name="Bot", is_ai=True, ai_kind="heur"))
    assert (ai.seat, ai.is_ai, ai.ai_kind, ai.user_id) == (1, True, "heur", None)
    await storage.add_seat(game.id, NewSeat(display_name="C", user_id=3, seat=4))
    with pytest.raises(SeatTaken):
        await storage.add_seat(game.id, NewSeat(display_name="again", user_id=HOST))
    with pytest.raises(SeatTaken):
        await storage.add_seat(game.id, NewSeat(display_name="D", user_id=4, seat=4))
    with pytest.raises(GameNotFound):
        await storage.add_seat(999, NewSeat(display_name="E", user_id=5))
    assert await storage.remove_seat(game.id, 1) is True
    assert await storage.remove_seat(game.id, 1) is False
    refill = await storage.add_seat(game.id, NewSeat(display_name="F", user_id=6))
    assert refill.seat == 1
    assert [s.seat for s in await storage.seats(game.id)] == [0, 1, 4]

    updated = await storage.update_seat(
        game.id,
        0,
        color="red",
        expiries_in_row=2,
        ai_permanent=True,
        vacation_used_s=3600.5,
        vacation_until=123.0,
    )
    assert (updated.color, updated.expiries_in_row, updated.ai_permanent) == ("red", 2, True)
    assert (updated.vacation_used_s, updated.vacation_until, updated.resigned) == (
        3600.5,
        123.0,
        False,
    )
    cleared = await storage.update_seat(game.id, 0, vacation_until=None, resigned=True)
    assert (cleared.vacation_until, cleared.resigned, cleared.color) == (None, True, "red")
    assert await storage.update_seat(game.id, 0) == cleared
    with pytest.raises(SeatTaken):
        await storage.update_seat(game.id, 0, user_id=6)
    with pytest.raises(SeatNotFound):
        await storage.update_seat(game.id, 9, color="blue")
    with pytest.raises(sqlite3.IntegrityError):
        await storage.update_seat(game.id, 0, expiries_in_row=-1)


async def test_games_for_user(storage: Storage) -> None:
    """games_for_user lists the games a user sits in, filtered by status."""
    a = await started_game(storage, channel_id=1, users=(HOST, 2))
    b = await new_game(storage, channel_id=2, users=(2, HOST))
    await started_game(storage, channel_id=3, users=(3, 4))
    assert [g.id for g in await storage.games_for_user(HOST)] == [a.id]
    assert [g.id for g in await storage.games_for_user(HOST, status="lobby")] == [b.id]
    assert [g.id for g in await storage.games_for_user(HOST, status=None)] == [a.id, b.id]
    assert await storage.games_for_user(999) == []


async def test_delete_cascades(storage: Storage) -> None:
    """Deleting a game removes its seats, actions and results too."""
    game = await started_game(storage)
    game = await move(storage, game)
    await move(
        storage,
        game,
        new_status="finished",
        results=[PlayerResult(0, HOST, 50, 1, True), PlayerResult(1, 1002, 40, 2, False)],
    )
    other = await started_game(storage, channel_id=501)
    assert await storage.delete_game(game.id) is True
    assert await storage.delete_game(game.id) is False
    conn = raw(storage.path)
    for table in ("seats", "actions", "results"):
        left = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game.id,))
        assert left.fetchone()[0] == 0, table
    assert len(await storage.seats(other.id)) == 2
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


# -- results and statistics --------------------------------------------------


async def finish(
    storage: Storage,
    clock: FakeClock,
    channel_id: int,
    scores: dict[int, tuple[int, int, int]],
    *,
    guild_id: int = GUILD,
    map_id: str = "usa",
) -> GameRow:
    """Play a game to its end with {user: (score, tickets_completed, tickets_failed)}."""
    users = tuple(scores)
    game = await started_game(storage, channel_id, users, guild_id=guild_id, map_id=map_id)
    clock.now += 100
    best = max(s for s, _, _ in scores.values())
    ordered = sorted(scores.values(), key=lambda v: -v[0])
    results = [
        PlayerResult(
            seat=i,
            user_id=u,
            score=s,
            rank=1 + [o[0] for o in ordered].index(s),
            won=s == best,
            tickets_completed=done,
            tickets_failed=failed,
        )
        for i, (u, (s, done, failed)) in enumerate(scores.items())
    ]
    return await move(storage, game, new_status="finished", results=results)


async def test_results_history_and_leaderboard(storage: Storage, clock: FakeClock) -> None:
    """Stats over three finished games give the right wins, averages and tickets."""
    g1 = await finish(storage, clock, 1, {1: (100, 3, 1), 2: (80, 2, 0)})
    g2 = await finish(storage, clock, 2, {1: (60, 1, 2), 2: (90, 4, 0), 3: (30, 0, 3)})
    g3 = await finish(storage, clock, 3, {2: (70, 2, 1), 3: (75, 3, 0)}, map_id="europe")
    await finish(storage, clock, 4, {1: (500, 9, 0)}, guild_id=999)  # other guild

    stored = await storage.results(g1.id)
    assert [(r.user_id, r.rank, r.won, r.guild_id, r.map_id) for r in stored] == [
        (1, 1, True, GUILD, "usa"),
        (2, 2, False, GUILD, "usa"),
    ]
    assert stored[0].finished_at == g1.finished_at

    history = await storage.user_history(2, limit=2)
    assert [(r.game_id, r.score, r.rank, r.won) for r in history] == [
        (g3.id, 70, 2, False),
        (g2.id, 90, 1, True),
    ]
    assert len(await storage.user_history(1)) == 3
    assert len(await storage.user_history(1, guild_id=GUILD)) == 2

    board = await storage.leaderboard(GUILD)
    assert [(r.user_id, r.games, r.wins, r.tickets_completed, r.tickets_failed) for r in board] == [
        (2, 3, 1, 8, 1),
        (1, 2, 1, 4, 3),
        (3, 2, 1, 3, 3),
    ]
    assert [r.avg_score for r in board] == [80.0, 80.0, 52.5]
    assert [r.user_id for r in await storage.leaderboard(GUILD, limit=1)] == [2]
    europe = await storage.leaderboard(GUILD, map_id="europe")
    assert [(r.user_id, r.wins) for r in europe] == [(3, 1), (2, 0)]


async def test_record_results_is_idempotent_per_game(storage: Storage, clock: FakeClock) -> None:
    """Recording a game's results again replaces them instead of doubling the stats."""
    game = await started_game(storage, users=(1, 2))
    with pytest.raises(GameStatusError):
        await storage.record_results(game.id, [PlayerResult(0, 1, 10, 1, True)])
    await storage.set_status(game.id, "finished")
    rows = [PlayerResult(0, 1, 10, 1, True), PlayerResult(1, None, 5, 2, False)]
    first = await storage.record_results(game.id, rows)
    second = await storage.record_results(game.id, rows)
    assert first == second and len(second) == 2
    board = await storage.leaderboard(GUILD)
    assert [(r.user_id, r.games) for r in board] == [(1, 1)]  # the AI seat is left out
    with pytest.raises(ValueError):
        await storage.record_results(game.id, [rows[0], rows[0]])
    with pytest.raises(GameNotFound):
        await storage.record_results(999, rows)


# -- timers -----------------------------------------------------------------


async def test_next_deadline_picks_the_soonest(storage: Storage) -> None:
    """next_deadline returns the earliest deadline or reminder of an active game."""
    assert await storage.next_deadline() is None
    a = await started_game(storage, channel_id=1)
    b = await started_game(storage, channel_id=2)
    c = await started_game(storage, channel_id=3)
    lobby = await new_game(storage, channel_id=4)
    await storage.set_deadline(a.id, 300.0, 250.0)
    await storage.set_deadline(b.id, 200.0, None)
    await storage.set_deadline(c.id, None, 220.0)
    await storage.set_deadline(lobby.id, 1.0, 0.5)  # not active: ignored
    assert await storage.next_deadline() == NextTimer(b.id, 200.0, "deadline")

    await storage.set_deadline(c.id, None, 150.0)
    when = await storage.next_deadline()
    assert when == (c.id, 150.0, "reminder")

    await storage.set_status(c.id, "cancelled")
    await storage.set_deadline(b.id, 250.0, None)  # ties a's reminder: deadline first
    assert await storage.next_deadline() == NextTimer(b.id, 250.0, "deadline")

    with pytest.raises(VersionConflict):
        await storage.set_deadline(a.id, 1.0, None, expected_version=5)
    with pytest.raises(GameNotFound):
        await storage.set_deadline(999, 1.0, None)


async def test_next_deadline_uses_the_partial_indexes(storage: Storage) -> None:
    """The timer query searches the two partial indexes instead of scanning games."""
    for i in range(20):
        game = await started_game(storage, channel_id=i)
        await storage.set_deadline(game.id, 100.0 + i, 50.0 + i if i % 2 else None)
    conn = raw(storage.path)
    for _ in ("fresh", "analyzed"):
        plan = conn.execute("EXPLAIN QUERY PLAN " + _NEXT_TIMER_SQL).fetchall()
        details = " | ".join(row[3] for row in plan)
        assert "USING INDEX games_active_deadline" in details, details
        assert "USING INDEX games_active_reminder" in details, details
        assert "SCAN games" not in details, details
        conn.execute("ANALYZE")
