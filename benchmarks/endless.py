"""No endless game: AI-only games of the easy and normal levels that reach the turn limit.

``python -m benchmarks ai --no-limit N [--workers K] [--maps usa,europe] [--out PATH] [--json]``

Plays ``N`` games to the end, the easy and normal levels only (the hard level
takes seconds per decision, far too slow for thousands of games), cycling
through every map of :data:`benchmarks.ai.MAPS`, every table size the map
allows (2 to its maximum) and the seat mixes of :data:`MIXES` (all normal,
all easy, normal and easy in turn, easy and normal in turn), the seeds
``0 .. N-1``. It prints how many games reached the engine's turn limit
(:data:`engine.params.TURN_LIMIT`, in no rulebook: a safety net) and the
game of each (map, seats, mix, seed), so any of them can be played again.
``--out PATH`` writes the same lines to a file as the games end (a run that
takes long can be left in the background and read later).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from engine import apply, new_game
from engine.ai import choose_action
from engine.params import TURN_LIMIT
from maps import load_ruleset

#: The seat mixes played in turn; seat ``i`` takes ``mix[i % len(mix)]``.
MIXES: tuple[tuple[str, ...], ...] = (
    ("normal",),
    ("easy",),
    ("normal", "easy"),
    ("easy", "normal"),
)

#: One game: ``(map, seats, mix index, seed)``.
Job = tuple[str, int, int, int]


def jobs(count: int, maps: list[str]) -> Iterator[Job]:
    """The first ``count`` games: game ``i`` takes seed ``i``, map ``i mod len(maps)``, and the
    table sizes and mixes in turn (each map through all its sizes, each size through all
    :data:`MIXES`)."""
    sizes = {m: list(range(2, load_ruleset(m).params.max_players + 1)) for m in maps}
    for i in range(count):
        map_id = maps[i % len(maps)]
        rest = i // len(maps)
        seats = sizes[map_id][rest % len(sizes[map_id])]
        mix = (rest // len(sizes[map_id])) % len(MIXES)
        yield map_id, seats, mix, i


def play(job: Job) -> tuple[Job, int]:
    """Play one game of ``job`` to the end; return it with the number of turns it took."""
    map_id, seats, mix, seed = job
    rules = load_ruleset(map_id)
    levels = MIXES[mix]
    state = new_game(rules, seats=seats, seed=seed)
    while not state.finished:
        seat = state.seats_to_act()[0]
        action = choose_action(rules, state, seat, levels[seat % len(levels)])
        state = apply(rules, state, action).state
    return job, state.turn


def describe(job: Job) -> str:
    """A game as a line: ``map seats mix seed``."""
    map_id, seats, mix, seed = job
    return f"{map_id} {seats}p {'+'.join(MIXES[mix])} seed {seed}"


@dataclass
class Summary:
    """What a run found: games played, the games that reached the limit (as
    :func:`describe` writes them), the longest game's turns, the run's seconds."""

    games: int = 0
    at_limit: list[str] = field(default_factory=list)
    longest_turns: int = 0
    seconds: int = 0


def run(count: int, maps: list[str], workers: int, out: TextIO | None) -> Summary:
    """Play the games, writing each one that reaches the limit to ``out`` as it ends."""
    start = time.perf_counter()
    endless: list[str] = []
    longest = 0
    played = 0
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for job, turns in pool.map(play, jobs(count, maps), chunksize=16):
            played += 1
            longest = max(longest, turns)
            if turns >= TURN_LIMIT:
                endless.append(describe(job))
                if out is not None:
                    print(f"turn limit: {describe(job)}", file=out, flush=True)
            if out is not None and played % 500 == 0:
                print(f"{played} games, {len(endless)} at the limit", file=out, flush=True)
    return Summary(played, endless, longest, round(time.perf_counter() - start))


def main(argv: list[str]) -> int:
    """``--no-limit N``: play, print the summary (and, with --json, one JSON line)."""
    from benchmarks.ai import MAPS

    ap = argparse.ArgumentParser(prog="python -m benchmarks ai --no-limit")
    ap.add_argument("--no-limit", type=int, required=True, metavar="N", dest="count")
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, metavar="PATH")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    out = args.out.open("a", encoding="utf-8") if args.out else None
    try:
        summary = run(args.count, maps, args.workers, out)
        text = (
            f"{summary.games} AI-only games (easy/normal, maps {','.join(maps)}, 2 to each"
            f" map's most seats): {len(summary.at_limit)} reached the {TURN_LIMIT}-turn limit;"
            f" longest {summary.longest_turns} turns; {summary.seconds} s"
        )
        for line in [text, *(f"  {g}" for g in summary.at_limit)]:
            print(line)
            if out is not None:
                print(line, file=out, flush=True)
    finally:
        if out is not None:
            out.close()
    if args.json:
        print(json.dumps({**asdict(summary), "turn_limit": TURN_LIMIT}))
    return 0
