"""Tunnels for the easy and normal AI (engine/ai/tunnels.py): weighed by their risk, and a
tunnel given up never tried again with the same hand, so that no game stalls."""

from __future__ import annotations

import dataclasses

from engine import AbandonTunnel, ClaimRoute, apply, new_game
from engine.ai import HeuristicPlayer, choose_action
from engine.ai.tunnels import TunnelMemory, TunnelOdds, success_chance
from engine.params import TURN_LIMIT
from engine.payment import tunnel_spare
from engine.reducer import legal_actions
from engine.views import player_view
from maps import load_ruleset


def _retries(player: HeuristicPlayer, seed: int) -> tuple[int, int, int]:
    """Play Europe, 3 seats of ``player``: (tunnels given up, claims of a tunnel given up by
    the same seat while its hand is still the one it gave it up with, turns)."""
    rules = load_ruleset("europe")
    state = new_game(rules, seats=3, seed=seed)
    given_up: dict[int, tuple[str, dict[str, int]]] = {}
    gave = retried = 0
    while not state.finished:
        seat = state.seats_to_act()[0]
        action = choose_action(rules, state, seat, player=player)
        hand = {c: n for c, n in state.players[seat].hand.items() if n}
        if isinstance(action, AbandonTunnel):
            assert state.tunnel is not None
            gave += 1
            for color, n in state.tunnel.committed.items():
                hand[color] = hand.get(color, 0) + n
            given_up[seat] = (state.tunnel.route, hand)
        elif isinstance(action, ClaimRoute) and given_up.get(seat) == (action.route, hand):
            retried += 1
        state = apply(rules, state, action).state
    return gave, retried, state.turn


def test_a_tunnel_given_up_is_not_tried_again_with_the_same_hand() -> None:
    """Europe games where the normal AI gives tunnels up: it never claims one again before
    its hand changed, and the games end by the rules; the heuristic of before retries them
    (seed 33 stalls it until the turn limit)."""
    for seed in (32, 33, 34):
        gave, retried, turns = _retries(HeuristicPlayer(), seed)
        assert gave >= 1 and retried == 0 and turns < TURN_LIMIT
    gave, retried, turns = _retries(HeuristicPlayer(careful_tunnels=False), 33)
    assert retried > 100 and turns == TURN_LIMIT


def test_the_chance_of_a_tunnel_claim() -> None:
    """For every tunnel claim a normal seat could make in a Europe game: the chance is a
    probability, 1 when the hand keeps three cards to pay matches, and it grows with the
    cards kept (the same route and colour, fewer cards spent)."""
    rules = load_ruleset("europe")
    state = new_game(rules, seats=2, seed=5)
    player = HeuristicPlayer()
    seen = 0
    while not state.finished and seen < 200:
        seat = state.seats_to_act()[0]
        view = player_view(rules, state, seat)
        tunnels = [
            a
            for a in legal_actions(rules, state, seat, payments="sensible")
            if isinstance(a, ClaimRoute) and rules.board.routes[a.route].tunnel
        ]
        by_spare: dict[tuple[str, str | None], dict[int, float]] = {}
        for claim in tunnels:
            seen += 1
            chance = success_chance(rules, view, claim)
            assert 0.0 < chance <= 1.0
            plan = rules.payment_plan(rules.board.routes[claim.route], claim.payment)
            color = plan.color if plan is not None else None
            spare = tunnel_spare(color, claim.payment, view.hand)
            if spare >= 3:
                assert chance == 1.0
            by_spare.setdefault((claim.route, color), {})[spare] = chance
            assert TunnelOdds(rules, view, TunnelMemory()).chance(claim) == chance
        for chances in by_spare.values():
            ordered = [chances[k] for k in sorted(chances)]
            assert ordered == sorted(ordered)
        state = apply(rules, state, choose_action(rules, state, seat, player=player)).state
    assert seen > 0


def test_the_memory_counts_only_later_in_the_game() -> None:
    """A tunnel given up at version v is forbidden at a later version with the hand the seat
    got back, not at v or before (a game played again from its start chooses the same), not
    with another hand, and not for another seat."""
    rules = load_ruleset("europe")
    state = new_game(rules, seats=3, seed=33)
    player = HeuristicPlayer(careful_tunnels=False)
    while state.tunnel is None or state.step != "tunnel":
        seat = state.seats_to_act()[0]
        state = apply(rules, state, choose_action(rules, state, seat, player=player)).state
    seat = state.active
    view = player_view(rules, state, seat)
    memory = TunnelMemory()
    memory.give_up(view)
    tunnel = view.public.tunnel
    assert tunnel is not None
    back = dict(view.hand)
    for color, n in tunnel.committed.items():
        back[color] = back.get(color, 0) + n
    later = dataclasses.replace(
        view,
        hand=back,
        public=dataclasses.replace(view.public, version=view.public.version + 3, tunnel=None),
    )
    assert memory.forbids(later, tunnel.route)
    assert not memory.forbids(dataclasses.replace(later, public=view.public), tunnel.route)
    other_hand = {**back, "locomotive": back.get("locomotive", 0) + 1}
    assert not memory.forbids(dataclasses.replace(later, hand=other_hand), tunnel.route)
    assert not memory.forbids(dataclasses.replace(later, seat=(seat + 1) % 3), tunnel.route)
