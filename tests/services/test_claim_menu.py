"""The claim list by usefulness (issue 31 point 2), built without enumerating every payment.

On fixed seeds of every map: the routes on the player's ticket plans come first, then
the longest; the claimable tracks of a double route are one entry; each entry's
payments are exact, best first, and an entry with one payment is one an exact count
confirms. On a Nordic hand of 5 or 10 cards of every kind (millions of exact payments)
the menu is built from a bounded walk, counted.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.host.services._menus import build_menu
from engine import (
    LOCOMOTIVE,
    ClaimRoute,
    GameState,
    apply,
    legal,
    new_game,
    payment_table,
    player_view,
)
from engine import claims as claims_module
from engine.ai import choose_action
from engine.payment import _submultisets, check_payment
from engine.planner import needed_routes, plan_tickets
from engine.rules import classic
from engine.testing import build_state
from maps import available_maps, load_ruleset

MAPS = sorted(available_maps())


def _mid_game(map_id: str, seed: int, moves: int) -> GameState:
    """A heuristic game after ``moves`` actions, at a fresh turn of a seat."""
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=min(3, rules.params.max_players), seed=seed)
    for _ in range(moves):
        if state.finished:
            break
        state = apply(rules, state, choose_action(rules, state, state.seats_to_act()[0])).state
    while not state.finished and not (state.phase == "play" and state.step == "turn"):
        state = apply(rules, state, choose_action(rules, state, state.seats_to_act()[0])).state
    return state


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_list_starts_on_the_plan_and_lists_a_double_route_once(map_id: str, seed: int) -> None:
    rules = load_ruleset(map_id)
    board = rules.board
    state = _mid_game(map_id, seed, 20 + 7 * seed)
    seat = state.active
    menu = build_menu(rules, state, seat, 1)
    assert menu is not None and menu.step == "turn"
    needed = set(needed_routes(plan_tickets(rules, player_view(rules, state, seat))))
    claimable = {
        a.route
        for a in legal.legal_actions(rules, state, seat, payments="sensible")
        if isinstance(a, ClaimRoute)
    }
    listed = [r for c in menu.claims for r in c.tracks]
    assert sorted(listed) == sorted(claimable), "every claimable track, each once"
    groups = [board.routes[c.route].group or c.route for c in menu.claims]
    assert len(groups) == len(set(groups)), "a double route is one entry"
    for c in menu.claims:
        assert c.planned == bool(set(c.tracks) & needed), c
        assert len(c.tracks) == 1 or board.routes[c.tracks[1]].group == board.routes[c.route].group
    order = [(not c.planned, -board.routes[c.route].length, c.index) for c in menu.claims]
    assert order == sorted(order), "planned first, then the longest"
    if claimable & needed:
        assert menu.claims[0].planned
    hand = state.players[seat].hand
    for c in menu.claims:
        assert c.payments and len(c.payments) <= claims_module.MAX_CHOICES
        for i, pay in enumerate(c.payments):
            route = board.routes[c.track(i)]
            assert check_payment(rules.params, route, pay) is not None and pay.fits_in(hand)
        if c.single:
            assert claims_module.count_payments(rules.params, board.routes[c.route], hand) == 1
        action = menu.claim(c.index, 0)
        apply(rules, state, action)  # the reducer takes the best payment


def test_a_double_route_with_both_tracks_open_is_one_entry() -> None:
    """USA, four players (both tracks usable): with cards for both colours of a double route,
    one entry lists both tracks' payments, each claiming its own track."""
    rules = load_ruleset("usa")
    board = rules.board
    double = next(
        r
        for r in board.routes.values()
        if board.siblings(r.id)
        and r.color != "gray"
        and all(board.routes[s].color not in ("gray", r.color) for s in board.siblings(r.id))
    )
    other = board.routes[board.siblings(double.id)[0]]
    hand = {double.color: double.length, other.color: other.length}
    state = build_state(rules, seats=4, seed=1, hands={0: hand}, active=0)
    menu = build_menu(rules, state, 0, 1)
    assert menu is not None
    [entry] = [c for c in menu.claims if double.id in c.tracks]
    assert set(entry.tracks) == {double.id, other.id} and len(entry.payments) == 2
    tracks = {entry.payments[i].to_dict().popitem()[0]: entry.track(i) for i in range(2)}
    assert tracks == {double.color: double.id, other.color: other.id}
    assert menu.route(entry.index) is entry
    assert menu.route(entry.others[0]) is entry, "the other track's index finds it too"


@pytest.mark.parametrize("each", [5, 10])
def test_a_big_nordic_hand_gives_a_bounded_menu(each: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """5 of every kind (2.3 million exact payments) or 10: the menu lists at most 15 ways per
    route, the walk over substitute cards is counted and small, and the engine's list of every
    payment is never asked for."""
    rules = load_ruleset("nordic")
    base = new_game(rules, seats=2, seed=5)
    hand = {c: each for c in [*rules.params.colors, LOCOMOTIVE]}
    state = build_state(
        rules,
        seats=2,
        seed=5,
        hands={0: hand},
        tickets={0: list(base.players[0].offer[:2]), 1: list(base.players[1].offer[:1])},
        active=0,
    )
    walked = 0

    def counted(pool: dict[str, int], size: int) -> Iterator[dict[str, int]]:
        nonlocal walked
        for extra in _submultisets(pool, size):
            walked += 1
            yield extra

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("every exact payment was enumerated")

    monkeypatch.setattr(claims_module, "_submultisets", counted)
    monkeypatch.setattr(payment_table, "substitute_payments", never)
    monkeypatch.setattr(classic, "payment_options", never)
    menu = build_menu(rules, state, 0, 1)
    assert menu is not None and menu.claims
    assert max(len(c.payments) for c in menu.claims) == claims_module.MAX_CHOICES
    assert 0 < walked <= 4 * len(rules.board.routes), walked
    rng = random.Random(each)
    for c in rng.sample(menu.claims, 5):
        apply(rules, state, menu.claim(c.index, rng.randrange(len(c.payments))))
