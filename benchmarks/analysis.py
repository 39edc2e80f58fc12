"""The coach's costs: the analysis after a game and a hint, per map.

``python -m benchmarks analysis [--json] [--games N] [--maps usa,...] [--seats N]
[--hints N] [--rollouts R] [--budget-s S] [--workers K] [--busy]``; with
``--turning-points`` the analysis's turning points over many games instead
(:mod:`benchmarks.turning_points`).

Per map it plays ``games`` games between normal AI seats (4 seats, Nordic 3;
``--seats`` for another count) and then:

- **analysis**: runs the job the bot's workers run, in one slice
  (:func:`bot.host.services._analysis.analysis_slice`: replay from the seed, rollouts from
  every turn, at most ``rollouts`` per turn within ``budget_s`` seconds of CPU) in
  this process and reports its CPU seconds per game (``cpu_s``: replay included,
  goal <= 60), the rollouts per turn it reached and the turns;
- **hint latency**: asks for ``hints`` hints at moments spread over those games
  (every seat, every kind of decision) through the job the bot's workers run
  (:func:`bot.host.services._coach.hint_job`), in ``workers`` AI worker processes as the
  bot does (:class:`bot.host.services.WorkerJobs`; 0: in this process), and reports the
  wall-clock time from asking to the answer, p50 and p99 (goal: within 3 s; a
  deferred Discord answer may take 5 s). With ``--busy`` an analysis is made in
  slices in the same workers all the while, as the bot's analysis queue does after
  a game: each hint then also waits for the slice under way to stop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from bot.host.ai_workers import AiWorkers
from bot.host.services import ThreadJobs, WorkerJobs
from bot.host.services._analysis import SLICE_S, analysis_slice
from bot.host.services._coach import hint_job
from engine import GameState, apply, new_game
from engine.ai import choose_action
from engine.ai.analysis import CPU_BUDGET_S, ROLLOUTS
from engine.codec import encode_action
from maps.loader import available_maps, load_ruleset

#: Every map the bot offers, Europe included.
MAPS = tuple(available_maps())


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _game(map_id: str, seats: int, seed: int) -> tuple[list[dict[str, Any]], list[GameState]]:
    """A whole game between normal AI seats: its action log (JSON) and the state before each
    action."""
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=seats, seed=seed)
    actions: list[dict[str, Any]] = []
    states: list[GameState] = []
    while not state.finished:
        action = choose_action(rules, state, state.seats_to_act()[0])
        states.append(state)
        actions.append(encode_action(action))
        state = apply(rules, state, action).state
    return actions, states


async def _hint_times(
    map_id: str, moments: list[GameState], workers: int, busy: tuple[Any, ...] | None = None
) -> tuple[list[float], list[float]]:
    """Wall-clock seconds from asking to the answer per hint, and the CPU seconds of the
    first one computed here (the worker's figure is not visible from this process). With
    ``busy`` (the arguments of :func:`analysis_slice` before the progress), an analysis is
    made in slices in the same workers meanwhile, again and again."""
    pool = AiWorkers(workers) if workers else None
    jobs: WorkerJobs | ThreadJobs = WorkerJobs(pool) if pool else ThreadJobs()
    background = WorkerJobs(pool, background=True) if pool else ThreadJobs()

    async def analyse_again() -> None:
        assert busy is not None
        progress = None
        while True:
            await background.pause()
            out = await background.run(analysis_slice, *busy, progress, SLICE_S)
            progress = None if isinstance(out, dict) else out

    try:
        if workers:  # a running bot has its worker warm: do not time the spawn
            await jobs.run(hint_job, map_id, moments[0], moments[0].seats_to_act()[0])
        analysing = asyncio.get_running_loop().create_task(analyse_again()) if busy else None
        walls, cpus = [], []
        for state in moments:
            seat = state.seats_to_act()[0]
            t0, c0 = time.perf_counter(), time.process_time()
            await jobs.run(hint_job, map_id, state, seat)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            if analysing is not None:
                await asyncio.sleep(0.5)  # a player reads the hint: the analysis goes on
        if analysing is not None:
            analysing.cancel()
        return walls, cpus
    finally:
        if pool is not None:
            await asyncio.to_thread(pool.close)


def measure(
    map_id: str,
    *,
    games: int,
    seats: int,
    hints: int,
    rollouts: int,
    budget_s: float,
    workers: int,
    busy: bool = False,
) -> dict[str, Any]:
    """One map's row (see the module docstring)."""
    cpu, reached, turns = [], [], []
    moments: list[GameState] = []
    for g in range(games):
        seed = 100 + g
        actions, states = _game(map_id, seats, seed)
        c0 = time.process_time()
        doc = analysis_slice(map_id, seats, seed, {}, actions, budget_s, rollouts, None, None)
        assert isinstance(doc, dict)  # no slices: the whole analysis
        cpu.append(time.process_time() - c0)
        reached.append(int(doc["rollouts"]))
        turns.append(len(doc["turns"]))
        per_game = -(-hints // games)  # spread evenly over the game, setup included
        moments += [states[i * len(states) // per_game] for i in range(per_game)]
    analysed = (map_id, seats, seed, {}, actions, budget_s, rollouts) if busy else None
    walls, _ = (
        asyncio.run(_hint_times(map_id, moments[:hints], workers, analysed)) if hints else ([], [])
    )
    return {
        "games": games,
        "seats": seats,
        "turns": turns,
        "cpu_s": [round(c, 2) for c in cpu],
        "cpu_s_max": round(max(cpu), 2),
        "rollouts_per_turn": reached,
        "hints": len(walls),
        "hint_p50_s": round(_pct(walls, 0.5), 3) if walls else None,
        "hint_p99_s": round(_pct(walls, 0.99), 3) if walls else None,
        "hint_max_s": round(max(walls), 3) if walls else None,
    }


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last.
    ``--turning-points``: the turning-point measurement instead
    (:mod:`benchmarks.turning_points`, its own options)."""
    if "--turning-points" in argv:
        from benchmarks import turning_points

        return turning_points.main([a for a in argv if a != "--turning-points"])
    ap = argparse.ArgumentParser(prog="python -m benchmarks analysis")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=1, help="games per map (default 1)")
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--seats", type=int, default=None, help="seats per game (default 4, Nordic 3)")
    ap.add_argument("--hints", type=int, default=30, help="hints timed per map (default 30)")
    ap.add_argument("--rollouts", type=int, default=ROLLOUTS, help="rollouts per turn at most")
    ap.add_argument("--budget-s", type=float, default=CPU_BUDGET_S, help="CPU seconds per game")
    ap.add_argument(
        "--workers", type=int, default=1, help="AI worker processes (0: in this process)"
    )
    ap.add_argument(
        "--busy", action="store_true", help="time the hints while the workers make an analysis"
    )
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    rows: dict[str, Any] = {}
    print(
        f"{'map':<10}{'seats':>6}{'turns':>7}{'CPU s/game':>12}{'rollouts/turn':>15}"
        f"{'hint p50 s':>12}{'hint p99 s':>12}"
    )
    for map_id in maps:
        p = load_ruleset(map_id).params
        seats = args.seats or min(4, p.max_players)
        row = measure(
            map_id,
            games=args.games,
            seats=seats,
            hints=args.hints,
            rollouts=args.rollouts,
            budget_s=args.budget_s,
            workers=args.workers,
            busy=args.busy,
        )
        rows[map_id] = row
        print(
            f"{map_id:<10}{seats:>6}{max(row['turns']):>7}{row['cpu_s_max']:>12.1f}"
            f"{min(row['rollouts_per_turn']):>15}"
            f"{row['hint_p50_s'] if row['hint_p50_s'] is not None else '-':>12}"
            f"{row['hint_p99_s'] if row['hint_p99_s'] is not None else '-':>12}"
        )
    report = {
        "benchmark": "analysis",
        "rollouts": args.rollouts,
        "budget_s": args.budget_s,
        "workers": args.workers,
        "busy": args.busy,
        "maps": rows,
    }
    if args.json:
        print(json.dumps(report))
    return 0
