"""Longest continuous path ("längste durchgehende Strecke", USA rules "Spielende").

The longest path is a longest *trail*: a walk that never uses a route twice
but may visit a city again, weighted by route length. Countries (Germany) are
dead ends: a path may start or end there but never pass through, which is
modelled by giving each route into a country its own copy of the country.

Exact, and bounded on every legal state, by four steps:

1. Split the routes into connected components; the answer is the best one.
2. A component with at most two odd-degree places has an Euler trail: the
   answer is all of it (Hierholzer gives the order).
3. Otherwise a longest trail is open and both its ends are odd-degree places
   (a trail ending at an even place can be extended by an unused route there;
   a closed trail that is not the whole component can be extended too). So
   chains of degree-2 places can be contracted into single edges: a trail
   never ends inside one.
4. On the contracted multigraph, the longest trail is the component minus
   the lightest set of edges whose removal leaves a connected set with at most
   two odd places: found by an iterative-deepening search over removals that
   fix one odd place at a time (:func:`_search`), pruned by a parity bound.

:class:`TrailCache` keeps the result per component, so a new claim only
recomputes the component it joins (the per-player cache of the engine).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

#: One component's answer: (length in spaces, route ids in path order).
Trail = tuple[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class _Edge:
    u: str
    v: str
    w: int
    routes: tuple[str, ...]  # in order from u to v


def _vertices(rid: str, a: str, b: str, dead_ends: frozenset[str] | set[str]) -> tuple[str, str]:
    """The two places of a route, a dead end split per route (``"country#route"``)."""
    return (f"{a}#{rid}" if a in dead_ends else a, f"{b}#{rid}" if b in dead_ends else b)


def components(
    routes: Iterable[str],
    ends: Callable[[str], tuple[str, str, int]],
    dead_ends: frozenset[str] | set[str] = frozenset(),
) -> list[list[str]]:
    """Route ids grouped by connected component (dead ends split), each in the given order."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    ids = list(routes)
    for rid in ids:
        a, b, _ = ends(rid)
        va, vb = _vertices(rid, a, b, dead_ends)
        ra, rb = find(va), find(vb)
        if ra != rb:
            parent[ra] = rb
    groups: dict[str, list[str]] = {}
    for rid in ids:
        a, b, _ = ends(rid)
        groups.setdefault(find(_vertices(rid, a, b, dead_ends)[0]), []).append(rid)
    return list(groups.values())


def component_trail(
    routes: Sequence[str],
    ends: Callable[[str], tuple[str, str, int]],
    dead_ends: frozenset[str] | set[str] = frozenset(),
) -> Trail:
    """Longest trail of one connected component (see the module docstring)."""
    edges = []
    for rid in routes:
        a, b, w = ends(rid)
        va, vb = _vertices(rid, a, b, dead_ends)
        edges.append(_Edge(va, vb, w, (rid,)))
    if not edges:
        return 0, ()
    core, local = _strip_trees(edges)
    if not core:
        return local
    found = _core_trail(core)
    return found if found[0] >= local[0] else local


def _core_trail(edges: Sequence[_Edge]) -> Trail:
    """Longest trail of a connected multigraph without pendant trees (pendant edges allowed)."""
    degree: dict[str, int] = {}
    for e in edges:
        degree[e.u] = degree.get(e.u, 0) + 1
        degree[e.v] = degree.get(e.v, 0) + 1
    odd = sorted(x for x, d in degree.items() if d % 2)
    total = sum(e.w for e in edges)
    if len(odd) <= 2:
        return total, _euler(edges, odd[0] if odd else edges[0].u)
    reduced = _contract(edges, degree)
    removal, memo = _Removal(reduced), _Memo(reduced, odd)
    cap = 128
    while True:
        # two exact searches with complementary strengths (dense knots: removal;
        # tree-like: memo), run in turns with a node cap that doubles; both resume
        # where they stopped, so the work stays within a small factor of the faster
        try:
            return _search(removal, reduced, cap)
        except _Exhausted:
            pass
        try:
            return memo.run(cap * 16)
        except _Exhausted:
            cap *= 2


class _Exhausted(Exception):
    """A capped search ran out of nodes."""


