"""SQLite specifics: migrations on files, pragmas, triggers and indexes under the hood."""

from __future__ import annotations

import json
import secrets
import sqlite3
import zlib
from pathlib import Path

import aiosqlite
import pytest

from bot.host.storage import (
    MigrationError,
    ShardFilter,
    StorageError,
    _migrate,
    latest_version,
    load_migrations,
    migrate,
    open_storage,
    user_version,
)
from bot.host.storage._migrate import Migration, split_statements
from bot.host.storage._sqlite import PAGE_SIZE, SqliteStorage
from bot.host.storage._timers import next_timer_query

from .test_storage import move, new_game, started_game


def raw(path: Path) -> sqlite3.Connection:
    """A plain second connection for looking under the hood."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


# -- migrations -----------------------------------------------------------


async def test_empty_file_migrates_to_latest(db_path: Path) -> None:
    """A new file (in a missing folder) ends at the latest user_version with every table."""
    async with await open_storage(db_path) as storage:
        assert isinstance(storage, SqliteStorage)
        assert (await storage.pragmas())["user_version"] == latest_version() == 11
    tables = {r[0] for r in raw(db_path).execute("SELECT name FROM sqlite_master")}
    assert {"games", "seats", "actions", "results", "snapshots", "user_settings"} <= tables
    assert {"guild_settings", "ladders", "seasons", "rated_games", "ratings"} <= tables
    assert {"rating_history", "guild_departures"} <= tables
    assert not {"games_v3", "actions_v3"} & tables


async def test_version_1_database_upgrades_in_place(db_path: Path) -> None:
    """A database stopped at migration 1 with a game in it upgrades to the latest with its
    data intact: the snapshot moves to its own table, the log keeps its rows."""
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
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, map_id, status,"
            " created_at, updated_at) VALUES (8, 1, 3, 3, 'usa', 'lobby', 12.0, 12.0)"
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
        assert await storage.schema_version() == latest_version()
        game = await storage.games.get_game(7)
        assert game is not None
        assert (game.map_id, game.options, game.status, game.seed, game.version) == (
            "europe",
            {"x": 1},
            "active",
            99,
            1,
        )
        assert (game.snapshot_version, game.language, game.rematch_of) == (1, "en", None)
        assert (game.turn_seconds, game.deadline_at, game.reminder_at) == (86_400, None, None)
        checkpoint = await storage.actions.load_checkpoint(7)
        assert checkpoint is not None
        assert (checkpoint.version, checkpoint.snapshot, checkpoint.actions) == (1, {"seq": 1}, ())
        lobby = await storage.games.get_game(8)
        assert lobby is not None and lobby.snapshot_version is None
        [seat] = await storage.seats.seats(7)
        assert (seat.display_name, seat.color, seat.expiries_in_row, seat.resigned) == (
            "Ann",
            "red",
            0,
            False,
        )
        [action] = await storage.actions.actions(7)
        assert (action.seq, action.action, action.source) == (1, {"kind": "draw_blind"}, "player")
        assert await storage.integrity_check() == ["ok"]
        game = await move(storage, game)  # the upgraded game keeps working
        assert game.version == 2
    conn = raw(db_path)
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM actions")  # the log's triggers came back with the rebuild


async def test_rated_games_have_no_hints_after_the_coach_migration(db_path: Path) -> None:
    """Games stored before the coach's migration: a rated one gets hints off (a rated game's
    fairness), a casual one keeps them allowed."""
    (coach,) = [m.version for m in load_migrations() if m.name.endswith("_coach.sql")]
    db_path.parent.mkdir(parents=True)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await migrate(conn, upto=coach - 1) == coach - 1
        for game_id, rated in ((1, 1), (2, 0)):
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_user_id, map_id, status,"
                " created_at, updated_at, rated) VALUES (?, 1, ?, 3, 'usa', 'lobby', 1.0, 1.0, ?)",
                (game_id, 10 + game_id, rated),
            )
    async with await open_storage(db_path) as storage:
        games = [await storage.games.get_game(g) for g in (1, 2)]
        assert [(g.rated, g.hints_allowed) for g in games if g] == [(True, False), (False, True)]


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
    assert raw(db_path).execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0


async def test_failed_migration_rolls_back_whole_file(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration that fails halfway leaves neither its tables nor its version behind."""
    first = load_migrations()[0]
    broken = Migration(2, "0002_broken.sql", ("CREATE TABLE half_done (x)", "NOT VALID SQL"))
    monkeypatch.setattr(_migrate, "load_migrations", lambda dialect="sqlite": (first, broken))
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
    assert [m.foreign_keys_off for m in migrations][:4] == [False, False, True, False]


def test_both_backends_ship_the_same_migrations() -> None:
    """PostgreSQL has a file of the same number and name for every SQLite migration."""
    assert [m.name for m in load_migrations("postgres")] == [m.name for m in load_migrations()]


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


