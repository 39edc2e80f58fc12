"""The classic stand-in of a pending map: its board under rules the engine plays today.

A map whose rule set is pending (:data:`maps.schema.PENDING_RULESETS`: Europe,
whose train stations the engine does not play yet) cannot be loaded as a game.
Its board can still be drawn and checked: :func:`stand_in` turns its data into
data of the ``classic`` rule set, for previews only (the render samples, the
layout tool, the render tests and the loader's check that the board builds).
It is never offered to players. What it leaves out, from the map's own rules:

- train stations (``rules.stations``);
- fixed ticket mixes: only the tickets of the decks the ticket draw uses are
  kept (Europe: the 40 regular tickets; the 6 long ones are left out), and the
  setup deals from them what its mix deals from them (Europe: 3, keep 2);
- tie-breaks classic does not know: ``fewest_stations`` is dropped,
  ``longest_path_bonus`` becomes ``longest_path`` (the bonus goes to the longest
  path, so it picks the same player whenever one of the tied players holds it).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

#: The tie-break keys the classic rule set plays.
CLASSIC_TIEBREAKS = ("tickets_completed", "longest_path")


def _tiebreaks(keys: list[str]) -> list[str]:
    out: list[str] = []
    for key in keys:
        key = "longest_path" if key == "longest_path_bonus" else key
        if key in CLASSIC_TIEBREAKS and key not in out:
            out.append(key)
    return out or ["tickets_completed"]


def stand_in(data: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of a map's data as the ``classic`` rule set plays it (see the module docstring).

    ``data`` is a validated map's data dict; a map without stations or fixed
    mixes comes back with only its ``ruleset`` changed. Pure: ``data`` is not
    changed.
    """
    out = copy.deepcopy(dict(data))
    out["ruleset"] = "classic"
    rules = out["rules"]
    rules.pop("stations", None)
    if "tiebreaks" in rules:
        rules["tiebreaks"] = _tiebreaks(rules["tiebreaks"])
    draw_mix = rules["draw_tickets"].pop("mix", None)
    setup_mix = rules["initial_tickets"].pop("mix", None)
    if draw_mix is None:
        return out
    decks = set(draw_mix)
    out["tickets"] = [t for t in out["tickets"] if t.get("deck", "main") in decks]
    setup = rules["initial_tickets"]
    if setup_mix is not None:
        setup["count"] = sum(n for deck, n in setup_mix.items() if deck in decks)
        setup["keep"] = min(setup["keep"], setup["count"])
    return out


__all__ = ["CLASSIC_TIEBREAKS", "stand_in"]
