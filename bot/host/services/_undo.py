"""Undo by consent: the mover asks to take back their last move, every other person at the
table approves, and the engine takes it back as a new action (:class:`engine.UndoLast`).

Which moves: what the engine allows (:func:`engine.can_undo`): a claim or a train station that
showed nothing hidden (no tunnel cards turned up, no card drawn from the deck, the game not
ended), and only until the next action. So a face-up draw never qualifies (its replacement is
shown at once), and neither does a move after which a computer seat moved (the computer plays
at once, in the move's own transaction).

Who is asked: every other seat a person plays (not resigned, not taken over by the computer);
computer seats are not asked (they agree). The approvals so far travel in the buttons of the
public request (:class:`UndoRequest` ``approved``), and the service also remembers them
(:attr:`TakeBacks.APPROVALS_KEPT` requests, in this process): two people who approve at the
same moment each click a button that carries neither approval, and the later click still
counts the earlier one. Nothing is stored in the database until the undo itself, which is
one transaction like any move; after a restart the buttons' approvals count. Rated and
casual games alike: everyone else must agree, and a refusal ends the request.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import OrderedDict
from dataclasses import dataclass

from bot.host.storage import SeatRow, Storage, VersionConflict
from engine import IllegalAction, UndoLast, apply, can_undo
from maps.loader import load_ruleset

from ._errors import ServiceError
from ._loading import GameLoader, ai_controlled, need_status
from ._models import Outcome
from ._recording import Move, MoveRecorder

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class UndoRequest:
    """A request to take back ``seat``'s (``user_id``'s) last move of ``game_id``, made at game
    ``version``: the seats that must approve (``voters``, with their ``voter_users``) and those
    that did (``approved``)."""

    game_id: int
    version: int
    seat: int
    user_id: int
    voters: tuple[int, ...]
    voter_users: tuple[int, ...]
    approved: frozenset[int] = frozenset()

    @property
    def agreed(self) -> bool:
        """Every seat asked has approved."""
        return set(self.voters) <= self.approved


class TakeBacks:
    """Undo by consent: a request, the approvals, the undo.

    Owns only the approvals it has seen (module docstring; the oldest request's are
    forgotten past :attr:`APPROVALS_KEPT`). Needs the storage, the
    :class:`~._loading.GameLoader` (locks, states) and the :class:`~._recording.MoveRecorder`
    (the undo is stored as a move).
    """

    #: Requests whose approvals are remembered (game, version, seat), oldest forgotten first.
    APPROVALS_KEPT = 1024

    def __init__(self, storage: Storage, loader: GameLoader, recorder: MoveRecorder) -> None:
        self.storage = storage
        self.loader = loader
        self.recorder = recorder
        self._approvals: OrderedDict[tuple[int, int, int], frozenset[int]] = OrderedDict()

    async def may_ask(self, game_id: int, user_id: int) -> bool:
        """``user_id`` may ask to take their last move back now (a button to offer)."""
        try:
            game, seats, seat = await self.loader.player_in_play(game_id, user_id)
        except ServiceError:
            return False
        return can_undo(await self.loader.state(game), seat.seat)

    async def ask(self, game_id: int, user_id: int, *, expected_version: int) -> UndoRequest:
        """``user_id`` asks to take back their last move, seen at ``expected_version``.

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_over``, ``game_paused``,
                ``not_in_game``, ``is_ai``.
            IllegalAction: ``cannot_undo`` (the move showed something hidden, was not a claim
                or a station, or the game moved on).
        """
        game, seats, seat = await self.loader.player_in_play(game_id, user_id)
        if game.version != expected_version or not can_undo(
            await self.loader.state(game), seat.seat
        ):
            raise IllegalAction("cannot_undo", {"seat": seat.seat})
        return await self._request(game_id, game.version, seat.seat, frozenset())

    async def approve(
        self,
        game_id: int,
        version: int,
        seat: int,
        approved: frozenset[int],
        user_id: int,
    ) -> tuple[UndoRequest, Outcome | None]:
        """``user_id`` approves the request to take back ``seat``'s move of ``game_id`` made at
        ``version``, which the seats ``approved`` approved before: the request with their
        approval too, and, once every seat asked approved, the undo's outcome (applied and
        stored in ONE transaction). Who is asked is read afresh (a seat that changed hands
        meanwhile is asked in its new holder).

        Raises:
            ServiceError: ``not_your_button`` (not asked), ``game_not_found``, ``game_over``,
                ``game_paused``.
            IllegalAction: ``cannot_undo`` (the game moved on since the request).
        """
        request = await self._request(game_id, version, seat, approved)
        if user_id not in request.voter_users:
            raise ServiceError("not_your_button")
        mine = request.voters[request.voter_users.index(user_id)]
        key = (game_id, version, seat)
        seen = self._approvals.pop(key, frozenset())
        # no await between reading and writing the remembered approvals: two clicks at
        # once are counted one after the other
        request = dataclasses.replace(request, approved=request.approved | seen | {mine})
        if not request.agreed:
            self._approvals[key] = request.approved
            while len(self._approvals) > self.APPROVALS_KEPT:
                self._approvals.popitem(last=False)
            return request, None
        return request, await self.undo(request)

    async def refuse(self, game_id: int, version: int, seat: int, user_id: int) -> UndoRequest:
        """``user_id``, one of the seats asked, refuses: nothing changes (the request ends).

        Raises:
            ServiceError: ``not_your_button`` (not asked), ``game_not_found``.
        """
        request = await self._request(game_id, version, seat, frozenset())
        if user_id not in request.voter_users:
            raise ServiceError("not_your_button")
        self._approvals.pop((game_id, version, seat), None)
        return request

    async def _request(
        self, game_id: int, version: int, seat: int, approved: frozenset[int]
    ) -> UndoRequest:
        """The request to take back ``seat``'s move at ``version``, asked of today's seats."""
        game, seats = await self.loader.found(game_id, self.storage.seats.game_with_seats)
        mover = next((s for s in seats if s.seat == seat), None)
        if mover is None or mover.user_id is None:
            raise IllegalAction("cannot_undo", {"seat": seat})
        voters = [s for s in seats if s.seat != seat and _asked(s)]
        return UndoRequest(
            game.id,
            version,
            seat,
            mover.user_id,
            tuple(s.seat for s in voters),
            tuple(s.user_id or 0 for s in voters),
            frozenset(approved) & {s.seat for s in voters},
        )

    async def undo(self, request: UndoRequest) -> Outcome:
        """Take the move of an agreed ``request`` back: :class:`engine.UndoLast` applied and
        stored as the mover's action, in ONE transaction.

        Raises:
            ServiceError: ``game_not_found``, ``game_over``, ``game_paused``.
            IllegalAction: ``cannot_undo`` (the game moved on since the request).
        """
        async with self.loader.lock(request.game_id):
            game = await self.loader.game(request.game_id)
            need_status(game, "active")
            if game.version != request.version:
                raise IllegalAction("cannot_undo", {"seat": request.seat})
            seats = await self.storage.seats.seats(request.game_id)
            state = await self.loader.state(game)
            action = UndoLast(request.seat)
            transition = apply(load_ruleset(game.map_id), state, action)  # cannot_undo
            moves = [Move(action, "player", request.user_id)]
            try:
                game = await self.recorder.store(game, seats, state, moves, transition.state)
            except VersionConflict:
                raise IllegalAction("cannot_undo", {"seat": request.seat}) from None
        log.info("game %s: seat %s took a move back", request.game_id, request.seat)
        return self.recorder.outcome(game, transition.state, transition.events, state, 1)


def _asked(seat: SeatRow) -> bool:
    """A seat whose person is asked to approve: a person plays it now."""
    return seat.user_id is not None and not ai_controlled(seat)


__all__ = ["TakeBacks", "UndoRequest"]
