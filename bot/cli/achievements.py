"""``python -m bot achievements recompute (--db PATH | --database-url URL) [--repair]``: every
achievement rebuilt from the stored finished games (each player's first game per achievement
and server, games in the order they finished) and compared with the stored rows; exit 1 when
they differ and were not repaired, or a finished game's log does not replay. The work is
:meth:`bot.host.services.Achievements.recompute`'s."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ._common import add_database_options, database_of, with_storage

if TYPE_CHECKING:
    from bot.host.storage import AchievementRow, Storage


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``achievements recompute`` to ``python -m bot``."""
    family = commands.add_parser(
        "achievements",
        help="recompute the achievements from the stored games",
        description="The players' achievements: recompute them from the stored games.",
    )
    actions = family.add_subparsers(dest="action", metavar="action", required=True)
    recompute = actions.add_parser(
        "recompute",
        help="rebuild every achievement from the stored games and report the differences",
        description="Rebuild every achievement from the stored finished games and print where "
        "the stored rows differ (exit 1 when they do, unless --repair wrote the fix).",
    )
    add_database_options(recompute)
    recompute.add_argument(
        "--repair",
        action="store_true",
        help="write the recomputed rows where they differ (one transaction)",
    )
    recompute.set_defaults(handler=recompute_command)


def difference_line(sign: str, row: AchievementRow) -> str:
    """One differing row: ``+`` missing from the store, ``-`` stored but not recomputed."""
    return f"{sign} server {row.guild_id} user {row.user_id} {row.achievement} (game {row.game_id})"


def recompute_command(args: argparse.Namespace) -> int:
    """Print the differences, the games that do not replay and a summary; 0 when the stored rows
    are the recomputed ones (or were repaired) and every game replayed, 1 otherwise."""
    from bot.host.services import GameService

    async def work(storage: Storage) -> int:
        service = GameService(storage, auto_ai=False)
        try:
            found = await service.achievements.recompute(repair=args.repair)
        finally:
            await service.close()
        for row in found.missing:
            print(difference_line("+", row))
        for row in found.extra:
            print(difference_line("-", row))
        for game_id in found.skipped:
            print(f"! game {game_id}: its stored log does not replay (see python -m bot verify)")
        state = "the same" if found.same else "repaired" if found.repaired else "different"
        print(
            f"{found.games} finished games, {len(found.expected)} achievements recomputed: "
            f"{len(found.missing)} missing, {len(found.extra)} extra ({state})"
        )
        return 0 if (found.same or found.repaired) and not found.skipped else 1

    return with_storage(database_of(args), work)
