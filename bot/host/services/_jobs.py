"""Where CPU-heavy work of the coach runs: hints and analyses, off the event loop.

A :class:`Jobs` runs a module-level function with picklable arguments and
awaits its result. :class:`ThreadJobs` runs it in a thread of this process
(tests, the demo, benchmarks); :class:`WorkerJobs` in the hard AI's worker
processes (:class:`bot.host.ai_workers.AiWorkers`; the bot), so a hint's 1.5 s search
or an analysis's 40 s of rollouts never holds this process's GIL while the event
loop answers interactions, and no idle process of the coach's holds memory
(issue 36: the bot with its workers within 200 MiB); :class:`ProcessJobs` in a
pool of its own (a bot with ``TTR_AI_WORKERS=0``, the analysis benchmark).
Worker processes are spawned, never forked (the bot process has threads), and
replaced after a job that left one above its ceiling of resident memory, so the
engine caches they fill are given back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.host.ai_workers import sized

if TYPE_CHECKING:
    from bot.host.ai_workers import AiWorkers

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Seconds after which a background job (an analysis) that has had no whole slice gets one even
#: while AI moves or hints wait (:class:`WorkerJobs`). With slices of 0.25 s
#: (:data:`~bot.host.services._analysis.SLICE_S`) an analysis gets at least 1/21 of a worker kept
#: busy without a pause (a 40 s analysis within about 14 minutes), and the AI loses at most
#: that share: one decision in 5 s waits 0.25 s longer, less than a hard decision's own
#: spread (0.2-1.4 s). Shorter would cost every game's AI more; longer leaves finished
#: games without their analysis for half an hour on a busy bot.
WHOLE_SLICE_EVERY_S = 5.0


class Jobs(Protocol):
    """Runs CPU-heavy functions away from the event loop."""

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)``'s result (its exception raised here)."""
        ...

    async def pause(self) -> None:
        """Wait until a background job may start without delaying urgent work (an AI move,
        a hint): called by the analysis queue before each slice."""
        ...

    def close(self) -> None:
        """Stop the workers (idempotent)."""
        ...


