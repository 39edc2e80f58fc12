"""A tournament's standings from its tables' results: pure functions, no I/O.

Place points (our rule, written down in ``docs/players/tournaments.md``): at a table of
``n`` players the winner gets ``n - 1`` points, the second ``n - 2`` ... the last 0;
players who share a place (the game's own ranking, tie-breaks included, still ties them)
share the points of the places they cover equally (two sharing first at a table of three:
``(2 + 1) / 2`` = 1.5 each). A bye is worth a win at a table of two: 1 point.

Tie-breaks, in order (FIDE Handbook C.07, Tie-Break Regulations: points, then Buchholz;
the score margin as Board Game Arena's tournaments break ties by the game's own score):

1. points;
2. Buchholz: the sum of the points of every opponent met, once per table shared (a bye
   has no opponent and adds nothing);
3. score margin: the sum over the player's games of their final score minus the average
   final score of the others at that table;
4. still equal: the same place (listed by sign-up order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Points for a bye (a win at a table of two).
BYE_POINTS = 1.0


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished table: ``players`` in seat order, each one's ``places`` (1 = best, ties
    share a number) and final ``scores`` (train points). A bye is a table of one."""

    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def bye(self) -> bool:
        """A table of one: the player had a bye."""
        return len(self.players) == 1


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of the standings: ``place`` (1 = best; equal lines share it),
    ``points`` (place points), ``buchholz`` (opponents' points), ``margin`` (score margin),
    ``games`` played, ``wins`` (first places, shared ones included), ``byes`` and
    ``active`` (False: left the tournament, or knocked out of an elimination)."""

    player: int
    place: int
    points: float
    buchholz: float
    margin: float
    games: int
    wins: int
    byes: int
    active: bool

    def key(self) -> tuple[float, float, float]:
        """What the standings sort by (greater first)."""
        return (self.points, self.buchholz, self.margin)


def place_points(places: Sequence[int]) -> list[float]:
    """Each seat's points for its place at a table of ``len(places)`` (see the module
    docstring): ``[1, 2, 3]`` gives ``[2, 1, 0]``, ``[1, 1, 3]`` gives ``[1.5, 1.5, 0]``.
    A table of one (a bye) gives :data:`BYE_POINTS`."""
    n = len(places)
    if n == 1:
        return [BYE_POINTS]
    points = []
    for place in places:
        sharing = sum(1 for p in places if p == place)
        covered = [n - q for q in range(place, place + sharing)]
        points.append(sum(covered) / sharing)
    return points


@dataclass(slots=True)
class _Tally:
    points: float = 0.0
    margin: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(
    players: Sequence[int],
    results: Iterable[TableResult],
    *,
    inactive: Iterable[int] = (),
) -> list[Standing]:
    """The standings of ``players`` (sign-up order, which breaks the last ties) from the
    finished ``results``, best first; ``inactive`` players (left, knocked out) keep their
    results but are marked."""
    tally = {p: _Tally() for p in players}
    for result in results:
        points = place_points(result.places)
        for i, player in enumerate(result.players):
            t = tally.setdefault(player, _Tally())
            t.points += points[i]
            if result.bye:
                t.byes += 1
                continue
            others = [s for j, s in enumerate(result.scores) if j != i]
            t.margin += result.scores[i] - sum(others) / len(others)
            t.games += 1
            t.wins += result.places[i] == 1
            t.opponents.extend(p for j, p in enumerate(result.players) if j != i)
    out = set(inactive)
    order = {p: i for i, p in enumerate(tally)}
    lines = [
        (
            p,
            t,
            sum(tally[o].points for o in t.opponents if o in tally),
        )
        for p, t in tally.items()
    ]
    lines.sort(key=lambda x: (-x[1].points, -x[2], -x[1].margin, order[x[0]]))
    ranked: list[Standing] = []
    for i, (p, t, buchholz) in enumerate(lines):
        key = (t.points, buchholz, round(t.margin, 6))
        place = i + 1
        if ranked and ranked[-1].key() == key:
            place = ranked[-1].place
        ranked.append(
            Standing(
                player=p,
                place=place,
                points=t.points,
                buchholz=buchholz,
                margin=round(t.margin, 6),
                games=t.games,
                wins=t.wins,
                byes=t.byes,
                active=p not in out,
            )
        )
    return ranked


def table_winner(result: TableResult) -> int:
    """Who advances from a table of a single elimination: the best place; a shared first
    place goes to the better seed (the table lists players by seed)."""
    best = min(result.places)
    return next(p for p, place in zip(result.players, result.places, strict=True) if place == best)


def ranks_by_player(lines: Sequence[Standing]) -> Mapping[int, int]:
    """Each player's place in ``lines``."""
    return {s.player: s.place for s in lines}


__all__ = [
    "BYE_POINTS",
    "Standing",
    "TableResult",
    "place_points",
    "ranks_by_player",
    "standings",
    "table_winner",
]
