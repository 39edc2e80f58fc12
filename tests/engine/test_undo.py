"""Taking a move back (:class:`engine.UndoLast`): which moves may be, what comes back, replays,
and the integer core (which has no such action: it is rebuilt from the value state after one).

Random games on every map: after each move that may be taken back, now and then the mover does
so; the position is then the one before the move (one version on), the integer core rebuilt
from it equals the core's own state before the move and plays on equal to the value engine,
and a replay of the whole log (moves and undos) ends where the game is.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import (
    ClaimRoute,
    DrawFaceUp,
    IllegalAction,
    MoveTakenBack,
    UndoLast,
    apply,
    can_undo,
    legal_actions,
    new_game,
    replay,
)
from engine.actions import Action
from engine.core import Core, core_table
from engine.reducer import UNDOABLE_KINDS
from engine.state import GameState
from maps import load_ruleset

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")


def _same_position(a: GameState, b: GameState) -> bool:
    """Equal but for the version (an undo is one action more)."""
    return dataclasses.replace(a, version=b.version) == b


def play_with_undos(map_id: str, seats: int, seed: int) -> tuple[int, set[str]]:
    """A random game on the value engine, the integer core checked at every step; after a move
    that may be taken back, one time in three it is. Returns (undos, kinds of moves undone)."""
    rules = load_ruleset(map_id)
    table = core_table(rules)
    chooser = random.Random(seed)
    state = new_game(rules, seats=seats, seed=seed)
    core = Core.new(rules, seats=seats, seed=seed)
    log: list[Action] = []
    undone: set[str] = set()
    undos = 0
    while not state.finished:
        seat = state.seats_to_act()[chooser.randrange(len(state.seats_to_act()))]
        actions = legal_actions(rules, state, seat)
        assert not any(isinstance(a, UndoLast) for a in actions)  # the AI never takes back
        action = actions[chooser.randrange(len(actions))]
        before, before_core = state, core.to_state()
        offer = core.offers[seat]
        core.step_seat(seat, table.encode(action, offer))
        state = apply(rules, state, action).state
        log.append(action)
        assert core.to_state() == state
        if can_undo(state, seat):
            assert action.kind in UNDOABLE_KINDS
            if chooser.randrange(3) == 0:
                done = apply(rules, state, UndoLast(seat))
                assert done.events == [MoveTakenBack(seat)]
                assert (
                    _same_position(done.state, before) and done.state.version == state.version + 1
                )
                state = done.state
                log.append(UndoLast(seat))
                core = Core.from_state(rules, state)  # the core has no undo: rebuilt
                assert _same_position(core.to_state(), before_core)
                undos += 1
                undone.add(action.kind)
        else:
            with pytest.raises(IllegalAction) as refused:
                apply(rules, state, UndoLast(seat))
            assert refused.value.code == ("game_over" if state.finished else "cannot_undo")
    assert replay(rules, seats=seats, seed=seed, options=None, actions=log) == state
    return undos, undone


@pytest.mark.parametrize("map_id", MAPS)
def test_moves_taken_back_in_random_games_on_both_engines(map_id: str) -> None:
    """Claims (and Europe's stations) are taken back again and again; both engines agree."""
    total, kinds = 0, set()
    for seed in range(3):
        undos, undone = play_with_undos(map_id, 3, seed)
        total, kinds = total + undos, kinds | undone
    assert total >= 5 and "claim_route" in kinds
    if map_id == "europe":
        assert "build_station" in kinds


def _first(rules_id: str, want: type[Action], seed: int = 3) -> tuple[GameState, GameState, Action]:
    """Random play until the active seat can play a ``want`` action: the state before it, the
    state after it and the action."""
    rules = load_ruleset(rules_id)
    chooser = random.Random(seed)
    state = new_game(rules, seats=2, seed=seed)
    while not state.finished:
        seat = state.seats_to_act()[0]
        actions = legal_actions(rules, state, seat)
        wanted = [a for a in actions if isinstance(a, want) and state.phase == "play"]
        if wanted:
            return state, apply(rules, state, wanted[0]).state, wanted[0]
        state = apply(rules, state, actions[chooser.randrange(len(actions))]).state
    raise AssertionError(f"no {want.__name__} in the game")


def test_a_tunnel_or_a_face_up_draw_cannot_be_taken_back() -> None:
    """A tunnel turns three cards up; a face-up draw shows its replacement at once: the engine
    refuses the undo and changes nothing."""
    rules = load_ruleset("nordic")
    chooser = random.Random(5)
    state = new_game(rules, seats=2, seed=5)
    tunnels = 0
    while not state.finished and tunnels < 2:
        seat = state.seats_to_act()[0]
        actions = legal_actions(rules, state, seat)
        action = actions[chooser.randrange(len(actions))]
        tunnel = isinstance(action, ClaimRoute) and rules.board.routes[action.route].tunnel
        state = apply(rules, state, action).state
        if (tunnel or isinstance(action, DrawFaceUp)) and not state.finished:
            tunnels += bool(tunnel)
            assert not can_undo(state, seat)
            with pytest.raises(IllegalAction) as refused:
                apply(rules, state, UndoLast(seat))
            assert refused.value.code == "cannot_undo"
    assert tunnels == 2


def test_only_the_mover_and_only_before_the_next_action() -> None:
    """Another seat may not take the move back; once the next seat acted, nobody may."""
    rules = load_ruleset("usa")
    before, after, claim = _first("usa", ClaimRoute)
    mover = claim.seat
    assert can_undo(after, mover) and not can_undo(after, 1 - mover)
    with pytest.raises(IllegalAction):
        apply(rules, after, UndoLast(1 - mover))
    nxt = legal_actions(rules, after, after.active)[0]
    later = apply(rules, after, nxt).state
    assert not can_undo(later, mover)
    back = apply(rules, after, UndoLast(mover)).state
    assert _same_position(back, before) and back.active == mover and not can_undo(back, mover)


def test_the_undo_position_survives_the_codec() -> None:
    """A snapshot taken right after an undoable claim still allows the undo (the snapshot and a
    replay agree on it)."""
    from engine.codec import decode_state, encode_state

    rules = load_ruleset("usa")
    _, after, claim = _first("usa", ClaimRoute)
    again = decode_state(encode_state(after))
    assert can_undo(again, claim.seat)
    assert (
        apply(rules, again, UndoLast(claim.seat)).state
        == apply(rules, after, UndoLast(claim.seat)).state
    )
