"""Every text of a German game on every map, scanned for what the fourth German review flagged.

A German server and a German player (her client's language too) read the server settings
and the privacy notice, open a casual game against a computer seat, take a hint, open the
turn panel and the claim list, build a station on Europe, look around (hand, zoom, status,
log, help, rules), resign so that the computer plays the game out, and read the game over
message, its analysis and the server's ladder. Every public and private message the fake
Discord saw (text, buttons, menus) and every label the images drew must keep the glossary
of ``tests/glossary.py`` (its ``REVIEWED`` patterns: "mit 1× bunte Joker-Karte", "Schließ den
Tunnel ab", "beiseite", "Coach"...), name no command by its English name (``/ttr status``),
and hold no English.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from render import recorded_text

from .. import glossary
from ..cogs._driver import Player
from ..cogs._harness import RunningTable, my_turn_or_end, running_table
from ..cogs.test_german_games import _settle, _texts, _turn

#: The player's own turns before she resigns (the computer then plays both seats to the end).
TURNS = 4


async def _station(player: Player) -> bool:
    """Europe: build a station in the first city the autocomplete offers; whether one was built."""
    choices = await (
        await player.fake.autocomplete(
            player.user, "ttr", "station", {"city": ""}, focused="city", channel=player.channel
        )
    )
    if not choices:
        return False
    reply = await player.slash("station", {"city": choices[0]["value"]})
    pay = [b for b in reply.buttons if ":undo-ask:" not in b["custom_id"]]  # not Take back
    if not pay:
        return False
    done = await player.click(reply, pay[0]["custom_id"], private=True)
    return "Bahnhof" in done.content


async def _first_turns(t: RunningTable, player: Player, game_id: int, map_id: str) -> list[str]:
    """The player's first turns: the turn panel and the claim list of the turn message, a hint,
    a station on Europe, else claims and draws; returns what was asked of each of them."""
    seen, asked = 0, []
    for n in range(TURNS):
        message = await my_turn_or_end(t, game_id, player, seen)
        seen = len(t.fake.sent)
        if f"ttr:{game_id}:rematch" in message.custom_ids:
            break
        if n == 0:
            panel = await player.click(message, f"ttr:{game_id}:draw")
            asked.append(panel.text)
            claim = next((c for c in message.custom_ids if c.endswith(":claim")), None)
            if claim:
                asked.append((await player.click(message, claim)).text)
            asked.append((await player.slash("hint")).text)
        if map_id == "europe" and n == 1 and await _station(player):
            asked.append("station")
            continue
        await _turn(t, player, game_id, message, n)
    return asked


async def _game(tmp_path: Path, map_id: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """(every text the bot sent about the game, every text about the server (privacy, settings,
    ladder: in the default nouns), every label its images drew, what the player asked for)."""
    async with running_table(tmp_path, ("alice",)) as t:
        t.fake.guild_locale = "de"
        alice = t.players["alice"]
        alice.user.locale = "de"
        with recorded_text() as drawn:
            asked = [(await alice.slash("admin config")).text]
            asked.append((await alice.slash("player privacy")).text)
            opened = len(t.fake.sent)  # before: the server's, in the default nouns
            await alice.slash("new", {"map": map_id, "rated": False})
            await alice.slash("add_ai", {"level": "easy"})
            await alice.slash("start")
            await _settle(alice, await alice.slash("hand"))
            g = await t.game_id()
            asked += await _first_turns(t, alice, g, map_id)
            for command, options in (
                ("hand", {}),
                ("board", {"region": "zielkarten"}),
                ("status", {}),
                ("game log", {}),
                ("help", {}),
                ("game rules", {}),
            ):
                await alice.slash(command, options)
            await alice.slash("game resign")
            final = await t.fake.wait_for_message(
                lambda m: m.kind == "channel" and f"ttr:{g}:rematch" in m.custom_ids, timeout=120
            )
            analysis = await t.fake.wait_for_message(
                lambda m: (
                    m.kind == "channel" and any(a.filename == "analysis.png" for a in m.attachments)
                ),
                timeout=120,
            )
            asked += [final.text, analysis.text]
            await alice.slash("game show", {"id": g})
            played = len(t.fake.sent)  # after: the server's again (every map's games)
            for command in ("player stats", "player leaderboard", "admin config"):
                await alice.slash(command)
            bot = [m.kind != "user" for m in t.fake.sent]
            table = [s for m in t.fake.sent[opened:played] if m.kind != "user" for s in _texts(m)]
            server = [
                s
                for i, m in enumerate(t.fake.sent)
                if bot[i] and not opened <= i < played
                for s in _texts(m)
            ]
        return table, server, list(drawn), asked


@pytest.mark.parametrize("map_id", glossary.playable_ids())
async def test_a_german_game_shows_nothing_the_fourth_review_flagged(
    tmp_path: Path, map_id: str
) -> None:
    """Server settings, privacy notice, turn panel, claim list, hint, a station on Europe, the
    game over message and its analysis: every text is free of the review's patterns, of
    English command names and of English words."""
    texts, server, labels, asked = await _game(tmp_path, map_id)
    settings, notice, panel, *rest = asked
    assert "Sprache neuer Spiele: die Sprache des Servers" in settings, settings
    assert "Datenschutz" in notice or "speichert" in notice, notice
    assert "**Tipp**" in "\n".join(rest), rest
    assert "Ein entscheidender Zug ist" in rest[-1] and "Spielende" in rest[-2], rest[-2:]
    if map_id == "europe":  # a station built, and /ttr help names it as the fourth action
        assert "station" in rest, rest
        assert any("oder einen Bahnhof **bauen**" in s for s in texts)
    found = list(glossary.problems(texts + labels, map_id)) + list(glossary.problems(server))
    found += list(glossary.english_command_names(texts + server))
    assert not found, "\n".join(found[:20])
    english = [
        (hit, s)
        for s in texts + server + labels
        if (hit := glossary.ENGLISH.findall(s.replace("Board Game Arena", "")))
    ]
    assert not english, english[:10]
