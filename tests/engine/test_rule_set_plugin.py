"""A rule set written only in this test declares all it adds in its own module.

The seventh rule set, "gifts" (a whole turn: give one locomotive to the table's
pile for a point; the most gifts break a tie), has its own state of the game
(the pile), of each seat (its gifts) and of each final score, its own action
(with a JSON field), event and tie-break, and both engines' hooks, all here.
No shared engine file knows it, yet both engines play the same games, and the
codec stores and reads every state, action, event and result, the views and the
scores show its fields as attributes. (Its tie-break key on a map would also
need its name in ``maps/schema.py``, where a rule set's parameters are declared;
tests/maps/test_europe.py holds the map checks of a rule set's own tie-breaks.)

Its classes are made inside a fixture, on copies of the registries, so no other
test sees them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import pytest

from engine import apply, legal_actions, new_game, public_view
from engine import core as core_module
from engine.actions import ACTION_TYPES, Action
from engine.codec import (
    decode_action,
    decode_event,
    decode_state,
    encode_action,
    encode_event,
    encode_state,
)
from engine.events import EVENT_TYPES, EngineEvent, SeatEvent
from engine.extras import PlayerExtra, ScoreExtra, StateExtra, stored
from engine.rules import RULESETS, ClassicRules
from engine.rules.corehooks import CoreHooks
from engine.state import FinalResult, GameState, SeatScore
from engine.types import LOCOMOTIVE
from maps import read_map_data
from tests.engine.test_core import play_both


@dataclass(frozen=True)
class _Gifts:
    """The rule set's classes (made by :func:`_vocabulary`)."""

    gift: type[Action]
    gifted: type[SeatEvent]
    pile: type[StateExtra]
    giver: type[PlayerExtra]
    score: type[ScoreExtra]


def _vocabulary() -> _Gifts:
    """Its action, event and extras (the extras register themselves: call it on copies of
    the registries)."""

    @dataclass(frozen=True, slots=True)
    class Gift(Action):
        color: str = LOCOMOTIVE
        kind: ClassVar[str] = "gift"

        def json_fields(self) -> dict[str, Any]:
            return {"color": self.color}

        @classmethod
        def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
            return cls(seat, str(data["color"]))

    @dataclass(frozen=True, slots=True)
    class Gifted(SeatEvent):
        pile: int
        kind: ClassVar[str] = "gifted"

    @dataclass(frozen=True, slots=True)
    class Pile(StateExtra):
        pile: int = 0
        kind: ClassVar[str] = "gifts"

    @dataclass(frozen=True, slots=True)
    class Giver(PlayerExtra):
        gifts: int = 0
        kind: ClassVar[str] = "gifts"

    @dataclass(frozen=True, slots=True)
    class GiftScore(ScoreExtra):
        gifts: int = 0
        kind: ClassVar[str] = "gifts"

    return _Gifts(Gift, Gifted, Pile, Giver, GiftScore)


def _rule_set(v: _Gifts) -> type[ClassicRules]:
    """Its value hooks and, beside them (:func:`_core_hooks`), its core hooks."""
    Gift, Gifted, Pile, Giver, GiftScore = v.gift, v.gifted, v.pile, v.giver, v.score

    class GiftRules(ClassicRules):
        name = "gifts"
        action_types: ClassVar[tuple[type[Action], ...]] = (Gift,)
        tiebreaks: ClassVar[tuple[str, ...]] = ("most_gifts",)

        def turn_actions(self, state: GameState, seat: int) -> list[Action]:
            return [Gift(seat)] if state.players[seat].hand.get(LOCOMOTIVE, 0) else []

        def apply_action(self, state: GameState, action: Action, events: list[EngineEvent]) -> bool:
            if state.step != "turn" or not self.turn_actions(state, action.seat):
                return super().apply_action(state, action, events)
            player = state.players[action.seat]
            player.hand[LOCOMOTIVE] -= 1
            if not player.hand[LOCOMOTIVE]:
                del player.hand[LOCOMOTIVE]
            player.bonus_points += 1
            player.extra = Giver(given(state, action.seat) + 1)
            state.extra = Pile(pile(state) + 1)
            events.append(Gifted(action.seat, pile(state)))
            return True

        def final_bonuses(self, state: GameState, scores: list[SeatScore]) -> None:
            for s in scores:
                s.breakdown["gifts"] = given(state, s.seat)
                s.extra = stored(GiftScore(given(state, s.seat)))
            super().final_bonuses(state, scores)

        def tiebreak_value(self, key: str, score: SeatScore) -> int:
            if key == "most_gifts":
                return score.extra.gifts if isinstance(score.extra, GiftScore) else 0
            return super().tiebreak_value(key, score)

    GiftRules.core_hooks = _core_hooks(v)
    return GiftRules


