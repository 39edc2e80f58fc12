"""Rule tests for the classic (USA) rules, one scenario per rule (usa-bga-gamehelp-de.txt)."""

from __future__ import annotations

import pytest

from engine import (
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    Pass,
    SetupError,
    apply,
    legal_actions,
    new_game,
)
from engine.types import LOCOMOTIVE
from maps import load_ruleset
from tests.scenario import all_cards, scenario

L = LOCOMOTIVE


@pytest.fixture(scope="module")
def usa():
    return load_ruleset("usa")


def codes(excinfo) -> str:
    return excinfo.value.code


# ------------------------------------------------------------------ setup
def test_deck_has_110_cards_12_per_colour_14_locomotives(usa):
    """110 cards: 12 of each of 8 colours and 14 locomotives."""
    st = new_game(usa, seats=3, seed=5)
    cards = all_cards(st)
    assert sum(cards.values()) == 110
    assert cards.pop(L) == 14
    assert sorted(cards.values()) == [12] * 8


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_deals_4_cards_5_face_up_3_tickets_45_trains(usa, seats):
    """Each seat gets 4 cards, 45 trains and 3 tickets to choose from; 5 cards lie face up."""
    st = new_game(usa, seats=seats, seed=11)
    assert all(p.card_count == 4 and p.pieces == 45 and len(p.offer) == 3 for p in st.players)
    assert len([c for c in st.face_up if c]) == 5
    assert st.phase == "setup" and sorted(st.seats_to_act()) == list(range(seats))


@pytest.mark.parametrize("seats", [0, 1, 6])
def test_player_count_outside_2_to_5_is_refused(usa, seats):
    """USA seats 2-5 players; other counts raise SetupError player_count."""
    with pytest.raises(SetupError) as e:
        new_game(usa, seats=seats, seed=1)
    assert (
        e.value.code == "player_count" and e.value.detail["min"] == 2 and e.value.detail["max"] == 5
    )


def test_initial_tickets_keep_at_least_two_in_any_seat_order(usa):
    """Initial tickets are chosen by all seats at once: any order; keeping 1 of 3 is refused."""
    st = new_game(usa, seats=3, seed=3)
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, KeepTickets(2, st.players[2].offer[:1]))
    assert codes(e) == "must_keep_at_least" and e.value.detail["min"] == 2
    returned = st.players[2].offer[2]
    st = apply(usa, st, KeepTickets(2, tuple(st.players[2].offer[:2]))).state
    assert st.ticket_decks["main"][0] == returned  # under the deck
    st = apply(usa, st, KeepTickets(0, tuple(st.players[0].offer))).state
    assert st.phase == "setup"
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, DrawBlind(st.active))
    assert codes(e) in ("setup_tickets_first", "waiting_for_players")
    st = apply(usa, st, KeepTickets(1, tuple(st.players[1].offer[1:]))).state
    assert st.phase == "play" and [len(p.tickets) for p in st.players] == [3, 2, 2]


# ------------------------------------------------------------------ drawing cards
def test_face_up_locomotive_first_is_the_whole_draw(usa):
    """Taking a face-up locomotive first ends the turn at once."""
    st = scenario(usa, face_up=[L, "red", "blue", "green", "black"], deck=["white"] * 10)
    t = apply(usa, st, DrawFaceUp(0, 0))
    assert (
        t.state.active == 1
        and t.state.players[0].hand.get(L, 0) == st.players[0].hand.get(L, 0) + 1
    )


def test_face_up_locomotive_may_not_be_second(usa):
    """After one card, a face-up locomotive is not a legal second card."""
    st = scenario(usa, face_up=["red", L, "blue", "green", "black"], deck=["white"] * 10)
    st = apply(usa, st, DrawFaceUp(0, 0)).state
    assert st.step == "second_card" and st.active == 0
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, DrawFaceUp(0, 1))
    assert codes(e) == "locomotive_second"
    assert DrawFaceUp(0, 1) not in legal_actions(usa, st, 0)


