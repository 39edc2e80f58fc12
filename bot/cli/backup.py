"""``python -m bot backup (--db PATH | --database-url URL) --to DIR [--keep N] [--verify]
[--pg-dump PATH]``: a consistent copy of the database while the bot runs (:mod:`bot.host.backup`).

Exit 0 when the copy is written and sound, 1 when its check found problems (the copy is kept,
named ``...-damaged``), 2 on bad use or a database that cannot be read."""

from __future__ import annotations

import argparse
from pathlib import Path

from ._common import PROBLEMS, CommandError, add_database_options, database_of


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``backup`` to ``python -m bot``."""
    backup = commands.add_parser(
        "backup",
        help="write a consistent copy of the database while the bot runs",
        description="Write a consistent copy of the database while the bot runs.",
    )
    add_database_options(backup)
    backup.add_argument("--to", type=Path, required=True, help="the folder for the backups")
    backup.add_argument(
        "--keep", type=int, default=None, help="keep only the newest N backups there"
    )
    backup.add_argument("--verify", action="store_true", help="replay every game of the copy")
    backup.add_argument("--pg-dump", default=None, help="the pg_dump program (default: on PATH)")
    backup.set_defaults(handler=backup_command, parser=backup)


def backup_command(args: argparse.Namespace) -> int:
    """Make the backup, rename a damaged one, prune old ones; print one line."""
    import asyncio

    from bot.host.backup import BackupError, describe, make_backup, prune

    if args.keep is not None and args.keep < 1:
        args.parser.error("--keep must be at least 1")
    try:
        made = asyncio.run(
            make_backup(database_of(args), args.to, pg_dump=args.pg_dump, verify=args.verify)
        )
    except BackupError as exc:
        raise CommandError(str(exc)) from None
    if made.note:
        print(made.note)
    if made.problems:
        damaged = made.path.with_name(made.path.name + "-damaged")
        made.path.replace(damaged)
        for problem in made.problems:
            print(problem)
        raise CommandError(
            f"the copy has {len(made.problems)} problems; kept as {damaged}", PROBLEMS
        )
    removed = prune(args.to, args.keep) if args.keep is not None else []
    print(describe(made, removed, args.keep))
    return 0
