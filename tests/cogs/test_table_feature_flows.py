"""Four table features driven through a running bot and the fake Discord, in English and German:
the disabled Station button of the turn panel says why, the station picker lists the city the
ticket plan suggests first with a star, a ticket completed through a station is shown as done
in the hand while the game runs, and Do it on a hinted tunnel with no spare card asks first.

Each game is a real Europe game of the harness; the mover's position is prepared by putting a
:func:`engine.testing.build_state` state at the game's version into the service's state cache
(``loader.remember``), as ``test_table_stations.py`` does, and then played with slash commands
and clicks.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

from engine import Cards, ClaimRoute, GameState, legal_actions, player_view
from engine.ai.coach import Hint, suggest
from engine.codec import decode_action
from engine.testing import build_state
from maps import load_ruleset
from sentences import texts as fmt
from words import words_for

from ._driver import _button
from ._harness import RunningTable, running_table, started_game
from .test_coach_flows import _moved

EUROPE = load_ruleset("europe")
T = TypeVar("T")
TUNNEL = "madrid__pamplona__1"

#: What each language says (the catalogs' words, as the bot shows them).
SAYS = {
    "en": {
        "needs": "The next train station needs 1 card of one colour",
        "star": "★ where your ticket plan suggests a train station, listed first.",
        "risk": "Tunnel: you keep no spare black card or locomotive",
        "why": "Asked before playing: the hint warned that this tunnel can cost your turn.",
        "yes": "Yes, play it",
        "playing": "Playing the hinted move",
    },
    "de": {
        "needs": "Dein nächster Bahnhof braucht 1 beliebige Karte.",
        "star": "★ = hier empfiehlt sich für deine Verbindungen ein Bahnhof (steht oben).",
        "risk": "Tunnel: Dir bleibt keine Karte in Schwarz und keine Lokomotive übrig",
        "why": "Nachgefragt, bevor gespielt wird: der Tipp hat gewarnt, dass dich dieser Tunnel "
        "deinen Zug kosten kann.",
        "yes": "Ja, ausführen",
        "playing": "Der vorgeschlagene Zug wird ausgeführt",
    },
}


async def _started(t: RunningTable, lang: str, **new: object) -> int:
    """A Europe game of the table's players in ``lang`` (the server's and each player's)."""
    if lang == "de":
        t.fake.guild_locale = "de"
    g = await started_game(t, "europe", **new)
    for p in t.players.values():
        p.user.locale = "de" if lang == "de" else "en-US"
    return g