def test_blind_locomotive_counts_as_one_card(usa):
    """A locomotive from the deck is one card: a second draw follows."""
    st = scenario(usa, face_up=["red", "blue", "green", "black", "white"], deck=["pink", L])
    st = apply(usa, st, DrawBlind(0)).state
    assert st.step == "second_card" and st.active == 0
    st = apply(usa, st, DrawBlind(0)).state
    assert st.active == 1


def test_face_up_slot_is_refilled_at_once(usa):
    """A taken face-up card is replaced by the deck's top card."""
    st = scenario(usa, face_up=["red", "blue", "green", "black", "white"], deck=["pink", "orange"])
    st = apply(usa, st, DrawFaceUp(0, 2)).state
    assert st.face_up[2] == "orange" and st.deck == ["pink"]


def test_three_face_up_locomotives_reset_the_row(usa):
    """A third face-up locomotive discards all five and deals five new cards."""
    st = scenario(
        usa, face_up=["red", L, L, "green", "black"], deck=["white"] * 5 + [L], discard=[]
    )
    st = apply(usa, st, DrawFaceUp(0, 0)).state
    assert st.face_up == ["white"] * 5
    assert sorted(st.discard) == sorted([L, L, L, "green", "black"])


def test_face_up_reset_never_loops_forever(usa):
    """When only locomotives are left to deal, the row stays as it is."""
    st = scenario(usa, face_up=["red", L, L, "green", "black"], deck=[L, L, L], discard=[])
    st = apply(usa, st, DrawFaceUp(0, 0)).state  # refill with L: three locos
    row = st.face_up
    assert row.count(L) >= 3  # could not be improved, and apply returned


def test_empty_deck_reshuffles_the_discard(usa):
    """Drawing from an empty deck first shuffles the discard into a new deck."""
    st = scenario(
        usa, face_up=["red", "blue", "green", "black", "white"], deck=[], discard=["pink"] * 4
    )
    t = apply(usa, st, DrawBlind(0))
    assert t.state.players[0].hand["pink"] == st.players[0].hand.get("pink", 0) + 1
    assert len(t.state.deck) == 3 and t.state.discard == []
    assert any(e.kind == "deck_reshuffled" for e in t.events)


def test_drawing_is_not_legal_when_nothing_is_left(usa):
    """No deck, no discard, no face-up cards: no draw action is legal."""
    st = scenario(usa, face_up=[None] * 5, deck=[], discard=[])
    kinds = {a.kind for a in legal_actions(usa, st, 0)}
    assert "draw_blind" not in kinds and "draw_face_up" not in kinds
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, DrawBlind(0))
    assert codes(e) == "deck_empty"


def test_second_draw_skipped_when_nothing_left(usa):
    """When no second card can be drawn, the turn ends after the first."""
    st = scenario(usa, face_up=["red", None, None, None, None], deck=[], discard=[])
    st = apply(usa, st, DrawFaceUp(0, 0)).state
    assert st.active == 1


def test_empty_face_up_slots_come_back_once_spent_cards_reach_the_discard(usa):
    """Deck and discard empty, slots empty; a claim's cards refill the row at turn end."""
    st = scenario(
        usa,
        hands={0: {"pink": 4}},
        face_up=["red", None, None, "blue", None],
        deck=[],
        discard=[],
    )
    t = apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=4)))
    assert t.state.face_up == ["red", "pink", "pink", "blue", "pink"]
    assert t.state.deck == ["pink"] and t.state.discard == []
    refills = [e for e in t.events if e.kind == "face_up_refilled"]
    assert [e.slot for e in refills] == [1, 2, 4]
    assert t.events[-1].kind == "turn_started"
    # the next player can now take a face-up card and a second one
    kinds = [a.kind for a in legal_actions(usa, t.state, 1)]
    assert kinds.count("draw_face_up") == 5 and "draw_blind" in kinds


