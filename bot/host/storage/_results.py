"""Results and statistics: each seat's result of a finished game, a user's history, the leaderboard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._errors import GameStatusError
from ._ratings import rate_in
from ._rows import LeaderboardRow, PlayerResult, ResultRow
from ._sql import RESULT_COLUMNS, SqlBase, Tx, game_header, result_row


class SqlResultStore(SqlBase):
    """The results table (see :class:`~bot.host.storage.ResultStore`)."""

    async def record_results(
        self, game_id: int, results: Sequence[PlayerResult]
    ) -> list[ResultRow]:
        async with self._write(game_id) as tx:
            head = await game_header(tx, game_id)
            if head["status"] != "finished":
                raise GameStatusError(game_id, head["status"], "only finished games have results")
            return await replace_results(tx, game_id, results, self._clock())

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", game_id
            )
        return [result_row(r) for r in rows]

    async def user_history(
        self, user_id: int, limit: int = 10, *, guild_id: int | None = None
    ) -> list[ResultRow]:
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY finished_at DESC, game_id DESC LIMIT ?"
        params.append(limit)
        async with self._read() as tx:
            rows = await tx.fetch(sql, *params)
        return [result_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, limit: int = 10, *, map_id: str | None = None
    ) -> list[LeaderboardRow]:
        sql = (
            "SELECT user_id, COUNT(*) AS games, SUM(CASE WHEN won THEN 1 ELSE 0 END) AS wins,"
            " AVG(score) AS avg_score, SUM(tickets_completed) AS tickets_completed,"
            " SUM(tickets_failed) AS tickets_failed"
            " FROM results WHERE guild_id = ? AND user_id IS NOT NULL"
        )
        params: list[Any] = [guild_id]
        if map_id is not None:
            sql += " AND map_id = ?"
            params.append(map_id)
        sql += " GROUP BY user_id ORDER BY wins DESC, avg_score DESC, games DESC, user_id LIMIT ?"
        params.append(limit)
        async with self._read() as tx:
            rows = await tx.fetch(sql, *params)
        return [
            LeaderboardRow(
                user_id=int(r["user_id"]),
                games=int(r["games"]),
                wins=int(r["wins"]),
                avg_score=float(r["avg_score"]),
                tickets_completed=int(r["tickets_completed"]),
                tickets_failed=int(r["tickets_failed"]),
            )
            for r in rows
        ]


async def replace_results(
    tx: Tx, game_id: int, results: Sequence[PlayerResult], now: float
) -> list[ResultRow]:
    """Store a finished game's results in the open transaction ``tx`` (replacing any stored
    before) and, for a rated game not rated yet, rate it there too (:func:`~._ratings.rate_in`):
    the results and the ratings are one write."""
    seats = [r.seat for r in results]
    if len(set(seats)) != len(seats):
        raise ValueError(f"game {game_id}: two results for one seat in {seats}")
    game = await game_header(tx, game_id)
    finished_at = game["finished_at"] if game["finished_at"] is not None else now
    await tx.execute("DELETE FROM results WHERE game_id = ?", game_id)
    # a user id is stored only while the seat still has it: a user forgotten since the seats
    # were read keeps no result under their id (see _privacy.py)
    await tx.executemany(
        f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?,"
        " (SELECT user_id FROM seats WHERE game_id = ? AND seat = ? AND user_id = ?),"
        " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                r.seat,
                game_id,
                r.seat,
                r.user_id,
                game["guild_id"],
                game["map_id"],
                r.score,
                r.rank,
                bool(r.won),
                r.tickets_completed,
                r.tickets_failed,
                finished_at,
                r.player,
                r.place,
                r.longest_path_bonus,
            )
            for r in results
        ],
    )
    if game["rated"]:
        await rate_in(tx, game, results, now)
    rows = await tx.fetch(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", game_id
    )
    return [result_row(r) for r in rows]
