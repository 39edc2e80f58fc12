"""Germany and Nordic Countries: the rulebooks' own examples, map counts, and random play with invariants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from engine import (
    AbandonTunnel,
    Cards,
    ClaimRoute,
    DrawFaceUp,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    PayTunnel,
    SetupError,
    apply,
    new_game,
    replay,
)
from engine.ai import choose_action
from engine.codec import decode_state, encode_state
from engine.payment import check_payment, payment_options
from engine.scoring import ticket_status
from engine.types import LOCOMOTIVE as L
from maps import load_ruleset
from tests.engine.test_properties import check_invariants
from tests.scenario import all_cards, scenario

GER = load_ruleset("germany")
NOR = load_ruleset("nordic")


# ------------------------------------------------------------------ maps
def test_germany_map_counts():
    """35 cities + 5 countries, 110 tracks with 2 triples; 2012 deck 61 (33 short, 28 long), 2017 deck 89."""
    b = GER.board
    assert len(b.cities) == 40 and sum(c.kind == "country" for c in b.cities.values()) == 5
    assert len(b.routes) == 110 and sum(len(g) == 3 for g in b.groups.values()) == 2
    for option, short, long_ in (("2012", 33, 28), ("2017", 55, 34)):
        st = new_game(GER, seats=2, seed=1, options={"tickets": option})
        assert {k: len(v) for k, v in st.ticket_decks.items()} == {"short": short, "long": long_}
    with pytest.raises(SetupError):
        new_game(GER, seats=2, seed=1, options={"tickets": "1902"})


def test_nordic_map_counts():
    """39 cities, 81 tracks, 10 tunnels, 24 ferries, 46 tickets; Murmansk-Lieksa takes any-4 substitutes."""
    b = NOR.board
    assert (len(b.cities), len(b.routes), len(b.tickets)) == (39, 81, 46)
    assert (
        sum(r.tunnel for r in b.routes.values()) == 10
        and sum(r.is_ferry for r in b.routes.values()) == 24
    )
    assert (
        b.routes["lieksa__murmansk__1"].substitute == 4
        and b.routes["lieksa__murmansk__1"].length == 9
    )


@pytest.mark.parametrize("seats", [1, 4, 5])
def test_nordic_refuses_other_player_counts(seats):
    """Nordic Countries is for 2-3 players only."""
    with pytest.raises(SetupError) as e:
        new_game(NOR, seats=seats, seed=1)
    assert e.value.detail["min"] == 2 and e.value.detail["max"] == 3


# ------------------------------------------------------------------ Germany
def test_germany_gray_route_with_one_yellow_and_one_locomotive():
    """Rulebook example: a gray 2-route paid with 1 yellow + 1 locomotive."""
    st = scenario(GER, 2, hands={0: {"yellow": 1, L: 1}})
    st = apply(
        GER, st, ClaimRoute(0, "frankfurt__mannheim__1", Cards(yellow=1, locomotive=1))
    ).state
    assert st.owners["frankfurt__mannheim__1"] == 0


def test_germany_no_connection_through_a_country():
    """Freiburg and Saarbrücken both reach Frankreich, yet are not connected through it."""
    st = scenario(GER, 2, owners={"frankreich__freiburg__1": 0, "frankreich__saarbrucken__1": 0})
    b = GER.board
    assert b.connected("freiburg", "frankreich", st.players[0].routes)
    assert not b.connected("freiburg", "saarbrucken", st.players[0].routes)
    t = next((t for t in b.tickets.values() if {t.a, t.b} == {"freiburg", "saarbrucken"}), None)
    if t is not None:
        st.players[0].tickets = [t.id]
        assert ticket_status(GER, st, 0) == ([], [t.id])


def test_germany_setup_mix_keep_two_and_decks_shuffled():
    """Each seat announces a mix of 4, keeps at least 2; returned tickets go under their deck; decks reshuffled."""
    st = new_game(GER, seats=2, seed=3)
    assert all(p.needs_mix for p in st.players)
    with pytest.raises(IllegalAction) as e:
        apply(GER, st, DrawTickets(0, (("short", 3),)))
    assert e.value.code == "bad_mix_total"
    st = apply(GER, st, DrawTickets(0, (("short", 3), ("long", 1)))).state
    offer = st.players[0].offer
    assert [GER.board.tickets[t].deck for t in offer].count("long") == 1
    with pytest.raises(IllegalAction):
        apply(GER, st, KeepTickets(0, offer[:1]))
    st = apply(GER, st, KeepTickets(0, tuple(offer[:2]))).state
    assert set(offer[2:]) <= set(st.ticket_decks["short"] + st.ticket_decks["long"])
    st = apply(GER, st, DrawTickets(1, (("long", 4),))).state
    st = apply(GER, st, KeepTickets(1, tuple(st.players[1].offer))).state
    assert st.phase == "play"


def test_germany_globetrotter_and_no_longest_path():
    """Final breakdowns carry Globetrotter (15, most completed tickets) and no longest path."""
    assert GER.breakdown_keys() == ["routes", "tickets", "globetrotter"]


# ------------------------------------------------------------------ Nordic tunnels (rulebook examples)
def tunnel_state(hand, revealed):
    """Seat 0 about to claim the green tunnel Kristiansand-Stavanger (2) with the deck's top 3 = revealed."""
    return scenario(NOR, 3, hands={0: hand}, deck=["white"] * 5 + list(reversed(revealed)))