def test_refill_applies_the_three_locomotive_reset(usa):
    """A turn-end refill that shows a third locomotive discards the row and deals a new one."""
    st = scenario(
        usa,
        hands={0: {"locomotive": 1, "pink": 3}},
        face_up=[L, L, None, "red", "blue"],
        deck=[],
        discard=[],
    )
    t = apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=3, locomotive=1)))
    kinds = [e.kind for e in t.events]
    row = t.state.face_up
    assert "face_up_refilled" in kinds
    # 3 pink + 1 locomotive came back: if the locomotive was dealt, the row was reset
    if "face_up_reset" in kinds:
        assert sum(1 for c in row if c == L) < 3
    else:
        assert row[2] == "pink"
    assert sum(1 for c in row if c == L) < 3 or not t.state.deck


# ------------------------------------------------------------------ claiming routes
def test_claim_coloured_route_with_its_colour(usa):
    """Denver-Omaha (4 pink) takes 4 pink cards and scores 7."""
    st = scenario(usa, hands={0: {"pink": 5}})
    st2 = apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=4))).state
    p = st2.players[0]
    assert st2.owners["denver__omaha__1"] == 0 and p.hand == {"pink": 1}
    assert p.pieces == st.players[0].pieces - 4 and p.route_points == st.players[0].route_points + 7
    assert st2.discard[-4:] == ["pink"] * 4


def test_claim_refuses_wrong_or_mixed_colours(usa):
    """A coloured route refuses another colour; a gray route refuses two colours."""
    st = scenario(usa, hands={0: {"red": 4, "blue": 2}})
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(red=4)))
    assert codes(e) == "cannot_pay"
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "el_paso__phoenix__1", Cards(red=2, blue=1)))
    assert codes(e) == "cannot_pay"


def test_gray_route_any_one_colour_and_locomotives_wild(usa):
    """Gray El Paso-Phoenix (3): 3 red, 2 blue + 1 locomotive, or 3 locomotives."""
    for pay in (Cards(red=3), Cards(blue=2, locomotive=1), Cards(locomotive=3)):
        st = scenario(usa, hands={0: {"red": 3, "blue": 2, L: 3}})
        st = apply(usa, st, ClaimRoute(0, "el_paso__phoenix__1", pay)).state
        assert st.owners["el_paso__phoenix__1"] == 0


def test_payment_must_be_exact_and_in_hand(usa):
    """Too many cards, or cards not held, are refused."""
    st = scenario(usa, hands={0: {"pink": 5}})
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=5)))
    assert codes(e) == "cannot_pay"
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=3, locomotive=1)))
    assert codes(e) == "cards_not_in_hand"


def test_claim_needs_enough_trains(usa):
    """A 6-route cannot be claimed with 5 trains left."""
    st = scenario(usa, hands={0: {"black": 6}}, pieces={0: 5})
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "el_paso__los_angeles__1", Cards(black=6)))
    assert codes(e) == "not_enough_pieces"


def test_claimed_route_is_taken(usa):
    """A claimed route cannot be claimed again."""
    st = scenario(usa, hands={1: {"pink": 4}}, owners={"denver__omaha__1": 0}, active=1)
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(1, "denver__omaha__1", Cards(pink=4)))
    assert codes(e) == "route_taken"


def test_double_route_never_both_to_one_player(usa):
    """With 4 players, the owner of one track may not take the other."""
    st = scenario(usa, 4, hands={0: {"red": 3}}, owners={"denver__salt_lake_city__2": 0})
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "denver__salt_lake_city__1", Cards(red=3)))
    assert codes(e) == "double_route_own"


@pytest.mark.parametrize("seats,allowed", [(2, False), (3, False), (4, True), (5, True)])
def test_double_route_only_one_track_with_2_or_3_players(usa, seats, allowed):
    """With 2-3 players the second track of a double route is locked; with 4-5 it is free."""
    st = scenario(
        usa, seats, hands={1: {"red": 3}}, owners={"denver__salt_lake_city__2": 0}, active=1
    )
    action = ClaimRoute(1, "denver__salt_lake_city__1", Cards(red=3))
    if allowed:
        assert apply(usa, st, action).state.owners["denver__salt_lake_city__1"] == 1
    else:
        with pytest.raises(IllegalAction) as e:
            apply(usa, st, action)
        assert codes(e) == "double_route_locked"


