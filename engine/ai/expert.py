"""The expert AI: the hard level's search, made for asynchronous tables.

An asynchronous table gives a computer seat time that a live app cannot: the
expert spends up to :data:`DEFAULT_TIME_CAP_S` seconds of CPU per decision (in the
bot's AI worker processes, never on its event loop). On top of
:class:`engine.ai.hard.HardPlayer` (determinised worlds, rollouts on the integer
core, the paired comparison of :func:`engine.ai.hard.pick`) it adds:

1. **A larger budget.** ``iterations`` rollouts per decision, by default scaled to
   the time cap at hard's rate (:data:`ROLLOUTS_PER_S`, hard's 240 rollouts in its
   1.4 s), and more candidate moves (:data:`MAX_CANDIDATES`). The cap is read on the
   thread's CPU clock (:func:`time.thread_time`), so a busy machine slows the answer
   but does not thin the search, up to a second cap on the wall clock
   (:data:`DEFAULT_WALL_CAP_S`, 40 s) that keeps a starved decision below the bot's
   60 s limit for a wedged worker. With the cap not reached the choice depends only on
   the view and the seeded RNG (tests pass an iteration budget and no cap).
2. **Opponent ticket inference** (:func:`inferred_weights`). Hard biases the other
   seats' hidden tickets by how much their routes shorten a ticket's path; the
   expert uses a likelihood model instead. For each other seat with claimed routes
   and each ticket it might hold, take the ticket's shortest path over the tracks
   that seat could still use (its own routes and free ones, at their lengths:
   the path a player holding that ticket would build; on a tie, such as a double
   route's twin, the seat's own route) and the **overlap**, the
   share of that path's spaces the seat has already claimed, in ``[0, 1]``. The
   ticket's weight is ``exp(BETA x overlap)`` (:data:`BETA` = 3: a ticket whose
   path the seat has fully built is about 20 times as likely as one it has not
   touched); a ticket the seat can no longer connect weighs :data:`CUT_WEIGHT`.
   Seats without routes get no weights (uniform). The worlds deal each seat's
   kept tickets in proportion to these weights (:func:`engine.ai.world.sample_world`,
   weighted sampling without replacement), so the rollouts play against the
   tickets the claims point to, and the blocking candidates
   (:func:`engine.ai.hard.blocking_claims`) aim at them. Only public facts are
   read (owners, routes).
3. **Endgame timing** (:func:`endgame_candidates`). Once its own pieces are within
   :data:`ENDGAME_WINDOW` of the last-round threshold (``params.last_round_at``),
   the expert searches both sides of the decision to end the game: up to two
   affordable claims that trigger the last round (longest first) beside the
   longest claim that does not, and drawing (waiting). The rollouts play each
   to the end in the same worlds, so triggering now is chosen only when its value
   (the score margin with the win weight) beats waiting's in the paired
   comparison: the expert ends the game when it is ahead on the table's
   evidence, and keeps building while its open tickets or a rival's would
   gain more from more turns.
"""

from __future__ import annotations

import contextvars
import math
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..actions import Action, ClaimRoute, DrawBlind
from ..types import LOCOMOTIVE
from ..views import PlayerView
from .hard import Evaluation, HardPlayer

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

#: The CPU seconds an expert decision may take by default.
DEFAULT_TIME_CAP_S = 10.0
#: ... and the wall-clock seconds, whatever CPU it got: on a loaded machine 10 s of CPU can
#: take minutes, and the bot kills a decision running 60 s as a wedged worker.
DEFAULT_WALL_CAP_S = 40.0
#: Rollouts per CPU second the default budget is scaled by (hard's 240 rollouts in 1.4 s).
ROLLOUTS_PER_S = 240 / 1.4
#: Candidate moves searched at a turn start (hard: 6), before the endgame's and blocks.
MAX_CANDIDATES = 8
#: The inference's sharpness: weight = exp(BETA x overlap).
BETA = 3.0
#: Weight of a ticket the seat can no longer connect (other seats cut every path).
CUT_WEIGHT = 0.5
#: The endgame starts when own pieces <= last_round_at + this.
ENDGAME_WINDOW = 8

#: The wall-clock deadline (:func:`time.perf_counter`) of the decision under way in this
#: thread, None for none: per context, so one player object can decide in several threads.
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "expert_deadline", default=None
)


