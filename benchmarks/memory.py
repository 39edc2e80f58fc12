"""Memory of a bot hosting hard AI seats: the bot process and its AI workers together.

``python -m benchmarks memory [--json] [--games N] [--maps usa,paris] [--workers K]
[--ai-workers W] [--minutes M] [--iterations I] [--time-cap-s T]``

Each measurement is a fresh process that is the bot without Discord: it imports
what ``python -m bot`` imports, warms the renderer as the bot does at start, and
builds the game service as ``bot.process.run.build_service`` does, with the AI workers of
the settings (``TTR_AI_WORKERS``, ``TTR_AI_WORKER_MAX_MB``; ``--ai-workers``
overrides the count, 0 being the former design that decides every AI move in the
bot process). On a SQLite database of its own it plays 2-player games hard vs
normal (hard takes seat 0 and seat 1 in turn) through the service, one AI move per
call of ``play_ai`` (the path of every AI reply and timed-out turn in the bot: the
service's ``_ai_moves``, the worker pool, one transaction per call), and renders
the board of every turn and the final image through the cogs' image functions.

The
coach's jobs run where the bot runs them (``bot.process.run.coach_jobs``: hints and analyses
in the AI workers, an analysis in slices between AI moves), and every finished game
is analysed in the background as the bot's analysis queue does.

It measures the process and all its descendants (the AI workers, a coach's worker with
``--ai-workers 0``, and multiprocessing's resource tracker, which the bot starts with them): ``*_mb`` is
the sum of their proportional set sizes (PSS, MiB: a page shared by several of
them, such as the Python library's code, is split among them, so the sum counts
every page once: what a container's memory limit sees), ``*_rss_mb`` the sum of
their resident sizes (an upper bound: shared pages count once per process).
Reported: after start (``start_mb``), after every game (``after_game_mb``), and
the peak (``peak_mb``, sampled every 0.2 s); analyses stored (``analyses``) and the
jobs they took (``analysis_slices``: the bot makes an analysis in slices between AI
moves; ``whole_slices`` of them were due whole, one every 5 s, which run to their end
even while AI moves wait, so that analyses finish however busy the worker is: a 40 s
analysis takes up to about 14 minutes while games are played back to back);
``bot_rss_mb`` is the bot process alone at the end, ``loop_lag_ms`` how late its event
loop woke a 10 ms sleep (p50, p99, max) during the run and ``ai_move_s`` the wall seconds
of a hard AI decision through the worker (count, p50, p99, max; queueing behind a slice
of an analysis included). For each map a process plays ``N`` games on it
alone; one more plays ``N`` rounds of every map in turn, as a bot does that hosts
all maps (``"all"``). ``--minutes M`` runs only ``"all"`` and keeps playing rounds
until M minutes have passed, with the total sampled after the first game of every
minute (``samples``: ``[minutes, PSS MiB, RSS MiB, bot PSS MiB, bot RSS MiB, objects,
database MiB, malloc in use MiB, malloc free MiB, malloc mapped MiB]``, the bot's figures
being its own process alone, ``objects`` the count of objects its garbage collector
tracks, to tell a growing Python heap from fragmentation, the database its SQLite files
together (SQLite's page cache fills with it) and the last three the bot's C-level heap
from :func:`bot.process.malloc.heap_mib`, -1 where glibc cannot tell). With
``--json`` the last line is one JSON object keyed by map and ``"all"``, plus
``"settings"``.

Linux only for the totals (``/proc``); elsewhere only this process's peak
(``getrusage``) is known and stands for every figure.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.ai import play_arguments

MIB = 1024 * 1024
#: ``"iterations,time_cap_s"`` of the hard AI, for the bot process and its workers (set by
#: ``--iterations`` / ``--time-cap-s``; unset: the bot's own budget).
BUDGET_ENV = "TTR_BENCH_HARD_BUDGET"


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


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from ``/proc/*/stat``."""
    kids: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def _sizes(pid: int) -> tuple[float, float]:
    """``(RSS, PSS)`` of one process, MiB (0, 0 when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0, 0.0
    fields = {}
    for line in text.splitlines()[1:]:
        name, _, rest = line.partition(":")
        fields[name] = rest.split()[0] if rest.split() else "0"
    return int(fields.get("Rss", 0)) / 1024, int(fields.get("Pss", 0)) / 1024


def tree_mib(pid: int | None = None) -> tuple[float, float, int]:
    """``(sum of RSS, sum of PSS, processes)`` of ``pid`` (default: this process) and all its
    descendants, MiB. Without ``/proc``: this process's peak for both."""
    root = os.getpid() if pid is None else pid
    if not Path("/proc/self/smaps_rollup").exists():
        peak = peak_mib()
        return peak, peak, 1
    kids = _children()
    todo, rss, pss, count = [root], 0.0, 0.0, 0
    while todo:
        p = todo.pop()
        r, s = _sizes(p)
        rss, pss, count = rss + r, pss + s, count + 1
        todo += kids.get(p, [])
    return rss, pss, count


