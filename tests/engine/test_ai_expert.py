"""The expert level: legal and reproducible on every map, its ticket inference follows the
claims, and near the end it searches both sides of ending the game (small budgets, no cap)."""

from __future__ import annotations

import copy
import random

import pytest

from engine import ClaimRoute, DrawBlind, GameState, apply, legal_actions, new_game, player_view
from engine.ai import AI_LEVELS, PLAYERS, ExpertPlayer, ai_rng, choose_action
from engine.ai.expert import (
    BETA,
    DEFAULT_TIME_CAP_S,
    ENDGAME_WINDOW,
    ROLLOUTS_PER_S,
    endgame_candidates,
    inferred_weights,
)
from engine.ai.world import sample_world, unseen_tickets
from maps import load_ruleset
from maps.loader import available_maps

USA = load_ruleset("usa")
#: A small, deterministic budget (no time cap): fast, and the same choice every time.
SMALL = ExpertPlayer(iterations=16, time_cap_s=None)


def _turn_start(rules, seed: int, seat: int = 0) -> GameState:
    """A 2-player game played by normal seats until ``seat`` starts a turn in the play phase."""
    state = new_game(rules, seats=2, seed=seed)
    while state.phase == "setup" or state.step != "turn" or state.seats_to_act() != [seat]:
        actor = state.seats_to_act()[0]
        state = apply(rules, state, choose_action(rules, state, actor, "normal")).state
    return state


def test_expert_is_the_fourth_level_with_a_ten_second_cpu_budget():
    """expert follows hard; by default 10 s of CPU per decision and rollouts scaled to it."""
    import time

    assert AI_LEVELS == ("easy", "normal", "hard", "expert")
    expert = PLAYERS["expert"]
    assert isinstance(expert, ExpertPlayer)
    assert expert.time_cap_s == DEFAULT_TIME_CAP_S == 10.0
    assert expert.iterations == round(ROLLOUTS_PER_S * 10.0) > 240 * 5
    assert expert.clock is time.thread_time
    assert ExpertPlayer(time_cap_s=2).iterations == round(ROLLOUTS_PER_S * 2)


@pytest.mark.parametrize("map_id", available_maps())
def test_expert_chooses_only_legal_moves_on_every_map(map_id):
    """Against normal, the first 70 actions of a 2-player game: every expert action is legal,
    and the same view gives the same choice again (deterministic without a time cap)."""
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=2, seed=4)
    for _ in range(70):
        if state.finished:
            break
        seat = state.seats_to_act()[0]
        if seat == 0:
            action = choose_action(rules, state, seat, player=SMALL)
            assert action in legal_actions(rules, state, seat, payments="all")
            assert choose_action(rules, state, seat, player=SMALL) == action
        else:
            action = choose_action(rules, state, seat, "normal")
        state = apply(rules, state, action).state
    assert state.turn > 5


def _built(state: GameState, seat: int, routes: list[str]) -> GameState:
    """``state`` with ``routes`` claimed by ``seat`` (public facts only; for the inference)."""
    built = copy.deepcopy(state)
    for rid in routes:
        built.owners[rid] = seat
        built.players[seat].routes.append(rid)
    return built


def test_inference_favours_tickets_whose_path_the_seat_has_built():
    """Seat 1 claims the whole shortest path of one ticket it might hold: from seat 0's view
    that ticket weighs exp(BETA), a ticket far from every claim 1, and in sampled worlds
    seat 1 is dealt it far more often than without the inference."""
    state = _turn_start(USA, 8)
    view0 = player_view(USA, state, 0)
    pool = unseen_tickets(USA, view0, state.options)
    board = USA.board
    target = next(t for t in pool if board.tickets[t].points >= 10)
    ticket = board.tickets[target]
    usable = {rid: r.length for rid, r in board.routes.items() if state.owners.get(rid, 1) == 1}
    found = board.shortest_path(ticket.a, ticket.b, usable)  # over seat 1's routes and free ones
    assert found is not None
    built = _built(state, 1, [r for r in found[1] if r not in state.owners])
    view = player_view(USA, built, 0)
    weights = inferred_weights(USA, view, pool)[1]
    assert weights[target] == pytest.approx(2.718281828**BETA)
    touched = {board.routes[r].a for r in found[1]} | {board.routes[r].b for r in found[1]}
    far = [
        t
        for t in pool
        if board.tickets[t].a not in touched
        and board.tickets[t].b not in touched
        and weights[t] < 1.5
    ]
    assert far, "some ticket lies away from seat 1's claims"
    assert max(weights.values()) == weights[target]
    assert all(weights[t] < weights[target] / 5 for t in far)

    def dealt(with_weights: bool) -> int:
        rng = random.Random(3)
        w = inferred_weights(USA, view, pool) if with_weights else None
        hits = 0
        for _ in range(200):
            world = sample_world(USA, view, rng, built.options, w)
            hits += target in world.players[1].tickets
        return hits

    assert dealt(True) > 2 * dealt(False)


