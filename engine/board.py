"""The board of a map: cities, routes (tracks) and destination tickets, plus graph helpers.

Built from a map's data dict (see the documentation's "Maps as data", docs/maps/index.md,
for the format) by :func:`Board.from_dict`; validation with a full error list lives in
``maps.loader``. Everything here is immutable and pure.

Graph rules used by every map (rulebooks, "Zielkarten" sections):
- a ticket is completed when its two places are joined by a continuous chain
  of the player's own routes;
- a place of kind ``"country"`` (Germany's neighbouring countries) is a dead
  end: a chain may start or end there but never pass through it
  (germany-rulebook-de.txt, "Nachbarländer").
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .trail import TrailCache


@dataclass(frozen=True, slots=True)
class City:
    """A place on the board.

    Attributes:
        id: stable ascii id (``"new_york"``).
        name: printed name (umlauts and accents kept).
        lat, lon: WGS84 degrees of the real place (for the board layout).
        kind: ``"city"`` or ``"country"`` (a dead end for paths).
    """

    id: str
    name: str
    lat: float
    lon: float
    kind: str = "city"


@dataclass(frozen=True, slots=True)
class Route:
    """One track between two places (each track of a double route is its own Route).

    Attributes:
        id: stable id (``"atlanta__miami__1"``).
        a, b: city ids.
        length: number of spaces (1-9).
        color: a card colour or ``"gray"`` (any one colour).
        tunnel: Nordic tunnel rule applies.
        locomotives: ferry locomotive symbols (0 for ordinary routes).
        carts: Amsterdam cart symbol (claiming draws a merchandise card).
        group: id shared by the tracks of a double or triple route.
        substitute: any ``substitute`` cards may replace one card of the
            chosen colour (Nordic Murmansk-Lieksa: 4), else None.
    """

    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool = False
    locomotives: int = 0
    carts: bool = False
    group: str = ""
    substitute: int | None = None

    def other(self, city: str) -> str:
        """The end of this route that is not ``city``."""
        return self.b if city == self.a else self.a

    @property
    def is_ferry(self) -> bool:
        """True when the route has ferry locomotive symbols."""
        return self.locomotives > 0


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket (Amsterdam: contract).

    Attributes:
        id: stable id (``"boston__miami"``).
        a, b: city ids.
        points: won when completed, lost otherwise.
        deck: ``"main"``, or ``"short"`` / ``"long"`` on Germany.
        sets: edition sets the ticket belongs to (empty: every set).
        provisional: True when the value was computed, not read on a card.
    """

    id: str
    a: str
    b: str
    points: int
    deck: str = "main"
    sets: tuple[str, ...] = ()
    provisional: bool = False


