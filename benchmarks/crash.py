"""Crash safety at scale: SIGKILL a process playing games through the service, many times.

``python -m benchmarks crash [--kills 100] [--json]`` (run from the repository
root: it reuses the player of ``tests/services/crash_player.py``). After each
kill the database must open, every game must replay to its snapshot
(``bot verify``) and every acknowledged action must be in the log; the suite
runs the same check with 20 kills.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path


async def _run(kills: int, seed: int) -> dict:
    from bot.services.ops import verify_storage
    from bot.storage import open_storage
    from tests.services.test_reliability import _run_and_kill

    rng = random.Random(seed)
    acknowledged: set[tuple[int, int]] = set()
    problems = lost = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ttr.sqlite3"
        for _ in range(kills):
            acknowledged |= await _run_and_kill(db, rng.uniform(0.02, 0.8))
            storage = await open_storage(db)
            try:
                _, found = await verify_storage(storage)
                problems += len(found)
                for game_id, version in acknowledged:
                    game = await storage.get_game(game_id)
                    lost += game is None or game.version < version
                games = len(await storage.list_games())
            finally:
                await storage.close()
    return {
        "kills": kills,
        "acknowledged": len(acknowledged),
        "games": games,
        "mismatches": problems,
        "lost": lost,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str]) -> int:
    """Run the benchmark; exit 1 when a game did not verify or an acknowledged action was lost."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks crash")
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = asyncio.run(_run(args.kills, args.seed))
    for key, value in result.items():
        print(f"{key:<14}{value}")
    if args.json:
        print(json.dumps(result))
    return 1 if result["mismatches"] or result["lost"] else 0
