"""Achievements earned: who earned which achievement in which server, in which game and when.

An achievement is earned once per player and server (the table's key), in the first game
that met its rule (:mod:`bot.host.achievements`); ``earned_at`` is that game's finish time,
so the rows recomputed from the stored games are the rows stored at the games' ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._sql import Row, StorePart, Tx

#: The columns of ``achievements`` in the order of :class:`AchievementRow`.
ACHIEVEMENT_COLUMNS = "guild_id, user_id, achievement, game_id, earned_at"
_ORDER = " ORDER BY earned_at, game_id, user_id, achievement"


@dataclass(frozen=True, slots=True, order=True)
class AchievementRow:
    """``user_id`` earned ``achievement`` (an id of :data:`bot.host.achievements.ACHIEVEMENTS`)
    in server ``guild_id`` with game ``game_id``, finished at ``earned_at`` (unix seconds)."""

    guild_id: int
    user_id: int
    achievement: str
    game_id: int
    earned_at: float


@dataclass(frozen=True, slots=True)
class CareerResult:
    """One finished game of a player, as the career achievements count them (a row of
    ``results``): the game, its map, its finish time and whether the player won."""

    user_id: int
    game_id: int
    map_id: str
    won: bool
    finished_at: float


def _row(r: Row) -> AchievementRow:
    return AchievementRow(
        guild_id=int(r["guild_id"]),
        user_id=int(r["user_id"]),
        achievement=str(r["achievement"]),
        game_id=int(r["game_id"]),
        earned_at=float(r["earned_at"]),
    )


class AchievementStore(StorePart):
    """The achievements earned (table ``achievements``, schema version 11)."""

    async def award(self, game_id: int, earned: Sequence[tuple[int, str]]) -> list[AchievementRow]:
        """Store ``earned`` ((user id, achievement id) pairs met by finished game ``game_id``)
        in ONE transaction, each only where the player has not earned it in the game's server
        yet and still has a result in the game under their id (a player forgotten meanwhile
        earns nothing); returns every achievement first earned in this game, by user and id.
        Awarding a game twice changes nothing. An unknown game stores nothing."""
        async with self._write(game_id) as tx:
            await tx.executemany(
                f"INSERT INTO achievements ({ACHIEVEMENT_COLUMNS})"
                " SELECT g.guild_id, r.user_id, ?, g.id, g.finished_at"
                " FROM games g JOIN results r ON r.game_id = g.id"
                " WHERE g.id = ? AND r.user_id = ? AND g.finished_at IS NOT NULL"
                " ON CONFLICT DO NOTHING",
                [(achievement, game_id, user) for user, achievement in earned],
            )
            return await _of_game(tx, game_id)

    async def of_game(self, game_id: int) -> list[AchievementRow]:
        """The achievements first earned in ``game_id``, by user and id."""
        async with self._read() as tx:
            return await _of_game(tx, game_id)

    async def of_user(self, guild_id: int, user_id: int) -> list[AchievementRow]:
        """What ``user_id`` earned in server ``guild_id``, oldest first."""
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {ACHIEVEMENT_COLUMNS} FROM achievements"
                f" WHERE guild_id = ? AND user_id = ?{_ORDER}",
                guild_id,
                user_id,
            )
        return [_row(r) for r in rows]

    async def every_row(self) -> list[AchievementRow]:
        """Every achievement stored, oldest first."""
        async with self._read() as tx:
            rows = await tx.fetch(f"SELECT {ACHIEVEMENT_COLUMNS} FROM achievements{_ORDER}")
        return [_row(r) for r in rows]

    async def replace_all(
        self, remove: Sequence[AchievementRow], add: Sequence[AchievementRow]
    ) -> None:
        """Delete the rows ``remove`` and insert ``add``, in ONE transaction (a recompute's
        repair; a row to add whose game is gone meanwhile raises and nothing changes)."""
        async with self._write() as tx:
            await tx.executemany(
                "DELETE FROM achievements WHERE guild_id = ? AND user_id = ? AND achievement = ?",
                [(r.guild_id, r.user_id, r.achievement) for r in remove],
            )
            if add:
                await tx.executemany(
                    f"INSERT INTO achievements ({ACHIEVEMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                    [(r.guild_id, r.user_id, r.achievement, r.game_id, r.earned_at) for r in add],
                )

    async def careers(self, guild_id: int, user_ids: Sequence[int]) -> list[CareerResult]:
        """Every stored result of ``user_ids`` in server ``guild_id``, oldest first (by finish
        time, then game id): what the career achievements count."""
        if not user_ids:
            return []
        marks = ", ".join("?" * len(user_ids))
        params: list[Any] = [guild_id, *user_ids]
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT user_id, game_id, map_id, won, finished_at FROM results"
                f" WHERE guild_id = ? AND user_id IN ({marks}) ORDER BY finished_at, game_id",
                *params,
            )
        return [
            CareerResult(
                user_id=int(r["user_id"]),
                game_id=int(r["game_id"]),
                map_id=str(r["map_id"]),
                won=bool(r["won"]),
                finished_at=float(r["finished_at"]),
            )
            for r in rows
        ]


async def _of_game(tx: Tx, game_id: int) -> list[AchievementRow]:
    rows = await tx.fetch(
        f"SELECT {ACHIEVEMENT_COLUMNS} FROM achievements WHERE game_id = ?"
        " ORDER BY user_id, achievement",
        game_id,
    )
    return [_row(r) for r in rows]
