"""Fast legal-move generation from cheap per-call data (issue 16 point 1).

:func:`legal_actions` lists exactly the actions of :func:`legal_actions_reference`
(the generator before issue 16, kept as the slow, obvious reference), in the
same order, without building an exception per route and without enumerating
payments again for every route:

- per rule set, a table built once: each route's siblings, length and
  *payment kind* (length, colour, tunnel, ferry locomotives, substitute), the
  only route fields the payment rules look at (:mod:`engine.payment`);
- per call, the blocking rules (taken, double-route rules, pieces; USA rules
  "Strecken nutzen", "Doppelstrecken") are tested with plain lookups;
- per payment kind, the payments are computed once per call and kept in a
  bounded cache keyed by the kind and the part of the hand that can matter:
  for routes without "any N cards" substitutes only the candidate colours and
  the locomotives, each capped at the route length (a payment never uses more);
  otherwise the whole hand.

Rule sets that override :meth:`ClassicRules.payment_options` or
``sensible_payments`` are asked per route, uncached.

Pure: no I/O, no randomness; the caches hold derived values only.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from .actions import (
    AbandonTunnel,
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepFlagCard,
    KeepTickets,
    Pass,
    PayTunnel,
)
from .board import Route
from .payment import (
    _shapes,
    _submultisets,
    locomotives_allowed,
    payment_options,
    route_colors,
    sensible_payments,
    tunnel_extra_options,
)
from .state import GameState
from .types import GRAY, LOCOMOTIVE, Cards

if TYPE_CHECKING:
    from .rules.classic import ClassicRules

#: Entries per payment cache before it is cleared (bounds memory; about 100 bytes each).
CACHE_LIMIT = 100_000

_Payments = tuple[Cards, ...]


class _Kind:
    """One payment kind: routes that the payment rules cannot tell apart."""

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
    )

    def __init__(self, rules: ClassicRules, route: Route) -> None:
        p = rules.params
        self.route = route
        self.colors = route_colors(p, route)
        #: the one colour that pays, None for gray (any colour)
        self.color: str | None = None if route.color == GRAY else route.color
        self.length = route.length
        self.spaces = route.length - route.locomotives
        self.ferry = route.locomotives
        self.loco_ok = locomotives_allowed(p, route)
        # "any N cards" shapes look at every colour of the hand
        self.whole_hand = bool(
            route.substitute or (p.ferry_locomotive_substitute and route.locomotives)
        )
        #: the most cards a payment can take (no colour of the hand counts beyond it)
        self.most_cards = max(sum(shape) for shape in _shapes(p, route))
        self.all: dict[tuple[int, ...] | tuple[tuple[str, int], ...], _Payments] = {}
        self.sensible: dict[tuple[int, ...] | tuple[tuple[str, int], ...], _Payments] = {}


class _Table:
    """Per rule set: routes in board order with what the generator needs."""

    __slots__ = ("routes", "uncached_all", "uncached_sensible")

    def __init__(self, rules: ClassicRules) -> None:
        from .rules.classic import ClassicRules

        board = rules.board
        kinds: dict[tuple[object, ...], _Kind] = {}
        self.routes: list[tuple[str, int, tuple[str, ...], _Kind]] = []
        for rid, route in board.routes.items():
            key = (route.length, route.color, route.tunnel, route.locomotives, route.substitute)
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = _Kind(rules, route)
            self.routes.append((rid, route.length, board.siblings(rid), kind))
        cls = type(rules)
        self.uncached_all = cls.payment_options is not ClassicRules.payment_options
        self.uncached_sensible = cls.sensible_payments is not ClassicRules.sensible_payments


_TABLES: weakref.WeakKeyDictionary[ClassicRules, _Table] = weakref.WeakKeyDictionary()


def _table(rules: ClassicRules) -> _Table:
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = _Table(rules)
    return table


def _payments(rules: ClassicRules, kind: _Kind, hand: dict[str, int], sensible: bool) -> _Payments:
    """The payments of ``kind`` from ``hand`` (``payment_options`` or ``sensible_payments``)."""
    cache = kind.sensible if sensible else kind.all
    key: tuple[int, ...] | tuple[tuple[str, int], ...]
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
            found = _substitute_payments(rules, kind.route, view)
        else:
            found = tuple(payment_options(rules.params, kind.route, view))
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = found
    return found


def _substitute_payments(rules: ClassicRules, route: Route, hand: dict[str, int]) -> _Payments:
    """:func:`engine.payment.payment_options` for routes with "any N cards" substitutes.

    The same payments in the same order, built as sorted item tuples and
    deduplicated before any :class:`Cards` is made (these lists run to
    hundreds on a big hand: Nordic ferries, Murmansk-Lieksa).
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


