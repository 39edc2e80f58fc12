"""What the command families share: the database options, opening the database, and
:class:`CommandError`, the one-line failure every command answers with."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.host.storage import Storage

#: Exit codes shared by the operator commands (docs/operators/commands.md).
OK, PROBLEMS, BAD_USE = 0, 1, 2


class CommandError(Exception):
    """The command cannot do its work; ``str(self)`` is one line for the operator and ``code``
    the exit code (2: bad use, a bad setting, a database that cannot be opened, a file that
    cannot be written)."""

    def __init__(self, message: str, code: int = BAD_USE) -> None:
        super().__init__(message)
        self.code = code


def add_database_options(parser: argparse.ArgumentParser) -> None:
    """``--db PATH`` or ``--database-url URL``, one of them required."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", type=Path, help="a SQLite file (TTR_DATABASE_PATH)")
    where.add_argument(
        "--database-url",
        help="sqlite:///PATH or postgresql://user:password@host/db (TTR_DATABASE_URL)",
    )


def database_of(args: argparse.Namespace) -> str | Path:
    """The database the options name: the URL, or the SQLite path."""
    target: str | Path = args.database_url if args.database_url else args.db
    return target


def with_storage(target: str | Path, work: Callable[[Storage], Awaitable[int]]) -> int:
    """Open ``target`` (an existing SQLite file or a URL), run ``work`` on it, close it; the
    exit code ``work`` returns.

    Raises:
        CommandError: no database at that path, or it cannot be opened (exit 2).
    """
    if isinstance(target, Path) and not target.is_file():
        raise CommandError(f"no database at {target}")
    return asyncio.run(_with_storage(target, work))


async def _with_storage(target: str | Path, work: Callable[[Storage], Awaitable[int]]) -> int:
    from bot.host.storage import MigrationError, StorageUnavailable, open_storage

    try:
        storage = await open_storage(target)
    except (StorageUnavailable, MigrationError) as exc:
        raise CommandError(str(exc)) from None
    try:
        return await work(storage)
    finally:
        await storage.close()
