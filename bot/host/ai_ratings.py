"""The AI levels' reference ratings: how strong ``easy``, ``normal`` and ``hard`` are on the
players' rating scale.

``bot/host/ai_ratings.json`` (next to this module) is written by
``python -m benchmarks ai --ratings`` from the recorded AI-only games (the same openskill
model as :mod:`bot.host.ratings`, one identity per level) and committed; the bot reads only
that file, never the benchmarks' records. The rating table shows these beside the server's
own ratings (``/ttr player leaderboard``), so a player knows what beating ``hard`` means.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: The committed file the benchmarks write.
AI_RATINGS_FILE = Path(__file__).with_name("ai_ratings.json")


@dataclass(frozen=True, slots=True)
class LevelRating:
    """One AI level's reference rating: ``ordinal`` (``mu - 3 sigma``, as players' ratings
    are shown) over ``games`` recorded games."""

    level: str
    ordinal: float
    games: int


@dataclass(frozen=True, slots=True)
class LevelRatings:
    """Every level's reference rating, weakest first, and the games they come from."""

    levels: tuple[LevelRating, ...] = ()
    games: int = 0


def read_level_ratings(path: Path) -> LevelRatings:
    """The ratings in ``path`` (the JSON of ``python -m benchmarks ai --ratings``), weakest
    first; empty when the file is missing or unreadable (the table is then shown without)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        levels = tuple(
            LevelRating(str(level), float(r["ordinal"]), int(r["games"]))
            for level, r in data["levels"].items()
        )
        return LevelRatings(tuple(sorted(levels, key=lambda r: r.ordinal)), int(data["games"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return LevelRatings()


@cache
def level_ratings() -> LevelRatings:
    """:func:`read_level_ratings` of :data:`AI_RATINGS_FILE`, read once per process."""
    return read_level_ratings(AI_RATINGS_FILE)
