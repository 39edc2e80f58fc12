"""Play: a player's action, resignation, vacation, stepping AI seats."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.host.storage import UNSET, SeatChanges, SeatRow, Storage, VersionConflict
from engine import (
    Action,
    Resign,
    apply,
)
from engine.codec import decode_action
from maps.loader import load_ruleset

from ._errors import ServiceError
from ._loading import GameLoader, need_status
from ._models import Outcome
from ._recording import MAX_AI_ACTIONS, Move, MoveRecorder, with_changes

log = logging.getLogger(__name__)

#: Vacation a player may take per game, in days ("up to 7 days per game").
VACATION_DAYS = 7


class Play:
    """Play: a player's action, resignation, vacation, and stepping AI seats (the demo).

    Owns nothing of its own. Needs the storage, the :class:`~._loading.GameLoader` (locks,
    rows, states), the :class:`~._recording.MoveRecorder` (AI replies, one transaction per
    move) and the clock (vacations, the end of a timeout streak).
    """

    def __init__(
        self,
        storage: Storage,
        loader: GameLoader,
        recorder: MoveRecorder,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.storage = storage
        self.loader = loader
        self.recorder = recorder
        self.clock = clock

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Action | Mapping[str, Any],
        *,
        expected_version: int | None,
    ) -> Outcome:
        """Apply a player's action, then let AI seats act; return what happened.

        ``action`` is an engine action or its JSON form (``engine.codec``).
        ``expected_version``: the game version the player saw (a click carries it);
        a different current version refuses the move with ``stale_version``. None
        means "whatever is current" and must be said on purpose (typed commands, the demo).

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_over``,
                ``not_in_game``, ``is_ai`` (the AI holds the seat),
                ``stale_version``, ``malformed_action``, ``not_your_turn``.
            IllegalAction: the rules refuse the action (its own code).
        """
        if not isinstance(action, Action):
            action = decode_action(action)  # IllegalAction("malformed_action") on garbage
        async with self.loader.lock(game_id):
            game, seats, seat = await self.loader.player_in_play(game_id, user_id)
            if expected_version is not None and expected_version != game.version:
                raise ServiceError(
                    "stale_version", {"expected": expected_version, "current": game.version}
                )
            if action.seat != seat.seat:
                raise ServiceError("malformed_action", {"reason": "the action names another seat"})
            state = await self.loader.state(game)
            if seat.seat not in state.seats_to_act():
                raise ServiceError("not_your_turn")
            rules = load_ruleset(game.map_id)
            transition = apply(rules, state, action)  # raises IllegalAction: nothing written
            changes = self._after_human_move(seat)
            seats = with_changes(seats, changes)
            events = list(transition.events)
            after, moves = transition.state, [Move(action, "player", user_id)]
            if self.recorder.auto_ai:  # the AI's replies go into the same transaction as the move
                after, replies = await self.recorder.ai_moves(
                    game, seats, after, events, limit=MAX_AI_ACTIONS
                )
                moves += replies
            try:
                game = await self.recorder.store(
                    game, seats, state, moves, after, seat_changes=changes
                )
            except VersionConflict as exc:  # another process moved the game on meanwhile
                raise ServiceError(
                    "stale_version", {"expected": exc.expected, "current": exc.actual}
                ) from None
            return self.recorder.outcome(game, after, events, state, len(moves))

    def _after_human_move(self, seat: SeatRow) -> dict[int, SeatChanges]:
        """A player acted: the timeout streak is over, and an ongoing vacation ends (unused time
        refunded). Stored with the move, in its transaction."""
        now = self.clock()
        changes: SeatChanges = {}
        if seat.expiries_in_row:
            changes["expiries_in_row"] = 0
        if seat.vacation_until is not None:
            changes["vacation_until"] = None
            changes["vacation_used_s"] = max(
                0.0, seat.vacation_used_s - max(0.0, seat.vacation_until - now)
            )
        return {seat.seat: changes} if changes else {}

    async def play_ai(self, game_id: int, *, max_actions: int = 1) -> Outcome:
        """Apply up to ``max_actions`` actions of AI-controlled seats that must act now (for a service
        built with ``auto_ai=False``, e.g. the demo, which renders between moves).

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_over``.
        """
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            need_status(game, "active")
            seats = await self.storage.seats.seats(game_id)
            state = await self.loader.state(game)
            return await self.recorder.run_ai(
                game, seats, state, [], before=state, limit=max_actions
            )

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        """A player gives up: the engine records a ``Resign`` action (the seat can no longer win:
        it ranks last and is never among the winners), and the AI plays the seat to the end.

        The action, the seat's new state and the AI's replies are stored in one transaction.
        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_over``, ``not_in_game``, ``is_ai``.
            IllegalAction: ``already_resigned``.
        """
        async with self.loader.lock(game_id):
            game, seats, seat = await self.loader.player_in_play(game_id, user_id)
            state = await self.loader.state(game)
            rules = load_ruleset(game.map_id)
            action = Resign(seat.seat)
            transition = apply(rules, state, action)
            changes: dict[int, SeatChanges] = {
                seat.seat: {"resigned": True, "ai_permanent": True, "vacation_until": None}
            }
            seats = with_changes(seats, changes)
            events = list(transition.events)
            after, moves = transition.state, [Move(action, "player", user_id)]
            if self.recorder.auto_ai:
                after, replies = await self.recorder.ai_moves(
                    game, seats, after, events, limit=MAX_AI_ACTIONS
                )
                moves += replies
            game = await self.recorder.store(game, seats, state, moves, after, seat_changes=changes)
            log.info("game %s: seat %s resigned", game_id, seat.seat)
            return self.recorder.outcome(game, after, events, state, len(moves))

    async def vacation(self, game_id: int, user_id: int, *, days: int) -> SeatRow:
        """Pause the player's clock for ``days`` (1-7; at most 7 days per game in all).

        A turn that is running gets its deadline moved by the same time.
        Raises:
            ServiceError: ``bad_days`` (detail min, max), ``vacation_limit``
                (detail left days), ``game_not_found``, ``not_started``,
                ``game_over``, ``not_in_game``, ``is_ai``.
        """
        if not isinstance(days, int) or not 1 <= days <= VACATION_DAYS:
            raise ServiceError("bad_days", {"min": 1, "max": VACATION_DAYS})
        async with self.loader.lock(game_id):
            game, seats, seat = await self.loader.player_in_play(game_id, user_id)
            span = days * 86_400.0
            left = VACATION_DAYS * 86_400.0 - seat.vacation_used_s
            if span > left + 1e-6:
                raise ServiceError("vacation_limit", {"left": int(left // 86_400)})
            now = self.clock()
            until = max(now, seat.vacation_until or now) + span
            state = await self.loader.state(game)
            moves = seat.seat in state.seats_to_act() and game.deadline_at is not None
            reminder = None if game.reminder_at is None else game.reminder_at + span
            # one transaction: the seat's vacation and the running turn's moved clock
            rows = await self.storage.seats.update_seats(
                game_id,
                {
                    seat.seat: {
                        "vacation_until": until,
                        "vacation_used_s": seat.vacation_used_s + span,
                    }
                },
                deadline_at=(game.deadline_at or 0.0) + span if moves else UNSET,
                reminder_at=reminder if moves else UNSET,
                expected_version=game.version,
            )
            log.info("game %s: seat %s on vacation for %s days", game_id, seat.seat, days)
            self.recorder.changes.notify(game_id, game.version)
            return next(r for r in rows if r.seat == seat.seat)
