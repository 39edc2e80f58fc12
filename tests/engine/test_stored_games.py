"""Stored games of an earlier release load and replay (one per rule set).

``tests/engine/stored/stored_<ruleset>.json`` (written by
``tests/engine/stored_games.py`` with the code of before the rule sets
declared their own state) holds what the bot's storage keeps of a game: its
action log, the events of every action and snapshots of its state in the old
JSON shape. The current codec must read all of it: every snapshot decodes to
the state the log replays to at that version (on the value engine and on the
integer core), every stored event decodes to the event the engine emits now,
and the last snapshot ends in the replay digest pinned when it was stored.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import apply, new_game
from engine.codec import decode_action, decode_event, decode_state, encode_state
from engine.core import Core, core_table
from engine.testing import build_state
from maps import load_ruleset
from tests.engine.replay_corpus import state_digest
from tests.engine.stored_games import GAMES, path_of


def _stored(ruleset: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path_of(ruleset).read_text())
    return data


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_old_snapshots_decode_to_the_replayed_state(ruleset: str) -> None:
    game = _stored(ruleset)
    rules = load_ruleset(game["map"])
    snapshots = {s["version"]: s["state"] for s in game["snapshots"]}
    state = new_game(rules, seats=game["seats"], seed=game["seed"], options=game["options"])
    assert decode_state(snapshots[0]) == state
    for data, stored_events in zip(game["actions"], game["events"], strict=True):
        transition = apply(rules, state, decode_action(data))
        state = transition.state
        assert [decode_event(e) for e in stored_events] == list(transition.events)
        if state.version in snapshots:
            stored = decode_state(snapshots[state.version])
            assert stored == state
            assert decode_state(encode_state(stored)) == stored
            # as the storage writes it: keys sorted (Europe's stations lose their build order)
            assert (
                decode_state(json.loads(json.dumps(encode_state(stored), sort_keys=True))) == state
            )
    assert state.finished
    assert state_digest(state) == game["digest"]
    assert state_digest(decode_state(snapshots[state.version])) == game["digest"]


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_core_continues_from_old_snapshots(ruleset: str) -> None:
    """A snapshot loaded into the integer core plays the rest of the log to the same end."""
    game = _stored(ruleset)
    rules = load_ruleset(game["map"])
    table = core_table(rules)
    last = game["snapshots"][-1]
    for snap in game["snapshots"][:-1]:
        core = Core.from_state(rules, decode_state(snap["state"]))
        for data in game["actions"][snap["version"] :]:
            action = decode_action(data)
            core.step_seat(action.seat, table.encode(action, core.offers[action.seat]))
        assert core.to_state() == decode_state(last["state"])


def test_the_stored_games_use_each_rule_sets_state() -> None:
    """The rows hold what the old shape kept at its old places: a station with its
    end-game use, merchandise, a pending flag decision and kept flag cards."""
    europe = _stored("europe")["snapshots"][-1]["state"]
    assert europe["stations"] and any(s.get("stations") for s in europe["result"]["seats"])
    amsterdam = _stored("amsterdam")["snapshots"][-1]["state"]
    assert any(p["merchandise"] for p in amsterdam["players"])
    paris = [s["state"] for s in _stored("paris")["snapshots"]]
    assert any(s["step"] == "flag" and s["flag_colors"] for s in paris)
    assert any(p["flags"] and p["flag_cards"] == [] for s in paris for p in s["players"])
    assert any(p["flag_cards"] for s in paris for p in s["players"])


def test_a_snapshot_stored_with_sorted_keys_equals_the_state() -> None:
    """The storage writes JSON objects with sorted keys: Europe's stations, built in
    another order, come back as the same state."""
    rules = load_ruleset("europe")
    state = build_state(rules, seats=2, stations={"wien": 0, "amsterdam": 1})
    stored = json.loads(json.dumps(encode_state(state), sort_keys=True))
    assert decode_state(stored) == state
