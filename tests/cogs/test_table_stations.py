"""Europe's train stations and the hand where the turn is played, in English and German: the
stations left in the hand and /ttr status, the claim and station lists headed by the hand and
with a Back button to the turn panel, the Station button's reason when it is disabled, the
cities the ticket plan suggests first with a star, and a ticket completed through a station
shown as done during the game.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.host.services._queries import _private, lent_tickets_done
from cogs.ttr import _prompts as prompts
from engine import GameState, player_view
from engine.testing import build_state
from maps import load_ruleset
from render import recorded_text
from sentences import texts as fmt
from words import words_for

from ..e2e.fake_discord import SentMessage
from ._harness import TIMEOUT, RunningTable, running_table, started_game
from .test_prompt_limits import _check, _table

EUROPE = load_ruleset("europe")

#: What each language says: stations left, Back, the station reason, the star's note.
SAYS = {
    "en": {
        "left3": "3 train stations left",
        "left0": "0 train stations left",
        "back": "Back",
        "needs": "The next train station needs 1 card of one colour",
        "none": "You have no train stations left.",
        "star": "★ where your ticket plan suggests a train station, listed first.",
    },
    "de": {
        "left3": "3 Bahnhöfe übrig",
        "left0": "0 Bahnhöfe übrig",
        "back": "Zurück",
        "needs": "Dein nächster Bahnhof braucht 1 beliebige Karte.",
        "none": "Du hast keine Bahnhöfe mehr.",
        "star": "★ = hier empfiehlt sich für deine Verbindungen ein Bahnhof (steht oben).",
    },
}


async def _started(t: RunningTable, lang: str) -> int:
    """A Europe game of the table's players in ``lang`` (the server's and, once every player
    kept their tickets, each player's own language)."""
    if lang == "de":
        t.fake.guild_locale = "de"
    g = await started_game(t, "europe")
    for p in t.players.values():
        p.user.locale = "de" if lang == "de" else "en-US"
    return g


async def _hand_line(t: RunningTable, g: int, user_id: int, lang: str) -> str:
    table = await t.service.queries.table(g, user_id)
    assert table.mine is not None
    return fmt.cards_line(table.mine.hand, words_for(lang, EUROPE.meta))


def _labelled(message: SentMessage, label: str) -> str:
    return next(b["custom_id"] for b in message.buttons if b.get("label") == label)


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_stations_left_in_the_hand_and_the_status(tmp_path: Path, lang: str) -> None:
    async with running_table(tmp_path) as t:
        g = await _started(t, lang)
        mover = await t.active(g)
        with recorded_text() as drawn:
            hand = await mover.slash("hand")
        assert SAYS[lang]["left3"] in hand.content, hand.summary()
        assert SAYS[lang]["left3"] in drawn, drawn  # the hand image's line
        status = await mover.slash("status")
        assert status.content.count(SAYS[lang]["left3"]) == 2, status.content  # both seats
        with recorded_text() as drawn:
            board = await mover.slash("board")
        assert board.attachments
        seats = [line for line in drawn if line.endswith(SAYS[lang]["left3"])]
        assert len(seats) == 2, drawn  # the sidebar: each seat's row


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_claim_and_station_lists_show_the_hand_and_go_back(
    tmp_path: Path, lang: str
) -> None:
    """Claim and Station from the turn message: the list is headed by the hand, and Back shows
    the turn panel in the same message (as a payment step's Cancel does), from which two cards
    are drawn."""
    async with running_table(tmp_path) as t:
        g = await _started(t, lang)
        mover = await t.active(g)
        cards = await _hand_line(t, g, mover.user.id, lang)
        turn = t.turn_messages(g)[-1]
        for kind in ("station", "claim"):
            listed = await mover.click(turn, f"ttr:{g}:{kind}")
            assert listed.ephemeral and cards in listed.content.split("\n")[0], listed.summary()
            back = _labelled(listed, SAYS[lang]["back"])
            panel = await mover.click(listed, back, private=True)
            assert panel.message_id == listed.message_id  # the same private message, rewritten
            assert cards in panel.content and any(":card:" in c for c in panel.custom_ids)
        # a payment step's Cancel goes back to the turn panel as well
        paying = await mover.slash("station", {"city": "madrid"})
        cancel = next(c for c in paying.custom_ids if ":claim-cancel:" in c)
        panel = await mover.click(paying, cancel, private=True)
        assert panel.message_id == paying.message_id and cards in panel.content, panel.summary()
        before = await t.version(g)
        first = await mover.click(panel, f"ttr:{g}:card:v{before}:deck", private=True)
        second = next(c for c in first.custom_ids if c.endswith(":deck"))
        await mover.click(first, second, private=True)
        assert await t.version(g) == before + 2
        assert await t.active(g) is not mover
        assert not t.fake.take_violations()


