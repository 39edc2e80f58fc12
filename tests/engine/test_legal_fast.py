"""The fast legal-move generator (engine/legal.py) against the slow references.

Positions are reached by random play from random seeds on all five maps; at
each, every seat's list must equal the list of ``legal_actions_reference`` (the
slow, obvious generator) in content and order, for both payment
modes, and the set of tests/engine/reference.py (an independent copy).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from engine import (
    ClaimRoute,
    ClassicRules,
    apply,
    legal_actions,
    new_game,
)
from engine.legal import claimable_routes, route_payments
from engine.testing import build_state
from engine.types import LOCOMOTIVE, Cards
from maps import available_maps, load_ruleset
from tests.engine.reference import legal_actions_reference, reference_legal_actions

RULES = {m: load_ruleset(m) for m in available_maps()}


def assert_same(rules, state, seat):
    for mode in ("all", "sensible"):
        fast = legal_actions(rules, state, seat, payments=mode)
        slow = legal_actions_reference(rules, state, seat, payments=mode)
        assert fast == slow, (mode, set(fast) ^ set(slow))
    assert set(legal_actions(rules, state, seat)) == set(
        reference_legal_actions(rules, state, seat)
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_id=st_.sampled_from(sorted(RULES)),
    seed=st_.integers(0, 2**32),
    steps=st_.integers(0, 400),
    seats=st_.integers(2, 5),
)
def test_fast_equals_reference_on_random_positions(map_id, seed, steps, seats):
    rules = RULES[map_id]
    p = rules.params
    seats = min(max(seats, p.min_players), p.max_players)
    state = new_game(rules, seats=seats, seed=seed)
    chooser = random.Random(seed)
    for i in range(steps):
        if state.finished:
            break
        if i % 7 == 0 or i > steps - 4:
            for seat in range(seats):
                assert_same(rules, state, seat)
        actions = legal_actions(rules, state, state.seats_to_act()[0])
        state = apply(rules, state, chooser.choice(actions)).state
    for seat in range(seats):
        assert_same(rules, state, seat)


@settings(max_examples=40, deadline=None)
@given(
    map_id=st_.sampled_from(sorted(RULES)),
    seed=st_.integers(0, 10_000),
    data=st_.data(),
)
def test_fast_equals_reference_on_built_hands(map_id, seed, data):
    """Big and odd hands (substitution routes on Nordic) on a board with some routes taken."""
    rules = RULES[map_id]
    p = rules.params
    counts = st_.integers(0, 6)
    hand = {c: data.draw(counts) for c in p.colors}
    hand[LOCOMOTIVE] = data.draw(st_.integers(0, min(6, p.deck[LOCOMOTIVE])))
    ids = sorted(rules.board.routes)
    taken = data.draw(st_.lists(st_.sampled_from(ids), max_size=6, unique=True))
    owned: dict[int, list[str]] = {1: [], 2: []}
    for k, rid in enumerate(taken):
        seat = 1 + k % 2
        sibs = rules.board.siblings(rid)
        if any(s in owned[1] or s in owned[2] for s in sibs):
            continue
        owned[seat].append(rid)
    pieces = data.draw(st_.integers(0, p.pieces))
    state = build_state(
        rules,
        seats=min(3, p.max_players),
        seed=seed,
        hands={0: hand},
        owned=owned,
        pieces={0: pieces},
    )
    assert_same(rules, state, 0)


def test_claim_lists_use_the_whole_route_table_in_board_order():
    rules = RULES["usa"]
    state = build_state(rules, seats=4, hands={0: {"red": 6, "locomotive": 2}})
    claims = [a for a in legal_actions(rules, state, 0) if isinstance(a, ClaimRoute)]
    order = list(rules.board.routes)
    assert [order.index(a.route) for a in claims] == sorted(order.index(a.route) for a in claims)
    assert {a.route for a in claims} == set(claimable_routes(rules, state, 0))
    # a 6 red route can be paid 6 red, 5 red + 1 loco, 4 red + 2 locos
    pays = dict(route_payments(rules, state, 0))
    six_red = [r for r in pays if (rt := rules.board.routes[r]).color == "red" and rt.length == 6]
    assert six_red
    assert list(pays[six_red[0]]) == [
        Cards(red=6),
        Cards(red=5, locomotive=1),
        Cards(red=4, locomotive=2),
    ]


def test_double_route_rules_block_the_second_track():
    rules = RULES["usa"]
    double = next(g for g in rules.board.groups.values() if len(g) == 2)
    hand = {c: 6 for c in rules.params.colors} | {LOCOMOTIVE: 4}
    mine = build_state(rules, seats=4, hands={0: hand}, owned={0: [double[0]]})
    assert double[1] not in claimable_routes(rules, mine, 0), "own double"
    theirs = build_state(rules, seats=4, hands={0: hand}, owned={1: [double[0]]})
    assert double[1] in claimable_routes(rules, theirs, 0), "4 players: both tracks usable"
    locked = build_state(rules, seats=3, hands={0: hand}, owned={1: [double[0]]})
    assert double[1] not in claimable_routes(rules, locked, 0), "3 players: one track only"
    assert_same(rules, mine, 0)
    assert_same(rules, locked, 0)


def test_pieces_limit_claims():
    rules = RULES["usa"]
    hand = {c: 6 for c in rules.params.colors} | {LOCOMOTIVE: 4}
    state = build_state(rules, seats=2, hands={0: hand}, pieces={0: 2})
    assert {rules.board.routes[r].length for r in claimable_routes(rules, state, 0)} <= {1, 2}
    assert_same(rules, state, 0)


class OnePayment(ClassicRules):
    """A rule set overriding the payment hook: only the first option of each route."""

    def payment_options(self, route, hand):
        return super().payment_options(route, hand)[:1]


def test_overridden_payment_hook_is_asked():
    from maps.loader import read_map_data

    rules = OnePayment(read_map_data("usa"))
    hand = {c: 6 for c in rules.params.colors} | {LOCOMOTIVE: 4}
    state = build_state(rules, seats=2, hands={0: hand})
    claims = [a for a in legal_actions(rules, state, 0) if isinstance(a, ClaimRoute)]
    assert len(claims) == len({a.route for a in claims})
    assert legal_actions(rules, state, 0) == legal_actions_reference(rules, state, 0)
