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
from engine.ai.heuristic import hard_style
from engine.ai.rollout import CoreRolloutPolicy
from engine.core import Core
from maps import load_ruleset
from tests.engine.test_payment_table import random_hand
from tests.engine.value_rollout import RolloutPolicy

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("styled", [False, True], ids=["normal", "hard-style-seat"])
def test_the_core_policy_plays_the_value_policys_rollouts(map_id: str, styled: bool) -> None:
    """Also with one seat in the hard level's style (as the hard search plays its own
    seat): its ticket draws and keeps follow that style in both policies."""
    rules = load_ruleset(map_id)
    seats = min(4, rules.params.max_players)
    styles = {1: hard_style(rules)} if styled else None
    for seed in range(3):
        state = new_game(rules, seats=seats, seed=seed)
        for _ in range(20 + 15 * seed):  # a few normal-AI moves into the game
            seat = state.seats_to_act()[0]
            state = apply(rules, state, choose_action(rules, state, seat, "normal")).state
        value = RolloutPolicy(rules, random.Random(99 + seed), styles)
        core_policy = CoreRolloutPolicy(rules, random.Random(99 + seed), styles)
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


@pytest.mark.parametrize("map_id", MAPS)
def test_the_core_policy_pays_as_the_value_policy(map_id: str) -> None:
    """Every route, 60 random hands: the core policy's claim (worked out on the ints for
    plain routes, from the shared payment caches for tunnels, ferries and substitutes) is
    the value policy's (the first of the rule set's sensible payments), and a route the
    value policy cannot pay for is one the core policy does not claim either; the same
    for the first claim of a random list of routes (which passes over routes unasked)."""
    rules = load_ruleset(map_id)
    rng = random.Random(map_id)
    state = new_game(rules, seats=2, seed=7)
    value = RolloutPolicy(rules, random.Random(0))
    core_policy = CoreRolloutPolicy(rules, random.Random(0))
    table = core_policy.table
    routes = sorted(rules.board.routes)
    claimed = 0
    for _ in range(60):
        state.players[0].hand = random_hand(rules, rng)
        state.players[0].pieces = rng.choice((2, 5, 45))
        core = Core.from_state(rules, state)
        for rid in routes:
            claim = value._affordable(state, 0, rid)
            code = core_policy._affordable(core, 0, table.route_index[rid])
            expected = -1 if claim is None else table.encode(claim, [])
            assert code == expected, (map_id, rid, state.players[0].hand)
            claimed += claim is not None
        some = rng.sample(routes, 12)
        first = value._claim(state, 0, some)
        ordered = sorted((table.route_index[r] for r in some), key=lambda r: -table.length[r])
        code = core_policy._claim(core, 0, ordered)
        assert code == (-1 if first is None else table.encode(first, []))
    assert claimed > 100