def _core_hooks(v: _Gifts) -> type[CoreHooks[core_module.Core, core_module.CoreTable]]:
    """The same rule on the integer core: one action int (``base``); the gifts per seat."""
    Gift, Gifted, Pile, Giver = v.gift, v.gifted, v.pile, v.giver

    class GiftCoreHooks(CoreHooks[core_module.Core, core_module.CoreTable]):
        def action_count(self) -> int:
            return 1

        def encode(self, action: Action) -> int:
            return self.base if isinstance(action, Gift) else super().encode(action)

        def decode(self, seat: int, action: int) -> Action:
            return Gift(seat)

        def turn_actions(self, core: core_module.Core, seat: int, out: list[int]) -> None:
            if core.hands[seat][self.table.loco]:
                out.append(self.base)

        def apply(self, core: core_module.Core, seat: int, action: int) -> bool:
            gifts: list[int] = core.variant
            core.hands[seat][self.table.loco] -= 1
            core.bonus_points[seat] += 1
            gifts[seat] += 1
            if core.events is not None:
                core.events.append(Gifted(seat, sum(gifts)))
            return True

        def new_state(self, core: core_module.Core) -> list[int]:
            return [0] * core.n

        def load(self, core: core_module.Core, state: GameState) -> None:
            core.variant = [given(state, p.seat) for p in state.players]

        def save(self, core: core_module.Core, state: GameState) -> None:
            for p in state.players:
                p.extra = stored(Giver(core.variant[p.seat]))
            state.extra = stored(Pile(sum(core.variant)))

    return GiftCoreHooks


def pile(state: GameState) -> int:
    """The gifts on the table (the rule set's state of the game; None: none)."""
    return getattr(state.extra, "pile", 0)


def given(state: GameState, seat: int) -> int:
    """``seat``'s gifts (its state of the seat; None: none)."""
    return getattr(state.players[seat].extra, "gifts", 0)


@pytest.fixture
def gifts(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[ClassicRules]]:
    """The rule set "gifts", registered for this test only."""
    for level in (StateExtra, PlayerExtra, ScoreExtra):
        monkeypatch.setattr(level, "registry", dict(level.registry))
    v = _vocabulary()
    rules = _rule_set(v)
    monkeypatch.setitem(ACTION_TYPES, v.gift.kind, v.gift)
    monkeypatch.setitem(EVENT_TYPES, v.gifted.kind, v.gifted)
    monkeypatch.setitem(RULESETS, "gifts", rules)
    yield rules


def _gift_map() -> dict[str, Any]:
    data = read_map_data("usa")
    return {**data, "ruleset": "gifts", "rules": {**data["rules"], "tiebreaks": ["most_gifts"]}}


def test_both_engines_play_a_rule_set_declared_in_one_module(
    gifts: type[ClassicRules],
) -> None:
    """The same random games on both engines: states with the rule set's own fields,
    legal lists, events and results."""
    rules = gifts(_gift_map())
    assert sum(play_both("usa", 3, seed, rules=rules) for seed in (1, 2)) > 200


def test_the_codec_and_the_views_carry_its_fields(gifts: type[ClassicRules]) -> None:
    """Every state, action, event and the result of a game round-trip through JSON;
    the views and the scores show the rule set's fields as attributes."""
    rules = gifts(_gift_map())
    chooser = random.Random(7)
    state = new_game(rules, seats=3, seed=7)
    gave = 0
    while not state.finished:
        seat = state.seats_to_act()[0]
        actions = legal_actions(rules, state, seat)
        own = [a for a in actions if a.kind == "gift"]
        action = own[0] if own and chooser.random() < 0.5 else chooser.choice(actions)
        assert decode_action(json.loads(json.dumps(encode_action(action)))) == action
        done = apply(rules, state, action)
        state = done.state
        for event in done.events:
            assert decode_event(json.loads(json.dumps(encode_event(event)))) == event
        assert decode_state(json.loads(json.dumps(encode_state(state)))) == state
        gave += action.kind == "gift"
        view = public_view(rules, state)
        assert view.pile == gave
        assert sum(p.gifts for p in view.players) == gave
    assert gave > 0 and state.result is not None
    scores = state.result.seats
    assert sum(s.gifts for s in scores) == gave == sum(s.breakdown["gifts"] for s in scores)
    assert FinalResult.from_dict(json.loads(json.dumps(state.result.to_dict()))) == state.result
    assert encode_state(state)["extra"] == {"kind": "gifts", "pile": gave}
