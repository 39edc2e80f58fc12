"""The PostgreSQL backend (asyncpg): one database shared by many bot processes.

A connection pool; every write runs in one transaction that first takes
``pg_advisory_xact_lock(game_id)`` (released by the commit or rollback), so
two processes never write the same game at once, and versioned writes check
``version`` as well. Reads use any pooled connection; reads that need several
statements to agree run in one ``REPEATABLE READ`` read-only transaction.

asyncpg is an optional dependency (``pip install 'ttrbot[postgres]'``); it is
imported when a ``postgresql://`` URL is opened.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from bot.process.metrics import storage_timed

from . import _faults
from ._actions import ActionLog
from ._errors import MigrationError, StorageFull, StorageUnavailable
from ._migrate import latest_version, migrate_postgres, postgres_version
from ._repository import Storage
from ._sql import ACTION_COLUMNS, GAME_COLUMNS, Row, Tx, Violation

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger("bot.host.storage")

_CONSTRAINT_KINDS = {
    "games_one_open_per_channel": "channel",
    "seats_pkey": "seat",
    "seats_one_per_user": "user",
    "games_pkey": "game",
}


#: The columns :meth:`OneStatementActionLog._advance` sets in one statement (a plain move).
_ADVANCE_COLUMNS = ("version", "deadline_at", "reminder_at", "timer_at", "updated_at")
_ADVANCE_SQL = f"""
WITH game_lock AS MATERIALIZED (SELECT pg_advisory_xact_lock($1::bigint) AS locked),
moved AS (
    UPDATE games SET version = $3, deadline_at = $4, reminder_at = $5, timer_at = $6,
        updated_at = $7
    FROM game_lock
    WHERE games.id = $1 AND games.version = $2 AND games.status = 'active'
        AND games.paused_at IS NULL
    RETURNING {", ".join(f"games.{c.strip()}" for c in GAME_COLUMNS.split(","))}
),
logged AS (
    INSERT INTO actions ({ACTION_COLUMNS})
    SELECT moved.id, a.seq, a.seat, a.action, a.actor_user_id, a.source, $7
    FROM moved, unnest($8::integer[], $9::integer[], $10::text[], $11::bigint[], $12::text[])
        AS a (seq, seat, action, actor_user_id, source)
)
SELECT * FROM moved
"""


def redact(url: str) -> str:
    """``url`` without its password (for logs and messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


@lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _translate(exc: Exception) -> Exception:
    import asyncpg

    if isinstance(exc, asyncpg.UniqueViolationError):
        name = getattr(exc, "constraint_name", None) or ""
        return Violation(_CONSTRAINT_KINDS.get(name, "other"), str(exc))
    if isinstance(exc, asyncpg.CheckViolationError):
        return Violation("check", str(exc))
    if isinstance(exc, asyncpg.ForeignKeyViolationError):
        return Violation("foreign_key", str(exc))
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return Violation("other", str(exc))
    if isinstance(exc, asyncpg.DiskFullError):
        return StorageFull(f"the database server's disk is full: {exc}")
    return exc


def _count(status: str) -> int:
    """Rows changed from a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgTx:
    """:class:`~bot.host.storage._sql.Tx` over one asyncpg connection."""

    __slots__ = ("_conn", "_writing")

    def __init__(self, conn: asyncpg.Connection, *, writing: bool) -> None:
        self._conn = conn
        self._writing = writing

    async def fetch(self, sql: str, *args: Any) -> Sequence[asyncpg.Record]:
        if self._writing:
            _faults.point("statement")
        try:
            rows: Sequence[asyncpg.Record] = await self._conn.fetch(_numbered(sql), *args)
            return rows
        except Exception as exc:
            raise _translate(exc) from exc

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        if self._writing:
            _faults.point("statement")
        try:
            return await self._conn.fetchrow(_numbered(sql), *args)
        except Exception as exc:
            raise _translate(exc) from exc

    async def execute(self, sql: str, *args: Any) -> int:
        if self._writing:
            _faults.point("statement")
        try:
            return _count(await self._conn.execute(_numbered(sql), *args))
        except Exception as exc:
            raise _translate(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if self._writing:
            _faults.point("statement")
        try:
            await self._conn.executemany(_numbered(sql), rows)
        except Exception as exc:
            raise _translate(exc) from exc


class OneStatementActionLog(ActionLog):
    """The action log on PostgreSQL: a plain move (the version, the timers and the log rows)
    is one statement; everything else as :class:`~bot.host.storage.ActionLog` does it. Needs the
    storage's driver hooks and its pool."""

    def __init__(self, driver: PostgresStorage, pool: asyncpg.Pool) -> None:
        super().__init__(driver)
        self._pool = pool

    async def _advance(
        self,
        game_id: int,
        expected_version: int,
        changes: Mapping[str, Any],
        rows: Sequence[Sequence[Any]],
    ) -> Row | None:
        """One statement, so one round trip and its own transaction (asyncpg sends it outside
        BEGIN: the server commits it at its end): the game's advisory lock, the versioned
        UPDATE and the log rows. The UPDATE waits for the lock (it joins the lock's row), and
        a concurrent writer that got in first has changed ``version``, so the re-checked
        WHERE finds no row and nothing is inserted."""
        if list(changes) != list(_ADVANCE_COLUMNS):
            return await super()._advance(game_id, expected_version, changes, rows)
        _, seqs, seats, actions, actors, sources, _ = (
            list(column) for column in zip(*rows, strict=True)
        )
        _faults.point("statement")
        _faults.point("commit")
        async with self._pool.acquire() as conn:
            try:
                row: asyncpg.Record | None = await conn.fetchrow(
                    _ADVANCE_SQL,
                    game_id,
                    expected_version,
                    *changes.values(),
                    seqs,
                    seats,
                    actions,
                    actors,
                    sources,
                )
            except Exception as exc:
                raise _translate(exc) from exc
        _faults.point("committed")
        return row


class PostgresStorage(Storage):
    """:class:`~bot.host.storage.Storage` over a PostgreSQL database: its driver hooks run on a
    connection pool, and its action log writes a plain move in one statement
    (:class:`OneStatementActionLog`). Open it with :func:`~bot.host.storage.open_storage`
    (``postgresql://user:pass@host/db``)."""

    backend = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str, *, clock: Any) -> None:
        super().__init__(clock=clock)
        self._pool = pool
        self.url = redact(url)
        self.actions = OneStatementActionLog(self, pool)
        self._notices: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        """Close the pool (waits for connections in use). Idempotent."""
        if not self._pool.is_closing():
            await self._pool.close()

    @storage_timed("read")
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as conn:
            yield _PgTx(conn, writing=False)

    @storage_timed("read")
    @asynccontextmanager
    async def _consistent_read(self) -> AsyncIterator[Tx]:
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield _PgTx(conn, writing=False)

    @storage_timed("write")
    @asynccontextmanager
    async def _write(self, game_id: int | None = None) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as conn:
            # BEGIN and the game's lock in one round trip (the id is an int: safe to inline)
            begin = "BEGIN"
            if game_id is not None:
                begin += f"; SELECT pg_advisory_xact_lock({int(game_id):d})"
            _faults.point("statement")
            await conn.execute(begin)
            try:
                yield _PgTx(conn, writing=True)
                _faults.point("commit")
                await conn.execute("COMMIT")
            except BaseException as exc:
                if not conn.is_closed():
                    try:
                        await conn.execute("ROLLBACK")
                    except Exception:  # noqa: BLE001 - the connection is dropped below
                        conn.terminate()
                translated = _translate(exc) if isinstance(exc, Exception) else exc
                if translated is exc:
                    raise
                raise translated from exc
        _faults.point("committed")

    def notify(self, channel: str, payload: str) -> None:
        """Send ``payload`` on ``channel`` (``NOTIFY``) to every listening process, in the
        background: a notice that cannot be sent is logged and dropped (the live board then
        catches up at its next notice or reconnect)."""

        async def send() -> None:
            try:
                async with self._pool.acquire() as conn:
                    await conn.execute("SELECT pg_notify($1, $2)", channel, payload)
            except Exception as exc:  # noqa: BLE001 - a lost notice costs a late page, no data
                log.warning("cannot send a change notice: %s", type(exc).__name__)

        task = asyncio.get_running_loop().create_task(send())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def listen(
        self, channel: str, heard: Callable[[str], None]
    ) -> Callable[[], Awaitable[None]]:
        """Call ``heard(payload)`` for every notice on ``channel`` (``LISTEN`` on one pooled
        connection held until the returned function is awaited)."""
        conn = await self._pool.acquire()

        def callback(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            heard(payload)

        await conn.add_listener(channel, callback)

        async def stop() -> None:
            try:
                await conn.remove_listener(channel, callback)
            finally:
                await self._pool.release(conn)

        return stop

    async def _lock_games(self, tx: Tx, game_ids: Sequence[int]) -> None:
        if game_ids:
            await tx.fetch(
                "SELECT pg_advisory_xact_lock(g) FROM unnest(?::bigint[]) AS g ORDER BY g",
                sorted(set(game_ids)),
            )

    async def _after_restore(self, tx: Tx) -> None:
        await tx.fetch(
            "SELECT setval(pg_get_serial_sequence('games', 'id'),"
            " GREATEST((SELECT MAX(id) FROM games), 1))"
        )

    async def integrity_check(self) -> list[str]:
        """``["ok"]`` when the server answers at the latest schema version and
        every active game has its snapshot; otherwise one line per problem."""
        problems = []
        async with self._pool.acquire() as conn:
            version = await postgres_version(conn)
            if version != latest_version():
                problems.append(f"schema version {version}, expected {latest_version()}")
            missing = await conn.fetch(
                "SELECT id FROM games WHERE snapshot_version IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM snapshots WHERE game_id = games.id) LIMIT 5"
            )
            problems += [f"game {r['id']}: the snapshot is missing" for r in missing]
        return problems or ["ok"]

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await postgres_version(conn)

    async def wal_bytes(self) -> int:
        """WAL bytes the server has written since it started (``pg_stat_wal``)."""
        async with self._pool.acquire() as conn:
            return int(await conn.fetchval("SELECT wal_bytes FROM pg_stat_wal"))


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Nothing to reset when a connection returns to the pool: the storage never changes
    session state (no SET, no LISTEN, only transaction-scoped advisory locks), and asyncpg's
    default reset costs a round trip on every release."""


async def open_postgres(
    url: str, *, clock: Any, pool_size: int = 10, connect_timeout: float = 10.0
) -> PostgresStorage:
    """Connect to ``url`` (a ``postgresql://`` URL), migrate, return the storage.

    Raises:
        StorageUnavailable: asyncpg is not installed, or the server cannot be
            reached or refuses (one line, without the password).
        MigrationError: a migration failed or the database is newer than the code.
    """
    try:
        import asyncpg
    except ImportError:
        raise StorageUnavailable(
            "a postgresql:// database needs asyncpg: pip install 'ttrbot[postgres]'"
        ) from None
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=connect_timeout,
            command_timeout=120,
            reset=_keep_session,
        )
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
        raise StorageUnavailable(
            f"cannot open the database {redact(url)}: {type(exc).__name__}: {exc}"
        ) from None
    try:
        async with pool.acquire() as conn:
            version = await migrate_postgres(conn)
    except MigrationError:
        await pool.close()
        raise
    except BaseException:
        pool.terminate()
        raise
    log.info("opened storage %s at schema version %s", redact(url), version)
    return PostgresStorage(pool, url, clock=clock)
