"""Rule sets: :class:`ClassicRules` (USA and every generic rule) plus one module per rule set.

A map's data names its rule set (``"ruleset": "classic" | "amsterdam" | "paris" | "europe"``);
:func:`build_ruleset` looks it up in :data:`RULESETS`. Maps differ as data first
(see :class:`engine.params.RuleParams`) and override named hooks second
(model: python-chess ``chess/variant.py``).

**A new rule set** (Europe's train stations, say) is one module here that
declares everything it adds, for both engines, the codec and the views; the
shared engine files (``state``, ``actions``, ``events``, ``codec``, ``views``,
``scoring``, ``reducer``) and ``maps/checks.py`` stay as they are:

1. ``engine/rules/<name>.py``: a :class:`ClassicRules` subclass with ``name``,
   ``params_used`` (its own keys of a map's ``rules``), ``action_types`` (its
   own action classes), ``tiebreaks`` (its own tie-break keys) and the value
   hooks it needs (``on_setup``, ``on_route_claimed``, ``turn_actions``,
   ``step_actions``, ``apply_action``, ``on_turn_end``, ``final_bonuses``,
   ``tiebreak_value``, ``breakdown_keys``, ``public_extra``, and
   ``param_problems`` for its checks of a map's ``rules`` block); beside it a
   :class:`engine.rules.corehooks.CoreHooks` subclass with the same moments on
   the integer core (``action_count``/``encode``/``decode``, ``turn_actions``,
   ``step_actions``, ``apply``, ``on_route_claimed``, ``on_turn_end``, and its
   state: ``new_state``/``load``/``save``), named by the rules' ``core_hooks``.
   End-of-game scoring is written once, on the value side: the core scores a
   finished game with it.
2. In the same module, its vocabulary:

   - **state**: frozen dataclasses subclassing :class:`engine.extras.StateExtra`
     (the game's: ``GameState.extra``), :class:`engine.extras.PlayerExtra` (a
     seat's: ``PlayerState.extra``) and :class:`engine.extras.ScoreExtra` (a
     final score's facts: ``SeatScore.extra``), each with a ``kind`` and a
     default for every field; hooks store new values (blank ones as None:
     :func:`engine.extras.stored`) and read them through a helper of the module
     that turns None into the default;
   - **codec**: the extras' ``to_json``/``from_json`` (by field name unless
     overridden); an action class declares its JSON fields
     (``json_fields``/``from_json``) and is registered with
     :func:`engine.actions.action_type`; an event is a
     :class:`engine.events.SeatEvent` subclass registered with
     :func:`engine.events.event_type` (its JSON follows from its fields);
   - **views**: the game's extra is public as its ``public_extra`` hook returns
     it, a seat's as it is; views and scores read their fields as attributes
     (``public.stations``), so the renderers need no rule-set branch.

3. An entry in :data:`RULESETS`; its parameters in
   :class:`engine.params.RuleParams` and ``maps/schema.py``. ``maps.checks`` then
   asks a map of that rule set for its ``params_used``, ``tiebreaks``,
   ``ticket_mix`` and ``param_problems`` and refuses its own on every other map.
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
