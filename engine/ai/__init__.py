"""AI players: a random legal player (for fuzzing) and a heuristic player (AI seats, idle turns).

An AI decides from its own :class:`engine.views.PlayerView` and the legal
actions only, never from the state: it cannot see other hands, tickets or the
deck order. :func:`choose_action` is what the service and the demo call.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from ..actions import Action
from ..reducer import legal_actions
from ..state import GameState
from ..views import PlayerView, player_view
from .heuristic import HeuristicPlayer
from .randomplayer import RandomPlayer

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules


class Player(Protocol):
    """What an AI player is: a choice from a view and the legal actions."""

    def choose(
        self, rules: ClassicRules, view: PlayerView, legal: list[Action], rng: random.Random
    ) -> Action:
        """Return one of ``legal``."""
        ...


PLAYERS: dict[str, Player] = {"heuristic": HeuristicPlayer(), "random": RandomPlayer()}


def ai_rng(state: GameState, seat: int) -> random.Random:
    """A private RNG for the AI's tie-breaks, fixed by the game seed, version and seat.

    So an AI seat makes the same choice in the same situation (replays and the
    demo are reproducible) without touching the game's own RNG.
    """
    return random.Random(f"ai:{state.seed}:{state.version}:{seat}")


def choose_action(
    rules: ClassicRules, state: GameState, seat: int, kind: str = "heuristic"
) -> Action:
    """The action AI ``kind`` (``"heuristic"`` or ``"random"``) takes for ``seat`` now.

    The AI sees only ``player_view(rules, state, seat)`` and the legal actions.
    Raises KeyError for an unknown kind and ValueError when the seat has nothing to do.
    """
    legal = legal_actions(rules, state, seat, payments="sensible")
    if not legal:
        raise ValueError(f"seat {seat} has no action to take")
    return PLAYERS[kind].choose(rules, player_view(rules, state, seat), legal, ai_rng(state, seat))


__all__ = ["PLAYERS", "HeuristicPlayer", "Player", "RandomPlayer", "ai_rng", "choose_action"]