def inferred_weights(
    rules: ClassicRules, view: PlayerView, pool: list[str], beta: float = BETA
) -> dict[int, dict[str, float]]:
    """How likely each ticket of ``pool`` is in each other seat's hand, from its claims.

    Returns seat -> ticket id -> weight (> 0), for every other seat that holds tickets
    and has claimed routes: ``exp(beta x overlap)``, where overlap is the share of the
    spaces on the ticket's shortest path (over the seat's own routes and free tracks,
    at their lengths) that the seat has claimed; :data:`CUT_WEIGHT` when no path is
    left. See the module docstring for the model. Reads public facts only.
    """
    board = rules.board
    owners = view.public.owners
    out: dict[int, dict[str, float]] = {}
    for p in view.public.players:
        if p.seat == view.seat or not p.tickets or not p.routes:
            continue
        mine = set(p.routes)
        # lengths x 4, a seat's own route 1 less: ties (a double route's twin) go to its own
        usable: dict[str, int | None] = {
            rid: 4 * r.length - (rid in mine) if owners.get(rid) in (None, p.seat) else None
            for rid, r in board.routes.items()
        }
        weights: dict[str, float] = {}
        for tid in pool:
            t = board.tickets[tid]
            found = board.shortest_path(t.a, t.b, usable)
            if found is None:
                weights[tid] = CUT_WEIGHT
                continue
            path = found[1]
            total = sum(board.routes[r].length for r in path)
            built = sum(board.routes[r].length for r in path if r in mine)
            weights[tid] = math.exp(beta * (built / total if total else 1.0))
        out[p.seat] = weights
    return out


def endgame_candidates(rules: ClassicRules, view: PlayerView, legal: list[Action]) -> list[Action]:
    """The moves that decide when the game ends, near the end (else ``[]``).

    When own pieces are at most ``last_round_at + ENDGAME_WINDOW``: up to two claims
    that trigger the last round (pieces left <= ``last_round_at``; longest first, fewest
    locomotives), the longest claim that does not, and a blind draw (waiting). None
    once the last round runs (nothing left to time).
    """
    at = rules.params.last_round_at
    me = view.me
    if view.public.last_round or me.pieces > at + ENDGAME_WINDOW:
        return []
    best: dict[str, ClaimRoute] = {}
    for a in legal:
        if isinstance(a, ClaimRoute):
            old = best.get(a.route)
            if old is None or a.payment.get(LOCOMOTIVE) < old.payment.get(LOCOMOTIVE):
                best[a.route] = a
    length = {rid: rules.board.routes[rid].length for rid in best}
    ranked = sorted(best, key=lambda rid: (-length[rid], rid))
    trigger = [best[r] for r in ranked if me.pieces - length[r] <= at][:2]
    wait = [best[r] for r in ranked if me.pieces - length[r] > at][:1]
    draw = [a for a in legal if isinstance(a, DrawBlind)][:1]
    return [*trigger, *wait, *draw]


class ExpertPlayer(HardPlayer):
    """See the module docstring.

    Args:
        iterations: rollouts per decision (None: ``ROLLOUTS_PER_S x time_cap_s``, or
            hard's 240 x 8 without a cap).
        time_cap_s: cap per decision in seconds of ``clock`` (None: no cap).
        max_candidates: candidate moves searched at a turn start.
        clock: the cap's clock, seconds (default :func:`time.thread_time`: CPU time of
            the deciding thread).
        beta: the inference's sharpness (:func:`inferred_weights`).
        wall_cap_s: a second cap, in wall-clock seconds (None: none), so that a decision on
            a loaded machine still ends in time.
    """

    def __init__(
        self,
        iterations: int | None = None,
        time_cap_s: float | None = DEFAULT_TIME_CAP_S,
        max_candidates: int = MAX_CANDIDATES,
        clock: Callable[[], float] = time.thread_time,
        beta: float = BETA,
        wall_cap_s: float | None = DEFAULT_WALL_CAP_S,
    ) -> None:
        if iterations is None:
            iterations = round(ROLLOUTS_PER_S * time_cap_s) if time_cap_s else 240 * 8
        super().__init__(iterations, time_cap_s, max_candidates, clock)
        self.beta = beta
        self.wall_cap_s = wall_cap_s if time_cap_s is not None else None

    def evaluate(
        self,
        rules: ClassicRules,
        view: PlayerView,
        legal: list[Action],
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
    ) -> Evaluation:
        """:meth:`HardPlayer.evaluate` within both caps (``time_cap_s`` on :attr:`clock`,
        ``wall_cap_s`` on the wall clock); without a ``time_cap_s`` neither applies."""
        wall = self.wall_cap_s
        token = _DEADLINE.set(None if wall is None else time.perf_counter() + wall)
        try:
            return super().evaluate(rules, view, legal, rng, options)
        finally:
            _DEADLINE.reset(token)

    def _late(self, start: float) -> bool:
        deadline = _DEADLINE.get()
        return super()._late(start) or (deadline is not None and time.perf_counter() > deadline)

    def ticket_weights(
        self, rules: ClassicRules, view: PlayerView, pool: list[str]
    ) -> dict[int, dict[str, float]]:
        """Other seats' ticket weights by :func:`inferred_weights`."""
        return inferred_weights(rules, view, pool, self.beta)

    def _turn_candidates(
        self, rules: ClassicRules, view: PlayerView, legal: list[Action], default: Action
    ) -> list[Action]:
        out = super()._turn_candidates(rules, view, legal, default)
        for a in endgame_candidates(rules, view, legal):
            if a not in out:
                out.append(a)
        return out
