"""Privacy: what is stored about a user, forgetting a user, and the servers that removed the bot.

Forgetting a user (``/ttr player forget_me``, ``python -m bot forget``) is ONE
transaction: their settings, their ratings, their rating history and their
achievements go (every server, season and scope), and in every game they sat in their seat keeps its
place, moves and score under an anonymous name (no id), their id leaves the
action log (``actor_user_id``; the one change the log allows, migration 6),
the results, the games they hosted, and the server settings and seasons that
named them as who changed or started them. Their results keep their place in
every rated game under a random identity ``former:<key>`` (one key for all of
them, naming no one), so a replay of the ratings still gives every other
player's rating exactly (:mod:`bot.host.ratings`). Nothing another player sees as
theirs changes, and every game still replays. A user who still plays (a lobby,
or a running game whose seat is theirs to play) is refused.

A server that removes the bot is recorded (:meth:`PrivacyStore.depart_guild`):
its lobbies are cancelled and its running games paused (``paused_at``; the
timer query and every move skip a paused game) in one transaction. Invited
back, :meth:`~PrivacyStore.return_guild` resumes them with their clocks
moved by the pause; after the retention period
:meth:`~PrivacyStore.purge_guild` deletes everything of the server (its
games with their rows, its settings, ladder, seasons and ratings), again in
one transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.host.ratings import former_player, user_player

from ._errors import UserInOpenGames
from ._rows import (
    ForgetReport,
    GameRow,
    GuildDeparture,
    PurgeReport,
    SeatRef,
    UserData,
)
from ._sql import GAME_COLUMNS, Row, StorePart, Tx, game_row, log, timer_at

#: The name a forgotten user's seat gets: (the game's table language, seat number) -> name.
SeatName = Callable[[str, int], str]

#: Tables holding rows that belong to one user, found by ``user_id`` (deleted when the user is
#: forgotten): their settings, their current ratings, their rating history, the games they
#: follow and their achievements.
USER_TABLES: tuple[str, ...] = (
    "user_settings",
    "ratings",
    "rating_history",
    "followers",
    "achievements",
)
#: Columns that name the user who changed or started something of a server (cleared).
NAMED_BY: tuple[tuple[str, str], ...] = (
    ("guild_settings", "updated_by"),
    ("seasons", "started_by"),
    ("table_settings", "updated_by"),
)
#: Tables holding rows that belong to one server other than its games, found by ``guild_id``
#: (deleted by a purge; its games' rated_games and rating_history rows go with the games).
GUILD_TABLES: tuple[str, ...] = (
    "guild_settings",
    "ladders",
    "seasons",
    "ratings",
    "guild_departures",
    "table_settings",
    "achievements",
)

_SEAT_REF = (
    "SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.status, g.host_user_id,"
    " g.paused_at, g.language, s.seat, s.is_ai, s.resigned, s.ai_permanent"
    " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? ORDER BY g.id"
)


def _still_plays(r: Row) -> bool:
    """The user still plays this game: a lobby, or a running game (not paused) whose seat the
    computer does not play."""
    if r["status"] == "lobby":
        return True
    hands_off = bool(r["is_ai"] or r["resigned"] or r["ai_permanent"])
    return r["status"] == "active" and r["paused_at"] is None and not hands_off


def _seat_ref(r: Row, user_id: int) -> SeatRef:
    return SeatRef(
        game_id=int(r["id"]),
        guild_id=int(r["guild_id"]),
        channel_id=int(r["channel_id"]),
        thread_id=r["thread_id"],
        status=r["status"],
        seat=int(r["seat"]),
        host=int(r["host_user_id"]) == user_id,
        paused=r["paused_at"] is not None,
    )


class PrivacyStore(StorePart):
    """What is stored about a user and forgetting it; the servers that removed the bot."""

    async def user_data(self, user_id: int) -> UserData:
        """What is stored about ``user_id``, in counts, with the games in which they still
        play (read in one consistent look; nothing is changed)."""
        async with self._consistent_read() as tx:
            seats = await tx.fetch(_SEAT_REF, user_id)
            results = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM results WHERE user_id = ?", user_id
            )
            settings = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM user_settings WHERE user_id = ?", user_id
            )
            ratings = await _count(
                tx, "SELECT COUNT(*) AS n FROM ratings WHERE user_id = ?", user_id
            )
            named = 0
            for table, column in NAMED_BY:
                named += await _count(
                    tx, f"SELECT COUNT(*) AS n FROM {table} WHERE {column} = ?", user_id
                )
            following = await _count(
                tx, "SELECT COUNT(*) AS n FROM followers WHERE user_id = ?", user_id
            )
        assert results is not None and settings is not None
        return UserData(
            user_id=user_id,
            games=len(seats),
            finished=sum(r["status"] == "finished" for r in seats),
            results=int(results["n"]),
            settings=bool(settings["n"]),
            ratings=ratings,
            named=named,
            open_games=tuple(_seat_ref(r, user_id) for r in seats if _still_plays(r)),
            following=following,
        )

    async def forget_user(self, user_id: int, seat_name: SeatName) -> ForgetReport:
        """Forget a user in ONE transaction: delete their settings, their ratings and their
        rating history (every server, season and scope) and the games they follow; in every game they sat in,
        their seat keeps its number, moves and score under ``seat_name(language, seat)`` (the
        game's table language) and no user id, and their id leaves the action log
        (``actor_user_id``), the results (whose rating identity becomes one random
        ``former:<key>`` for all of them, so the others' ratings still replay exactly), the games
        they hosted (host id 0) and the server settings and seasons that named them (NULL). In
        a paused game
        (its server removed the bot) the computer takes their seat over. Other players' rows,
        the moves and the seeds are untouched, so every game still replays. Forgetting someone
        twice (or someone never seen) changes nothing and reports zeros.

        Raises:
            UserInOpenGames: they sit in a lobby (or host one), or in a running game whose seat
                they still play (not resigned, not lost to timeouts); nothing was changed.
        """
        async with self._read() as tx:
            running = [int(r["id"]) for r in await tx.fetch(_SEAT_REF, user_id)]
        async with self._write() as tx:
            # a game that finishes meanwhile stores its results under these locks (PostgreSQL;
            # SQLite has one writer): after them, every result sees the anonymous seat
            await self._lock_games(tx, running)
            seats = await tx.fetch(_SEAT_REF, user_id)
            await _refuse_while_playing(tx, user_id, seats)
            actions = await tx.execute(
                "UPDATE actions SET actor_user_id = NULL WHERE actor_user_id = ?"
                " AND game_id IN (SELECT game_id FROM seats WHERE user_id = ?)",
                user_id,
                user_id,
            )
            # one random identity for all their results: the ratings still replay exactly
            results = await tx.execute(
                "UPDATE results SET user_id = NULL,"
                " player = CASE WHEN player = ? THEN ? ELSE player END"
                " WHERE user_id = ? OR player = ?",
                user_player(user_id),
                former_player(secrets.token_hex(8)),
                user_id,
                user_player(user_id),
            )
            hosted = await tx.execute(
                "UPDATE games SET host_user_id = 0 WHERE host_user_id = ?", user_id
            )
            handed = 0
            for r in seats:
                handed += await _anonymise_seat(tx, r, seat_name)
            deleted = {
                table: await tx.execute(f"DELETE FROM {table} WHERE user_id = ?", user_id)
                for table in USER_TABLES
            }
            named = 0
            for table, column in NAMED_BY:
                named += await tx.execute(
                    f"UPDATE {table} SET {column} = NULL WHERE {column} = ?", user_id
                )
        report = ForgetReport(
            user_id=user_id,
            games=len(seats),
            actions=actions,
            results=results,
            hosted=hosted,
            settings=deleted["user_settings"],
            handed_to_ai=handed,
            ratings=deleted["ratings"],
            rating_changes=deleted["rating_history"],
            named=named,
            following=deleted["followers"],
        )
        if report.anything:
            log.info(
                "forgot a user: %s games, %s actions, %s results", report.games, actions, results
            )  # never the id: the point is to forget it
        return report

    async def depart_guild(self, guild_id: int) -> GuildDeparture:
        """The server removed the bot: in ONE transaction, record when (the first removal
        counts), cancel its lobbies and pause its running games (their timers cleared: they
        never fire, and a paused game takes no move until :meth:`return_guild`)."""
        now = self._clock()
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                guild_id,
                now,
            )
            cancelled = await tx.fetch(
                "UPDATE games SET status = 'cancelled', deadline_at = NULL, reminder_at = NULL,"
                " timer_at = NULL, finished_at = ?, updated_at = ?"
                " WHERE guild_id = ? AND status = 'lobby' RETURNING id",
                now,
                now,
                guild_id,
            )
            paused = await tx.fetch(
                "UPDATE games SET paused_at = ?, timer_at = NULL, updated_at = ?"
                " WHERE guild_id = ? AND status = 'active' AND paused_at IS NULL RETURNING id",
                now,
                now,
                guild_id,
            )
            left = await tx.fetchrow(
                "SELECT left_at FROM guild_departures WHERE guild_id = ?", guild_id
            )
        assert left is not None
        departure = GuildDeparture(
            guild_id=guild_id,
            left_at=float(left["left_at"]),
            cancelled=tuple(sorted(int(r["id"]) for r in cancelled)),
            paused=tuple(sorted(int(r["id"]) for r in paused)),
        )
        log.info(
            "guild %s removed the bot: %s lobbies cancelled, %s games paused",
            guild_id,
            len(departure.cancelled),
            len(departure.paused),
        )
        return departure

    async def return_guild(self, guild_id: int) -> list[GameRow]:
        """The bot is back in the server: in ONE transaction, forget its departure and resume
        its paused games, each game's turn clock (and any vacation) moved on by its pause.
        Returns the resumed games (empty, after one read, when the server never left)."""
        async with self._read() as tx:
            away = await tx.fetchrow(
                "SELECT EXISTS (SELECT 1 FROM guild_departures WHERE guild_id = ?)"
                " OR EXISTS (SELECT 1 FROM games WHERE guild_id = ? AND paused_at IS NOT NULL)"
                " AS away",
                guild_id,
                guild_id,
            )
        if away is None or not away["away"]:  # the common case (every server at start-up)
            return []
        now = self._clock()
        async with self._write() as tx:
            await tx.execute("DELETE FROM guild_departures WHERE guild_id = ?", guild_id)
            paused = await tx.fetch(
                "SELECT id, paused_at, deadline_at, reminder_at FROM games"
                " WHERE guild_id = ? AND paused_at IS NOT NULL ORDER BY id",
                guild_id,
            )
            resumed = [await _resume(tx, r, now) for r in paused]
        log.info("guild %s invited the bot back: %s games resumed", guild_id, len(resumed))
        return resumed

    async def departures(self) -> dict[int, float]:
        """Every server that removed the bot and is not purged yet: guild id -> when it left."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT guild_id, left_at FROM guild_departures ORDER BY guild_id"
            )
        return {int(r["guild_id"]): float(r["left_at"]) for r in rows}

    async def restore_departures(self, departures: Mapping[int, float]) -> None:
        """Store these departures as they are (for copying a database)."""
        async with self._write() as tx:
            await tx.executemany(
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at",
                [(g, t) for g, t in sorted(departures.items())],
            )

    async def guild_ids(self) -> list[int]:
        """The servers that have stored games, ascending."""
        async with self._read() as tx:
            rows = await tx.fetch("SELECT DISTINCT guild_id FROM games ORDER BY guild_id")
        return [int(r["guild_id"]) for r in rows]

    async def purge_guild(self, guild_id: int) -> PurgeReport:
        """Delete everything of a server in ONE transaction: its games (lobbies, running,
        finished: seats, log, snapshots, results, rated games, rating history), its settings,
        ladder, seasons and ratings, and its departure. Purging twice (or a
        server never seen) deletes nothing and reports zeros."""
        of_guild = "SELECT id FROM games WHERE guild_id = ?"
        async with self._write() as tx:
            games = await tx.fetchrow(
                "SELECT COUNT(*) AS n, SUM(CASE WHEN status IN ('lobby', 'active') THEN 1"
                " ELSE 0 END) AS running FROM games WHERE guild_id = ?",
                guild_id,
            )
            counts = {
                table: await _count(
                    tx, f"SELECT COUNT(*) AS n FROM {table} WHERE game_id IN ({of_guild})", guild_id
                )
                for table in ("seats", "actions", "results")
            }
            await tx.execute("DELETE FROM games WHERE guild_id = ?", guild_id)
            deleted = {
                table: await tx.execute(f"DELETE FROM {table} WHERE guild_id = ?", guild_id)
                for table in GUILD_TABLES
            }
        assert games is not None
        report = PurgeReport(
            guild_id=guild_id,
            games=int(games["n"]),
            running=int(games["running"] or 0),
            seats=counts["seats"],
            actions=counts["actions"],
            results=counts["results"],
            departure=deleted["guild_departures"] > 0,
            ratings=deleted["ratings"],
            server_rows=deleted["guild_settings"] + deleted["ladders"] + deleted["seasons"],
        )
        if report.anything:
            log.info(
                "guild %s purged: %s games, %s actions", guild_id, report.games, report.actions
            )
        return report


async def _count(tx: Tx, sql: str, *args: Any) -> int:
    row = await tx.fetchrow(sql, *args)
    return 0 if row is None else int(row["n"])


async def _refuse_while_playing(tx: Tx, user_id: int, seats: Sequence[Row]) -> None:
    """Raise :class:`UserInOpenGames` when the user still plays one of ``seats`` (their
    :data:`_SEAT_REF` rows) or hosts a lobby."""
    playing = tuple(int(r["id"]) for r in seats if _still_plays(r))
    playing += tuple(
        int(r["id"])
        for r in await tx.fetch(
            "SELECT id FROM games WHERE host_user_id = ? AND status = 'lobby'", user_id
        )
        if int(r["id"]) not in playing
    )
    if playing:
        raise UserInOpenGames(user_id, playing)


async def _anonymise_seat(tx: Tx, r: Row, seat_name: SeatName) -> int:
    """Give the user's seat of game ``r`` its anonymous name and no id; in a paused game whose
    seat the user still played, the computer takes it over (returns 1 then, else 0)."""
    hand_over = (
        r["status"] == "active"
        and r["paused_at"] is not None
        and not (r["is_ai"] or r["resigned"] or r["ai_permanent"])
    )
    changes: dict[str, Any] = {
        "user_id": None,
        "display_name": seat_name(str(r["language"]), int(r["seat"])),
    }
    if hand_over:
        changes.update(ai_permanent=True, vacation_until=None)
    assignments = ", ".join(f"{column} = ?" for column in changes)
    await tx.execute(
        f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
        *changes.values(),
        int(r["id"]),
        int(r["seat"]),
    )
    return int(hand_over)


async def _resume(tx: Tx, r: Row, now: float) -> GameRow:
    """Resume one paused game: its turn clock (and any vacation) moved on by the pause."""
    game_id = int(r["id"])
    pause = max(0.0, now - float(r["paused_at"]))
    deadline = None if r["deadline_at"] is None else float(r["deadline_at"]) + pause
    reminder = None if r["reminder_at"] is None else float(r["reminder_at"]) + pause
    row = await tx.fetchrow(
        "UPDATE games SET paused_at = NULL, deadline_at = ?, reminder_at = ?, timer_at = ?,"
        f" updated_at = ? WHERE id = ? RETURNING {GAME_COLUMNS}",
        deadline,
        reminder,
        timer_at(deadline, reminder),
        now,
        game_id,
    )
    await tx.execute(
        "UPDATE seats SET vacation_until = vacation_until + ?"
        " WHERE game_id = ? AND vacation_until IS NOT NULL",
        pause,
        game_id,
    )
    assert row is not None
    return game_row(row)


__all__ = ["GUILD_TABLES", "NAMED_BY", "USER_TABLES", "SeatName", "PrivacyStore"]
