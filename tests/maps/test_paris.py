"""Paris: rules (paris-rulebook-de.txt) and the provisional board (tools/paris_board.py).

Rules: 2-4 players, 15 buses, 46 transport cards (8 white, 6 each of blue,
red, yellow, green, purple, 8 wild), 2 cards and 2 tickets at the start, draw
2 tickets keep >= 1 (one left: draw it and keep it), no gray routes, French
flags (keep one played blue/white/red card, no wild card, no duplicate
colour; a complete set at the end of a turn scores 4 and is discarded), last
round at 1 bus, double routes single-track with 2 players.
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
    KeepFlagCard,
    KeepTickets,
    SetupError,
    apply,
    legal_actions,
    new_game,
    replay,
)
from engine.ai import choose_action
from engine.codec import decode_action, decode_state, encode_action, encode_state
from engine.rules.paris import ParisPlayer, flag_player, offered_colors
from engine.scoring import final_scores
from engine.types import LOCOMOTIVE
from maps import load_ruleset
from maps.loader import read_map_data
from tests.engine.test_properties import check_invariants as shared_invariants
from tests.scenario import all_cards, scenario

L = LOCOMOTIVE


@pytest.fixture(scope="module")
def paris():
    return load_ruleset("paris")


def route(rules, color, length, skip=()):
    """The first route of ``color`` and ``length``, in data order, not in ``skip`` nor a track beside one."""
    b = rules.board
    return next(
        r.id
        for r in b.routes.values()
        if r.color == color and r.length == length and not set(b.groups[r.group]) & set(skip)
    )


def claim_and_flag(rules, st, seat, color, length, *, keep, skip=()):
    """``seat`` claims a ``color`` route of ``length`` paying its colour, then keeps the card or declines."""
    rid = route(rules, color, length, skip)
    st.players[seat].hand[color] = st.players[seat].hand.get(color, 0) + length
    t = apply(rules, st, ClaimRoute(seat, rid, Cards({color: length})))
    assert t.state.step == "flag" and offered_colors(t.state) == (color,)
    t2 = apply(rules, t.state, KeepFlagCard(seat, color if keep else None))
    return t2.state, rid, t.events + t2.events


# ------------------------------------------------------------------ setup and deck
def test_deck_46_cards(paris):
    """8 wild bus cards, 8 white, 6 each of blue, red, yellow, green, purple."""
    cards = all_cards(new_game(paris, seats=3, seed=2))
    assert sum(cards.values()) == 46
    assert cards == {L: 8, "white": 8, "blue": 6, "red": 6, "yellow": 6, "green": 6, "purple": 6}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_2_cards_2_tickets_15_buses(paris, seats):
    st = new_game(paris, seats=seats, seed=9)
    assert all(p.card_count == 2 and p.pieces == 15 and len(p.offer) == 2 for p in st.players)


@pytest.mark.parametrize("seats", [1, 5])
def test_only_2_to_4_players(paris, seats):
    with pytest.raises(SetupError):
        new_game(paris, seats=seats, seed=1)


def test_face_up_row_reset_at_setup(paris):
    """No game starts with 3+ face-up wild bus cards; some seeds needed the reset."""
    resets = 0
    for seed in range(300):
        st = new_game(paris, seats=2, seed=seed)
        assert sum(1 for c in st.face_up if c == L) < 3
        resets += bool(st.discard)
    assert resets > 0


def test_one_ticket_left_draw_it_and_keep_it(paris):
    """Draw 2 keep >= 1; with one ticket left it is the whole draw and must be kept."""
    st = scenario(paris, 2)
    st = apply(paris, st, DrawTickets(0)).state
    assert len(st.players[0].offer) == 2
    st = scenario(paris, 2)
    last = st.ticket_decks["main"][-1]
    st.ticket_decks["main"] = [last]
    st = apply(paris, st, DrawTickets(0)).state
    assert st.players[0].offer == [last]
    with pytest.raises(IllegalAction) as e:
        apply(paris, st, KeepTickets(0, ()))
    assert e.value.code == "must_keep_at_least"
    st = apply(paris, st, KeepTickets(0, (last,))).state
    assert last in st.players[0].tickets and not st.ticket_decks["main"]


def test_no_gray_route_means_no_free_colour(paris):
    """Every route needs its own colour: another colour is refused, wild cards pay."""
    rid = route(paris, "yellow", 2)
    st = scenario(paris, 2, hands={0: {"green": 2, L: 2}})
    with pytest.raises(IllegalAction):
        apply(paris, st, ClaimRoute(0, rid, Cards(green=2)))
    st = apply(paris, st, ClaimRoute(0, rid, Cards({L: 2}))).state
    assert st.owners[rid] == 0


# ------------------------------------------------------------------ French flags
def test_flag_offered_and_kept(paris):
    """Claiming a blue route with a blue card offers the blue card; keeping it takes it off the discard."""
    st = scenario(paris, 2, hands={0: {"blue": 1}}, discard=[])
    rid = route(paris, "blue", 1)
    t = apply(paris, st, ClaimRoute(0, rid, Cards(blue=1)))
    st = t.state
    assert st.step == "flag" and st.active == 0 and st.discard == ["blue"]
    assert [e.kind for e in t.events if e.kind == "flag_offered"] == ["flag_offered"]
    assert legal_actions(paris, st, 0) == [KeepFlagCard(0, "blue"), KeepFlagCard(0, None)]
    with pytest.raises(IllegalAction):
        apply(paris, st, DrawBlind(0))
    st = apply(paris, st, KeepFlagCard(0, "blue")).state
    assert flag_player(st, 0).flag_cards == ("blue",) and st.discard == [] and st.active == 1
    assert flag_player(st, 0).flags == 0 and st.players[0].bonus_points == 0


def test_flag_declined(paris):
    """Declining leaves the card on the discard and nothing in front of the player."""
    st = scenario(paris, 2, discard=[])
    st, _, events = claim_and_flag(paris, st, 0, "white", 2, keep=False)
    assert flag_player(st, 0).flag_cards == () and st.discard.count("white") == 2
    assert st.active == 1
    assert "flag_card_declined" in [e.kind for e in events]


def test_flag_never_a_wild_card(paris):
    """A route paid only with wild bus cards offers nothing; a mixed payment offers the coloured card."""
    rid = route(paris, "white", 2)
    st = scenario(paris, 2, hands={0: {L: 2}})
    st = apply(paris, st, ClaimRoute(0, rid, Cards({L: 2}))).state
    assert st.step == "turn" and st.active == 1 and flag_player(st, 0).flag_cards == ()
    st = scenario(paris, 2, hands={0: {L: 1, "white": 1}})
    st = apply(paris, st, ClaimRoute(0, rid, Cards({L: 1, "white": 1}))).state
    assert st.step == "flag" and offered_colors(st) == ("white",)
    with pytest.raises(IllegalAction) as e:
        apply(paris, st, KeepFlagCard(0, L))
    assert e.value.code == "flag_color_not_allowed"


def test_flag_no_duplicate_colour(paris):
    """With a blue card already in front, a blue route offers nothing."""
    st = scenario(paris, 2, hands={0: {"blue": 1}})
    st.players[0].extra = ParisPlayer(("blue",))
    st = apply(paris, st, ClaimRoute(0, route(paris, "blue", 1), Cards(blue=1))).state
    assert st.step == "turn" and st.active == 1 and flag_player(st, 0).flag_cards == ("blue",)


@pytest.mark.parametrize("color", ["yellow", "green", "purple"])
def test_flag_only_on_blue_white_red_routes(paris, color):
    length = 2
    st = scenario(paris, 2, hands={0: {color: length}})
    st = apply(paris, st, ClaimRoute(0, route(paris, color, length), Cards({color: length}))).state
    assert st.step == "turn" and st.active == 1


def test_keep_flag_card_outside_the_decision_is_refused(paris):
    st = scenario(paris, 2)
    with pytest.raises(IllegalAction) as e:
        apply(paris, st, KeepFlagCard(0, "blue"))
    assert e.value.code == "wrong_step"


def test_flag_scores_4_at_the_end_of_the_turn_and_discards_the_three(paris):
    """Blue and white in front, a red card kept: the turn ends with a flag, 4 points, the three discarded."""
    st = scenario(paris, 2, discard=[])
    st.players[0].extra = ParisPlayer(("blue", "white"))
    rid = route(paris, "red", 1)
    st.players[0].hand["red"] = 1
    st = apply(paris, st, ClaimRoute(0, rid, Cards(red=1))).state
    assert st.step == "flag" and st.players[0].bonus_points == 0  # not before the turn ends
    t = apply(paris, st, KeepFlagCard(0, "red"))
    st = t.state
    assert flag_player(st, 0).flags == 1 and st.players[0].bonus_points == 4
    assert flag_player(st, 0).flag_cards == () and sorted(st.discard) == ["blue", "red", "white"]
    kinds = [e.kind for e in t.events]
    assert kinds.index("flag_scored") < kinds.index("turn_started")


def test_several_flags_over_a_game_and_in_the_breakdown(paris):
    """Two flags in one game: 8 points, shown as ``flags`` in the final breakdown."""
    st = scenario(paris, 2, deck=["green"] * 30, discard=[], tickets={0: [], 1: []})
    used: list[str] = []
    for _ in range(2):
        for color, length in (("blue", 1), ("white", 2), ("red", 2)):
            st, rid, _ = claim_and_flag(paris, st, 0, color, length, keep=True, skip=used)
            used.append(rid)
            st = apply(paris, st, DrawBlind(1)).state
            st = apply(paris, st, DrawBlind(1)).state
    p0 = flag_player(st, 0)
    assert p0.flags == 2 and st.players[0].bonus_points == 8 and p0.flag_cards == ()
    res = final_scores(paris, st)
    assert res.seats[0].breakdown["flags"] == 8 and res.seats[1].breakdown["flags"] == 0
    assert set(res.seats[0].breakdown) == {"routes", "tickets", "flags"}
    assert res.seats[0].score == sum(res.seats[0].breakdown.values())


def test_flag_cards_are_conserved(paris):
    """A kept flag card stays counted (hands + deck + discard + face-up + flag cards = 46)."""
    from tests.scenario import keep_first

    st = keep_first(paris, new_game(paris, seats=2, seed=5)).clone()
    seat = st.active
    rid = route(paris, "blue", 1)
    assert "blue" in st.deck  # move one blue card from the deck into the active hand
    st.deck.remove("blue")
    st.players[seat].hand["blue"] = st.players[seat].hand.get("blue", 0) + 1
    assert sum(all_cards(st).values()) == 46
    st = apply(paris, st, ClaimRoute(seat, rid, Cards(blue=1))).state
    st = apply(paris, st, KeepFlagCard(seat, "blue")).state
    assert flag_player(st, seat).flag_cards == ("blue",) and sum(all_cards(st).values()) == 46


# ------------------------------------------------------------------ end and winner
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_last_round_at_1_bus_every_player_one_more_turn(paris, seats):
    """Ending a turn with 1 bus starts the last round exactly then; every seat, trigger included, plays once more."""
    rid = route(paris, "yellow", 2)
    st = scenario(
        paris, seats, hands={0: {"yellow": 2}}, pieces={0: 3}, deck=["green"] * 30, active=0
    )
    st = apply(paris, st, ClaimRoute(0, rid, Cards(yellow=2))).state
    assert st.players[0].pieces == 1 and st.last_round_by == 0
    order = []
    while not st.finished:
        order.append(st.active)
        st = apply(paris, st, DrawBlind(st.active)).state
        if not st.finished and st.step == "second_card":
            st = apply(paris, st, DrawBlind(st.active)).state
    assert order == [*range(1, seats), 0]


def test_two_buses_left_is_not_the_last_round(paris):
    rid = route(paris, "green", 1)
    st = scenario(paris, 2, hands={0: {"green": 1}}, pieces={0: 3})
    st = apply(paris, st, ClaimRoute(0, rid, Cards(green=1))).state
    assert st.players[0].pieces == 2 and st.last_round_by is None


def test_last_round_waits_for_the_flag_decision(paris):
    """A claim to 0 buses on a flag route: the last round starts when the flag decision ends the turn."""
    rid = route(paris, "blue", 1)
    st = scenario(paris, 2, hands={0: {"blue": 1}}, pieces={0: 1})
    st = apply(paris, st, ClaimRoute(0, rid, Cards(blue=1))).state
    assert st.step == "flag" and st.last_round_by is None
    st = apply(paris, st, KeepFlagCard(0, None)).state
    assert st.last_round_by == 0 and st.players[0].pieces == 0


@pytest.mark.parametrize(("seats", "allowed"), [(2, False), (3, True), (4, True)])
def test_double_routes_one_track_with_2_players(paris, seats, allowed):
    group = next(g for g in paris.board.groups.values() if len(g) == 2)
    first, second = (paris.board.routes[r] for r in group)
    st = scenario(
        paris, seats, hands={1: {second.color: second.length}}, owners={first.id: 0}, active=1
    )
    action = ClaimRoute(1, second.id, Cards({second.color: second.length}))
    if allowed:
        st = apply(paris, st, action).state
        assert st.owners[second.id] == 1
    else:
        with pytest.raises(IllegalAction) as e:
            apply(paris, st, action)
        assert e.value.code == "double_route_locked"


def test_winner_points_then_completed_tickets_then_shared(paris):
    b = paris.board
    st = scenario(paris, 2, tickets={0: [], 1: []})
    assert final_scores(paris, st).winners == [0, 1]
    t = min(b.tickets.values(), key=lambda t: t.points)
    _, path = b.shortest_path(t.a, t.b, {rid: r.length for rid, r in b.routes.items()})
    st = scenario(paris, 2, owners=dict.fromkeys(path, 1), tickets={0: [], 1: [t.id]})
    st.players[0].route_points = st.players[1].route_points + t.points
    res = final_scores(paris, st)
    assert res.seats[0].score == res.seats[1].score and res.winners == [1]


# ------------------------------------------------------------------ the provisional board
def test_board_constraints(paris):
    """No gray; lengths 1-3; blue only length 1, yellow only length 2; white the most spaces; doubles exist."""
    b = paris.board
    assert 18 <= len(b.cities) <= 22
    routes = list(b.routes.values())
    assert all(r.color != "gray" for r in routes)
    assert all(1 <= r.length <= 3 for r in routes)
    assert all(r.length == 1 for r in routes if r.color == "blue")
    assert all(r.length == 2 for r in routes if r.color == "yellow")
    spaces = Counter()
    for r in routes:
        spaces[r.color] += r.length
    assert set(spaces) == {"white", "blue", "red", "yellow", "green", "purple"}
    white = spaces.pop("white")
    assert white > max(spaces.values())
    total = white + sum(spaces.values())
    for c, n in spaces.items():  # in proportion to the card mix (6 of 38): within 25 %
        assert abs(n - total * 6 / 38) <= 0.25 * total * 6 / 38, c
    assert total >= 1.5 * 4 * 15  # 4 players with 15 buses each can end the game
    assert sum(1 for g in b.groups.values() if len(g) == 2) >= 5
    for g in b.groups.values():  # the tracks of a double have different colours
        assert len({b.routes[r].color for r in g}) == len(g)
    assert b.reachable(next(iter(b.cities)), b.routes) == set(b.cities)


def test_board_is_marked_provisional_and_real_places(paris):
    data = read_map_data("paris")
    assert data["provenance"]["status"] == "provisional" and data["provenance"]["notes"]
    assert (
        "provisional" in data["rules_text"]["en"].lower()
        and "vorläufig" in data["rules_text"]["de"].lower()
    )
    assert all(t.get("provisional") for t in data["tickets"])
    assert all(48.81 < c["lat"] < 48.91 and 2.25 < c["lon"] < 2.42 for c in data["cities"])
    assert {
        "montmartre",
        "sacre_coeur",
        "opera",
        "louvre",
        "tour_eiffel",
        "arc_de_triomphe",
        "champs_elysees",
        "notre_dame",
        "bastille",
        "gare_du_nord",
    } <= {c["id"] for c in data["cities"]}
    assert paris.params.last_round_at == 1 and paris.params.double_routes_min_players == 3
    assert dict(paris.params.route_points) == {1: 1, 2: 2, 3: 4}


def test_route_lengths_follow_real_distance():
    """Each length comes from the real distance (tools/paris_board.py): recomputed here."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import paris_board

    data = read_map_data("paris")
    for r in data["routes"]:
        assert r["length"] == paris_board.length_for(paris_board.distance_km(r["a"], r["b"])), r[
            "id"
        ]


