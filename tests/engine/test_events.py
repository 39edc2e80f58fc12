"""Typed events: a closed union with a registry, per-reader redaction, JSON round trip, whole turns told."""

from __future__ import annotations

import dataclasses
import json
import typing

import pytest

from engine import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, apply
from engine import events as ev
from engine.codec import decode_event, encode_event
from engine.rules import amsterdam, europe, paris
from engine.types import Cards
from maps import load_ruleset
from tests.engine.test_properties import play_to_end
from tests.scenario import scenario

USA = load_ruleset("usa")


def _event_classes_in(module: object) -> set[type]:
    return {
        obj
        for obj in vars(module).values()
        if isinstance(obj, type)
        and issubclass(obj, ev.EventBase)
        and obj not in (ev.EventBase, ev.SeatEvent)
        and dataclasses.is_dataclass(obj)
    }


def test_every_event_class_is_in_the_union_and_the_registry():
    """The registry EVENT_TYPES holds the shared classes (each in the union) and every rule
    set's own (SeatEvent subclasses, declared in the rule set's module), nothing else."""
    union = set(typing.get_args(ev.EngineEvent))
    registry = set(ev.EVENT_TYPES.values())
    shared = _event_classes_in(ev)
    own = set().union(*(_event_classes_in(m) for m in (amsterdam, europe, paris)))
    assert union == shared | {ev.SeatEvent}
    assert registry == shared | own
    assert all(issubclass(cls, ev.SeatEvent) for cls in own) and own
    assert all(kind == cls.kind for kind, cls in ev.EVENT_TYPES.items())
    assert len({cls.kind for cls in registry}) == len(registry)


def test_events_are_frozen():
    """Events are immutable values."""
    e = ev.TurnStarted(1, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.turn = 4  # type: ignore[misc]


def _samples() -> list[ev.EngineEvent]:
    return [
        ev.CardDrawn(0, "deck", None, "red"),
        ev.CardDrawn(1, "face_up", 2, "locomotive"),
        ev.FaceUpRefilled(2, None),
        ev.FaceUpReset(("locomotive",) * 3 + ("red", "blue"), ("red", None, "blue", "pink", "red")),
        ev.DeckReshuffled(40),
        ev.RouteClaimed(0, "a__b__1", Cards(red=2, locomotive=1), 4, 42),
        ev.TunnelRevealed(1, "t", Cards(red=2), ("red", "blue", "locomotive"), 2),
        ev.TunnelPaid(1, "t", Cards(red=1, locomotive=1)),
        ev.TunnelAbandoned(1, "t", Cards(red=2)),
        ev.TicketsDrawn(0, 4, (("short", 3), ("long", 1)), ("x", "y", "z", "w")),
        ev.TicketsKept(0, 2, 1, "removed", ("x", "y"), ("z",)),
        amsterdam.MerchandiseDrawn(2, "r", 11),
        paris.FlagOffered(0, ("blue",)),
        paris.FlagCardKept(0, "blue"),
        paris.FlagCardDeclined(0),
        paris.FlagScored(0, 4, 1),
        europe.StationBuilt(1, "paris", Cards(red=1, locomotive=1), 1),
        ev.PlayStarted(1),
        ev.TurnStarted(2, 7),
        ev.Passed(1),
        ev.LastRound(0, 2),
        ev.Resigned(3),
        ev.MoveTakenBack(1),
        ev.GameOver((0, 2), (101, 87, 101)),
    ]


def test_samples_cover_every_kind():
    """The codec samples below cover every event kind (so the round trip covers all)."""
    assert {type(e) for e in _samples()} == set(ev.EVENT_TYPES.values())


@pytest.mark.parametrize("event", _samples(), ids=lambda e: e.kind)
def test_codec_round_trip(event):
    """encode_event -> JSON text -> decode_event gives the same event, tagged by kind."""
    data = json.loads(json.dumps(encode_event(event)))
    assert data["kind"] == event.kind
    assert decode_event(data) == event
    redacted = event.redacted()
    assert decode_event(json.loads(json.dumps(encode_event(redacted)))) == redacted


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"kind": "nope"},
        {"kind": "turn_started", "seat": 1},
        {"kind": "passed", "seat": 0, "x": 1},
    ],
)
def test_decode_event_refuses_bad_json(bad):
    """Unknown kinds, missing or extra fields are ValueErrors."""
    with pytest.raises(ValueError):
        decode_event(bad)


