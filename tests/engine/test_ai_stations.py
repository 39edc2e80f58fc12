"""The AI levels and the hard AI's rollouts with Europe's train stations.

Normal builds a station when a ticket's path is blocked and keeps the rest for
their points; the hard AI's rollout policy, on both engines,
builds the same station and plans over the route a station of its own lends, so
the search sees what a station is worth; the hard AI plays it.
"""

from __future__ import annotations

import random

import pytest

from engine import BuildStation, Cards, apply, legal_actions, new_game
from engine.ai import HardPlayer, choose_action
from engine.ai.rollout import CoreRolloutPolicy
from engine.core import Core
from engine.rules.europe import EuropeRules, station_payments, stations_of
from engine.state import GameState
from engine.testing import build_state
from engine.views import player_view
from maps import load_ruleset
from tests.engine.value_rollout import RolloutPolicy

#: Edinburgh's only routes are the double route to London: with one track taken in a
#: 2-player game (the other then closed), Edinburgh - Paris needs a station.
TAKEN = "edinburgh__london__1"


@pytest.fixture(scope="module")
def rules() -> EuropeRules:
    loaded = load_ruleset("europe")
    assert isinstance(loaded, EuropeRules)
    return loaded


def blocked(rules: EuropeRules, stations: dict[str, int] | None = None) -> GameState:
    """Seat 0 holds Edinburgh - Paris, seat 1 took Edinburgh - London; seat 0 can pay."""
    return build_state(
        rules,
        seats=2,
        owned={1: [TAKEN]},
        tickets={0: ["edinburgh__paris"], 1: ["berlin__roma"]},
        hands={0: {"red": 2, "blue": 3, "locomotive": 1}, 1: {"green": 2}},
        stations=stations,
    )


def test_normal_builds_a_station_when_its_tickets_only_route_is_taken(
    rules: EuropeRules,
) -> None:
    move = choose_action(rules, blocked(rules), 0, "normal")
    assert isinstance(move, BuildStation)
    assert move.city in ("edinburgh", "london")
    assert move.payment == Cards(blue=1)  # no locomotive; the first colour that pays


def test_normal_keeps_its_stations_when_no_ticket_is_blocked(rules: EuropeRules) -> None:
    state = blocked(rules)
    state.owners.pop(TAKEN)
    state.players[1].routes.remove(TAKEN)
    move = choose_action(rules, state, 0, "normal")
    assert not isinstance(move, BuildStation)


def test_both_rollout_policies_build_normals_station(rules: EuropeRules) -> None:
    state = blocked(rules)
    normal = choose_action(rules, state, 0, "normal")
    value = RolloutPolicy(rules, random.Random(1))
    assert value._turn(state, 0) == normal
    core_policy = CoreRolloutPolicy(rules, random.Random(1))
    core = Core.from_state(rules, state)
    assert core_policy._turn(core, 0) == core_policy.table.encode(normal, [])
    # no stations left: the rollout draws or claims instead
    full = blocked(rules, {"berlin": 0, "roma": 0, "madrid": 0})
    assert not isinstance(RolloutPolicy(rules, random.Random(1))._turn(full, 0), BuildStation)


def test_a_rollout_plans_over_the_route_its_own_station_lends(rules: EuropeRules) -> None:
    """With a station in London, Edinburgh - Paris is open again: the plan holds the
    routes from London on to Paris, on both engines."""
    without = RolloutPolicy(rules, random.Random(1)).plan(blocked(rules), 0)
    assert without == []
    state = blocked(rules, {"london": 0})
    plan = RolloutPolicy(rules, random.Random(1)).plan(state, 0)
    assert plan and TAKEN not in plan
    assert rules.board.connected("london", "paris", plan)
    core_policy = CoreRolloutPolicy(rules, random.Random(1))
    core_plan = core_policy.plan(Core.from_state(rules, state), 0)
    assert [core_policy.table.route_ids[r] for r in core_plan] == plan


def test_hard_builds_the_station_its_blocked_ticket_needs(rules: EuropeRules) -> None:
    """Last round, London - Dieppe - Paris built: only a station completes Edinburgh -
    Paris (+7 instead of -7); the search finds nothing better."""
    state = build_state(
        rules,
        seats=2,
        owned={0: ["dieppe__london__1", "dieppe__paris__1"], 1: [TAKEN]},
        tickets={0: ["edinburgh__paris"], 1: ["berlin__roma"]},
        hands={0: {"red": 2, "blue": 3, "locomotive": 1}, 1: {"green": 2}},
        pieces={0: 3, 1: 2},
    )
    state.last_round_by, state.turns_left = 1, 2
    hard = HardPlayer(iterations=60, time_cap_s=None)
    found = hard.evaluate(
        rules, player_view(rules, state, 0), legal_actions(rules, state, 0), random.Random(3)
    )
    assert found.searched
    assert isinstance(found.choice, BuildStation) and found.choice.city in ("edinburgh", "london")


def test_rollouts_build_stations_only_for_blocked_tickets(rules: EuropeRules) -> None:
    """Whole rollouts of 4-player games: every station a rollout builds stands at an
    end of a route another seat owns (one that route lends to a blocked ticket)."""
    built = 0
    for seed in range(3):
        state = new_game(rules, seats=4, seed=seed)
        for _ in range(60):
            seat = state.seats_to_act()[0]
            state = apply(rules, state, choose_action(rules, state, seat, "normal")).state
        end = RolloutPolicy(rules, random.Random(seed)).play_out(state)
        for city, seat in list(stations_of(end).items())[len(stations_of(state)) :]:
            touching = [r for r, route in rules.board.routes.items() if city in (route.a, route.b)]
            assert any(end.owners.get(r, seat) != seat for r in touching), (seed, city)
            built += 1
    assert built >= 1


def test_remembered_station_lists_are_the_listing_of_the_state(rules: EuropeRules) -> None:
    """EuropeRules.turn_actions remembers its lists (rollouts ask often): a list handed
    out may be changed by its caller, and a station built or a card spent lists anew."""
    state = blocked(rules)
    first = rules.turn_actions(state, 0)
    assert len(first) == len(rules.board.cities) * 3  # 1 card: red, blue or a locomotive
    first.clear()
    pays = station_payments(rules.params.colors, 1, state.players[0].hand)
    assert set(pays) == {Cards(red=1), Cards(blue=1), Cards(locomotive=1)}
    again = rules.turn_actions(state, 0)
    assert again == [BuildStation(0, c, p) for c in rules.board.cities for p in pays]
    after = apply(rules, state, BuildStation(0, "paris", Cards(blue=1))).state
    others = [c for c in rules.board.cities if c != "paris"]
    assert rules.turn_actions(after, 1) == [BuildStation(1, c, Cards(green=1)) for c in others]
    second = {a.payment for a in rules.turn_actions(after, 0)}  # 2 cards now, Paris taken
    assert second == {
        Cards(red=2),
        Cards(blue=2),
        Cards(red=1, locomotive=1),
        Cards(blue=1, locomotive=1),
    }
    assert all(a.city != "paris" for a in rules.turn_actions(after, 0))
