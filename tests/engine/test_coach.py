"""The coach (engine/ai/coach.py): a hint from the player's own view only, and its reasons."""

from __future__ import annotations

import random

import pytest

from engine import (
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    apply,
    legal_actions,
    new_game,
    player_view,
)
from engine.ai import choose_action
from engine.ai.coach import REASONS, hint_for, suggest
from engine.planner import plan_tickets
from engine.testing import build_state
from maps import load_ruleset

from .test_ai_levels import _midgame, _rehide

#: A small deterministic budget (no clock): the hint then depends on the view alone.
SMALL = {"iterations": 30, "time_cap_s": None}


@pytest.mark.parametrize(
    ("map_id", "moves"),
    [("usa", 0), ("usa", 40), ("germany", 60), ("nordic", 45), ("amsterdam", 20), ("paris", 25)],
)
def test_hint_never_peeks(map_id, moves):
    """The hint is identical when the hidden parts of the state (other hands and tickets,
    deck order, discard, RNG) are re-dealt consistently with the player's view: the same
    test as the hard AI's."""
    rules = load_ruleset(map_id)
    state = _midgame(rules, 21, 3, moves)
    seat = state.seats_to_act()[0]
    view = player_view(rules, state, seat)
    mine = hint_for(rules, state, seat, **SMALL)
    for k in range(3):
        other = _rehide(rules, state, seat, random.Random(k))
        assert other != state
        assert player_view(rules, other, seat) == view
        assert hint_for(rules, other, seat, **SMALL) == mine


def _hints_along_a_game(map_id: str, seed: int, every: int):
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=3, seed=seed)
    n = 0
    while not state.finished:
        seat = state.seats_to_act()[0]
        if n % every == 0:
            yield rules, state, seat, hint_for(rules, state, seat, iterations=18, time_cap_s=None)
        state = apply(rules, state, choose_action(rules, state, seat)).state
        n += 1


@pytest.mark.parametrize("map_id", ["usa", "germany", "nordic", "amsterdam", "paris"])
def test_the_reason_names_tickets_the_player_holds(map_id):
    """Along a whole game: the hint is a legal move; the tickets it names are the player's
    own (held, or offered when it says which to keep); a claim on a ticket's path names
    that ticket, and a completed one is among them; the risk is a free route of a plan."""
    named = 0
    for rules, state, seat, hint in _hints_along_a_game(map_id, 4, 9):
        assert hint.reason in REASONS
        assert hint.action in legal_actions(rules, state, seat, payments="sensible")
        view = player_view(rules, state, seat)
        held = {t.id for t in view.tickets}
        if isinstance(hint.action, KeepTickets):
            assert set(hint.tickets) == set(hint.action.tickets) <= held | set(view.offer)
        else:
            assert set(hint.tickets) <= held
        assert set(hint.completes) <= set(hint.tickets)
        named += bool(hint.tickets)
        if hint.reason == "claim_ticket":
            assert hint.tickets
            route = rules.board.routes[hint.action.route]
            plans = {p.ticket: p for p in plan_tickets(rules, view)}
            for t in hint.tickets:
                ends = [{rules.board.routes[r].a, rules.board.routes[r].b} for r in plans[t].routes]
                assert {route.a, route.b} in ends
        if hint.risk is not None:
            assert hint.risk.route not in view.public.owners
        if hint.alternative is not None:
            assert hint.alternative != hint.action
    assert named >= 3


def test_a_claim_that_completes_a_ticket_says_so_and_names_the_last_track():
    """A hand-built USA position: seat 0 holds Denver - El Paso, owns Denver - Santa Fe and
    holds the cards for Santa Fe - El Paso; the coach's explanation of that claim names the
    ticket and says it completes it. The legal list is cut to that claim: whether to claim
    now or first draw for cards that spare the two locomotives is the search's to weigh
    (at the bot's 240 rollouts it draws first), and this test is about the explanation."""
    rules = load_ruleset("usa")
    state = build_state(
        rules,
        seats=2,
        seed=3,
        hands={0: {"red": 0, "locomotive": 2}},
        owned={0: ["denver__santa_fe__1"]},
        tickets={0: ["denver__el_paso"]},
        active=0,
        turn=10,
    )
    view = player_view(rules, state, 0)
    claim = next(
        a
        for a in legal_actions(rules, state, 0)
        if isinstance(a, ClaimRoute) and a.route == "el_paso__santa_fe__1"
    )
    hint = suggest(rules, view, [claim], state.options, **SMALL)
    assert hint.action == claim
    assert hint.reason == "claim_ticket"
    assert hint.tickets == ("denver__el_paso",) == hint.completes
    assert hint.missing == ()


def test_drawing_names_the_colours_still_missing():
    """A draw names the tickets it collects for and the cards still to collect, the hand
    counted: Denver - El Paso runs over two gray routes of 2 (4 cards of one colour), and the
    one yellow card in hand leaves 3."""
    rules = load_ruleset("usa")
    state = build_state(
        rules, seats=2, seed=5, hands={0: {"yellow": 1}}, tickets={0: ["denver__el_paso"]}
    )
    view = player_view(rules, state, 0)
    (plan,) = plan_tickets(rules, view)
    assert plan.colors == {"gray": 4}
    hint = suggest(rules, view, [DrawBlind(0)], state.options, **SMALL)
    assert hint.action == DrawBlind(0) and hint.reason == "draw_cards"
    assert hint.tickets == ("denver__el_paso",)
    assert hint.missing == (("gray", 3),)
    assert hint.alternative is None


