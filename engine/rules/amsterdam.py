"""Amsterdam: merchandise cards for routes with a cart symbol (amsterdam-rulebook-de.txt),
for both engines.

- Claiming a route with a cart symbol draws one merchandise bonus card, one
  per route whatever its length; none once the 16 are gone.
- At the end, players are ranked by their number of merchandise cards:
  4 players 8/6/4/2, 3 players 8/5/2, 2 players 8/4 points. A player with no
  card scores nothing. Tied players all get that place's points and the next
  place(s) are skipped.

:class:`AmsterdamRules` holds the value hooks, :class:`AmsterdamCoreHooks` the
same rule for the integer core. Parameters: ``rules.merchandise`` (the number
of cards, the points by player count and place); routes: ``carts``. Declared
here, for both engines, the codec and the views: the cards left
(:class:`AmsterdamState`, ``GameState.extra``, read as
``PublicView.merchandise_left``), each seat's cards (:class:`AmsterdamPlayer`,
``PlayerState.extra``, read as ``PublicPlayer.merchandise``), the event
:class:`MerchandiseDrawn` and the breakdown key ``"merchandise"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..board import Route
from ..events import EngineEvent, SeatEvent, event_type
from ..extras import PlayerExtra, StateExtra, stored
from ..payment import PaymentPlan
from ..state import GameState, SeatScore
from ..types import Cards
from .classic import ClassicRules
from .corehooks import CoreHooks

if TYPE_CHECKING:
    from ..integer_core import Core, CoreTable


@event_type
@dataclass(frozen=True, slots=True)
class MerchandiseDrawn(SeatEvent):
    """Claiming ``route`` (cart symbol) gave ``seat`` a merchandise card; ``left`` remain
    (amsterdam-rulebook-de.txt: one "Handelsgüter-Bonuskarte" per route with cart symbols)."""

    route: str
    left: int
    kind: ClassVar[str] = "merchandise_drawn"


@dataclass(frozen=True, slots=True)
class AmsterdamState(StateExtra):
    """The merchandise cards not drawn yet (public; amsterdam-rulebook-de.txt: 16 laid
    out at setup)."""

    merchandise_left: int = 0
    kind: ClassVar[str] = "amsterdam"


@dataclass(frozen=True, slots=True)
class AmsterdamPlayer(PlayerExtra):
    """One seat's merchandise cards (amsterdam-rulebook-de.txt: kept face up, so that
    everyone sees how many)."""

    merchandise: int = 0
    kind: ClassVar[str] = "amsterdam"


def merchandise_left(state: GameState) -> int:
    """The merchandise cards not drawn yet."""
    extra = state.extra
    return extra.merchandise_left if isinstance(extra, AmsterdamState) else 0


def merchandise(state: GameState, seat: int) -> int:
    """``seat``'s merchandise cards."""
    extra = state.players[seat].extra
    return extra.merchandise if isinstance(extra, AmsterdamPlayer) else 0


def merchandise_points(counts: list[int], table: list[int]) -> list[int]:
    """Points per seat for merchandise ``counts`` with the place ``table`` (e.g. [8, 6, 4, 2]).

    Competition ranking: a seat's place is 1 + the number of seats with more
    cards, so ties share a place and skip the next ones; 0 cards score 0.
    """
    out = []
    for c in counts:
        place = sum(1 for other in counts if other > c)
        out.append(table[place] if c > 0 and place < len(table) else 0)
    return out


class AmsterdamRules(ClassicRules):
    """Classic rules plus the merchandise hooks."""

    name = "amsterdam"
    params_used: ClassVar[tuple[str, ...]] = ("merchandise",)

    @property
    def merchandise_cards(self) -> int:
        """The merchandise cards of a game (16)."""
        return int(self.params.merchandise["cards"]) if self.params.merchandise else 0

    @classmethod
    def param_problems(cls, rules: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Merchandise points have a ranking for every allowed player count
        (amsterdam-rulebook-de.txt: the table by player count)."""
        players, merchandise = rules.get("players"), rules.get("merchandise")
        if players is None or merchandise is None:
            return []
        return [
            ("merchandise.points", f"no ranking for {n} players")
            for n in range(players["min"], players["max"] + 1)
            if str(n) not in merchandise["points"]
        ]

    def on_setup(self, state: GameState) -> None:
        """The merchandise cards are laid out."""
        state.extra = stored(AmsterdamState(self.merchandise_cards))

    def on_route_claimed(
        self,
        state: GameState,
        seat: int,
        route: Route,
        paid: Cards,
        plan: PaymentPlan,
        events: list[EngineEvent],
    ) -> None:
        """A cart-symbol route draws one merchandise card while any are left."""
        left = merchandise_left(state)
        if route.carts and left > 0:
            state.extra = stored(AmsterdamState(left - 1))
            state.players[seat].extra = AmsterdamPlayer(merchandise(state, seat) + 1)
            events.append(MerchandiseDrawn(seat, route.id, left - 1))

    def final_bonuses(self, state: GameState, scores: list[SeatScore]) -> None:
        """Merchandise ranking points into ``breakdown["merchandise"]``."""
        super().final_bonuses(state, scores)
        table = (
            list(self.params.merchandise["points"][str(state.num_seats)])
            if self.params.merchandise
            else []
        )
        points = merchandise_points([merchandise(state, s.seat) for s in scores], table)
        for s, pts in zip(scores, points, strict=True):
            s.breakdown["merchandise"] = pts

    def breakdown_keys(self) -> list[str]:
        return [*super().breakdown_keys(), "merchandise"]


@dataclass(slots=True)
class AmsterdamCoreState:
    """Merchandise on the core: cards per seat and cards left."""

    cards: list[int]
    left: int


class AmsterdamCoreHooks(CoreHooks["Core", "CoreTable"]):
    """:class:`AmsterdamRules` on the integer core."""

    def __init__(self, table: CoreTable) -> None:
        super().__init__(table)
        rules = table.rules
        #: per route int: claiming it draws a merchandise card (a cart symbol)
        self.carts = [rules.board.routes[rid].carts for rid in table.route_ids]
        self.cards = rules.merchandise_cards if isinstance(rules, AmsterdamRules) else 0

    def on_route_claimed(self, core: Core, seat: int, route: int, played: int) -> bool:
        state: AmsterdamCoreState = core.variant
        if self.carts[route] and state.left > 0:
            state.left -= 1
            state.cards[seat] += 1
            if core.events is not None:
                rid = self.table.route_ids[route]
                core.events.append(MerchandiseDrawn(seat, rid, state.left))
        return False

    def new_state(self, core: Core) -> AmsterdamCoreState:
        return AmsterdamCoreState([0] * core.n, self.cards)

    def load(self, core: Core, state: GameState) -> None:
        core.variant = AmsterdamCoreState(
            [merchandise(state, p.seat) for p in state.players], merchandise_left(state)
        )

    def save(self, core: Core, state: GameState) -> None:
        variant: AmsterdamCoreState = core.variant
        for p in state.players:
            p.extra = stored(AmsterdamPlayer(variant.cards[p.seat]))
        state.extra = stored(AmsterdamState(variant.left))


AmsterdamRules.core_hooks = AmsterdamCoreHooks
