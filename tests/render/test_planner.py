"""The ticket planner against brute force on small maps, and on real games."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import DrawTickets, apply, player_view
from engine.board import Board
from engine.planner import (
    STATION_DETOUR,
    cheapest_path,
    plan_offer,
    plan_ticket,
    plan_tickets,
    usable_routes,
)
from engine.testing import build_state
from maps import load_ruleset

from .test_render import _game

COLORS = ["red", "blue", "green", "gray"]


def _small_board(rng: random.Random, cities: int = 6, routes: int = 10) -> Board:
    ids = [f"c{i}" for i in range(cities)]
    kinds = {c: "city" for c in ids}
    kinds[ids[-1]] = "country" if rng.random() < 0.5 else "city"  # sometimes a dead end
    pairs = list(itertools.combinations(ids, 2))
    chosen = [rng.choice(pairs) for _ in range(routes)]
    count: dict[tuple[str, str], int] = {}
    data_routes = []
    for a, b in chosen:
        n = count.get((a, b), 0) + 1
        count[(a, b)] = n
        data_routes.append(
            {
                "id": f"{a}__{b}__{n}",
                "a": a,
                "b": b,
                "length": rng.randint(1, 6),
                "color": rng.choice(COLORS),
            }
        )
    tickets = [
        {"id": f"{a}__{b}", "a": a, "b": b, "points": 5} for a, b in itertools.combinations(ids, 2)
    ]
    return Board.from_dict(
        {
            "cities": [
                {"id": c, "name": c.upper(), "lat": 0, "lon": 0, "kind": kinds[c]} for c in ids
            ],
            "routes": data_routes,
            "tickets": tickets,
        }
    )


def _brute(
    board: Board, owners: dict[str, int], seat: int, a: str, b: str, doubles_open: bool
) -> int | None:
    """The least car spaces of any set of claimable routes that, with the seat's own, joins a and b."""
    mine = [r for r, s in owners.items() if s == seat]
    free = [
        r for r, c in usable_routes(board, owners, seat, doubles_open=doubles_open).items() if c > 0
    ]
    best = None
    for n in range(len(free) + 1):
        for subset in itertools.combinations(free, n):
            groups = [board.routes[r].group for r in subset]
            if len(groups) != len(set(groups)):
                continue  # never two tracks of one double route
            cost = sum(board.routes[r].length for r in subset)
            if best is not None and cost >= best:
                continue
            if board.connected(a, b, mine + list(subset)):
                best = cost
    return best


@pytest.mark.parametrize("seed", range(40))
def test_plans_cost_what_brute_force_finds(seed: int) -> None:
    """On random 6-place maps with random claims, the plan's cars equal the brute-force minimum, the
    plan's routes are claimable and really join the ticket, and impossible means brute force found none."""
    rng = random.Random(seed)
    board = _small_board(rng)
    owners = {r: rng.randrange(3) for r in board.routes if rng.random() < 0.35}
    doubles_open = rng.random() < 0.5
    usable = usable_routes(board, owners, 0, doubles_open=doubles_open)
    mine = [r for r, s in owners.items() if s == 0]
    for tid, t in board.tickets.items():
        plan = plan_ticket(board, owners, 0, tid, doubles_open=doubles_open)
        if plan.done:
            assert board.connected(t.a, t.b, mine)
            continue
        expect = _brute(board, owners, 0, t.a, t.b, doubles_open)
        assert plan.possible == (expect is not None), (seed, tid)
        if expect is None:
            continue
        assert plan.cars == expect, (seed, tid, plan)
        assert all(usable.get(r, 0) > 0 for r in plan.routes)
        assert board.connected(t.a, t.b, mine + list(plan.routes))
        assert sum(plan.colors.values()) == plan.cars
        assert plan.detour >= 0 and (plan.detour == 0 or plan.lost)


