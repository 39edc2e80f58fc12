"""What both engines read to pay for and score routes, per rule set.

The value engine's legal-move generator (:mod:`engine.legal`) and the integer
core (:mod:`engine.integer_core`) list the same claims with the same payments and
score them alike; they do so by reading this one module, built on the payment
rules of :mod:`engine.payment` (which routes a card set pays for) and the
map's :class:`engine.params.RuleParams`:

- :class:`PaymentKind`: routes the payment rules cannot tell apart (length,
  colour, tunnel, ferry locomotives, substitute: :func:`engine.payment.payment_fields`),
  with their payments per hand in bounded caches;
- :func:`kind_payments`: a kind's payments from a hand, exactly
  :func:`engine.payment.payment_options` (``sensible=False``) or
  :func:`engine.payment.sensible_payments` (``True``) in the same order, built
  fast and cached by the part of the hand that can matter;
- :class:`PaymentTable` (:func:`payment_table`, once per rule set): every route's
  kind in board order, and the points of a route by its length.

``tests/engine/test_payment_table.py`` holds these to :mod:`engine.payment`
on every route of every map. Pure: no I/O, no randomness; the caches hold
derived values only.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from .board import Route
from .payment import (
    _shapes,
    _submultisets,
    locomotives_allowed,
    payment_fields,
    route_colors,
    sensible_payments,
)
from .types import GRAY, LOCOMOTIVE, Cards

if TYPE_CHECKING:
    from .rules.classic import ClassicRules

#: Entries of all payment caches together (every kind of every rule set) before all are
#: cleared (:func:`forget_payments`); also the entries of each integer core table's claim
#: lists. Bounds memory: an entry is about 1 KB (far more for Nordic's "any N
#: cards" kinds), so about 20-40 MB in all; 100,000 per cache let a process that played hard
#: AI seats on every map grow to about 2 GiB. Emptying them changes no move.
CACHE_LIMIT = 20_000
#: Entries in all payment caches now (see :data:`CACHE_LIMIT`).
_cached = 0

#: Payments of a route, each an exact card set (see :func:`kind_payments`).
Payments = tuple[Cards, ...]

_Key = tuple[int, ...] | tuple[tuple[str, int], ...]


class PaymentKind:
    """One payment kind: routes that the payment rules cannot tell apart.

    Attributes:
        route: the first route of the kind (its payments are every route's).
        colors: the colours that may fill its colour spaces.
        color: the one colour that pays, None for gray (any one colour).
        length, spaces, ferry: cards in all, colour spaces, ferry locomotives.
        loco_ok: locomotives may fill colour spaces.
        whole_hand: "any N cards" substitutes apply, so every colour of a hand counts.
        most_cards: the most cards one payment can take.
        routes: ``(board index, route id, siblings)`` of the routes of this kind.
    """

    __slots__ = (
        "route",
        "colors",
        "color",
        "length",
        "spaces",
        "ferry",
        "loco_ok",
        "whole_hand",
        "most_cards",
        "all",
        "sensible",
        "routes",
    )

    def __init__(self, rules: ClassicRules, route: Route) -> None:
        p = rules.params
        self.route = route
        self.colors = route_colors(p, route)
        self.color: str | None = None if route.color == GRAY else route.color
        self.length = route.length
        self.spaces = route.length - route.locomotives
        self.ferry = route.locomotives
        self.loco_ok = locomotives_allowed(p, route)
        self.whole_hand = bool(
            route.substitute or (p.ferry_locomotive_substitute and route.locomotives)
        )
        self.most_cards = max(sum(shape) for shape in _shapes(p, route))
        #: the caches of :func:`kind_payments` (all payments / sensible ones)
        self.all: dict[_Key, Payments] = {}
        self.sensible: dict[_Key, Payments] = {}
        self.routes: list[tuple[int, str, tuple[str, ...]]] = []


class PaymentTable:
    """Per rule set (build it with :func:`payment_table`): routes by payment kind, points.

    Attributes:
        routes: ``(route id, length, siblings, kind)`` of every route, in board order.
        kinds: every kind, in the board order of its first route.
        points: route points by length (index: length; 0 where the map gives none).
        uncached_all, uncached_sensible: the rule set overrides ``payment_options`` /
            ``sensible_payments``, so the kinds' payments do not apply to it (ask the
            rule set per route).
    """

    __slots__ = ("routes", "kinds", "points", "uncached_all", "uncached_sensible")

    def __init__(self, rules: ClassicRules) -> None:
        from .rules.classic import ClassicRules

        board = rules.board
        found: dict[tuple[int, str, bool, int, int | None], PaymentKind] = {}
        self.routes: list[tuple[str, int, tuple[str, ...], PaymentKind]] = []
        for i, (rid, route) in enumerate(board.routes.items()):
            key = payment_fields(route)
            kind = found.get(key)
            if kind is None:
                kind = found[key] = PaymentKind(rules, route)
            sibs = board.siblings(rid)
            self.routes.append((rid, route.length, sibs, kind))
            kind.routes.append((i, rid, sibs))
        self.kinds = list(found.values())
        longest = max((r.length for r in board.routes.values()), default=0)
        self.points = [rules.params.route_points.get(n, 0) for n in range(longest + 1)]
        cls = type(rules)
        self.uncached_all = cls.payment_options is not ClassicRules.payment_options
        self.uncached_sensible = cls.sensible_payments is not ClassicRules.sensible_payments


_TABLES: weakref.WeakKeyDictionary[ClassicRules, PaymentTable] = weakref.WeakKeyDictionary()


def payment_table(rules: ClassicRules) -> PaymentTable:
    """The rule set's :class:`PaymentTable`, built on first use and kept while the rule set lives."""
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = PaymentTable(rules)
    return table


