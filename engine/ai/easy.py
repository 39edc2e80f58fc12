"""The easy AI: legal, goal-directed enough to finish a game, with visible mistakes.

- keeps tickets at random (often ones it cannot finish) and keeps drawing
  more while it has pieces;
- draws cards at random (blind or any face-up card) half of the time;
- claims a random affordable route a third of the time, else plays like the
  normal heuristic; like the normal heuristic, it leaves out the tunnels not
  worth trying (:mod:`engine.ai.tunnels`: too risky for its hand, or given up
  with this hand), so its slips never stall a game.

Every mistake is drawn from the seeded RNG the caller passes, so replays agree.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets
from ..views import PlayerView
from .heuristic import HeuristicPlayer

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

#: Chance of a random card draw instead of the planned one.
RANDOM_DRAW = 0.5
#: Chance of claiming a random affordable route instead of the planned move.
RANDOM_CLAIM = 0.33


class EasyPlayer:
    """See the module docstring. Safe to share between seats and games: its only state is
    its normal heuristic's memory of the tunnels it gave up. ``careful_tunnels``: as for
    :class:`engine.ai.heuristic.HeuristicPlayer`."""

    def __init__(self, *, careful_tunnels: bool = True) -> None:
        self.normal = HeuristicPlayer(careful_tunnels=careful_tunnels)

    def choose(
        self, rules: ClassicRules, view: PlayerView, legal: list[Action], rng: random.Random
    ) -> Action:
        """One of ``legal`` (non-empty), chosen from ``view`` only, with deliberate slips."""
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        if keeps:
            return rng.choice(keeps)
        planned = self.normal.choose(rules, view, legal, rng)
        if view.public.step != "turn" and view.public.step != "second_card":
            return planned
        claims = [
            a for a in self.normal.completable(rules, view, legal) if isinstance(a, ClaimRoute)
        ]
        if claims and view.public.step == "turn" and rng.random() < RANDOM_CLAIM:
            return rng.choice(claims)
        draws = [a for a in legal if isinstance(a, DrawBlind | DrawFaceUp)]
        if draws and isinstance(planned, DrawBlind | DrawFaceUp) and rng.random() < RANDOM_DRAW:
            return rng.choice(draws)
        return planned