def test_secrets_are_cut_per_reader():
    """Secret fields reach only the event's own seat; redacted copies carry none."""
    blind = ev.CardDrawn(0, "deck", None, "red")
    assert blind.for_reader(0)["color"] == "red"
    assert "color" not in blind.for_reader(1) and "color" not in blind.for_reader(None)
    assert blind.redacted().color is None and blind.redacted().secret is None
    face = ev.CardDrawn(0, "face_up", 3, "red")
    assert face.for_reader(None)["color"] == "red" and face.redacted() == face
    kept = ev.TicketsKept(1, 1, 2, "bottom", ("a",), ("b", "c"))
    assert kept.secret == {"tickets": ["a"], "returned_tickets": ["b", "c"]}
    assert kept.for_reader(None) == {
        "kind": "tickets_kept",
        "seat": 1,
        "kept": 1,
        "returned": 2,
        "returned_to": "bottom",
    }
    assert kept.redacted().tickets is None and kept.redacted().returned_tickets is None
    # legacy dict form
    assert blind.to_dict() == {
        "kind": "card_drawn",
        "seat": 0,
        "public": {"source": "deck", "slot": None},
        "secret": {"color": "red"},
    }


def test_a_draw_turn_tells_both_cards():
    """Two draws: a face-up card by slot and colour and a deck card without its colour in public."""
    st = scenario(
        USA,
        face_up=["red", "blue", "green", "pink", "white"],
        deck=["black"] * 10 + ["yellow"],
    )
    t1 = apply(USA, st, DrawFaceUp(0, 1))
    t2 = apply(USA, t1.state, DrawBlind(0))
    public = [e.redacted() for e in t1.events + t2.events]
    assert public[0] == ev.CardDrawn(0, "face_up", 1, "blue")
    assert public[1] == ev.FaceUpRefilled(1, "yellow")
    assert public[2] == ev.CardDrawn(0, "deck", None, None)
    assert t2.events[0] == ev.CardDrawn(0, "deck", None, "black")
    assert isinstance(public[-1], ev.TurnStarted) and public[-1].seat == 1


def test_a_claim_tells_the_cards_paid_and_points():
    """A claim reports the route, the exact cards paid and the points."""
    st = scenario(USA, hands={0: {"red": 3, "locomotive": 2}})
    route = next(r for r in USA.board.routes.values() if r.color == "red" and r.length == 4)
    t = apply(USA, st, ClaimRoute(0, route.id, Cards(red=3, locomotive=1)))
    claimed = next(e for e in t.events if isinstance(e, ev.RouteClaimed))
    assert claimed.payment == Cards(red=3, locomotive=1)
    assert claimed.points == 7 and claimed.pieces_left == st.players[0].pieces - 4


def test_ticket_events_tell_counts_in_public_and_ids_in_private():
    """Drawing and keeping tickets: counts in public, ticket ids only for the drawer."""
    st = scenario(USA)
    t = apply(USA, st, DrawTickets(0))
    drawn = t.events[0]
    assert isinstance(drawn, ev.TicketsDrawn) and drawn.count == 3
    assert drawn.redacted().tickets is None and drawn.tickets is not None
    t2 = apply(USA, t.state, KeepTickets(0, (drawn.tickets[0],)))
    kept = t2.events[0]
    assert isinstance(kept, ev.TicketsKept) and (kept.kept, kept.returned) == (1, 2)


def test_whole_games_only_emit_registered_events():
    """Random games on every map emit only registered event classes, each encodable."""
    from maps import available_maps

    for map_id in available_maps():
        rules = load_ruleset(map_id)
        state, log = play_to_end(rules, rules.params.min_players, 3, check=False)
        assert state.finished
        state2 = None
        from engine import new_game

        state2 = new_game(rules, seats=rules.params.min_players, seed=3)
        for action in log:
            t = apply(rules, state2, action)
            for e in t.events:
                assert type(e) in ev.EVENT_TYPES.values()
                assert decode_event(json.loads(json.dumps(encode_event(e)))) == e
            state2 = t.state
