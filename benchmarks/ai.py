"""AI strength: the hard level against the normal level, per map.

``python -m benchmarks ai [--json] [--games N] [--maps usa,paris] [--workers K]
[--deadline-s S] [--iterations I] [--time-cap-s T] [--modes 2p,4p]``

Per map it plays ``N`` 2-player games hard vs normal (hard takes seat 0 and
seat 1 in turn) and ``N`` games of 1 hard + 3 normal (hard's seat rotates;
Nordic, a 2-3 player map, plays 1 hard + 2 normal). It prints the rates with
Wilson 95% intervals and the 99th percentile of hard's time per decision;
with ``--json`` the last line is one JSON object keyed by map::

    {"usa": {"games": 40, "games_4p": 40, "hard_vs_normal_2p": 0.7,
             "hard_win_4p": 0.5, "best_normal_win_4p": 0.2,
             "hard_move_p99_s": 1.2, ...}, "settings": {...}}

A win is an outright win (a shared first place is not counted).
``best_normal_win_4p`` is the highest outright win rate of a normal seat in
the 4-player games, the seats counted by their place after hard's (the first,
second or third to move after it), so "hard wins the most" reads
``hard_win_4p > best_normal_win_4p``. Games not
finished by ``--deadline-s`` seconds are left out and the counts say so. The
goal (issue 16): 2-player >= 0.65 and most 4-player games won on every map,
over >= 200 games per map at the default budget.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from engine import apply, new_game
from engine.ai import HardPlayer, choose_action
from maps import load_ruleset

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial rate: ``(low, high)``; (0, 1) when ``n`` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def play_one(
    map_id: str, seats: int, seed: int, hard_seat: int, iterations: int, time_cap_s: float
) -> tuple[str, int, int | None, list[float]]:
    """Play one game; return ``(map, seats, the outright winner's place after hard (0 hard,
    1 the next seat, ...; None for a shared first place), hard's decision seconds)``."""
    rules = load_ruleset(map_id)
    hard = HardPlayer(iterations=iterations, time_cap_s=time_cap_s)
    state = new_game(rules, seats=seats, seed=seed)
    times: list[float] = []
    while not state.finished:
        seat = state.seats_to_act()[0]
        if seat == hard_seat:
            t0 = time.perf_counter()
            action = choose_action(rules, state, seat, player=hard)
            times.append(time.perf_counter() - t0)
        else:
            action = choose_action(rules, state, seat, "normal")
        state = apply(rules, state, action).state
    assert state.result is not None
    winners = state.result.winners
    place = (winners[0] - hard_seat) % seats if len(winners) == 1 else None
    return map_id, seats, place, times


def _p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def _jobs(maps: list[str], games: int, modes: list[str]) -> list[tuple[str, int, int, int]]:
    jobs = []
    for seed in range(games):
        for map_id in maps:
            many = min(4, load_ruleset(map_id).params.max_players)
            if "2p" in modes:
                jobs.append((map_id, 2, seed, seed % 2))
            if "4p" in modes:
                jobs.append((map_id, many, 10_000 + seed, seed % many))
    return jobs


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks ai")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=200, help="games per map and mode")
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--modes", default="2p,4p", help="2p, 4p or both (comma-separated)")
    ap.add_argument("--deadline-s", type=float, default=None)
    ap.add_argument("--iterations", type=int, default=HardPlayer().iterations)
    ap.add_argument("--time-cap-s", type=float, default=HardPlayer().time_cap_s)
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    jobs = _jobs(maps, args.games, args.modes.split(","))
    start = time.perf_counter()
    wins: dict[tuple[str, bool], list[int | None]] = {}
    times: dict[str, list[float]] = {m: [] for m in maps}
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        pending: set[Future[tuple[str, int, int | None, list[float]]]] = set()
        queue = list(jobs)
        while queue or pending:
            late = args.deadline_s is not None and time.perf_counter() - start > args.deadline_s
            while queue and not late and len(pending) < 2 * max(1, args.workers):
                job = queue.pop(0)
                pending.add(pool.submit(play_one, *job, args.iterations, args.time_cap_s))
            if late:
                queue.clear()
                for f in pending:
                    f.cancel()
            if not pending:
                break
            remaining = None
            if args.deadline_s is not None:
                remaining = max(0.1, args.deadline_s - (time.perf_counter() - start))
            done, pending = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for f in done:
                if f.cancelled():
                    continue
                map_id, seats, place, ts = f.result()
                wins.setdefault((map_id, seats == 2), []).append(place)
                times[map_id].extend(ts)
            if late:
                break
        pool.shutdown(wait=False, cancel_futures=True)
    summary: dict[str, Any] = {}
    print(
        f"hard (iterations {args.iterations}, cap {args.time_cap_s} s) vs normal;"
        f" {time.perf_counter() - start:.0f} s"
    )
    print(
        f"{'map':<10}{'2p games':>9}{'2p rate':>9}{'95% CI':>15}"
        f"{'4p games':>9}{'4p rate':>9}{'95% CI':>15}{'best normal':>12}{'p99 s':>8}"
    )
    for m in maps:
        seats_4p = min(4, load_ruleset(m).params.max_players)
        places_2p = wins.get((m, True), [])
        places = wins.get((m, False), [])
        two = [p == 0 for p in places_2p]
        many = [p == 0 for p in places]
        r2 = sum(two) / len(two) if two else 0.0
        r4 = sum(many) / len(many) if many else 0.0
        best_normal = max(
            (places.count(k) / len(places) for k in range(1, seats_4p)), default=0.0
        ) if places else 0.0  # fmt: skip
        lo2, hi2 = wilson(sum(two), len(two))
        lo4, hi4 = wilson(sum(many), len(many))
        p99 = _p99(times[m])
        summary[m] = {
            "games": len(two),
            "games_4p": len(many),
            "hard_vs_normal_2p": round(r2, 3),
            "hard_vs_normal_2p_ci95": [round(lo2, 3), round(hi2, 3)],
            "hard_win_4p": round(r4, 3),
            "hard_win_4p_ci95": [round(lo4, 3), round(hi4, 3)],
            "best_normal_win_4p": round(best_normal, 3),
            "seats_4p": seats_4p,
            "hard_move_p99_s": round(p99, 3),
        }
        print(
            f"{m:<10}{len(two):>9}{r2:>9.3f}{f'[{lo2:.2f}, {hi2:.2f}]':>15}"
            f"{len(many):>9}{r4:>9.3f}{f'[{lo4:.2f}, {hi4:.2f}]':>15}{best_normal:>12.3f}"
            f"{p99:>8.3f}"
        )
    summary["settings"] = {
        "iterations": args.iterations,
        "time_cap_s": args.time_cap_s,
        "games_asked": args.games,
        "workers": args.workers,
    }
    if args.json:
        print(json.dumps(summary))
    return 0
