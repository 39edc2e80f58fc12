"""PostgreSQL specifics on a real server: migrations, the log's triggers, advisory locks."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.host.storage import (
    MigrationError,
    StorageUnavailable,
    VersionConflict,
    latest_version,
    open_storage,
)
from bot.host.storage._migrate import migrate_postgres, postgres_version
from bot.host.storage._postgres import PostgresStorage, redact

from .test_storage import move, started_game


async def test_version_1_database_upgrades_in_place(postgres_url: str) -> None:
    """A database stopped at migration 1 with a game in it upgrades to the latest."""
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await migrate_postgres(conn, upto=1) == 1
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, map_id, options, status,"
            " seed, engine_version, version, snapshot, created_at, updated_at)"
            " VALUES (7, 1, 2, 3, 'europe', '{\"x\":1}', 'active', 99, 'e1', 1,"
            " '{\"seq\":1}', 10.0, 11.0)"
        )
        await conn.execute(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, joined_at)"
            " VALUES (7, 0, 3, 'Ann', FALSE, 10.0)"
        )
        await conn.execute(
            "INSERT INTO actions VALUES (7, 1, 0, '{\"kind\":\"draw_blind\"}', 3, 'player', 10.5)"
        )
    finally:
        await conn.close()
    async with await open_storage(postgres_url) as storage:
        assert await storage.schema_version() == latest_version()
        game = await storage.get_game(7)
        assert game is not None
        assert (game.options, game.seed, game.version, game.snapshot_version) == (
            {"x": 1},
            99,
            1,
            1,
        )
        checkpoint = await storage.load_checkpoint(7)
        assert checkpoint is not None and checkpoint.snapshot == {"seq": 1}
        game = await move(storage, game)
        assert game.version == 2


async def test_newer_database_is_refused(postgres_url: str) -> None:
    """A database migrated by newer code is not touched."""
    async with await open_storage(postgres_url):
        pass
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (99, 'future')")
    finally:
        await conn.close()
    with pytest.raises(MigrationError, match="newer"):
        await open_storage(postgres_url)


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    """Five storages opening a new database at once apply every file exactly once."""
    stores = await asyncio.gather(*(open_storage(postgres_url) for _ in range(5)))
    for store in stores:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [r["version"] for r in rows] == list(range(1, latest_version() + 1))
        assert await postgres_version(conn) == latest_version()
    finally:
        await conn.close()


async def test_action_log_is_append_only_and_gapless(postgres_url: str) -> None:
    """The triggers refuse updating, deleting or skipping seqs; deleting the game cascades."""
    async with await open_storage(postgres_url) as storage:
        game = await started_game(storage)
        await move(storage, game)
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.CheckViolationError, match="append-only"):
            await conn.execute("UPDATE actions SET seat = 1")
        with pytest.raises(asyncpg.CheckViolationError, match="append-only"):
            await conn.execute("DELETE FROM actions")
        with pytest.raises(asyncpg.CheckViolationError, match="seq must follow"):
            await conn.execute(
                f"INSERT INTO actions VALUES ({game.id}, 3, 0, '{{}}', NULL, 'ai', 0)"
            )
        await conn.execute("DELETE FROM games WHERE id = $1", game.id)
        assert await conn.fetchval("SELECT COUNT(*) FROM actions") == 0
    finally:
        await conn.close()


@pytest.mark.parametrize("snapshot", [True, False], ids=["with-snapshot", "plain"])
async def test_two_connections_never_write_one_game_at_once(
    postgres_url: str, snapshot: bool
) -> None:
    """Two storages (as two processes would) racing on one game: every version is written
    once, the log stays gapless, and the loser of each race gets VersionConflict (on both
    write paths: a transaction of several statements, and the plain move's one statement)."""
    extra = {} if snapshot else {"new_snapshot": None}
    first = await open_storage(postgres_url)
    second = await open_storage(postgres_url)
    try:
        game = await started_game(first)

        async def push(storage: object, rounds: int) -> int:
            wins = 0
            for _ in range(rounds):
                current = await first.get_game(game.id)
                assert current is not None
                try:
                    await move(storage, current, **extra)  # type: ignore[arg-type]
                    wins += 1
                except VersionConflict:
                    pass
            return wins

        wins = await asyncio.gather(push(first, 40), push(second, 40))
        log = await first.actions(game.id)
        assert [a.seq for a in log] == list(range(1, sum(wins) + 1))
        stored = await second.get_game(game.id)
        assert stored is not None and stored.version == sum(wins)
    finally:
        await first.close()
        await second.close()


async def test_a_plain_move_waits_for_the_games_advisory_lock(postgres_url: str) -> None:
    """The one-statement move takes pg_advisory_xact_lock(game id) like every other write: while
    another transaction holds that lock the move waits, and it lands once the lock is free."""
    storage = await open_storage(postgres_url)
    holder = await asyncpg.connect(postgres_url)
    try:
        game = await started_game(storage)
        other = await started_game(storage, channel_id=501)
        async with holder.transaction():
            await holder.execute("SELECT pg_advisory_xact_lock($1::bigint)", game.id)
            pending = asyncio.ensure_future(move(storage, game, new_snapshot=None))
            moved_other = await move(storage, other, new_snapshot=None)  # another game: free
            await asyncio.sleep(0.3)
            assert not pending.done() and moved_other.version == 1
            assert await storage.actions(game.id) == []
        moved = await asyncio.wait_for(pending, 10)
        assert moved.version == 1 and [a.seq for a in await storage.actions(game.id)] == [1]
    finally:
        await holder.close()
        await storage.close()


async def test_an_unreachable_server_is_one_clear_line(postgres_url: str) -> None:
    """A wrong database name or a dead socket gives StorageUnavailable without the password."""
    missing = postgres_url.rsplit("/", 1)[0] + "/no_such_db?" + postgres_url.split("?", 1)[1]
    with pytest.raises(StorageUnavailable, match="no_such_db"):
        await open_storage(missing)
    with pytest.raises(StorageUnavailable) as caught:
        await open_storage("postgresql://ttr:s3cret@127.0.0.1:1/ttr", pool_size=1)
    assert "s3cret" not in str(caught.value) and "\n" not in str(caught.value)
    assert redact("postgresql://u:pw@h:5/d") == "postgresql://u:***@h:5/d"


async def test_the_backend_is_postgres(postgres_url: str) -> None:
    """A postgresql:// URL opens the PostgreSQL backend with the password hidden in its name."""
    async with await open_storage(postgres_url) as storage:
        assert isinstance(storage, PostgresStorage) and storage.backend == "postgres"
        assert await storage.integrity_check() == ["ok"]
