"""Fast legal-move generation from cheap per-call data (issue 16 point 1).

:func:`legal_actions` lists exactly the actions of :func:`legal_actions_reference`
(the generator before issue 16, kept as the slow, obvious reference), in the
same order, without building an exception per route and without enumerating
payments again for every route:

- per rule set, a table built once: routes grouped by *payment kind* (length,
  colour, tunnel, ferry locomotives, substitute: the only route fields the
  payment rules look at, :mod:`engine.payment`), the kinds grouped by the colour
  that pays them and sorted by what a hand must reach;
- per call, the hand's colour counts and locomotives pick the kinds it can
  reach (a walk that stops at the first kind out of reach, so kinds no hand of
  this size can pay are never looked at), and only their routes are tested
  against the blocking rules (taken, double-route rules, pieces; USA rules
  "Strecken nutzen", "Doppelstrecken") with plain lookups;
- per payment kind, the payments are kept in a bounded cache keyed by the kind
  and the part of the hand that can matter: for routes without "any N cards"
  substitutes only the candidate colours and the locomotives, each capped at
  the route length (a payment never uses more), and built directly
  (:func:`_plain_payments`); otherwise the whole hand.

Rule sets that override :meth:`ClassicRules.payment_options` or
``sensible_payments`` are asked per route, uncached.

Pure: no I/O, no randomness; the caches hold derived values only.
"""

from __future__ import annotations

