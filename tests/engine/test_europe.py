"""Europe's rules on both engines: train stations, the setup deal, scoring and tie-breaks.

Sources: ``shared/rules/europe-rules-en.md`` ("Setup", "Train stations",
"Scoring", "Tie-break for the win"); the tie-break order is our choice (the
rulebook's as remembered: most completed tickets, fewest stations, European
Express), stated in the map's provenance and its rules text.
"""

from __future__ import annotations

import pytest

from engine import (
    BuildStation,
    Cards,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    StationUse,
    apply,
    legal_actions,
    new_game,
)
from engine.core import Core, core_table
from engine.rules.europe import EuropeRules, StationBuilt, station_payments
from engine.rules.europe import stations_of as built_stations
from engine.scoring import final_scores
from engine.state import GameState
from engine.testing import build_state
from maps import load_ruleset
from tests.engine.test_core import play_both, pure_source


@pytest.fixture(scope="module")
def rules() -> EuropeRules:
    loaded = load_ruleset("europe")
    assert isinstance(loaded, EuropeRules)
    return loaded


def stations_of(rules: EuropeRules, state: GameState, seat: int) -> list[BuildStation]:
    return [a for a in legal_actions(rules, state, seat) if isinstance(a, BuildStation)]


# ---------------------------------------------------------------- building stations
def test_station_costs_one_two_three_cards_of_one_colour_with_locomotives_wild(
    rules: EuropeRules,
) -> None:
    hand = {"red": 3, "blue": 1, "locomotive": 2}
    state = build_state(rules, seats=2, hands={0: hand}, conserve_cards=False)
    first = {a.payment for a in stations_of(rules, state, 0) if a.city == "paris"}
    assert first == {Cards(red=1), Cards(blue=1), Cards(locomotive=1)}
    # the first station costs 1 card: pay it, the turn passes, the card goes to the discard
    done = apply(rules, state, BuildStation(0, "paris", Cards(blue=1)))
    after = done.state
    assert built_stations(after) == {"paris": 0}
    assert after.players[0].hand == {"red": 3, "locomotive": 2}
    assert after.discard[-1:] == ["blue"] and after.active == 1
    assert StationBuilt(0, "paris", Cards(blue=1), 2) in done.events
    # the second costs 2 of one colour (locomotives wild), the third 3
    after.active = 0
    second = {a.payment for a in stations_of(rules, after, 0) if a.city == "wien"}
    assert second == {
        Cards(red=2),
        Cards(red=1, locomotive=1),
        Cards(locomotive=2),
    }
    with pytest.raises(IllegalAction) as err:
        apply(rules, after, BuildStation(0, "wien", Cards(red=1)))
    assert err.value.code == "cannot_pay_station"
    with pytest.raises(IllegalAction) as err:
        apply(rules, after, BuildStation(0, "wien", Cards(red=3)))
    assert err.value.code == "cannot_pay_station"
    third = build_state(
        rules,
        seats=2,
        hands={0: {"red": 1, "green": 2, "locomotive": 1}},
        stations={"paris": 0, "wien": 0},
        conserve_cards=False,
    )
    payments = {a.payment for a in stations_of(rules, third, 0)}
    assert payments == {Cards(green=2, locomotive=1)}
    with pytest.raises(IllegalAction) as err:  # two colours are not one colour
        apply(rules, third, BuildStation(0, "roma", Cards(red=1, green=2)))
    assert err.value.code == "cannot_pay_station"
    full = build_state(
        rules,
        seats=2,
        hands={0: {"red": 5}},
        stations={"paris": 0, "wien": 0, "roma": 0},
        conserve_cards=False,
    )
    assert stations_of(rules, full, 0) == []
    with pytest.raises(IllegalAction) as err:
        apply(rules, full, BuildStation(0, "madrid", Cards(red=1)))
    assert err.value.code == "no_stations_left"


def test_station_payments_lists_every_exact_payment() -> None:
    colors = ("red", "blue")
    assert station_payments(colors, 3, {"red": 2, "locomotive": 3}) == [
        Cards(red=2, locomotive=1),
        Cards(red=1, locomotive=2),
        Cards(locomotive=3),
    ]
    assert station_payments(colors, 2, {"blue": 1}) == []


