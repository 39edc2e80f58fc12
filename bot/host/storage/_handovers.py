"""Seat handovers: a seat of a running game passed to another member (``/ttr seat give``, or a
host's offer of a seat lost to timeouts), the seat's new holder and the game's record of it,
written together."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ._errors import VersionConflict
from ._rows import SeatRow
from ._seats import update_seat_row
from ._sql import Row, StorePart, game_header

#: Why a seat changed hands: its holder gave it (``handed``), or a host offered a seat the
#: clock had taken over after three timeouts in a row (``timeout``).
HandoverReason = Literal["handed", "timeout"]
#: A handover's columns as copied between databases (the id is the new database's own).
HANDOVER_COLUMNS = "game_id, seat, version, from_user_id, to_user_id, reason, at"


@dataclass(frozen=True, slots=True)
class SeatHandover:
    """One change of a seat's holder: ``seat`` of ``game_id`` at game ``version`` (the moves
    before it were the leaver's), from ``from_user_id`` to ``to_user_id`` (None once that user
    was forgotten), ``reason`` (:data:`HandoverReason`), ``at`` (unix seconds)."""

    game_id: int
    seat: int
    version: int
    from_user_id: int | None
    to_user_id: int | None
    reason: HandoverReason
    at: float


class HandoverStore(StorePart):
    """Seat handovers: who held a seat before whom, and the change itself."""

    async def hand_over(
        self,
        game_id: int,
        seat: int,
        *,
        from_user_id: int,
        to_user_id: int,
        display_name: str,
        reason: HandoverReason,
        expected_version: int,
    ) -> tuple[SeatRow, SeatHandover]:
        """In ONE transaction: ``seat`` gets ``to_user_id`` (named ``display_name``; a timeout
        streak, the computer's hold on the seat and a running vacation end) and the handover is
        recorded at the game's version. The engine's seat, its hand and tickets stay as they are.

        Raises:
            GameNotFound: no such game.
            VersionConflict: the game moved on from ``expected_version``.
            SeatNotFound: the game has no such seat.
            SeatTaken: ``to_user_id`` already sits in this game.
        """
        now = self._clock()
        async with self._write(game_id) as tx:
            head = await game_header(tx, game_id)
            if int(head["version"]) != expected_version:
                raise VersionConflict(game_id, expected_version, int(head["version"]))
            row = await update_seat_row(
                tx,
                game_id,
                seat,
                {
                    "user_id": to_user_id,
                    "display_name": display_name,
                    "expiries_in_row": 0,
                    "ai_permanent": False,
                    "vacation_until": None,
                },
            )
            record = await tx.fetchrow(
                f"INSERT INTO seat_handovers ({HANDOVER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
                f" RETURNING {HANDOVER_COLUMNS}",
                game_id,
                seat,
                expected_version,
                from_user_id,
                to_user_id,
                reason,
                now,
            )
        assert record is not None
        return row, handover_row(record)

    async def handovers(self, game_id: int) -> list[SeatHandover]:
        """The game's handovers, oldest first (empty for none or an unknown game)."""
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {HANDOVER_COLUMNS} FROM seat_handovers WHERE game_id = ? ORDER BY id",
                game_id,
            )
        return [handover_row(r) for r in rows]


def handover_row(r: Row) -> SeatHandover:
    """A :class:`SeatHandover` from a ``seat_handovers`` row."""
    reason: HandoverReason = "timeout" if r["reason"] == "timeout" else "handed"
    return SeatHandover(
        game_id=int(r["game_id"]),
        seat=int(r["seat"]),
        version=int(r["version"]),
        from_user_id=r["from_user_id"],
        to_user_id=r["to_user_id"],
        reason=reason,
        at=float(r["at"]),
    )


__all__ = ["HANDOVER_COLUMNS", "HandoverReason", "HandoverStore", "SeatHandover", "handover_row"]