def _open_routes(
    rules: ClassicRules, st: GameState, seat: int
) -> Iterator[tuple[str, tuple[str, ...], _Kind]]:
    """Routes ``seat`` may claim whatever its cards: free, double rules kept, pieces enough.

    Yields ``(route id, siblings, payment kind)`` in board order.
    """
    owners = st.owners
    pieces = st.players[seat].pieces
    locked = st.num_seats < rules.params.double_routes_min_players
    for rid, length, sibs, kind in _table(rules).routes:
        if length > pieces or rid in owners:
            continue
        blocked = False
        for sib in sibs:
            owner = owners.get(sib)
            if owner is not None and (locked or owner == seat):
                blocked = True
                break
        if not blocked:
            yield rid, sibs, kind


def route_payments(
    rules: ClassicRules, st: GameState, seat: int, *, payments: str = "all"
) -> list[tuple[str, Sequence[Cards]]]:
    """``(route id, payments)`` for every route ``seat`` could claim now with its cards.

    Ignores whose turn it is. Routes in board order; payments in the order of
    :func:`engine.payment.payment_options` (``payments="all"``) or
    :func:`engine.payment.sensible_payments` (``"sensible"``); routes without a
    payment are left out.
    """
    table = _table(rules)
    sensible = payments != "all"
    hand = st.players[seat].hand
    uncached = table.uncached_sensible if sensible else table.uncached_all
    hook: Callable[[Route, dict[str, int]], list[Cards]] = (
        rules.sensible_payments if sensible else rules.payment_options
    )
    board_routes = rules.board.routes
    locos = hand.get(LOCOMOTIVE, 0)
    most = max((n for c, n in hand.items() if c != LOCOMOTIVE), default=0)
    total = sum(hand.values())
    out: list[tuple[str, Sequence[Cards]]] = []
    seen: dict[_Kind, _Payments] = {}
    for rid, _sibs, kind in _open_routes(rules, st, seat):
        if uncached:
            pays: Sequence[Cards] = hook(board_routes[rid], hand)
        else:
            found = seen.get(kind)
            if found is None:
                if total >= kind.length and (kind.whole_hand or _may_pay(kind, hand, locos, most)):
                    found = _payments(rules, kind, hand, sensible)
                else:
                    found = ()
                seen[kind] = found
            pays = found
        if pays:
            out.append((rid, pays))
    return out


def _may_pay(kind: _Kind, hand: dict[str, int], locos: int, most: int) -> bool:
    """False when no payment exists (a route without "any N cards" substitutes).

    Such a payment is x cards of one colour plus y locomotives on the colour
    spaces (only where locomotives pay there) plus one locomotive per ferry
    symbol, x + y = colour spaces.
    """
    if locos < kind.ferry:
        return False
    colour = most if kind.color is None else hand.get(kind.color, 0)
    spare = locos - kind.ferry if kind.loco_ok else 0
    return colour + spare >= kind.spaces


def claimable_routes(rules: ClassicRules, st: GameState, seat: int) -> list[str]:
    """Route ids ``seat`` could claim now with its own cards (ignores whose turn it is)."""
    return [rid for rid, _ in route_payments(rules, st, seat, payments="sensible")]


# ------------------------------------------------------------------ small shared helpers
def can_draw_blind(st: GameState) -> bool:
    """True when the deck or the discard has a card (the discard is reshuffled when needed)."""
    return bool(st.deck or st.discard)


def face_up_ok(rules: ClassicRules, st: GameState, slot: int) -> bool:
    """True when the active seat may take face-up ``slot`` now (USA rules, "Wagenkarten")."""
    if not 0 <= slot < len(st.face_up) or st.face_up[slot] is None:
        return False
    if (
        st.cards_drawn == 1
        and st.face_up[slot] == LOCOMOTIVE
        and rules.params.face_up_wild_restricted
    ):
        return False
    return True


def tickets_left(st: GameState) -> int:
    """Tickets left over all ticket decks."""
    return sum(len(d) for d in st.ticket_decks.values())


def ticket_mixes(st: GameState, count: int) -> list[tuple[tuple[str, int], ...]]:
    """Every legal mix of ``count`` tickets (fewer if fewer are left) over the ticket decks."""
    names = list(st.ticket_decks)
    want = min(count, tickets_left(st))
    out: list[tuple[tuple[str, int], ...]] = []

    def rec(i: int, left: int, acc: list[tuple[str, int]]) -> None:
        if i == len(names):
            if left == 0:
                out.append(tuple(e for e in acc if e[1]))
            return
        for n in range(min(left, len(st.ticket_decks[names[i]])) + 1):
            rec(i + 1, left - n, [*acc, (names[i], n)])

    rec(0, want, [])
    return out


def keep_options(offer: Sequence[str], keep: int) -> Iterator[tuple[str, ...]]:
    """Every choice of at least ``keep`` (all when fewer are offered) of ``offer``, in order."""
    need = min(keep, len(offer))
    for k in range(need, len(offer) + 1):
        yield from combinations(offer, k)


# ------------------------------------------------------------------ generators
def _setup_actions(rules: ClassicRules, st: GameState, seat: int) -> list[Action]:
    player = st.players[seat]
    deal = rules.params.initial_tickets
    if player.needs_mix:
        return [DrawTickets(seat, mix) for mix in ticket_mixes(st, deal.count)]
    if player.offer:
        return [KeepTickets(seat, t) for t in keep_options(player.offer, deal.keep)]
    return []


