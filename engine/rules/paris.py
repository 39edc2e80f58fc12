"""Paris: French flags (paris-rulebook-de.txt, "Französische Flagge"), for both engines.

When claiming a blue, white or red route, the player may set aside one of the
played cards if it is not a wild card and they have no card of that colour set
aside yet. A player who ends a turn with a blue, a red and a white card set
aside scores 4 points and discards the three; more flags may follow.

:class:`ParisRules` holds the value hooks, :class:`ParisCoreHooks` the same
rule for the integer core. Parameters: ``rules.french_flags`` (the colours and
the points of a flag). Declared here, for both engines, the codec and the
views: the colours the active seat may set aside now (:class:`ParisState`,
``GameState.extra``, read as ``PublicView.flag_colors``), each seat's cards set
aside and flags scored (:class:`ParisPlayer`, ``PlayerState.extra``, read as
``PublicPlayer.flag_cards`` and ``.flags``), the step ``"flag"``, the action
:class:`KeepFlagCard`, the events :class:`FlagOffered`, :class:`FlagCardKept`,
:class:`FlagCardDeclined`, :class:`FlagScored` and the breakdown key ``"flags"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..actions import Action, action_type
from ..board import Route
from ..errors import IllegalAction
from ..events import EngineEvent, SeatEvent, event_type
from ..extras import PlayerExtra, StateExtra, stored
from ..payment import PaymentPlan
from ..state import GameState, SeatScore
from ..types import Cards
from .classic import ClassicRules
from .corehooks import CoreHooks

if TYPE_CHECKING:
    from ..integer_core import Core, CoreTable

#: The step of the flag decision (``GameState.step``).
FLAG_STEP = "flag"


@action_type
@dataclass(frozen=True, slots=True)
class KeepFlagCard(Action):
    """Set aside one played card of ``color`` for a French flag, or None to decline
    (paris-rulebook-de.txt, "Französische Flaggen bilden")."""

    color: str | None = None
    kind: ClassVar[str] = "keep_flag_card"

    def json_fields(self) -> dict[str, Any]:
        return {"color": self.color}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        color = data.get("color")
        if color is not None and not isinstance(color, str):
            raise TypeError("color")
        return cls(seat, color)


@event_type
@dataclass(frozen=True, slots=True)
class FlagOffered(SeatEvent):
    """``seat`` may set aside one just-played card of ``colors`` for a French flag."""

    colors: tuple[str, ...]
    kind: ClassVar[str] = "flag_offered"


@event_type
@dataclass(frozen=True, slots=True)
class FlagCardKept(SeatEvent):
    """``seat`` set aside a ``color`` card for a French flag."""

    color: str
    kind: ClassVar[str] = "flag_card_kept"


@event_type
@dataclass(frozen=True, slots=True)
class FlagCardDeclined(SeatEvent):
    """``seat`` declined to set a card aside."""

    kind: ClassVar[str] = "flag_card_declined"


@event_type
@dataclass(frozen=True, slots=True)
class FlagScored(SeatEvent):
    """``seat`` completed a French flag: ``points`` scored, ``flags`` completed so far
    (paris-rulebook-de.txt, "Französische Flaggen bilden": 4 points)."""

    points: int
    flags: int
    kind: ClassVar[str] = "flag_scored"


@dataclass(frozen=True, slots=True)
class ParisState(StateExtra):
    """The colours the active seat may set aside now, in the flag decision (public)."""

    flag_colors: tuple[str, ...] = ()
    kind: ClassVar[str] = "paris"


@dataclass(frozen=True, slots=True)
class ParisPlayer(PlayerExtra):
    """One seat's cards set aside for a flag (face up, in the order set aside) and the
    flags it completed (public)."""

    flag_cards: tuple[str, ...] = ()
    flags: int = 0
    kind: ClassVar[str] = "paris"

    def cards_out(self) -> tuple[str, ...]:
        return self.flag_cards


def offered_colors(state: GameState) -> tuple[str, ...]:
    """The colours the active seat may set aside now (empty outside the flag decision)."""
    extra = state.extra
    return extra.flag_colors if isinstance(extra, ParisState) else ()


def flag_player(state: GameState, seat: int) -> ParisPlayer:
    """``seat``'s flag cards and flags."""
    extra = state.players[seat].extra
    return extra if isinstance(extra, ParisPlayer) else ParisPlayer()


