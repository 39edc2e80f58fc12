"""Amsterdam: rules (amsterdam-rulebook-de.txt) and the map file (shared/reference/maps/amsterdam.json).

Rules: 2-4 players, 16 carts, 44 transport cards, 2 cards and 2 contracts at
the start, draw 2 contracts keep >= 1 (one left: draw it and keep it), cart
routes draw one merchandise card, merchandise ranking 8/6/4/2 - 8/5/2 - 8/4
with ties sharing a place and skipping the next, last round at 2 carts,
double routes single-track with 2 players.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from engine import (
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    SetupError,
    apply,
    new_game,
    replay,
)
from engine.ai import choose_action
from engine.codec import decode_action, decode_state, encode_action, encode_state
from engine.extras import stored
from engine.rules.amsterdam import (
    AmsterdamPlayer,
    AmsterdamState,
    merchandise,
    merchandise_left,
    merchandise_points,
)
from engine.scoring import final_scores
from engine.types import LOCOMOTIVE
from maps import load_ruleset
from tests.engine.test_properties import check_invariants as shared_invariants
from tests.scenario import all_cards, scenario

L = LOCOMOTIVE
CART_ROUTE = "nieuwe_waal__noordermarkt__1"  # green 2, cart symbol
PLAIN_ROUTE = "oude_kerk__waag__1"  # black 1, no cart symbol


@pytest.fixture(scope="module")
def ams():
    return load_ruleset("amsterdam")


def finish(rules, st):
    """Every seat draws blind cards until the game is over; returns the final state."""
    while not st.finished:
        st = apply(rules, st, DrawBlind(st.active)).state
    return st


# ------------------------------------------------------------------ setup and deck
def test_deck_44_cards_6_per_colour_8_wild(ams):
    """44 transport cards: 6 each of orange, red, pink, green, blue, black and 8 wild cards."""
    cards = all_cards(new_game(ams, seats=4, seed=3))
    assert sum(cards.values()) == 44
    assert cards.pop(L) == 8
    assert cards == dict.fromkeys(["orange", "red", "pink", "green", "blue", "black"], 6)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_2_cards_2_contracts_16_carts(ams, seats):
    """Each seat: 2 transport cards, 16 carts, 2 contracts offered; 16 merchandise cards wait."""
    st = new_game(ams, seats=seats, seed=9)
    assert all(p.card_count == 2 and p.pieces == 16 and len(p.offer) == 2 for p in st.players)
    assert merchandise_left(st) == 16


@pytest.mark.parametrize("seats", [1, 5])
def test_only_2_to_4_players(ams, seats):
    with pytest.raises(SetupError):
        new_game(ams, seats=seats, seed=1)


def test_initial_contracts_keep_at_least_one_rest_under_deck(ams):
    """Keeping none is refused; the unkept contract goes under the contract deck."""
    st = new_game(ams, seats=2, seed=4)
    offer = st.players[0].offer
    with pytest.raises(IllegalAction) as e:
        apply(ams, st, KeepTickets(0, ()))
    assert e.value.code == "must_keep_at_least"
    st = apply(ams, st, KeepTickets(0, (offer[0],))).state
    assert st.players[0].tickets == [offer[0]] and st.ticket_decks["main"][0] == offer[1]


def test_face_up_row_reset_at_setup(ams):
    """No game starts with 3+ face-up wild cards; some seeds needed the reset (cards in the discard)."""
    resets = 0
    for seed in range(300):
        st = new_game(ams, seats=2, seed=seed)
        assert sum(1 for c in st.face_up if c == L) < 3
        resets += bool(st.discard)
    assert resets > 0


# ------------------------------------------------------------------ contracts
def test_draw_contracts_two_keep_at_least_one(ams):
    """Draw 2, keep 1 or 2; returned ones go under the deck."""
    st = scenario(ams, 2)
    deck_before = list(st.ticket_decks["main"])
    st = apply(ams, st, DrawTickets(0)).state
    offer = st.players[0].offer
    assert offer == deck_before[-1:-3:-1]
    with pytest.raises(IllegalAction):
        apply(ams, st, KeepTickets(0, ()))
    st = apply(ams, st, KeepTickets(0, (offer[1],))).state
    assert st.ticket_decks["main"][0] == offer[0] and offer[1] in st.players[0].tickets


def test_one_contract_left_draw_it_and_keep_it(ams):
    """With one contract left it is the whole draw and must be kept."""
    st = scenario(ams, 2)
    last = st.ticket_decks["main"][-1]
    st.ticket_decks["main"] = [last]
    st = apply(ams, st, DrawTickets(0)).state
    assert st.players[0].offer == [last]
    with pytest.raises(IllegalAction) as e:
        apply(ams, st, KeepTickets(0, ()))
    assert e.value.code == "must_keep_at_least"
    st = apply(ams, st, KeepTickets(0, (last,))).state
    assert last in st.players[0].tickets and st.ticket_decks["main"] == [] and st.active == 1
    with pytest.raises(IllegalAction) as e:
        apply(ams, st, DrawTickets(1))
    assert e.value.code == "no_tickets_left"


# ------------------------------------------------------------------ merchandise
def test_cart_route_draws_one_merchandise_card(ams):
    """A cart-symbol route draws exactly one merchandise card; a plain route none."""
    st = scenario(ams, 2, hands={0: {"green": 2}, 1: {"black": 1}})
    t = apply(ams, st, ClaimRoute(0, CART_ROUTE, Cards(green=2)))
    st = t.state
    assert merchandise(st, 0) == 1 and merchandise_left(st) == 15
    assert [e.public for e in t.events if e.kind == "merchandise_drawn"] == [
        {"route": CART_ROUTE, "left": 15}
    ]
    st = apply(ams, st, ClaimRoute(1, PLAIN_ROUTE, Cards(black=1))).state
    assert merchandise(st, 1) == 0 and merchandise_left(st) == 15


def test_long_cart_route_still_one_card(ams):
    """One card per route, whatever its length (a length-4 cart route)."""
    st = scenario(ams, 2, hands={0: {"red": 4}})
    st = apply(ams, st, ClaimRoute(0, "haringpakkerstoren__oude_waal__1", Cards(red=4))).state
    assert merchandise(st, 0) == 1 and merchandise_left(st) == 15


def test_no_merchandise_once_the_16_are_gone(ams):
    """With 0 merchandise cards left a cart route gives nothing (and no event)."""
    st = scenario(ams, 2, hands={0: {"green": 2}})
    st.extra = None  # no merchandise card left
    t = apply(ams, st, ClaimRoute(0, CART_ROUTE, Cards(green=2)))
    assert merchandise(t.state, 0) == 0 and merchandise_left(t.state) == 0
    assert not [e for e in t.events if e.kind == "merchandise_drawn"]


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        # 4 players: 8/6/4/2
        ([4, 3, 2, 1], [8, 6, 4, 2]),
        ([3, 2, 2, 0], [8, 6, 6, 0]),
        ([3, 3, 1, 1], [8, 8, 4, 4]),
        ([2, 2, 2, 1], [8, 8, 8, 2]),
        ([1, 1, 1, 1], [8, 8, 8, 8]),
        ([5, 3, 3, 3], [8, 6, 6, 6]),
        ([0, 0, 0, 0], [0, 0, 0, 0]),
        # 3 players: 8/5/2
        ([3, 2, 1], [8, 5, 2]),
        ([2, 2, 1], [8, 8, 2]),
        ([3, 1, 1], [8, 5, 5]),
        ([1, 0, 0], [8, 0, 0]),
        ([2, 2, 2], [8, 8, 8]),
        # 2 players: 8/4
        ([2, 1], [8, 4]),
        ([1, 1], [8, 8]),
        ([1, 0], [8, 0]),
        ([0, 0], [0, 0]),
    ],
)
def test_merchandise_ranking_ties_share_and_skip(ams, counts, points):
    """Ranked by card count; tied players all get the place's points, the next place(s) skipped; 0 cards 0."""
    table = ams.params.merchandise["points"][str(len(counts))]
    assert merchandise_points(counts, list(table)) == points


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([3, 3, 1, 0], [8, 8, 4, 0]),
        ([2, 2, 2], [8, 8, 8]),
        ([1, 3, 1], [5, 8, 5]),
        ([0, 2], [0, 8]),
    ],
)
def test_merchandise_in_a_finished_games_breakdown(ams, counts, points):
    """A game played to its end shows the merchandise ranking in each breakdown; breakdowns sum to scores."""
    seats = len(counts)
    st = scenario(
        ams,
        seats,
        hands={0: {"black": 1}},
        pieces={0: 3},
        deck=["orange"] * 30,
        active=0,
        tickets={s: [] for s in range(seats)},
    )
    for seat, n in enumerate(counts):
        st.players[seat].extra = stored(AmsterdamPlayer(n))
    st.extra = stored(AmsterdamState(16 - sum(counts)))
    st = apply(ams, st, ClaimRoute(0, PLAIN_ROUTE, Cards(black=1))).state
    assert st.last_round_by == 0
    st = finish(ams, st)
    assert [s.breakdown["merchandise"] for s in st.result.seats] == points
    for s in st.result.seats:
        assert s.score == sum(s.breakdown.values())
        assert set(s.breakdown) == {"routes", "tickets", "merchandise"}


