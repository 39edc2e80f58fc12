"""The classic rules (USA base game) and the named hooks other maps override.

Value hooks (for :func:`engine.apply`), each called at one rule moment, with
its default here:

- :meth:`ClassicRules.payment_plan` / :meth:`ClassicRules.payment_options`:
  which card sets pay for a route (generic model in :mod:`engine.payment`);
- :meth:`ClassicRules.on_setup`: once a new game is dealt;
- :meth:`ClassicRules.on_route_claimed`: after a route is claimed and paid;
- :meth:`ClassicRules.turn_actions` / :meth:`ClassicRules.step_actions` /
  :meth:`ClassicRules.apply_action`: the rule set's own actions
  (:attr:`ClassicRules.action_types`), at a turn start or in its own steps;
- :meth:`ClassicRules.on_turn_end`: before the turn passes on;
- :meth:`ClassicRules.final_bonuses`: end-of-game bonuses into each breakdown
  (and the rule set's facts into each score's ``extra``);
- :meth:`ClassicRules.tiebreak_value`: a seat's value for a tie-break key;
- :meth:`ClassicRules.public_extra`: what a view shows of the rule set's own state.

The same moments for the integer core are the rule set's :attr:`ClassicRules.core_hooks`
(:mod:`engine.rules.corehooks`), written in the same module as its value hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..actions import Action
from ..board import Board, Route
from ..errors import IllegalAction, SetupError
from ..events import EngineEvent
from ..extras import StateExtra
from ..params import RuleParams
from ..payment import (
    PaymentPlan,
    check_payment,
    payment_fields,
    payment_options,
    sensible_payments,
)
from ..state import GameState, SeatScore
from ..types import Cards
from .corehooks import CoreHooks

#: Entries of a rule set's payment_plan memo before it is cleared (bounds memory). An entry
#: is a few hundred bytes and a bot process adds about 15 a game on some map (measured over
#: 80 games of all six maps), so 4,096 keeps a rule set's memo near 1 MiB for good; at
#: 50,000, its earlier limit, six rule sets could have grown to ~75 MiB over months of games.
PLAN_MEMO_LIMIT = 4096


class ClassicRules:
    """Board, parameters and hooks of one map; immutable once built.

    Attributes:
        map_id: the map's id.
        board: :class:`engine.board.Board`.
        params: :class:`engine.params.RuleParams`.
        meta: the rest of the map data (names, words, rules text, provenance, options).
    """

    name = "classic"
    #: The core's hooks of this rule set (:mod:`engine.rules.corehooks`); classic: none.
    core_hooks: ClassVar[type[CoreHooks[Any, Any]]] = CoreHooks
    #: Keys of a map's ``rules`` that only this rule set uses (a map of another rule set
    #: carrying one is refused by ``maps.checks``; a map of this one must have them).
    params_used: ClassVar[tuple[str, ...]] = ()
    #: The action classes only this rule set plays (:meth:`apply_action`).
    action_types: ClassVar[tuple[type[Action], ...]] = ()
    #: Tie-break keys (a map's ``rules.tiebreaks``) only this rule set reads, in its
    #: :meth:`tiebreak_value` (a map of another rule set naming one is refused by
    #: ``maps.checks``).
    tiebreaks: ClassVar[tuple[str, ...]] = ()
    #: True when only this rule set's maps deal fixed ticket mixes (``mix`` of a map's
    #: ``rules.initial_tickets`` / ``rules.draw_tickets``; refused elsewhere by ``maps.checks``).
    ticket_mix: ClassVar[bool] = False

    def __init__(self, map_data: Mapping[str, Any]) -> None:
        self.map_id: str = map_data["id"]
        self.board = Board.from_dict(map_data)
        self.params = RuleParams.from_dict(map_data["rules"])
        self.meta: dict[str, Any] = {
            k: v for k, v in map_data.items() if k not in ("cities", "routes", "tickets")
        }
        self.option_spec: dict[str, Any] = dict(map_data.get("options", {}))
        #: payment_plan results per (route's payment fields, payment); bounded, derived only
        self._plans: dict[tuple[object, ...], PaymentPlan | None] = {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.map_id}>"

    @classmethod
    def param_problems(cls, rules: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What only this rule set finds wrong with a map's ``rules`` block, as
        ``(path under rules, message)`` pairs (``maps.checks`` reports them).

        Args:
            rules: the keys of the block that passed the schema on their own, as plain
                JSON (a key that failed it is missing: the schema reports it).

        Default: nothing.
        """
        return []

    # ----------------------------------------------------------------- options
    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and check a game's options against the map's ``options`` spec.

        Returns the complete options dict. Raises :class:`SetupError` ``bad_option``
        for an unknown option or value.
        """
        out: dict[str, Any] = {}
        given = dict(options or {})
        for name, spec in self.option_spec.items():
            value = given.pop(name, spec["default"])
            if str(value) not in spec["choices"]:
                raise SetupError(
                    "bad_option",
                    {"option": name, "value": value, "choices": sorted(spec["choices"])},
                )
            out[name] = str(value)
        if given:
            raise SetupError(
                "bad_option", {"option": sorted(given)[0], "choices": sorted(self.option_spec)}
            )
        return out

    def ticket_ids(self, options: Mapping[str, Any]) -> list[str]:
        """The tickets in play for these options (option ``tickets`` picks an edition set)."""
        chosen = options.get("tickets")
        return [
            t.id
            for t in self.board.tickets.values()
            if chosen is None or not t.sets or chosen in t.sets
        ]

    # ----------------------------------------------------------------- payment hooks
    def payment_plan(self, route: Route, payment: Mapping[str, int]) -> PaymentPlan | None:
        """How ``payment`` pays for ``route``, or None (see :mod:`engine.payment`).

        Remembered per :class:`Cards` payment and the route fields the payment
        rules read (at most :data:`PLAN_MEMO_LIMIT` entries, then started afresh).
        """
        if not isinstance(payment, Cards):
            return check_payment(self.params, route, payment)
        key = (*payment_fields(route), payment)
        try:
            return self._plans[key]
        except KeyError:
            pass
        plan = check_payment(self.params, route, payment)
        if len(self._plans) >= PLAN_MEMO_LIMIT:
            self._plans.clear()
        self._plans[key] = plan
        return plan

    def payment_options(self, route: Route, hand: Mapping[str, int]) -> list[Cards]:
        """Every distinct exact payment for ``route`` from ``hand``."""
        return payment_options(self.params, route, hand)

    def sensible_payments(self, route: Route, hand: Mapping[str, int]) -> list[Cards]:
        """A short list of sensible payments (per colour, fewest wild cards)."""
        return sensible_payments(self.params, route, hand)

    # ----------------------------------------------------------------- turn hooks
    def on_setup(self, state: GameState) -> None:
        """Called once a new game is dealt (hands, face-up row, before the first player
        is drawn). Default: nothing."""

    def on_route_claimed(
        self,
        state: GameState,
        seat: int,
        route: Route,
        paid: Cards,
        plan: PaymentPlan,
        events: list[EngineEvent],
    ) -> None:
        """Called after ``route`` is claimed and ``paid`` went to the discard. Default: nothing.

        A hook may set ``state.step`` to a new decision (Paris: ``"flag"``); the
        turn then ends only when that decision is made.
        """

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """This rule set's own actions ``seat`` may take at the start of its turn (listed
        after the claims). Default: none."""
        return []

    def step_actions(self, state: GameState, seat: int) -> list[Action]:
        """The answers ``seat`` may give to a decision of this rule set's own
        (``state.step`` set by one of its hooks). Default: none."""
        return []

    def apply_action(self, state: GameState, action: Action, events: list[EngineEvent]) -> bool:
        """Apply one of :attr:`action_types` by the active seat; True when its turn is
        over (the reducer then ends it). Default: there are none (raises ``wrong_step``).

        Raises:
            IllegalAction: the action is not allowed now (a specific code).
        """
        raise IllegalAction("wrong_step", {"step": state.step})

    def on_turn_end(self, state: GameState, seat: int, events: list[EngineEvent]) -> None:
        """Called when ``seat``'s turn ends, before the end trigger is checked. Default: nothing."""

    def final_bonuses(self, state: GameState, scores: list[SeatScore]) -> None:
        """Add end-of-game bonuses to each ``SeatScore.breakdown`` (scores are then summed).

        Classic: longest continuous path (``longest_path_bonus``; all tied seats
        get it; USA rules, "Spielende") and Globetrotter (``globetrotter_bonus``:
        most completed tickets, all tied seats; Germany and Nordic rulebooks).
        Nobody gets a bonus for a count of 0.
        """
        p = self.params
        if p.longest_path_bonus:
            best = max(s.longest_path for s in scores)
            for s in scores:
                s.breakdown["longest_path"] = (
                    p.longest_path_bonus if best > 0 and s.longest_path == best else 0
                )
        if p.globetrotter_bonus:
            best = max(s.tickets_completed for s in scores)
            for s in scores:
                s.breakdown["globetrotter"] = (
                    p.globetrotter_bonus if best > 0 and s.tickets_completed == best else 0
                )

    def public_extra(self, state: GameState) -> StateExtra | None:
        """What everyone may see of the rule set's own fields of the game
        (``PublicView.extra``). Default: all of ``state.extra`` (stations, merchandise
        left and flag decisions are on the table)."""
        return state.extra

    def tiebreak_value(self, key: str, score: SeatScore) -> int:
        """A seat's value for the tie-break ``key`` of ``params.tiebreaks`` (larger is
        better): ``tickets_completed`` (most completed tickets; Germany and Nordic
        rulebooks), ``longest_path`` (longest continuous path; USA rules, "Spielende");
        a rule set reads its own :attr:`tiebreaks` and falls back to this.

        Raises:
            ValueError: an unknown key.
        """
        if key == "tickets_completed":
            return score.tickets_completed
        if key == "longest_path":
            return score.longest_path
        raise ValueError(f"unknown tie-break {key!r}")

    def breakdown_keys(self) -> list[str]:
        """The breakdown entries this map's final scores carry, in display order."""
        keys = ["routes", "tickets"]
        if self.params.longest_path_bonus:
            keys.append("longest_path")
        if self.params.globetrotter_bonus:
            keys.append("globetrotter")
        return keys
