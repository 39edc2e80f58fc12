"""Operator tools for privacy requests: forget a user, purge a server (the command lines, and
``python -m bot privacy`` that prints the notice, are in :mod:`bot.cli.privacy`).

- :func:`forget` (``python -m bot forget``): what ``/ttr player forget_me`` does, for a
  request that reaches the operator: the user's settings go and their seat in every game
  gets an anonymous name.
- :func:`purge` (``python -m bot purge``): delete everything of a server now, as the bot
  does after the retention period.

Each prints what it removed (counts, never a name) and is idempotent: run again,
it says that nothing is stored. Exit codes as the other operator tools: 0 done
(or nothing to do), 1 refused with the reason (the user still plays; the server
still has games the bot runs, unless ``--force``), 2 bad use or a database that
cannot be opened (one line, never a traceback).
"""

from __future__ import annotations

from bot.host.storage import CorruptGame, ForgetReport, PurgeReport, Storage, UserInOpenGames

from ._privacy import former_player


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