# ------------------------------------------------------------------ end and winner
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_last_round_at_2_carts_every_player_one_more_turn(ams, seats):
    """Ending a turn with 2 carts starts the last round exactly then; every seat, trigger included, plays once more."""
    st = scenario(
        ams, seats, hands={0: {"green": 2}}, pieces={0: 4}, deck=["orange"] * 30, active=0
    )
    st = apply(ams, st, ClaimRoute(0, CART_ROUTE, Cards(green=2))).state
    assert st.players[0].pieces == 2 and st.last_round_by == 0
    order = []
    while not st.finished:
        order.append(st.active)
        st = apply(ams, st, DrawBlind(st.active)).state
        if not st.finished and st.step == "second_card":
            st = apply(ams, st, DrawBlind(st.active)).state
    assert order == [*range(1, seats), 0]


def test_three_carts_left_is_not_the_last_round(ams):
    st = scenario(ams, 2, hands={0: {"black": 1}}, pieces={0: 4})
    st = apply(ams, st, ClaimRoute(0, PLAIN_ROUTE, Cards(black=1))).state
    assert st.players[0].pieces == 3 and st.last_round_by is None


@pytest.mark.parametrize(("seats", "allowed"), [(2, False), (3, True), (4, True)])
def test_double_routes_one_track_with_2_players(ams, seats, allowed):
    """2 players: the other track of a double is closed; 3-4 players: open to another player."""
    st = scenario(ams, seats, hands={1: {"red": 1}}, owners={"oude_kerk__waag__1": 0}, active=1)
    if allowed:
        st = apply(ams, st, ClaimRoute(1, "oude_kerk__waag__2", Cards(red=1))).state
        assert st.owners["oude_kerk__waag__2"] == 1
    else:
        with pytest.raises(IllegalAction) as e:
            apply(ams, st, ClaimRoute(1, "oude_kerk__waag__2", Cards(red=1)))
        assert e.value.code == "double_route_locked"


