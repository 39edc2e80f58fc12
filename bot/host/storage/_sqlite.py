"""The SQLite backend (aiosqlite): the embedded default for one process.

Two connections to one file in WAL mode: a writer, whose transactions
(``BEGIN IMMEDIATE``) run one at a time under an :class:`asyncio.Lock`, and a
reader beside it, so reads (boards, hands, the timer query) never queue
behind a write. A reader sees every transaction committed before it started.
Other processes may open the same file (CLI tools, a second bot in tests):
``busy_timeout`` makes them wait for each other's write locks.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.process.metrics import storage_timed

from . import _faults
from ._errors import MigrationError, StorageError, StorageFull, StorageUnavailable
from ._migrate import _rollback_quietly, migrate
from ._repository import SqlStorage
from ._sql import Tx, Violation

log = logging.getLogger("bot.host.storage")


def _no_statement_lines(record: logging.LogRecord) -> bool:
    return record.levelno > logging.DEBUG


# aiosqlite's DEBUG lines print every statement with its parameters (seeds,
# snapshots, kept tickets): they never pass, whatever the log level (issue 12.1).
_AIOSQLITE_LOG = logging.getLogger("aiosqlite")
_AIOSQLITE_LOG.addFilter(_no_statement_lines)
if _AIOSQLITE_LOG.level < logging.INFO:
    _AIOSQLITE_LOG.setLevel(logging.INFO)

#: Page size of new database files: SQLite's smallest. A move dirties a handful of pages
#: (the game's row, its entry in the timer index, the end of the log, the log's index),
#: each written whole to the WAL, so small pages keep the bytes per action small:
#: measured 2.4 KB per action with 512-byte pages, 3.8 KB with 1 KB, 10 KB with 4 KB
#: (issue 12.8). Existing files keep theirs (``python -m bot migrate`` copies a database
#: into a new file, which gets the small pages).
PAGE_SIZE = 512
#: Page cache per connection in KiB (SQLite's default is 2 MB): the indexes of a few
#: thousand running games stay in memory.
CACHE_KIB = 16_384
#: WAL pages after which a commit copies the WAL into the file (SQLite's default is 1,000).
#: A longer WAL lets a page that changed many times be copied once: the games rows and
#: the timer index are copied once per checkpoint, not once per move (8 MB of WAL).
WAL_AUTOCHECKPOINT = 16_000


def _violation(exc: sqlite3.IntegrityError) -> Violation:
    message = str(exc)
    if "games.channel_id" in message:
        kind = "channel"
    elif "seats.game_id, seats.user_id" in message:
        kind = "user"
    elif "seats.game_id, seats.seat" in message:
        kind = "seat"
    elif "games.id" in message:
        kind = "game"
    elif "CHECK constraint" in message or "RAISE" in message or message.startswith("actions:"):
        kind = "check"
    elif "FOREIGN KEY" in message:
        kind = "foreign_key"
    else:
        kind = "other"
    return Violation(kind, message)


def _translate(exc: sqlite3.Error) -> Exception:
    """The storage error for a driver error (the error itself when none fits)."""
    if isinstance(exc, sqlite3.IntegrityError):
        return _violation(exc)
    if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
        return StorageFull(f"the database is full: {exc}")
    return exc


class _SqliteTx:
    """:class:`~bot.host.storage._sql.Tx` over one aiosqlite connection."""

    __slots__ = ("_conn", "_writing")

    def __init__(self, conn: aiosqlite.Connection, *, writing: bool) -> None:
        self._conn = conn
        self._writing = writing

    async def fetch(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        if self._writing:
            _faults.point("statement")
        try:
            return list(await self._conn.execute_fetchall(sql, args))
        except sqlite3.Error as exc:
            raise _translate(exc) from exc

    async def fetchrow(self, sql: str, *args: Any) -> sqlite3.Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        if self._writing:
            _faults.point("statement")
        try:
            async with self._conn.execute(sql, args) as cursor:
                return max(0, cursor.rowcount)
        except sqlite3.Error as exc:
            raise _translate(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if self._writing:
            _faults.point("statement")
        try:
            await self._conn.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise _translate(exc) from exc


class SqliteStorage(SqlStorage):
    """:class:`~bot.host.storage.Storage` over one SQLite file. Open it with
    :func:`~bot.host.storage.open_storage` (``sqlite:///PATH`` or a path)."""

    backend = "sqlite"

    def __init__(
        self,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        path: Path,
        *,
        clock: Any,
    ) -> None:
        super().__init__(clock=clock)
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._closed = False
        #: The database file.
        self.path = path
        self.url = f"sqlite:///{path}"

    async def close(self) -> None:
        """Wait for running calls, then close both connections. Idempotent."""
        async with self._write_lock, self._read_lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self._writer.execute("PRAGMA optimize")
            except (sqlite3.Error, ValueError):  # ValueError: already closed
                pass
            await self._reader.close()
            await self._writer.close()

    @storage_timed("read")
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        async with self._read_lock:
            yield _SqliteTx(self._reader, writing=False)

    @storage_timed("read")
    @asynccontextmanager
    async def _consistent_read(self) -> AsyncIterator[Tx]:
        async with self._read_lock:
            await self._reader.execute("BEGIN")
            try:
                yield _SqliteTx(self._reader, writing=False)
            finally:
                await _rollback_quietly(self._reader)

    @storage_timed("write")
    @asynccontextmanager
    async def _write(self, game_id: int | None = None) -> AsyncIterator[Tx]:
        async with self._write_lock:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise _translate(exc) from exc
            try:
                yield _SqliteTx(self._writer, writing=True)
                _faults.point("commit")
                try:
                    await self._writer.execute("COMMIT")
                except sqlite3.Error as exc:
                    raise _translate(exc) from exc
            except BaseException:
                await _rollback_quietly(self._writer)
                raise
        _faults.point("committed")

    # -- diagnostics --------------------------------------------------------

    async def pragmas(self) -> dict[str, Any]:
        """The settings that matter for safety and size: ``journal_mode``,
        ``synchronous`` (1 = NORMAL), ``foreign_keys`` (1 = on),
        ``busy_timeout`` (ms), ``user_version`` (schema version) and
        ``page_size`` (bytes)."""
        names = (
            "journal_mode",
            "synchronous",
            "foreign_keys",
            "busy_timeout",
            "user_version",
            "page_size",
        )
        async with self._write_lock:
            return {name: await _scalar(self._writer, f"PRAGMA {name}") for name in names}

    async def integrity_check(self) -> list[str]:
        async with self._read_lock:
            problems = [
                str(r[0]) for r in await self._reader.execute_fetchall("PRAGMA integrity_check")
            ]
            orphans = list(await self._reader.execute_fetchall("PRAGMA foreign_key_check"))
        problems += [f"foreign key: {tuple(r)}" for r in orphans]
        if problems != ["ok"]:
            problems = [p for p in problems if p != "ok"]
        return problems

    async def schema_version(self) -> int:
        async with self._read_lock:
            return int(await _scalar(self._reader, "PRAGMA user_version"))

    async def set_max_pages(self, pages: int | None) -> int:
        """Cap the file at ``pages`` pages (None: lift the cap); returns the
        cap in force. For fault-injection tests of a full disk."""
        async with self._write_lock:
            value = pages if pages is not None else 4_294_967_294
            return int(await _scalar(self._writer, f"PRAGMA max_page_count = {int(value):d}"))


async def _scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0] if rows else None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # not even allowed to look
        return False


