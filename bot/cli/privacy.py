"""``forget``, ``purge`` and ``privacy``: the operator's side of privacy requests.

- ``python -m bot forget (--db PATH | --database-url URL) --user ID``
- ``python -m bot purge (--db PATH | --database-url URL) --guild ID [--force]``
- ``python -m bot privacy [--language en|de] [--days N]``

Exit 0 done (or nothing to do), 1 refused with the reason, 2 bad use or a database that cannot
be opened. The work is :mod:`bot.host.services.privacy_ops`'s.
"""

from __future__ import annotations

import argparse

from words import LANGS

from ._common import CommandError, add_database_options, database_of, with_storage


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``forget``, ``purge`` and ``privacy`` to ``python -m bot``."""
    forget = commands.add_parser(
        "forget",
        help="forget a user, as /ttr privacy forget_me does",
        description=(
            "Forget a user: their settings go, their seat in every game gets an anonymous name."
        ),
    )
    add_database_options(forget)
    forget.add_argument("--user", type=int, required=True, help="the Discord user id")
    forget.set_defaults(handler=forget_command, parser=forget)

    purge = commands.add_parser(
        "purge",
        help="delete everything stored about a server",
        description="Delete everything stored about a server (its games, results and departure).",
    )
    add_database_options(purge)
    purge.add_argument("--guild", type=int, required=True, help="the Discord server (guild) id")
    purge.add_argument(
        "--force",
        action="store_true",
        help="also when the server has lobbies or running games that are not paused",
    )
    purge.set_defaults(handler=purge_command, parser=purge)

    notice = commands.add_parser(
        "privacy",
        help="print the privacy notice",
        description="Print the privacy notice players see with /ttr privacy.",
    )
    notice.add_argument("--language", choices=LANGS, default="en")
    notice.add_argument(
        "--days", type=int, default=None, help="days a removed server's data is kept"
    )
    notice.set_defaults(handler=privacy_command, parser=notice)


def forget_command(args: argparse.Namespace) -> int:
    """``python -m bot forget ... --user ID``: 1 while the user still plays."""
    from bot.host.services.privacy_ops import forget

    if args.user <= 0:
        args.parser.error("--user must be a Discord user id (a positive number)")
    return with_storage(database_of(args), lambda storage: forget(storage, args.user))


def purge_command(args: argparse.Namespace) -> int:
    """``python -m bot purge ... --guild ID [--force]``: 1 while the server has games the bot
    runs (without ``--force``)."""
    from bot.host.services.privacy_ops import purge

    if args.guild <= 0:
        args.parser.error("--guild must be a Discord server id (a positive number)")
    return with_storage(
        database_of(args), lambda storage: purge(storage, args.guild, force=args.force)
    )


def privacy_command(args: argparse.Namespace) -> int:
    """``python -m bot privacy``: print the notice (``--days``: the retention period, by default
    ``TTR_GUILD_RETENTION_DAYS`` or 30)."""
    from words import privacy_notice, words_for

    days = args.days
    if days is None:
        from bot.process.config import Settings

        try:
            days = Settings.from_env().guild_retention_days
        except ValueError as exc:
            raise CommandError(f"bad setting: {exc}") from None
    if days < 0:
        args.parser.error("--days must be 0 or more")
    print(privacy_notice(words_for(args.language), days))
    return 0
