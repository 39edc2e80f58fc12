"""Fault injection at scale: kill -9, a full disk, corrupt rows.

``python -m benchmarks crash [--kills 100] [--disk-full 20] [--corrupt 20] [--json]``
(run from the repository root: it reuses the helpers under ``tests/services``).

- ``kill_random``: SIGKILL a process playing games through the service at a
  random moment, ``--kills`` times; after each kill the file must open, every
  game replay (``bot verify``) and every acknowledged move be in the log.
- ``kill_write_points``: start, resign, vacation, the end of a rated game,
  forgetting a player, purging a server and awarding a game's achievements each
  killed at every one of their write points (before each statement, before and
  after each commit); the operation must be all there or not at all (forget,
  purge and award: every row as before or as after).
- ``disk_full``: ``--disk-full`` trials playing while the file may not grow,
  then with room again.
- ``corrupt``: ``--corrupt`` trials damaging one game's row; it must be
  quarantined and reported while the other games run on.

Each section reports trials, acknowledged moves, actions lost (must be 0) and
games unreadable (must be 0; the damaged game of a corrupt-row trial is
counted apart, as quarantined). The suite runs the same checks with fewer
trials.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any


async def _kill_random(kills: int, seed: int) -> dict[str, Any]:
    from bot.host.services.ops import verify_storage
    from bot.host.storage import open_storage
    from tests.services.test_reliability import _run_and_kill

    rng = random.Random(seed)
    acknowledged: set[tuple[int, int]] = set()
    problems = lost = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ttr.sqlite3"
        for _ in range(kills):
            acknowledged |= await _run_and_kill(db, rng.uniform(0.02, 0.8))
            storage = await open_storage(db)
            try:
                _, found = await verify_storage(storage)
                problems += len(found)
                for game_id, version in acknowledged:
                    game = await storage.games.get_game(game_id)
                    lost += game is None or game.version < version
            finally:
                await storage.close()
    return {
        "trials": kills,
        "acknowledged": len(acknowledged),
        "lost": lost,
        "unreadable": problems,
    }


async def _kill_write_points() -> dict[str, Any]:
    from tests.services.crash_ops import OPS
    from tests.services.test_crash_ops import _kill_everywhere

    trials = kills = partial = 0
    per_op: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for op in OPS:
            outcomes = await _kill_everywhere(Path(tmp), op)  # asserts all-or-nothing itself
            trials += len(outcomes)
            kills += sum(t.killed for t, _ in outcomes)
            per_op[op] = sum(t.killed for t, _ in outcomes)
            partial += sum(o not in ("none", "all") for _, o in outcomes)
    return {
        "trials": trials, "kills": kills, "partial": partial, "lost": 0, "unreadable": 0,
        "kills_per_op": per_op,
    }  # fmt: skip


async def _disk_full(trials: int, seed: int) -> dict[str, Any]:
    from tests.services.faults import disk_full_trial

    total = {"trials": trials, "acknowledged": 0, "refused": 0, "lost": 0, "unreadable": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(trials):
            r = await disk_full_trial(Path(tmp), seed + i)
            total["acknowledged"] += r.acknowledged
            total["refused"] += r.faults
            total["lost"] += r.lost
            total["unreadable"] += r.unreadable
    return total


async def _corrupt(trials: int, seed: int) -> dict[str, Any]:
    from tests.services.faults import corrupt_row_trial

    total: dict[str, Any] = {
        "trials": trials, "quarantined": 0, "lost": 0, "unreadable": 0, "damage": {},
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(trials):
            r, damage, quarantined = await corrupt_row_trial(Path(tmp), seed + i)
            total["quarantined"] += quarantined
            total["lost"] += r.lost
            total["unreadable"] += r.unreadable
            total["damage"][damage] = total["damage"].get(damage, 0) + 1
    return total


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    result = {
        "kill_random": await _kill_random(args.kills, args.seed),
        "kill_write_points": await _kill_write_points(),
        "disk_full": await _disk_full(args.disk_full, args.seed),
        "corrupt": await _corrupt(args.corrupt, args.seed),
    }
    result["seconds"] = round(time.perf_counter() - started, 1)  # type: ignore[assignment]
    return result


def main(argv: list[str]) -> int:
    """Run every fault kind; exit 1 when an acknowledged action was lost, a game became
    unreadable, an operation was half stored or a corrupt game was not quarantined."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks crash")
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--disk-full", type=int, default=20)
    ap.add_argument("--corrupt", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = asyncio.run(_run(args))
    for key, value in result.items():
        print(f"{key:<20}{value}")
    if args.json:
        print(json.dumps(result))
    bad = any(
        section["lost"] or section["unreadable"]
        for section in result.values()
        if isinstance(section, dict)
    )
    bad = bad or result["kill_write_points"]["partial"] > 0  # type: ignore[index]
    bad = bad or result["corrupt"]["quarantined"] != args.corrupt  # type: ignore[index]
    return 1 if bad else 0