def _turn_actions(rules: ClassicRules, st: GameState, seat: int, payments: str) -> list[Action]:
    """Draws, then claims (routes in board order), then tickets; Pass when nothing else."""
    out: list[Action] = []
    if can_draw_blind(st):
        out.append(DrawBlind(seat))
    out.extend(DrawFaceUp(seat, s) for s in range(len(st.face_up)) if face_up_ok(rules, st, s))
    if st.step == "second_card":
        return out
    for rid, pays in route_payments(rules, st, seat, payments=payments):
        out.extend(ClaimRoute(seat, rid, pay) for pay in pays)
    if tickets_left(st):
        deal = rules.params.draw_tickets
        if deal.announce_mix:
            out.extend(DrawTickets(seat, mix) for mix in ticket_mixes(st, deal.count))
        else:
            out.append(DrawTickets(seat))
    if not out:
        out.append(Pass(seat))
    return out


def legal_actions(
    rules: ClassicRules, state: GameState, seat: int, *, payments: str = "all"
) -> list[Action]:
    """Every action ``seat`` may take now (empty when it is not this seat's move).

    Same list, in the same order, as :func:`legal_actions_reference`; Resign is
    not listed (see :func:`engine.reducer.can_resign`).

    Args:
        payments: ``"all"`` lists a claim once per distinct exact payment (can
            be many on Nordic substitution routes); ``"sensible"`` lists only the
            rule set's ``sensible_payments`` per route (a subset; used by AIs).
    """
    st = state
    if st.phase == "finished" or not 0 <= seat < st.num_seats:
        return []
    if st.phase == "setup":
        return _setup_actions(rules, st, seat)
    if seat != st.active:
        return []
    if st.step in ("turn", "second_card"):
        return _turn_actions(rules, st, seat, payments)
    return _choice_actions(rules, st, seat)


def _choice_actions(rules: ClassicRules, st: GameState, seat: int) -> list[Action]:
    """The answers to a pending choice of the active ``seat`` (tickets to keep, a tunnel's
    extra cards, Paris's flag card); empty outside such a step. Shared by both generators."""
    step = st.step
    player = st.players[seat]
    if step == "keep_tickets":
        return [
            KeepTickets(seat, t) for t in keep_options(player.offer, rules.params.draw_tickets.keep)
        ]
    if step == "tunnel" and st.tunnel is not None:
        tun = st.tunnel
        out: list[Action] = [
            PayTunnel(seat, e) for e in tunnel_extra_options(tun.color, tun.extra, player.hand)
        ]
        out.append(AbandonTunnel(seat))
        return out
    if step == "flag":
        return [*(KeepFlagCard(seat, c) for c in st.flag_colors), KeepFlagCard(seat, None)]
    return []


def legal_actions_reference(
    rules: ClassicRules, state: GameState, seat: int, *, payments: str = "all"
) -> list[Action]:
    """The generator before issue 16: slow and obvious, a reference for tests.

    Tests every route with the claim validation of :func:`engine.reducer.apply`
    (which builds an :class:`engine.errors.IllegalAction` per blocked route) and
    enumerates payments with the rule set's hooks for every route, uncached.
    Same arguments and result as :func:`legal_actions`.
    """
    st = state
    if st.phase == "finished" or not 0 <= seat < st.num_seats:
        return []
    if st.phase == "setup":
        return _setup_actions(rules, st, seat)
    if seat != st.active:
        return []
    if st.step in ("turn", "second_card"):
        return _reference_turn(rules, st, seat, payments)
    return _choice_actions(rules, st, seat)


def _reference_turn(rules: ClassicRules, st: GameState, seat: int, payments: str) -> list[Action]:
    from .reducer import _route_blocker

    player = st.players[seat]
    p = rules.params
    out: list[Action] = []
    if can_draw_blind(st):
        out.append(DrawBlind(seat))
    for slot in range(len(st.face_up)):
        if face_up_ok(rules, st, slot):
            out.append(DrawFaceUp(seat, slot))
    if st.step == "second_card":
        return out
    for rid, route in rules.board.routes.items():
        if _route_blocker(rules, st, seat, rid) is None:
            pays = rules.payment_options if payments == "all" else rules.sensible_payments
            for pay in pays(route, player.hand):
                out.append(ClaimRoute(seat, rid, pay))
    if tickets_left(st):
        if p.draw_tickets.announce_mix:
            out.extend(DrawTickets(seat, mix) for mix in ticket_mixes(st, p.draw_tickets.count))
        else:
            out.append(DrawTickets(seat))
    if not out:
        out.append(Pass(seat))
    return out


__all__ = [
    "CACHE_LIMIT",
    "can_draw_blind",
    "claimable_routes",
    "face_up_ok",
    "keep_options",
    "legal_actions",
    "legal_actions_reference",
    "route_payments",
    "ticket_mixes",
    "tickets_left",
]