async def test_wal_foreign_keys_synchronous_and_small_pages(
    sqlite_storage: SqliteStorage,
) -> None:
    """The file runs WAL with synchronous=NORMAL, foreign keys, a busy timeout and small pages."""
    pragmas = await sqlite_storage.pragmas()
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["foreign_keys"] == 1
    assert pragmas["synchronous"] == 1  # NORMAL
    assert pragmas["busy_timeout"] > 0
    assert pragmas["page_size"] == PAGE_SIZE == 512
    assert raw(sqlite_storage.path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_existing_files_keep_their_page_size(db_path: Path) -> None:
    """A file made with 4 KB pages opens and works as it is."""
    db_path.parent.mkdir(parents=True)
    conn = raw(db_path)
    conn.execute("PRAGMA page_size = 4096")
    conn.execute("CREATE TABLE x (y)")
    conn.execute("DROP TABLE x")
    conn.close()
    async with await open_storage(db_path) as storage:
        assert isinstance(storage, SqliteStorage)
        assert (await storage.pragmas())["page_size"] == 4096
        await started_game(storage)


async def test_memory_database_is_refused() -> None:
    """WAL is mandatory, so an in-memory database is rejected."""
    with pytest.raises(StorageError, match="WAL"):
        await open_storage(":memory:")


async def test_partial_unique_index_holds_without_the_repository(
    sqlite_storage: SqliteStorage,
) -> None:
    """The database itself refuses a second open game in a channel."""
    await new_game(sqlite_storage, channel_id=9)
    conn = raw(sqlite_storage.path)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, map_id, status, created_at,"
            " updated_at) VALUES (1, 9, 1, 'usa', 'active', 0, 0)"
        )
    conn.execute(
        "INSERT INTO games (guild_id, channel_id, host_user_id, map_id, status, created_at,"
        " updated_at) VALUES (1, 9, 1, 'usa', 'quarantined', 0, 0)"
    )
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, map_id, status, created_at,"
            " updated_at) VALUES (1, 9, 1, 'usa', 'paused', 0, 0)"
        )


async def test_json_is_compact_sorted_utf8_and_snapshots_compressed(
    sqlite_storage: SqliteStorage,
) -> None:
    """JSON columns are compact, key-sorted, without ASCII escapes; snapshots are zlib'd JSON."""
    game = await new_game(sqlite_storage)
    await sqlite_storage.games.start_game(
        game.id, seed=1, snapshot={"b": "München", "a": [1, 2]}, engine_version="e"
    )
    conn = raw(sqlite_storage.path)
    assert conn.execute("SELECT options FROM games").fetchone()[0] == '{"turn":"async"}'
    fmt, data = conn.execute("SELECT format, data FROM snapshots").fetchone()
    assert fmt == "zjson"
    assert zlib.decompress(data).decode() == '{"a":[1,2],"b":"München"}'
    assert json.loads(zlib.decompress(data)) == {"a": [1, 2], "b": "München"}


async def test_action_log_is_append_only_and_gapless(sqlite_storage: SqliteStorage) -> None:
    """Triggers refuse updating, deleting or skipping seqs in the log."""
    game = await started_game(sqlite_storage)
    await move(sqlite_storage, game)
    conn = raw(sqlite_storage.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE actions SET seat = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM actions")
    with pytest.raises(sqlite3.IntegrityError, match="seq must follow"):
        conn.execute(f"INSERT INTO actions VALUES ({game.id}, 3, 0, '{{}}', NULL, 'ai', 0)")


async def test_next_deadline_uses_the_partial_index(sqlite_storage: SqliteStorage) -> None:
    """The timer query walks the partial timer index in order instead of scanning games, with
    or without a shard filter."""
    for i in range(20):
        game = await started_game(sqlite_storage, channel_id=i)
        await sqlite_storage.timers.set_deadline(game.id, 100.0 + i, 50.0 + i if i % 2 else None)
    conn = raw(sqlite_storage.path)
    for _ in ("fresh", "analyzed"):
        for shards in (None, ShardFilter(4, frozenset({1, 2}))):
            sql, params = next_timer_query(shards)
            plan = conn.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
            details = " | ".join(row[3] for row in plan)
            assert "USING INDEX games_active_timer" in details, details
            assert "TEMP B-TREE" not in details, details  # no sort: the index gives the order
        conn.execute("ANALYZE")


async def test_a_full_disk_rolls_the_write_back_whole(sqlite_storage: SqliteStorage) -> None:
    """When the file cannot grow, the append fails with StorageFull and leaves nothing;
    once there is room again the game goes on from where it was."""
    from bot.host.storage import StorageFull

    game = await started_game(sqlite_storage)
    used = int(raw(sqlite_storage.path).execute("PRAGMA page_count").fetchone()[0])
    await sqlite_storage.set_max_pages(used)
    big = {"seq": 1, "pad": secrets.token_hex(50_000)}  # does not compress
    with pytest.raises(StorageFull):
        await move(sqlite_storage, game, new_snapshot=big)
    assert await sqlite_storage.games.get_game(game.id) == game
    assert await sqlite_storage.actions.actions(game.id) == []
    await sqlite_storage.set_max_pages(None)
    game = await move(sqlite_storage, game, new_snapshot=big)
    assert game.version == 1
    assert await sqlite_storage.integrity_check() == ["ok"]