class _PeakSampler:
    """Samples :func:`tree_mib` every ``interval`` seconds in a thread; keeps the peaks."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peak = (0.0, 0.0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memory-sampler", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.take()
            self._stop.wait(self.interval)

    def take(self) -> tuple[float, float]:
        rss, pss, _ = tree_mib()
        self.peak = (max(self.peak[0], rss), max(self.peak[1], pss))
        return rss, pss

    def __enter__(self) -> _PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


class _LoopLag:
    """How late the event loop wakes a task that sleeps 10 ms, over a whole run (what every
    other interaction waits while AI seats think and boards render).

    The lags are counted per 0.1 ms (``counts``: tenths of a millisecond -> wakes), so the
    record stays a few KB however long the run: a list of every wake grew by about
    0.2 MiB a minute (some 100 floats a second), which a long run's samples counted as
    the bot's growth."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self._task: asyncio.Task[None] | None = None

    def add(self, lag_s: float) -> None:
        """Count one wake ``lag_s`` seconds late."""
        self.counts[round(max(0.0, lag_s) * 10_000)] += 1

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            self.add(time.perf_counter() - t0 - 0.01)

    def __enter__(self) -> _LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()

    def summary(self) -> dict[str, float]:
        """``{"p50", "p99", "max"}`` of the lags, ms (to 0.1 ms)."""
        ordered = sorted(self.counts.items()) or [(0, 1)]
        total = sum(n for _, n in ordered)

        def at(q: float) -> float:
            rank = min(total - 1, int(q * total))
            seen = 0
            for tenths, n in ordered:
                seen += n
                if seen > rank:
                    return tenths / 10
            return ordered[-1][0] / 10

        return {"p50": at(0.5), "p99": at(0.99), "max": ordered[-1][0] / 10}


def _budget() -> tuple[int, float] | None:
    raw = os.environ.get(BUDGET_ENV)
    if not raw:
        return None
    iterations, cap = raw.split(",")
    return int(iterations), float(cap)


def _use_budget() -> None:
    """Give the hard AI of this process the benchmark's budget (when one is set)."""
    budget = _budget()
    if budget is not None:
        from engine.ai import PLAYERS, HardPlayer

        PLAYERS["hard"] = HardPlayer(iterations=budget[0], time_cap_s=budget[1])


def decide_with_budget(map_id: str, state: Any, seat: int, kind: str) -> Any:
    """The AI workers' decision (:func:`bot.host.ai_workers.decide`) with the benchmark's budget."""
    from bot.host.ai_workers import decide

    _use_budget()
    return decide(map_id, state, seat, kind)


def _bot_like() -> None:
    """Load what the bot process loads: discord.py, the cogs, the service, the maps, and the
    renderer's cached layers (``TtrBot.setup_hook`` warms them up at start), with the
    allocator settings of ``python -m bot``."""
    import bot.discord_app.client  # noqa: F401 - discord.py and the bot class
    from bot.process.malloc import tune_malloc

    tune_malloc()  # as bot.process.run.run does before anything starts a thread
    import cogs.ttr  # noqa: F401 - the cogs
    from maps.loader import available_maps, load_ruleset
    from render import warm_up

    for map_id in available_maps():
        load_ruleset(map_id)
    warm_up()


