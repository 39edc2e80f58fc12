"""Achievements through the fake Discord, in English and in German: a player plays a whole game
against a computer seat (her moves by command and click, as in the German games test), the
game-over message names what she earned, and /ttr player stats lists it with its date."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.host.achievements import ACHIEVEMENTS
from sentences.achievements import achievement_name
from words import words_for

from ..e2e.fake_discord import SentMessage
from ._harness import RunningTable, my_turn_or_end, running_table
from .test_german_games import MAX_TURNS, _settle, _turn


async def _play_to_the_end(t: RunningTable, map_id: str) -> tuple[int, SentMessage]:
    """alice against an easy computer seat on ``map_id``, to the game-over message."""
    alice = t.players["alice"]
    await alice.slash("new", {"map": map_id})
    await alice.slash("add_ai", {"level": "easy"})
    await alice.slash("start")
    await _settle(alice, await alice.slash("hand"))
    g = await t.game_id()
    seen = 0
    for turn in range(MAX_TURNS):
        message = await my_turn_or_end(t, g, alice, seen)
        seen = len(t.fake.sent)
        if f"ttr:{g}:rematch" in message.custom_ids:
            return g, message
        await _turn(t, alice, g, message, turn)
    raise AssertionError(f"{map_id}: no end after {MAX_TURNS} turns")


@pytest.mark.parametrize(
    ("lang", "map_id", "seed", "earned", "head"),
    [  # seeds with which she earns something: End of the line; First win, Comeback, Photo finish
        ("en", "paris", 5, "earned:", "Achievements: {count} of {total}"),
        ("de", "amsterdam", 8, "hat erreicht:", "Erfolge: {count} von {total}"),
    ],
)
async def test_the_game_over_message_and_the_stats_show_what_she_earned(
    tmp_path: Path, lang: str, map_id: str, seed: int, earned: str, head: str
) -> None:
    async with running_table(tmp_path, ("alice",), seed=seed) as t:
        alice = t.players["alice"]
        if lang == "de":
            t.fake.guild_locale = "de"
            alice.user.locale = "de"
        g, final = await _play_to_the_end(t, map_id)
        w = words_for(lang)
        mine = [r for r in await t.service.achievements.of_game(g) if r.user_id == alice.user.id]
        assert mine, "the game earned her nothing: pick another seed"
        line = next(x for x in final.content.splitlines() if x.startswith("🏆"))
        assert line.startswith(f"🏆 <@{alice.user.id}> {earned} ")
        names = re.findall(r"\*\*(.+?)\*\*", line)
        assert names == [achievement_name(r.achievement, w) for r in mine]

        stats = await alice.slash("player stats")
        assert stats.ephemeral
        assert head.format(count=len(mine), total=len(ACHIEVEMENTS)) in stats.content
        for r in mine:
            assert f"🏆 **{achievement_name(r.achievement, w)}** (<t:{int(r.earned_at)}:d>)" in (
                stats.content
            )
        assert len(stats.content) <= 2000