class ParisRules(ClassicRules):
    """Classic rules plus the French-flag decision and scoring."""

    name = "paris"
    params_used: ClassVar[tuple[str, ...]] = ("french_flags",)
    action_types: ClassVar[tuple[type[Action], ...]] = (KeepFlagCard,)

    @classmethod
    def param_problems(cls, rules: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The French flag's colours are card colours (paris-rulebook-de.txt,
        "Französische Flaggen bilden")."""
        cards, flags = rules.get("cards"), rules.get("french_flags")
        if cards is None or flags is None:
            return []
        return [
            ("french_flags.colors", f"{colour!r} is not a card colour")
            for colour in flags["colors"]
            if colour not in cards["colors"]
        ]

    @property
    def flag_colors(self) -> tuple[str, ...]:
        """The flag colours (blue, white, red)."""
        return tuple(self.params.french_flags["colors"]) if self.params.french_flags else ()

    def on_route_claimed(
        self,
        state: GameState,
        seat: int,
        route: Route,
        paid: Cards,
        plan: PaymentPlan,
        events: list[EngineEvent],
    ) -> None:
        """Offer the flag decision when a played non-wild card may be set aside."""
        kept = flag_player(state, seat).flag_cards
        options = [
            c for c in self.flag_colors if c == route.color and paid.get(c) > 0 and c not in kept
        ]
        if options:
            state.extra = ParisState(tuple(options))
            state.step = FLAG_STEP
            events.append(FlagOffered(seat, tuple(options)))

    def step_actions(self, state: GameState, seat: int) -> list[Action]:
        """In the flag decision: keep one of the offered colours, or decline (None)."""
        if state.step != FLAG_STEP:
            return []
        return [*(KeepFlagCard(seat, c) for c in offered_colors(state)), KeepFlagCard(seat, None)]

    def apply_action(self, state: GameState, action: Action, events: list[EngineEvent]) -> bool:
        """:class:`KeepFlagCard`: set aside one just-played ``color`` card (taken back from
        the discard), or decline (None); the turn is then over.

        Raises:
            IllegalAction: ``wrong_step`` outside the decision, ``flag_color_not_allowed``.
        """
        if state.step != FLAG_STEP or not isinstance(action, KeepFlagCard):
            raise IllegalAction("wrong_step", {"step": state.step})
        color, seat = action.color, action.seat
        allowed = offered_colors(state)
        if color is not None:
            if color not in allowed:
                raise IllegalAction(
                    "flag_color_not_allowed", {"color": color, "allowed": list(allowed)}
                )
            # the played cards are the last ones put on the discard
            idx = len(state.discard) - 1 - state.discard[::-1].index(color)
            state.discard.pop(idx)
            mine = flag_player(state, seat)
            state.players[seat].extra = replace(mine, flag_cards=(*mine.flag_cards, color))
            events.append(FlagCardKept(seat, color))
        else:
            events.append(FlagCardDeclined(seat))
        state.extra = None
        return True

    def on_turn_end(self, state: GameState, seat: int, events: list[EngineEvent]) -> None:
        """Score 4 for a complete blue-white-red set and discard it."""
        player = state.players[seat]
        mine = flag_player(state, seat)
        colors = self.flag_colors
        flags = self.params.french_flags
        if flags and colors and all(c in mine.flag_cards for c in colors):
            cards = list(mine.flag_cards)
            for c in colors:
                cards.remove(c)
                state.discard.append(c)
            points = int(flags["points"])
            player.extra = stored(ParisPlayer(tuple(cards), mine.flags + 1))
            player.bonus_points += points
            events.append(FlagScored(seat, points, mine.flags + 1))
        state.extra = None

    def final_bonuses(self, state: GameState, scores: list[SeatScore]) -> None:
        """The flags' points (scored during play) into ``breakdown["flags"]``."""
        for s in scores:
            s.breakdown["flags"] = state.players[s.seat].bonus_points
        super().final_bonuses(state, scores)

    def breakdown_keys(self) -> list[str]:
        return [*super().breakdown_keys(), "flags"]


