"""Fast legal-move generation from cheap per-call data.

:func:`legal_actions` lists exactly the actions of the plain generator it replaced
(kept under ``tests/engine/reference.py`` as the slow, obvious reference), in the
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
from .errors import IllegalAction
from .payment import tunnel_extra_options
from .payment_table import PaymentKind, Payments, kind_payments, payment_table
from .state import GameState
from .types import LOCOMOTIVE, Cards

if TYPE_CHECKING:
    from .rules.classic import ClassicRules


class _Generator:
    """Per rule set: what the generator adds to the shared :class:`PaymentTable`.

    ``groups`` holds the payment kinds by the colour that pays them (None: gray)
    and by whether locomotives may fill colour spaces, sorted so that a call can
    stop at the first kind the hand cannot reach: with locomotives allowed by
    length (colour cards plus locomotives must cover it), else by colour spaces.
    Kinds paid with "any N cards" substitutes (``whole``) are tried on every
    call. Only the routes of reachable kinds are walked. Action objects are
    values (frozen), so each seat's draw actions are made once (``draws``: blind
    draw, face-up slots, ticket draw) and handed out again.
    """

    __slots__ = ("payments", "groups", "whole", "draws")

    def __init__(self, rules: ClassicRules) -> None:
        self.payments = payment_table(rules)
        grouped: dict[tuple[str | None, bool], list[PaymentKind]] = {}
        self.whole: list[PaymentKind] = []
        for kind in self.payments.kinds:
            if kind.whole_hand:
                self.whole.append(kind)
            else:
                grouped.setdefault((kind.color, kind.loco_ok), []).append(kind)
        self.groups: list[tuple[str | None, bool, list[PaymentKind]]] = [
            (color, loco_ok, sorted(ks, key=lambda k: k.length if loco_ok else k.spaces))
            for (color, loco_ok), ks in grouped.items()
        ]
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


_GENERATORS: weakref.WeakKeyDictionary[ClassicRules, _Generator] = weakref.WeakKeyDictionary()


def _generator(rules: ClassicRules) -> _Generator:
    found = _GENERATORS.get(rules)
    if found is None:
        found = _GENERATORS[rules] = _Generator(rules)
    return found


def _open_routes(
    rules: ClassicRules, st: GameState, seat: int
) -> Iterator[tuple[str, tuple[str, ...], PaymentKind]]:
    """Routes ``seat`` may claim whatever its cards: free, double rules kept, pieces enough.

    Yields ``(route id, siblings, payment kind)`` in board order.
    """
    owners = st.owners
    pieces = st.players[seat].pieces
    locked = st.num_seats < rules.params.double_routes_min_players
    for rid, length, sibs, kind in payment_table(rules).routes:
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
    table = _generator(rules)
    sensible = payments != "all"
    shared = table.payments
    if sensible and shared.uncached_sensible or not sensible and shared.uncached_all:
        return _hooked_route_payments(rules, st, seat, sensible)
    hand = st.players[seat].hand
    owners = st.owners
    locked = st.num_seats < rules.params.double_routes_min_players
    found: list[tuple[int, str, Payments]] = []
    for kind in _reachable_kinds(table, hand, st.players[seat].pieces):
        pays: Payments | None = None
        for index, rid, sibs in kind.routes:
            if rid in owners:
                continue
            for sib in sibs:
                owner = owners.get(sib)
                if owner is not None and (locked or owner == seat):
                    break
            else:
                if pays is None:
                    pays = kind_payments(rules, kind, hand, sensible)
                    if not pays:
                        break
                found.append((index, rid, pays))
    found.sort()
    return [(rid, pays) for _, rid, pays in found]


def _reachable_kinds(table: _Generator, hand: dict[str, int], pieces: int) -> list[PaymentKind]:
    """The payment kinds ``hand`` may pay with ``pieces`` left (a superset of the payable).

    A payment (without "any N cards" substitutes) is x cards of one colour plus
    y locomotives on the colour spaces, where locomotives may fill them, plus
    one locomotive per ferry symbol; a route needs its length in pieces and cards.
    """
    locos = hand.get(LOCOMOTIVE, 0)
    most = max((n for c, n in hand.items() if c != LOCOMOTIVE), default=0)
    limit = min(pieces, sum(hand.values()))
    reachable: list[PaymentKind] = []
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
def route_blocker(
    rules: ClassicRules, st: GameState, seat: int, route_id: str
) -> IllegalAction | None:
    """Why ``seat`` may not claim ``route_id`` whatever its cards, or None: an unknown
    route, a taken one, the double-route rules (base rules, "Doppelstrecken": never both
    tracks, and only one below the map's player count), too few pieces. Used by
    :func:`engine.reducer.apply` and the reference generator."""
    board = rules.board
    if route_id not in board.routes:
        return IllegalAction("unknown_route", {"route": route_id})
    if route_id in st.owners:
        return IllegalAction("route_taken", {"route": route_id, "owner": st.owners[route_id]})
    for sib in board.siblings(route_id):
        owner = st.owners.get(sib)
        if owner is None:
            continue
        if owner == seat:
            return IllegalAction("double_route_own", {"route": route_id, "sibling": sib})
        if st.num_seats < rules.params.double_routes_min_players:
            return IllegalAction(
                "double_route_locked",
                {
                    "route": route_id,
                    "sibling": sib,
                    "min_players": rules.params.double_routes_min_players,
                },
            )
    route = board.routes[route_id]
    if st.players[seat].pieces < route.length:
        return IllegalAction(
            "not_enough_pieces",
            {"route": route_id, "need": route.length, "have": st.players[seat].pieces},
        )
    return None


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
    blind, face_up, plain_tickets = _generator(rules).draw_actions(seat, len(st.face_up))
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

    Same list, in the same order, as the tests' slow reference
    (``tests/engine/reference.py``, ``legal_actions_reference``); Resign is
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
    extra cards, a decision of the rule set's own); empty outside such a step. The tests'
    slow reference generator shares it."""
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


__all__ = [
    "can_draw_blind",
    "claimable_routes",
    "face_up_ok",
    "keep_options",
    "legal_actions",
    "route_blocker",
    "route_payments",
    "ticket_mixes",
    "tickets_left",
]
