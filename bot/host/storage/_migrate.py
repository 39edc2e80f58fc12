"""Numbered SQL migrations for both backends.

The files live in :mod:`bot.host.storage.migrations` (SQLite) and its
``postgres/`` folder (PostgreSQL), package data read with
:mod:`importlib.resources`; both folders hold the same numbers and names.
Migration ``n`` brings a database from schema version ``n - 1`` to ``n``
inside one transaction that also records the new version, so a database is
always at exactly one shipped version, even after a crash in the middle of an
upgrade. A database newer than the code is refused (nothing is touched).

- SQLite: the version is ``PRAGMA user_version``; each file runs in ``BEGIN
  IMMEDIATE`` (see :func:`migrate`).
- PostgreSQL: the version is the highest row of ``schema_migrations``; each
  file runs as one script in a transaction holding an advisory lock, so
  processes starting at the same time apply each file once (see
  :func:`migrate_postgres`).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from typing import TYPE_CHECKING, Literal

import aiosqlite

from ._errors import MigrationError

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

Dialect = Literal["sqlite", "postgres"]

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_FOREIGN_KEYS_OFF = "-- ttr: foreign_keys=off"
#: Advisory lock key (two-int form, a key space apart from game ids) held while migrating.
_PG_MIGRATION_LOCK = (0x7474_72, 1)


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its number, file name and SQL statements.

    SQLite files are split into single statements; a PostgreSQL file is one
    script (one entry). ``foreign_keys_off``: run with foreign keys off and
    check them before committing (SQLite table rebuilds).
    """

    version: int
    name: str
    statements: tuple[str, ...]
    foreign_keys_off: bool = False


def split_statements(script: str) -> list[str]:
    """Split a SQL script into single statements, keeping trigger bodies whole.

    A statement ends at the end of a line where the text so far forms complete
    SQL (``sqlite3.complete_statement``); comment-only chunks are dropped.

    Raises:
        MigrationError: text is left over that is not a complete statement.
    """
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending.strip())
            pending = ""
    if _has_code(pending):
        raise MigrationError(f"unterminated SQL statement: {pending.strip()[:80]!r}")
    return statements


def _has_code(chunk: str) -> bool:
    for line in chunk.splitlines():
        code = line.strip()
        if code and not code.startswith("--") and code != ";":
            return True
    return False


def _folder(dialect: Dialect) -> Traversable:
    root = resources.files("bot.host.storage.migrations")
    return root if dialect == "sqlite" else root.joinpath("postgres")