@dataclass(frozen=True)
class Board:
    """Cities, routes and tickets of one map, with lookup tables.

    Attributes:
        cities: city id -> City, in data order.
        routes: route id -> Route, in data order.
        tickets: ticket id -> Ticket, in data order.
        groups: group id -> tuple of route ids (double/triple routes have 2-3).
        adjacency: city id -> tuple of route ids touching it.
        dead_ends: ids of places paths may not pass through (countries).
    """

    cities: Mapping[str, City]
    routes: Mapping[str, Route]
    tickets: Mapping[str, Ticket]
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    adjacency: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dead_ends: frozenset[str] = frozenset()
    _trails: TrailCache = field(init=False, repr=False, compare=False)
    #: route id -> the other tracks of its group (built once; :meth:`siblings`)
    _siblings: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    #: Dijkstra's tables: city id -> index, per index ``(route id, neighbour index)``
    #: pairs, per index "is a dead end"
    _index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    _neighbours: tuple[tuple[tuple[str, int], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    _dead: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_trails", TrailCache(self._route_ends, self.dead_ends))
        siblings = {
            rid: tuple(r for r in self.groups.get(route.group, (rid,)) if r != rid)
            for rid, route in self.routes.items()
        }
        object.__setattr__(self, "_siblings", siblings)
        names = tuple(self.adjacency)
        index = {city: i for i, city in enumerate(names)}
        neighbours = tuple(
            tuple((rid, index[self.routes[rid].other(city)]) for rid in self.adjacency[city])
            for city in names
        )
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_neighbours", neighbours)
        object.__setattr__(self, "_dead", tuple(city in self.dead_ends for city in names))

    def _route_ends(self, route_id: str) -> tuple[str, str, int]:
        r = self.routes[route_id]
        return r.a, r.b, r.length

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """Build a board from a map data dict (keys ``cities``, ``routes``, ``tickets``).

        Raises KeyError/ValueError on malformed data; ``maps.loader`` validates first
        and reports every problem at once.
        """
        cities = {
            c["id"]: City(
                c["id"], c["name"], float(c["lat"]), float(c["lon"]), c.get("kind", "city")
            )
            for c in data["cities"]
        }
        routes = {}
        for r in data["routes"]:
            routes[r["id"]] = Route(
                id=r["id"],
                a=r["a"],
                b=r["b"],
                length=int(r["length"]),
                color=r["color"],
                tunnel=bool(r.get("tunnel", False)),
                locomotives=int(r.get("locomotives", 0) or 0),
                carts=bool(r.get("carts", False)),
                group=r.get("group") or f"{min(r['a'], r['b'])}__{max(r['a'], r['b'])}",
                substitute=r.get("substitute"),
            )
        tickets = {
            t["id"]: Ticket(
                id=t["id"],
                a=t["a"],
                b=t["b"],
                points=int(t["points"]),
                deck=t.get("deck", "main"),
                sets=tuple(t.get("sets", ())),
                provisional=bool(t.get("provisional", False)),
            )
            for t in data["tickets"]
        }
        groups: dict[str, list[str]] = {}
        adjacency: dict[str, list[str]] = {cid: [] for cid in cities}
        for route in routes.values():
            groups.setdefault(route.group, []).append(route.id)
            adjacency[route.a].append(route.id)
            adjacency[route.b].append(route.id)
        return cls(
            cities=cities,
            routes=routes,
            tickets=tickets,
            groups={g: tuple(ids) for g, ids in groups.items()},
            adjacency={c: tuple(ids) for c, ids in adjacency.items()},
            dead_ends=frozenset(c.id for c in cities.values() if c.kind == "country"),
        )

    def siblings(self, route_id: str) -> tuple[str, ...]:
        """The other tracks of ``route_id``'s double/triple route (empty for a single route)."""
        return self._siblings[route_id]

    def route_name(self, route_id: str) -> str:
        """``"City A – City B"`` (an en dash between spaces, as every message names a route)."""
        r = self.routes[route_id]
        return f"{self.cities[r.a].name} – {self.cities[r.b].name}"

    # ----------------------------------------------------------------- graph helpers
    def reachable(self, start: str, route_ids: Iterable[str]) -> set[str]:
        """Places reachable from ``start`` over ``route_ids`` (no passing through dead ends).

        Returns a set of city ids including ``start``.
        """
        return self.reachable_from((start,), route_ids)[start]

    def reachable_from(
        self, starts: Iterable[str], route_ids: Iterable[str]
    ) -> dict[str, set[str]]:
        """:meth:`reachable` of each of ``starts`` over the same ``route_ids``, the graph
        built once: start city id -> the set of city ids reachable from it (itself included).
        """
        adj: dict[str, list[str]] = {}
        routes = self.routes
        for rid in route_ids:
            r = routes[rid]
            adj.setdefault(r.a, []).append(r.b)
            adj.setdefault(r.b, []).append(r.a)
        dead = self.dead_ends
        out: dict[str, set[str]] = {}
        for start in starts:
            if start in out:
                continue
            seen = {start}
            stack = [start]
            while stack:
                city = stack.pop()
                if city != start and city in dead:
                    continue
                for nxt in adj.get(city, ()):
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            out[start] = seen
        return out

    def connected(self, a: str, b: str, route_ids: Iterable[str]) -> bool:
        """True when ``a`` and ``b`` are joined by ``route_ids`` (countries are dead ends)."""
        return b in self.reachable(a, route_ids)

    def longest_path(self, route_ids: Iterable[str]) -> int:
        """Length in spaces of the longest continuous path over ``route_ids``.

        A path may visit a city again but never uses a route twice (USA rules,
        "längste durchgehende Strecke"); dead ends (countries) stop a path. Exact;
        see :mod:`engine.trail` for the algorithm and its bound.
        """
        return self.longest_trail(route_ids)[0]

    def longest_trail(self, route_ids: Iterable[str]) -> tuple[int, tuple[str, ...]]:
        """``(length in spaces, route ids in path order)`` of one longest continuous path
        (see :meth:`longest_path`; deterministic for a set of routes, for highlighting).

        Results are memoised per route set and per connected component, so a player's
        path after one more claim only recomputes the component the claim joined.
        """
        return self._trails.longest(route_ids)

    def exhaustive_longest_trail(self, route_ids: Iterable[str]) -> tuple[int, tuple[str, ...]]:
        """The same by plain DFS over every trail from every place (exponential; a
        reference for tests only)."""
        ids = list(route_ids)
        if not ids:
            return 0, ()
        adj: dict[str, list[tuple[str, str, int]]] = {}
        for rid in ids:
            r = self.routes[rid]
            adj.setdefault(r.a, []).append((rid, r.b, r.length))
            adj.setdefault(r.b, []).append((rid, r.a, r.length))
        best = 0
        best_trail: tuple[str, ...] = ()
        used: list[str] = []

        def dfs(city: str, total: int, first: bool) -> None:
            nonlocal best, best_trail
            if total > best:
                best, best_trail = total, tuple(used)
            if not first and city in self.dead_ends:
                return
            for rid, nxt, length in adj[city]:
                if rid not in used:
                    used.append(rid)
                    dfs(nxt, total + length, False)
                    used.pop()

        for city in adj:
            dfs(city, 0, True)
        return best, best_trail

    def shortest_path(
        self,
        a: str,
        b: str,
        cost: Mapping[str, int | None],
    ) -> tuple[int, list[str]] | None:
        """Cheapest chain of routes from ``a`` to ``b`` (Dijkstra).

        Args:
            cost: route id -> cost (e.g. trains needed; 0 for own routes);
                routes mapped to None or missing are not usable.

        Returns ``(total cost, route ids in path order)`` or None when no chain
        exists. Dead ends are never passed through.
        """
        index = self._index
        start, goal = index[a], index.get(b, -1)  # an unknown b is never reached
        far = 1 << 30
        dist = [far] * len(index)
        dist[start] = 0
        prev: dict[int, tuple[str, int]] = {}
        heap = [(0, start)]
        neighbours, dead = self._neighbours, self._dead
        get = cost.get
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            d, city = pop(heap)
            if city == goal:
                path = []
                while city != start:
                    rid, city = prev[city]
                    path.append(rid)
                return d, path[::-1]
            if d > dist[city] or (dead[city] and city != start):
                continue
            for rid, nxt in neighbours[city]:
                c = get(rid)
                if c is None:
                    continue
                nd = d + c
                if nd < dist[nxt]:
                    dist[nxt] = nd
                    prev[nxt] = (rid, city)
                    push(heap, (nd, nxt))
        return None
