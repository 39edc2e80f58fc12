"""A rule set is one module for both engines, and the integer core names no map.

- engine/integer_core.py mentions no map, no rule set and none of a rule set's own
  parameters, actions or steps (a planted line is caught);
- every rule set's core hooks live in the module of its value hooks, and every
  value hook a rule set overrides has its core counterpart;
- a rule set written only in a test (a new turn action, its own state in the
  generic in-play points, a final bonus) plays the same games on both engines:
  the plug-in path a new variant such as Europe's stations takes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from engine import core as core_module
from engine.actions import Action
from engine.events import EngineEvent
from engine.rules import RULESETS, ClassicRules
from engine.rules.corehooks import CoreHooks, overrides
from engine.state import GameState, SeatScore
from engine.types import LOCOMOTIVE
from maps import available_maps, load_ruleset, read_map_data
from tests.engine.test_core import play_both

#: value hook -> the core hook that must come with it
COUNTERPARTS = {
    "on_route_claimed": "on_route_claimed",
    "on_turn_end": "on_turn_end",
    "turn_actions": "turn_actions",
    "step_actions": "step_actions",
    "apply_action": "apply",
    "on_setup": "new_state",
}


def rule_set_words() -> set[str]:
    """What the core must not name: every map's id and names, every rule set but the
    classic one, and each rule set's own parameters, action classes and steps."""
    words: set[str] = set()
    for map_id in available_maps():
        data = read_map_data(map_id)
        words |= {map_id, *data["name"].values()}
    for name, cls in RULESETS.items():
        if name == "classic":
            continue
        words |= {name, *cls.params_used, *cls.core_hooks.steps}
        words |= {a.__name__ for a in cls.action_types}
        words |= {a.kind for a in cls.action_types}
    return words


def named(text: str, words: set[str]) -> list[str]:
    """The words of ``words`` that ``text`` names (whole words or their plural, any case)."""
    return sorted(
        w for w in words if re.search(rf"(?<![A-Za-z]){re.escape(w)}s?(?![A-Za-z])", text, re.I)
    )


def test_the_core_names_no_map_and_no_rule_set_parameter() -> None:
    """Code, comments and docstrings of engine/integer_core.py; a planted line is caught."""
    words = rule_set_words()
    assert {"paris", "french_flags", "merchandise", "KeepFlagCard", "flag"} <= words
    assert named(Path(core_module.SOURCE).read_text(), words) == []
    planted = "        if t.rules.params.french_flags:  # score the flags\n"
    assert named(planted, words) == ["flag", "french_flags"]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_rule_set_is_one_module_for_both_engines(name: str) -> None:
    """The core hooks are defined beside the value hooks, and each value hook the rule set
    overrides has its core counterpart (so the core cannot silently skip a rule)."""
    cls = RULESETS[name]
    hooks = cls.core_hooks
    assert issubclass(hooks, CoreHooks)
    if name != "classic":
        assert hooks.__module__ == cls.__module__
    for value_hook, core_hook in COUNTERPARTS.items():
        if getattr(cls, value_hook) is not getattr(ClassicRules, value_hook):
            assert getattr(hooks, core_hook) is not getattr(CoreHooks, core_hook), (
                f"{name} overrides {value_hook} but its core hooks do not override {core_hook}"
            )


# --------------------------------------------------------------- a rule set of a test only
@dataclass(frozen=True, slots=True)
class Donate(Action):
    """Give one locomotive back to the discard for one point: a whole turn."""

    kind: ClassVar[str] = "donate"


class DonateRules(ClassicRules):
    """The classic rules plus :class:`Donate` (scored as ``breakdown["donations"]``)."""

    name = "donate"
    action_types: ClassVar[tuple[type[Action], ...]] = (Donate,)

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        if state.players[seat].hand.get(LOCOMOTIVE, 0):
            return [Donate(seat)]
        return []

    def apply_action(self, state: GameState, action: Action, events: list[EngineEvent]) -> bool:
        if state.step != "turn" or not self.turn_actions(state, action.seat):
            return super().apply_action(state, action, events)
        player = state.players[action.seat]
        player.hand[LOCOMOTIVE] -= 1
        if not player.hand[LOCOMOTIVE]:
            del player.hand[LOCOMOTIVE]
        state.discard.append(LOCOMOTIVE)
        player.bonus_points += 1
        return True

    def final_bonuses(self, state: GameState, scores: list[SeatScore]) -> None:
        for s in scores:
            s.breakdown["donations"] = state.players[s.seat].bonus_points
        super().final_bonuses(state, scores)


class DonateCoreHooks(CoreHooks[core_module.Core, core_module.CoreTable]):
    """:class:`DonateRules` on the core: one action int, ``base``."""

    def action_count(self) -> int:
        return 1

    def encode(self, action: Action) -> int:
        return self.base if isinstance(action, Donate) else super().encode(action)

    def decode(self, seat: int, action: int) -> Action:
        return Donate(seat)

    def turn_actions(self, core: core_module.Core, seat: int, out: list[int]) -> None:
        if core.hands[seat][self.table.loco]:
            out.append(self.base)

    def apply(self, core: core_module.Core, seat: int, action: int) -> bool:
        loco = self.table.loco
        core.hands[seat][loco] -= 1
        core.discard.append(loco)
        core.bonus_points[seat] += 1
        return True


DonateRules.core_hooks = DonateCoreHooks


def test_a_new_rule_set_plugs_into_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule set with a turn action of its own, written once for each engine in one
    place, plays the same random games on both engines (legal lists, states, events,
    scores), and the core calls its turn hook."""
    monkeypatch.setitem(RULESETS, "donate", DonateRules)
    data = {**read_map_data("usa"), "ruleset": "donate"}
    rules = RULESETS["donate"](data)
    assert overrides(core_module.core_table(rules).hooks, "turn_actions")
    total = 0
    for seed in (1, 2, 3):
        total += play_both("usa", 3, seed, rules=rules)
    assert total > 300
    assert load_ruleset("usa").core_hooks is CoreHooks
