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

Train stations (Europe rules digest, "Train stations"): each station of the
reader lets a plan use one route of another player into its city at no cost
(one route per station and path). While the reader has stations left, the plan
may also suggest building one where a route it needs was taken: in a city
without a station, at one end of another player's route, when the way around
costs at least :data:`STATION_DETOUR` more car spaces than that route would
have, or the ticket cannot be joined otherwise (a station costs a turn, cards
and 4 points at the end, where a detour's routes score).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import Board

if TYPE_CHECKING:
    from .rules.classic import ClassicRules
    from .views import PlayerView, PublicView


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
        borrowed: ``(city, route id)`` for each route of another player the plan uses through
            a train station in that city: the reader's built ones and the suggested one.
        station: the city where the plan suggests building a train station (its route is in
            ``borrowed``); None: no new station.
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
    borrowed: tuple[tuple[str, str], ...] = ()
    station: str | None = None


#: A new train station is suggested only where the way around the taken route costs at least this
#: many more car spaces than the route itself (or there is none): a station costs a turn, 1-3
#: cards and 4 points at the end, while a detour's routes score points.
STATION_DETOUR = 3


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


@dataclass(frozen=True, slots=True)
class _Stations:
    """What a plan may do with train stations: ``own`` cities with the reader's stations,
    ``free`` cities where it may build one (empty: none left), ``others`` route id -> length of
    the routes other players own."""

    own: frozenset[str]
    free: frozenset[str]
    others: Mapping[str, int]


_Key = tuple[int, int, int, tuple[str, ...]]


def _station_path(
    board: Board, a: str, b: str, costs: Mapping[str, int], st: _Stations
) -> tuple[int, tuple[str, ...], tuple[tuple[str, str], ...], str | None] | None:
    """``(cars, route ids from a to b, borrowed (city, route), new station city)`` of the cheapest
    chain over ``costs`` that may also use other players' routes through stations (each station
    once, free through a built one; at most one new station, whose route weighs its length plus
    :data:`STATION_DETOUR` less one, so that it wins only against a detour at least that long);
    ties as :func:`cheapest_path`, a new station losing them. None when ``b`` cannot be reached."""
    premium = STATION_DETOUR - 1
    # node: (city, station cities used, new station city); key: (weight, new?, hops, path)
    Node = tuple[str, frozenset[str], str | None]
    start: Node = (a, frozenset(), None)
    best: dict[Node, _Key] = {start: (0, 0, 0, ())}
    extra: dict[Node, tuple[int, tuple[tuple[str, str], ...]]] = {start: (0, ())}
    heap: list[tuple[int, int, int, tuple[str, ...], Node]] = [(0, 0, 0, (), start)]
    while heap:
        weight, fresh, hops, path, node = heapq.heappop(heap)
        if best[node] < (weight, fresh, hops, path):
            continue
        city, used, new = node
        cars, borrowed = extra[node]
        if city == b:
            return cars, path, borrowed, new
        if city != a and city in board.dead_ends:
            continue
        for rid in board.adjacency.get(city, ()):
            nxt = board.routes[rid].other(city)
            steps: list[tuple[int, int, Node, tuple[tuple[str, str], ...]]] = []
            if rid in costs:
                steps.append((costs[rid], costs[rid], (nxt, used, new), borrowed))
            elif rid in st.others:
                for at in (city, nxt):
                    if at in st.own and at not in used:
                        steps.append((0, 0, (nxt, used | {at}, new), (*borrowed, (at, rid))))
                    elif new is None and at in st.free:
                        w = st.others[rid] + premium
                        steps.append((w, 0, (nxt, used | {at}, at), (*borrowed, (at, rid))))
            for w, c, target, b2 in steps:
                key = (weight + w, 1 if target[2] else 0, hops + 1, path + (rid,))
                if target not in best or key < best[target]:
                    best[target] = key
                    extra[target] = (cars + c, b2)
                    heapq.heappush(heap, (*key, target))
    return None


def plan_ticket(
    board: Board,
    owners: Mapping[str, int],
    seat: int,
    ticket: str,
    *,
    doubles_open: bool,
    pieces: int = 45,
    stations: Mapping[str, int] | None = None,
    stations_left: int = 0,
) -> TicketPlan:
    """The :class:`TicketPlan` of ``ticket`` for ``seat`` given ``owners`` (route id -> seat).
    ``stations`` (Europe): city id -> seat of its train station; ``stations_left``: how many the
    seat may still build (see the module docstring). Raises KeyError for an unknown ticket."""
    t = board.tickets[ticket]
    mine = [r for r, s in owners.items() if s == seat]
    if board.connected(t.a, t.b, mine):
        return TicketPlan(ticket, t.a, t.b, t.points, done=True, possible=True)
    costs = usable_routes(board, owners, seat, doubles_open=doubles_open)
    borrowed: tuple[tuple[str, str], ...] = ()
    station = None
    if stations is None:
        found = cheapest_path(board, t.a, t.b, costs)
    else:
        st = _Stations(
            own=frozenset(c for c, s in stations.items() if s == seat),
            free=frozenset(c for c in board.cities if c not in stations)
            if stations_left > 0
            else frozenset(),
            others={r: board.routes[r].length for r, s in owners.items() if s != seat},
        )
        via = _station_path(board, t.a, t.b, costs, st)
        found = None if via is None else (via[0], via[1])
        if via is not None:
            borrowed, station = via[2], via[3]
    # the best path had nobody else claimed anything: own routes free, every other route open
    ideal_costs = {
        rid: (0 if owners.get(rid) == seat else route.length) for rid, route in board.routes.items()
    }
    ideal = cheapest_path(board, t.a, t.b, ideal_costs)
    lost = tuple(r for r in (ideal[1] if ideal else ()) if r not in costs)
    if found is None:
        return TicketPlan(ticket, t.a, t.b, t.points, done=False, possible=False, lost=lost)
    cars, path = found
    needed = tuple(r for r in path if r in costs and owners.get(r) != seat)
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
        detour=max(0, cars - ideal[0]) if (lost and ideal) else 0,
        enough_pieces=cars <= pieces,
        owned=sum(1 for r in path if owners.get(r) == seat),
        borrowed=borrowed,
        station=station,
    )


