"""The pinned replay corpus: recorded games per map and the digest of their final state.

``tests/engine/replay_corpus.json`` holds, per game, how it was created (map,
seats, seed, options), its whole action log (the JSON form of
:func:`engine.codec.encode_action`, as storage keeps it) and the SHA-256 of its
final state (:func:`state_digest`). ``tests/engine/test_replay_corpus.py``
replays every log on the value engine and on the integer core and compares
the digests: a change that alters play (a rule, the RNG's use, a payment, a
score) shows up even when both engines change together.

The games were recorded by ``python -m tests.engine.replay_corpus`` (this
module): per map, random play at the smallest table, the normal and easy AI
with random seats at the largest, and a game where every seat draws cards
whenever it may, so that the deck and the discard run out (the face-up row's
last cards). Run it again only when a change is meant to alter play, and say
in the commit which games changed and why.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from engine import Action, DrawBlind, DrawFaceUp, GameState, Resign, apply, new_game
from engine.ai import choose_action
from engine.codec import encode_action, encode_state
from engine.reducer import can_resign, legal_actions
from maps import available_maps, load_ruleset

CORPUS = Path(__file__).with_name("replay_corpus.json")


def state_digest(state: GameState) -> str:
    """SHA-256 of a state's canonical JSON form in schema 1 (:func:`schema1_json` of
    :func:`engine.codec.encode_state`), the form the corpus was pinned in."""
    text = json.dumps(schema1_json(encode_state(state)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def schema1_json(data: dict[str, Any]) -> dict[str, Any]:
    """A state's JSON (schema 2) as schema 1 wrote it: the rule sets' fields of that
    release beside the shared ones on the state and on every player, blank where the
    game's rule set has none of them (the inverse of :func:`engine.codec.upgrade_state`)."""
    d = {k: v for k, v in data.items() if k != "extra"}
    d.update(_flat(SCHEMA1_STATE, data["extra"]))
    d["players"] = [
        {**{k: v for k, v in p.items() if k != "extra"}, **_flat(SCHEMA1_PLAYER, p["extra"])}
        for p in data["players"]
    ]
    d["schema"] = 1
    return d


#: The rule sets' fields schema 1 wrote on every state and every player, blank.
SCHEMA1_STATE: dict[str, Any] = {"flag_colors": [], "merchandise_left": 0, "stations": {}}
SCHEMA1_PLAYER: dict[str, Any] = {"flag_cards": [], "flags": 0, "merchandise": 0}


def _flat(blank: dict[str, Any], extra: dict[str, Any] | None) -> dict[str, Any]:
    """``blank`` with ``extra``'s fields (an extra's JSON, schema 2) over it."""
    return {**blank, **{k: v for k, v in (extra or {}).items() if k != "kind"}}


def engine_maps() -> list[str]:
    """Every map the engine plays (every offered map)."""
    return available_maps()


def games_of(map_id: str) -> list[dict[str, Any]]:
    """The games recorded for one map: ``{"style", "seats", "seed", "options"}``."""
    p = load_ruleset(map_id).params
    games = [
        {"style": "random", "seats": p.min_players, "seed": 101, "options": None},
        {"style": "ai", "seats": p.max_players, "seed": 202, "options": None},
        {"style": "drawing", "seats": min(3, p.max_players), "seed": 303, "options": None},
    ]
    if map_id == "germany":
        games.append({"style": "random", "seats": 4, "seed": 404, "options": {"tickets": "2017"}})
    return games


def _choose(rules: Any, state: GameState, seat: int, style: str, rng: random.Random) -> Action:
    legal = legal_actions(rules, state, seat)
    if style == "drawing":  # draw cards whenever possible: the deck runs out
        draws = [a for a in legal if isinstance(a, DrawBlind | DrawFaceUp)]
        if draws and rng.random() < 0.95:
            return draws[rng.randrange(len(draws))]
    if style == "ai" and seat % 3 != 2:
        return choose_action(rules, state, seat, "normal" if seat % 3 == 0 else "easy")
    return legal[rng.randrange(len(legal))]


def record(map_id: str, game: dict[str, Any]) -> dict[str, Any]:
    """Play one corpus game; its spec with the action log and the final digest."""
    rules = load_ruleset(map_id)
    seats, seed = game["seats"], game["seed"]
    state = new_game(rules, seats=seats, seed=seed, options=game["options"])
    rng = random.Random(f"corpus:{map_id}:{seed}")
    log: list[Action] = []
    while not state.finished:
        seat = state.seats_to_act()[rng.randrange(len(state.seats_to_act()))]
        action = _choose(rules, state, seat, game["style"], rng)
        if rng.random() < 0.003:  # now and then a seat resigns (and plays on)
            other = rng.randrange(seats)
            if can_resign(state, other):
                action = Resign(other)
        state = apply(rules, state, action).state
        log.append(action)
    return {
        "map": map_id,
        **game,
        "actions": [encode_action(a) for a in log],
        "digest": state_digest(state),
    }


def main() -> int:
    """Record every game of every map into :data:`CORPUS` (one JSON object per line)."""
    lines = [
        json.dumps(record(m, g), separators=(",", ":")) for m in engine_maps() for g in games_of(m)
    ]
    CORPUS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} games written to {CORPUS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