async def _play(service: Any, map_id: str, seed: int, channel: int) -> None:
    """One hard-vs-normal game through the service, with the turn boards and the final image."""
    from cogs.ttr._images import board_png, final_png

    game = await service.create(
        guild_id=0,
        channel_id=channel,
        host_id=0,
        host_name="bench",
        map_id=map_id,
        host_plays=False,
    )
    levels = ["normal", "normal"]
    levels[seed % 2] = "hard"
    for level in levels:
        await service.add_ai(game.id, 0, level=level)
    await service.start(game.id, 0, seed=seed)
    names = ["A", "B"]
    claimed: list[str] = []
    while True:
        outcome = await service.play_ai(game.id, max_actions=1)
        claimed += [e.public["route"] for e in outcome.public_events if e.kind == "route_claimed"]
        if outcome.result is not None:
            public = (await service.table(game.id, 0)).public
            await final_png(map_id, public, names, "en")
            return
        if outcome.turn_ended:
            public = (await service.table(game.id, 0)).public
            await board_png(map_id, public, names, "en", claimed)
            claimed = []


class _Timed:
    """Wraps the AI workers' :meth:`~bot.host.ai_workers.AiWorkers.choose`: the wall seconds of every
    hard AI decision from asking to the answer (queueing behind a slice of an analysis
    included), in ``seconds``."""

    def __init__(self, workers: Any) -> None:
        self.seconds: list[float] = []
        self._choose = workers.choose
        workers.choose = self

    def __call__(self, *args: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self._choose(*args)
        finally:
            self.seconds.append(time.perf_counter() - t0)

    def summary(self) -> dict[str, float]:
        """``{"n", "p50", "p99", "max"}`` of the decisions, seconds."""
        ordered = sorted(self.seconds) or [0.0]

        def at(q: float) -> float:
            return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)

        return {"n": len(self.seconds), "p50": at(0.5), "p99": at(0.99), "max": at(1.0)}


class _Counted:
    """The analysis jobs with their jobs (an analysis's slices) counted in ``runs``."""

    def __init__(self, jobs: Any) -> None:
        self.jobs = jobs
        self.runs = 0

    async def run(self, fn: Any, /, *args: Any) -> Any:
        self.runs += 1
        return await self.jobs.run(fn, *args)

    async def pause(self) -> None:
        await self.jobs.pause()

    def close(self) -> None:
        self.jobs.close()


async def _analyse_all(service: Any, done: list[int]) -> None:
    """The bot's analysis queue: each finished game analysed where the bot analyses it, one at
    a time, while the games go on (``done[0]``: analyses stored)."""
    while True:
        try:
            found = await service.analyse_next()
        except Exception as exc:  # noqa: BLE001 - reported, the queue goes on as the bot's does
            print(f"  an analysis failed: {exc!r}", file=sys.stderr, flush=True)
            found = None
        if found is None:
            await asyncio.sleep(1.0)
        else:
            done[0] += 1


