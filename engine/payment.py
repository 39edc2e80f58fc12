"""Which card sets can pay for a route.

One generic cost model covers every map (rulebook sections in brackets):

- a route of length L with F ferry locomotive symbols has L - F colour spaces
  and F locomotive spaces (Nordic, "Fähren");
- colour spaces take cards of one colour: the route's colour, or for a gray
  route any one colour of the player's choice (USA, "Strecken nutzen");
- a locomotive may fill any colour space where locomotives pay for the route:
  everywhere (``locomotives_pay="any"``), or on Nordic only on tunnels and
  ferries (Nordic, "Lokomotiven");
- a locomotive space takes a locomotive, or any ``ferry_locomotive_substitute``
  cards (Nordic: any 3 cards replace one locomotive);
- a route with ``substitute`` = S lets any S cards replace one colour card
  (Nordic Murmansk-Lieksa: any 4 cards).

A payment must match exactly: no card more than the spaces need.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .board import Route
from .params import RuleParams
from .types import GRAY, LOCOMOTIVE, Cards


@dataclass(frozen=True, slots=True)
class PaymentPlan:
    """How a valid payment fills a route's spaces.

    Attributes:
        color: the colour chosen for the colour spaces (None: only locomotives
            and substitutes were played, no colour card).
        locomotives: locomotives played.
        substitutes: cards played as "any N" substitutes.
    """

    color: str | None
    locomotives: int
    substitutes: int


def payment_fields(route: Route) -> tuple[int, str, bool, int, int | None]:
    """The route fields the payment rules read: ``(length, colour, tunnel, ferry
    locomotives, substitute)``. Routes equal in these pay alike (a memo key)."""
    return route.length, route.color, route.tunnel, route.locomotives, route.substitute


def locomotives_allowed(params: RuleParams, route: Route) -> bool:
    """True when locomotives may fill this route's colour spaces."""
    return params.locomotives_pay == "any" or route.tunnel or route.is_ferry


def route_colors(params: RuleParams, route: Route) -> tuple[str, ...]:
    """The colours that may fill the colour spaces: the route's own, or all deck colours for gray."""
    return params.colors if route.color == GRAY else (route.color,)


def _shapes(params: RuleParams, route: Route) -> Iterator[tuple[int, int, int, int]]:
    """Yield ``(colour cards, colour-space locomotives, ferry locomotives, any-cards)`` shapes."""
    colour_spaces = route.length - route.locomotives
    loco_ok = locomotives_allowed(params, route)
    subst = route.substitute or 0
    ferry_sub = params.ferry_locomotive_substitute or 0
    for g in range(colour_spaces + 1 if subst else 1):
        for h in range(route.locomotives + 1 if ferry_sub else 1):
            slots = colour_spaces - g
            for y in range(slots + 1 if loco_ok else 1):
                yield slots - y, y, route.locomotives - h, subst * g + ferry_sub * h


def check_payment(
    params: RuleParams, route: Route, payment: Mapping[str, int]
) -> PaymentPlan | None:
    """How ``payment`` pays for ``route``, or None when it cannot.

    Args:
        payment: colour -> count (a :class:`Cards` or dict).

    Returns a :class:`PaymentPlan`; prefers the plan with a colour card (so a tunnel
    knows its colour) and the fewest substitutes.
    """
    pay = {c: n for c, n in payment.items() if n}
    total = sum(pay.values())
    locos = pay.get(LOCOMOTIVE, 0)
    best: PaymentPlan | None = None
    for x, y, z, n_any in _shapes(params, route):
        if x + y + z + n_any != total:
            continue
        if locos < y + z:
            continue
        colours = route_colors(params, route) if x else (None,)
        for color in colours:
            have = pay.get(color, 0) if color else 0
            if color and have < x:
                continue
            rest = total - x - (y + z)
            if rest != n_any:
                continue
            if n_any == 0:
                # exact: every card is a colour card of `color` or a locomotive
                others = total - have - locos if color else total - locos
                if others or (color and have != x) or locos != y + z:
                    continue
            plan = PaymentPlan(color, y + z, n_any)
            if (
                best is None
                or (best.color is None and plan.color is not None)
                or (
                    (best.color is None) == (plan.color is None)
                    and plan.substitutes < best.substitutes
                )
            ):
                best = plan
    return best


def _submultisets(pool: Mapping[str, int], size: int) -> Iterator[dict[str, int]]:
    """All sub-multisets of ``pool`` with ``size`` cards (deterministic order)."""
    colours = sorted(c for c, n in pool.items() if n)
    remaining = [0] * (len(colours) + 1)
    for i in range(len(colours) - 1, -1, -1):
        remaining[i] = remaining[i + 1] + pool[colours[i]]
    if remaining[0] < size:
        return
    chosen: dict[str, int] = {}

    def rec(i: int, need: int) -> Iterator[dict[str, int]]:
        if need == 0:
            yield dict(chosen)
            return
        if i == len(colours) or remaining[i] < need:
            return
        c = colours[i]
        for k in range(min(pool[c], need), -1, -1):
            if k:
                chosen[c] = k
            else:
                chosen.pop(c, None)
            yield from rec(i + 1, need - k)
        chosen.pop(c, None)

    yield from rec(0, size)


