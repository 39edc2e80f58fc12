"""Memory of AI play: the resident size of a process that plays hard-vs-normal games.

``python -m benchmarks memory [--json] [--games N] [--maps usa,paris] [--workers K]
[--iterations I] [--time-cap-s T]``

The hard AI's rollouts fill the engine's caches (legal claims per position and
payment kind, the integer core's claim lists, the longest-path memo), which are
bounded by entry counts, so a process grows while it plays and then levels off.
This benchmark shows how fast: for each map a fresh process plays ``N``
2-player games hard vs normal (hard takes seat 0 and seat 1 in turn), and one
more fresh process plays ``N`` games of every map in turn, as a bot does that
hosts games on all maps. Each process reports its resident size after loading
the maps (``start_mb``), after every game (``after_game_mb``) and its peak
(``peak_mb``), in MiB. With ``--json`` the last line is one JSON object keyed
by map and ``"all"``::

    {"usa": {"games": 4, "start_mb": 61.0, "peak_mb": 420.5,
             "after_game_mb": [200.1, 300.4, 380.2, 420.5]}, ..., "settings": {...}}

Linux reads the current size from ``/proc/self/statm``; elsewhere only the
peak (``getrusage``) is known and stands for it. The figures are a floor for a
long-running bot: the caches fill further over hours of play (see the README).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.ai import play_arguments, play_one

MIB = 1024 * 1024


def peak_mib() -> float:
    """This process's peak resident size so far, MiB (``getrusage``: KiB on Linux,
    bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / MIB if sys.platform == "darwin" else peak / 1024


def resident_mib() -> float:
    """This process's current resident size, MiB; the peak where ``/proc`` is missing."""
    statm = Path("/proc/self/statm")
    if statm.exists():
        pages = int(statm.read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / MIB
    return peak_mib()


def measure(maps: list[str], games: int, iterations: int, time_cap_s: float) -> dict[str, Any]:
    """Play ``games`` 2-player games hard vs normal on each of ``maps`` (map by map in
    turn, seeds 0..games-1) in this process; return its sizes in MiB:
    ``{"games", "start_mb", "after_game_mb": [...], "peak_mb", "seconds"}``. Meant
    to run in a fresh process (see :func:`run`)."""
    from maps import load_ruleset

    for map_id in maps:
        load_ruleset(map_id)
    start = resident_mib()
    t0 = time.perf_counter()
    after: list[float] = []
    for seed in range(games):
        for map_id in maps:
            play_one(map_id, 2, seed, seed % 2, iterations, time_cap_s)
            after.append(round(resident_mib(), 1))
    return {
        "games": len(after),
        "start_mb": round(start, 1),
        "after_game_mb": after,
        "peak_mb": round(peak_mib(), 1),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def run(
    maps: list[str], games: int, workers: int, iterations: int, time_cap_s: float
) -> dict[str, dict[str, Any]]:
    """Measure each map alone and then all of ``maps`` together, every measurement in a
    fresh spawned process (``workers`` at a time); keyed by map and ``"all"``."""
    groups = {m: [m] for m in maps}
    if len(maps) > 1:
        groups["all"] = list(maps)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=max(1, workers), mp_context=context, max_tasks_per_child=1
    ) as pool:
        futures = {
            key: pool.submit(measure, group, games, iterations, time_cap_s)
            for key, group in groups.items()
        }
        return {key: future.result() for key, future in futures.items()}


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = play_arguments("python -m benchmarks memory", 4, "games per map")
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    results = run(maps, args.games, args.workers, args.iterations, args.time_cap_s)
    print(
        f"resident size (MiB) of a fresh process playing hard (iterations {args.iterations},"
        f" cap {args.time_cap_s} s) vs normal, 2 players"
    )
    print(f"{'maps':<10}{'games':>7}{'start':>8}{'after 1':>9}{'last':>8}{'peak':>8}{'s':>7}")
    for key, r in results.items():
        first, last = r["after_game_mb"][0], r["after_game_mb"][-1]
        print(
            f"{key:<10}{r['games']:>7}{r['start_mb']:>8.0f}{first:>9.0f}{last:>8.0f}"
            f"{r['peak_mb']:>8.0f}{r['seconds']:>7.0f}"
        )
    if args.json:
        settings = {
            "games_per_map": args.games,
            "iterations": args.iterations,
            "time_cap_s": args.time_cap_s,
        }
        print(json.dumps({**results, "settings": settings}))
    return 0