async def _measure(
    maps: list[str], games: int, ai_workers: int | None, minutes: float | None
) -> dict[str, Any]:
    from dataclasses import replace

    from bot.host.ai_workers import AiWorkers
    from bot.host.services import GameService
    from bot.host.storage import open_storage
    from bot.process.config import Settings
    from bot.process.malloc import heap_mib
    from bot.process.run import coach_jobs

    settings = Settings.from_env(env_file=None)
    if ai_workers is not None:
        settings = replace(settings, ai_workers=ai_workers)
    _use_budget()
    decide_fn = decide_with_budget if _budget() else None
    workers = (
        AiWorkers.from_settings(settings, decide_fn=decide_fn)
        if decide_fn
        else AiWorkers.from_settings(settings)
    )
    with tempfile.TemporaryDirectory(prefix="ttr-memory-") as tmp:
        storage = await open_storage(Path(tmp) / "ttr.sqlite3")
        # as bot.process.run.build_service builds it, with the coach's jobs and the analysis queue;
        # AI seats are stepped one move per call
        hints, analyses = coach_jobs(settings, workers)
        counted = _Counted(analyses)
        timed = None if workers is None else _Timed(workers)
        service = GameService(
            storage,
            shards=settings.shards,
            ai_workers=workers,
            auto_ai=False,
            hint_jobs=hints,
            analysis_jobs=counted,
        )
        analysed = [0]
        queue = asyncio.get_running_loop().create_task(_analyse_all(service, analysed))
        try:
            start = tree_mib()
            t0 = time.perf_counter()
            after: list[float] = []
            after_rss: list[float] = []
            samples: list[list[float]] = []
            channel = 0
            lag = _LoopLag()
            with _PeakSampler() as sampler, lag:
                next_sample = 0.0
                seed = 0
                while True:
                    for map_id in maps:
                        channel += 1
                        await _play(service, map_id, seed, channel)
                        rss, pss = sampler.take()
                        after.append(round(pss, 1))
                        after_rss.append(round(rss, 1))
                        elapsed = (time.perf_counter() - t0) / 60
                        if minutes is not None and elapsed >= next_sample:
                            bot_rss, bot_pss = _sizes(os.getpid())
                            objects = len(gc.get_objects())
                            db_mib = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 2**20
                            heap = heap_mib() or (-1.0, -1.0, -1.0)
                            samples.append(
                                [
                                    round(elapsed, 1),
                                    round(pss, 1),
                                    round(rss, 1),
                                    round(bot_pss, 1),
                                    round(bot_rss, 1),
                                    objects,
                                    round(db_mib, 1),
                                    *(round(x, 1) for x in heap),
                                ]
                            )
                            print(
                                f"  {elapsed:.1f} min: {pss:.0f} MiB (RSS {rss:.0f});"
                                f" bot {bot_pss:.0f} MiB (RSS {bot_rss:.0f}), {objects} objects,"
                                f" database {db_mib:.0f} MiB; malloc in use {heap[0]:.0f},"
                                f" free {heap[1]:.0f}, mapped {heap[2]:.0f} MiB",
                                file=sys.stderr,
                                flush=True,
                            )
                            next_sample = elapsed + 1
                    seed += 1
                    if minutes is None and seed >= games:
                        break
                    if minutes is not None and (time.perf_counter() - t0) / 60 >= minutes:
                        break
            result: dict[str, Any] = {
                "games": len(after),
                "start_mb": round(start[1], 1),
                "after_game_mb": after,
                "peak_mb": round(sampler.peak[1], 1),
                "start_rss_mb": round(start[0], 1),
                "after_game_rss_mb": after_rss,
                "peak_rss_mb": round(sampler.peak[0], 1),
                "bot_rss_mb": round(resident_mib(), 1),
                "processes": tree_mib()[2],
                "worker_pools": 0 if workers is None else workers.pools_started,
                "coach_pools": sum(
                    getattr(j, "pools_started", 0)
                    for j in {id(j): j for j in (hints, analyses)}.values()
                ),
                "analyses": analysed[0],
                "analysis_slices": counted.runs,
                "whole_slices": getattr(analyses, "whole_slices", 0),
                "ai_move_s": None if timed is None else timed.summary(),
                "loop_lag_ms": lag.summary(),
                "seconds": round(time.perf_counter() - t0, 1),
            }
            if minutes is not None:
                result["samples"] = samples
            return result
        finally:
            queue.cancel()
            await service.close()
            await storage.close()


def measure(
    maps: list[str],
    games: int,
    iterations: int | None = None,
    time_cap_s: float | None = None,
    ai_workers: int | None = None,
    minutes: float | None = None,
) -> dict[str, Any]:
    """In this (fresh) process: be the bot, play ``games`` rounds of ``maps`` (or for
    ``minutes``), and return its sizes with its workers' (see the module docstring).
    ``iterations`` / ``time_cap_s``: the hard AI's budget (default: the bot's)."""
    if iterations is not None and time_cap_s is not None:
        os.environ[BUDGET_ENV] = f"{iterations},{time_cap_s}"
    _bot_like()
    return asyncio.run(_measure(maps, games, ai_workers, minutes))


