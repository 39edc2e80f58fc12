"""Load: many active games with AI replies through the service and storage (no render).

``python -m benchmarks load [--json] [--games 2000] [--database-url URL] [--processes N]
[--players 4] [--seconds 20] [--warmup 5] [--start-postgres]``

Builds ``--games`` running games (one human seat against one AI seat, the
every offered map in turn, the ticket choice made), then ``--processes`` worker
processes each play their share of the games (game id modulo N, as shards
split guilds) with ``--players`` concurrent players for ``--seconds``: a
player picks one of its games, chooses the human's move off the clock (a card
from the deck when legal, otherwise the heuristic AI's choice: cheap, so the
driver does not eat the workers' CPU) and times ``GameService.act`` (the move,
the AI's replies with the heuristic AI, every write). Reported:

- ``actions_per_s``: actions stored per second over all processes (the
  human's and the AI's);
- ``p50_ms``/``p99_ms``: latency of one ``act`` call (a move and its AI replies);
- ``bytes_per_action``: bytes the database wrote per action. SQLite: every
  byte the worker processes wrote to disk (``/proc/self/io`` ``wchar``: WAL
  frames and checkpoints into the file); PostgreSQL: the server's WAL bytes
  (``pg_stat_wal``; data pages follow at checkpoints).

The last line with ``--json`` is one JSON object. ``--database-url`` takes
``sqlite:///PATH`` (default: a new temporary file) or ``postgresql://...`` (an
empty database); ``--start-postgres`` starts a throwaway PostgreSQL 16 with
durable settings from the pgserver wheel (``pip install -e '.[test]'``).
Goals: 2,000 games at >= 500 actions/s with p99 <= 100 ms
and <= 4 KB written per action; PostgreSQL with 2 processes >= 1.6x one.

``python -m benchmarks load --expert-tables 6`` measures something else: how fast the
bot acknowledges interactions while six tables' expert seats think in the AI workers
(:mod:`benchmarks.thinking`; goal: p99 <= 1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HUMAN = 1


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _written() -> int:
    """Bytes this process has written (``wchar`` of /proc/self/io; 0 where unavailable)."""
    try:
        for line in Path("/proc/self/io").read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def build(url: str, games: int) -> None:
    """``games`` running games: a human (user HUMAN) against an AI seat, tickets chosen."""
    from bot.host.services import GameService
    from bot.host.storage import open_storage
    from engine.ai import choose_action
    from maps.loader import available_maps, load_ruleset

    maps = available_maps()  # every map the bot offers, Europe included
    storage = await open_storage(url, pool_size=4)
    service = GameService(storage)
    try:
        for i in range(games):
            game = await service.lobby.create(
                guild_id=(i % 16) << 22,
                channel_id=1_000_000 + i,
                host_id=HUMAN,
                host_name="human",
                map_id=maps[i % len(maps)],
            )
            await service.lobby.add_ai(game.id, HUMAN)
            await service.lobby.start(game.id, HUMAN)
            state = await service.loader.game_state(game.id)
            while state.phase == "setup" and 0 in state.seats_to_act():
                rules = load_ruleset(game.map_id)
                await service.play.act(
                    game.id, HUMAN, choose_action(rules, state, 0), expected_version=None
                )
                state = await service.loader.game_state(game.id)
    finally:
        await service.close()
        await storage.close()


def _human_move(state: Any, gid: int, choose_action: Any, load_ruleset: Any) -> Any:
    """The human's move, cheap to choose: a card from the deck when that is legal, otherwise
    (a ticket choice, a tunnel, an empty deck) the heuristic AI's choice."""
    from engine import DrawBlind

    if state.phase == "play" and state.step in ("turn", "second_card") and state.deck:
        return DrawBlind(0)
    return choose_action(load_ruleset(state.map_id), state, 0)


async def _player(
    service: Any,
    games: list[int],
    busy: set[int],
    rng: random.Random,
    until: float,
    samples: list[tuple[float, int]],
) -> None:
    from engine.ai import choose_action
    from maps.loader import load_ruleset

    while time.perf_counter() < until:
        gid = rng.choice(games)
        if gid in busy:
            await asyncio.sleep(0)
            continue
        busy.add(gid)
        try:
            state = await service.loader.game_state(gid)  # what the player sees: off the clock
            if state.finished or 0 not in state.seats_to_act():
                games.remove(gid)
                continue
            action = _human_move(state, gid, choose_action, load_ruleset)
            started = time.perf_counter()
            outcome = await service.play.act(gid, HUMAN, action, expected_version=None)
            samples.append(((time.perf_counter() - started) * 1000, outcome.actions))
        finally:
            busy.discard(gid)