def test_one_station_per_city_whoever_built_it(rules: EuropeRules) -> None:
    state = build_state(rules, seats=3, hands={0: {"red": 2}, 1: {"red": 2}}, stations={"paris": 1})
    cities = {a.city for a in stations_of(rules, state, 0)}
    assert "paris" not in cities and len(cities) == len(rules.board.cities) - 1
    with pytest.raises(IllegalAction) as err:
        apply(rules, state, BuildStation(0, "paris", Cards(red=1)))
    assert err.value.code == "station_taken"
    with pytest.raises(IllegalAction) as err:
        apply(rules, state, BuildStation(0, "atlantis", Cards(red=1)))
    assert err.value.code == "unknown_city"


def test_a_station_is_a_whole_turn_only_at_its_start(rules: EuropeRules) -> None:
    state = build_state(rules, seats=2, hands={0: {"red": 2}}, conserve_cards=False)
    state.step = "second_card"
    assert stations_of(rules, state, 0) == []
    with pytest.raises(IllegalAction) as err:
        apply(rules, state, BuildStation(0, "paris", Cards(red=1)))
    assert err.value.code == "wrong_step"


# ---------------------------------------------------------------- the end-game choice
#: seat 0's line Frankfurt - München - Wien; Paris - Wien (8) needs Frankfurt - Paris
LINE = ["frankfurt__munchen__1", "munchen__wien__1"]


def test_a_station_uses_the_route_that_completes_a_ticket(rules: EuropeRules) -> None:
    state = build_state(
        rules,
        seats=2,
        owned={0: LINE, 1: ["berlin__frankfurt__1", "frankfurt__paris__1"]},
        tickets={0: ["paris__wien"]},
        stations={"frankfurt": 0},
    )
    seat = final_scores(rules, state).seats[0]
    assert seat.stations == (StationUse("frankfurt", "frankfurt__paris__1", ("paris__wien",)),)
    assert seat.completed == ["paris__wien"] and seat.breakdown["tickets"] == 8
    assert seat.breakdown["stations"] == 8  # two stations not built
    # no station there: the ticket fails
    state.extra = None
    plain = final_scores(rules, state).seats[0]
    assert plain.failed == ["paris__wien"] and plain.breakdown["tickets"] == -8
    assert plain.stations == () and plain.breakdown["stations"] == 12


def test_two_tickets_compete_for_one_station_and_two_stations_serve_both(
    rules: EuropeRules,
) -> None:
    """Frankfurt's station can borrow Frankfurt - Paris (Paris - Wien, 8) or Essen -
    Frankfurt (Frankfurt - København, 5), not both: it takes the better; a second
    station in Essen lets each station serve one ticket."""
    owned = {0: [*LINE, "essen__kobenhavn__1"], 1: ["frankfurt__paris__1", "essen__frankfurt__1"]}
    tickets = {0: ["frankfurt__kobenhavn", "paris__wien"]}
    one = build_state(rules, seats=2, owned=owned, tickets=tickets, stations={"frankfurt": 0})
    seat = final_scores(rules, one).seats[0]
    assert seat.stations == (StationUse("frankfurt", "frankfurt__paris__1", ("paris__wien",)),)
    assert seat.completed == ["paris__wien"] and seat.failed == ["frankfurt__kobenhavn"]
    assert seat.breakdown["tickets"] == 8 - 5
    two = build_state(
        rules, seats=2, owned=owned, tickets=tickets, stations={"frankfurt": 0, "essen": 0}
    )
    seat = final_scores(rules, two).seats[0]
    assert seat.stations == (
        StationUse("frankfurt", "frankfurt__paris__1", ("paris__wien",)),
        StationUse("essen", "essen__frankfurt__1", ("frankfurt__kobenhavn",)),
    )
    assert seat.breakdown["tickets"] == 13 and seat.tickets_completed == 2
    # in the other build order each station still takes the route that serves best
    swapped = build_state(
        rules, seats=2, owned=owned, tickets=tickets, stations={"essen": 0, "frankfurt": 0}
    )
    assert [u.route for u in final_scores(rules, swapped).seats[0].stations] == [
        "essen__frankfurt__1",
        "frankfurt__paris__1",
    ]


