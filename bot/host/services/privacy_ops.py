"""Operator tools for privacy requests: forget a user, purge a server, print the notice.

- ``python -m bot forget (--db PATH | --database-url URL) --user ID``: what
  ``/ttr player forget_me`` does, for a request that reaches the operator: the user's
  settings go and their seat in every game gets an anonymous name.
- ``python -m bot purge (--db PATH | --database-url URL) --guild ID [--force]``:
  delete everything of a server now, as the bot does after the retention period.
- ``python -m bot privacy [--language en|de] [--days N]``: the privacy notice
  ``/ttr player privacy`` shows (docs/privacy.md holds its English text).

Each prints what it removed (counts, never a name) and is idempotent: run again,
it says that nothing is stored. Exit codes as the other operator tools: 0 done
(or nothing to do), 1 refused with the reason (the user still plays; the server
still has games the bot runs, unless ``--force``), 2 bad use or a database that
cannot be opened (one line, never a traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.host.storage import CorruptGame, ForgetReport, PurgeReport, Storage, UserInOpenGames
from words import LANGS, privacy_notice, words_for

from ._privacy import former_player
from .ops import _db_args, _target, _with_storage


def forget_line(report: ForgetReport) -> str:
    """One line saying what forgetting a user removed."""
    who = f"user {report.user_id}"
    if not report.anything:
        return f"{who}: nothing stored (already forgotten, or never seen)"
    parts = [
        f"{report.games} games now name their seat 'Former player N'"
        + (
            f" ({report.handed_to_ai} paused, the computer plays on)" if report.handed_to_ai else ""
        ),
        f"their id cleared from {report.actions} moves, {report.results} results"
        f" and {report.hosted} games they hosted",
        f"{report.ratings} ratings and {report.rating_changes} rating changes deleted",
        "their settings deleted" if report.settings else "no settings were stored",
    ]
    if report.named:
        parts.append(f"{report.named} server settings or seasons no longer name them")
    return f"{who} forgotten: " + "; ".join(parts)


def purge_line(report: PurgeReport) -> str:
    """One line saying what purging a server deleted."""
    where = f"guild {report.guild_id}"
    if not report.anything:
        return f"{where}: nothing stored (already purged, or never seen)"
    departure = "its departure" if report.departure else "no departure was recorded"
    return (
        f"{where} purged: {report.games} games ({report.running} lobbies or running),"
        f" {report.seats} seats, {report.actions} moves, {report.results} results;"
        f" {report.ratings} ratings and {report.server_rows} rows of its settings, ladder and"
        f" seasons; {departure}"
    )


async def forget(storage: Storage, user_id: int) -> int:
    """Forget ``user_id`` and print what was removed; exit code (1: they still play)."""
    try:
        report = await storage.privacy.forget_user(user_id, former_player)
    except UserInOpenGames as exc:
        names = ", ".join(str(g) for g in exc.game_ids)
        print(
            f"user {user_id} still plays in games {names} (a lobby, or a running game whose"
            " seat is theirs): they leave, resign or finish there first; nothing was changed"
        )
        return 1
    print(forget_line(report))
    return 0


async def _serving(storage: Storage, guild_id: int) -> int:
    """Lobbies and running games of the server that are not paused: the bot still plays there."""
    try:
        games = await storage.games.list_games(guild_id=guild_id)
    except CorruptGame:
        return 1  # a damaged row: be careful, count it as a game in play
    return sum(g.status == "lobby" or (g.status == "active" and g.paused_at is None) for g in games)


async def purge(storage: Storage, guild_id: int, *, force: bool = False) -> int:
    """Delete everything of ``guild_id`` and print what was deleted; exit code (1: the bot still
    runs games there and ``force`` is not given)."""
    serving = await _serving(storage, guild_id)
    if serving and not force:
        print(
            f"guild {guild_id} has {serving} lobbies or running games that are not paused (is the"
            " bot still in that server?): nothing was deleted; add --force to delete them too"
        )
        return 1
    print(purge_line(await storage.privacy.purge_guild(guild_id)))
    return 0


def _ids(kind: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=f"python -m bot {kind}",
        description=(
            "Forget a user: their settings go, their seat in every game gets an anonymous name."
            if kind == "forget"
            else "Delete everything stored about a server (its games, results and departure)."
        ),
    )
    _db_args(ap)
    return ap


def main_forget(argv: list[str]) -> int:
    """``python -m bot forget ... --user ID``."""
    ap = _ids("forget")
    ap.add_argument("--user", type=int, required=True, help="the Discord user id")
    args = ap.parse_args(argv)
    if args.user <= 0:
        ap.error("--user must be a Discord user id (a positive number)")
    target: str | Path = _target(args)
    return asyncio.run(_with_storage(target, lambda storage: forget(storage, args.user)))


def main_purge(argv: list[str]) -> int:
    """``python -m bot purge ... --guild ID [--force]``."""
    ap = _ids("purge")
    ap.add_argument("--guild", type=int, required=True, help="the Discord server (guild) id")
    ap.add_argument(
        "--force",
        action="store_true",
        help="also when the server has lobbies or running games that are not paused",
    )
    args = ap.parse_args(argv)
    if args.guild <= 0:
        ap.error("--guild must be a Discord server id (a positive number)")
    return asyncio.run(
        _with_storage(_target(args), lambda storage: purge(storage, args.guild, force=args.force))
    )


def main_privacy(argv: list[str]) -> int:
    """``python -m bot privacy [--language en|de] [--days N]``: print the privacy notice
    (``--days``: the retention period, by default ``TTR_GUILD_RETENTION_DAYS`` or 30)."""
    ap = argparse.ArgumentParser(
        prog="python -m bot privacy",
        description="Print the privacy notice players see with /ttr player privacy.",
    )
    ap.add_argument("--language", choices=LANGS, default="en")
    ap.add_argument("--days", type=int, default=None, help="days a removed server's data is kept")
    args = ap.parse_args(argv)
    days = args.days
    if days is None:
        from bot.process.config import Settings

        try:
            days = Settings.from_env().guild_retention_days
        except ValueError as exc:
            print(f"bad setting: {exc}", file=sys.stderr)
            return 2
    if days < 0:
        ap.error("--days must be 0 or more")
    print(privacy_notice(words_for(args.language), days))
    return 0
