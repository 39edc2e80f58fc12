"""Resignation in the engine: legal any time, public, never a winner."""

from __future__ import annotations

import json

import pytest

from engine import (
    IllegalAction,
    Resign,
    apply,
    can_resign,
    legal_actions,
    new_game,
    player_view,
    public_view,
    replay,
)
from engine.ai import choose_action
from engine.codec import decode_action, decode_state, encode_action, encode_state
from engine.events import Resigned
from engine.scoring import final_scores
from maps import load_ruleset
from tests.scenario import scenario

USA = load_ruleset("usa")


def test_resign_during_setup_off_turn_and_state_records_it():
    """Any seat may resign in setup; the view shows it; the seat still owes its ticket choice."""
    st = new_game(USA, seats=3, seed=5)
    t = apply(USA, st, Resign(2))
    assert t.events == [Resigned(2)]
    assert t.state.players[2].resigned and not st.players[2].resigned
    assert public_view(USA, t.state).players[2].resigned
    assert player_view(USA, t.state, 0).public.players[2].resigned
    assert t.state.version == st.version + 1
    assert legal_actions(USA, t.state, 2), "the resigned seat keeps playing (by an AI)"


def test_resign_off_turn_in_play_and_play_goes_on():
    """Off turn in play: the active seat is unchanged and keeps its moves."""
    st = scenario(USA, seats=3, active=1)
    t = apply(USA, st, Resign(0))
    assert t.state.active == 1 and t.state.step == st.step
    assert legal_actions(USA, t.state, 1) == legal_actions(USA, st, 1)


def test_resign_twice_or_after_the_end_is_refused():
    """A resigned seat cannot resign again; a finished game takes no resignation."""
    st = apply(USA, scenario(USA), Resign(1)).state
    assert not can_resign(st, 1) and can_resign(st, 0)
    with pytest.raises(IllegalAction) as e:
        apply(USA, st, Resign(1))
    assert e.value.code == "already_resigned"
    done = st.clone()
    done.phase = "finished"
    assert not can_resign(done, 0)
    with pytest.raises(IllegalAction) as e:
        apply(USA, done, Resign(0))
    assert e.value.code == "game_over"


def test_resign_is_not_a_listed_move():
    """legal_actions lists game moves only; resigning is always open through can_resign."""
    st = scenario(USA)
    assert not any(isinstance(a, Resign) for a in legal_actions(USA, st, 0))
    assert legal_actions(USA, st, 1) == [] and can_resign(st, 1)


def _scored(resigned: set[int]):
    st = scenario(
        USA,
        seats=3,
        owners={"denver__omaha__1": 0, "el_paso__phoenix__1": 0, "calgary__helena__1": 1},
        tickets={0: [], 1: [], 2: []},
    )
    for seat in resigned:
        st.players[seat].resigned = True
    return final_scores(USA, st)


def test_a_resigned_seat_never_wins_and_is_ranked_last():
    """Seat 0 has the most points; resigned it is ranked after the others and seat 1 wins."""
    assert _scored(set()).winners == [0]
    result = _scored({0})
    assert result.winners == [1]
    assert result.ranking == [1, 2, 0]
    by_seat = {s.seat: s for s in result.seats}
    assert by_seat[0].score > by_seat[1].score, "the breakdown is still computed"
    assert by_seat[0].score == sum(by_seat[0].breakdown.values())


def test_every_seat_resigned_means_no_winner():
    """When all seats resigned there is no winner; the ranking still lists everyone."""
    result = _scored({0, 1, 2})
    assert result.winners == []
    assert sorted(result.ranking) == [0, 1, 2] and result.ranking[0] == 0


def test_resign_codec_and_replay():
    """A Resign in the log encodes, decodes and replays; the state round-trips with it."""
    st = new_game(USA, seats=2, seed=8)
    log = [Resign(1)]
    st = apply(USA, st, log[0]).state
    for _ in range(30):
        seat = st.seats_to_act()[0]
        action = choose_action(USA, st, seat, "random")
        st = apply(USA, st, action).state
        log.append(action)
    decoded = [decode_action(json.loads(json.dumps(encode_action(a)))) for a in log]
    assert decoded == log
    assert replay(USA, seats=2, seed=8, options=None, actions=decoded) == st
    assert decode_state(json.loads(json.dumps(encode_state(st)))) == st
    assert decode_state(json.loads(json.dumps(encode_state(st)))).players[1].resigned


def test_a_game_with_a_resigned_seat_ends_without_crediting_it():
    """A whole game played on by AIs after a resignation never lists the resigned seat as winner."""
    for seed in range(6):
        st = apply(USA, new_game(USA, seats=2, seed=seed), Resign(seed % 2)).state
        while not st.finished:
            seat = st.seats_to_act()[0]
            st = apply(USA, st, choose_action(USA, st, seat)).state
        assert st.result is not None
        assert st.result.winners == [1 - seed % 2]
        assert st.result.ranking[-1] == seed % 2