async def _prepare(
    t: RunningTable,
    g: int,
    *,
    hands: Mapping[int, Mapping[str, int]],
    owned: Mapping[int, Sequence[str]] | None = None,
    tickets: Mapping[int, Sequence[str]] | None = None,
    stations: Mapping[str, int] | None = None,
) -> int:
    """Put a prepared position of game ``g`` at its stored version into the state cache, the
    seat to move unchanged; seats are given relative to the mover (0: the mover, 1: the other).
    Returns the mover's seat."""
    state = await t.service.loader.game_state(g)
    seat = state.active

    def mine(m: Mapping[int, T] | None) -> dict[int, T]:
        return {(seat + k) % 2: v for k, v in (m or {}).items()}

    built = build_state(
        EUROPE,
        seats=2,
        seed=state.seed,
        options=state.options,
        hands=mine(hands),
        owned=mine(owned),
        tickets=mine(tickets),
        stations={c: (seat + s) % 2 for c, s in (stations or {}).items()},
        active=seat,
        conserve_cards=False,
    )
    t.service.loader.remember(g, dataclasses.replace(built, version=state.version))
    return seat


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_turn_panel_says_why_its_station_button_is_disabled(
    tmp_path: Path, lang: str
) -> None:
    """The mover holds no card: the turn panel opened from the turn message shows the Station
    button disabled and the line that says what the next station needs."""
    async with running_table(tmp_path) as t:
        g = await _started(t, lang)
        mover = await t.active(g)
        await _prepare(t, g, hands={0: {}})
        turn = t.turn_messages(g)[-1]
        panel = await mover.click(turn, f"ttr:{g}:draw")
        assert panel.ephemeral, panel.summary()
        [station] = [b for b in panel.buttons if b["custom_id"].endswith(":station")]
        assert station.get("disabled"), panel.summary()
        assert SAYS[lang]["needs"] in panel.content, panel.content
        assert not t.fake.take_violations()


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_station_picker_lists_the_planned_city_first_with_a_star(
    tmp_path: Path, lang: str
) -> None:
    """The mover holds Edinburgh - Athina and the other player has the Edinburgh - London
    track (in a two-player game its twin is closed): the picker the Station button opens lists
    London first, starred, and says what the star means; no other city is starred."""
    async with running_table(tmp_path) as t:
        g = await _started(t, lang)
        mover = await t.active(g)
        await _prepare(
            t,
            g,
            hands={0: {"red": 3, "blue": 2}},
            owned={1: ["edinburgh__london__1"]},
            tickets={0: ["edinburgh__athina"]},
        )
        picker = await mover.click(t.turn_messages(g)[-1], f"ttr:{g}:station")
        assert picker.ephemeral and picker.selects, picker.summary()
        options = picker.selects[0]["options"]
        assert options[0]["label"].startswith("★ London"), options[0]
        assert not any(o["label"].startswith("★") for o in options[1:]), options
        assert SAYS[lang]["star"] in picker.content, picker.content


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_ticket_a_station_completes_is_done_in_the_hand_during_the_game(
    tmp_path: Path, lang: str
) -> None:
    """The mover owns Berlin - Wien - Budapest and holds Berlin - Bucuresti; the other player
    owns Budapest - Bucuresti. /ttr hand shows the ticket open; the mover builds a train station
    in Budapest with /ttr station, and then /ttr hand shows the ticket done, the game running."""
    async with running_table(tmp_path) as t:
        g = await _started(t, lang)
        mover = await t.active(g)
        await _prepare(
            t,
            g,
            hands={0: {"red": 4}},
            owned={0: ["berlin__wien__1", "budapest__wien__1"], 1: ["bucuresti__budapest__1"]},
            tickets={0: ["berlin__bucuresti", "berlin__roma"]},
        )
        w = words_for(lang, EUROPE.meta)
        done = fmt.ticket_text(EUROPE, "berlin__bucuresti", w, done=True)
        before = await mover.slash("hand")
        assert fmt.ticket_text(EUROPE, "berlin__bucuresti", w) in before.content, before.content
        assert done not in before.content
        version = await t.version(g)
        built = await mover.slash("station", {"city": "budapest"})
        if await t.version(g) == version:  # a payment step: its first button is the best
            built = await mover.click(built, built.buttons[0]["custom_id"], private=True)
        assert await t.version(g) == version + 1, built.summary()
        after = await mover.slash("hand")
        assert done in after.content, after.content
        assert fmt.ticket_text(EUROPE, "berlin__roma", w, done=True) not in after.content
        state = await t.service.loader.game_state(g)
        assert not state.finished


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_do_it_on_a_hinted_tunnel_with_no_spare_card_asks_and_yes_plays_it(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mover holds exactly 3 black (and 2 blue) and the hint is to claim the Madrid -
    Pamplona tunnel with them. The hint search's *choice* is narrowed to that claim (the
    service's ``hint_for`` is replaced by :func:`engine.ai.coach.suggest` over that one
    action: a full search may prefer another move); the confirm logic is the bot's own. Do it
    plays nothing and asks, naming the risk and why it asks; Yes plays exactly the hint."""
    claim_seen: list[ClaimRoute] = []

    def tunnel_hint(rules: object, state: GameState, seat: int, **kw: object) -> Hint:
        claim = ClaimRoute(seat, TUNNEL, Cards({"black": 3}))
        claim_seen.append(claim)
        assert claim in legal_actions(EUROPE, state, seat, payments="sensible")
        view = player_view(EUROPE, state, seat)
        return suggest(EUROPE, view, [claim], state.options, iterations=8, time_cap_s=None)

    monkeypatch.setattr(sys.modules["bot.host.services._coach"], "hint_for", tunnel_hint)
    async with running_table(tmp_path) as t:
        g = await _started(t, lang, rated=False)
        mover = await t.active(g)
        await _prepare(t, g, hands={0: {"black": 3, "blue": 2}})
        reply = await mover.slash("hint")
        assert reply.ephemeral and len(claim_seen) == 1, reply.summary()
        assert SAYS[lang]["risk"] in reply.content, reply.content
        version = await t.version(g)
        [do_it] = [c for c in reply.custom_ids if ":hint-do:" in c]
        ask = await mover.click(reply, do_it, private=True)
        assert SAYS[lang]["risk"] in ask.content and SAYS[lang]["why"] in ask.content, ask.content
        assert await t.version(g) == version  # nothing played yet
        done = await mover.click(ask, _button(ask, SAYS[lang]["yes"]), private=True)
        assert SAYS[lang]["playing"] in done.content, done.content
        await _moved(t, g, version)
        (stored,) = await t.service.storage.actions.actions(g, after_seq=version, limit=1)
        assert decode_action(stored.action) == claim_seen[0]
        assert stored.actor_user_id == mover.user.id
        assert not t.fake.take_violations()
