"""The payment table both engines read (engine/payment_table.py), on its own.

Held to the plain payment rules (engine/payment.py) on every route of every
map with random hands, and shared for real: the value generator and the
integer core read the same kinds, caches and points.
"""

from __future__ import annotations

import random

import pytest

from engine import payment_table as pt
from engine.core import core_table
from engine.legal import _generator
from engine.payment import payment_fields, payment_options, sensible_payments
from engine.types import LOCOMOTIVE
from maps import available_maps, load_ruleset


def random_hand(rules, rng: random.Random) -> dict[str, int]:
    """A hand of 0-14 cards drawn from the map's deck (colour -> count)."""
    deck = [c for c, n in rules.params.deck.items() for _ in range(n)]
    hand: dict[str, int] = {}
    for card in rng.sample(deck, rng.randrange(15)):
        hand[card] = hand.get(card, 0) + 1
    return hand


@pytest.mark.parametrize("map_id", available_maps())
def test_kind_payments_are_the_payment_rules(map_id: str) -> None:
    """For every route and 20 random hands (plus three of every card): every payment, in
    the order of engine.payment.payment_options, and the sensible ones of sensible_payments."""
    rules = load_ruleset(map_id)
    table = pt.payment_table(rules)
    rng = random.Random(map_id)
    hands = [random_hand(rules, rng) for _ in range(20)]
    hands.append({c: 3 for c in rules.params.deck})
    for rid, _, _, kind in table.routes:
        route = rules.board.routes[rid]
        for hand in hands:
            assert pt.kind_payments(rules, kind, hand, False) == tuple(
                payment_options(rules.params, route, hand)
            ), (rid, hand)
            assert pt.kind_payments(rules, kind, hand, True) == tuple(
                sensible_payments(rules.params, route, hand)
            ), (rid, hand)


@pytest.mark.parametrize("map_id", available_maps())
def test_routes_are_grouped_by_what_the_payment_rules_read(map_id: str) -> None:
    """Every route in board order with its kind; routes share a kind exactly when their
    payment fields are equal; route points by length are the map's."""
    rules = load_ruleset(map_id)
    table = pt.payment_table(rules)
    assert [rid for rid, _, _, _ in table.routes] == list(rules.board.routes)
    by_fields: dict[object, pt.PaymentKind] = {}
    for rid, length, sibs, kind in table.routes:
        route = rules.board.routes[rid]
        assert (length, sibs) == (route.length, rules.board.siblings(rid))
        assert by_fields.setdefault(payment_fields(route), kind) is kind
        assert (table.routes.index((rid, length, sibs, kind)), rid, sibs) in kind.routes
    assert len(table.kinds) == len(by_fields)
    for length, points in enumerate(table.points):
        assert points == rules.params.route_points.get(length, 0)
    assert max(r.length for r in rules.board.routes.values()) == len(table.points) - 1


def test_both_engines_read_the_same_table() -> None:
    """One table per rule set: the value generator's kinds and the core's are the same
    objects, and the core scores a route with the table's points."""
    rules = load_ruleset("nordic")
    table = pt.payment_table(rules)
    assert pt.payment_table(rules) is table
    assert _generator(rules).payments is table
    core = core_table(rules)
    assert core.points is table.points
    kind_of = {rid: kind for rid, _, _, kind in table.routes}
    assert all(core.kinds[i] is kind_of[rid] for i, rid in enumerate(core.route_ids))


def test_the_caches_answer_equal_hands_alike_and_stay_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hands that differ only where a payment cannot look (more cards than a route takes)
    get the same cached tuple; a full cache starts afresh."""
    rules = load_ruleset("usa")
    table = pt.payment_table(rules)
    kind = next(k for k in table.kinds if k.length == 2 and k.color is None)
    kind.all.clear()
    first = pt.kind_payments(rules, kind, {"red": 2, LOCOMOTIVE: 1}, False)
    assert pt.kind_payments(rules, kind, {"red": 9, LOCOMOTIVE: 1, "blue": 0}, False) is first
    monkeypatch.setattr(pt, "CACHE_LIMIT", 3)
    for n in range(1, 6):
        pt.kind_payments(rules, kind, {"green": n % 3, "blue": n}, False)
        assert len(kind.all) <= 3
