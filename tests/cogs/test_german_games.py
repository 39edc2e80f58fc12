"""A German game on every map through the fake Discord: every word the players see keeps the glossary.

A German server (the table's language) and a German player (her Discord client's
language, so her private replies are German too) play a whole game against a
computer seat on each map: lobby, ticket choice, card draws, claims (tunnels,
ferries, flags and merchandise where the map has them), ticket draws, the
planner, the zoom, status, log, help, rules and the final score. Every message
the bot sent (public and ephemeral: text, buttons, menus) and every text its
images drew (recorded by ``render.recorded_text``) is held to the German
glossary of ``tests/glossary.py``: the rulebooks' words, the map's own nouns and
colour names, and no English.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from render import recorded_text

from .. import glossary
from ..e2e.fake_discord import SentMessage
from ._driver import Player
from ._harness import RunningTable, my_turn_or_end, running_table

MAX_TURNS = 200


def _enabled(message: SentMessage, verb: str) -> list[str]:
    """The custom ids of ``message``'s enabled components of a private kind (``keep``,
    ``claim-confirm``...: the word after the game id, see cogs/ttr/_ids.py)."""
    return [
        c
        for c in message.custom_ids
        if c.split(":")[2:3] == [verb] and not (message.component(c) or {}).get("disabled")
    ]


async def _settle(player: Player, reply: SentMessage) -> SentMessage:
    """Answer whatever a private reply asks, by the components' verbs (the labels are German):
    keep the offered tickets, draw the first allowed ticket mix, confirm a payment, pay a tunnel
    (or give it up when it cannot be paid), set a card aside for a flag."""
    for _ in range(8):
        for verb in (
            "keep",
            "ticket-draw",
            "claim-confirm",
            "tunnel-pay",
            "tunnel-give-up",
            "flag",
        ):
            ids = _enabled(reply, verb)
            if ids:
                reply = await player.click(reply, ids[0], private=True)
                assert reply.ephemeral, reply.summary()
                break
        else:
            return reply
    return reply


async def _draw(player: Player, game_id: int, turn_message: SentMessage) -> None:
    """Two cards: from the deck by command, else (deck empty) the first face-up card offered."""
    first = await player.slash("draw", {"source": "deck"})
    if not _enabled(first, "card") and "Stapel ist leer" in first.content:
        first = await player.click(turn_message, f"ttr:{game_id}:draw")
        ids = _enabled(first, "card")
        if not ids:
            return
        first = await player.click(first, ids[0], private=True)
    second = _enabled(first, "card")
    if second:
        await player.click(first, second[0], private=True)


async def _turn(
    t: RunningTable, player: Player, game_id: int, message: SentMessage, n: int
) -> None:
    """One turn of the German player: now and then draw tickets, else claim the first route the
    claim list offers, else draw cards."""
    if n % 7 == 3:
        reply = await player.slash("tickets")  # drawn at once, or (Germany) the mix first
        if _enabled(reply, "ticket-draw") or _enabled(reply, "keep"):
            await _settle(player, reply)
            return
    choices = await (
        await t.fake.autocomplete(
            player.user, "ttr", "claim", {"route": ""}, focused="route", channel=player.channel
        )
    )
    if choices:
        await _settle(player, await player.slash("claim", {"route": choices[0]["value"]}))
        return
    await _draw(player, game_id, message)


def _texts(message: SentMessage) -> list[str]:
    """What a player reads of a message: its text, button labels, menu options and placeholders."""
    out = [message.text]
    for comp in message.all_components():
        out += [str(comp.get(k) or "") for k in ("label", "placeholder")]
        for option in comp.get("options") or ():
            out += [str(option.get("label") or ""), str(option.get("description") or "")]
    return [s for s in out if s]


async def _look_around(player: Player, game_id: int, over: bool) -> None:
    """The commands a player reads the game with (private answers, each with its image)."""
    if not over:
        await player.slash("hand")
        await player.slash("board", {"region": "zielkarten"})
    await player.slash("status")
    await player.slash("board")
    await player.slash("game log")
    await player.slash("help")
    await player.slash("game rules")
    if over:
        await player.slash("game show", {"id": game_id})


async def _play(tmp_path: Path, map_id: str) -> tuple[list[str], list[str], list[str], SentMessage]:
    """A whole German game of one human and one computer seat on ``map_id``: (message texts,
    image labels, the server-wide answers of /ttr game history, player stats and leaderboard (every map's
    games: the default nouns), the final message)."""
    async with running_table(tmp_path, ("alice",)) as t:
        t.fake.guild_locale = "de"
        alice = t.players["alice"]
        alice.user.locale = "de"
        with recorded_text() as drawn:
            await alice.slash("new", {"map": map_id})
            await alice.slash("add_ai", {"level": "easy"})
            await alice.slash("start")
            await _settle(alice, await alice.slash("hand"))
            g = await t.game_id()
            seen, final = 0, None
            for turn in range(MAX_TURNS):
                message = await my_turn_or_end(t, g, alice, seen)
                seen = len(t.fake.sent)
                if f"ttr:{g}:rematch" in message.custom_ids:
                    final = message
                    break
                if turn == 4:
                    await _look_around(alice, g, over=False)
                await _turn(t, alice, g, message, turn)
            assert final is not None, f"{map_id}: no end after {MAX_TURNS} turns"
            await _look_around(alice, g, over=True)
            played = len(t.fake.sent)
            for command in ("game history", "player stats", "player leaderboard", "player games"):
                await alice.slash(command)
            texts = [s for m in t.fake.sent[:played] if m.kind != "user" for s in _texts(m)]
            server = [s for m in t.fake.sent[played:] for s in _texts(m)]
        return texts, list(drawn), server, final


@pytest.mark.parametrize("map_id", glossary.playable_ids())
async def test_a_german_game_uses_only_the_rulebooks_words(tmp_path: Path, map_id: str) -> None:
    """Every message, button, menu and image label of a German game on ``map_id`` keeps the
    glossary (no 'bauen', 'Gleis', 'Ziele'...; no other map's nouns or colour names; no English),
    and the map's own words are there: its tickets and pieces in the text and in the images."""
    texts, labels, server, final = await _play(tmp_path, map_id)
    assert "Spielende" in final.content and final.attachments
    assert len(texts) > 100 and len(labels) > 100 and len(server) >= 4
    found = list(glossary.problems(texts + labels, map_id)) + list(glossary.problems(server))
    assert not found, "\n".join(found[:20])
    english = [
        (hit, s)
        for s in texts + labels + server
        if (hit := glossary.ENGLISH.findall(s.replace("Board Game Arena", "")))  # a name
    ]
    assert not english, english[:10]
    words: dict[str, Any] = glossary.map_data(map_id)["words"]["de"]
    tickets, pieces = words["ticket"]["forms"], words["piece"]["forms"]
    said = "\n".join(texts)
    drawn = "\n".join(labels)
    assert tickets[1] in said and tickets[1] in drawn, (map_id, tickets)
    assert any(p in drawn for p in pieces) and any(p in said for p in pieces), (map_id, pieces)
    for extra in ("merchandise_card", "flag"):
        if extra in words:
            assert words[extra]["forms"][1] in said + drawn, (map_id, extra)
