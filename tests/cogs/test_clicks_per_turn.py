"""How many interactions a Europe turn takes when played through the buttons only: a whole
game of one human seat (the test's driver) against a computer seat, in English and in German.

The driver plays as a new player does: it wants to see its cards before it moves, so a turn
whose private messages never show the hand costs one more click (My hand). It claims the first
route the claim list offers when it can pay for one, else draws two cards from the turn panel.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from sentences import texts as fmt
from words import words_for

from ..e2e.fake_discord import SentMessage
from ._driver import Player
from ._harness import TIMEOUT, RunningTable, my_turn_or_end, running_table

MAX_TURNS = 150


def _enabled(message: SentMessage, verb: str) -> list[str]:
    """The enabled components of ``message`` of the private kind ``verb`` (see cogs/ttr/_ids.py)."""
    return [
        c
        for c in message.custom_ids
        if c.split(":")[2:3] == [verb] and not (message.component(c) or {}).get("disabled")
    ]


class Counter:
    """The interactions of one turn, and whether one of its private messages showed the hand."""

    def __init__(self, hand: str) -> None:
        self.hand = hand
        self.clicks = 0
        self.seen = False

    def saw(self, message: SentMessage) -> SentMessage:
        """Count the interaction that answered with ``message``; note when it shows the hand."""
        self.clicks += 1
        self.seen = self.seen or self.hand in message.content
        return message


async def _settle(player: Player, reply: SentMessage, count: Counter) -> None:
    """Answer what a private reply still asks: a payment, a tunnel, kept tickets."""
    for _ in range(6):
        for verb in ("claim-confirm", "tunnel-pay", "tunnel-give-up", "keep"):
            if ids := _enabled(reply, verb):
                reply = count.saw(await player.click(reply, ids[0], private=True))
                break
        else:
            return


async def _turn(t: RunningTable, player: Player, g: int, message: SentMessage) -> tuple[str, int]:
    """One turn through the buttons: ``("claim" or "draw", its interactions)``, My hand included
    when none of the turn's private messages showed the hand."""
    table = await t.service.queries.table(g, player.user.id)
    assert table.mine is not None and table.menu is not None
    w = words_for("de" if player.user.locale == "de" else "en", table.rules.meta)
    count = Counter(fmt.cards_line(table.mine.hand, w))
    kind = "claim" if table.menu.claims else "draw"
    if kind == "claim":
        listed = count.saw(await player.click(message, f"ttr:{g}:claim"))
        pick = listed.selects[0]
        handle = await t.fake.select(
            player.user, listed, pick["custom_id"], [pick["options"][0]["value"]], private=True
        )
        await _settle(player, count.saw(await handle.message(timeout=TIMEOUT)), count)
    else:
        panel = count.saw(await player.click(message, f"ttr:{g}:draw"))
        for _ in range(2):
            cards = _enabled(panel, "card")
            if not cards:
                break
            deck = [c for c in cards if c.endswith(":deck")]
            panel = count.saw(await player.click(panel, (deck or cards)[0], private=True))
        if count.clicks == 1:  # no card left to take: draw tickets
            drawn = count.saw(await player.click(message, f"ttr:{g}:tickets"))
            await _settle(player, drawn, count)
    return kind, count.clicks + (0 if count.seen else 1)


async def _clicks(tmp_path: Path, lang: str) -> dict[str, list[int]]:
    """A whole Europe game of one human (``lang``) and one computer seat: the human's
    interactions of each turn, by kind (``claim``, ``draw``) and all (``turn``)."""
    async with running_table(tmp_path, ("alice",)) as t:
        alice = t.players["alice"]
        if lang == "de":
            t.fake.guild_locale = "de"
            alice.user.locale = "de"
        await alice.slash("new", {"map": "europe"})
        await alice.slash("add_ai", {"level": "easy"})
        await alice.slash("start")
        await _settle(alice, await alice.slash("hand"), Counter(""))
        g = await t.game_id()
        seen, over = 0, False
        clicks: dict[str, list[int]] = {"turn": [], "claim": [], "draw": []}
        for _ in range(MAX_TURNS):
            message = await my_turn_or_end(t, g, alice, seen)
            seen = len(t.fake.sent)
            if over := f"ttr:{g}:rematch" in message.custom_ids:
                break
            kind, n = await _turn(t, alice, g, message)
            clicks[kind].append(n)
            clicks["turn"].append(n)
        assert over, f"no end after {MAX_TURNS} turns"
        for kind, counts in clicks.items():
            print(
                f"{lang} {kind}: {len(counts)}, median {statistics.median(counts)}, "
                f"mean {statistics.mean(counts):.2f} interactions"
            )
        return clicks


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_europe_game_takes_few_clicks_per_turn(tmp_path: Path, lang: str) -> None:
    """A whole game through the buttons: the median turn, looking at the hand included, takes
    at most three interactions, and a claim two (Claim, the route: the list shows the hand)."""
    clicks = await _clicks(tmp_path, lang)
    assert statistics.median(clicks["turn"]) <= 3
    assert clicks["claim"] and statistics.median(clicks["claim"]) <= 2
    assert statistics.median(clicks["draw"]) <= 3
