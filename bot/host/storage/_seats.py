"""Seats: who sits where in a game, and what changes about a seat during play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._errors import SeatNotFound, SeatTaken, VersionConflict
from ._rows import SEAT_CHANGE_COLUMNS, GameRow, NewSeat, SeatChanges, SeatRow
from ._sql import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    UNSET,
    SqlBase,
    Tx,
    Unset,
    Violation,
    game_header,
    game_row,
    given,
    seat_row,
    timer_at,
    update_game,
)

# the games and seats tables share no column name, so one join reads both (a LEFT JOIN:
# a game without seats still comes back, as one row whose seat columns are NULL)
_GAME_WITH_SEATS = (
    "SELECT "
    + ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
    + ", "
    + ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))
    + " FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat"
)


class SqlSeatStore(SqlBase):
    """The seats table (see :class:`~bot.host.storage.SeatStore`)."""

    async def add_seat(self, game_id: int, new_seat: NewSeat) -> SeatRow:
        now = self._clock()
        async with self._write(game_id) as tx:
            await game_header(tx, game_id)
            return await insert_seat(tx, game_id, new_seat, now)

    async def remove_seat(self, game_id: int, seat: int) -> bool:
        async with self._write(game_id) as tx:
            changed = await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", game_id, seat
            )
        return changed > 0

    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None | Unset = UNSET,
        display_name: str | Unset = UNSET,
        color: str | None | Unset = UNSET,
        is_ai: bool | Unset = UNSET,
        ai_kind: str | None | Unset = UNSET,
        expiries_in_row: int | Unset = UNSET,
        ai_permanent: bool | Unset = UNSET,
        vacation_used_s: float | Unset = UNSET,
        vacation_until: float | None | Unset = UNSET,
        resigned: bool | Unset = UNSET,
    ) -> SeatRow:
        changes = given(
            user_id=user_id,
            display_name=display_name,
            color=color,
            is_ai=is_ai,
            ai_kind=ai_kind,
            expiries_in_row=expiries_in_row,
            ai_permanent=ai_permanent,
            vacation_used_s=vacation_used_s,
            vacation_until=vacation_until,
            resigned=resigned,
        )
        async with self._write(game_id) as tx:
            return await update_seat_row(tx, game_id, seat, changes)

    async def update_seats(
        self,
        game_id: int,
        changes: Mapping[int, SeatChanges],
        *,
        deadline_at: float | None | Unset = UNSET,
        reminder_at: float | None | Unset = UNSET,
        expected_version: int | None = None,
    ) -> list[SeatRow]:
        assignments = {s: seat_assignments(c) for s, c in changes.items()}
        timers = given(deadline_at=deadline_at, reminder_at=reminder_at)
        now = self._clock()
        async with self._write(game_id) as tx:
            head = await game_header(tx, game_id)
            if expected_version is not None and int(head["version"]) != expected_version:
                raise VersionConflict(game_id, expected_version, int(head["version"]))
            for number, columns in assignments.items():
                await update_seat_row(tx, game_id, number, columns)
            if timers:
                merged = {"deadline_at": head["deadline_at"], "reminder_at": head["reminder_at"]}
                merged.update(timers)
                merged["timer_at"] = timer_at(merged["deadline_at"], merged["reminder_at"])
                await update_game(tx, game_id, merged, now)
            rows = await tx.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id
            )
        return [seat_row(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id
            )
        return [seat_row(r) for r in rows]

    async def game_with_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        async with self._read() as tx:
            rows = await tx.fetch(_GAME_WITH_SEATS, game_id)
        if not rows:
            return None
        return game_row(rows[0]), [seat_row(r) for r in rows if r["seat"] is not None]


async def insert_seat(tx: Tx, game_id: int, new_seat: NewSeat, now: float) -> SeatRow:
    number = new_seat.seat
    if number is None:
        taken = {
            int(r["seat"])
            for r in await tx.fetch("SELECT seat FROM seats WHERE game_id = ?", game_id)
        }
        number = next(n for n in range(len(taken) + 1) if n not in taken)
    try:
        row = await tx.fetchrow(
            "INSERT INTO seats (game_id, seat, user_id, display_name, color, is_ai, ai_kind,"
            f" joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING {SEAT_COLUMNS}",
            game_id,
            number,
            new_seat.user_id,
            new_seat.display_name,
            new_seat.color,
            bool(new_seat.is_ai),
            new_seat.ai_kind,
            now,
        )
    except Violation as exc:
        if exc.kind == "user":
            raise SeatTaken(game_id, f"user {new_seat.user_id} already has a seat") from exc
        if exc.kind == "seat":
            raise SeatTaken(game_id, f"seat {number} is taken") from exc
        raise
    assert row is not None
    return seat_row(row)


def seat_assignments(changes: SeatChanges | Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(changes) - SEAT_CHANGE_COLUMNS)
    if unknown:
        raise ValueError(f"cannot change seat columns {unknown}")
    return dict(changes)


async def update_seat_row(tx: Tx, game_id: int, seat: int, changes: Mapping[str, Any]) -> SeatRow:
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        try:
            row = await tx.fetchrow(
                f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?"
                f" RETURNING {SEAT_COLUMNS}",
                *changes.values(),
                game_id,
                seat,
            )
        except Violation as exc:
            if exc.kind == "user":
                raise SeatTaken(
                    game_id, f"user {changes.get('user_id')} already has a seat"
                ) from exc
            raise
    else:
        row = await tx.fetchrow(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?", game_id, seat
        )
    if row is None:
        raise SeatNotFound(game_id, seat)
    return seat_row(row)