def _strip_trees(edges: Sequence[_Edge]) -> tuple[list[_Edge], Trail]:
    """Fold every pendant tree into at most two pendant edges per place of the core.

    A trail can enter a pendant tree only to end in it, so a tree hanging at a
    place counts by its longest branch; a trail lying wholly inside a tree is
    a candidate of its own (the best two branches at one place). Only the two
    longest branches at a core place can be the ends of a longest trail.
    Returns ``(core edges plus pendant edges, best trail inside the trees)``.
    """
    adj: dict[str, set[int]] = {}
    for i, e in enumerate(edges):
        adj.setdefault(e.u, set()).add(i)
        adj.setdefault(e.v, set()).add(i)
    hang: dict[str, list[Trail]] = {}
    local: Trail = (0, ())
    leaves = sorted((v for v, ids in adj.items() if len(ids) == 1), reverse=True)
    while leaves:
        x = leaves.pop()
        if len(adj[x]) != 1:
            continue
        i = adj[x].pop()
        e = edges[i]
        p = e.v if e.u == x else e.u
        adj[p].discard(i)
        branches = sorted(hang.pop(x, []), reverse=True)
        local = _better(local, _join(branches))
        top = branches[0] if branches else (0, ())
        outward = e.routes if e.u == p else e.routes[::-1]
        hang.setdefault(p, []).append((e.w + top[0], outward + top[1]))
        if len(adj[p]) == 1:
            leaves.append(p)
        elif not adj[p]:
            local = _better(local, _join(sorted(hang.pop(p), reverse=True)))
    core = [e for i, e in enumerate(edges) if i in adj[e.u]]
    for v in sorted(hang):
        for k, (w, path) in enumerate(sorted(hang[v], reverse=True)[:2]):
            core.append(_Edge(v, f"{v}~{k}", w, path))
    return core, local


def _join(branches: Sequence[Trail]) -> Trail:
    """The trail through one place joining its two longest branches (sorted longest first)."""
    if not branches:
        return 0, ()
    if len(branches) == 1:
        return branches[0]
    (w1, p1), (w2, p2) = branches[0], branches[1]
    return w1 + w2, p1[::-1] + p2


def _better(a: Trail, b: Trail) -> Trail:
    return b if b[0] > a[0] else a


class _Memo:
    """DFS over trails from each odd place, memoised on (place, edges used).

    :meth:`run` raises :class:`_Exhausted` past ``cap`` states; the memo is kept,
    so a later run with a larger cap resumes instead of starting over. Parallel
    equal edges are used in index order (symmetric trails are counted once).
    """

    def __init__(self, edges: Sequence[_Edge], odd: Sequence[str]) -> None:
        names = sorted({e.u for e in edges} | {e.v for e in edges})
        self.index = {v: i for i, v in enumerate(names)}
        self.n = len(names)
        self.edges = edges
        self.odd = [self.index[v] for v in odd]
        self.adj: list[list[tuple[int, int, int, int]]] = [[] for _ in names]
        earlier: dict[tuple[int, int, int], int] = {}
        for i, e in enumerate(edges):
            u, v = self.index[e.u], self.index[e.v]
            key = (min(u, v), max(u, v), e.w)
            before = earlier.get(key, 0)
            earlier[key] = before | (1 << i)
            self.adj[u].append((1 << i, v, e.w, before))
            if v != u:
                self.adj[v].append((1 << i, u, e.w, before))
        self.memo: dict[int, int] = {}
        self.choice: dict[int, int] = {}
        self.cap = 0

    def _searcher(self) -> Callable[[int, int], int]:
        """The memoised DFS as a closure over local names (it is the hot loop)."""
        memo, choice, adj, n, cap = self.memo, self.choice, self.adj, self.n, self.cap

        def best(city: int, used: int) -> int:
            key = used * n + city
            hit = memo.get(key)
            if hit is not None:
                return hit
            if len(memo) >= cap:
                raise _Exhausted
            top = via = 0
            for bit, nxt, w, before in adj[city]:
                if used & bit or used & before != before:
                    continue
                got = w + best(nxt, used | bit)
                if got > top:
                    top, via = got, bit
            memo[key] = top
            choice[key] = via
            return top

        return best

    def run(self, cap: int) -> Trail:
        """The longest trail (raises :class:`_Exhausted` past ``cap`` states)."""
        self.cap = cap
        best = self._searcher()
        best_len, start = -1, 0
        for city in self.odd:
            got = best(city, 0)
            if got > best_len:
                best_len, start = got, city
        routes: list[str] = []
        used, city = 0, start
        while self.choice[used * self.n + city]:
            bit = self.choice[used * self.n + city]
            e = self.edges[bit.bit_length() - 1]
            forward = self.index[e.u] == city
            routes.extend(e.routes if forward else e.routes[::-1])
            city = self.index[e.v] if forward else self.index[e.u]
            used |= bit
        return best_len, tuple(routes)


