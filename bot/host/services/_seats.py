"""Substitutes: a seat of a running game passed to another member, with both agreeing.

Two ways, each an offer the member accepts (or lets expire):

- the holder gives their seat (``/ttr seat give member:``): the offer names the holder, the
  member and when it expires (:data:`OFFER_SECONDS`);
- the host offers a seat the clock took over after :data:`~._clock.MAX_EXPIRIES` timeouts in a
  row (the computer plays it; ``/ttr seat offer seat: member:``).

An offer is stored nowhere: it travels in the member's Accept button (the cog writes its
fields into the custom id) and is checked again when it is accepted: still the same holder,
not expired, the member not seated in the game. Accepting is ONE transaction
(:meth:`~bot.host.storage.HandoverStore.hand_over`): the seat's Discord user changes and the
handover is recorded at the game's version. The engine's seat does not change: its hand,
tickets, pieces and score move with it, so the new holder reads them with ``/ttr hand`` and
the old one no longer can. Ratings count the game for whoever holds the seat when it ends
(see :mod:`._recording`); the one who left gets no result for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.host.storage import (
    GameRow,
    HandoverReason,
    SeatHandover,
    SeatRow,
    SeatTaken,
    Storage,
    VersionConflict,
)

from ._errors import ServiceError
from ._loading import GameLoader, ai_controlled, need_status

log = logging.getLogger(__name__)

#: How long an offer waits for the member's answer, in seconds.
OFFER_SECONDS = 30 * 60


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """A seat offered to a member: ``seat`` of ``game_id``, held by ``from_user_id`` (for a
    ``timeout`` offer, the player the clock replaced), for ``to_user_id``, who may accept it
    until ``expires_at`` (whole unix seconds)."""

    game_id: int
    seat: int
    from_user_id: int
    to_user_id: int
    reason: HandoverReason
    expires_at: int


class Substitutes:
    """Substitutes: seats given to, or offered to, another member and taken over.

    Owns nothing of its own (the handovers are :attr:`Storage.handovers`). Needs the storage,
    the :class:`~._loading.GameLoader` (locks, rows) and the clock (offers expire).
    """

    def __init__(self, storage: Storage, loader: GameLoader, *, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.loader = loader
        self.clock = clock

    async def give(self, game_id: int, user_id: int, member_id: int) -> SeatOffer:
        """The holder ``user_id`` offers their seat to ``member_id``; nothing is stored.

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_over``, ``game_paused``,
                ``not_in_game``, ``is_ai`` (the computer plays the seat), ``substitute_self``,
                ``substitute_seated`` (the member already plays here).
        """
        game, seats = await self.loader.found(game_id, self.storage.seats.game_with_seats)
        need_status(game, "active")
        seat = next((s for s in seats if s.user_id == user_id and not s.is_ai), None)
        if seat is None:
            raise ServiceError("not_in_game")
        if ai_controlled(seat):
            raise ServiceError("is_ai")
        self._need_newcomer(seats, user_id, member_id)
        return SeatOffer(game_id, seat.seat, user_id, member_id, "handed", self._expiry())

    async def offer_timed_out(
        self, game_id: int, host_id: int, seat_number: int, member_id: int
    ) -> SeatOffer:
        """The host offers seat ``seat_number``, which the computer plays since its player's
        clock ran out :data:`~._clock.MAX_EXPIRIES` times in a row, to ``member_id``.

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_over``, ``game_paused``,
                ``not_host``, ``no_such_seat``, ``seat_not_timed_out``, ``substitute_seated``.
        """
        game, seats = await self.loader.found(game_id, self.storage.seats.game_with_seats)
        need_status(game, "active")
        if game.host_user_id != host_id:
            raise ServiceError("not_host")
        seat = next((s for s in seats if s.seat == seat_number), None)
        if seat is None:
            raise ServiceError("no_such_seat", {"seat": seat_number + 1})
        if not _timed_out(seat) or seat.user_id is None:
            raise ServiceError("seat_not_timed_out", {"seat": seat_number + 1})
        self._need_newcomer(seats, None, member_id)
        return SeatOffer(game_id, seat.seat, seat.user_id, member_id, "timeout", self._expiry())

    async def accept(
        self, offer: SeatOffer, user_id: int, display_name: str
    ) -> tuple[GameRow, SeatHandover]:
        """``user_id`` (named ``display_name``) takes the offered seat, in ONE transaction.

        Raises:
            ServiceError: ``not_your_button`` (the offer is for another member),
                ``seat_offer_expired``, ``seat_offer_stale`` (the seat changed since),
                ``substitute_seated``, ``game_not_found``, ``game_over``, ``game_paused``.
        """
        if user_id != offer.to_user_id:
            raise ServiceError("not_your_button")
        if self.clock() > offer.expires_at:
            raise ServiceError("seat_offer_expired")
        async with self.loader.lock(offer.game_id):
            game, seats = await self.loader.found(offer.game_id, self.storage.seats.game_with_seats)
            need_status(game, "active")
            seat = next((s for s in seats if s.seat == offer.seat), None)
            if seat is None or not _still_offered(seat, offer):
                raise ServiceError("seat_offer_stale")
            self._need_newcomer(seats, None, user_id)
            try:
                _, handover = await self.storage.handovers.hand_over(
                    offer.game_id,
                    offer.seat,
                    from_user_id=offer.from_user_id,
                    to_user_id=user_id,
                    display_name=display_name,
                    reason=offer.reason,
                    expected_version=game.version,
                )
            except VersionConflict:
                raise ServiceError("seat_offer_stale") from None
            except SeatTaken:
                raise ServiceError("substitute_seated") from None
        log.info("game %s: seat %s has a new player (%s)", offer.game_id, offer.seat, offer.reason)
        return game, handover

    async def handovers(self, game_id: int) -> list[SeatHandover]:
        """The game's handovers, oldest first (for its log)."""
        return await self.storage.handovers.handovers(game_id)

    def _expiry(self) -> int:
        return int(self.clock()) + OFFER_SECONDS

    @staticmethod
    def _need_newcomer(seats: list[SeatRow], holder: int | None, member_id: int) -> None:
        """Refuse a member who is the holder, or who already has a seat in the game."""
        if member_id == holder:
            raise ServiceError("substitute_self")
        if any(s.user_id == member_id for s in seats):
            raise ServiceError("substitute_seated")


def _timed_out(seat: SeatRow) -> bool:
    """The computer plays the seat because its player's clock ran out too often (not an AI
    seat, not a resignation)."""
    return seat.ai_permanent and not seat.is_ai and not seat.resigned


def _still_offered(seat: SeatRow, offer: SeatOffer) -> bool:
    """The seat is as it was offered: the same holder and, for a timeout offer, still played
    by the computer after timeouts; for a given seat, still played by its holder."""
    if seat.user_id != offer.from_user_id or seat.is_ai or seat.resigned:
        return False
    return _timed_out(seat) if offer.reason == "timeout" else not seat.ai_permanent


__all__ = ["OFFER_SECONDS", "SeatOffer", "Substitutes"]