@pytest.mark.parametrize(
    "played,revealed,extra,payable",
    [
        (Cards(green=2), ["green", "red", "blue"], 1, [Cards(green=1), Cards(locomotive=1)]),
        (Cards(green=2), [L, "red", "blue"], 1, [Cards(green=1), Cards(locomotive=1)]),
        (Cards(locomotive=2), [L, "green", "blue"], 1, [Cards(locomotive=1)]),
    ],
)
def test_nordic_tunnel_rulebook_examples(played, revealed, extra, payable):
    """2 green + 1 green turned: 1 more green; 2 green + 1 locomotive: 1 more green or loco; 2 locos + 1 loco: 1 more loco."""
    st = tunnel_state({"green": 3, L: 3}, revealed)
    st = apply(NOR, st, ClaimRoute(0, "kristiansand__stavanger__1", played)).state
    assert st.step == "tunnel" and st.tunnel.extra == extra and st.tunnel.revealed == revealed
    from engine import legal_actions

    offered = sorted(
        (a.extra for a in legal_actions(NOR, st, 0) if isinstance(a, PayTunnel)), key=repr
    )
    assert offered == sorted(payable, key=repr)
    done = apply(NOR, st, PayTunnel(0, payable[0])).state
    assert done.owners["kristiansand__stavanger__1"] == 0 and done.active == 1
    assert all(c in done.discard for c in revealed)


def test_nordic_tunnel_abandon_returns_cards_and_ends_turn():
    """Abandoning takes the committed cards back; the revealed cards go to the discard; nothing else changes."""
    st = tunnel_state({"green": 2}, ["green", "red", "blue"])
    t = apply(NOR, st, ClaimRoute(0, "kristiansand__stavanger__1", Cards(green=2))).state
    assert t.step == "tunnel"
    with pytest.raises(IllegalAction):
        apply(NOR, t, PayTunnel(0, Cards(green=1)))  # none left
    done = apply(NOR, t, AbandonTunnel(0)).state
    assert done.players[0].hand == {"green": 2} and "kristiansand__stavanger__1" not in done.owners
    assert done.active == 1 and done.discard[-3:] == ["green", "red", "blue"]
    assert sum(all_cards(done).values()) == sum(all_cards(st).values())


# ------------------------------------------------------------------ Nordic payments
def test_nordic_ferry_stavanger_kristiansand_one_loco_two_orange():
    """Rulebook example: the ferry Stavanger-Kristiansand (3, 1 locomotive) with 1 locomotive + 2 orange."""
    st = scenario(NOR, 3, hands={0: {"orange": 2, L: 1}})
    st = apply(
        NOR, st, ClaimRoute(0, "kristiansand__stavanger__2", Cards(orange=2, locomotive=1))
    ).state
    assert st.owners["kristiansand__stavanger__2"] == 0


def test_nordic_ferry_three_cards_replace_a_locomotive():
    """Any 3 cards may replace the required locomotive."""
    route = NOR.board.routes["kristiansand__stavanger__2"]
    assert check_payment(NOR.params, route, Cards(orange=2, red=2, blue=1)) is not None
    assert check_payment(NOR.params, route, Cards(orange=2, red=2)) is None


