"""Numbered SQL migrations tracked with ``PRAGMA user_version``.

The files live in :mod:`bot.storage.migrations` (package data, read with
:mod:`importlib.resources`). Migration ``n`` brings a database from
``user_version = n - 1`` to ``n`` inside one ``BEGIN IMMEDIATE`` transaction,
so a database is always at exactly one shipped version, even after a crash in
the middle of an upgrade.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib import resources

import aiosqlite

from ._errors import MigrationError

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its number, file name and single SQL statements."""

    version: int
    name: str
    statements: tuple[str, ...]


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


@cache
def load_migrations() -> tuple[Migration, ...]:
    """All shipped migrations in order (numbered 1, 2, ... without gaps).

    Raises:
        MigrationError: a misnamed .sql file, a gap or a duplicate number.
    """
    found: dict[int, Migration] = {}
    for entry in resources.files("bot.storage.migrations").iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file name not NNNN_name.sql: {entry.name}")
        number = int(match.group(1))
        if number in found:
            raise MigrationError(f"two migrations numbered {number}")
        found[number] = Migration(
            number, entry.name, tuple(split_statements(entry.read_text(encoding="utf-8")))
        )
    numbers = sorted(found)
    if numbers != list(range(1, len(numbers) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return tuple(found[n] for n in numbers)


def latest_version() -> int:
    """The ``user_version`` a fully migrated database has."""
    return len(load_migrations())


async def user_version(conn: aiosqlite.Connection) -> int:
    """The database's ``PRAGMA user_version`` (0 for a new file)."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply the pending migrations up to ``upto`` (default: all) and return
    the resulting ``user_version``.

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
    migrations = load_migrations()
    target = len(migrations) if upto is None else upto
    if not 0 <= target <= len(migrations):
        raise MigrationError(f"upto={upto} outside 0..{len(migrations)}")
    current = await user_version(conn)
    if current > len(migrations):
        raise MigrationError(
            f"database is at version {current}, newer than this code ({len(migrations)})"
        )
    for migration in migrations[current:target]:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            found = await user_version(conn)
            if found >= migration.version:
                log.info("migration %s already applied by another connection", migration.name)
            else:
                for statement in migration.statements:
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {migration.version:d}")
            await conn.execute("COMMIT")
        except sqlite3.Error as exc:
            await _rollback_quietly(conn)
            raise MigrationError(f"{migration.name} failed: {exc}") from exc
        except BaseException:
            await _rollback_quietly(conn)
            raise
        log.info("applied migration %s", migration.name)
    return await user_version(conn)


async def _rollback_quietly(conn: aiosqlite.Connection) -> None:
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError:  # no transaction is active any more
        pass
