"""Post-game analysis (engine/ai/analysis.py): chances after every turn and the turning points."""

from __future__ import annotations

import pytest

from engine import apply, new_game
from engine.ai import choose_action
from engine.ai.analysis import (
    ROUND,
    GameAnalysis,
    TurnChance,
    TurnMove,
    analyse,
    game_turns,
    turning_points,
)
from maps import load_ruleset

USA = load_ruleset("usa")


def _played(rules, seed, kinds):
    """A whole game with these AI levels: (its actions, the final state)."""
    state = new_game(rules, seats=len(kinds), seed=seed)
    actions = []
    while not state.finished:
        seat = state.seats_to_act()[0]
        action = choose_action(rules, state, seat, kinds[seat])
        actions.append(action)
        state = apply(rules, state, action).state
    return actions, state


@pytest.fixture(scope="module")
def led_from_the_start():
    """USA, normal against easy, seed 3: the normal seat wins and has the highest score on
    the board after at least 95% of the turns (checked here, so a changed AI cannot
    silently turn this into another kind of game)."""
    actions, final = _played(USA, 3, ["normal", "easy"])
    turns = game_turns(USA, seats=2, seed=3, actions=actions)
    (winner,) = final.result.winners
    led = sum(
        t.state.players[winner].public_score >= max(p.public_score for p in t.state.players)
        for t in turns
    )
    assert led >= 0.95 * len(turns)
    return turns, winner, final


