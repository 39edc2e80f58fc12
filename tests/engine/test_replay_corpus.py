"""The pinned replay corpus on both engines: recorded games end in their digest.

Every game of ``tests/engine/replay_corpus.json`` (see tests/engine/replay_corpus.py:
per map random play, AI play and a game that runs the deck out) is replayed
from its seed and action log on the value engine and, action by action, on the
integer core; both must end in the committed SHA-256 of the final state. The
oracle test (test_core.py) holds the engines equal to each other; this holds
them to recorded games, so a change to both shows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import apply, new_game
from engine.codec import decode_action
from engine.core import Core, core_table
from maps import load_ruleset
from tests.engine.replay_corpus import CORPUS, engine_maps, state_digest

GAMES: list[dict[str, Any]] = [json.loads(line) for line in CORPUS.read_text().splitlines()]


def _name(game: dict[str, Any]) -> str:
    return f"{game['map']}-{game['style']}-{game['seats']}p-{game['seed']}"


def test_every_map_has_its_games() -> None:
    """Random, AI and deck-exhausting play on every map (Germany: both ticket sets)."""
    styles = {(g["map"], g["style"]) for g in GAMES}
    assert {(m, s) for m in engine_maps() for s in ("random", "ai", "drawing")} <= styles
    assert any(g["options"] == {"tickets": "2017"} for g in GAMES)
    assert all(len(g["actions"]) > 50 for g in GAMES)


@pytest.mark.parametrize("game", GAMES, ids=_name)
def test_the_value_engine_replays_to_the_pinned_digest(game: dict[str, Any]) -> None:
    rules = load_ruleset(game["map"])
    state = new_game(rules, seats=game["seats"], seed=game["seed"], options=game["options"])
    for data in game["actions"]:
        state = apply(rules, state, decode_action(data)).state
    assert state.finished
    assert state_digest(state) == game["digest"]


@pytest.mark.parametrize("game", GAMES, ids=_name)
def test_the_core_replays_to_the_pinned_digest(game: dict[str, Any]) -> None:
    rules = load_ruleset(game["map"])
    table = core_table(rules)
    core = Core.new(rules, seats=game["seats"], seed=game["seed"], options=game["options"])
    for data in game["actions"]:
        action = decode_action(data)
        core.step_seat(action.seat, table.encode(action, core.offers[action.seat]))
    assert core.result is not None
    assert state_digest(core.to_state()) == game["digest"]
