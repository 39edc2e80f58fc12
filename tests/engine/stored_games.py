"""Stored games of an earlier release, one per rule set: what the codec must still read.

``tests/engine/stored/stored_<ruleset>.json`` holds one game per rule set as the
bot's storage keeps it: how it was created (map, seats, seed, options), its
action log (:func:`engine.codec.encode_action`), the events of every action
(:func:`engine.codec.encode_event`, unredacted, as the service records them),
snapshots of the state at a few versions (:func:`engine.codec.encode_state`)
and the replay digest of its last snapshot
(:func:`tests.engine.replay_corpus.state_digest`). The snapshots are one taken
early, one where the rule set's own state is in use (a station built, a
merchandise card drawn, a flag decision pending) and the finished game's.

The files were written by ``python -m tests.engine.stored_games`` (this module)
with the code of before the rule sets declared their own state (the JSON shape
of ``schema`` 1: ``stations``, ``merchandise``, ``flag_cards``, ``flags``,
``flag_colors`` and ``merchandise_left`` on every state). They are never
written again: they are the old release's rows, and
``tests/engine/test_stored_games.py`` loads them with the current code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine import GameState, apply, new_game
from engine.ai import choose_action
from engine.codec import encode_action, encode_event, encode_state
from maps import load_ruleset
from tests.engine.replay_corpus import state_digest

DATA = Path(__file__).with_name("stored")

#: Rule set -> ``(map, seats, seed)`` of its stored game (Europe's: the first seed
#: whose AI builds a station).
GAMES: dict[str, tuple[str, int, int]] = {
    "classic": ("usa", 3, 7),
    "amsterdam": ("amsterdam", 3, 7),
    "paris": ("paris", 3, 7),
    "europe": ("europe", 4, 1),
}


def path_of(ruleset: str) -> Path:
    """The fixture file of one rule set's stored game."""
    return DATA / f"stored_{ruleset}.json"


def _in_use(state: GameState) -> bool:
    """True when the state holds something of a rule set's own."""
    return bool(
        state.stations
        or state.flag_colors
        or any(p.merchandise or p.flag_cards or p.flags for p in state.players)
    )


def record(ruleset: str) -> dict[str, Any]:
    """Play the stored game of ``ruleset`` with the seeded AI and return its rows."""
    map_id, seats, seed = GAMES[ruleset]
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=seats, seed=seed)
    actions: list[dict[str, Any]] = []
    events: list[list[dict[str, Any]]] = []
    snapshots = [{"version": 0, "state": encode_state(state)}]
    marked = False
    while not state.finished:
        seat = state.seats_to_act()[0]
        action = choose_action(rules, state, seat, "normal" if seat % 2 == 0 else "easy")
        transition = apply(rules, state, action)
        state, evs = transition.state, transition.events
        actions.append(encode_action(action))
        events.append([encode_event(e) for e in evs])
        if state.version == 30 or (not marked and _in_use(state)):
            marked = marked or _in_use(state)
            snapshots.append({"version": state.version, "state": encode_state(state)})
    if snapshots[-1]["version"] != state.version:
        snapshots.append({"version": state.version, "state": encode_state(state)})
    return {
        "ruleset": ruleset,
        "map": map_id,
        "seats": seats,
        "seed": seed,
        "options": None,
        "actions": actions,
        "events": events,
        "snapshots": snapshots,
        "digest": state_digest(state),
    }


def main() -> int:
    """Write every rule set's stored game (only ever with the old release's code)."""
    DATA.mkdir(exist_ok=True)
    for ruleset in GAMES:
        rows = record(ruleset)
        path_of(ruleset).write_text(json.dumps(rows, separators=(",", ":")) + "\n")
        print(ruleset, len(rows["actions"]), [s["version"] for s in rows["snapshots"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