@dataclass(slots=True)
class ParisCoreState:
    """The flags' state on the core: per seat the cards set aside and the flags
    scored (card ints), and the colours the active seat may set aside now."""

    cards: list[list[int]]
    flags: list[int]
    options: list[int] = field(default_factory=list)


class ParisCoreHooks(CoreHooks["Core", "CoreTable"]):
    """:class:`ParisRules` on the integer core. Actions: ``base + colour`` keeps the flag
    card of that colour, ``base + loco`` declines (``KeepFlagCard``)."""

    steps: ClassVar[tuple[str, ...]] = (FLAG_STEP,)

    def __init__(self, table: CoreTable) -> None:
        super().__init__(table)
        flags = table.rules.params.french_flags
        #: the flag colours as card ints, and a complete flag's points
        self.colors = [table.card_index[c] for c in flags["colors"]] if flags else []
        self.points = int(flags["points"]) if flags else 0

    def action_count(self) -> int:
        return self.table.loco + 1

    def encode(self, action: Action) -> int:
        if not isinstance(action, KeepFlagCard):
            return super().encode(action)
        t = self.table
        return self.base + (t.loco if action.color is None else t.card_index[action.color])

    def decode(self, seat: int, action: int) -> Action:
        color = action - self.base
        t = self.table
        return KeepFlagCard(seat, None if color == t.loco else t.card_names[color])

    def step_actions(self, core: Core, seat: int) -> list[int]:
        state: ParisCoreState = core.variant
        return [self.base + c for c in state.options] + [self.base + self.table.loco]

    def apply(self, core: Core, seat: int, action: int) -> bool:
        """Set a just-played card aside (the last of its colour on the discard), or decline."""
        state: ParisCoreState = core.variant
        color = action - self.base
        t = self.table
        events = core.events
        if color != t.loco:
            discard = core.discard
            discard.pop(len(discard) - 1 - discard[::-1].index(color))
            state.cards[seat].append(color)
            if events is not None:
                events.append(FlagCardKept(seat, t.card_names[color]))
        elif events is not None:
            events.append(FlagCardDeclined(seat))
        state.options = []
        return True

    def on_route_claimed(self, core: Core, seat: int, route: int, played: int) -> bool:
        state: ParisCoreState = core.variant
        t = self.table
        if played < 0 or played != t.color[route] or played not in self.colors:
            return False
        if played in state.cards[seat]:
            return False
        state.options = [played]
        core.step_ = self.first_step
        if core.events is not None:
            core.events.append(FlagOffered(seat, (t.card_names[played],)))
        return True

    def on_turn_end(self, core: Core, seat: int) -> None:
        state: ParisCoreState = core.variant
        if state.options:
            state.options = []
        cards = state.cards[seat]
        colors = self.colors
        if len(cards) < len(colors) or not colors or not all(c in cards for c in colors):
            return  # one card per colour at most: fewer cards than colours is no flag
        for c in colors:
            cards.remove(c)
            core.discard.append(c)
        state.flags[seat] += 1
        core.bonus_points[seat] += self.points
        if core.events is not None:
            core.events.append(FlagScored(seat, self.points, state.flags[seat]))

    def new_state(self, core: Core) -> ParisCoreState:
        return ParisCoreState([[] for _ in range(core.n)], [0] * core.n)

    def load(self, core: Core, state: GameState) -> None:
        index = self.table.card_index
        mine = [flag_player(state, p.seat) for p in state.players]
        core.variant = ParisCoreState(
            [[index[c] for c in m.flag_cards] for m in mine],
            [m.flags for m in mine],
            [index[c] for c in offered_colors(state)],
        )

    def save(self, core: Core, state: GameState) -> None:
        variant: ParisCoreState = core.variant
        names = self.table.card_names
        for p in state.players:
            cards = tuple(names[c] for c in variant.cards[p.seat])
            p.extra = stored(ParisPlayer(cards, variant.flags[p.seat]))
        state.extra = stored(ParisState(tuple(names[c] for c in variant.options)))


ParisRules.core_hooks = ParisCoreHooks