@cache
def load_migrations(dialect: Dialect = "sqlite") -> tuple[Migration, ...]:
    """All shipped migrations of ``dialect`` in order (numbered 1, 2, ... without gaps).

    Raises:
        MigrationError: a misnamed .sql file, a gap or a duplicate number.
    """
    found: dict[int, Migration] = {}
    for entry in _folder(dialect).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file name not NNNN_name.sql: {entry.name}")
        number = int(match.group(1))
        if number in found:
            raise MigrationError(f"two migrations numbered {number}")
        text = entry.read_text(encoding="utf-8")
        statements = tuple(split_statements(text)) if dialect == "sqlite" else (text,)
        found[number] = Migration(
            number, entry.name, statements, text.startswith(_FOREIGN_KEYS_OFF)
        )
    numbers = sorted(found)
    if numbers != list(range(1, len(numbers) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return tuple(found[n] for n in numbers)


def latest_version() -> int:
    """The schema version a fully migrated database has (the same for both backends)."""
    return len(load_migrations())


def _target(migrations: tuple[Migration, ...], current: int, upto: int | None) -> int:
    target = len(migrations) if upto is None else upto
    if not 0 <= target <= len(migrations):
        raise MigrationError(f"upto={upto} outside 0..{len(migrations)}")
    if current > len(migrations):
        raise MigrationError(
            f"database is at schema version {current}, newer than this code "
            f"({len(migrations)}); run a newer version of the bot"
        )
    return target


# -- SQLite ---------------------------------------------------------------------


async def user_version(conn: aiosqlite.Connection) -> int:
    """The database's ``PRAGMA user_version`` (0 for a new file)."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply the pending SQLite migrations up to ``upto`` (default: all) and
    return the resulting ``user_version``.

    ``conn`` must be in autocommit mode (``isolation_level=None``) and outside
    a transaction. Each migration runs in its own ``BEGIN IMMEDIATE``
    transaction that also sets ``user_version``, and re-checks the version
    inside the transaction, so two processes migrating at once apply each file
    once. Safe to call on an up-to-date database (no writes).

    Raises:
        MigrationError: the database is newer than the code, ``upto`` is out
            of range, or a statement failed (that migration is rolled back;
            earlier ones stay applied).
    """
    migrations = load_migrations("sqlite")
    current = await user_version(conn)
    target = _target(migrations, current, upto)
    for migration in migrations[current:target]:
        await _apply_sqlite(conn, migration)
        log.info("applied migration %s", migration.name)
    return await user_version(conn)


async def _apply_sqlite(conn: aiosqlite.Connection, migration: Migration) -> None:
    keys_were_on = False
    if migration.foreign_keys_off:
        keys_were_on = bool(list(await conn.execute_fetchall("PRAGMA foreign_keys"))[0][0])
        await conn.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction
    await conn.execute("BEGIN IMMEDIATE")
    try:
        found = await user_version(conn)
        if found >= migration.version:
            log.info("migration %s already applied by another connection", migration.name)
        else:
            for statement in migration.statements:
                await conn.execute(statement)
            if migration.foreign_keys_off:
                orphans = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
                if orphans:
                    raise MigrationError(
                        f"{migration.name} left rows without their parent: "
                        f"{[tuple(r) for r in orphans[:5]]}"
                    )
            await conn.execute(f"PRAGMA user_version = {migration.version:d}")
        await conn.execute("COMMIT")
    except sqlite3.Error as exc:
        await _rollback_quietly(conn)
        raise MigrationError(f"{migration.name} failed: {exc}") from exc
    except BaseException:
        await _rollback_quietly(conn)
        raise
    finally:
        if keys_were_on:
            await conn.execute("PRAGMA foreign_keys = ON")


async def _rollback_quietly(conn: aiosqlite.Connection) -> None:
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError:  # no transaction is active any more
        pass


# -- PostgreSQL -----------------------------------------------------------------

_PG_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


async def postgres_version(conn: asyncpg.Connection) -> int:
    """The schema version of a PostgreSQL database (0 when never migrated)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def migrate_postgres(conn: asyncpg.Connection, upto: int | None = None) -> int:
    """Apply the pending PostgreSQL migrations up to ``upto`` (default: all);
    return the resulting version.

    Each file runs in its own transaction holding an advisory lock, re-checks
    the version inside it and records itself in ``schema_migrations``, so
    processes starting together apply each file once. A database that is up
    to date is only read.

    Raises:
        MigrationError: the database is newer than the code, ``upto`` is out
            of range, or a statement failed (that file is rolled back).
    """
    import asyncpg

    migrations = load_migrations("postgres")
    current = await postgres_version(conn)
    target = _target(migrations, current, upto)
    for migration in migrations[current:target]:
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *_PG_MIGRATION_LOCK)
                await conn.execute(_PG_VERSION_TABLE)
                if await postgres_version(conn) >= migration.version:
                    log.info("migration %s already applied by another process", migration.name)
                    continue
                await conn.execute(migration.statements[0])
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                    migration.version,
                    migration.name,
                )
        except asyncpg.PostgresError as exc:
            raise MigrationError(f"{migration.name} failed: {exc}") from exc
        log.info("applied migration %s", migration.name)
    return await postgres_version(conn)
