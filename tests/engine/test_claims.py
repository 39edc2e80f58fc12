"""Payment choices for people: short, ordered, exact, and bounded whatever the hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import LOCOMOTIVE, Cards, ClassicRules, claims
from engine.claims import MAX_CHOICES, count_payments, payment_choices, payment_key
from engine.payment import _submultisets, check_payment, payment_options
from maps import available_maps, load_ruleset


def _hand(rules: ClassicRules, rng: random.Random, most: int) -> dict[str, int]:
    colors = [*rules.params.colors, LOCOMOTIVE]
    return {c: rng.randint(0, most) for c in colors}


@pytest.mark.parametrize("map_id", sorted(available_maps()))
def test_choices_are_exact_payments_and_one_means_one(map_id: str) -> None:
    """On small random hands: every choice pays exactly (the rules' own check) and is one of
    the engine's payments; the list has one entry exactly when one payment exists, else at
    least two; the first spends the fewest locomotives of them all."""
    rules = load_ruleset(map_id)
    rng = random.Random(map_id)
    checked = singles = several = 0
    for _ in range(40):
        hand = _hand(rules, rng, 3)
        for route in rules.board.routes.values():
            every = payment_options(rules.params, route, hand)
            choices = payment_choices(rules.params, route, hand)
            assert set(choices) <= set(every), (route.id, hand)
            for pay in choices:
                assert check_payment(rules.params, route, pay) is not None, (route.id, pay)
            if not every:
                assert choices == ()
                continue
            checked += 1
            assert (len(choices) == 1) == (len(every) == 1), (route.id, hand, choices)
            assert count_payments(rules.params, route, hand) == min(2, len(every))
            singles += len(every) == 1
            several += len(every) > 1
            fewest = min(p.get(LOCOMOTIVE, 0) for p in every)
            assert choices[0].get(LOCOMOTIVE, 0) == fewest
            assert list(choices) == sorted(choices, key=lambda p: payment_key(p, hand))
    assert checked and singles and several


def test_sets_stay_together() -> None:
    """A gray route is paid from the set that fits it whole before a bigger set is split, and
    Nordic's ferry substitutes come from the smallest piles."""
    usa = load_ruleset("usa")
    gray2 = next(r for r in usa.board.routes.values() if r.color == "gray" and r.length == 2)
    first = payment_choices(usa.params, gray2, {"red": 5, "blue": 2, "green": 3})[0]
    assert first == Cards(blue=2)
    nordic = load_ruleset("nordic")
    ferry = next(r for r in nordic.board.routes.values() if r.locomotives == 1 and r.length == 2)
    hand = {"red": 4, "blue": 4, "green": 1, "yellow": 2}
    first = payment_choices(nordic.params, ferry, hand)[0]
    assert first.get(LOCOMOTIVE) == 0 and first.total == 4, first
    assert first.get("green") == 1 and first.get("yellow") == 2, first


@pytest.mark.parametrize("each", [4, 5, 9])
def test_a_big_nordic_hand_is_bounded(each: int) -> None:
    """With 4, 5 or 9 cards of every kind (145,000 and 2.3 million exact payments for the
    first two): at most MAX_CHOICES per route, and the walk for them touches at most a few
    exact payments per route (counted, not timed)."""
    rules = load_ruleset("nordic")
    hand = {c: each for c in [*rules.params.colors, LOCOMOTIVE]}
    walked = 0

    def counted(pool: dict[str, int], size: int) -> Iterator[dict[str, int]]:
        nonlocal walked
        for extra in _submultisets(pool, size):
            walked += 1
            yield extra

    payable = 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(claims, "_submultisets", counted)
        for route in rules.board.routes.values():
            choices = payment_choices(rules.params, route, hand)
            assert len(choices) <= MAX_CHOICES
            payable += bool(choices)
            assert count_payments(rules.params, route, hand, most=3) <= 3
    assert payable > len(rules.board.routes) // 2
    assert 0 < walked <= 10 * len(rules.board.routes), walked
