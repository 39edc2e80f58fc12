"""Tournaments: seating a big Swiss round and drawing a big field's standings.

``python -m benchmarks tournament [--players 256] [--table 4] [--rounds 6] [--field 64] [--json]``

- ``pairing``: a Swiss round of ``--players`` at tables of ``--table`` after 1 ..
  ``--rounds`` - 1 earlier rounds (the standings reshuffled between rounds), seconds per
  round (goal: at most 1 s) and the repeat pairs it left (0 when they can be avoided);
- ``standings_image``: the standings image of a finished ``--field``-player Swiss
  tournament at tables of four (its rounds played with random places), milliseconds to
  compute the standings and draw them (goal: at most 300 ms) and the PNG's size.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from typing import Any


def _pairing(players: int, table: int, rounds: int, seed: int) -> dict[str, Any]:
    from bot.host.tournaments import met_pairs, repeats, swiss_tables

    rng = random.Random(seed)
    ranked = list(range(1, players + 1))
    met: Counter[frozenset[int]] = Counter()
    times, left = [], 0
    for _ in range(rounds):
        started = time.perf_counter()
        tables = swiss_tables(ranked, table, met)
        times.append(time.perf_counter() - started)
        left += repeats(tables, met)
        met.update(met_pairs([tables]))
        ranked.sort(key=lambda _: rng.random())
    return {
        "players": players, "table": table, "rounds": rounds,
        "worst_s": round(max(times), 3), "mean_s": round(sum(times) / len(times), 3),
        "repeats": left, "goal_s": 1.0,
    }  # fmt: skip


def _standings_image(field: int, seed: int) -> dict[str, Any]:
    from bot.host.tournaments import TableResult, met_pairs, standings, swiss_tables
    from render import StandingRow, render_standings_png

    rng = random.Random(seed)
    players = list(range(1, field + 1))
    results: list[TableResult] = []
    met: Counter[frozenset[int]] = Counter()
    ranked = players
    for _ in range(6):
        tables = swiss_tables(ranked, 4, met)
        met.update(met_pairs([tables]))
        for t in tables:
            places = list(range(1, len(t) + 1))
            rng.shuffle(places)
            results.append(TableResult(t, tuple(places), tuple(rng.randint(40, 160) for _ in t)))
        ranked = [s.player for s in standings(players, results)]
    started = time.perf_counter()
    lines = standings(players, results)
    rows = [
        StandingRow(s.place, f"Player {s.player:03d}", s.points, s.buchholz, s.margin, s.games)
        for s in lines
    ]
    png = render_standings_png(
        rows,
        title="Benchmark Cup is over. Final standings:",
        headers=("Player", "Points", "Buchholz", "Margin", "Games"),
        footer="† left or knocked out. Ties: points, Buchholz, score margin.",
    )
    ms = (time.perf_counter() - started) * 1000
    return {"field": field, "ms": round(ms, 1), "bytes": len(png), "goal_ms": 300}


def main(argv: list[str]) -> int:
    """Run both; exit 1 when a goal is missed."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks tournament")
    ap.add_argument("--players", type=int, default=256)
    ap.add_argument("--table", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--field", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = {
        "pairing": _pairing(args.players, args.table, args.rounds, args.seed),
        "standings_image": _standings_image(args.field, args.seed),
    }
    for key, value in result.items():
        print(f"{key:<18}{value}")
    if args.json:
        print(json.dumps(result))
    missed = result["pairing"]["worst_s"] > 1.0 or result["standings_image"]["ms"] > 300
    return 1 if missed else 0