def _broke(stations: dict[str, int] | None = None) -> GameState:
    """Seat 0 to move with no card in hand (and ``stations`` built)."""
    return build_state(EUROPE, seats=2, hands={0: {}}, stations=stations or {})


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_disabled_station_button_says_why(lang: str) -> None:
    w = words_for(lang, EUROPE.meta)
    table = _table("europe", _broke(), 0, lang)
    assert table.menu is not None and not table.menu.stations
    text, view = prompts.panel(table, table.menu, w)
    assert view is not None and not _check("panel", text, view)
    [station] = [b for b in view.to_components()[-1]["components"] if "station" in b["custom_id"]]
    assert station["disabled"] and SAYS[lang]["needs"] in text, text
    refused, _ = prompts.stations(table, table.menu, w)
    assert SAYS[lang]["needs"] in refused
    # every station built: none left, whatever the hand
    built = _table("europe", _broke({"madrid": 0, "wien": 0, "roma": 0}), 0, lang)
    assert built.menu is not None
    text, _ = prompts.panel(built, built.menu, w)
    assert SAYS[lang]["none"] in text, text
    assert built.mine is not None
    hand = fmt.hand_text(built.mine, EUROPE, w, game_id=1, map_name="Europe")
    assert SAYS[lang]["left0"] in hand, hand


def _edinburgh(stations: dict[str, int] | None = None) -> GameState:
    """Seat 0 holds Edinburgh - Athina; both tracks out of Edinburgh are other players' (and
    ``stations`` stand)."""
    return build_state(
        EUROPE,
        seats=4,
        owned={1: ["edinburgh__london__1"], 2: ["edinburgh__london__2"]},
        tickets={0: ["edinburgh__athina"]},
        hands={0: {"red": 3, "blue": 2}},
        stations=stations or {},
    )


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_planned_station_city_comes_first_with_a_star(lang: str) -> None:
    w = words_for(lang, EUROPE.meta)
    table = _table("europe", _edinburgh(), 0, lang)
    assert table.menu is not None
    first = table.menu.stations[0]
    assert first.city == "london" and first.serves == ("edinburgh__athina",)
    assert not any(c.planned for c in table.menu.stations[1:])
    text, view = prompts.stations(table, table.menu, w)
    assert view is not None and not _check("stations", text, view)
    options = view.to_components()[0]["components"][0]["options"]
    assert options[0]["label"].startswith("★ London"), options[0]
    assert not any(o["label"].startswith("★") for o in options[1:])
    assert SAYS[lang]["star"] in text, text
    # once the station stands in London the plan uses it and suggests no other city
    built = _table("europe", _edinburgh({"london": 0}), 0, lang)
    assert built.menu is not None and not any(c.planned for c in built.menu.stations)
    [plan] = _private(EUROPE, _edinburgh({"london": 0}), 0, 1, menu=False, plans=True)[2]
    assert plan.station is None and plan.borrowed == (("london", "edinburgh__london__1"),)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_ticket_completed_through_a_station_is_done_during_the_game(lang: str) -> None:
    """Seat 0 owns Berlin - Wien - Budapest and a station in Budapest, seat 1 Budapest -
    Bucuresti: the station lends that route, so Berlin - Bucuresti is done in the hand (text and
    the view the image and the planner read) and its plan, as the final score has it."""
    state = build_state(
        EUROPE,
        seats=2,
        owned={0: ["berlin__wien__1", "budapest__wien__1"], 1: ["bucuresti__budapest__1"]},
        tickets={0: ["berlin__bucuresti", "berlin__roma"]},
        stations={"budapest": 0},
    )
    raw = player_view(EUROPE, state, 0)
    assert [t.done for t in raw.tickets] == [False, False]  # own routes only
    view = lent_tickets_done(EUROPE, state, raw)
    assert [t.done for t in view.tickets] == [True, False]
    w = words_for(lang, EUROPE.meta)
    plain = fmt.hand_text(raw, EUROPE, w, game_id=1, map_name="Europe")
    shown = fmt.hand_text(view, EUROPE, w, game_id=1, map_name="Europe")
    done = fmt.ticket_text(EUROPE, "berlin__bucuresti", w, done=True)
    assert done in shown and done not in plain
    # what the service gives the cogs says the same, and the plan has nothing left to claim
    mine, _, plans = _private(EUROPE, state, 0, 1, menu=True, plans=True)
    assert mine.tickets[0].done and not mine.tickets[1].done
    assert plans[0].done and plans[0].routes == () and plans[0].cars == 0
    assert not plans[1].done and plans[1].routes


async def test_a_city_picked_with_one_way_to_pay_is_built_at_once(tmp_path: Path) -> None:
    """As a route picked from the claim list: the mover holds cards of one colour only, so
    the city they pick has one way to pay and the station is built with no payment step."""
    async with running_table(tmp_path) as t:
        g = await _started(t, "en")
        mover = await t.active(g)
        table = await t.service.queries.table(g, mover.user.id)
        assert table.public is not None and table.mine is not None
        state = await t.service.loader.game_state(g)
        seat = table.public.active
        players = list(state.players)
        one = max(table.mine.hand, key=lambda c: (table.mine.hand[c], c != "locomotive"))
        players[seat] = dataclasses.replace(players[seat], hand={one: table.mine.hand[one]})
        t.service.loader.remember(g, dataclasses.replace(state, players=players))
        picker = await mover.click(t.turn_messages(g)[-1], f"ttr:{g}:station")
        pick = picker.selects[0]
        before = await t.version(g)
        handle = await t.fake.select(
            mover.user, picker, pick["custom_id"], [pick["options"][0]["value"]], private=True
        )
        built = await handle.message(timeout=TIMEOUT)
        assert "You built a train station in" in built.content, built.summary()
        assert await t.version(g) == before + 1