async def work(
    url: str, index: int, processes: int, players: int, seconds: float, warmup: float
) -> dict[str, Any]:
    """One worker: play the games whose id % processes == index; return its counts."""
    from bot.host.services import GameService
    from bot.host.storage import open_storage

    storage = await open_storage(url, pool_size=players + 2)
    service = GameService(storage)
    try:
        games = [g for g in await storage.games.game_ids("active") if g % processes == index]
        rng = random.Random(index)
        busy: set[int] = set()
        warm: list[tuple[float, int]] = []
        until = time.perf_counter() + warmup
        await asyncio.gather(
            *(_player(service, games, busy, rng, until, warm) for _ in range(players))
        )
        samples: list[tuple[float, int]] = []
        written, started = _written(), time.perf_counter()
        until = started + seconds
        await asyncio.gather(
            *(_player(service, games, busy, rng, until, samples) for _ in range(players))
        )
        elapsed = time.perf_counter() - started
        written = _written() - written
    finally:
        await service.close()
        await storage.close()
    return {
        "games": len(games),
        "elapsed": elapsed,
        "latencies": [s[0] for s in samples],
        "actions": sum(s[1] for s in samples),
        "written": written,
    }


async def _wal_bytes(url: str) -> int | None:
    if not url.startswith("postgres"):
        return None
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT wal_bytes FROM pg_stat_wal"))
    finally:
        await conn.close()


def _spawn(url: str, index: int, args: argparse.Namespace) -> subprocess.Popen[str]:
    command = [
        sys.executable, "-m", "benchmarks.load", "--worker", str(index),
        "--processes", str(args.processes), "--database-url", url,
        "--players", str(args.players), "--seconds", str(args.seconds),
        "--warmup", str(args.warmup),
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=os.environ.copy())


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """Build the games, run the workers, merge their counts."""
    started = time.perf_counter()
    asyncio.run(build(url, args.games))
    build_s = time.perf_counter() - started
    wal_before = asyncio.run(_wal_bytes(url))
    workers = [_spawn(url, i, args) for i in range(args.processes)]
    results = []
    for proc in workers:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"a worker failed ({proc.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    wal_after = asyncio.run(_wal_bytes(url))
    latencies = [x for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    per_s = sum(r["actions"] / r["elapsed"] for r in results)
    if wal_before is not None and wal_after is not None:
        written, measure = wal_after - wal_before, "postgres WAL bytes"
    else:
        written, measure = sum(r["written"] for r in results), "bytes written by the workers"
    return {
        "games": args.games,
        "backend": "postgres" if url.startswith("postgres") else "sqlite",
        "processes": args.processes,
        "players_per_process": args.players,
        "seconds": args.seconds,
        "build_s": round(build_s, 1),
        "acts": len(latencies),
        "actions": actions,
        "actions_per_s": round(per_s, 1),
        "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(_pct(latencies, 0.99), 2) if latencies else None,
        "bytes_per_action": round(written / actions) if actions else None,
        "bytes_measured": measure,
    }


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last.
    ``--expert-tables N``: the responsiveness while expert seats think
    (:mod:`benchmarks.thinking`)."""
    if any(a.startswith("--expert-tables") for a in argv):
        from benchmarks import thinking

        return thinking.main(argv)
    ap = argparse.ArgumentParser(prog="python -m benchmarks load")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--start-postgres", action="store_true")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--players", type=int, default=4, help="concurrent players per process")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        result = asyncio.run(
            work(
                args.database_url,
                args.worker,
                args.processes,
                args.players,
                args.seconds,
                args.warmup,
            )
        )
        print(json.dumps(result))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        url = args.database_url
        if args.start_postgres:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
            from tests.pg_server import DURABLE, PostgresServer

            server = PostgresServer(DURABLE).start()
            url = asyncio.run(server.create_database("load"))
        elif url is None:
            url = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        try:
            result = run(args, url)
        finally:
            if server is not None:
                server.stop()
    for key, value in result.items():
        print(f"{key:<22}{value}")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