def plan_tickets(
    rules: ClassicRules, view: PlayerView, seat: int | None = None
) -> tuple[TicketPlan, ...]:
    """One :class:`TicketPlan` per kept ticket of the reader of ``view`` (a PlayerView), in the
    view's ticket order. ``seat`` defaults to ``view.seat``; any other seat raises ValueError (a
    view only holds its reader's tickets, so nobody can plan another's)."""
    if seat is not None and seat != view.seat:
        raise ValueError(f"the view belongs to seat {view.seat}, not {seat}")
    return tuple(_plans(rules, view, [tv.id for tv in view.tickets]))


def plan_offer(rules: ClassicRules, view: PlayerView) -> tuple[TicketPlan, ...]:
    """One :class:`TicketPlan` per ticket on offer to the reader of ``view`` (a PlayerView), in
    offer order: what each would still cost given the reader's network (for the choice of
    which to keep)."""
    return tuple(_plans(rules, view, view.offer))


def stations_left(rules: ClassicRules, public: PublicView, seat: int) -> int | None:
    """How many train stations ``seat`` has not built yet (``rules.params.stations.count`` less
    the cities where its stations stand; Europe rules digest, "Train stations"); None on a map
    without stations. What the planner plans with, and what the hand, the board's side panel and
    the texts show."""
    params = rules.params.stations
    if params is None:
        return None
    built = sum(1 for owner in public.stations.values() if owner == seat)
    return max(0, params.count - built)


def _plans(rules: ClassicRules, view: PlayerView, tickets: Iterable[str]) -> list[TicketPlan]:
    """:func:`plan_ticket` of each of ``tickets`` for the reader of ``view`` (with its train
    stations on a map that has them)."""
    public = view.public
    doubles_open = public.num_seats >= rules.params.double_routes_min_players
    pieces = public.players[view.seat].pieces
    params = rules.params.stations
    left = stations_left(rules, public, view.seat) or 0
    return [
        plan_ticket(
            rules.board,
            public.owners,
            view.seat,
            tid,
            doubles_open=doubles_open,
            pieces=pieces,
            stations=None if params is None else public.stations,
            stations_left=left,
        )
        for tid in tickets
    ]


def needed_routes(plans: Iterable[TicketPlan]) -> list[str]:
    """Every route id the plans still need, once each, in plan order."""
    seen: dict[str, None] = {}
    for p in plans:
        for r in p.routes:
            seen.setdefault(r, None)
    return list(seen)