def payment_options(params: RuleParams, route: Route, hand: Mapping[str, int]) -> list[Cards]:
    """Every distinct card set from ``hand`` that pays exactly for ``route``.

    Sorted: fewest locomotives first, then fewest cards, then by colour. May be
    large for substitution routes on a big hand (Nordic ferries and
    Murmansk-Lieksa); use :func:`sensible_payments` where a short list is wanted.
    """
    found: set[Cards] = set()
    locos = hand.get(LOCOMOTIVE, 0)
    for x, y, z, n_any in _shapes(params, route):
        if y + z > locos:
            continue
        colours = route_colors(params, route) if x else (None,)
        for color in colours:
            if color and hand.get(color, 0) < x:
                continue
            base: dict[str, int] = {}
            if color:
                base[color] = x
            if y + z:
                base[LOCOMOTIVE] = y + z
            if n_any == 0:
                found.add(Cards(base))
                continue
            pool = {c: n - base.get(c, 0) for c, n in hand.items()}
            for extra in _submultisets(pool, n_any):
                merged = dict(base)
                for c, n in extra.items():
                    merged[c] = merged.get(c, 0) + n
                found.add(Cards(merged))
    return sorted(found, key=lambda p: (p.get(LOCOMOTIVE), p.total, tuple(p.items())))


def sensible_payments(params: RuleParams, route: Route, hand: Mapping[str, int]) -> list[Cards]:
    """A short list of sensible payments: per colour, the fewest locomotives and substitutes.

    Substitute cards are taken from the colours the player holds most of
    (locomotives last). Every returned set is valid; an empty list means the
    player cannot pay.
    """
    out: list[Cards] = []
    locos = hand.get(LOCOMOTIVE, 0)
    colours: list[str | None] = list(route_colors(params, route)) + [None]
    for color in colours:
        have = hand.get(color, 0) if color else 0
        best: Cards | None = None
        for x, y, z, n_any in sorted(_shapes(params, route), key=lambda s: (s[3], s[1] + s[2])):
            if (color is None) != (x == 0):
                continue
            if x > have or y + z > locos:
                continue
            pay: dict[str, int] = {}
            if color:
                pay[color] = x
            if y + z:
                pay[LOCOMOTIVE] = y + z
            if n_any:
                pool = {c: n - pay.get(c, 0) for c, n in hand.items()}
                order = sorted(
                    (c for c in pool if pool[c] > 0),
                    key=lambda c: (c == LOCOMOTIVE, c == color, -pool[c], c),
                )
                need = n_any
                for c in order:
                    k = min(pool[c], need)
                    if k:
                        pay[c] = pay.get(c, 0) + k
                        need -= k
                    if not need:
                        break
                if need:
                    continue
            best = Cards(pay)
            break
        if best is not None and best not in out:
            out.append(best)
    out.sort(key=lambda p: (p.get(LOCOMOTIVE), p.total, tuple(p.items())))
    return out


def tunnel_extra(committed_color: str | None, revealed: list[str]) -> int:
    """Extra cards a tunnel costs after ``revealed`` cards are turned up (Nordic, "Tunnel").

    Each revealed card of the committed colour and each revealed locomotive costs
    one; when only locomotives were committed (``committed_color`` None), only
    revealed locomotives count.
    """
    return sum(
        1
        for c in revealed
        if c == LOCOMOTIVE or (committed_color is not None and c == committed_color)
    )


def tunnel_spare(
    committed_color: str | None, payment: Mapping[str, int], hand: Mapping[str, int]
) -> int:
    """Cards that would be left in ``hand`` after ``payment`` to pay a tunnel's extra cards:
    the committed colour's and the locomotives (only locomotives when only locomotives were
    committed, ``committed_color`` None). Up to three more may be asked (Nordic, "Tunnel");
    with none spare, any match of the revealed cards means giving the tunnel up.
    """
    locos = hand.get(LOCOMOTIVE, 0) - payment.get(LOCOMOTIVE, 0)
    if committed_color is None:
        return max(0, locos)
    return max(0, locos) + max(0, hand.get(committed_color, 0) - payment.get(committed_color, 0))


def tunnel_extra_options(
    committed_color: str | None, extra: int, hand: Mapping[str, int]
) -> list[Cards]:
    """Every way to pay ``extra`` more cards from ``hand``: the committed colour or locomotives.

    With only locomotives committed, only locomotives pay. Empty when the hand cannot pay.
    """
    locos = hand.get(LOCOMOTIVE, 0)
    if committed_color is None:
        return [Cards({LOCOMOTIVE: extra})] if locos >= extra else []
    have = hand.get(committed_color, 0)
    out = []
    for y in range(0, extra + 1):
        x = extra - y
        if x <= have and y <= locos:
            out.append(Cards({committed_color: x, LOCOMOTIVE: y}))
    return out
