"""The hard AI's fast pieces: Dijkstra on the board, and the rollout policy's kept plans.

A rollout keeps each seat's plan between moves (``RolloutPolicy.plan``, the tests'
value reference in ``tests/engine/value_rollout.py``, which the core policy is held to)
while a fresh plan would be the same; these tests make the fresh plan at every
step of real rollouts on every map and compare.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import apply, new_game
from engine.ai import choose_action
from maps import load_ruleset
from tests.engine.value_rollout import RolloutPolicy

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")
RULES = {m: load_ruleset(m) for m in MAPS}


def reference_cost(board, a, b, cost):
    """The cheapest cost from ``a`` to ``b`` by plain relaxation (Bellman-Ford), or None.

    A dead end (a country) may start or end a chain but is never passed through.
    """
    far = float("inf")
    dist = {city: far for city in board.cities}
    dist[a] = 0
    for _ in range(len(board.cities)):
        changed = False
        for rid, route in board.routes.items():
            c = cost.get(rid)
            if c is None:
                continue
            for x, y in ((route.a, route.b), (route.b, route.a)):
                if dist[x] == far or (x != a and x in board.dead_ends):
                    continue
                if dist[x] + c < dist[y]:
                    dist[y] = dist[x] + c
                    changed = True
        if not changed:
            break
    return None if dist[b] == far else dist[b]


@settings(max_examples=60, deadline=None)
@given(
    map_id=st.sampled_from(MAPS),
    data=st.data(),
)
def test_shortest_path_is_the_cheapest_chain(map_id, data):
    """Random costs (own routes free, some unusable): Dijkstra's cost is the relaxation's, and
    its path is a chain from a to b over usable routes that costs exactly that."""
    board = RULES[map_id].board
    rids = sorted(board.routes)
    cost = {}
    for rid in rids:
        kind = data.draw(st.integers(0, 9), label=rid)
        cost[rid] = 0 if kind == 0 else None if kind == 1 else board.routes[rid].length
    a, b = (
        data.draw(st.sampled_from(sorted(board.cities))),
        data.draw(st.sampled_from(sorted(board.cities))),
    )
    found = board.shortest_path(a, b, cost)
    want = reference_cost(board, a, b, cost)
    if want is None:
        assert found is None
        return
    assert found is not None and found[0] == want
    city = a
    for i, rid in enumerate(found[1]):
        route = board.routes[rid]
        assert cost[rid] is not None and city in (route.a, route.b)
        assert i == 0 or city not in board.dead_ends
        city = route.other(city)
    assert city == b and sum(cost[r] for r in found[1]) == want


def _mid_game(rules, seats, seed, moves):
    state = new_game(rules, seats=seats, seed=seed)
    for _ in range(moves):
        if state.finished:
            break
        seat = state.seats_to_act()[0]
        state = apply(rules, state, choose_action(rules, state, seat, "normal")).state
    return state


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("seats", [2, 4])
def test_kept_plans_are_the_fresh_plans(map_id, seats, monkeypatch):
    """At every step of whole rollouts, the plan a policy kept is the plan made from scratch,
    and some steps did keep one (the cache is used, not bypassed)."""
    rules = RULES[map_id]
    seats = min(seats, rules.params.max_players)
    state = _mid_game(rules, seats, 5, 30)
    original = RolloutPolicy.plan
    calls = {"kept": 0, "all": 0}

    def checked(self, st_, seat):
        before = self._plans.get(seat)
        got = original(self, st_, seat)
        fresh = original(RolloutPolicy(rules, random.Random(0)), st_, seat)
        assert sorted(got) == sorted(fresh), (seat, got, fresh)
        calls["all"] += 1
        calls["kept"] += before is not None and got is before[3]
        return got

    monkeypatch.setattr(RolloutPolicy, "plan", checked)
    for i in range(4):
        RolloutPolicy(rules, random.Random(i)).play_out(state)
    assert calls["all"] > 50 and calls["kept"] > calls["all"] // 4


def test_shortest_path_never_passes_through_a_country():
    """Germany with free routes into the neighbouring countries: a chain through a country
    would be cheapest, but a country is a dead end (germany rulebook, "Nachbarländer")."""
    board = RULES["germany"].board
    assert board.dead_ends
    cost = {rid: 0 if {r.a, r.b} & board.dead_ends else r.length for rid, r in board.routes.items()}
    cities = sorted(board.cities)
    pairs = random.Random(3).sample([(a, b) for a in cities for b in cities if a != b], 60)
    for a, b in pairs:
        found = board.shortest_path(a, b, cost)
        want = reference_cost(board, a, b, cost)
        assert (found and found[0]) == want, (a, b)
