"""Post-game analysis (engine/ai/analysis.py): chances after every turn and the turning points."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import apply, new_game
from engine.ai import choose_action
from engine.ai.analysis import (
    ROUND,
    GameAnalysis,
    TurnChance,
    TurnMove,
    _world,
    analyse,
    game_turns,
    paired_reveal,
    turning_points,
    world_order,
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
    """Hand-made chances without standard errors (an older analysis): the three largest
    single-turn changes of at least ten points, told as the seat whose chance moved most (on
    a tie, not the mover), in turn order; a change under ten points is never one."""
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
    assert turning_points(turns[:2]) == ()  # five points: not a turning point
    assert [p.turn for p in turning_points([*turns[:2], turns[2]])] == [2]


def _turn(i, seat, kind, chances, *, own=None, se=0.01, forced=False):
    """A hand-made turn: ``own`` is the move's own change per seat (default: the step)."""
    return TurnChance(
        i, seat, TurnMove(kind, count=2), chances, (0.01, 0.01), (se, se), forced, own
    )


def test_a_card_draw_whose_own_change_is_small_is_not_a_turning_point():
    """The chart steps 30 points on a card draw, but with the cards drawn known on both sides
    the move itself changed 2 points: the luck of the draw, not the move; not named. The same
    step with an own change of 30 points and a small error is named; with an error of 15
    points (the estimate's noise) it is not; nor a move against the step's direction."""
    start = _turn(0, None, "setup", (0.5, 0.5))
    luck = _turn(1, 0, "cards", (0.8, 0.2), own=(0.02, -0.02))
    assert turning_points([start, luck]) == ()
    move = _turn(1, 0, "cards", (0.8, 0.2), own=(0.3, -0.3), se=0.05)
    (point,) = turning_points([start, move])
    # both seats moved 30 points: the one who did not play is named
    assert (point.turn, point.seat, point.before, point.after, point.se) == (1, 1, 0.5, 0.2, 0.05)
    noisy = _turn(1, 0, "cards", (0.8, 0.2), own=(0.3, -0.3), se=0.15)
    assert turning_points([start, noisy]) == ()
    against = _turn(1, 0, "cards", (0.8, 0.2), own=(-0.2, 0.2), se=0.01)
    assert turning_points([start, against]) == ()


def test_the_last_turns_jump_is_named_only_when_the_last_move_mattered():
    """The jump to the real result at the end: not named when the move was forced (the seat
    had no other move) or when the rollouts before it already knew the end (its own change is
    0); named when the last move itself turned the game."""
    before = _turn(5, 1, "cards", (0.4, 0.6))
    forced = _turn(6, 0, "claim", (1.0, 0.0), own=(0.6, -0.6), forced=True)
    assert turning_points([before, forced]) == ()
    known = _turn(6, 0, "claim", (1.0, 0.0), own=(0.0, 0.0), se=0.0)
    assert turning_points([before, known]) == ()
    decided = _turn(6, 0, "claim", (1.0, 0.0), own=(0.55, -0.55), se=0.08)
    assert [p.turn for p in turning_points([before, decided])] == [6]


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


@given(
    st.lists(st.sampled_from(["red", "blue", "locomotive", "t1", "t2"]), max_size=40),
    st.lists(st.integers(min_value=0, max_value=39), max_size=6),
    st.integers(min_value=0, max_value=2**64 - 1),
)
def test_a_world_keeps_the_order_of_the_cards_a_move_left(items, taken, seed):
    """Common random numbers: the world's order of a deck with some cards taken out is the
    order of the whole deck with those cards taken out (cards of one colour are alike), so
    the worlds before and after a draw are one world."""
    after = list(items)
    for i in sorted({i for i in taken if i < len(items)}, reverse=True):
        after.pop(i)
    whole = world_order(items, seed, "deck")
    left = iter(whole)
    kept = world_order(after, seed, "deck")
    assert all(any(x == y for y in left) for x in kept)  # in the whole's order
    assert Counter(kept) == Counter(after)
    assert sorted(whole) == sorted(items) and world_order(items, seed, "deck") == whole