def _euler(edges: Sequence[_Edge], start: str) -> tuple[str, ...]:
    """Hierholzer: an order of all ``edges`` as one trail from ``start`` (route ids)."""
    adj: dict[str, list[int]] = {}
    for i, e in enumerate(edges):
        adj.setdefault(e.u, []).append(i)
        adj.setdefault(e.v, []).append(i)
    used = [False] * len(edges)
    stack: list[tuple[str, int]] = [(start, -1)]
    out: list[tuple[str, ...]] = []
    while stack:
        city, via = stack[-1]
        nxt = adj[city]
        while nxt and used[nxt[-1]]:
            nxt.pop()
        if nxt:
            i = nxt.pop()
            used[i] = True
            e = edges[i]
            stack.append((e.v if e.u == city else e.u, i))
        else:
            stack.pop()
            if via >= 0:
                e = edges[via]
                # walked from the previous city to `city`
                out.append(e.routes if e.v == city else e.routes[::-1])
    return tuple(r for part in reversed(out) for r in part)


def _contract(edges: Sequence[_Edge], degree: Mapping[str, int]) -> list[_Edge]:
    """Replace every chain of degree-2 places by one edge (the component has branch places)."""
    adj: dict[str, list[int]] = {}
    for i, e in enumerate(edges):
        adj.setdefault(e.u, []).append(i)
        adj.setdefault(e.v, []).append(i)
    used = [False] * len(edges)
    out: list[_Edge] = []
    for start in sorted(adj):
        if degree[start] == 2:
            continue
        for i in adj[start]:
            if used[i]:
                continue
            used[i] = True
            city, w = start, 0
            chain: list[str] = []
            e = edges[i]
            while True:
                nxt = e.v if e.u == city else e.u
                chain.extend(e.routes if e.u == city else e.routes[::-1])
                w += e.w
                city = nxt
                if degree[city] != 2:
                    break
                j = next(k for k in adj[city] if not used[k])
                used[j] = True
                e = edges[j]
            out.append(_Edge(start, city, w, tuple(chain)))
    return out


