"""Where CPU-heavy work of the coach runs: hints and analyses, off the event loop.

A :class:`Jobs` runs a module-level function with picklable arguments and
awaits its result. :class:`ThreadJobs` runs it in a thread of this process
(tests, the demo, benchmarks); :class:`ProcessJobs` in a pool of spawned worker
processes (the bot), so a hint's 1.5 s search or an analysis's 40 s of rollouts
never holds this process's GIL while the event loop answers interactions.
Worker processes are spawned, never forked (the bot process has threads), and
replaced after ``max_tasks`` jobs, or after a job that left one above ``max_mb``
of resident memory (issue 36: the bot and every process it starts stay bounded
however long it runs), so the engine caches they fill are given back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


class Jobs(Protocol):
    """Runs CPU-heavy functions away from the event loop."""

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)``'s result (its exception raised here)."""
        ...

    def close(self) -> None:
        """Stop the workers (idempotent)."""
        ...


class ThreadJobs:
    """:class:`Jobs` in a thread of this process (``asyncio.to_thread``)."""

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in a worker thread."""
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        """Nothing to stop."""


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


def _sized(fn: Callable[..., T], /, *args: Any) -> tuple[T, float]:
    """In a worker: ``fn(*args)`` and this worker's resident size after it, MiB."""
    from ..ai_workers import resident_mib

    return fn(*args), resident_mib()


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
        result, size = await loop.run_in_executor(pool, partial(_sized, fn, *args))
        if self.max_mb is not None and size > self.max_mb:
            await self._renew(pool, size)
        return result

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


__all__ = ["Jobs", "ProcessJobs", "ThreadJobs"]
