"""Timers: a game's turn deadline and reminder, and the soonest timer of a process's shards."""

from __future__ import annotations

from typing import Any

from ._errors import VersionConflict
from ._rows import NextTimer, ShardFilter, TimerKind
from ._sql import SqlBase, game_header, timer_at

NEXT_TIMER_SQL = """
SELECT id, timer_at, deadline_at FROM games
WHERE status = 'active' AND timer_at IS NOT NULL AND paused_at IS NULL{shards}
ORDER BY timer_at
LIMIT 1
"""


class SqlTimerStore(SqlBase):
    """The timer columns of the games table (see :class:`~bot.host.storage.TimerStore`)."""

    async def set_deadline(
        self,
        game_id: int,
        deadline_at: float | None,
        reminder_at: float | None,
        *,
        expected_version: int | None = None,
    ) -> None:
        now = self._clock()
        async with self._write(game_id) as tx:
            sql = (
                "UPDATE games SET deadline_at = ?, reminder_at = ?, timer_at = ?, updated_at = ?"
                " WHERE id = ?"
            )
            params: list[Any] = [
                deadline_at,
                reminder_at,
                timer_at(deadline_at, reminder_at),
                now,
                game_id,
            ]
            if expected_version is not None:
                sql += " AND version = ?"
                params.append(expected_version)
            if await tx.execute(sql, *params) == 0:
                head = await game_header(tx, game_id)
                raise VersionConflict(game_id, expected_version or 0, int(head["version"]))

    async def claim_reminder(self, game_id: int, when: float) -> bool:
        async with self._write(game_id) as tx:
            changed = await tx.execute(
                "UPDATE games SET reminder_at = NULL, timer_at = deadline_at, updated_at = ?"
                " WHERE id = ? AND reminder_at = ? AND status = 'active'",
                self._clock(),
                game_id,
                when,
            )
        return changed > 0

    async def next_deadline(self, shards: ShardFilter | None = None) -> NextTimer | None:
        sql, params = next_timer_query(shards)
        async with self._read() as tx:
            row = await tx.fetchrow(sql, *params)
        if row is None:
            return None
        when = float(row["timer_at"])
        deadline = row["deadline_at"]
        kind: TimerKind = "deadline" if deadline is not None and deadline <= when else "reminder"
        return NextTimer(int(row["id"]), when, kind)


def next_timer_query(shards: ShardFilter | None) -> tuple[str, list[Any]]:
    """The timer query and its parameters, limited to ``shards`` when given."""
    if shards is None or shards.everything:
        return NEXT_TIMER_SQL.format(shards=""), []
    ids = sorted(shards.ids)
    clause = f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
    return NEXT_TIMER_SQL.format(shards=clause), [shards.count, *ids]
