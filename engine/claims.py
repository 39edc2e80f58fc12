"""Claims as a person chooses them: per route a short, ordered list of payments, built directly.

:func:`engine.legal.legal_actions` lists every exact payment as its own
action. On Nordic's ferries ("any 3 cards replace a locomotive", Nordic
rulebook, "Fähren") that number explodes with the hand: 4 cards of each kind
give about 145,000 legal moves, 5 of each 2.3 million. A menu needs few, so
this module never enumerates them all:

- :func:`payment_choices` builds, per payment shape of the route (colour
  cards, locomotives, "any N" substitutes; :func:`engine.payment._shapes`) and
  per colour, one payment whose substitutes keep the hand's sets together
  (taken from the smallest piles first, locomotives last), then adds the first
  two exact payments of a lazy walk, so that the list has two entries whenever
  two exact payments exist. Bounded by shapes x colours, whatever the hand.
- :func:`payment_key` orders them as a player would: fewest locomotives, then
  fewest cards, then the payment that keeps the hand's sets together (the
  largest piles left as large as possible).
- :func:`count_payments` counts exact payments up to a bound, lazily.

Every payment returned pays the route exactly (:func:`engine.payment.check_payment`
holds); the reducer still validates the one chosen. Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .board import Route
from .params import RuleParams
from .payment import _shapes, _submultisets, route_colors
from .types import LOCOMOTIVE, Cards

#: Payments offered per route at most (a menu shows them as buttons).
MAX_CHOICES = 15


def payment_key(payment: Mapping[str, int], hand: Mapping[str, int]) -> tuple[object, ...]:
    """How good a payment is for a player holding ``hand`` (smaller is better): fewest
    locomotives, fewest cards, then the one that keeps the hand's sets together (the colour
    piles left, largest first, as large as can be: a pile that fits the route is used
    before a big one is split, odd cards go before a set is broken), then by the cards
    (deterministic)."""
    left = sorted(
        (n - payment.get(c, 0) for c, n in hand.items() if c != LOCOMOTIVE and n), reverse=True
    )
    return (
        payment.get(LOCOMOTIVE, 0),
        sum(payment.values()),
        tuple(-n for n in left),
        tuple(sorted((c, n) for c, n in payment.items() if n)),
    )


def _with_substitutes(base: dict[str, int], hand: Mapping[str, int], need: int) -> Cards | None:
    """``base`` plus ``need`` "any" cards from what ``hand`` has left, the smallest piles
    first and locomotives last (so the sets the player collects stay whole); None when the
    hand has too few cards left."""
    pool = {c: n - base.get(c, 0) for c, n in hand.items() if n - base.get(c, 0) > 0}
    pay = dict(base)
    for c in sorted(pool, key=lambda c: (c == LOCOMOTIVE, pool[c], c)):
        take = min(pool[c], need)
        if take:
            pay[c] = pay.get(c, 0) + take
            need -= take
        if not need:
            break
    return None if need else Cards(pay)


def _bases(
    params: RuleParams, route: Route, hand: Mapping[str, int]
) -> Iterator[tuple[dict[str, int], int]]:
    """Per shape and colour of ``route`` that ``hand`` can start: the coloured cards and
    locomotives it takes, and how many "any" cards must still be added to them."""
    locos = hand.get(LOCOMOTIVE, 0)
    for x, y, z, n_any in _shapes(params, route):
        if y + z > locos:
            continue
        for color in route_colors(params, route) if x else (None,):
            if color is not None and hand.get(color, 0) < x:
                continue
            base: dict[str, int] = {}
            if color is not None:
                base[color] = x
            if y + z:
                base[LOCOMOTIVE] = y + z
            yield base, n_any


def _shaped(params: RuleParams, route: Route, hand: Mapping[str, int]) -> Iterator[Cards]:
    """One payment per shape and colour of ``route`` that ``hand`` can make."""
    for base, n_any in _bases(params, route, hand):
        pay = _with_substitutes(base, hand, n_any) if n_any else Cards(base)
        if pay is not None:
            yield pay


def exact_payments(params: RuleParams, route: Route, hand: Mapping[str, int]) -> Iterator[Cards]:
    """Every exact payment of ``route`` from ``hand``, lazily, each once (the set of
    :func:`engine.payment.payment_options`, in shape order). Take only what you need: on
    substitution routes with a big hand there are millions."""
    seen: set[Cards] = set()
    for base, n_any in _bases(params, route, hand):
        if not n_any:
            extras: Iterator[dict[str, int]] = iter(({},))
        else:
            extras = _submultisets({c: n - base.get(c, 0) for c, n in hand.items()}, n_any)
        for extra in extras:
            merged = dict(base)
            for c, n in extra.items():
                merged[c] = merged.get(c, 0) + n
            pay = Cards(merged)
            if pay not in seen:
                seen.add(pay)
                yield pay


def count_payments(
    params: RuleParams, route: Route, hand: Mapping[str, int], *, most: int = 2
) -> int:
    """The number of exact payments of ``route`` from ``hand``, counted up to ``most``."""
    count = 0
    for _ in exact_payments(params, route, hand):
        count += 1
        if count >= most:
            break
    return count


def payment_choices(
    params: RuleParams, route: Route, hand: Mapping[str, int], *, limit: int = MAX_CHOICES
) -> tuple[Cards, ...]:
    """A short list of the ways ``hand`` can pay exactly for ``route``, best first
    (:func:`payment_key`), at most ``limit``; empty when it cannot pay.

    One payment per shape and colour (substitutes keep sets together), plus the first two
    of :func:`exact_payments`: so the list has one entry exactly when one exact payment
    exists, and at least two otherwise. The work is bounded by the route's shapes and the
    deck's colours, never by the number of exact payments.
    """
    found = set(_shaped(params, route, hand))
    for i, pay in enumerate(exact_payments(params, route, hand)):
        found.add(pay)
        if i >= 1:
            break
    return tuple(sorted(found, key=lambda p: payment_key(p, hand))[: max(1, limit)])


__all__ = [
    "MAX_CHOICES",
    "count_payments",
    "exact_payments",
    "payment_choices",
    "payment_key",
]