import functools
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
    KeepTickets,
    Pass,
    PayTunnel,
)
from .board import Route
from .payment import (
    _shapes,
    _submultisets,
    locomotives_allowed,
    payment_fields,
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
        "routes",
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
        #: ``(board index, route id, siblings)`` of the routes of this kind
        self.routes: list[tuple[int, str, tuple[str, ...]]] = []


class _Table:
    """Per rule set: routes grouped by payment kind, with what the generator needs.

    ``groups`` holds the kinds by the colour that pays them (None: gray) and by
    whether locomotives may fill colour spaces, sorted so that a call can stop
    at the first kind the hand cannot reach: with locomotives allowed by length
    (colour cards plus locomotives must cover it), else by colour spaces. Kinds
    paid with "any N cards" substitutes (``whole_hand``) are tried on every call.
    Only the routes of reachable kinds are walked. Action objects are values
    (frozen), so each seat's draw actions are made once (``draws``: blind draw,
    face-up slots, ticket draw) and handed out again.
    """

    __slots__ = ("routes", "groups", "whole", "uncached_all", "uncached_sensible", "draws")

    def __init__(self, rules: ClassicRules) -> None:
        from .rules.classic import ClassicRules

        board = rules.board
        kinds: dict[tuple[int, str, bool, int, int | None], _Kind] = {}
        self.routes: list[tuple[str, int, tuple[str, ...], _Kind]] = []
        for i, (rid, route) in enumerate(board.routes.items()):
            key = payment_fields(route)
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = _Kind(rules, route)
            sibs = board.siblings(rid)
            self.routes.append((rid, route.length, sibs, kind))
            kind.routes.append((i, rid, sibs))
        grouped: dict[tuple[str | None, bool], list[_Kind]] = {}
        self.whole: list[_Kind] = []
        for kind in kinds.values():
            if kind.whole_hand:
                self.whole.append(kind)
            else:
                grouped.setdefault((kind.color, kind.loco_ok), []).append(kind)
        self.groups: list[tuple[str | None, bool, list[_Kind]]] = [
            (color, loco_ok, sorted(ks, key=lambda k: k.length if loco_ok else k.spaces))
            for (color, loco_ok), ks in grouped.items()
        ]
        cls = type(rules)
        self.uncached_all = cls.payment_options is not ClassicRules.payment_options
        self.uncached_sensible = cls.sensible_payments is not ClassicRules.sensible_payments
        self.draws: dict[
            tuple[int, int], tuple[DrawBlind, tuple[DrawFaceUp, ...], DrawTickets]
        ] = {}

    def draw_actions(
        self, seat: int, slots: int
    ) -> tuple[DrawBlind, tuple[DrawFaceUp, ...], DrawTickets]:
        """``seat``'s blind draw, face-up draws of a row of ``slots`` and plain ticket
        draw, made once and kept."""
        found = self.draws.get((seat, slots))
        if found is None:
            found = self.draws[(seat, slots)] = (
                DrawBlind(seat),
                tuple(DrawFaceUp(seat, slot) for slot in range(slots)),
                DrawTickets(seat),
            )
        return found


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
            found = _plain_payments(kind, view)
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = found
    return found


def _plain_payments(kind: _Kind, hand: dict[str, int]) -> _Payments:
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
    payment are left out. A route is claimable when it is free, the double-route
    rules allow it (USA rules, "Doppelstrecken": never both tracks, and only one
    track below the map's player count) and the seat has the pieces.
    """
    table = _table(rules)
    sensible = payments != "all"
    if sensible and table.uncached_sensible or not sensible and table.uncached_all:
        return _hooked_route_payments(rules, st, seat, sensible)
    hand = st.players[seat].hand
    owners = st.owners
    locked = st.num_seats < rules.params.double_routes_min_players
    found: list[tuple[int, str, _Payments]] = []
    for kind in _reachable_kinds(table, hand, st.players[seat].pieces):
        pays: _Payments | None = None
        for index, rid, sibs in kind.routes:
            if rid in owners:
                continue
            for sib in sibs:
                owner = owners.get(sib)
                if owner is not None and (locked or owner == seat):
                    break
            else:
                if pays is None:
                    pays = _payments(rules, kind, hand, sensible)
                    if not pays:
                        break
                found.append((index, rid, pays))
    found.sort()
    return [(rid, pays) for _, rid, pays in found]


def _reachable_kinds(table: _Table, hand: dict[str, int], pieces: int) -> list[_Kind]:
    """The payment kinds ``hand`` may pay with ``pieces`` left (a superset of the payable).

    A payment (without "any N cards" substitutes) is x cards of one colour plus
    y locomotives on the colour spaces, where locomotives may fill them, plus
    one locomotive per ferry symbol; a route needs its length in pieces and cards.
    """
    locos = hand.get(LOCOMOTIVE, 0)
    most = max((n for c, n in hand.items() if c != LOCOMOTIVE), default=0)
    limit = min(pieces, sum(hand.values()))
    reachable: list[_Kind] = []
    for color, loco_ok, kinds in table.groups:
        have = most if color is None else hand.get(color, 0)
        if loco_ok:
            reach = min(have + locos, limit)
            for kind in kinds:
                if kind.length > reach:
                    break
                if locos >= kind.ferry:
                    reachable.append(kind)
        else:
            for kind in kinds:
                if kind.spaces > have:
                    break
                if kind.length <= limit and locos >= kind.ferry:
                    reachable.append(kind)
    reachable.extend(kind for kind in table.whole if kind.length <= limit)
    return reachable


def _hooked_route_payments(
    rules: ClassicRules, st: GameState, seat: int, sensible: bool
) -> list[tuple[str, Sequence[Cards]]]:
    """:func:`route_payments` for rule sets that override a payment hook: asked per route."""
    hand = st.players[seat].hand
    hook: Callable[[Route, dict[str, int]], list[Cards]] = (
        rules.sensible_payments if sensible else rules.payment_options
    )
    board_routes = rules.board.routes
    out: list[tuple[str, Sequence[Cards]]] = []
    for rid, _sibs, _kind in _open_routes(rules, st, seat):
        pays = hook(board_routes[rid], hand)
        if pays:
            out.append((rid, pays))
    return out


def claimable_routes(rules: ClassicRules, st: GameState, seat: int) -> list[str]:
    """Route ids ``seat`` could claim now with its own cards (ignores whose turn it is)."""
    return [rid for rid, _ in route_payments(rules, st, seat, payments="sensible")]


# ------------------------------------------------------------------ small shared helpers
def can_draw_blind(st: GameState) -> bool:
    """True when the deck or the discard has a card (the discard is reshuffled when needed)."""
    return bool(st.deck or st.discard)


def face_up_ok(rules: ClassicRules, st: GameState, slot: int) -> bool:
    """True when the active seat may take face-up ``slot`` now (USA rules, "Wagenkarten")."""
    if not 0 <= slot < len(st.face_up):
        return False
    card = st.face_up[slot]
    return card is not None and card != _barred_face_up(rules, st)


def _barred_face_up(rules: ClassicRules, st: GameState) -> str | None:
    """The face-up card the active seat may not take now: a locomotive as the second
    card where the map restricts it (USA rules, "Wagenkarten"), else None."""
    if st.cards_drawn == 1 and rules.params.face_up_wild_restricted:
        return LOCOMOTIVE
    return None


def tickets_left(st: GameState) -> int:
    """Tickets left over all ticket decks."""
    return sum(len(d) for d in st.ticket_decks.values())


def ticket_mixes(st: GameState, count: int) -> list[tuple[tuple[str, int], ...]]:
    """Every legal mix of ``count`` tickets (fewer if fewer are left) over the ticket decks."""
    sizes = tuple((name, min(len(deck), count)) for name, deck in st.ticket_decks.items())
    return list(_mixes(sizes, count))


@functools.lru_cache(maxsize=1024)
def _mixes(
    sizes: tuple[tuple[str, int], ...], count: int
) -> tuple[tuple[tuple[str, int], ...], ...]:
    """:func:`ticket_mixes` for decks of these ``(name, size)`` (sizes capped at ``count``)."""
    want = min(count, sum(n for _, n in sizes))
    out: list[tuple[tuple[str, int], ...]] = []

    def rec(i: int, left: int, acc: list[tuple[str, int]]) -> None:
        if i == len(sizes):
            if left == 0:
                out.append(tuple(e for e in acc if e[1]))
            return
        name, size = sizes[i]
        for n in range(min(left, size) + 1):
            rec(i + 1, left - n, [*acc, (name, n)])

    rec(0, want, [])
    return tuple(out)


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
    blind, face_up, plain_tickets = _table(rules).draw_actions(seat, len(st.face_up))
    out: list[Action] = [blind] if can_draw_blind(st) else []
    barred = _barred_face_up(rules, st)  # face_up_ok for every slot at once
    out += [a for a, c in zip(face_up, st.face_up, strict=True) if c is not None and c != barred]
    if st.step == "second_card":
        return out
    for rid, pays in route_payments(rules, st, seat, payments=payments):
        out.extend([ClaimRoute(seat, rid, pay) for pay in pays])
    out.extend(rules.turn_actions(st, seat))
    if tickets_left(st):
        deal = rules.params.draw_tickets
        if deal.announce_mix:
            out.extend(DrawTickets(seat, mix) for mix in ticket_mixes(st, deal.count))
        else:
            out.append(plain_tickets)
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
    extra cards, a decision of the rule set's own); empty outside such a step. Shared by
    both generators."""
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
    return rules.step_actions(st, seat)


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
    out.extend(rules.turn_actions(st, seat))
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
