"""The hard AI's rollout policy on the integer core makes the value policy's moves.

From mid-game states of normal-AI games on every map, both policies play to the
end with the same seed: the core's final state, as a value, is the value
policy's, move for move (so the hard AI decides as before, only faster).
"""

from __future__ import annotations

import random

import pytest

from engine import apply, new_game
from engine.ai import choose_action
from engine.ai.rollout import CoreRolloutPolicy, RolloutPolicy
from engine.core import Core
from maps import load_ruleset

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris")


@pytest.mark.parametrize("map_id", MAPS)
def test_the_core_policy_plays_the_value_policys_rollouts(map_id: str) -> None:
    rules = load_ruleset(map_id)
    seats = min(4, rules.params.max_players)
    for seed in range(3):
        state = new_game(rules, seats=seats, seed=seed)
        for _ in range(20 + 15 * seed):  # a few normal-AI moves into the game
            seat = state.seats_to_act()[0]
            state = apply(rules, state, choose_action(rules, state, seat, "normal")).state
        value = RolloutPolicy(rules, random.Random(99 + seed))
        core_policy = CoreRolloutPolicy(rules, random.Random(99 + seed))
        core = Core.from_state(rules, state)
        st = state
        moves = 0
        while not st.finished and moves < 2000:
            st = value.act(st)
            core_policy.act(core)
            assert core.to_state() == st, (map_id, seed, moves)
            moves += 1
        assert st.finished and core.result == st.result
        assert moves > 20