def kind_payments(
    rules: ClassicRules, kind: PaymentKind, hand: dict[str, int], sensible: bool
) -> Payments:
    """Every payment of ``kind``'s routes from ``hand`` (colour -> count).

    ``sensible=False``: exactly :func:`engine.payment.payment_options`, in its
    order; ``True``: :func:`engine.payment.sensible_payments`. The result is
    cached on the kind (at most :data:`CACHE_LIMIT` entries in all the caches
    of every rule set together, then all are started afresh), keyed by the part of the hand that can matter: for routes
    without "any N cards" substitutes only the candidate colours and the
    locomotives, each capped at the route length (a payment never uses more);
    otherwise the whole hand. Equal hands give the same tuple object.
    """
    cache = kind.sensible if sensible else kind.all
    key: _Key
    if kind.whole_hand:
        if sensible:
            # the greedy choice of sensible_payments ranks colours by their count
            key = tuple(sorted(hand.items()))
            view = hand
        else:
            cap = kind.most_cards
            key = tuple(sorted((c, min(n, cap)) for c, n in hand.items() if n))
            view = dict(key)
    else:
        cap = kind.length
        counts = [min(hand.get(c, 0), cap) for c in kind.colors]
        counts.append(min(hand.get(LOCOMOTIVE, 0), cap))
        key = tuple(counts)
        found = cache.get(key)
        if found is not None:
            return found
        view = dict(zip(kind.colors, counts, strict=False))
        view[LOCOMOTIVE] = counts[-1]
    found = cache.get(key)
    if found is None:
        if sensible:
            found = tuple(sensible_payments(rules.params, kind.route, view))
        elif kind.whole_hand:
            found = substitute_payments(rules, kind.route, view)
        else:
            found = plain_payments(kind, view)
        global _cached
        if _cached >= CACHE_LIMIT:
            forget_payments()
        cache[key] = found
        _cached += 1
    return found


def forget_payments() -> None:
    """Empty the payment caches of every rule set's table (all of them together hold
    :data:`CACHE_LIMIT` entries at the most)."""
    global _cached
    for table in list(_TABLES.values()):
        for kind in table.kinds:
            kind.all.clear()
            kind.sensible.clear()
    _cached = 0


def plain_payments(kind: PaymentKind, hand: dict[str, int]) -> Payments:
    """:func:`engine.payment.payment_options` for routes without "any N cards" substitutes.

    The same payments in the same order, built directly: x cards of one colour
    and w locomotives (ferry symbols plus the colour spaces they fill, where
    locomotives may), every card count equal to the route's length. That order
    (fewest locomotives, then by the sorted card list) is: by w, then by colour
    name; all locomotives, when possible, comes last.
    """
    locos = hand.get(LOCOMOTIVE, 0)
    spaces, ferry = kind.spaces, kind.ferry
    colours = sorted(c for c in kind.colors if hand.get(c, 0))
    out: list[Cards] = []
    for y in range(spaces + 1 if kind.loco_ok else 1):
        w = y + ferry
        if w > locos:
            break
        x = spaces - y
        if x == 0:
            out.append(Cards.from_sorted_items(((LOCOMOTIVE, w),)))
            continue
        for c in colours:
            if hand[c] >= x:
                items = ((c, x), (LOCOMOTIVE, w)) if c < LOCOMOTIVE else ((LOCOMOTIVE, w), (c, x))
                out.append(Cards.from_sorted_items(items if w else ((c, x),)))
    return tuple(out)


def substitute_payments(rules: ClassicRules, route: Route, hand: dict[str, int]) -> Payments:
    """:func:`engine.payment.payment_options` for routes with "any N cards" substitutes.

    The same payments in the same order, built as sorted item tuples and
    deduplicated before any :class:`Cards` is made (these lists run to
    hundreds on a big hand: ferries with substitutes, a substitute route).
    """
    params = rules.params
    locos = hand.get(LOCOMOTIVE, 0)
    found: set[tuple[tuple[str, int], ...]] = set()
    for x, y, z, n_any in _shapes(params, route):
        wild = y + z
        if wild > locos:
            continue
        for color in route_colors(params, route) if x else (None,):
            if color and hand.get(color, 0) < x:
                continue
            base: dict[str, int] = {}
            if color:
                base[color] = x
            if wild:
                base[LOCOMOTIVE] = wild
            if n_any == 0:
                found.add(tuple(sorted(base.items())))
                continue
            pool = {c: n - base.get(c, 0) for c, n in hand.items()}
            for extra in _submultisets(pool, n_any):
                merged = dict(base)
                for c, n in extra.items():
                    merged[c] = merged.get(c, 0) + n
                found.add(tuple(sorted(merged.items())))

    def order(items: tuple[tuple[str, int], ...]) -> tuple[int, int, tuple[tuple[str, int], ...]]:
        wild = next((n for c, n in items if c == LOCOMOTIVE), 0)
        return wild, sum(n for _, n in items), items

    return tuple(Cards.from_sorted_items(items) for items in sorted(found, key=order))


__all__ = [
    "CACHE_LIMIT",
    "forget_payments",
    "PaymentKind",
    "PaymentTable",
    "Payments",
    "kind_payments",
    "payment_table",
    "plain_payments",
    "substitute_payments",
]
