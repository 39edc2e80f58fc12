"""Paris: French flags (paris-rulebook-de.txt, "Französische Flagge").

When claiming a blue, white or red route, the player may set aside one of the
played cards if it is not a wild card and they have no card of that colour set
aside yet. A player who ends a turn with a blue, a red and a white card set
aside scores 4 points and discards the three; more flags may follow.
"""

from __future__ import annotations

from ..board import Route
from ..errors import IllegalAction
from ..events import (
    EngineEvent,
    FlagCardDeclined,
    FlagCardKept,
    FlagOffered,
    FlagScored,
)
from ..payment import PaymentPlan
from ..state import GameState
from ..types import Cards
from .classic import ClassicRules


class ParisRules(ClassicRules):
    """Classic rules plus the French-flag decision and scoring."""

    name = "paris"

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
        player = state.players[seat]
        options = [
            c
            for c in self.flag_colors
            if c == route.color and paid.get(c) > 0 and c not in player.flag_cards
        ]
        if options:
            state.flag_colors = options
            state.step = "flag"
            events.append(FlagOffered(seat, tuple(options)))

    def keep_flag_card(
        self, state: GameState, seat: int, color: str | None, events: list[EngineEvent]
    ) -> None:
        """Set aside one just-played ``color`` card (taken back from the discard), or decline (None)."""
        if state.step != "flag":
            raise IllegalAction("wrong_step", {"step": state.step})
        if color is not None:
            if color not in state.flag_colors:
                raise IllegalAction(
                    "flag_color_not_allowed", {"color": color, "allowed": list(state.flag_colors)}
                )
            # the played cards are the last ones put on the discard
            idx = len(state.discard) - 1 - state.discard[::-1].index(color)
            state.discard.pop(idx)
            state.players[seat].flag_cards.append(color)
            events.append(FlagCardKept(seat, color))
        else:
            events.append(FlagCardDeclined(seat))
        state.flag_colors = []

    def on_turn_end(self, state: GameState, seat: int, events: list[EngineEvent]) -> None:
        """Score 4 for a complete blue-white-red set and discard it."""
        player = state.players[seat]
        colors = self.flag_colors
        flags = self.params.french_flags
        if flags and colors and all(c in player.flag_cards for c in colors):
            for c in colors:
                player.flag_cards.remove(c)
                state.discard.append(c)
            points = int(flags["points"])
            player.flags += 1
            player.bonus_points += points
            events.append(FlagScored(seat, points, player.flags))

    def breakdown_keys(self) -> list[str]:
        return [*super().breakdown_keys(), "flags"]
