"""Who sits at which table in a tournament round: pure functions of ids and standings.

No discord, no database, no clock, no randomness: the same inputs always give the same
tables, so a round can be recomputed and checked. Players are ``int`` ids (Discord user
ids); a table is a tuple of ids in seat order (the best placed first). Three formats
(see ``docs/players/tournaments.md``):

- **Swiss with tables** (:func:`swiss_tables`): the players sorted by standing are cut
  into tables whose sizes differ by at most one (:func:`table_sizes`); among all such
  seatings the one with the fewest pairs of players who already met is taken, searched
  depth first in standing order (the best placed player left anchors the next table and
  takes the best placed companions that add no repeat), so the first seating found is
  the greedy one and a better one replaces it only when it has fewer repeats. The
  search is exhaustive for small fields and stops after :data:`SEARCH_BUDGET` steps for
  big ones (keeping the best seating found); then players are swapped between two
  tables while a swap lowers the repeats. A table of one is a bye (only with tables
  of two and an odd number of players): it goes to the lowest placed player who has had
  no bye yet.
- **Round robin** (:func:`round_robin`): tables of two by the circle method (Berger
  tables, FIDE Handbook C.05 Annex 1): the first player stays, the others turn one place
  each round; with an odd number a bye (None) joins the circle, so everyone meets
  everyone once in ``n - 1`` rounds (``n`` with a bye).
- **Single elimination** (:func:`elimination_first_round`,
  :func:`elimination_next_round`): round one seats the players by the standard bracket
  order (1 against n, ...), later rounds seat the table winners in bracket order, so two
  neighbouring tables' winners meet next; a table of one is a bye and its player
  advances.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

#: Search steps of :func:`swiss_tables` before it keeps the best seating found.
SEARCH_BUDGET = 5_000

Table = tuple[int, ...]


class PairingError(ValueError):
    """A round that cannot be seated (no players, a table size below 2)."""


def table_sizes(players: int, size: int) -> list[int]:
    """The table sizes of a round: ``ceil(players / size)`` tables whose sizes differ by at
    most one, biggest first (10 players at tables of 3: ``[3, 3, 2, 2]``; 9 at tables of 2:
    four of 2 and a bye ``[..., 1]``).

    Raises:
        PairingError: no players, or ``size`` below 2.
    """
    if size < 2:
        raise PairingError(f"a table seats at least 2 players, not {size}")
    if players < 1:
        raise PairingError("no players to seat")
    tables = -(-players // size)
    small, extra = divmod(players, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def pairs_of(table: Iterable[int]) -> set[frozenset[int]]:
    """Every pair of players at ``table``."""
    return {frozenset(p) for p in itertools.combinations(sorted(set(table)), 2)}


def met_pairs(rounds: Iterable[Iterable[Table]]) -> Counter[frozenset[int]]:
    """How often each pair of players sat at one table in ``rounds``."""
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        for table in tables:
            met.update(pairs_of(table))
    return met


def repeats(tables: Iterable[Table], met: Counter[frozenset[int]]) -> int:
    """Pairs in ``tables`` that already met (each earlier meeting counts once)."""
    return sum(met[p] for t in tables for p in pairs_of(t))


def swiss_tables(
    ranked: Sequence[int],
    size: int,
    met: Counter[frozenset[int]],
    *,
    had_bye: Iterable[int] = (),
    budget: int = SEARCH_BUDGET,
) -> list[Table]:
    """A Swiss round: ``ranked`` (best first) seated at tables of ``size`` (sizes as
    :func:`table_sizes`) with as few repeat pairs as the search finds (see the module
    docstring); tables best first, the bye (a table of one) last.

    Raises:
        PairingError: as :func:`table_sizes`; a player listed twice.
    """
    if len(set(ranked)) != len(ranked):
        raise PairingError("a player is listed twice")
    sizes = table_sizes(len(ranked), size)
    field = list(ranked)
    bye: list[Table] = []
    if sizes[-1] == 1:
        sizes.pop()
        had = set(had_bye)
        who = next((p for p in reversed(field) if p not in had), field[-1])
        field.remove(who)
        bye = [(who,)]
    tables = _Search(met, budget).best(field, Counter(sizes))
    return _swap_down(tables, met) + bye


def _swap_down(tables: list[Table], met: Counter[frozenset[int]]) -> list[Table]:
    """Swap players between tables while a swap lowers the repeat pairs (one pass after the
    other, first improvement, the better placed tables looked at first); each table's
    players stay in standing order."""
    order = {p: i for i, t in enumerate(tables) for p in t}
    seen: dict[int, dict[int, int]] = {p: {} for p in order}
    for pair, times in met.items():
        x, y = tuple(pair)
        if x in seen and y in seen:
            seen[x][y] = seen[y][x] = times

    def clash(player: int, others: Iterable[int]) -> int:
        mine = seen[player]
        return sum(mine.get(o, 0) for o in others if o != player)

    seats = [list(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i, table in enumerate(seats):
            for a in list(table):
                here = clash(a, seats[i])
                if here and _swap_one(seats, i, a, here, clash):
                    improved = True
    return [tuple(sorted(t, key=lambda p: order[p])) for t in seats]


def _swap_one(
    seats: list[list[int]],
    i: int,
    a: int,
    here: int,
    clash: Callable[[int, Iterable[int]], int],
) -> bool:
    """Swap ``a`` (at table ``i``, ``here`` repeats) with the first player of another table
    whose swap lowers the repeats; True when one was made."""
    rest_i = [p for p in seats[i] if p != a]
    for j, other in enumerate(seats):
        if j == i:
            continue
        for b in other:
            rest_j = [p for p in other if p != b]
            before = here + clash(b, other)
            if clash(b, rest_i) + clash(a, rest_j) < before:
                seats[i] = [*rest_i, b]
                seats[j] = [*rest_j, a]
                return True
    return False


class _Search:
    """The depth-first search of :func:`swiss_tables` (branch and bound on repeats)."""

    def __init__(self, met: Counter[frozenset[int]], budget: int) -> None:
        self.met = met
        self.budget = budget
        self.found: list[Table] | None = None
        self.cost = 0

    def best(self, field: list[int], sizes: Counter[int]) -> list[Table]:
        """The seating of ``field`` at tables of ``sizes`` with the fewest repeats found."""
        if not field:
            return []
        self._walk(field, sizes, [], 0)
        assert self.found is not None
        return self.found

    def _walk(self, left: list[int], sizes: Counter[int], done: list[Table], cost: int) -> bool:
        """Extend ``done``; True when the search must stop (a perfect seating, no budget)."""
        self.budget -= 1
        if self.found is not None and (cost >= self.cost or self.budget <= 0):
            return self.budget <= 0
        if not left:
            self.found, self.cost = list(done), cost
            return cost == 0
        anchor, rest = left[0], left[1:]
        for size in sorted((s for s in sizes if sizes[s] > 0), reverse=True):
            for mates in self._mates(anchor, rest, size - 1):
                table = (anchor, *mates)
                added = sum(self.met[p] for p in pairs_of(table))
                sizes[size] -= 1
                remaining = [p for p in rest if p not in mates]
                stop = self._walk(remaining, sizes, [*done, table], cost + added)
                sizes[size] += 1
                if stop:
                    return True
        return False

    def _mates(self, anchor: int, rest: list[int], count: int) -> Iterable[tuple[int, ...]]:
        """Companions for ``anchor``: combinations of ``rest`` in standing order, those
        without a repeat first (the best placed such combination is the greedy choice)."""
        fresh = [p for p in rest if not self.met[frozenset((anchor, p))]]
        seen: set[tuple[int, ...]] = set()
        for pool in (fresh, rest):
            for mates in itertools.combinations(pool, count):
                if mates not in seen:
                    seen.add(mates)
                    yield mates


def round_robin(players: Sequence[int]) -> list[list[Table]]:
    """Every round of a round robin at tables of two (the circle method); a player without
    an opponent in a round gets a bye (a table of one).

    Raises:
        PairingError: fewer than two players, or a player listed twice.
    """
    if len(players) < 2 or len(set(players)) != len(players):
        raise PairingError("a round robin needs two or more different players")
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[list[Table]] = []
    for _ in range(n - 1):
        tables: list[Table] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            pair = tuple(p for p in (a, b) if p is not None)
            tables.append(pair)
        rounds.append(sorted(tables, key=len, reverse=True))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def bracket_order(count: int) -> list[int]:
    """Seed numbers (from 0) in standard bracket order for a bracket of ``count`` (a power
    of two): 8 gives ``[0, 7, 3, 4, 1, 6, 2, 5]``, so the two best meet only in the final."""
    order = [0]
    while len(order) < count:
        size = len(order) * 2
        order = [s for seed in order for s in (seed, size - 1 - seed)]
    return order


def elimination_first_round(seeded: Sequence[int], size: int) -> list[Table]:
    """The first round of a single elimination: ``seeded`` (best first) at tables of
    ``size``; with tables of two the standard bracket (the best seeds get the byes).

    Raises:
        PairingError: as :func:`table_sizes`.
    """
    if size != 2:
        return _chunk(list(seeded), table_sizes(len(seeded), size))
    slots = 1
    while slots < len(seeded):
        slots *= 2
    tables: list[Table] = []
    order = bracket_order(slots)
    for i in range(0, slots, 2):
        table = tuple(seeded[s] for s in order[i : i + 2] if s < len(seeded))
        if table:
            tables.append(table)
    return tables


def elimination_next_round(winners: Sequence[int], size: int) -> list[Table]:
    """The next round of a single elimination: the winners of the last round's tables in
    table order, neighbours together (sizes as :func:`table_sizes`)."""
    return _chunk(list(winners), table_sizes(len(winners), size))


def elimination_rounds(players: int, size: int) -> int:
    """How many rounds a single elimination of ``players`` at tables of ``size`` takes."""
    rounds = 0
    while players > 1:
        players = len(table_sizes(players, size))
        rounds += 1
    return rounds


def _chunk(players: list[int], sizes: Sequence[int]) -> list[Table]:
    tables: list[Table] = []
    start = 0
    for s in sizes:
        tables.append(tuple(players[start : start + s]))
        start += s
    return tables


__all__ = [
    "SEARCH_BUDGET",
    "PairingError",
    "Table",
    "bracket_order",
    "elimination_first_round",
    "elimination_next_round",
    "elimination_rounds",
    "met_pairs",
    "pairs_of",
    "repeats",
    "round_robin",
    "swiss_tables",
    "table_sizes",
]