class _Removal:
    """Search for the lightest set of edges whose removal leaves a trail (see :func:`_search`)."""

    def __init__(self, edges: Sequence[_Edge]) -> None:
        names = sorted({e.u for e in edges} | {e.v for e in edges})
        index = {v: i for i, v in enumerate(names)}
        self.n = len(names)
        self.ends = [(index[e.u], index[e.v]) for e in edges]
        self.weight = [e.w for e in edges]
        inc: list[list[int]] = [[] for _ in names]
        for i, (u, v) in enumerate(self.ends):
            inc[u].append(i)
            if v != u:
                inc[v].append(i)
        self.inc = [sorted(ids, key=lambda i: self.weight[i]) for ids in inc]
        dist = self._distances()
        # per place, the others by distance (for the T-join bound)
        self.nearest = [
            sorted((dist[u][v], 1 << v) for v in range(self.n) if v != u) for u in range(self.n)
        ]
        # removing edge i flips the parity of its two ends (nothing for a loop)
        self.flip = [(1 << u) ^ (1 << v) for u, v in self.ends]
        self.total = sum(self.weight)
        self.degree = [0] * self.n
        for u, v in self.ends:
            self.degree[u] += 1
            self.degree[v] += 1
        self.odd = 0
        for v, d in enumerate(self.degree):
            if d % 2:
                self.odd |= 1 << v
        self.budget = -1
        self.next_budget = 1 << 30
        self.seen: set[tuple[int, int]] = set()
        self.cap = 1 << 30
        self.found = (0, 0)  # (component weight, removed mask)
        # bad-place mask -> prefix sums of the sorted nearest distances (lower_bound)
        self._near: dict[int, list[int]] = {}

    def lower_bound(self, bad: int, need: int) -> int:
        """Weight any further removal must reach (a T-join bound).

        The edges still to remove pair up the ``bad`` places (a bitmask) that will
        not be trail ends along edge-disjoint paths, so each such place accounts for
        at least half the distance to its nearest other bad place (distances over
        the whole component, never more than over what is left).
        """
        prefix = self._near.get(bad)
        if prefix is None:
            near = []
            rest = bad
            while rest:
                low = rest & -rest
                rest ^= low
                others = bad ^ low
                near.append(
                    next((d for d, bit in self.nearest[low.bit_length() - 1] if others & bit), 0)
                )
            near.sort()
            prefix = [0]
            for d in near:
                prefix.append(prefix[-1] + d)
            self._near[bad] = prefix
        return (prefix[min(need, len(prefix) - 1)] + 1) // 2

    def _distances(self) -> list[list[int]]:
        """All-pairs shortest distances by edge weight (Dijkstra from every place)."""
        out = []
        for src in range(self.n):
            dist = [1 << 30] * self.n
            dist[src] = 0
            heap = [(0, src)]
            while heap:
                d, u = heapq.heappop(heap)
                if d > dist[u]:
                    continue
                for i in self.inc[u]:
                    a, b = self.ends[i]
                    v = b if a == u else a
                    nd = d + self.weight[i]
                    if nd < dist[v]:
                        dist[v] = nd
                        heapq.heappush(heap, (nd, v))
            out.append(dist)
        return out

    def best_component(self, removed: int) -> int:
        """Weight of the heaviest connected component left after ``removed``."""
        parent = list(range(self.n))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for i, (u, v) in enumerate(self.ends):
            if not removed >> i & 1:
                parent[find(u)] = find(v)
        totals: dict[int, int] = {}
        for i, (u, _) in enumerate(self.ends):
            if not removed >> i & 1:
                root = find(u)
                totals[root] = totals.get(root, 0) + self.weight[i]
        return max(totals.values(), default=0)

    def run(self, removed: int, spent: int, ends: int, odd: int) -> bool:
        """Depth-first over removals of weight <= budget; True once a trail of
        ``total - budget`` is left (stored in ``found``).

        ``removed``: bitmask of edges; ``ends``: bitmask of places chosen as the
        trail's ends; ``odd``: bitmask of places of odd degree after ``removed``.
        """
        key = (removed, ends)
        if key in self.seen:
            return False
        if len(self.seen) >= self.cap:
            raise _Exhausted
        self.seen.add(key)
        bad = odd & ~ends
        if not bad:
            weight = self.best_component(removed)
            if weight >= self.total - self.budget:
                self.found = (weight, removed)
                return True
            self.next_budget = min(self.next_budget, self.total - weight)
            return False
        slots = 2 - ends.bit_count()
        need = bad.bit_count() - slots
        if need > 0:
            bound = spent + self.lower_bound(bad, need)
            if bound > self.budget:
                self.next_budget = min(self.next_budget, bound)
                return False
        low = bad & -bad
        u = low.bit_length() - 1
        if slots and self.run(removed, spent, ends | low, odd):
            return True
        rest = [i for i in self.inc[u] if not removed >> i & 1]
        for i in rest:
            if self.try_remove(removed, spent, ends, odd, (i,)):
                return True
        # leave the place out of the trail altogether
        return len(rest) > 1 and self.try_remove(removed, spent, ends, odd, rest)

    def try_remove(self, removed: int, spent: int, ends: int, odd: int, ids: Sequence[int]) -> bool:
        """Remove the edges ``ids`` (if the budget allows) and search on."""
        for i in ids:
            spent += self.weight[i]
            removed |= 1 << i
            odd ^= self.flip[i]
        if spent > self.budget:
            self.next_budget = min(self.next_budget, spent)
            return False
        return self.run(removed, spent, ends, odd)