def test_a_move_that_changes_nothing_changes_no_chance_under_common_random_numbers(
    led_from_the_start,
):
    """The same position twice in a row (a move that changed nothing): every rollout after it
    is the rollout before it, so its change is exactly 0 with no error, and it is no turning
    point; the same position analysed twice gives the same estimates and errors."""
    turns = led_from_the_start[0]
    same = [turns[0], turns[10], replace(turns[10], turn=2)]
    analysis = analyse(USA, same, rollouts=2 * ROUND, cpu_budget_s=None)
    null = analysis.turns[2]
    assert null.move_change == (0.0, 0.0) and null.change_se == (0.0, 0.0)
    assert null.chances == analysis.turns[1].chances and null.se == analysis.turns[1].se
    assert all(p.turn != 2 for p in analysis.turning_points)
    again = analyse(USA, same, rollouts=2 * ROUND, cpu_budget_s=None)
    assert again.turns == analysis.turns


def test_a_draw_is_paired_with_the_cards_it_took_on_top(led_from_the_start):
    """What a move took from the deck (a blind draw, the face-up row refilled) is the top of the
    deck before it: the world before the move has those cards on top as they came, the rest in
    the world's order (the world after the move), the same cards as the real deck."""
    turns = led_from_the_start[0]
    found = 0
    for before, after in zip(turns[1:], turns[2:], strict=False):
        reveal = paired_reveal(before.state, after.state)
        taken = reveal.get("deck", 0)
        if after.move.kind == "cards":
            assert taken >= 1
            found += 1
        if not taken:
            continue
        world = _world(before.state, 7, reveal)[0]
        assert world.deck[-taken:] == before.state.deck[-taken:]
        assert sorted(world.deck) == sorted(before.state.deck)
        if taken < len(before.state.deck):  # else the deck ran out and the discards came in
            assert world.deck[:-taken] == world_order(after.state.deck, 7, "deck")
    assert found > 10


def test_stored_analyses_without_errors_still_read():
    """An analysis stored before the standard errors were kept reads back (None for them, no
    bands on the chart); a new one keeps them through JSON."""
    old = {
        "format": 1,
        "map": "usa",
        "seats": 2,
        "method": "rollouts",
        "rollouts": 8,
        "cpu_s": 1.0,
        "turns": [
            {
                "turn": 0,
                "seat": None,
                "move": {"kind": "setup", "route": None, "count": 0, "cards": []},
                "chances": [0.5, 0.5],
            },
            {
                "turn": 1,
                "seat": 0,
                "move": {"kind": "cards", "route": None, "count": 2, "cards": ["red", "red"]},
                "chances": [0.7, 0.3],
            },
        ],
        "turning_points": [
            {
                "turn": 1,
                "mover": 0,
                "move": {"kind": "cards", "route": None, "count": 2, "cards": ["red", "red"]},
                "seat": 0,
                "before": 0.5,
                "after": 0.7,
            },
        ],
    }
    analysis = GameAnalysis.from_json(old)
    assert analysis.turns[1].se is None and analysis.turns[1].move_change is None
    assert analysis.turning_points[0].se is None and analysis.bands() is None
    assert analysis.to_json() == old
    new = GameAnalysis.from_json(
        {
            **old,
            "turns": [
                old["turns"][0] | {"se": [0.1, 0.1]},
                old["turns"][1]
                | {"se": [0.05, 0.05], "change_se": [0.02, 0.02], "move_change": [0.2, -0.2]},
            ],
        }
    )
    assert new.bands() == [[pytest.approx(0.196), pytest.approx(0.098)]] * 2
    assert new.turns[1].move_change == (0.2, -0.2)
    assert GameAnalysis.from_json(new.to_json()) == new