def test_lost_routes_and_detour() -> None:
    """A taken route on the direct way is reported lost, with the detour's extra cars."""
    board = Board.from_dict(
        {
            "cities": [{"id": c, "name": c, "lat": 0, "lon": 0} for c in "abc"],
            "routes": [
                {"id": "a__b", "a": "a", "b": "b", "length": 2, "color": "red"},
                {"id": "a__c", "a": "a", "b": "c", "length": 2, "color": "blue"},
                {"id": "c__b", "a": "c", "b": "b", "length": 3, "color": "gray"},
            ],
            "tickets": [{"id": "a__b", "a": "a", "b": "b", "points": 4}],
        }
    )
    free = plan_ticket(board, {}, 0, "a__b", doubles_open=True)
    assert free.routes == ("a__b",) and free.cars == 2 and not free.lost and free.detour == 0
    taken = plan_ticket(board, {"a__b": 1}, 0, "a__b", doubles_open=True)
    assert taken.routes == ("a__c", "c__b") and taken.cars == 5
    assert taken.lost == ("a__b",) and taken.detour == 3
    assert taken.colors == {"blue": 2, "gray": 3}
    blocked = plan_ticket(board, {"a__b": 1, "c__b": 2}, 0, "a__b", doubles_open=True)
    assert not blocked.possible and blocked.routes == ()
    half = plan_ticket(board, {"a__c": 0}, 0, "a__b", doubles_open=True, pieces=1)
    assert half.cars == 2 and not half.enough_pieces


def test_a_plan_counts_the_routes_already_yours() -> None:
    """``owned``: the reader's routes on the planned path (what an offered ticket would reuse)."""
    board = Board.from_dict(
        {
            "cities": [{"id": c, "name": c, "lat": 0, "lon": 0} for c in "abcd"],
            "routes": [
                {"id": "a__b", "a": "a", "b": "b", "length": 2, "color": "red"},
                {"id": "b__c", "a": "b", "b": "c", "length": 3, "color": "blue"},
                {"id": "c__d", "a": "c", "b": "d", "length": 4, "color": "gray"},
            ],
            "tickets": [{"id": "a__d", "a": "a", "b": "d", "points": 9}],
        }
    )
    fresh = plan_ticket(board, {}, 0, "a__d", doubles_open=True)
    assert fresh.cars == 9 and fresh.owned == 0
    half = plan_ticket(board, {"a__b": 0, "b__c": 0}, 0, "a__d", doubles_open=True)
    assert half.cars == 4 and half.owned == 2 and half.routes == ("c__d",)


def test_offered_tickets_are_planned_in_offer_order() -> None:
    """plan_offer: one plan per ticket on offer, for the reader's own network."""
    rules, states = _game("usa")
    state = next(s for s in states if s.phase == "play" and s.step == "turn" and s.owners)
    state = apply(rules, state, DrawTickets(state.active)).state
    view = player_view(rules, state, state.active)
    plans = plan_offer(rules, view)
    assert [p.ticket for p in plans] == list(view.offer) and plans
    for plan in plans:
        again = plan_ticket(
            rules.board,
            view.public.owners,
            view.seat,
            plan.ticket,
            doubles_open=view.public.num_seats >= rules.params.double_routes_min_players,
            pieces=view.public.players[view.seat].pieces,
        )
        assert plan == again


def test_countries_are_never_passed_through() -> None:
    """Germany's rule: a chain may end in a country but not pass through it."""
    board = Board.from_dict(
        {
            "cities": [
                {"id": "a", "name": "A", "lat": 0, "lon": 0},
                {"id": "x", "name": "X", "lat": 0, "lon": 0, "kind": "country"},
                {"id": "b", "name": "B", "lat": 0, "lon": 0},
            ],
            "routes": [
                {"id": "a__x", "a": "a", "b": "x", "length": 1, "color": "red"},
                {"id": "x__b", "a": "x", "b": "b", "length": 1, "color": "red"},
                {"id": "a__b", "a": "a", "b": "b", "length": 6, "color": "red"},
            ],
            "tickets": [{"id": "a__b", "a": "a", "b": "b", "points": 4}],
        }
    )
    assert cheapest_path(board, "a", "b", {r: 1 for r in board.routes}) == (1, ("a__b",))
    assert plan_ticket(board, {}, 0, "a__b", doubles_open=True).cars == 6


