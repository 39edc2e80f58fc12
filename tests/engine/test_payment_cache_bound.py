"""The payment caches of engine.payment_table (both engines read them) are bounded all together (a process that plays
for months must not grow without end): never more than CACHE_LIMIT entries across every kind
of every rule set, and emptying them changes no legal move."""

from __future__ import annotations

import random

import pytest

import engine.payment_table as payment_table
from engine import apply, legal_actions, new_game
from engine.ai import choose_action
from engine.payment import check_payment
from engine.rules.classic import PLAN_MEMO_LIMIT
from engine.types import LOCOMOTIVE, Cards
from maps.loader import build_ruleset, load_ruleset, read_map_data
from tests.engine.reference import legal_actions_reference

MAPS = ("usa", "nordic")


def _entries() -> int:
    kinds = [kind for table in list(payment_table._TABLES.values()) for kind in table.kinds]
    return sum(len(k.all) + len(k.sensible) for k in kinds)


def test_the_caches_never_hold_more_than_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a limit of 300, games on two maps keep at most 300 entries in all the caches
    together (the count the module keeps is the true one), and they are used: they fill up
    to the limit again after each clearing."""
    monkeypatch.setattr(payment_table, "CACHE_LIMIT", 300)
    payment_table.forget_payments()
    most = 0
    for map_id in MAPS:
        rules = load_ruleset(map_id)
        st = new_game(rules, seats=3, seed=4)
        for _ in range(150):
            if st.finished:
                break
            st = apply(rules, st, choose_action(rules, st, st.seats_to_act()[0])).state
            assert _entries() == payment_table._cached <= 300
            most = max(most, _entries())
    assert most >= 250


def test_emptied_caches_give_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """With caches emptied every few entries, every legal list equals the reference generator's
    (the slow one, without caches) along random games on both maps."""
    monkeypatch.setattr(payment_table, "CACHE_LIMIT", 7)
    rng = random.Random(36)
    for map_id in MAPS:
        rules = load_ruleset(map_id)
        st = new_game(rules, seats=2, seed=9)
        for _ in range(60):
            if st.finished:
                break
            seat = st.seats_to_act()[0]
            fast = legal_actions(rules, st, seat)
            assert fast == legal_actions_reference(rules, st, seat)
            st = apply(rules, st, rng.choice(fast)).state


def test_the_payment_plan_memo_is_bounded_and_answers_as_fresh() -> None:
    """A rule set's payment_plan memo keeps at most PLAN_MEMO_LIMIT plans, game after game (a
    fresh rule set's memo, fed more distinct payments than that), and a remembered plan is
    the one a fresh check gives."""
    rules = build_ruleset(read_map_data("europe"))
    routes = list({r.length: r for r in rules.board.routes.values() if r.tunnel}.values())
    colors = [c for c in rules.params.colors if c != LOCOMOTIVE]
    asked = 0
    for route in routes:
        for color in colors:
            for n in range(13):
                for wild in range(13):
                    pay = Cards({color: n, LOCOMOTIVE: wild})
                    plan = rules.payment_plan(route, pay)
                    asked += 1
                    assert len(rules._plans) <= PLAN_MEMO_LIMIT
                    if asked % 97 == 0:
                        assert plan == check_payment(rules.params, route, pay)
    assert asked > PLAN_MEMO_LIMIT + 1000