def test_murmansk_lieksa_seven_green_plus_eight_others():
    """Rulebook example: 7 green + 8 other cards (two groups of 4) pay Murmansk-Lieksa (9)."""
    route = NOR.board.routes["lieksa__murmansk__1"]
    assert (
        check_payment(NOR.params, route, Cards(green=7, red=3, blue=2, yellow=2, locomotive=1))
        is not None
    )
    assert check_payment(NOR.params, route, Cards(green=7, red=3, blue=2, yellow=2)) is None
    assert check_payment(NOR.params, route, Cards(green=9)) is not None


def test_nordic_locomotives_refused_on_ordinary_routes():
    """Locomotives pay only for tunnels and ferries: a gray ordinary route refuses one."""
    n = NOR.board.routes["goteborg__norrkoping__1"].length
    st = scenario(NOR, 3, hands={0: {"red": n, L: 1}})
    with pytest.raises(IllegalAction) as e:
        apply(NOR, st, ClaimRoute(0, "goteborg__norrkoping__1", Cards(red=n - 1, locomotive=1)))
    assert e.value.code == "cannot_pay"
    assert apply(NOR, st, ClaimRoute(0, "goteborg__norrkoping__1", Cards(red=n))).state.owners


def test_nordic_face_up_locomotive_as_second_card():
    """No locomotive restriction: a face-up locomotive may be the second card, and taken first it is not the whole draw."""
    st = scenario(NOR, 2, face_up=["red", L, L, "blue", "green"], deck=["white"] * 10)
    st = apply(NOR, st, DrawFaceUp(0, 1)).state
    assert st.step == "second_card" and st.active == 0
    st = apply(NOR, st, DrawFaceUp(0, 2)).state
    assert st.active == 1


def test_nordic_unkept_tickets_leave_the_game():
    """Tickets not kept at setup are removed from the game, not put under the deck."""
    st = new_game(NOR, seats=2, seed=2)
    offer = st.players[0].offer
    assert len(offer) == 5
    st = apply(NOR, st, KeepTickets(0, tuple(offer[:2]))).state
    assert sorted(st.removed_tickets) == sorted(offer[2:])
    assert not set(offer[2:]) & set(st.ticket_decks["main"])


@settings(max_examples=25, deadline=None)
@given(
    hand=st_.dictionaries(
        st_.sampled_from(["green", "orange", "red", L]), st_.integers(0, 4), max_size=4
    ),
    route=st_.sampled_from(
        [
            "kristiansand__stavanger__2",
            "kristiansand__stavanger__1",
            "goteborg__norrkoping__1",
            "bergen__stavanger__1",
        ]
    ),
)
def test_payment_enumeration_equals_brute_force(hand, route):
    """payment_options equals every sub-multiset of the hand that check_payment accepts."""
    from itertools import product

    r = NOR.board.routes[route]
    colours = sorted(c for c, n in hand.items() if n)
    brute = set()
    for counts in product(*(range(hand[c] + 1) for c in colours)):
        pay = Cards({c: n for c, n in zip(colours, counts, strict=True)})
        if pay.total and check_payment(NOR.params, r, pay) is not None:
            brute.add(pay)
    assert set(payment_options(NOR.params, r, hand)) == brute


# ------------------------------------------------------------------ random play
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st_.integers(0, 2**32),
    which=st_.sampled_from(
        [
            ("germany", 2),
            ("germany", 3),
            ("germany", 4),
            ("germany", 5),
            ("nordic", 2),
            ("nordic", 3),
        ]
    ),
)
def test_random_play_to_the_end(seed, which):
    """Random games on both maps end with every invariant, replay and codec round-trip intact."""
    rules = GER if which[0] == "germany" else NOR
    state = new_game(rules, seats=which[1], seed=seed)
    log = []
    while not state.finished:
        action = choose_action(rules, state, state.seats_to_act()[0], "random")
        state = apply(rules, state, action).state
        log.append(action)
        check_invariants(rules, state, 110)
    assert replay(rules, seats=which[1], seed=seed, options=None, actions=log) == state
    assert decode_state(encode_state(state)) == state
    for s in state.result.seats:
        assert s.score == sum(s.breakdown.values())
