"""Longest-path memo: memoised answers equal fresh computations on random states."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from engine import apply, legal_actions, new_game
from engine.trail import TRAIL_MEMO_LIMIT, TrailCache
from maps import available_maps, load_ruleset
from tests.engine.test_longest_path import assert_valid_trail, cluster

RULES = {m: load_ruleset(m) for m in available_maps()}


def fresh(board, routes):
    """A longest trail computed by a new cache with nothing memoised."""
    return TrailCache(board._route_ends, board.dead_ends).longest(routes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_id=st_.sampled_from(sorted(RULES)), size=st_.integers(1, 24), data=st_.data())
def test_memoised_equals_fresh_on_growing_networks(map_id, size, data):
    """A network grown claim by claim (as in a game): every prefix hits the memo correctly."""
    board = RULES[map_id].board
    routes = cluster(board, data, size, legal=True)
    for k in range(1, len(routes) + 1):
        part = routes[:k]
        got = board.longest_trail(part)
        want = fresh(board, part)
        assert got[0] == want[0]
        assert_valid_trail(board, got[1], got[0])
    # the same set in another order: the same answer, from the memo
    shuffled = list(routes)
    random.Random(size).shuffle(shuffled)
    assert board.longest_trail(shuffled) == board.longest_trail(routes)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_id=st_.sampled_from(sorted(RULES)), seed=st_.integers(0, 10_000))
def test_memoised_equals_fresh_in_random_games(map_id, seed):
    rules = RULES[map_id]
    state = new_game(rules, seats=rules.params.min_players, seed=seed)
    chooser = random.Random(seed)
    while not state.finished:
        actions = legal_actions(rules, state, state.seats_to_act()[0])
        state = apply(rules, state, chooser.choice(actions)).state
        for player in state.players:
            assert rules.board.longest_path(player.routes) == fresh(rules.board, player.routes)[0]
    assert state.result is not None
    for s in state.result.seats:
        assert s.longest_path == fresh(rules.board, state.players[s.seat].routes)[0]


def test_memo_is_bounded():
    board = RULES["usa"].board
    cache = TrailCache(board._route_ends, board.dead_ends, limit=5)
    ids = sorted(board.routes)
    for i in range(20):
        cache.longest(ids[i : i + 3])
        assert len(cache._memo) <= 5 and len(cache._sets) <= 5


def test_a_boards_memo_is_bounded_by_default():
    """A long-running process asks about ever new networks: each memo of a board's cache keeps
    at most TRAIL_MEMO_LIMIT of them, game after game (bounded memory)."""
    board = RULES["europe"].board
    cache = TrailCache(board._route_ends, board.dead_ends)
    ids = sorted(board.routes)
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    assert len(pairs) > TRAIL_MEMO_LIMIT + 100
    for pair in pairs[: TRAIL_MEMO_LIMIT + 100]:
        cache.longest(pair)
        assert len(cache._memo) <= TRAIL_MEMO_LIMIT and len(cache._sets) <= TRAIL_MEMO_LIMIT
    assert len(cache._sets) < TRAIL_MEMO_LIMIT  # it was cleared and is filling again
