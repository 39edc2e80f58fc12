"""``verify``, ``export`` and ``migrate``: the games of a database, checked, written out, copied.

- ``python -m bot verify (--db PATH | --database-url URL)``
- ``python -m bot export (--db PATH | --database-url URL) --game ID [--out FILE]``
- ``python -m bot migrate --from URL --to URL``

Each prints plain lines and exits 0 (all good), 1 (problems found, one line per game naming it)
or 2 (bad use, a database that cannot be opened). The work is :mod:`bot.host.services.ops`'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ._common import BAD_USE, OK, PROBLEMS, CommandError, add_database_options, database_of
from ._common import with_storage as _with_storage

if TYPE_CHECKING:
    from bot.host.storage import Storage


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``verify``, ``export`` and ``migrate`` to ``python -m bot``."""
    verify = commands.add_parser(
        "verify",
        help="replay every stored game and compare it with its snapshot and results",
        description="Replay every stored game and compare with its snapshot and results.",
    )
    add_database_options(verify)
    verify.set_defaults(handler=verify_command)

    export = commands.add_parser(
        "export",
        help="write one game's JSON record",
        description="Write one game's JSON record (no secret while the game runs).",
    )
    add_database_options(export)
    export.add_argument("--game", type=int, required=True, help="the game id")
    export.add_argument("--out", type=Path, default=None, help="the file (default: stdout)")
    export.set_defaults(handler=export_command)

    migrate = commands.add_parser(
        "migrate",
        help="copy every game into another (empty) database and verify the copy",
        description="Copy every game from one database to another (SQLite <-> PostgreSQL).",
    )
    migrate.add_argument("--from", dest="source", required=True, help="the database to copy from")
    migrate.add_argument(
        "--to", dest="target", required=True, help="an empty database to copy into"
    )
    migrate.set_defaults(handler=migrate_command)


def verify_command(args: argparse.Namespace) -> int:
    """``python -m bot verify``: 0 when every game reads and replays to what is stored, 1 with
    one line per problem otherwise."""
    from bot.host.services.ops import verify_storage

    async def work(storage: Storage) -> int:
        checked, problems = await verify_storage(storage)
        for p in problems:
            print(f"game {p.game_id}: {p.reason}" if p.game_id else p.reason)
        print(f"{checked} games checked, {len(problems)} mismatches")
        return PROBLEMS if problems else OK

    return _with_storage(database_of(args), work)


def export_command(args: argparse.Namespace) -> int:
    """``python -m bot export ... --game ID [--out FILE]``: the game's JSON record (stdout by
    default); 1 when there is no such game or it cannot be read."""
    from bot.host.services.ops import export_game
    from bot.host.storage import CorruptGame

    async def work(storage: Storage) -> int:
        try:
            doc = await export_game(storage, args.game)
        except CorruptGame as exc:
            print(f"game {args.game}: {exc.reason}", file=sys.stderr)
            return PROBLEMS
        if doc is None:
            print(f"no game {args.game} in {storage.url}", file=sys.stderr)
            return PROBLEMS
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        if args.out is None:
            sys.stdout.write(text)
        else:
            args.out.write_text(text, encoding="utf-8")
            print(f"wrote {args.out}")
        return OK

    return _with_storage(database_of(args), work)


def migrate_command(args: argparse.Namespace) -> int:
    """``python -m bot migrate --from URL --to URL``: copy every game, setting and server table
    into an empty database of either backend and verify the copy by replay; 1 on any problem."""
    import asyncio

    return asyncio.run(_migrate(args.source, args.target))


async def _migrate(source_url: str, target_url: str) -> int:
    from bot.host.services.ops import copy_database
    from bot.host.storage import MigrationError, StorageError, StorageUnavailable, open_storage

    try:
        source = await open_storage(source_url)
    except (StorageUnavailable, MigrationError) as exc:
        raise CommandError(f"source: {exc}") from None
    try:
        try:
            target = await open_storage(target_url)
        except (StorageUnavailable, MigrationError) as exc:
            raise CommandError(f"target: {exc}") from None
        try:
            report = await copy_database(source, target)
        except StorageError as exc:
            raise CommandError(str(exc), BAD_USE) from None
        finally:
            await target.close()
    finally:
        await source.close()
    for p in report.problems:
        print(f"game {p.game_id}: {p.reason}")
    print(
        f"copied {report.games} games ({report.actions} actions) and {report.settings} user "
        f"settings from {source.url} to {target.url}; verified by replay: "
        f"{len(report.problems)} problems"
    )
    return PROBLEMS if report.problems else OK
