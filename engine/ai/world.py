"""Determinisation: a full :class:`GameState` sampled to agree with one seat's view.

The hard AI never reads the real state. It rebuilds a plausible one from its
:class:`engine.views.PlayerView` (plus the game's public options) by dealing
the cards and tickets it cannot see at random:

- unseen cards = the map's whole deck minus the face-up row, the viewer's own
  hand, the Paris flag cards on the table and a pending tunnel's cards; they
  are dealt to the other hands (public counts), the discard (public size) and
  the deck (public size), in random order;
- unseen tickets = every ticket of the game's ticket set minus the viewer's
  own kept and offered tickets; each ticket deck gets its public count from
  its own kind (Germany short/long), the other seats get their kept and
  offered counts, the rest is out of the game.

The sampled state's ``seed`` is 0 and its ``rng`` comes from the caller's RNG,
so nothing of the real game's chance leaks in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..state import GameState, PlayerState, TunnelPending
from ..views import PlayerView

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules


def unseen_cards(rules: ClassicRules, view: PlayerView) -> list[str]:
    """The cards ``view``'s seat cannot see (other hands, deck, discard), sorted by colour.

    Returns a list of colour strings (one entry per card).
    """
    left = dict(rules.params.deck)
    seen: list[str] = [c for c in view.public.face_up if c is not None]
    for color, n in view.hand.items():
        seen.extend([color] * n)
    for p in view.public.players:
        if p.extra is not None:
            seen.extend(p.extra.cards_out())  # e.g. Paris's cards set aside for a flag
    tun = view.public.tunnel
    if tun is not None:
        for color, n in tun.committed.items():
            seen.extend([color] * n)
        seen.extend(tun.revealed)
    for color in seen:
        if left.get(color, 0) > 0:
            left[color] -= 1
    return [c for c, n in sorted(left.items()) for _ in range(n)]


def unseen_tickets(
    rules: ClassicRules, view: PlayerView, options: Mapping[str, Any] | None
) -> list[str]:
    """Ticket ids of the game's set that are not the viewer's own (kept or offered), in data order."""
    mine = {t.id for t in view.tickets} | set(view.offer)
    ids = rules.ticket_ids(rules.resolve_options(options))
    return [t for t in ids if t not in mine]


def ticket_weights(
    rules: ClassicRules, view: PlayerView, pool: list[str]
) -> dict[int, dict[str, float]]:
    """How likely each unseen ticket is in another seat's hand, judged from its public routes.

    A ticket whose cheapest path gets much shorter thanks to the seat's claimed
    routes (``saving`` spaces) gets weight ``1 + saving``: players build toward
    their tickets. Returns seat -> ticket id -> weight (> 0) for seats that hold
    tickets; only public facts (owners, pieces) are used.
    """
    board = rules.board
    owners = view.public.owners
    out: dict[int, dict[str, float]] = {}
    for p in view.public.players:
        if p.seat == view.seat or not p.tickets or not p.routes:
            continue
        free: dict[str, int | None] = {}
        plain: dict[str, int | None] = {}
        for rid, route in board.routes.items():
            owner = owners.get(rid)
            free[rid] = 0 if owner == p.seat else None if owner is not None else route.length
            plain[rid] = route.length if owner in (None, p.seat) else None
        weights: dict[str, float] = {}
        for tid in pool:
            t = board.tickets[tid]
            with_routes = board.shortest_path(t.a, t.b, free)
            without = board.shortest_path(t.a, t.b, plain)
            if with_routes is None or without is None:
                weights[tid] = 0.5
                continue
            weights[tid] = 1.0 + max(0, without[0] - with_routes[0])
        out[p.seat] = weights
    return out


def _weighted_order(
    tickets: list[str], weights: Mapping[str, float] | None, rng: random.Random
) -> list[str]:
    """``tickets`` in a random order where heavier ones tend to come first (Efraimidis-Spirakis)."""
    if not weights:
        order = list(tickets)
        rng.shuffle(order)
        return order
    keyed = [(rng.random() ** (1.0 / weights.get(t, 1.0)), t) for t in tickets]
    keyed.sort(reverse=True)
    return [t for _, t in keyed]


def _deal_tickets(
    rules: ClassicRules,
    view: PlayerView,
    pool: list[str],
    rng: random.Random,
    weights: Mapping[int, Mapping[str, float]] | None = None,
) -> tuple[dict[str, list[str]], dict[int, tuple[list[str], list[str]]], list[str]]:
    """Split ``pool`` into ticket decks, other seats' (kept, offered) tickets and removed ones.

    Kept tickets of other seats follow ``weights`` (see :func:`ticket_weights`);
    each ticket deck keeps enough tickets of its own kind for its public size.
    """
    board = rules.board
    sizes = dict(view.public.ticket_decks)
    spare: dict[str, int] = {}
    for t in pool:
        kind = board.tickets[t].deck
        spare[kind] = spare.get(kind, 0) + 1
    for name, size in sizes.items():
        spare[name] = spare.get(name, 0) - size
    taken: set[str] = set()
    hands: dict[int, tuple[list[str], list[str]]] = {}
    for p in view.public.players:
        if p.seat == view.seat:
            continue
        picks: list[list[str]] = []
        for count, w in ((p.tickets, (weights or {}).get(p.seat)), (p.offered, None)):
            chosen: list[str] = []
            for t in _weighted_order([t for t in pool if t not in taken], w, rng):
                if len(chosen) >= count:
                    break
                kind = board.tickets[t].deck
                if spare.get(kind, 0) > 0:
                    spare[kind] -= 1
                    chosen.append(t)
                    taken.add(t)
            picks.append(chosen)
        hands[p.seat] = (picks[0], picks[1])
    rest = [t for t in pool if t not in taken]
    rng.shuffle(rest)
    decks: dict[str, list[str]] = {}
    for name, size in sizes.items():
        decks[name] = [t for t in rest if board.tickets[t].deck == name][:size]
    in_decks = {t for d in decks.values() for t in d}
    return decks, hands, [t for t in rest if t not in in_decks]


def _route_points(rules: ClassicRules, routes: tuple[str, ...]) -> int:
    table = rules.params.route_points
    return sum(table.get(rules.board.routes[r].length, 0) for r in routes)


def _deal_hands(view: PlayerView, cards: list[str]) -> tuple[dict[int, dict[str, int]], list[str]]:
    """The other seats' hands dealt from ``cards`` (shuffled) by their public counts, the
    viewer's own as it is; and the cards left over."""
    hands: dict[int, dict[str, int]] = {}
    for p in view.public.players:
        if p.seat == view.seat:
            hands[p.seat] = dict(view.hand)
            continue
        take, cards = cards[: p.cards], cards[p.cards :]
        hand: dict[str, int] = {}
        for c in take:
            hand[c] = hand.get(c, 0) + 1
        hands[p.seat] = hand
    return hands, cards