def test_suggest_takes_the_view_not_the_state():
    """suggest() works from a PlayerView and the legal list alone, and hint_for is the same."""
    rules = load_ruleset("paris")
    state = _midgame(rules, 8, 2, 12)
    seat = state.seats_to_act()[0]
    legal = legal_actions(rules, state, seat, payments="sensible")
    view = player_view(rules, state, seat)
    assert suggest(rules, view, legal, state.options, **SMALL) == hint_for(
        rules, state, seat, **SMALL
    )


def test_the_risk_is_the_last_free_track_on_the_path():
    """Seat 1 holds every route into El Paso but the one from Santa Fe: for Denver - El Paso
    that track is the last free one, so it is the risk, and losing it fails the ticket."""
    rules = load_ruleset("usa")
    others = [
        "dallas__el_paso__1",
        "el_paso__houston__1",
        "el_paso__los_angeles__1",
        "el_paso__oklahoma_city__1",
        "el_paso__phoenix__1",
    ]
    state = build_state(rules, seats=2, seed=5, owned={1: others}, tickets={0: ["denver__el_paso"]})
    view = player_view(rules, state, 0)
    hint = suggest(rules, view, [DrawBlind(0)], state.options, **SMALL)
    assert hint.risk is not None
    assert (hint.risk.route, hint.risk.ticket, hint.risk.fails) == (
        "el_paso__santa_fe__1",
        "denver__el_paso",
        True,
    )
    free = build_state(rules, seats=2, seed=5, tickets={0: ["denver__el_paso"]})
    calm = suggest(rules, player_view(rules, free, 0), [DrawBlind(0)], free.options, **SMALL)
    assert calm.risk is None or not calm.risk.fails


def test_the_comparison_with_the_alternative_says_whether_the_hint_was_clearly_ahead():
    """Clearly ahead: a mean paired gain above zero by more than a standard error; a swinging
    or negative gain is "close", so the words never claim more than the search found."""
    from engine.ai.coach import _clearly_ahead

    assert _clearly_ahead([0.1] * 10)
    assert not _clearly_ahead([0.3, -0.28] * 5)
    assert not _clearly_ahead([-0.1] * 10)
    assert not _clearly_ahead([0.5])  # one world decides nothing


def test_no_hint_recommends_a_move_its_own_counts_call_worse():
    """Over many seeded positions on four maps: whenever a hint compares itself with an
    alternative, it did better in at least as many sampled worlds as it did worse (the counts
    the player reads). The sample holds positions where the search's own pick lost that count,
    so the hint follows the counts rather than the search there."""
    from engine.ai.coach import hint_rng
    from engine.ai.hard import HardPlayer

    budget = {"iterations": 24, "time_cap_s": None}
    compared = overruled = 0
    for map_id in ("usa", "europe", "germany", "nordic"):
        rules = load_ruleset(map_id)
        for seed in range(3):
            for moves in (10, 30):
                state = _midgame(rules, seed, 3, moves)
                seat = state.seats_to_act()[0]
                hint = hint_for(rules, state, seat, **budget)
                if hint.worlds:
                    compared += 1
                    assert hint.ahead >= hint.behind, (map_id, seed, moves, hint)
                view = player_view(rules, state, seat)
                legal = legal_actions(rules, state, seat, payments="sensible")
                found = HardPlayer(**budget).evaluate(
                    rules, view, legal, hint_rng(view), state.options
                )
                overruled += found.choice != hint.action
    assert compared >= 12 and overruled >= 1, (compared, overruled)


def test_a_first_card_hint_says_which_card_to_take_second():
    """Seat 0, no cards in hand, holds Duluth - El Paso: a first-card hint names as second card
    a face-up card of a colour the plan needs most (never the slot it takes first), and a
    second-card hint names none."""
    rules = load_ruleset("usa")
    row = ["white", "green", "pink", "white", "blue"]
    state = build_state(
        rules, seats=2, seed=5, face_up=row, tickets={0: ["duluth__el_paso"]}, turn=4
    )
    view = player_view(rules, state, 0)
    (plan,) = plan_tickets(rules, view)
    need = {c: n for c, n in plan.colors.items() if c in row}
    assert need, plan.colors
    hint = suggest(rules, view, [DrawBlind(0)], state.options, **SMALL)
    assert hint.face_up == tuple(row)
    assert isinstance(hint.then, DrawFaceUp) and need.get(row[hint.then.slot]) == max(need.values())
    taken = DrawFaceUp(0, hint.then.slot)
    hint = suggest(rules, view, [taken], state.options, **SMALL)
    assert hint.then is not None and hint.then != taken
    second = apply(rules, state, DrawBlind(0)).state
    view = player_view(rules, second, 0)
    assert suggest(rules, view, [DrawBlind(0)], second.options, **SMALL).then is None


@pytest.mark.parametrize(("black", "spare"), [(3, 0), (4, 1)])
def test_a_tunnel_claim_counts_the_cards_kept_for_its_extra_cards(black, spare):
    """Europe's Madrid - Pamplona tunnel (3 black): holding exactly 3 black leaves nothing
    for a matching revealed card; a fourth is one spare. A plain route has no such count."""
    rules = load_ruleset("europe")
    state = build_state(rules, seats=2, seed=5, hands={0: {"black": black, "blue": 2}})
    view = player_view(rules, state, 0)
    claim = ClaimRoute(0, "madrid__pamplona__1", Cards({"black": 3}))
    hint = suggest(rules, view, [claim], state.options, **SMALL)
    assert (hint.spare, hint.spare_color) == (spare, "black")
    plain = ClaimRoute(0, "berlin__essen__1", Cards({"blue": 2}))
    assert suggest(rules, view, [plain], state.options, **SMALL).spare is None
