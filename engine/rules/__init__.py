"""Rule sets: :class:`ClassicRules` (USA and every generic rule) plus small per-map hook modules.

A map's data names its rule set (``"ruleset": "classic" | "amsterdam" | "paris"``);
:func:`build_ruleset` looks it up in :data:`RULESETS`. Maps differ as data first
(see :class:`engine.params.RuleParams`) and override named hooks second
(model: python-chess ``chess/variant.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .amsterdam import AmsterdamRules
from .classic import ClassicRules
from .paris import ParisRules

RULESETS: dict[str, type[ClassicRules]] = {
    "classic": ClassicRules,
    "amsterdam": AmsterdamRules,
    "paris": ParisRules,
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


__all__ = ["RULESETS", "AmsterdamRules", "ClassicRules", "ParisRules", "build_ruleset"]
