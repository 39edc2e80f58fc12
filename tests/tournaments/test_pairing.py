"""The seating and the standings of tournaments: properties over random fields (Hypothesis)
and the fewest repeats checked against every seating on small fields."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.host.tournaments import (
    TableResult,
    elimination_first_round,
    elimination_next_round,
    elimination_rounds,
    met_pairs,
    place_points,
    repeats,
    round_robin,
    standings,
    swiss_tables,
    table_sizes,
)
from bot.host.tournaments.pairing import Table


@st.composite
def history(draw: st.DrawFn, most: int = 16) -> tuple[list[int], int, list[list[Table]]]:
    """A field (best first), a table size and earlier rounds seated at random."""
    n = draw(st.integers(2, most))
    size = draw(st.integers(2, 5))
    players = list(range(100, 100 + n))
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        shuffled = draw(st.permutations(players))
        start, tables = 0, []
        for s in table_sizes(n, size):
            tables.append(tuple(shuffled[start : start + s]))
            start += s
        rounds.append(tables)
    return draw(st.permutations(players)), size, rounds


@settings(max_examples=150, deadline=None)
@given(history())
def test_every_player_is_seated_once_at_tables_of_the_rule(
    case: tuple[list[int], int, list[list[Table]]],
) -> None:
    """Everyone sits exactly once; tables hold ``size`` or ``size - 1`` players (one table of
    one, a bye, only with tables of two and an odd field); no table is bigger than asked."""
    ranked, size, rounds = case
    tables = swiss_tables(ranked, size, met_pairs(rounds))
    seated = [p for t in tables for p in t]
    assert sorted(seated) == sorted(ranked)
    sizes = sorted(len(t) for t in tables)
    assert max(sizes) <= size and max(sizes) - min(sizes) <= 1
    if min(sizes) == 1:
        assert size == 2 and len(ranked) % 2 == 1 and sizes.count(1) == 1
    assert len(tables) == -(-len(ranked) // size)


def _seatings(players: list[int], sizes: Counter[int]) -> Iterator[list[Table]]:
    """Every way to seat ``players`` at tables of ``sizes`` (unordered tables)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in [s for s in sizes if sizes[s]]:
        for mates in itertools.combinations(rest, size - 1):
            sizes[size] -= 1
            left = [p for p in rest if p not in mates]
            for more in _seatings(left, sizes):
                yield [(first, *mates), *more]
            sizes[size] += 1


@settings(max_examples=120, deadline=None)
@given(history(most=9))
def test_repeats_are_as_few_as_any_seating_allows(
    case: tuple[list[int], int, list[list[Table]]],
) -> None:
    """On fields up to nine (byes aside), no seating of the same table sizes has fewer pairs
    that met before than the one chosen."""
    ranked, size, rounds = case
    met = met_pairs(rounds)
    tables = swiss_tables(ranked, size, met)
    field = [p for t in tables if len(t) > 1 for p in t]
    sizes = Counter(len(t) for t in tables if len(t) > 1)
    best = min(repeats(s, met) for s in _seatings(sorted(field), sizes))
    assert repeats([t for t in tables if len(t) > 1], met) == best


def test_nine_at_tables_of_three_never_meet_twice_in_four_rounds() -> None:
    """Nine players can play four rounds at tables of three without a repeat (a resolvable
    design); the seating finds it round after round."""
    ranked = list(range(1, 10))
    met: Counter[frozenset[int]] = Counter()
    for _ in range(4):
        tables = swiss_tables(ranked, 3, met)
        assert repeats(tables, met) == 0
        met.update(met_pairs([tables]))
        ranked = ranked[1:] + ranked[:1]


def test_a_big_swiss_round_has_no_repeat_when_one_can_be_avoided() -> None:
    """256 players at tables of four over six rounds: never a repeat."""
    ranked = list(range(256))
    met: Counter[frozenset[int]] = Counter()
    for r in range(6):
        tables = swiss_tables(ranked, 4, met)
        assert repeats(tables, met) == 0
        met.update(met_pairs([tables]))
        ranked = ranked[::-1] if r % 2 else ranked[1:] + ranked[:1]


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    assert swiss_tables([1, 2, 3, 4, 5], 2, Counter())[-1] == (5,)
    assert swiss_tables([1, 2, 3, 4, 5], 2, Counter(), had_bye=[5])[-1] == (4,)


