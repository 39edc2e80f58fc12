"""Longest continuous path: exact against exhaustive search, hard cases included."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from benchmarks.trail_cases import LONGEST_PATH_CASES
from engine.board import Board
from maps import available_maps, load_ruleset

#: every map the engine plays (Europe too while it is not offered to players)
RULES = {m: load_ruleset(m) for m in available_maps()}


def assert_valid_trail(board: Board, trail: tuple[str, ...], length: int) -> None:
    """``trail`` is a walk over distinct routes, never through a dead end, of ``length`` spaces."""
    assert len(set(trail)) == len(trail)
    assert sum(board.routes[r].length for r in trail) == length
    if not trail:
        return
    first = board.routes[trail[0]]
    ok = False
    for city in (first.a, first.b):
        at, good = city, True
        for i, rid in enumerate(trail):
            r = board.routes[rid]
            if at not in (r.a, r.b) or (i > 0 and at in board.dead_ends):
                good = False
                break
            at = r.other(at)
        ok = ok or good
    assert ok, trail


def cluster(board: Board, data, size: int, legal: bool) -> list[str]:
    """A connected-ish random set of routes grown from one route (both tracks allowed unless ``legal``)."""
    ids = sorted(board.routes)
    chosen = [data.draw(st_.sampled_from(ids))]
    while len(chosen) < size:
        cities = {c for rid in chosen for c in (board.routes[rid].a, board.routes[rid].b)}
        cand = sorted(
            {
                rid
                for c in cities
                for rid in board.adjacency[c]
                if rid not in chosen
                and not (legal and any(s in chosen for s in board.siblings(rid)))
            }
        )
        if not cand:
            break
        chosen.append(data.draw(st_.sampled_from(cand)))
    return chosen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_id=st_.sampled_from(sorted(RULES)),
    size=st_.integers(1, 12),
    legal=st_.booleans(),
    data=st_.data(),
)
def test_longest_path_equals_exhaustive_search(map_id, size, legal, data):
    """On random route sets of every map (both tracks of doubles too) the result is the exhaustive one."""
    board = RULES[map_id].board
    routes = cluster(board, data, size, legal)
    length, trail = board.longest_trail(routes)
    assert length == board.exhaustive_longest_trail(routes)[0]
    assert_valid_trail(board, trail, length)
    assert set(trail) <= set(routes)


@pytest.mark.parametrize("case", range(len(LONGEST_PATH_CASES)))
def test_hard_cases_are_exact(case):
    """The adversarial worst cases (dense knots, long spurs; 40-45 trains) give the exhaustive answer."""
    map_id, routes = LONGEST_PATH_CASES[case]
    board = RULES[map_id].board
    assert sum(board.routes[r].length for r in routes) <= RULES[map_id].params.pieces
    assert all(not set(board.siblings(r)) & set(routes) for r in routes), (
        "legal: one track per double"
    )
    length, trail = board.longest_trail(routes)
    assert length == board.exhaustive_longest_trail(routes)[0]
    assert_valid_trail(board, trail, length)


def test_both_tracks_of_several_doubles():
    """Owning both tracks of doubles (a synthetic, not a legal, state) is exact and valid."""
    board = RULES["usa"].board
    doubles = [g for g in board.groups.values() if len(g) == 2]
    routes = [r for g in doubles[:8] for r in g]
    length, trail = board.longest_trail(routes)
    assert length == board.exhaustive_longest_trail(routes)[0]
    assert_valid_trail(board, trail, length)


def test_countries_are_dead_ends():
    """Germany: a path may end in a country but never pass through it."""
    board = RULES["germany"].board
    routes = ["frankreich__freiburg__1", "frankreich__saarbrucken__1"]
    length, trail = board.longest_trail(routes)
    assert length == max(board.routes[r].length for r in routes) and len(trail) == 1


def test_incremental_memo_agrees_after_each_claim():
    """Growing a network one route at a time (the memo reuses components) matches a fresh board."""
    rules = load_ruleset("nordic")
    map_id, routes = next(c for c in LONGEST_PATH_CASES if c[0] == "nordic")
    for k in range(1, len(routes) + 1):
        fresh = Board.from_dict(
            {
                "cities": [vars_city(c) for c in rules.board.cities.values()],
                "routes": [vars_route(r) for r in rules.board.routes.values()],
                "tickets": [],
            }
        )
        assert rules.board.longest_path(routes[:k]) == fresh.longest_path(routes[:k])


def vars_city(c):
    return {"id": c.id, "name": c.name, "lat": c.lat, "lon": c.lon, "kind": c.kind}


def vars_route(r):
    return {
        "id": r.id,
        "a": r.a,
        "b": r.b,
        "length": r.length,
        "color": r.color,
        "tunnel": r.tunnel,
        "locomotives": r.locomotives,
        "group": r.group,
        "substitute": r.substitute,
    }
