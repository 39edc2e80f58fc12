"""The coach's hints: ``/ttr hint`` and its **Do it** button, and whether a game allows them.

A hint is computed by :func:`engine.ai.coach.hint_for` from the asking player's
own view only, in a worker (:class:`~bot.host.services._jobs.Jobs`: a worker process
in the bot) so the event loop never waits for the search; it is counted for the
player once it is delivered (``seats.hints_used``, shown in the final table).
**Do it** plays the hinted action: it carries the game version the hint was made
at and the action's place in the legal list of that version, so a game that moved
on meanwhile refuses it with ``stale_version`` and nothing is played.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.host.storage import GameRow, SeatRow
from bot.process import metrics
from engine import Action, GameState, legal_actions
from engine.ai.coach import Hint, hint_for
from maps.loader import load_ruleset

from ._errors import ServiceError
from ._jobs import Jobs, ThreadJobs
from ._models import Outcome
from ._play import PlayOps

log = logging.getLogger(__name__)

#: Seconds a hint may take, queueing in the worker included: the search stops at 1.5 s, and
#: a deferred Discord answer must come within 5 s of the click.
HINT_DEADLINE_S = 4.0


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """A hint for the player to act, ready to show.

    Attributes:
        game: the game row (version: the hint's version).
        seats: the game's seats (names for the text).
        seat: the asking player's seat.
        hint: the engine's :class:`~engine.ai.coach.Hint` (ids and counts).
        index: the hinted action's place in the seat's legal actions at that version
            (what **Do it** carries back, with the version).
        used: the hints this player has taken in this game, this one included.
    """

    game: GameRow
    seats: list[SeatRow]
    seat: int
    hint: Hint
    index: int
    used: int

    @property
    def version(self) -> int:
        """The game version the hint was made at."""
        return self.game.version


def hint_job(map_id: str, state: GameState, seat: int) -> tuple[Hint, int]:
    """In a worker: the hint for ``seat`` of ``state`` and its action's index in the seat's
    legal actions (``payments="sensible"``, the list the hint chose from)."""
    rules = load_ruleset(map_id)
    hint = hint_for(rules, state, seat)
    return hint, legal_actions(rules, state, seat, payments="sensible").index(hint.action)


class CoachOps(PlayOps):
    """Hint operations of :class:`~bot.host.services.GameService`."""

    #: where hints are computed (the bot passes a process pool; tests a thread)
    hint_jobs: Jobs = ThreadJobs()

    async def hint(self, game_id: int, user_id: int) -> HintAnswer:
        """A suggested move for ``user_id``, who must be the player to act, and why.

        Counted as one hint for the player once made. Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_finished``,
                ``not_in_game``, ``is_ai``, ``hints_off`` (hints are off in this game: the
                host's or the server's choice, and always in a rated game),
                ``not_your_turn``, ``hint_timeout`` (the workers are too busy right now;
                nothing was counted).
        """
        game, seats, seat = await self._player_in_play(game_id, user_id)
        if not game.hints_allowed or game.rated:  # a rated game's fairness: never hints
            raise ServiceError("hints_off")
        state = await self._state(game)
        if seat.seat not in state.seats_to_act():
            raise ServiceError("not_your_turn")
        try:
            with metrics.hint_timer():
                hint, index = await asyncio.wait_for(
                    self.hint_jobs.run(hint_job, game.map_id, state, seat.seat), HINT_DEADLINE_S
                )
        except TimeoutError:
            log.warning("game %s: a hint took longer than %.0f s", game_id, HINT_DEADLINE_S)
            raise ServiceError("hint_timeout") from None
        used = await self.storage.count_hint(game_id, seat.seat)
        log.info("game %s: seat %s took hint %s", game_id, seat.seat, used)
        return HintAnswer(game, seats, seat.seat, hint, index, used)

    async def hinted(self, game_id: int, user_id: int, *, version: int, index: int) -> Action:
        """The hinted action: the ``index``-th of the player's legal actions at ``version``
        (see :class:`HintAnswer`), while the game is still at that version.

        Raises:
            ServiceError: ``stale_version`` (the game moved on since the hint),
                ``malformed_action`` (no such action), ``game_not_found``, ``game_finished``,
                ``not_in_game``, ``is_ai``.
        """
        game, _, seat = await self._player_in_play(game_id, user_id)
        if game.version != version:
            raise ServiceError("stale_version", {"expected": version, "current": game.version})
        state = await self._state(game)
        legal = legal_actions(load_ruleset(game.map_id), state, seat.seat, payments="sensible")
        if not 0 <= index < len(legal):
            raise ServiceError("malformed_action", {"reason": "no such hinted action"})
        return legal[index]

    async def play_hint(self, game_id: int, user_id: int, *, version: int, index: int) -> Outcome:
        """Play the hinted action (:meth:`hinted`) exactly as :meth:`act` plays a move, at
        ``version`` only: a game that moved on meanwhile refuses it with ``stale_version``
        and nothing is played.

        Raises:
            ServiceError: as :meth:`hinted`, and :meth:`act`'s refusals.
        """
        action = await self.hinted(game_id, user_id, version=version, index=index)
        return await self.act(game_id, user_id, action, expected_version=version)


__all__ = ["HINT_DEADLINE_S", "CoachOps", "HintAnswer", "hint_job"]