def _search(search: _Removal, edges: Sequence[_Edge], cap: int) -> Trail:
    """Longest trail of a contracted component with four or more odd places.

    A trail is a connected set of edges with at most two odd places, so the
    answer is the whole component minus the lightest set of edges whose removal
    leaves such a set. Removals are searched depth-first with a growing budget
    (iterative deepening, IDA*, from a T-join lower bound): each odd place that
    is not one of the two trail ends loses one of its edges, or all of them (it
    is left out of the trail). The first budget that leaves a trail of
    ``total - budget`` is optimal: every heavier trail would have been left by a
    smaller budget. Raises :class:`_Exhausted` past ``cap`` states in one round;
    the budget reached is kept in ``search`` so a later call resumes there.
    """
    search.cap = cap
    if search.budget < 0:
        search.budget = search.lower_bound(search.odd, search.odd.bit_count() - 2)
    while True:
        search.seen.clear()
        search.next_budget = 1 << 30
        if search.run(0, 0, 0, search.odd):
            break
        # IDA*: the next budget is the smallest that some pruned branch needed
        search.budget = search.next_budget
    weight, removed = search.found
    kept = [e for i, e in enumerate(edges) if not removed >> i & 1]
    # the heaviest component left is the trail: find it and walk it
    best: list[_Edge] = []
    for comp in _edge_components(kept):
        if sum(e.w for e in comp) == weight:
            best = comp
            break
    degree: dict[str, int] = {}
    for e in best:
        degree[e.u] = degree.get(e.u, 0) + 1
        degree[e.v] = degree.get(e.v, 0) + 1
    odd_left = sorted(x for x, d in degree.items() if d % 2)
    return weight, _euler(best, odd_left[0] if odd_left else best[0].u)


def _edge_components(edges: Sequence[_Edge]) -> list[list[_Edge]]:
    """``edges`` grouped by connected component."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in edges:
        parent[find(e.u)] = find(e.v)
    groups: dict[str, list[_Edge]] = {}
    for e in edges:
        groups.setdefault(find(e.u), []).append(e)
    return list(groups.values())


#: Entries each of :class:`TrailCache`'s two memos keeps before it is cleared. An entry is
#: about 0.7 KB (a route set and its trail; measured over 60 games on all six maps), and a
#: game adds about ten, so the two memos of a board stay under about 3 MiB and a long-running
#: process never fills them game after game (they held 50,000 each before: up to ~70 MiB a
#: board after months of games).
TRAIL_MEMO_LIMIT = 2048


class TrailCache:
    """Longest trails of route sets, memoised per connected component.

    Args:
        ends: route id -> (place a, place b, length).
        dead_ends: places a path may not pass through.
        limit: entries kept before the memo is cleared (bounds memory).

    A player's network changes by one route per claim, so all components but
    the one the claim joins are found in the memo: the update is incremental.
    """

    def __init__(
        self,
        ends: Callable[[str], tuple[str, str, int]],
        dead_ends: frozenset[str] | set[str] = frozenset(),
        limit: int = TRAIL_MEMO_LIMIT,
    ) -> None:
        self._ends = ends
        self._dead = dead_ends
        self._limit = limit
        self._memo: dict[frozenset[str], Trail] = {}
        self._sets: dict[frozenset[str], Trail] = {}

    def longest(self, routes: Iterable[str]) -> Trail:
        """``(length, route ids in path order)`` of one longest trail over ``routes``.

        Memoised twice: per whole route set (a player's network asked again, e.g.
        by views and final scoring) and per connected component (a new claim
        recomputes only the component it joins).
        """
        whole = frozenset(routes)
        hit = self._sets.get(whole)
        if hit is not None:
            return hit
        best: Trail = (0, ())
        for comp in components(sorted(whole), self._ends, self._dead):
            key = frozenset(comp)
            found = self._memo.get(key)
            if found is None:
                if len(self._memo) >= self._limit:
                    self._memo.clear()
                found = component_trail(sorted(comp), self._ends, self._dead)
                self._memo[key] = found
            if found[0] > best[0]:
                best = found
        if len(self._sets) >= self._limit:
            self._sets.clear()
        self._sets[whole] = best
        return best

    def clear(self) -> None:
        """Forget every memoised result (benchmarks time fresh computations)."""
        self._memo.clear()
        self._sets.clear()