@pytest.mark.parametrize("map_id", ["usa", "germany", "paris"])
def test_plans_of_real_games(map_id: str) -> None:
    """Mid-game on real maps: done tickets match the view, open ones name claimable routes."""
    rules, states = _game(map_id)
    st = states[len(states) // 2]
    view = player_view(rules, st, 1)
    plans = plan_tickets(rules, view)
    assert [p.ticket for p in plans] == [t.id for t in view.tickets]
    assert [p.done for p in plans] == [t.done for t in view.tickets]
    for p in plans:
        assert all(r not in st.owners for r in p.routes)
    with pytest.raises(ValueError):
        plan_tickets(rules, view, seat=0)


def test_the_hand_image_draws_the_plan() -> None:
    """The hand image grows a plan line under every open ticket and marks the planned routes."""
    import io

    from PIL import Image

    from render import render_hand_png

    rules, states = _game("usa")
    view = player_view(rules, states[len(states) // 2], 0)
    plans = plan_tickets(rules, view)
    assert any(not p.done for p in plans)
    with_plan = Image.open(io.BytesIO(render_hand_png(view, planner=True)))
    without = Image.open(io.BytesIO(render_hand_png(view, planner=False)))
    assert with_plan.height >= without.height
    assert with_plan.convert("RGB").tobytes() != without.convert("RGB").tobytes()


def test_planner_text_in_both_languages() -> None:
    """The screen-reader text names each ticket with its state, cars, colours and lost routes."""
    from sentences.plan import planner_text
    from words import words_for

    board = Board.from_dict(
        {
            "cities": [{"id": c, "name": c.upper(), "lat": 0, "lon": 0} for c in "abcd"],
            "routes": [
                {"id": "a__b", "a": "a", "b": "b", "length": 2, "color": "red"},
                {"id": "a__c", "a": "a", "b": "c", "length": 2, "color": "blue"},
                {"id": "c__b", "a": "c", "b": "b", "length": 3, "color": "gray"},
                {"id": "c__d", "a": "c", "b": "d", "length": 1, "color": "red"},
            ],
            "tickets": [
                {"id": "a__b", "a": "a", "b": "b", "points": 4},
                {"id": "a__c", "a": "a", "b": "c", "points": 3},
                {"id": "b__d", "a": "b", "b": "d", "points": 9},
            ],
        }
    )
    owners = {"a__b": 1, "a__c": 0, "c__d": 2}
    plans = [plan_ticket(board, owners, 0, t, doubles_open=True) for t in board.tickets]
    en = planner_text(words_for("en"), plans, board).splitlines()
    assert en[0] == "**Planner for your destination tickets**"
    assert en[1].startswith("• A – B (4): 3 more spaces") and "A - B" in en[1] and "detour" in en[1]
    assert en[2] == "• A – C (3): done."
    assert en[3].startswith("• B – D (9): can no longer be completed")
    de = planner_text(words_for("de"), plans, board)
    assert "Planer für deine Zielkarten" in de and "erfüllt" in de and "Umweg" in de
    assert planner_text(words_for("en"), [], board) == ""


# ---------------------------------------------------------------- Europe: train stations
EUROPE_MINE = ["frankfurt__munchen__1", "munchen__wien__1"]
#: One track of every route into Paris (2 players: the other tracks are closed).
PARIS_TAKEN = sorted(
    {r for r in load_ruleset("europe").board.adjacency["paris"] if r.endswith("__1")}
)


def _europe_plan(owned_by_other: list[str], stations: dict[str, int]):  # type: ignore[no-untyped-def]
    rules = load_ruleset("europe")
    state = build_state(
        rules,
        seats=2,
        owned={0: EUROPE_MINE, 1: owned_by_other},
        tickets={0: ["paris__wien"]},
        stations=stations,
    )
    (plan,) = plan_tickets(rules, player_view(rules, state, 0))
    return plan


def test_a_station_is_suggested_where_a_needed_route_was_taken() -> None:
    """Every route into Paris taken: the plan builds a train station at one end of the cheapest
    taken route (Frankfurt - Paris joins the reader's line) and claims nothing more; with all
    three stations built elsewhere the ticket is lost."""
    plan = _europe_plan(PARIS_TAKEN, {})
    assert plan.possible and plan.station in ("frankfurt", "paris")
    assert plan.borrowed == ((plan.station, "frankfurt__paris__1"),)
    assert plan.routes == () and plan.cars == 0
    assert "frankfurt__paris__1" in plan.lost
    spent = _europe_plan(PARIS_TAKEN, {"madrid": 0, "roma": 0, "lisboa": 0})
    assert not spent.possible and spent.station is None and spent.borrowed == ()


def test_a_built_station_is_used_and_no_second_one_suggested() -> None:
    """The reader's station in Frankfurt already lets the ticket use Frankfurt - Paris."""
    plan = _europe_plan(PARIS_TAKEN, {"frankfurt": 0})
    assert plan.possible and plan.station is None
    assert plan.borrowed == (("frankfurt", "frankfurt__paris__1"),) and plan.cars == 0
    # another player's station there is no help: the reader builds its own elsewhere
    theirs = _europe_plan(PARIS_TAKEN, {"frankfurt": 1})
    assert theirs.station == "paris" and theirs.borrowed[0][0] == "paris"


def test_a_short_detour_beats_a_station() -> None:
    """Frankfurt - Paris taken, the way round by Bruxelles costs one space more: no station (it
    would cost a turn, cards and 4 points), the plan claims the detour."""
    plan = _europe_plan(["frankfurt__paris__1"], {})
    assert plan.station is None and plan.borrowed == ()
    assert plan.detour == 1 < STATION_DETOUR
    assert plan.routes == ("bruxelles__paris__1", "bruxelles__frankfurt__1")


def test_the_suggestion_is_told_in_the_hand_image_and_the_text() -> None:
    """The hand image's plan line and the screen-reader text name the city and the route, in
    English and German (Bahnhof)."""
    from render import hand_image, recorded_text
    from sentences.plan import plan_line
    from words import words_for

    rules = load_ruleset("europe")
    state = build_state(
        rules, seats=2, owned={0: EUROPE_MINE, 1: PARIS_TAKEN}, tickets={0: ["paris__wien"]}
    )
    view = player_view(rules, state, 0)
    (plan,) = plan_tickets(rules, view)
    city = rules.board.cities[plan.station].name
    text = plan_line(words_for("en", rules.meta), plan, rules.board)
    assert f"Build a train station in {city} to use Frankfurt - Paris." in text
    de = plan_line(words_for("de", rules.meta), plan, rules.board)
    assert f"Baue einen Bahnhof in {city}, um Frankfurt - Paris zu nutzen." in de
    with recorded_text() as drawn:
        hand_image(view, ["Ann", "Ben"])
    assert any(f"build a train station in {city} for Frankfurt - Paris" in t for t in drawn), [
        t for t in drawn if "space" in t
    ]
    built = build_state(
        rules,
        seats=2,
        owned={0: EUROPE_MINE, 1: PARIS_TAKEN},
        tickets={0: ["paris__wien"]},
        stations={"frankfurt": 0},
    )
    (via,) = plan_tickets(rules, player_view(rules, built, 0))
    text = plan_line(words_for("en", rules.meta), via, rules.board)
    assert "Your train station in Frankfurt lets it use Frankfurt - Paris." in text