def _unavailable(path: Path, exc: BaseException) -> StorageUnavailable:
    if isinstance(exc, IsADirectoryError) or (
        _is_dir(path) and not isinstance(exc, PermissionError)
    ):
        why = "it is a directory, not a database file"
    elif isinstance(exc, PermissionError) or (
        isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
    ):
        why = "permission denied"
    elif isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        why = "the file is not a SQLite database"
    elif isinstance(exc, sqlite3.Error) and "readonly" in str(exc):
        why = "the file or its folder is read-only"
    elif isinstance(exc, sqlite3.Error) and "unable to open" in str(exc):
        why = "the file cannot be opened (missing permission, or a directory in its place)"
    else:
        why = f"{type(exc).__name__}: {exc}"
    return StorageUnavailable(f"cannot open the database {path}: {why}")


async def open_sqlite(
    path: Path, *, clock: Any, busy_timeout_ms: int = 5_000, page_size: int = PAGE_SIZE
) -> SqliteStorage:
    """Open (creating it and its folders if needed) and migrate the SQLite
    file at ``path``.

    WAL mode with ``synchronous=NORMAL``: a transaction whose commit has
    returned survives a kill of the process at any moment; only a power loss
    or OS crash can undo the last few commits, and even then the file stays
    consistent. ``foreign_keys`` is on; ``busy_timeout`` makes other
    processes' locks wait up to ``busy_timeout_ms`` instead of failing. A new
    file gets ``page_size``-byte pages.

    Raises:
        StorageUnavailable: the path is a directory, not a database, not
            readable or writable (one line for the operator).
        StorageError: the file cannot use WAL (e.g. ``":memory:"``).
        MigrationError: a migration failed or the file is newer than the code.
    """
    try:
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(_probe, path)
        writer = await aiosqlite.connect(path, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise _unavailable(path, exc) from None
    reader: aiosqlite.Connection | None = None
    try:
        writer.row_factory = sqlite3.Row
        await writer.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
        if await _scalar(writer, "PRAGMA page_count") == 0:
            await writer.execute(f"PRAGMA page_size = {int(page_size):d}")
        mode = await _scalar(writer, "PRAGMA journal_mode = WAL")
        if str(mode).lower() != "wal":
            raise StorageError(f"{path}: journal_mode is {mode!r}, WAL is required")
        await writer.execute("PRAGMA synchronous = NORMAL")
        await writer.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT:d}")
        await writer.execute(f"PRAGMA cache_size = -{CACHE_KIB:d}")
        await writer.execute("PRAGMA foreign_keys = ON")
        version = await migrate(writer)
        reader = await aiosqlite.connect(path, isolation_level=None)
        reader.row_factory = sqlite3.Row
        await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
        await reader.execute("PRAGMA query_only = ON")
        await reader.execute(f"PRAGMA cache_size = -{CACHE_KIB:d}")
    except (StorageError, MigrationError):
        await _close_quietly(writer, reader)
        raise
    except (OSError, sqlite3.Error) as exc:
        await _close_quietly(writer, reader)
        raise _unavailable(path, exc) from None
    except BaseException:
        await _close_quietly(writer, reader)
        raise
    log.info("opened storage %s at schema version %s", path, version)
    return SqliteStorage(writer, reader, path, clock=clock)


def _probe(path: Path) -> None:
    """Open the file and read its header with plain sqlite3 first: a directory, a file that is
    not a database or a missing permission fails here, before aiosqlite starts its thread
    (whose clean-up after a failed connect can outlive the event loop)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA schema_version").fetchone()
    finally:
        conn.close()


async def _close_quietly(*conns: aiosqlite.Connection | None) -> None:
    for conn in conns:
        if conn is not None:
            try:
                await conn.close()
            except Exception:  # noqa: BLE001 - closing after a failure; the first error counts
                pass
