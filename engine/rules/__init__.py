"""Rule sets: :class:`ClassicRules` (USA and every generic rule) plus one module per rule set.

A map's data names its rule set (``"ruleset": "classic" | "amsterdam" | "paris" | "europe"``);
:func:`build_ruleset` looks it up in :data:`RULESETS`. Maps differ as data first
(see :class:`engine.params.RuleParams`) and override named hooks second
(model: python-chess ``chess/variant.py``).

**A new rule set** (Europe's train stations, say) is one module here with its
rules for both engines, plus the words it adds to the shared vocabulary:

1. ``engine/rules/<name>.py``: a :class:`ClassicRules` subclass with ``name``,
   ``params_used`` (its own keys of a map's ``rules``), ``action_types`` (its
   own action classes) and the value hooks it needs (``on_setup``,
   ``on_route_claimed``, ``turn_actions``, ``step_actions``, ``apply_action``,
   ``on_turn_end``, ``final_bonuses``, ``breakdown_keys``); beside it a
   :class:`engine.rules.corehooks.CoreHooks` subclass with the same moments on
   the integer core (``action_count``/``encode``/``decode``, ``turn_actions``,
   ``step_actions``, ``apply``, ``on_route_claimed``, ``on_turn_end``, and its
   state: ``new_state``/``load``/``save``), named by the rules' ``core_hooks``.
   End-of-game scoring is written once, on the value side: the core scores a
   finished game with it.
2. An entry in :data:`RULESETS`. ``maps.checks`` then asks a map of that rule
   set for its ``params_used`` and refuses them on every other map.
3. Its vocabulary, declared once where every layer reads it: parameters in
   :class:`engine.params.RuleParams` and ``maps/schema.py``; action classes in
   :mod:`engine.actions` (``ACTION_TYPES``) with their JSON in :mod:`engine.codec`;
   events in :mod:`engine.events`; state fields in :mod:`engine.state` (stored
   by the codec as they are) and, where public, :mod:`engine.views`.
4. Tests: the map in ``tests/engine/test_core.py``'s oracle maps and in the
   replay corpus; ``tests/engine/test_core_hooks.py`` checks that the core names
   no map and that every value hook has its core twin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .amsterdam import AmsterdamRules
from .classic import ClassicRules
from .europe import EuropeRules
from .paris import ParisRules

RULESETS: dict[str, type[ClassicRules]] = {
    "classic": ClassicRules,
    "amsterdam": AmsterdamRules,
    "paris": ParisRules,
    "europe": EuropeRules,
}


def build_ruleset(map_data: Mapping[str, Any]) -> ClassicRules:
    """Build the immutable rule set of a validated map data dict.

    Raises:
        KeyError: the data names an unknown rule set.
    """
    name = map_data.get("ruleset", "classic")
    if name not in RULESETS:
        raise KeyError(f"unknown ruleset {name!r}; known: {sorted(RULESETS)}")
    return RULESETS[name](map_data)


__all__ = [
    "RULESETS",
    "AmsterdamRules",
    "ClassicRules",
    "EuropeRules",
    "ParisRules",
    "build_ruleset",
]