def run(
    maps: list[str],
    games: int,
    workers: int,
    iterations: int | None = None,
    time_cap_s: float | None = None,
    ai_workers: int | None = None,
    minutes: float | None = None,
) -> dict[str, dict[str, Any]]:
    """Measure each map alone and then all of ``maps`` together (only that with ``minutes``),
    every measurement in a fresh Python process of its own (``workers`` at a time; started as
    a program, not by multiprocessing, so that it starts its own helper processes as the bot
    does); keyed by map and ``"all"``."""
    groups = {} if minutes is not None else {m: [m] for m in maps}
    if len(maps) > 1 or minutes is not None:
        groups["all"] = list(maps)

    def one(group: list[str]) -> dict[str, Any]:
        job = json.dumps([group, games, iterations, time_cap_s, ai_workers, minutes])
        done = subprocess.run(
            [sys.executable, "-c", "import benchmarks.memory as m; m.child()", job],
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {key: pool.submit(one, group) for key, group in groups.items()}
        return {key: future.result() for key, future in futures.items()}


def child() -> None:
    """A measurement process: :func:`measure` with the JSON arguments of ``argv[1]``; prints
    the result as the last line."""
    group, games, iterations, time_cap_s, ai_workers, minutes = json.loads(sys.argv[1])
    result = measure(group, games, iterations, time_cap_s, ai_workers, minutes)
    print(json.dumps(result), flush=True)


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = play_arguments("python -m benchmarks memory", 4, "games per map")
    ap.add_argument(
        "--ai-workers",
        type=int,
        default=None,
        help="AI worker processes of the bot (default: TTR_AI_WORKERS, else 1; 0: none)",
    )
    ap.add_argument(
        "--minutes", type=float, default=None, help="play all maps for this long (only 'all')"
    )
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    from engine.ai import HardPlayer

    bot_budget = (HardPlayer().iterations, HardPlayer().time_cap_s)
    own = (args.iterations, args.time_cap_s) != bot_budget  # else the bot's decide(), unchanged
    results = run(
        maps,
        args.games,
        args.workers,
        args.iterations if own else None,
        args.time_cap_s if own else None,
        args.ai_workers,
        args.minutes,
    )
    print(
        f"total MiB (PSS / RSS) of a bot process and its helper processes, hard (iterations "
        f"{args.iterations}, cap {args.time_cap_s} s) vs normal, 2 players"
    )
    print(
        f"{'maps':<10}{'games':>6}{'start':>11}{'after 1':>11}{'last':>11}{'peak':>11}"
        f"{'bot':>6}{'pools':>6}{'lag p99':>8}{'AI p99':>7}{'anal.':>6}{'s':>7}"
    )
    for key, r in results.items():
        print(
            f"{key:<10}{r['games']:>6}"
            f"{r['start_mb']:>6.0f}/{r['start_rss_mb']:<4.0f}"
            f"{r['after_game_mb'][0]:>6.0f}/{r['after_game_rss_mb'][0]:<4.0f}"
            f"{r['after_game_mb'][-1]:>6.0f}/{r['after_game_rss_mb'][-1]:<4.0f}"
            f"{r['peak_mb']:>6.0f}/{r['peak_rss_mb']:<4.0f}"
            f"{r['bot_rss_mb']:>6.0f}{r['worker_pools']:>6}{r['loop_lag_ms']['p99']:>8}"
            f"{(r['ai_move_s'] or {}).get('p99', 0.0):>7.2f}{r['analyses']:>6}{r['seconds']:>7.0f}"
        )
    if args.json:
        settings = {
            "games_per_map": args.games,
            "iterations": args.iterations,
            "time_cap_s": args.time_cap_s,
            "ai_workers": args.ai_workers,
            "minutes": args.minutes,
        }
        print(json.dumps({**results, "settings": settings}))
    return 0
