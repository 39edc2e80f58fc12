"""Storage of the coach (issue 33): hints counted per seat, and the analyses of finished games.

Written once for both backends over the driver hooks of :mod:`._sql`, like the
other parts of :class:`~bot.host.storage._repository.SqlStorage`. The analysis queue lives in the ``analyses`` table: a
game's row is inserted (``queued``) in the transaction that finishes the game
(:func:`queue_analysis_in`), a worker claims it (``running``), and its result is
stored (``done``) or the reason it could not be made (``failed``). A row left
``running`` by a process that died is claimable again once it is older than the
caller's ``stale_after``, so an analysis survives restarts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._errors import GameNotFound, SeatNotFound
from ._rows import AnalysisRow, ShardFilter
from ._sql import ANALYSIS_COLUMNS, Row, SqlBase, Tx, dump_json

_ANALYSIS_SELECT = f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE game_id = ?"


async def queue_analysis_in(tx: Tx, game_id: int, now: float) -> None:
    """Queue ``game_id``'s analysis inside the caller's transaction (nothing when queued already)."""
    await tx.execute(
        "INSERT INTO analyses (game_id, status, queued_at) VALUES (?, 'queued', ?)"
        " ON CONFLICT (game_id) DO NOTHING",
        game_id,
        now,
    )


def analysis_row(r: Row) -> AnalysisRow:
    """An :class:`AnalysisRow` from an ``analyses`` row; unreadable JSON reads as ``failed``."""
    data: dict[str, Any] | None = None
    status = r["status"]
    note = r["note"]
    if r["data"] is not None:
        try:
            value = json.loads(r["data"])
        except (ValueError, TypeError):
            value = None
        if isinstance(value, dict):
            data = value
        else:
            status, note = "failed", "the stored analysis is not readable"
    return AnalysisRow(
        game_id=r["game_id"],
        status=status,
        queued_at=r["queued_at"],
        started_at=r["started_at"],
        finished_at=r["finished_at"],
        attempts=r["attempts"],
        data=data,
        note=note,
    )


class SqlCoachStore(SqlBase):
    """Hints counted and analyses queued, made and stored (see :class:`~bot.host.storage.CoachStore`)."""

    async def count_hint(self, game_id: int, seat: int) -> int:
        async with self._write(game_id) as tx:
            row = await tx.fetchrow(
                "UPDATE seats SET hints_used = hints_used + 1 WHERE game_id = ? AND seat = ?"
                " RETURNING hints_used",
                game_id,
                seat,
            )
        if row is None:
            raise SeatNotFound(game_id, seat)
        return int(row["hints_used"])

    async def queue_analysis(self, game_id: int) -> AnalysisRow:
        async with self._write(game_id) as tx:
            if await tx.fetchrow("SELECT id FROM games WHERE id = ?", game_id) is None:
                raise GameNotFound(game_id)
            await queue_analysis_in(tx, game_id, self._clock())
            row = await tx.fetchrow(_ANALYSIS_SELECT, game_id)
        assert row is not None
        return analysis_row(row)

    async def analysis(self, game_id: int) -> AnalysisRow | None:
        async with self._read() as tx:
            row = await tx.fetchrow(_ANALYSIS_SELECT, game_id)
        return None if row is None else analysis_row(row)

    async def analysis_queue(self, shards: ShardFilter | None = None) -> list[int]:
        sql = (
            "SELECT a.game_id FROM analyses a JOIN games g ON g.id = a.game_id"
            " WHERE a.status IN ('queued', 'running')"
        )
        params: list[Any] = []
        if shards is not None and not shards.everything:
            ids = sorted(shards.ids)
            sql += f" AND ((g.guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
            params = [shards.count, *ids]
        async with self._read() as tx:
            rows = await tx.fetch(sql + " ORDER BY a.queued_at, a.game_id", *params)
        return [int(r["game_id"]) for r in rows]

    async def start_analysis(self, game_id: int, *, stale_after: float) -> AnalysisRow | None:
        now = self._clock()
        async with self._write(game_id) as tx:
            row = await tx.fetchrow(
                "UPDATE analyses SET status = 'running', started_at = ?, attempts = attempts + 1"
                " WHERE game_id = ? AND (status = 'queued'"
                " OR (status = 'running' AND started_at < ?))"
                f" RETURNING {ANALYSIS_COLUMNS}",
                now,
                game_id,
                now - stale_after,
            )
        return None if row is None else analysis_row(row)

    async def finish_analysis(self, game_id: int, data: Mapping[str, Any]) -> AnalysisRow:
        return await self._end_analysis(game_id, "done", dump_json(dict(data)), None)

    async def fail_analysis(self, game_id: int, note: str) -> AnalysisRow:
        return await self._end_analysis(game_id, "failed", None, note[:500])

    async def _end_analysis(
        self, game_id: int, status: str, data: str | None, note: str | None
    ) -> AnalysisRow:
        async with self._write(game_id) as tx:
            row = await tx.fetchrow(
                "UPDATE analyses SET status = ?, data = ?, note = ?, finished_at = ?"
                f" WHERE game_id = ? RETURNING {ANALYSIS_COLUMNS}",
                status,
                data,
                note,
                self._clock(),
                game_id,
            )
        if row is None:
            raise GameNotFound(game_id)
        return analysis_row(row)