def test_winner_points_then_completed_contracts_then_shared(ams):
    """Equal points: more completed contracts wins; still equal: a shared win."""
    st = scenario(ams, 2, tickets={0: [], 1: []})
    assert final_scores(ams, st).winners == [0, 1]
    path = [
        "dam__jan_roodenpoortstoren__1",
        "jan_roodenpoortstoren__westermarkt__1",
        "de_drie_hendricken__westermarkt__1",
    ]
    st = scenario(
        ams, 2, owners=dict.fromkeys(path, 1), tickets={0: [], 1: ["dam__de_drie_hendricken"]}
    )
    st.players[0].route_points = st.players[1].route_points + 3  # equal totals
    res = final_scores(ams, st)
    assert res.seats[0].score == res.seats[1].score == 6
    assert res.seats[1].tickets_completed == 1 and res.winners == [1]


# ------------------------------------------------------------------ the map file
def test_map_counts_and_provenance(ams):
    """17 places, 45 tracks (13 doubles, 89 spaces), 16 cart routes, 24 contracts of which 20 provisional."""
    b = ams.board
    assert len(b.cities) == 17 and len(b.routes) == 45
    assert sum(r.length for r in b.routes.values()) == 89
    assert sum(1 for g in b.groups.values() if len(g) == 2) == 13
    assert sum(1 for r in b.routes.values() if r.carts) == 16
    assert len(b.tickets) == 24
    assert sum(1 for t in b.tickets.values() if t.provisional) == 20
    known = {(t.a, t.b): t.points for t in b.tickets.values() if not t.provisional}
    assert known == {
        ("dam", "de_drie_hendricken"): 3,
        ("blauwbrug", "oude_waal"): 4,
        ("noordermarkt", "waag"): 5,
        ("jordaan", "oude_kerk"): 6,
    }
    assert ams.meta["provenance"]["status"] == "provisional"
    assert dict(ams.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7}
    assert ams.params.double_routes_min_players == 3 and ams.params.last_round_at == 2