def _players(
    rules: ClassicRules,
    view: PlayerView,
    hands: dict[int, dict[str, int]],
    ticket_hands: dict[int, tuple[list[str], list[str]]],
) -> list[PlayerState]:
    """Every seat's :class:`PlayerState`: public facts from the view, hands and (other
    seats') tickets as dealt."""
    pub = view.public
    players = []
    for p in pub.players:
        if p.seat == view.seat:
            kept, offered = [t.id for t in view.tickets], list(view.offer)
            needs_mix = view.needs_mix
        else:
            kept, offered = ticket_hands[p.seat]
            needs_mix = pub.phase == "setup" and p.offered == 0 and p.tickets == 0
            needs_mix = needs_mix and rules.params.initial_tickets.announce_mix
        points = _route_points(rules, p.routes)
        players.append(
            PlayerState(
                seat=p.seat,
                pieces=p.pieces,
                hand=hands[p.seat],
                tickets=kept,
                offer=offered,
                needs_mix=needs_mix,
                routes=list(p.routes),
                route_points=points,
                bonus_points=p.score - points,
                resigned=p.resigned,
                extra=p.extra,
            )
        )
    return players


def sample_world(
    rules: ClassicRules,
    view: PlayerView,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    weights: Mapping[int, Mapping[str, float]] | None = None,
) -> GameState:
    """A full state consistent with ``view``: hidden cards and tickets dealt at random by ``rng``.

    ``options`` are the game's public map options (they decide the ticket set);
    ``weights`` bias other seats' tickets (see :func:`ticket_weights`).
    The result can be played on with :func:`engine.apply`; it is a fresh object.
    """
    pub = view.public
    cards = unseen_cards(rules, view)
    rng.shuffle(cards)
    hands, cards = _deal_hands(view, cards)
    deck, discard = cards[: pub.deck_size], cards[pub.deck_size :]
    decks, ticket_hands, removed = _deal_tickets(
        rules, view, unseen_tickets(rules, view, options), rng, weights
    )
    players = _players(rules, view, hands, ticket_hands)
    tunnel = None
    if pub.tunnel is not None:
        t = pub.tunnel
        tunnel = TunnelPending(t.route, dict(t.committed), t.color, list(t.revealed), t.extra)
    return GameState(
        map_id=pub.map_id,
        seed=0,
        options=dict(rules.resolve_options(options)),
        num_seats=pub.num_seats,
        rng=rng.getrandbits(64),
        version=pub.version,
        phase=pub.phase,
        active=pub.active,
        step=pub.step,
        turn=pub.turn,
        cards_drawn=pub.cards_drawn,
        deck=deck,
        discard=discard,
        face_up=list(pub.face_up),
        ticket_decks=decks,
        removed_tickets=removed,
        owners=dict(pub.owners),
        players=players,
        last_round_by=pub.last_round_by,
        turns_left=pub.turns_left,
        tunnel=tunnel,
        extra=pub.extra,  # the rule set's own fields: public as a whole (its public_extra)
    )
