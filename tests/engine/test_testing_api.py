"""The supported test API (engine.testing): building mid-game states, and score sheets."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import (
    ClaimRoute,
    DrawBlind,
    SetupError,
    apply,
    legal_actions,
    new_game,
    score_sheets,
)
from engine.rules.amsterdam import merchandise, merchandise_left
from engine.testing import StateBuildError, build_state
from engine.types import LOCOMOTIVE, Cards
from maps import available_maps, load_ruleset
from tests.scenario import all_cards

USA = load_ruleset("usa")


def test_default_state_holds_every_card_once_and_is_playable():
    st = build_state(USA, seats=3, seed=5, active=1)
    assert st.phase == "play" and st.step == "turn" and st.active == 1
    assert dict(all_cards(st)) == dict(USA.params.deck)
    assert len([c for c in st.face_up if c]) == USA.params.face_up
    assert sorted(t for d in st.ticket_decks.values() for t in d) == sorted(
        USA.ticket_ids(st.options)
    )
    assert legal_actions(USA, st, 0) == []
    assert DrawBlind(1) in legal_actions(USA, st, 1)


def test_owned_routes_set_owners_points_and_pieces():
    ids = ["atlanta__nashville__1", "boston__montreal__1"]
    st = build_state(USA, seats=2, owned={1: ids})
    player = st.players[1]
    assert player.routes == ids and all(st.owners[r] == 1 for r in ids)
    lengths = [USA.board.routes[r].length for r in ids]
    assert player.pieces == USA.params.pieces - sum(lengths)
    assert player.route_points == sum(USA.params.route_points[n] for n in lengths)


def test_deck_top_is_the_last_element():
    deck = ["red"] * 12 + ["blue"]
    st = build_state(
        USA,
        seats=2,
        hands={0: {}},
        face_up=["green"] * 5,
        deck=deck,
        conserve_cards=False,
    )
    t = apply(USA, st, DrawBlind(0))
    assert t.state.players[0].hand == {"blue": 1}


def test_given_deck_puts_the_rest_in_the_discard():
    st = build_state(USA, seats=2, face_up=["red"] * 5, deck=["blue"] * 3)
    assert st.deck == ["blue"] * 3
    assert dict(all_cards(st)) == dict(USA.params.deck)
    assert Counter(st.discard)["red"] == USA.params.deck["red"] - 5


def test_card_conservation_is_checked():
    with pytest.raises(StateBuildError) as err:
        build_state(USA, hands={0: {"red": 13}})
    assert "more 'red' cards" in str(err.value)
    with pytest.raises(StateBuildError, match="missing"):
        build_state(USA, face_up=["red"] * 5, deck=["blue"], discard=[])
    # allowed when asked for
    st = build_state(USA, face_up=["red"] * 5, deck=["blue"], discard=[], conserve_cards=False)
    assert st.deck == ["blue"]


def test_every_problem_is_reported_at_once():
    with pytest.raises(StateBuildError) as err:
        build_state(
            USA,
            seats=3,
            hands={0: {"mauve": 1}},
            owned={0: ["nowhere"], 1: ["atlanta__raleigh__1"], 2: ["atlanta__raleigh__2"]},
            tickets={5: ["boston__miami"]},
            active=4,
        )
    problems = err.value.problems
    assert any("mauve" in p for p in problems)
    assert any("nowhere" in p for p in problems)
    assert any("only one track" in p for p in problems)
    assert any("seat 5" in p for p in problems)
    assert any("active seat 4" in p for p in problems)
    assert isinstance(err.value, ValueError)


def test_bad_player_count_is_a_setup_error():
    with pytest.raises(SetupError):
        build_state(USA, seats=9)


def test_too_many_pieces_used_is_refused():
    longest = sorted(USA.board.routes, key=lambda r: -USA.board.routes[r].length)
    chosen, used = [], set()
    for rid in longest:
        group = USA.board.routes[rid].group
        if group not in used:
            chosen.append(rid)
            used.add(group)
        if sum(USA.board.routes[r].length for r in chosen) > USA.params.pieces:
            break
    with pytest.raises(StateBuildError, match="pieces left"):
        build_state(USA, owned={0: chosen})


def test_claim_on_built_state_and_final_scores():
    st = build_state(
        USA,
        seats=2,
        hands={0: {"red": 2}},
        tickets={0: ["boston__miami"], 1: ["denver__el_paso"]},
        owned={1: ["denver__santa_fe__1", "el_paso__santa_fe__1"]},
    )
    red2 = next(
        r
        for r, route in USA.board.routes.items()
        if route.color == "red" and route.length == 2 and r not in st.owners
    )
    t = apply(USA, st, ClaimRoute(0, red2, Cards(red=2)))
    assert t.state.owners[red2] == 0
    sheets = score_sheets(USA, t.state)
    me, other = sheets
    assert me.routes == USA.params.route_points[2]
    assert me.tickets_failed == (("boston__miami", USA.board.tickets["boston__miami"].points),)
    assert other.tickets_completed == (
        ("denver__el_paso", USA.board.tickets["denver__el_paso"].points),
    )
    assert other.longest_path == 4 and other.longest_path_bonus == 10
    assert me.longest_path_bonus == 0
    assert other.winner and not me.winner and (other.rank, me.rank) == (0, 1)


@pytest.mark.parametrize("map_id", available_maps())
def test_score_sheets_match_the_final_result(map_id):
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=rules.params.min_players + 1, seed=21)
    chooser = random.Random(21)
    while not state.finished:
        actions = legal_actions(rules, state, state.seats_to_act()[0])
        state = apply(rules, state, chooser.choice(actions)).state
    assert state.result is not None
    sheets = score_sheets(rules, state)
    for sheet, seat in zip(sheets, state.result.seats, strict=True):
        assert sheet.total == seat.score
        assert (
            sheet.routes
            + sheet.tickets
            + sheet.longest_path_bonus
            + sheet.globetrotter_bonus
            + sum(sheet.map_bonuses.values())
            == sheet.total
        )
        won = sum(p for _, p in sheet.tickets_completed)
        lost = sum(p for _, p in sheet.tickets_failed)
        assert sheet.tickets == won - lost
        assert [t for t, _ in sheet.tickets_completed] == seat.completed
        assert sheet.longest_path == seat.longest_path
        assert sheet.winner == (sheet.seat in state.result.winners)
    keys = set().union(*(s.map_bonuses for s in sheets))
    expected = {"amsterdam": {"merchandise"}, "paris": {"flags"}, "europe": {"stations"}}.get(
        map_id, set()
    )
    assert keys == expected


def test_locomotive_hand_and_face_up_row_are_kept():
    st = build_state(
        USA, seats=2, hands={0: {LOCOMOTIVE: 2}}, face_up=[LOCOMOTIVE, None, "red", "red", "red"]
    )
    assert st.players[0].hand == {LOCOMOTIVE: 2}
    assert st.face_up[1] is None


def test_amsterdam_cart_routes_carry_merchandise():
    ams = load_ruleset("amsterdam")
    carts = [r for r, route in ams.board.routes.items() if route.carts]
    one_per_group, groups = [], set()
    for rid in carts:
        if ams.board.routes[rid].group not in groups:
            groups.add(ams.board.routes[rid].group)
            one_per_group.append(rid)
    mine = one_per_group[:2]
    st = build_state(ams, seats=2, owned={0: mine})
    assert merchandise(st, 0) == 2
    assert merchandise_left(st) == 16 - 2
