"""The AI levels' reference ratings beside the server's rating table, in both languages.

``bot/host/ai_ratings.json`` (written by ``python -m benchmarks ai --ratings`` from the
recorded AI games) gives each level a rating on the players' scale; /ttr player leaderboard
shows them on the table of every map, weakest first, so a player knows what beating hard means.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.host.ai_ratings import (
    AI_RATINGS_FILE,
    LevelRating,
    LevelRatings,
    level_ratings,
    read_level_ratings,
)
from bot.host.services import Ladder, LadderLine
from cogs.ttr._ladder import ladder_text
from words import words_for

from ._harness import running_table

LEVELS = LevelRatings(
    (
        LevelRating("easy", -3.25, 300),
        LevelRating("normal", 13.5, 2900),
        LevelRating("hard", 18.9, 2600),
    ),
    3100,
)


def test_the_table_of_every_map_shows_the_levels_in_both_languages() -> None:
    """A line under the table's lines names every level with its rating, weakest first, in
    the reader's language (German level names and decimal comma); with no rated game yet too."""
    lines = (LadderLine(1, "user:5", 5, None, 30.0, 2.0, 9),)
    ladder = Ladder(1, 1, 1, "*", lines, (), LEVELS)
    en = ladder_text(ladder, 0, 5, words_for("en")).splitlines()
    assert en[2] == (
        "**AI levels** (rated like players, over 3100 games among them):"
        " easy -3.2 · normal 13.5 · hard 18.9"
    )
    de = ladder_text(ladder, 0, 5, words_for("de"))
    assert (
        "**KI-Stufen** (bewertet wie Spieler, aus 3100 Partien untereinander):"
        " leicht -3,2 · normal 13,5 · schwer 18,9"
    ) in de
    empty = Ladder(1, 1, 1, "*", (), (), LEVELS)
    assert "· hard 18.9" in ladder_text(empty, 0, 5, words_for("en"))
    assert "**AI levels**" not in ladder_text(
        Ladder(1, 1, 1, "*", lines, ()), 0, 5, words_for("en")
    )


def test_the_committed_file_reads_weakest_first(tmp_path: Path) -> None:
    """The committed file holds the four levels, weakest first (easy, normal, then hard and
    expert, whose few games so far leave it close to hard); a missing or broken file gives
    no levels (the table is shown without them)."""
    found = read_level_ratings(AI_RATINGS_FILE)
    assert [r.level for r in found.levels][:2] == ["easy", "normal"]
    assert {r.level for r in found.levels} == {"easy", "normal", "hard", "expert"}
    assert found.games > 0 and all(r.games > 0 for r in found.levels)
    assert level_ratings() == found
    assert read_level_ratings(tmp_path / "missing.json") == LevelRatings()
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"levels": {"hard": {}}}))
    assert read_level_ratings(broken) == LevelRatings()


async def test_the_leaderboard_shows_the_levels_and_a_map_table_does_not(tmp_path: Path) -> None:
    """Through the running bot: /ttr player leaderboard carries the committed levels' line,
    in English and, for a German reader, in German; a map's table leaves it out."""
    committed = read_level_ratings(AI_RATINGS_FILE)
    hard = next(r for r in committed.levels if r.level == "hard")
    async with running_table(tmp_path, ("alice",)) as t:
        table = await t.players["alice"].slash("player leaderboard")
        assert "No rated game in this season yet." in table.content
        assert f"· hard {hard.ordinal:.1f}" in table.content
        usa = await t.players["alice"].slash("player leaderboard", {"map": "usa"})
        assert "**AI levels**" not in usa.content
        t.fake.guild_locale = "de"
        t.players["alice"].user.locale = "de"
        german = await t.players["alice"].slash("player leaderboard")
        assert "**KI-Stufen**" in german.content
        assert f"· schwer {hard.ordinal:.1f}".replace(".", ",") in german.content
