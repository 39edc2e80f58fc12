"""``python -m bot ratings (--db PATH | --database-url URL) [--json] [--recompute]``: every
server's rating tables, as stored or rebuilt by replaying the stored results in order (exit 1
when that differs from what is stored); the work is :mod:`bot.host.services.rating_tools`'s."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ._common import add_database_options, database_of, with_storage

if TYPE_CHECKING:
    from bot.host.storage import Storage


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ratings`` to ``python -m bot``."""
    ratings = commands.add_parser(
        "ratings",
        help="print every server's rating tables",
        description="Print every server's rating tables (as stored, or rebuilt by replay).",
    )
    add_database_options(ratings)
    ratings.add_argument(
        "--json", action="store_true", help="also print the tables as one JSON line"
    )
    ratings.add_argument(
        "--recompute",
        action="store_true",
        help="rebuild every rating by replaying the stored results in order (nothing is written)",
    )
    ratings.set_defaults(handler=ratings_command)


def ratings_command(args: argparse.Namespace) -> int:
    """Print the tables; the exit code of :func:`~bot.host.services.rating_tools.print_ratings`."""
    from bot.host.services.rating_tools import print_ratings

    async def work(storage: Storage) -> int:
        return await print_ratings(storage, recompute=args.recompute, as_json=args.json)

    return with_storage(database_of(args), work)