def test_stations_of_two_players_may_use_the_same_route(rules: EuropeRules) -> None:
    state = build_state(
        rules,
        seats=3,
        owned={
            0: LINE,
            1: ["bruxelles__paris__1", "munchen__zurich__1"],
            2: ["frankfurt__paris__1"],
        },
        tickets={0: ["paris__wien"]},
        stations={"frankfurt": 0, "paris": 1},
    )
    seats = final_scores(rules, state).seats
    assert seats[0].stations[0].route == "frankfurt__paris__1"
    assert seats[1].stations == (StationUse("paris", None, ()),)  # nothing to gain: no route


def test_a_station_next_to_a_double_route(rules: EuropeRules) -> None:
    """4 players: both Frankfurt - Paris tracks are taken by others; the station uses
    one of them (the first), never both. A track parallel to one the owner holds is
    of no use."""
    state = build_state(
        rules,
        seats=4,
        owned={0: LINE, 1: ["frankfurt__paris__1"], 2: ["frankfurt__paris__2"]},
        tickets={0: ["paris__wien"]},
        stations={"frankfurt": 0},
    )
    seat = final_scores(rules, state).seats[0]
    assert seat.stations == (StationUse("frankfurt", "frankfurt__paris__1", ("paris__wien",)),)
    own_track = build_state(
        rules,
        seats=4,
        owned={0: ["bruxelles__paris__1"], 1: ["bruxelles__paris__2"]},
        tickets={0: ["paris__wien"]},
        stations={"paris": 0},
    )
    assert final_scores(rules, own_track).seats[0].stations == (StationUse("paris", None, ()),)


def test_a_station_never_counts_for_the_european_express(rules: EuropeRules) -> None:
    state = build_state(
        rules,
        seats=2,
        owned={0: LINE, 1: ["frankfurt__paris__1", "bruxelles__paris__1"]},
        tickets={0: ["paris__wien"]},
        stations={"frankfurt": 0},
    )
    seats = final_scores(rules, state).seats
    assert seats[0].stations[0].route == "frankfurt__paris__1"
    assert seats[0].longest_path == 5  # own routes only: Frankfurt - München - Wien
    assert seats[1].longest_path == 5  # Bruxelles - Paris - Frankfurt
    assert seats[0].breakdown["longest_path"] == seats[1].breakdown["longest_path"] == 10


def test_unbuilt_stations_score_four_points_each(rules: EuropeRules) -> None:
    for built in range(4):
        cities = ["paris", "wien", "roma"][:built]
        state = build_state(rules, seats=2, stations=dict.fromkeys(cities, 0))
        seats = final_scores(rules, state).seats
        assert seats[0].breakdown["stations"] == 4 * (3 - built)
        assert seats[1].breakdown["stations"] == 12
        assert seats[0].score == sum(seats[0].breakdown.values())
        assert len(seats[0].stations) == built
    assert "stations" in rules.breakdown_keys()


# ---------------------------------------------------------------- setup
def test_setup_deals_one_long_and_three_regular_keep_at_least_two(rules: EuropeRules) -> None:
    long_ids = {t.id for t in rules.board.tickets.values() if t.deck == "long"}
    assert len(long_ids) == 6 and len(rules.board.tickets) == 46
    state = new_game(rules, seats=3, seed=11)
    for p in state.players:
        assert len(p.offer) == 4
        assert [t in long_ids for t in p.offer] == [True, False, False, False]
    # the long tickets not dealt leave the game unseen; the draws use the regular deck
    assert state.ticket_decks["long"] == []
    assert sorted(state.removed_tickets) == sorted(long_ids - {p.offer[0] for p in state.players})
    assert len(state.ticket_decks["main"]) == 40 - 9
    offer = state.players[0].offer
    with pytest.raises(IllegalAction) as err:
        apply(rules, state, KeepTickets(0, (offer[0],)))
    assert err.value.code == "must_keep_at_least"
    kept = apply(rules, state, KeepTickets(0, (offer[0], offer[3]))).state
    assert kept.players[0].tickets == [offer[0], offer[3]]
    assert set(offer[1:3]) <= set(kept.removed_tickets)  # not kept: out of the game
    for seat in (1, 2):
        o = kept.players[seat].offer
        kept = apply(rules, kept, KeepTickets(seat, tuple(o))).state
    assert kept.phase == "play"
    drawn = apply(rules, kept, DrawTickets(kept.active)).state
    assert all(t not in long_ids for t in drawn.players[kept.active].offer)
    assert len(drawn.players[kept.active].offer) == 3


