"""Engine speed: full random and AI games per second per player count, and the engine time of one game.

``python -m benchmarks engine [--json] [--games N] [--map usa]``. "Engine time"
counts only ``apply`` (the rules), not the players' choices; the goal for one
4-player random game is <= 20 ms on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine import apply, new_game
from engine.ai import choose_action
from maps import load_ruleset


def _game(rules, seats: int, seed: int, kind: str) -> tuple[float, float, int]:
    """Play one game; return (total seconds, seconds inside apply/new_game, actions)."""
    t0 = time.perf_counter()
    engine_s = 0.0
    e0 = time.perf_counter()
    state = new_game(rules, seats=seats, seed=seed)
    engine_s += time.perf_counter() - e0
    n = 0
    while not state.finished:
        action = choose_action(rules, state, state.seats_to_act()[0], kind)
        e0 = time.perf_counter()
        state = apply(rules, state, action).state
        engine_s += time.perf_counter() - e0
        n += 1
    return time.perf_counter() - t0, engine_s, n


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks engine")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--map", default="usa")
    args = ap.parse_args(argv)
    rules = load_ruleset(args.map)
    rows = []
    p = rules.params
    for kind in ("random", "heuristic"):
        for seats in range(p.min_players, p.max_players + 1):
            totals, engines, actions = [], [], []
            for seed in range(args.games):
                total, eng, n = _game(rules, seats, seed, kind)
                totals.append(total)
                engines.append(eng)
                actions.append(n)
            rows.append(
                {
                    "players": kind,
                    "seats": seats,
                    "games_per_s": round(len(totals) / sum(totals), 2),
                    "engine_ms_per_game_p50": round(statistics.median(engines) * 1000, 2),
                    "actions_per_game": round(statistics.mean(actions), 1),
                }
            )
    print(f"map {args.map}, {args.games} games per row")
    print(
        f"{'players':<10}{'seats':>6}{'games/s':>10}{'engine ms/game p50':>20}{'actions/game':>14}"
    )
    for r in rows:
        print(
            f"{r['players']:<10}{r['seats']:>6}{r['games_per_s']:>10}{r['engine_ms_per_game_p50']:>20}{r['actions_per_game']:>14}"
        )
    four = next((r for r in rows if r["players"] == "random" and r["seats"] == 4), rows[0])
    summary = {
        "map": args.map,
        "rows": rows,
        "engine_ms_4p_random_game": four["engine_ms_per_game_p50"],
        "goal_ms": 20,
    }
    print(
        f"engine time of one {four['seats']}-player random game (p50): {four['engine_ms_per_game_p50']} ms (goal <= 20 ms)"
    )
    if args.json:
        print(json.dumps(summary))
    return 0
