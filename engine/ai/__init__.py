"""AI players: four levels for AI seats, plus a random legal player (for fuzzing).

Levels (:data:`AI_LEVELS`): ``"easy"`` (:class:`EasyPlayer`, visible mistakes),
``"normal"`` (:class:`HeuristicPlayer`, plans cheapest paths for its tickets),
``"hard"`` (:class:`HardPlayer`, determinised Monte Carlo search) and ``"expert"``
(:class:`ExpertPlayer`, hard's search with up to 10 s of CPU, opponent ticket
inference and endgame timing, for asynchronous tables).
``"heuristic"`` is kept as an alias of ``"normal"``: games stored before the
levels existed name their AI seats that way.

An AI decides from its own :class:`engine.views.PlayerView`, the legal actions
and the game's public options only, never from the state: it cannot see other
hands, tickets or the deck order. :func:`choose_action` is what the service
and the demo call.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from ..actions import Action
from ..reducer import legal_actions
from ..state import GameState
from ..views import PlayerView, player_view
from .easy import EasyPlayer
from .expert import ExpertPlayer
from .hard import HardPlayer
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


#: The AI levels players can pick, weakest first.
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
#: Older kind names still found in stored games -> their level.
AI_ALIASES: dict[str, str] = {"heuristic": "normal"}

PLAYERS: dict[str, Player] = {
    "easy": EasyPlayer(),
    "normal": HeuristicPlayer(),
    "hard": HardPlayer(),
    "expert": ExpertPlayer(),
    "random": RandomPlayer(),
}


def ai_level(kind: str) -> str:
    """The canonical name of an AI kind (``"heuristic"`` -> ``"normal"``); others unchanged."""
    return AI_ALIASES.get(kind, kind)


def ai_rng(state: GameState, seat: int) -> random.Random:
    """A private RNG for the AI's tie-breaks, fixed by the game seed, version and seat.

    So an AI seat makes the same choice in the same situation (replays and the
    demo are reproducible) without touching the game's own RNG.
    """
    return random.Random(f"ai:{state.seed}:{state.version}:{seat}")


def choose_action(
    rules: ClassicRules,
    state: GameState,
    seat: int,
    kind: str = "normal",
    *,
    player: Player | None = None,
) -> Action:
    """The action AI ``kind`` takes for ``seat`` now.

    Args:
        kind: one of :data:`AI_LEVELS`, ``"heuristic"`` (alias of normal) or ``"random"``.
        player: use this player object instead of the one ``kind`` names (e.g. a
            :class:`HardPlayer` with another budget, for benchmarks and tests).

    The AI sees only ``player_view(rules, state, seat)``, the legal actions and
    ``state.options`` (public map options). The hard level answers within its
    time cap (1.4 s of search by default), the expert level within 10 s of CPU
    (:class:`ExpertPlayer`, a hard player: it is given ``options`` too).
    Raises KeyError for an unknown kind and ValueError when the seat has nothing to do.
    """
    chosen = player if player is not None else PLAYERS[ai_level(kind)]
    legal = legal_actions(rules, state, seat, payments="sensible")
    if not legal:
        raise ValueError(f"seat {seat} has no action to take")
    view = player_view(rules, state, seat)
    rng = ai_rng(state, seat)
    if isinstance(chosen, HardPlayer):
        return chosen.choose(rules, view, legal, rng, options=state.options)
    return chosen.choose(rules, view, legal, rng)


__all__ = [
    "AI_ALIASES",
    "AI_LEVELS",
    "PLAYERS",
    "EasyPlayer",
    "ExpertPlayer",
    "HardPlayer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "ai_level",
    "ai_rng",
    "choose_action",
]
