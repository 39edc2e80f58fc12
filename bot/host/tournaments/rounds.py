"""What each round of a tournament seats, by its format: pure decisions over the standings
and the results so far (no I/O). The service stores what these return.

- :func:`first_round`: round one (Swiss: by sign-up; round robin: the circle method's first
  round; elimination: the bracket) and the number of rounds planned;
- :func:`next_round`: the round after the ``played`` ones, or no tables when the
  tournament is over (the planned rounds are played, fewer than two players are left, or
  one player is left in an elimination);
- :func:`knocked_out`: who is out of a single elimination after the current round's
  tables done so far.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from .pairing import (
    Table,
    elimination_first_round,
    elimination_next_round,
    met_pairs,
    round_robin,
    swiss_tables,
)
from .standings import TableResult, table_winner


def first_round(
    fmt: str, size: int, players: Sequence[int], rounds: int
) -> tuple[list[Table], int]:
    """Round one's tables of ``players`` (sign-up order) and the rounds planned: Swiss
    ``rounds`` (0: ``ceil(log2(players))``), a round robin its schedule's length, an
    elimination 0 (it ends when one player is left)."""
    if fmt == "swiss":
        return swiss_tables(players, size, met_pairs([])), rounds or max(
            1, math.ceil(math.log2(len(players)))
        )
    if fmt == "round_robin":
        schedule = round_robin(players)
        return schedule[0], len(schedule)
    return elimination_first_round(players, size), rounds


def next_round(
    fmt: str,
    size: int,
    planned: int,
    played: Sequence[Sequence[TableResult]],
    ranked: Sequence[int],
    everyone: Sequence[int],
) -> list[Table]:
    """The tables of the round after ``played`` (every round's results, byes included):
    ``ranked`` are the players still in, best placed first, ``everyone`` who signed up (the
    round robin's schedule is theirs; a player who left gives their opponent a bye). No
    tables: the tournament is over."""
    nxt = len(played) + 1
    if len(ranked) < 2:
        return []
    if fmt == "swiss":
        if nxt > planned:
            return []
        met = met_pairs([r.players for r in tables] for tables in played)
        byes = [r.players[0] for tables in played for r in tables if r.bye]
        return swiss_tables(ranked, size, met, had_bye=byes)
    if fmt == "round_robin":
        if nxt > planned:
            return []
        keep = set(ranked)
        kept = (tuple(p for p in table if p in keep) for table in round_robin(everyone)[nxt - 1])
        return [table for table in kept if table]
    winners = [table_winner(r) for r in played[-1]]
    alive = [w for w in winners if w in set(ranked)]
    return elimination_next_round(alive, size) if len(alive) > 1 else []


def knocked_out(
    everyone: Iterable[int], current: Sequence[tuple[tuple[int, ...], TableResult | None]]
) -> set[int]:
    """Who is out of a single elimination: everyone not seated in the ``current`` round
    (``(players, result or None while it is played)`` per table), and the losers of its
    tables done so far."""
    alive = {p for players, _ in current for p in players}
    for players, result in current:
        if result is not None and not result.bye:
            alive -= set(players) - {table_winner(result)}
    return set(everyone) - alive


__all__ = ["first_round", "knocked_out", "next_round"]
