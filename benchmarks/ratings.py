"""The AI levels' ratings: the players' rating model run over the recorded AI games.

``python -m benchmarks ai --ratings [--check]`` reads every record file of
``benchmarks/results/`` (``*.jsonl``, in name order, each in line order) and
rates every game whose seats are all plain levels (``easy``, ``normal``,
``hard``, ``expert``; a variant such as ``hard:iterations=120`` is left out, but an
expert with a smaller time cap, ``expert:time_cap_s=2``, counts as expert: see
:func:`level_of`) with
:func:`bot.host.ratings.rate`, the same openskill model and places as players'
rated games, one identity per level (``ai:hard``). It writes
:data:`OUT` (``bot/host/ai_ratings.json``), which the bot reads at run time to
show the levels beside the server's rating table (the bot never reads
``benchmarks/results/``). ``--check`` writes nothing and exits 1 when the
committed file is not what the records give.

Two record formats are read:

- the hard-vs-normal records of :mod:`benchmarks.ai`: hard in ``hard_seat``,
  normal in every other seat; the places come from the ``scores`` by seat when
  the line has them, else from the winner alone (``place``: the winner's place
  after hard; the winner first, every other seat shares second), and a game
  with a shared first place and no scores is left out;
- the comparison records of :mod:`benchmarks.lab`: ``agents`` and ``scores``
  by seat.

Places are by score (the maps' tie-breaks are not recorded: equal scores share
a place). The records hold games of several versions of the AI (each line
says which), so the ratings say how the levels have played in the recorded
games, not how one commit plays.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.host.ratings import Entrant, Rating, ai_player, places, rate
from engine.ai import AI_LEVELS

RESULTS = Path(__file__).parent / "results"
#: Where the ratings go: read by the bot (:mod:`bot.host.ai_ratings`).
OUT = Path(__file__).resolve().parent.parent / "bot" / "host" / "ai_ratings.json"


def level_of(spec: str) -> str:
    """The level an agent counts as: its plain level, and ``expert`` for an expert whose
    only setting is a smaller time cap (``expert:time_cap_s=2``: expert games at 10 s per
    decision are too costly to record in numbers, and a smaller cap only understates the
    level); any other variant stays as it is (left out)."""
    level, _, rest = spec.partition(":")
    if level == "expert" and rest.startswith("time_cap_s=") and "," not in rest:
        return level
    return spec


def game_levels(row: dict[str, Any]) -> tuple[list[str], list[int]] | None:
    """The levels by seat and the places by seat of one record line; None when the line
    is not a game of plain levels with known places."""
    if "agents" in row:
        agents = [str(a) for a in row["agents"]]
        scores = row.get("scores")
    else:
        seats, hard = int(row["seats"]), int(row["hard_seat"])
        agents = ["hard" if i == hard else "normal" for i in range(seats)]
        scores = row.get("scores")
        if scores is None:
            if row.get("place") is None:
                return None
            winner = (hard + int(row["place"])) % seats
            return agents, [1 if i == winner else 2 for i in range(seats)]
    agents = [level_of(a) for a in agents]
    if scores is None or any(a not in AI_LEVELS for a in agents):
        return None
    return agents, places([(int(s),) for s in scores], [False] * len(scores))


def record_games(results: Path = RESULTS) -> Iterator[tuple[str, list[str], list[int]]]:
    """``(file name, levels by seat, places by seat)`` of every usable game of the record
    files in ``results``, files in name order, lines in order."""
    for path in sorted(results.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash
            found = game_levels(row) if isinstance(row, dict) else None
            if found is not None:
                yield path.name, *found


def level_ratings(results: Path = RESULTS) -> dict[str, Any]:
    """The file's content: the levels' ratings (mu, sigma, the ordinal shown, games), the
    games rated and the games per source file."""
    current: dict[str, Rating] = {}
    sources: dict[str, int] = {}
    games = 0
    for name, levels, placed in record_games(results):
        entrants = [
            Entrant(seat, ai_player(level), place)
            for seat, (level, place) in enumerate(zip(levels, placed, strict=True))
        ]
        changed = rate(entrants, current)
        if not changed:
            continue
        current.update(changed)
        games += 1
        sources[name] = sources.get(name, 0) + 1
    out: dict[str, Any] = {
        "about": (
            "The AI levels rated like players (bot.host.ratings) over the recorded AI games;"
            " made by python -m benchmarks ai --ratings"
        ),
        "games": games,
        "sources": sources,
        "levels": {},
    }
    for level in AI_LEVELS:
        r = current.get(ai_player(level))
        if r is not None:
            out["levels"][level] = {
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "ordinal": round(r.ordinal, 1),
                "games": r.games,
            }
    return out


def text(ratings: dict[str, Any]) -> str:
    """The file's text: indented JSON with a final newline."""
    return json.dumps(ratings, indent=2) + "\n"


def main(argv: list[str]) -> int:
    """``--ratings``: write :data:`OUT` (or, with ``--check``, compare it); print the levels."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks ai --ratings")
    ap.add_argument("--ratings", action="store_true", required=True)
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args(argv)
    ratings = level_ratings()
    for level, r in ratings["levels"].items():
        print(
            f"{level:<8}{r['ordinal']:>7.1f}  (mu {r['mu']:.2f}, sigma {r['sigma']:.2f}, {r['games']} games)"
        )
    print(f"{ratings['games']} games from {len(ratings['sources'])} record files")
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text(ratings)
        print(f"{OUT}: {'up to date' if same else 'out of date'}")
        return 0 if same else 1
    OUT.write_text(text(ratings), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0