def test_no_claims_no_inference():
    """A seat without routes gives no evidence: no weights (the worlds deal it uniformly)."""
    state = new_game(USA, seats=2, seed=8)
    while state.phase == "setup":  # the ticket choices; the first turn is next
        actor = state.seats_to_act()[0]
        state = apply(USA, state, choose_action(USA, state, actor, "normal")).state
    view = player_view(USA, state, 0)
    assert not state.owners and all(p.tickets for p in view.public.players)
    assert inferred_weights(USA, view, unseen_tickets(USA, view, state.options)) == {}


def _endgame(state: GameState, pieces: int, lead: int) -> GameState:
    """Seat 0 with ``pieces`` left, a hand that pays for any route, no open ticket and
    ``lead`` points more than seat 1 (route points); seat 1 with most of its pieces."""
    end = copy.deepcopy(state)
    me = end.players[0]
    me.pieces = pieces
    me.hand = {color: 6 for color in USA.params.deck}
    me.tickets = []
    me.route_points = 60 + max(0, lead)
    end.players[1].route_points = 60 + max(0, -lead)
    return end


def test_endgame_candidates_weigh_ending_now_against_waiting():
    """Near the end the expert searches up to two claims that trigger the last round, the
    longest claim that does not, and a draw; far from it, none of these are added."""
    at = USA.params.last_round_at
    state = _endgame(_turn_start(USA, 8), at + 4, 30)
    view = player_view(USA, state, 0)
    legal = legal_actions(USA, state, 0, payments="sensible")
    found = endgame_candidates(USA, view, legal)
    claims = [a for a in found if isinstance(a, ClaimRoute)]
    lengths = [USA.board.routes[a.route].length for a in claims]
    assert [state.players[0].pieces - n <= at for n in lengths] == [True, True, False]
    assert lengths[0] >= lengths[1] and any(isinstance(a, DrawBlind) for a in found)
    far = _endgame(_turn_start(USA, 8), at + ENDGAME_WINDOW + 1, 30)
    assert endgame_candidates(USA, player_view(USA, far, 0), legal) == []
    evaluation = SMALL.evaluate(USA, view, legal, ai_rng(state, 0), options=state.options)
    assert set(found) <= set(evaluation.candidates)


def test_ahead_with_nothing_left_to_build_the_expert_ends_the_game():
    """30 points ahead, no open ticket, 6 pieces: ending the game now (a claim that leaves
    at most last_round_at pieces) is worth more in the rollouts than waiting."""
    at = USA.params.last_round_at
    state = _endgame(_turn_start(USA, 8), at + 4, 30)
    expert = ExpertPlayer(iterations=120, time_cap_s=None)
    action = choose_action(USA, state, 0, player=expert)
    assert isinstance(action, ClaimRoute)
    assert state.players[0].pieces - USA.board.routes[action.route].length <= at


def test_a_starved_decision_ends_on_the_wall_clock():
    """The CPU cap alone could run for minutes on a loaded machine: the wall-clock cap ends the
    search too. With a CPU clock that stands still, a wall cap of 0 stops it before any
    rollout (the heuristic's move); without a wall cap every rollout of the budget is spent."""
    state = _turn_start(USA, 11)
    legal = legal_actions(USA, state, 0, payments="sensible")
    view = player_view(USA, state, 0)

    def evaluate(player):
        return player.evaluate(USA, view, legal, ai_rng(state, 0), options=state.options)

    still = dict(iterations=24, time_cap_s=1.0, clock=lambda: 0.0)
    starved = evaluate(ExpertPlayer(**still, wall_cap_s=0.0))
    assert starved.searched and all(len(v) == 0 for v in starved.values)
    assert starved.chosen == starved.base
    full = evaluate(ExpertPlayer(**still, wall_cap_s=None))
    assert sum(len(v) for v in full.values) == 24