def test_a_winner_who_led_from_the_start_stays_above_half_in_the_last_quarter(
    led_from_the_start,
):
    """The sanity check of the method: over the last quarter of turns the leader's chance
    stays above 50%, and after the last turn it is the real result."""
    turns, winner, final = led_from_the_start
    analysis = analyse(USA, turns, rollouts=24, cpu_budget_s=None)
    chances = analysis.series()[winner]
    last_quarter = chances[len(chances) * 3 // 4 :]
    assert min(last_quarter) > 0.5, last_quarter
    assert chances[-1] == 1.0 and analysis.series()[1 - winner][-1] == 0.0
    assert analysis.rollouts == 24 and analysis.method == "rollouts"


def test_chances_sum_to_one_every_turn_and_the_turns_are_the_games(led_from_the_start):
    """One point per turn (0 after the ticket choice, then every turn played), chances in
    0..1 summing to 1; the turn numbers are the board's; a claim is named by its route."""
    turns, _, final = led_from_the_start
    analysis = analyse(USA, turns, rollouts=ROUND, cpu_budget_s=None)
    assert [t.turn for t in analysis.turns] == list(range(len(turns)))
    assert analysis.turns[0].seat is None and analysis.turns[0].move == TurnMove("setup")
    assert len(turns) - 1 in (final.turn, final.turn + 1)
    for t in analysis.turns:
        assert len(t.chances) == 2
        assert all(0.0 <= c <= 1.0 for c in t.chances)
        assert sum(t.chances) == pytest.approx(1.0)
    for t in analysis.turns:
        if t.move.kind == "cards":  # every card drawn is named once the game is over
            assert len(t.move.cards) == t.move.count and t.move.cards
    claims = [t.move.route for t in analysis.turns if t.move.kind == "claim"]
    assert sorted(claims) == sorted(final.owners)  # one claim a turn, each told once


def test_the_same_game_and_budget_give_the_same_analysis_and_it_survives_json(
    led_from_the_start,
):
    """Deterministic without a CPU cap; to_json/from_json round-trip (chances to 4 places)."""
    turns, _, _ = led_from_the_start
    a = analyse(USA, turns[:20], rollouts=ROUND, cpu_budget_s=None)
    b = analyse(USA, turns[:20], rollouts=ROUND, cpu_budget_s=None)
    assert a.turns == b.turns and a.turning_points == b.turning_points
    back = GameAnalysis.from_json(a.to_json())
    assert back.to_json() == a.to_json()
    assert [t.move for t in back.turns] == [t.move for t in a.turns]
    with pytest.raises(ValueError):
        GameAnalysis.from_json({**a.to_json(), "format": 99})


def test_a_cpu_cap_stops_after_whole_rounds():
    """A budget smaller than one round still plays one round (every turn gets the same count)."""
    actions, _ = _played(USA, 4, ["normal", "normal"])
    turns = game_turns(USA, seats=2, seed=4, actions=actions)
    ticks = iter(range(10**6))
    analysis = analyse(USA, turns[:6], rollouts=64, cpu_budget_s=0.5, clock=lambda: next(ticks))
    assert analysis.rollouts == ROUND


def test_turning_points_are_the_three_largest_moves_in_turn_order():
    """Hand-made chances: the three largest single-turn changes, told as the seat whose chance
    moved most (on a tie, not the mover), in turn order."""
    rows = [(0.5, 0.5), (0.55, 0.45), (0.2, 0.8), (0.25, 0.75), (0.9, 0.1), (0.85, 0.15), (1, 0)]
    turns = [
        TurnChance(i, None if i == 0 else (i - 1) % 2, TurnMove("cards", count=2), c)
        for i, c in enumerate(rows)
    ]
    points = turning_points(turns)
    assert [p.turn for p in points] == [2, 4, 6]
    two = points[0]
    assert two.mover == 1 and two.seat == 0  # tie between the seats: not the mover
    assert (two.before, two.after) == (0.55, 0.2) and two.change == pytest.approx(-0.35)
    assert turning_points(turns[:2]) == (points[0].__class__(1, 0, turns[1].move, 1, 0.5, 0.45),)


def test_stored_chances_still_sum_to_one():
    """Rounded to 4 places for storage, the chances of a turn still sum to exactly 1."""
    from engine.ai.analysis import rounded_shares

    for shares in ([1 / 3] * 3, [0.12345, 0.54321, 1 - 0.12345 - 0.54321], [1.0, 0.0], [0.2] * 5):
        out = rounded_shares(shares)
        assert round(sum(out) * 10_000) == 10_000
        assert all(abs(a - b) <= 1e-4 for a, b in zip(out, shares, strict=True))


def test_an_analysis_made_in_slices_is_the_one_made_at_once(led_from_the_start):
    """The bot makes an analysis in slices of a worker's time between AI moves, each slice
    possibly in another process (the progress is pickled): the same rollouts, the same sums.
    With a clock that ticks once per look, every slice ends after one turn's rollouts."""
    import pickle

    from engine.ai.analysis import analyse_slice, finish_analysis

    turns = led_from_the_start[0][:12]
    whole = analyse(USA, turns, rollouts=2 * ROUND, cpu_budget_s=None)
    ticks = iter(range(10**6))
    progress = None
    slices = 0
    while progress is None or not progress.finished:
        progress = pickle.loads(
            pickle.dumps(
                analyse_slice(
                    USA,
                    turns,
                    progress,
                    rollouts=2 * ROUND,
                    cpu_budget_s=None,
                    slice_s=0.5,
                    clock=lambda: next(ticks),
                )
            )
        )
        slices += 1
    assert slices >= 2 * (len(turns) - 1)  # one turn per slice, two rounds
    sliced = finish_analysis(turns, progress)
    assert sliced.rollouts == whole.rollouts == 2 * ROUND
    assert sliced.turns == whole.turns and sliced.turning_points == whole.turning_points
    stopped, slices = None, 0  # an AI move waiting for the worker ends the slice at once
    while stopped is None or not stopped.finished:
        stopped = analyse_slice(
            USA, turns, stopped, rollouts=2 * ROUND, cpu_budget_s=None, stop=lambda: True
        )
        slices += 1
    open_turns = sum(1 for t in turns if t.state.result is None)
    assert slices == 2 * open_turns and stopped.sums == progress.sums  # one turn a slice


def test_a_cpu_cap_counts_the_slices_of_a_round_together():
    """A round cut into slices costs the sum of its slices: with a clock that ticks once per
    look, a round over 5 turns in slices of one turn costs 5 ticks, so a second round would
    pass a budget of 5 and is not begun."""
    from engine.ai.analysis import analyse_slice

    actions, _ = _played(USA, 4, ["normal", "normal"])
    turns = game_turns(USA, seats=2, seed=4, actions=actions)[:5]
    ticks = iter(range(10**6))
    progress = None
    while progress is None or not progress.finished:
        progress = analyse_slice(
            USA,
            turns,
            progress,
            rollouts=64,
            cpu_budget_s=5,
            slice_s=0.5,
            clock=lambda: next(ticks),
        )
    assert progress.done == ROUND and progress.spent == 5


def test_a_turn_that_built_a_train_station_is_told_as_one_and_survives_json():
    """Europe, three normal seats, seed 5: every station the game builds (one since the
    normal AI weighs tunnels, two before) is a ``station`` turn with its city (not ``pass``),
    and a stored move reads back the same."""
    from engine import BuildStation
    from engine.ai.analysis import _move_json, _move_of

    europe = load_ruleset("europe")
    actions, _ = _played(europe, 5, ["normal"] * 3)
    built = [(a.seat, a.city) for a in actions if isinstance(a, BuildStation)]
    assert built
    turns = game_turns(europe, seats=3, seed=5, actions=actions)
    told = [(t.seat, t.move.city) for t in turns if t.move.kind == "station"]
    assert told == built
    move = TurnMove("station", city=built[0][1])
    assert _move_of(_move_json(move)) == move
    assert "city" not in _move_json(TurnMove("pass"))  # older moves are stored as before