@pytest.mark.parametrize("length,points", [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15)])
def test_route_points_table(usa, length, points):
    """Route points 1/2/4/7/10/15 by length."""
    assert usa.params.route_points[length] == points


def test_one_route_per_turn(usa):
    """After a claim the turn passes on."""
    st = scenario(usa, hands={0: {"pink": 8}})
    st = apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=4))).state
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, ClaimRoute(0, "kansas_city__saint_louis__2", Cards(pink=2)))
    assert codes(e) == "not_your_turn"


# ------------------------------------------------------------------ tickets
def test_draw_tickets_three_keep_at_least_one_rest_under_deck(usa):
    """Draw 3, keep 1 or more; returned tickets go under the deck."""
    st = scenario(usa)
    top3 = st.ticket_decks["main"][-3:][::-1]
    st = apply(usa, st, DrawTickets(0)).state
    assert st.step == "keep_tickets" and sorted(st.players[0].offer) == sorted(top3)
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, KeepTickets(0, ()))
    assert codes(e) == "must_keep_at_least"
    keep = st.players[0].offer[0]
    st = apply(usa, st, KeepTickets(0, (keep,))).state
    assert keep in st.players[0].tickets and set(st.ticket_decks["main"][:2]) == set(top3) - {keep}


def test_draw_tickets_fewer_when_fewer_left_and_none_when_empty(usa):
    """With 2 tickets left only 2 are drawn; with none, drawing tickets is not legal."""
    st = scenario(usa)
    st.ticket_decks["main"] = st.ticket_decks["main"][:2]
    st2 = apply(usa, st, DrawTickets(0)).state
    assert len(st2.players[0].offer) == 2
    st.ticket_decks["main"] = []
    assert all(a.kind != "draw_tickets" for a in legal_actions(usa, st, 0))
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, DrawTickets(0))
    assert codes(e) == "no_tickets_left"


def test_ticket_not_offered_is_refused(usa):
    """Keeping a ticket that was not drawn is refused."""
    st = apply(usa, scenario(usa), DrawTickets(0)).state
    other = next(t for t in usa.board.tickets if t not in st.players[0].offer)
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, KeepTickets(0, (other,)))
    assert codes(e) == "ticket_not_offered"


# ------------------------------------------------------------------ turn order and the end
def test_not_your_turn(usa):
    """Only the active seat acts."""
    st = scenario(usa, active=0)
    with pytest.raises(IllegalAction) as e:
        apply(usa, st, DrawBlind(1))
    assert codes(e) == "not_your_turn"


def test_last_round_every_player_one_more_turn(usa):
    """Ending a turn with 2 trains or fewer gives every seat, the trigger included, one more turn."""
    st = scenario(usa, 3, hands={0: {"pink": 4}}, pieces={0: 6}, deck=["white"] * 40, active=0)
    st = apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=4))).state
    assert st.last_round_by == 0 and st.players[0].pieces == 2
    order = []
    while not st.finished:
        order.append(st.active)
        st = apply(usa, st, DrawBlind(st.active)).state
        if not st.finished and st.step == "second_card":
            st = apply(usa, st, DrawBlind(st.active)).state
    assert order == [1, 2, 0]


def test_last_round_not_triggered_at_three(usa):
    """Three trains left does not start the last round."""
    st = scenario(usa, 2, hands={0: {"pink": 4}}, pieces={0: 7})
    st = apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=4))).state
    assert st.last_round_by is None


def test_pass_only_when_nothing_else_is_legal(usa):
    """Pass is refused while a draw is possible; legal and game-ending when nobody can do anything."""
    st = scenario(usa)
    with pytest.raises(IllegalAction):
        apply(usa, st, Pass(0))
    st = scenario(usa, hands={0: {}, 1: {}}, face_up=[None] * 5, deck=[], discard=[])
    st.ticket_decks["main"] = []
    assert legal_actions(usa, st, 0) == [Pass(0)]
    st = apply(usa, st, Pass(0)).state
    st = apply(usa, st, Pass(1)).state
    assert st.finished