def test_map_marks_the_unverified_routes():
    """The 3 routes hidden under carts (colour, cart symbol) and the half-covered length are marked."""
    from maps.loader import read_map_data

    data = read_map_data("amsterdam")
    marked = {r["id"]: r["unverified"] for r in data["routes"] if r.get("unverified")}
    assert marked == {
        "oude_kerk__oude_waal__1": ["color", "carts"],
        "korenmetershuisje__noordermarkt__1": ["color", "carts"],
        "begijnhof__dam__1": ["color", "carts"],
        "jordaan__noordermarkt__1": ["length"],
    }
    by_id = {r["id"]: r for r in data["routes"]}
    assert (
        by_id["jordaan__noordermarkt__1"]["length"] == 2
        and by_id["jordaan__noordermarkt__1"]["color"] == "red"
    )
    assert all(by_id[r]["color"] == "gray" for r in marked if r != "jordaan__noordermarkt__1")
    ref = json.loads(json.dumps(data))  # the file is plain JSON
    assert all(-90 <= c["lat"] <= 90 for c in ref["cities"])


def test_contract_values_are_the_fewest_spaces(ams):
    """Every contract (known and provisional) is worth the fewest spaces between its places."""
    b = ams.board
    cost = {rid: r.length for rid, r in b.routes.items()}
    for t in b.tickets.values():
        assert b.shortest_path(t.a, t.b, cost)[0] == t.points, t.id


def test_provisional_contracts_spread_over_the_known_range(ams):
    """The 24 contracts cover values 3-6 (the known ones' range), 6 each, no pair twice."""
    b = ams.board
    assert Counter(t.points for t in b.tickets.values()) == {3: 6, 4: 6, 5: 6, 6: 6}
    assert len({frozenset((t.a, t.b)) for t in b.tickets.values()}) == 24


def test_real_amsterdam_coordinates(ams):
    assert all(52.35 < c.lat < 52.39 and 4.87 < c.lon < 4.92 for c in ams.board.cities.values())


# ------------------------------------------------------------------ random play
def check_invariants(rules, state, events=()):
    """Cards, pieces, routes, tickets and merchandise are conserved; points match the routes."""
    shared_invariants(rules, state, rules.params.deck_size, events)
    for p in state.players:
        assert merchandise(state, p.seat) == sum(
            1 for r in p.routes if rules.board.routes[r].carts
        )  # 16 cart routes, 16 cards
    assert merchandise_left(state) + sum(merchandise(state, p.seat) for p in state.players) == 16


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st_.integers(0, 2**32),
    seats=st_.integers(2, 4),
    kind=st_.sampled_from(["random", "heuristic"]),
)
def test_random_play_to_the_end(ams, seed, seats, kind):
    """Random games end with every invariant at every step; score, replay and codec are exact."""
    state = new_game(ams, seats=seats, seed=seed)
    log = []
    while not state.finished:
        action = choose_action(ams, state, state.seats_to_act()[0], kind)
        transition = apply(ams, state, action)
        state = transition.state
        log.append(action)
        check_invariants(ams, state, transition.events)
        assert len(log) < 2000
        if len(log) % 25 == 0:
            assert decode_state(json.loads(json.dumps(encode_state(state)))) == state
    again = final_scores(ams, state)
    assert [s.score for s in again.seats] == [s.score for s in state.result.seats]
    for s in state.result.seats:
        assert s.score == sum(s.breakdown.values()) and "merchandise" in s.breakdown
    decoded = [decode_action(json.loads(json.dumps(encode_action(a)))) for a in log]
    assert decoded == log
    assert replay(ams, seats=seats, seed=seed, options=None, actions=decoded) == state
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


def test_provisional_contracts_are_what_the_script_computes(ams):
    """tools/make_provisional_tickets.py, rerun on the map's board and known contracts, gives the same 20."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import make_provisional_tickets as mpt

    from maps.loader import read_map_data

    data = read_map_data("amsterdam")
    known = [t for t in data["tickets"] if not t.get("provisional")]
    again = mpt.provisional_tickets(ams.board, known, 24, [3, 4, 5, 6])
    assert again == [t for t in data["tickets"] if t.get("provisional")]
