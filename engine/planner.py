"""The private ticket planner: for each of a player's tickets, what is still needed.

Pure (no I/O). Used by the hand image and its screen-reader text; it reads only
a :class:`~engine.views.PlayerView` (the reader's own view), so it never sees
another seat's hidden cards or tickets.

For a ticket not yet completed the plan is the cheapest set of routes the
player can still claim that joins its two places together with the player's own
routes: cheapest by car spaces (own routes cost nothing), then by fewer routes,
then by route id (deterministic). A set of routes joining two places at the
least total length is a path, so this is a shortest path where the player's
routes weigh 0, free routes their length, and routes owned by others (or the
closed second track of a double route in small games) cannot be used; as for
scoring, a neighbouring country (Germany) ends a chain and is never passed
through. ``lost`` names the routes that the best path ignoring the others'
claims would have used but are taken; ``detour`` is how many more car spaces
the best remaining plan costs than that path.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import Board

if TYPE_CHECKING:
    from .rules.classic import ClassicRules
    from .views import PlayerView


@dataclass(frozen=True, slots=True)
class TicketPlan:
    """What one ticket still needs.

    Attributes:
        ticket: ticket id; ``a``, ``b``: its places; ``points``: its value.
        done: already completed (``routes`` empty, ``cars`` 0).
        possible: the two places can still be joined (False: the ticket will fail).
        routes: route ids still to claim, in path order from ``a`` (empty when done/impossible).
        cars: car spaces (pieces) those routes need.
        colors: route colour -> car spaces of that colour needed (``gray``: any one colour).
        lost: routes of the best path ignoring others' claims that others took (or that closed).
        detour: extra car spaces the plan needs because of ``lost`` (0 when nothing was lost).
        enough_pieces: the reader has at least ``cars`` pieces left.
        owned: the reader's own routes on the planned path (what the ticket already uses).
    """

    ticket: str
    a: str
    b: str
    points: int
    done: bool
    possible: bool
    routes: tuple[str, ...] = ()
    cars: int = 0
    colors: dict[str, int] = field(default_factory=dict)
    lost: tuple[str, ...] = ()
    detour: int = 0
    enough_pieces: bool = True
    owned: int = 0


def usable_routes(
    board: Board, owners: Mapping[str, int], seat: int, *, doubles_open: bool
) -> dict[str, int]:
    """Route id -> cost for ``seat``: 0 for its own routes, the length for routes it may still claim.

    A route is claimable when nobody owns it, ``seat`` owns no other track of its
    double route, and (unless ``doubles_open``) no other track of it is taken.
    Routes owned by others are left out.
    """
    out: dict[str, int] = {}
    for rid, route in board.routes.items():
        owner = owners.get(rid)
        if owner == seat:
            out[rid] = 0
            continue
        if owner is not None:
            continue
        sib_owners = {owners[s] for s in board.siblings(rid) if s in owners}
        if seat in sib_owners or (sib_owners and not doubles_open):
            continue
        out[rid] = route.length
    return out


def cheapest_path(
    board: Board, a: str, b: str, costs: Mapping[str, int]
) -> tuple[int, tuple[str, ...]] | None:
    """``(cost, route ids from a to b)`` of the cheapest chain over ``costs`` (route id -> cost), ties
    broken by fewer routes, then by route ids; None when ``b`` cannot be reached. Dead ends
    (countries) may start or end the chain but are never passed through."""
    start: tuple[int, int, tuple[str, ...], str] = (0, 0, (), a)
    heap = [start]
    best: dict[str, tuple[int, int, tuple[str, ...]]] = {a: (0, 0, ())}
    while heap:
        cost, hops, path, city = heapq.heappop(heap)
        if best.get(city, (cost, hops, path)) < (cost, hops, path):
            continue
        if city == b:
            return cost, path
        if city != a and city in board.dead_ends:
            continue
        for rid in board.adjacency.get(city, ()):
            if rid not in costs:
                continue
            nxt = board.routes[rid].other(city)
            key = (cost + costs[rid], hops + 1, path + (rid,))
            if nxt not in best or key < best[nxt]:
                best[nxt] = key
                heapq.heappush(heap, (*key, nxt))
    return None


def plan_ticket(
    board: Board,
    owners: Mapping[str, int],
    seat: int,
    ticket: str,
    *,
    doubles_open: bool,
    pieces: int = 45,
) -> TicketPlan:
    """The :class:`TicketPlan` of ``ticket`` for ``seat`` given ``owners`` (route id -> seat).
    Raises KeyError for an unknown ticket."""
    t = board.tickets[ticket]
    mine = [r for r, s in owners.items() if s == seat]
    if board.connected(t.a, t.b, mine):
        return TicketPlan(ticket, t.a, t.b, t.points, done=True, possible=True)
    costs = usable_routes(board, owners, seat, doubles_open=doubles_open)
    found = cheapest_path(board, t.a, t.b, costs)
    # the best path had nobody else claimed anything: own routes free, every other route open
    ideal_costs = {
        rid: (0 if owners.get(rid) == seat else route.length) for rid, route in board.routes.items()
    }
    ideal = cheapest_path(board, t.a, t.b, ideal_costs)
    lost = tuple(r for r in (ideal[1] if ideal else ()) if r not in costs)
    if found is None:
        return TicketPlan(ticket, t.a, t.b, t.points, done=False, possible=False, lost=lost)
    cars, path = found
    needed = tuple(r for r in path if owners.get(r) != seat)
    colors: dict[str, int] = {}
    for rid in needed:
        route = board.routes[rid]
        colors[route.color] = colors.get(route.color, 0) + route.length
    return TicketPlan(
        ticket,
        t.a,
        t.b,
        t.points,
        done=False,
        possible=True,
        routes=needed,
        cars=cars,
        colors=colors,
        lost=lost,
        detour=cars - ideal[0] if (lost and ideal) else 0,
        enough_pieces=cars <= pieces,
        owned=len(path) - len(needed),
    )


def plan_tickets(
    rules: ClassicRules, view: PlayerView, seat: int | None = None
) -> tuple[TicketPlan, ...]:
    """One :class:`TicketPlan` per kept ticket of the reader of ``view`` (a PlayerView), in the
    view's ticket order. ``seat`` defaults to ``view.seat``; any other seat raises ValueError (a
    view only holds its reader's tickets, so nobody can plan another's)."""
    if seat is not None and seat != view.seat:
        raise ValueError(f"the view belongs to seat {view.seat}, not {seat}")
    public = view.public
    doubles_open = public.num_seats >= rules.params.double_routes_min_players
    pieces = public.players[view.seat].pieces
    return tuple(
        plan_ticket(
            rules.board,
            public.owners,
            view.seat,
            tv.id,
            doubles_open=doubles_open,
            pieces=pieces,
        )
        for tv in view.tickets
    )


def plan_offer(rules: ClassicRules, view: PlayerView) -> tuple[TicketPlan, ...]:
    """One :class:`TicketPlan` per ticket on offer to the reader of ``view`` (a PlayerView), in
    offer order: what each would still cost given the reader's network (for the choice of
    which to keep)."""
    public = view.public
    doubles_open = public.num_seats >= rules.params.double_routes_min_players
    pieces = public.players[view.seat].pieces
    return tuple(
        plan_ticket(
            rules.board, public.owners, view.seat, tid, doubles_open=doubles_open, pieces=pieces
        )
        for tid in view.offer
    )


def needed_routes(plans: Iterable[TicketPlan]) -> list[str]:
    """Every route id the plans still need, once each, in plan order."""
    seen: dict[str, None] = {}
    for p in plans:
        for r in p.routes:
            seen.setdefault(r, None)
    return list(seen)