# ---------------------------------------------------------------- tie-breaks
def test_tie_break_fewest_stations_then_the_european_express(rules: EuropeRules) -> None:
    assert rules.params.tiebreaks == ("tickets_completed", "fewest_stations", "longest_path_bonus")
    # 26 points each, no ticket: seat 0 built one station, seat 1 none
    state = build_state(
        rules,
        seats=2,
        owned={
            0: ["frankfurt__paris__1", "amsterdam__london__1", "roma__venezia__1"],
            1: ["berlin__frankfurt__1"],
        },
        stations={"madrid": 0},
    )
    result = final_scores(rules, state)
    assert [s.score for s in result.seats] == [26, 26]
    assert result.winners == [1] and result.ranking == [1, 0]
    # 16 points each, no completed ticket, no station: the European Express decides
    express = build_state(
        rules,
        seats=2,
        owned={0: ["marseille__paris__1"], 1: ["berlin__frankfurt__1"]},
        tickets={0: ["frankfurt__smolensk"]},
    )
    result = final_scores(rules, express)
    assert [s.score for s in result.seats] == [16, 16]
    assert result.seats[0].breakdown["longest_path"] == 10
    assert result.winners == [0]


# ---------------------------------------------------------------- both engines
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_core_plays_europe_as_the_value_engine(seats: int) -> None:
    assert play_both("europe", seats, 30 + seats) > 50


def test_the_plain_source_core_plays_europe_too() -> None:
    assert play_both("europe", 3, 7, impl=pure_source()) > 50


def test_stations_round_trip_through_the_core(rules: EuropeRules) -> None:
    state = build_state(
        rules, seats=2, hands={0: {"red": 2, "locomotive": 1}}, stations={"paris": 1}
    )
    core = Core.from_state(rules, state)
    assert core.to_state() == state
    table = core_table(rules)
    listed = {table.decode(0, a, []) for a in core.legal(0)}
    assert {a for a in listed if isinstance(a, BuildStation)} == set(stations_of(rules, state, 0))
    action = BuildStation(0, "wien", Cards(red=1))
    core.events = []
    core.step_seat(0, table.encode(action, []))
    done = apply(rules, state, action)
    assert core.to_state() == done.state and core.events == done.events


def test_a_game_no_seat_can_finish_ends_at_the_turn_limit_in_both_engines() -> None:
    """Two AI seats on Europe (seed 50,021) playing the normal heuristic of before tunnels
    were weighed (``careful_tunnels=False``) retry the Petrograd - Stockholm tunnel turn
    after turn, neither able to pay its extra cards, so the game never reaches its last
    round; it ends and is scored after TURN_LIMIT turns (a safeguard, in no rulebook), and
    the integer core ends it on the same action with the same result. (The normal level
    now gives such a tunnel up for good while its hand stays the same.)"""
    from engine import ENGINE_VERSION
    from engine.ai import HeuristicPlayer, choose_action
    from engine.params import TURN_LIMIT

    stalling = HeuristicPlayer(careful_tunnels=False)

    rules = load_ruleset("europe")
    state = new_game(rules, seats=2, seed=50_021)
    core = None
    table = core_table(rules)
    for _ in range(5_000):  # bounded: without the limit this game never ends
        if state.finished:
            break
        if core is None and state.turn >= TURN_LIMIT - 2 and state.step == "turn":
            core = Core.from_state(rules, state)
        seat = state.seats_to_act()[0]
        action = choose_action(rules, state, seat, player=stalling)
        state = apply(rules, state, action).state
        if core is not None:
            core.step_seat(seat, table.encode(action, core.offers[seat]))
            assert core.to_state() == state
    assert state.turn == TURN_LIMIT and state.result is not None
    assert all(p.pieces > rules.params.last_round_at for p in state.players)
    assert state.last_round_by is None
    assert core is not None and core.result == state.result
    assert ENGINE_VERSION == "4"