class ThreadJobs:
    """:class:`Jobs` in a thread of this process (``asyncio.to_thread``)."""

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in a worker thread."""
        return await asyncio.to_thread(fn, *args)

    async def pause(self) -> None:
        """Nothing to wait for."""

    def close(self) -> None:
        """Nothing to stop."""


class WorkerJobs:
    """:class:`Jobs` in the hard AI's worker processes (:meth:`AiWorkers.call`).

    Background jobs (an analysis's slices) run at a lower priority; :meth:`pause` holds the
    next one back while every worker has an AI decision or a hint to make or waiting, and a
    slice under way stops early once one waits (:func:`bot.host.ai_workers.urgent_waiting`). The
    rule that keeps them from starving: once ``whole_every_s`` seconds have passed since the
    last whole slice (or since these jobs were made), the next slice is due: :meth:`pause`
    lets it go at once and it runs whole, not cut short by waiting urgent jobs. It queues
    behind the urgent jobs asked before it, and those asked after it wait for it: so an AI
    move or a hint waits for at most one background job (about ``SLICE_S``) per
    ``whole_every_s`` of its wait, and background work gets at least one slice in every
    ``whole_every_s`` plus that slice and the urgent jobs queued ahead of it.

    Args:
        workers: the AI workers; their owner (the service) closes them, not :meth:`close`.
        background: the jobs are background work (see above); False: urgent (hints).
        poll_s: how often :meth:`pause` looks (seconds).
        whole_every_s: seconds between whole slices at the least (None: never forced, so a
            worker never free starves the background).

    Attributes:
        whole_slices: background jobs run whole so far.
    """

    def __init__(
        self,
        workers: AiWorkers,
        *,
        background: bool = False,
        poll_s: float = 0.05,
        whole_every_s: float | None = WHOLE_SLICE_EVERY_S,
    ):
        self.workers = workers
        self.background = background
        self.poll_s = poll_s
        self.whole_every_s = whole_every_s
        self.whole_slices = 0
        self._last_whole = time.monotonic()

    def _due(self) -> bool:
        """A background job is owed a whole slice now."""
        return (
            self.background
            and self.whole_every_s is not None
            and time.monotonic() - self._last_whole >= self.whole_every_s
        )

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in a worker process (``fn`` importable by name, free of side effects);
        a background job that is due runs whole."""
        whole = self._due()
        try:
            return await asyncio.to_thread(
                self.workers.call, fn, *args, background=self.background, whole=whole
            )
        finally:
            if whole:
                self.whole_slices += 1
                self._last_whole = time.monotonic()

    async def pause(self) -> None:
        """Wait until some worker has no AI decision or hint to make, or a whole slice is due
        (background jobs only)."""
        if self.background:
            while self.workers.busy >= self.workers.workers and not self._due():
                await asyncio.sleep(self.poll_s)

    def close(self) -> None:
        """Nothing to stop here: the AI workers are closed by the service."""


def _start_worker(niceness: int) -> None:
    """Worker initializer: Ctrl-C is the bot's to handle; lower the priority (``niceness``) so
    the bot process and its players come first; load the engine and the maps once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        try:
            os.nice(niceness)
        except OSError:  # not allowed here: run at the normal priority
            pass
    import engine.ai  # noqa: F401 - imported once here rather than in the first job
    from maps.loader import available_maps, load_ruleset

    for map_id in available_maps():
        load_ruleset(map_id)


def _ready() -> bool:
    return True


class ProcessJobs:
    """:class:`Jobs` in a pool of spawned worker processes.

    Args:
        workers: processes (>= 1); jobs beyond them wait their turn.
        niceness: added to the workers' nice value (0: the bot's priority).
        max_tasks: a worker is replaced after this many jobs.
        max_mb: a job that leaves its worker above this resident size (MiB) renews the
            pool: the old workers finish the jobs they have and exit before the new ones
            start, so the two never hold memory at once (None: no ceiling).
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        niceness: int = 0,
        max_tasks: int = 200,
        max_mb: float | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"ProcessJobs needs at least one worker, got {workers}")
        self._workers = workers
        self._niceness = niceness
        self._max_tasks = max_tasks
        self.max_mb = max_mb
        #: pools started so far (the first one included)
        self.pools_started = 0
        self._closed = False
        self._renewing = asyncio.Lock()
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self._niceness,),
            max_tasks_per_child=self._max_tasks,
        )
        self.pools_started += 1
        pool.submit(_ready)  # start a worker now: its imports take about a second
        return pool

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in a worker process (``fn`` must be importable by name)."""
        async with self._renewing:  # a grown pool is being replaced: wait for the fresh one
            pool = self._pool
        loop = asyncio.get_running_loop()
        result, size = await loop.run_in_executor(pool, partial(sized, fn, *args))
        if self.max_mb is not None and size > self.max_mb:
            await self._renew(pool, size)
        return result

    async def pause(self) -> None:
        """Nothing to wait for: the pool does nothing but these jobs."""

    async def _renew(self, old: ProcessPoolExecutor, size: float) -> None:
        async with self._renewing:
            if self._pool is not old or self._closed:
                return  # another job renewed it already, or the jobs are closed
            log.info("job workers renewed: one grew to %.0f MiB (ceiling %.0f)", size, self.max_mb)
            await asyncio.to_thread(old.shutdown, True)
            if not self._closed:
                self._pool = self._new_pool()

    def close(self) -> None:
        """Stop the workers at once: jobs not started are dropped, a job under way (an
        analysis can take a minute) is abandoned with its process; nothing of it was stored."""
        self._closed = True
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()


__all__ = ["WHOLE_SLICE_EVERY_S", "Jobs", "ProcessJobs", "ThreadJobs", "WorkerJobs"]
