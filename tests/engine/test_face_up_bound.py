"""The face-up reset bound (reducer.MAX_RESETS) is reached in real games: a known case.

Amsterdam, 4 players, seed 236, uniform random play: late in the game the pool
(row, deck, discard) is 9 cards with 6 wild cards; a better row exists, but
each re-deal shows three wild cards again with probability about 0.88, and all
50 re-deals of one check did. The row then shows three wild cards until the
next turn end checks again. This is the rule as implemented; changing it would
change replays of stored games (ENGINE_VERSION), so it is pinned here.
"""

from __future__ import annotations

import random

from engine import apply, legal_actions, new_game
from engine.events import FaceUpReset
from engine.reducer import MAX_RESETS
from engine.types import LOCOMOTIVE
from maps import load_ruleset


def test_reset_stops_at_the_bound_in_a_known_game():
    rules = load_ruleset("amsterdam")
    state = new_game(rules, seats=4, seed=236)
    chooser = random.Random(236)
    stuck_at = None
    while not state.finished:
        actions = legal_actions(rules, state, state.seats_to_act()[0])
        t = apply(rules, state, chooser.choice(actions))
        resets = sum(1 for e in t.events if isinstance(e, FaceUpReset))
        assert resets <= MAX_RESETS
        state = t.state
        wild = sum(1 for c in state.face_up if c == LOCOMOTIVE)
        if resets == MAX_RESETS and stuck_at is None:
            assert wild >= rules.params.face_up_wild_limit
            pool = [c for c in state.face_up if c] + state.deck + state.discard
            non_wild = sum(1 for c in pool if c != LOCOMOTIVE)
            assert len(state.face_up) - non_wild < rules.params.face_up_wild_limit, (
                "a better row was possible: the bound, not the pool, stopped the re-deals"
            )
            stuck_at = state.turn
        elif stuck_at is not None and state.turn > stuck_at and state.step == "turn":
            break
    assert stuck_at is not None, "the known case no longer reaches the bound"
