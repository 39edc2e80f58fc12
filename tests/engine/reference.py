"""Slow, obviously-correct legal-move generators the fast one is compared with.

- :func:`reference_legal_actions`: an independent copy of the rules. It scans
  every route, asks the blocking rules one by one and enumerates payments with
  :func:`engine.payment.payment_options` for each route; nothing is cached.
- :func:`legal_actions_reference`: the engine's own generator before the fast
  one (:func:`engine.legal.legal_actions`): the engine's blocking rules and the
  rule set's payment hooks per route, uncached; same arguments and list.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from engine.actions import (
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
from engine.legal import (
    _choice_actions,
    _setup_actions,
    can_draw_blind,
    route_blocker,
    ticket_mixes,
)
from engine.legal import (
    face_up_ok as engine_face_up_ok,
)
from engine.legal import tickets_left as engine_tickets_left
from engine.payment import payment_options, tunnel_extra_options
from engine.rules.europe import BuildStation, stations_of
from engine.rules.paris import KeepFlagCard, offered_colors
from engine.state import GameState
from engine.types import LOCOMOTIVE, Cards


def route_blocked(rules, st: GameState, seat: int, rid: str) -> bool:
    """True when ``seat`` may not claim ``rid`` whatever its cards (taken, double rule, pieces)."""
    board = rules.board
    if rid in st.owners:
        return True
    for sib in board.siblings(rid):
        owner = st.owners.get(sib)
        if owner is None:
            continue
        if owner == seat or st.num_seats < rules.params.double_routes_min_players:
            return True
    return st.players[seat].pieces < board.routes[rid].length


def face_up_ok(rules, st: GameState, slot: int) -> bool:
    if st.face_up[slot] is None:
        return False
    return not (
        st.cards_drawn == 1
        and st.face_up[slot] == LOCOMOTIVE
        and rules.params.face_up_wild_restricted
    )


def tickets_left(st: GameState) -> int:
    return sum(len(d) for d in st.ticket_decks.values())


def mixes(st: GameState, count: int) -> list[tuple[tuple[str, int], ...]]:
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
    need = min(keep, len(offer))
    for k in range(need, len(offer) + 1):
        yield from combinations(offer, k)


def claims(rules, st: GameState, seat: int) -> list[Action]:
    hand = st.players[seat].hand
    out: list[Action] = []
    for rid, route in rules.board.routes.items():
        if not route_blocked(rules, st, seat, rid):
            out.extend(
                ClaimRoute(seat, rid, pay) for pay in payment_options(rules.params, route, hand)
            )
    return out


def reference_legal_actions(rules, st: GameState, seat: int) -> list[Action]:
    """Every game move ``seat`` may make now (Resign is not a listed move)."""
    if st.phase == "finished" or not 0 <= seat < st.num_seats:
        return []
    player = st.players[seat]
    p = rules.params
    if st.phase == "setup":
        if player.needs_mix:
            return [DrawTickets(seat, mix) for mix in mixes(st, p.initial_tickets.count)]
        if player.offer:
            return [
                KeepTickets(seat, t) for t in keep_options(player.offer, p.initial_tickets.keep)
            ]
        return []
    if seat != st.active:
        return []
    step = st.step
    out: list[Action] = []
    if step in ("turn", "second_card"):
        if st.deck or st.discard:
            out.append(DrawBlind(seat))
        out.extend(DrawFaceUp(seat, s) for s in range(len(st.face_up)) if face_up_ok(rules, st, s))
        if step == "second_card":
            return out
        out.extend(claims(rules, st, seat))
        out.extend(stations(rules, st, seat))
        if tickets_left(st):
            if p.draw_tickets.announce_mix:
                out.extend(DrawTickets(seat, mix) for mix in mixes(st, p.draw_tickets.count))
            else:
                out.append(DrawTickets(seat))
        return out or [Pass(seat)]
    if step == "keep_tickets":
        return [KeepTickets(seat, t) for t in keep_options(player.offer, p.draw_tickets.keep)]
    if step == "tunnel" and st.tunnel is not None:
        tun = st.tunnel
        out = [PayTunnel(seat, e) for e in tunnel_extra_options(tun.color, tun.extra, player.hand)]
        return [*out, AbandonTunnel(seat)]
    if step == "flag":
        return [KeepFlagCard(seat, c) for c in offered_colors(st)] + [KeepFlagCard(seat, None)]
    return out


def stations(rules: Any, st: GameState, seat: int) -> list[Action]:
    """Europe: every city without a station x every way to pay the seat's next one (its cost
    from rules.stations.costs; cards of one colour with locomotives wild, or locomotives only)."""
    sp = rules.params.stations
    built = sum(1 for s in stations_of(st).values() if s == seat)
    if sp is None or built >= sp.count:
        return []
    cost = sp.costs[built]
    hand = st.players[seat].hand
    pays = {
        Cards({colour: cost - wild, LOCOMOTIVE: wild})
        for colour in rules.params.colors
        for wild in range(cost + 1)
    }
    fit = [p for p in pays if p.fits_in(hand)]
    return [
        BuildStation(seat, c, p)
        for c in rules.board.cities
        if c not in stations_of(st)
        for p in fit
    ]


def legal_actions_reference(
    rules: Any, state: GameState, seat: int, *, payments: str = "all"
) -> list[Action]:
    """The engine's generator before the fast one: slow and obvious, a reference for tests.

    Tests every route with the claim validation of :func:`engine.reducer.apply`
    (which builds an :class:`engine.errors.IllegalAction` per blocked route) and
    enumerates payments with the rule set's hooks for every route, uncached.
    Same arguments and result as :func:`engine.legal.legal_actions`.
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


def _reference_turn(rules: Any, st: GameState, seat: int, payments: str) -> list[Action]:
    player = st.players[seat]
    p = rules.params
    out: list[Action] = []
    if can_draw_blind(st):
        out.append(DrawBlind(seat))
    for slot in range(len(st.face_up)):
        if engine_face_up_ok(rules, st, slot):
            out.append(DrawFaceUp(seat, slot))
    if st.step == "second_card":
        return out
    for rid, route in rules.board.routes.items():
        if route_blocker(rules, st, seat, rid) is None:
            pays = rules.payment_options if payments == "all" else rules.sensible_payments
            for pay in pays(route, player.hand):
                out.append(ClaimRoute(seat, rid, pay))
    out.extend(rules.turn_actions(st, seat))
    if engine_tickets_left(st):
        if p.draw_tickets.announce_mix:
            out.extend(DrawTickets(seat, mix) for mix in ticket_mixes(st, p.draw_tickets.count))
        else:
            out.append(DrawTickets(seat))
    if not out:
        out.append(Pass(seat))
    return out
