"""Responsiveness while expert AI seats think: ``python -m benchmarks load --expert-tables 6``.

``python -m benchmarks load --expert-tables N [--tables 20] [--players 4] [--ai-workers 1]
[--expert-cap-s 10] [--seconds 60] [--json]``

One bot process (a :class:`~bot.host.services.GameService` on a temporary SQLite file) with
its AI worker pool (:class:`~bot.host.ai_workers.AiWorkers`, ``--ai-workers`` processes, as
``TTR_AI_WORKERS``) holds ``N`` tables of one person against an expert seat and ``--tables``
tables of one person against a normal seat. For ``--seconds``:

- every expert table moves as soon as its person is to act, so an expert decision
  (up to ``--expert-cap-s`` seconds of CPU, 10 by default as in the bot) is always asked
  of the workers, most of them queued;
- ``--players`` players move on the normal tables, one move after another;
- an interaction arrives every 50 ms: a task created on the event loop that records how
  long it waited for its first step. That is when the bot acknowledges an interaction
  (``interaction.response.defer()`` is a handler's first await), so its delay is the
  acknowledgement's delay in this process (Discord's network aside).

Reported: ``ack_p50_ms``/``ack_p99_ms``/``ack_max_ms`` (the goal: p99 <= 1 s),
``move_p50_ms``/``move_p99_ms`` (a move on a normal table with its AI reply, stored),
``expert_replies`` and ``expert_reply_p50_s``/``expert_reply_max_s`` (a person's move on an
expert table until the expert's answer is stored: its queue for a worker and its thinking),
``expert_decisions`` (made by the workers in the window and before it).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

HUMAN = 1
#: The environment variable that gives the workers the expert's cap (a spawned worker
#: inherits the environment).
CAP_ENV = "TTR_BENCH_EXPERT_CAP_S"
#: Seconds between two simulated interactions.
ACK_EVERY_S = 0.05


def decide_capped(map_id: str, state: Any, seat: int, kind: str) -> tuple[Any, float]:
    """In a worker: :func:`bot.host.ai_workers.decide`, the expert with the cap of
    :data:`CAP_ENV` (seconds of CPU)."""
    from bot.host.ai_workers import decide, resident_mib
    from engine.ai import ExpertPlayer, choose_action
    from maps.loader import load_ruleset

    if kind != "expert":
        return decide(map_id, state, seat, kind)
    player = ExpertPlayer(time_cap_s=float(os.environ.get(CAP_ENV, "10")))
    return choose_action(load_ruleset(map_id), state, seat, kind, player=player), resident_mib()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def _table(service: Any, index: int, level: str, map_id: str) -> int:
    game = await service.lobby.create(
        guild_id=1,
        channel_id=500_000 + index,
        host_id=HUMAN,
        host_name="p",
        map_id=map_id,
        turn_seconds=86_400,
    )
    await service.lobby.add_ai(game.id, HUMAN, level=level)
    await service.lobby.start(game.id, HUMAN)
    return int(game.id)


async def _move(service: Any, gid: int) -> bool:
    """The person's move in ``gid`` (cheap: a blind draw when legal, else the heuristic's
    choice) with the AI's replies; False when the game is over or not the person's turn."""
    from engine import DrawBlind
    from engine.ai import choose_action
    from maps.loader import load_ruleset

    state = await service.loader.game_state(gid)
    if state.finished or 0 not in state.seats_to_act():
        return False
    if state.phase == "play" and state.step in ("turn", "second_card") and state.deck:
        action: Any = DrawBlind(0)
    else:
        action = choose_action(load_ruleset(state.map_id), state, 0)
    await service.play.act(gid, HUMAN, action, expected_version=None)
    return True


async def _expert_table(service: Any, gid: int, until: float, replies: list[float]) -> None:
    while time.perf_counter() < until:
        started = time.perf_counter()
        if not await _move(service, gid):
            return
        replies.append(time.perf_counter() - started)


async def _player(
    service: Any,
    games: list[int],
    busy: set[int],
    rng: random.Random,
    until: float,
    moves: list[float],
) -> None:
    while time.perf_counter() < until and games:
        gid = rng.choice(games)
        if gid in busy:  # another player moves there: one move at a time per table
            await asyncio.sleep(0)
            continue
        busy.add(gid)
        try:
            started = time.perf_counter()
            if not await _move(service, gid):
                games.remove(gid)
                continue
            moves.append((time.perf_counter() - started) * 1000)
        finally:
            busy.discard(gid)


async def _interactions(until: float, acks: list[float]) -> None:
    async def acknowledge(created: float) -> None:
        acks.append((time.perf_counter() - created) * 1000)

    tasks = []
    while time.perf_counter() < until:
        tasks.append(asyncio.create_task(acknowledge(time.perf_counter())))
        await asyncio.sleep(ACK_EVERY_S)
    await asyncio.gather(*tasks)


async def measure(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """Build the tables, run the window, return the figures (module docstring)."""
    from bot.host.ai_workers import AiWorkers
    from bot.host.services import GameService
    from bot.host.storage import open_storage
    from maps.loader import available_maps

    os.environ[CAP_ENV] = str(args.expert_cap_s)
    seeds = itertools.count(1)
    storage = await open_storage(url, pool_size=args.players + args.expert_tables + 4)
    service = GameService(storage, seed_source=lambda: next(seeds))
    workers = AiWorkers(args.ai_workers, decide_fn=decide_capped)
    service.recorder.ai_workers = workers
    maps = available_maps()
    try:
        normal = [
            await _table(service, i, "normal", maps[i % len(maps)]) for i in range(args.tables)
        ]
        # the expert seats choose their tickets at the start: in the workers already
        expert = [
            await _table(service, 1000 + i, "expert", maps[i % len(maps)])
            for i in range(args.expert_tables)
        ]
        acks: list[float] = []
        moves: list[float] = []
        replies: list[float] = []
        until = time.perf_counter() + args.seconds
        rng = random.Random(7)
        busy: set[int] = set()
        await asyncio.gather(
            _interactions(until, acks),
            *(_expert_table(service, gid, until, replies) for gid in expert),
            *(_player(service, normal, busy, rng, until, moves) for _ in range(args.players)),
        )
        decisions = workers.decisions
    finally:
        await service.close()
        await storage.close()
    return {
        "expert_tables": args.expert_tables,
        "normal_tables": args.tables,
        "ai_workers": args.ai_workers,
        "expert_cap_s": args.expert_cap_s,
        "seconds": args.seconds,
        "acks": len(acks),
        "ack_p50_ms": round(statistics.median(acks), 2) if acks else None,
        "ack_p99_ms": round(_pct(acks, 0.99), 2) if acks else None,
        "ack_max_ms": round(max(acks), 2) if acks else None,
        "moves": len(moves),
        "move_p50_ms": round(statistics.median(moves), 1) if moves else None,
        "move_p99_ms": round(_pct(moves, 0.99), 1) if moves else None,
        "expert_replies": len(replies),
        "expert_reply_p50_s": round(statistics.median(replies), 1) if replies else None,
        "expert_reply_max_s": round(max(replies), 1) if replies else None,
        "expert_decisions": decisions,
    }


def main(argv: list[str]) -> int:
    """Run it; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks load --expert-tables")
    ap.add_argument("--expert-tables", type=int, required=True)
    ap.add_argument("--tables", type=int, default=20, help="tables with a normal AI seat")
    ap.add_argument("--players", type=int, default=4, help="players moving on those tables")
    ap.add_argument("--ai-workers", type=int, default=1, help="as TTR_AI_WORKERS")
    ap.add_argument("--expert-cap-s", type=float, default=10.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(measure(args, f"sqlite:///{Path(tmp) / 'thinking.sqlite3'}"))
    for key, value in result.items():
        print(f"{key:<22}{value}")
    if args.json:
        print(json.dumps(result))
    return 0