def test_20_tickets_worth_the_fewest_spaces(paris):
    """20 tickets, distinct pairs, each worth the fewest spaces between its places (Board.shortest_path)."""
    b = paris.board
    assert len(b.tickets) == 20
    assert len({frozenset((t.a, t.b)) for t in b.tickets.values()}) == 20
    cost = {rid: r.length for rid, r in b.routes.items()}
    for t in b.tickets.values():
        assert t.provisional and b.shortest_path(t.a, t.b, cost)[0] == t.points, t.id
    assert min(t.points for t in b.tickets.values()) >= 3


# ------------------------------------------------------------------ random play
def check_invariants(rules, state, events=()):
    """Cards (flag cards included), pieces, routes, tickets conserved; route and flag points consistent."""
    shared_invariants(rules, state, rules.params.deck_size, events)
    for p in state.players:
        mine = flag_player(state, p.seat)
        assert len(set(mine.flag_cards)) == len(mine.flag_cards) and set(mine.flag_cards) <= {
            "blue",
            "white",
            "red",
        }
        assert p.bonus_points == 4 * mine.flags
        if state.step != "flag" or p.seat != state.active:
            assert len(mine.flag_cards) < 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st_.integers(0, 2**32),
    seats=st_.integers(2, 4),
    kind=st_.sampled_from(["random", "heuristic"]),
)
def test_random_play_to_the_end(paris, seed, seats, kind):
    """Random games end with every invariant at every step; score, replay and codec are exact."""
    state = new_game(paris, seats=seats, seed=seed)
    log = []
    while not state.finished:
        action = choose_action(paris, state, state.seats_to_act()[0], kind)
        transition = apply(paris, state, action)
        state = transition.state
        log.append(action)
        check_invariants(paris, state, transition.events)
        assert len(log) < 2000
        if len(log) % 25 == 0:
            assert decode_state(json.loads(json.dumps(encode_state(state)))) == state
    again = final_scores(paris, state)
    assert [s.score for s in again.seats] == [s.score for s in state.result.seats]
    for s, p in zip(state.result.seats, state.players, strict=True):
        flags = flag_player(state, p.seat).flags
        assert s.score == sum(s.breakdown.values()) and s.breakdown["flags"] == 4 * flags
    decoded = [decode_action(json.loads(json.dumps(encode_action(a)))) for a in log]
    assert decoded == log
    assert replay(paris, seats=seats, seed=seed, options=None, actions=decoded) == state
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


def test_board_and_tickets_are_what_the_tools_compute():
    """tools/make_provisional_tickets.py paris (from tools/paris_board.py) rebuilds the same routes and tickets."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import make_provisional_tickets as mpt

    data = read_map_data("paris")
    again = mpt.build_paris(None)
    assert again["routes"] == data["routes"] and again["tickets"] == data["tickets"]
    assert [c["id"] for c in again["cities"]] == [c["id"] for c in data["cities"]]