@given(st.integers(2, 12))
def test_a_round_robin_meets_everyone_once(n: int) -> None:
    """n - 1 rounds (n with byes for an odd n), every pair exactly once, everyone seated once
    per round."""
    players = list(range(n))
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = [frozenset(t) for r in rounds for t in r if len(t) == 2]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:
        assert sorted(p for t in r for p in t) == players


def test_an_elimination_of_eight_is_the_standard_bracket() -> None:
    seeds = [10, 20, 30, 40, 50, 60, 70, 80]
    first = elimination_first_round(seeds, 2)
    assert first == [(10, 80), (40, 50), (20, 70), (30, 60)]
    assert elimination_next_round([10, 40, 20, 30], 2) == [(10, 40), (20, 30)]
    assert elimination_rounds(8, 2) == 3 and elimination_rounds(5, 2) == 3
    assert elimination_first_round([1, 2, 3], 2) == [(1,), (2, 3)]  # the best seed's bye


def test_place_points_split_ties() -> None:
    assert place_points([1, 2, 3]) == [2, 1, 0]
    assert place_points([1, 1, 3]) == [1.5, 1.5, 0]
    assert place_points([2, 1, 2, 4]) == [1.5, 3, 1.5, 0]
    assert place_points([1]) == [1.0]


def test_standings_break_ties_by_buchholz_then_margin() -> None:
    """1 and 3 both won once; 1 beat 2 who has more points than 4 whom 3 beat: 1 is ahead on
    Buchholz. 5 and 6 are equal on points and Buchholz: the margin decides."""
    results = [
        TableResult((1, 2), (1, 2), (100, 90)),
        TableResult((3, 4), (1, 2), (100, 10)),
        TableResult((2, 4), (1, 2), (50, 40)),
        TableResult((5, 6), (1, 1), (70, 70)),
    ]
    lines = standings([1, 2, 3, 4, 5, 6], results)
    order = [s.player for s in lines]
    assert order.index(1) < order.index(3)
    assert lines[order.index(1)].buchholz == 1 and lines[order.index(3)].buchholz == 0
    five, six = lines[order.index(5)], lines[order.index(6)]
    assert (five.points, five.buchholz, five.margin) == (six.points, six.buchholz, six.margin)
    assert five.place == six.place
    assert sum(s.points for s in lines) == 4


def test_each_format_says_when_it_is_over() -> None:
    """Swiss: after the planned rounds; round robin: after its schedule; elimination: one
    player left; any format: fewer than two players still in."""
    from bot.host.tournaments import first_round, next_round

    tables, planned = first_round("swiss", 2, [1, 2, 3, 4], 0)
    assert planned == 2 and sorted(p for t in tables for p in t) == [1, 2, 3, 4]
    won = [TableResult(t, (1, 2), (10, 5)) for t in tables]
    assert next_round("swiss", 2, 2, [won], [1, 3, 2, 4], [1, 2, 3, 4])
    assert next_round("swiss", 2, 1, [won], [1, 3, 2, 4], [1, 2, 3, 4]) == []
    assert next_round("swiss", 2, 5, [won], [1], [1, 2, 3, 4]) == []
    final = [TableResult((1, 4), (2, 1), (50, 60))]
    assert next_round("elimination", 2, 0, [final], [1, 4], [1, 2, 3, 4]) == []
    first, rounds = first_round("round_robin", 2, [1, 2, 3], 0)
    assert rounds == 3 and sorted(len(t) for t in first) == [1, 2]


def test_the_losers_of_an_elimination_are_out_once_their_table_is_done() -> None:
    from bot.host.tournaments import knocked_out

    current = [((1, 8), TableResult((1, 8), (2, 1), (40, 70))), ((4, 5), None), ((2,), None)]
    assert knocked_out(range(1, 9), current) == {1, 3, 6, 7}