# ------------------------------------------------------------------ scoring
def test_final_scoring_tickets_longest_path_and_breakdown(usa):
    """Longest path 10 goes to all tied players, breakdowns sum to scores."""
    routes0 = ["denver__omaha__1", "kansas_city__omaha__1", "denver__kansas_city__1"]  # a triangle
    routes1 = ["el_paso__los_angeles__1", "el_paso__houston__1"]  # 12 spaces in a line
    st = scenario(
        usa,
        2,
        owners={**{r: 0 for r in routes0}, **{r: 1 for r in routes1}},
        tickets={0: [], 1: []},
    )
    from engine.scoring import final_scores

    res = final_scores(usa, st)
    s0, s1 = res.seats
    assert s0.longest_path == 9  # 4 + 1 + 4 around the triangle: a city may be revisited
    assert s1.longest_path == 12
    assert s1.breakdown["longest_path"] == 10 and s0.breakdown["longest_path"] == 0
    for s in res.seats:
        assert s.score == sum(s.breakdown.values())


def test_ticket_completed_and_failed_points(usa):
    """A connected ticket adds its points; an unconnected one subtracts them."""
    from engine.scoring import final_scores

    tix = {t.id: t for t in usa.board.tickets.values()}
    done = next(t for t in tix.values() if {t.a, t.b} == {"denver", "el_paso"})
    failed = next(t for t in tix.values() if {t.a, t.b} == {"boston", "miami"})
    st = scenario(
        usa,
        2,
        owners={"denver__santa_fe__1": 0, "el_paso__santa_fe__1": 0},
        tickets={0: [done.id, failed.id], 1: []},
    )
    s0 = final_scores(usa, st).seats[0]
    assert s0.completed == [done.id] and s0.failed == [failed.id]
    assert s0.breakdown["tickets"] == done.points - failed.points


def test_longest_path_never_reuses_a_route(usa):
    """Two parallel tracks of one pair count once each, not as a loop reused."""
    b = usa.board
    assert b.longest_path(["denver__omaha__1"]) == 4
    assert (
        b.longest_path(
            [
                "denver__omaha__1",
                "kansas_city__omaha__1",
                "denver__kansas_city__1",
                "kansas_city__saint_louis__1",
            ]
        )
        == 11
    )


def test_winner_tiebreak_most_tickets_then_longest_path(usa):
    """Equal points: more completed tickets wins; still equal: longer path; still equal: shared."""
    from engine.scoring import final_scores

    st = scenario(usa, 2, tickets={0: [], 1: []})
    res = final_scores(usa, st)
    assert res.winners == [0, 1]  # nothing at all: shared win
    tix = next(t for t in usa.board.tickets.values() if {t.a, t.b} == {"denver", "el_paso"})
    st = scenario(
        usa,
        2,
        owners={
            "denver__santa_fe__1": 0,
            "el_paso__santa_fe__1": 0,
            "kansas_city__omaha__1": 1,
            "kansas_city__oklahoma_city__1": 1,
        },
        tickets={0: [tix.id], 1: []},
    )
    st.players[1].route_points = st.players[0].route_points + tix.points + 10  # equal totals
    res = final_scores(usa, st)
    a, b = res.seats
    assert a.score == b.score and res.winners == [0]


def test_apply_never_modifies_its_input(usa):
    """apply returns a new state; the given one is unchanged even when the action fails."""
    from engine.codec import encode_state

    st = scenario(usa, hands={0: {"pink": 4}})
    before = encode_state(st)
    apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(pink=4)))
    with pytest.raises(IllegalAction):
        apply(usa, st, ClaimRoute(0, "denver__omaha__1", Cards(red=4)))
    assert encode_state(st) == before
