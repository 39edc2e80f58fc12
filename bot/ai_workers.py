"""AI decisions in worker processes, so the bot process stays small and its event loop free.

The hard AI's search fills the engine's caches (payments per hand and route kind,
the integer core's claim lists), which are bounded by entry counts, not bytes: a
process that plays hard AI seats on every map grows to about 2 GiB over hours.
:class:`AiWorkers` runs those decisions in a small pool of spawned processes
instead and replaces a worker when it grows past a resident-size ceiling or has
made a number of decisions, so the caches are dropped with the process that
filled them. The bot process only sends a state (a few KB) and receives an
action; it applies and stores the action itself, exactly as before, so an AI
move is stored in the same transaction as ever.

A worker that dies during a decision (killed, out of memory) costs nothing but
time: nothing was stored yet, the pool is replaced and the decision is asked
again of a fresh worker. Only when the fresh worker dies too does
:meth:`AiWorkers.choose` raise :class:`AiWorkerError`; the caller then stores
nothing (a player's move is refused with an error and can be sent again; a due
AI turn is retried by the timer loop).

A worker process imports this module and, when it starts, the engine and the maps;
this module imports neither at its top, so the settings can name its defaults cheaply.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine import Action, GameState

log = logging.getLogger(__name__)

MIB = 1024 * 1024
#: Worker processes by default: one is enough for the hard AI seats of a bot on two cores
#: (a decision takes at most about 1.4 s; games wait their turn behind it).
DEFAULT_WORKERS = 1
#: A worker whose resident size passes this (MiB) is replaced after its decision. A fresh
#: worker holds about 37 MiB (the engine and the maps); the rest is cache, and clearing the
#: caches every 15 decisions cost 2-3 % CPU per decision on Nordic. 64 keeps a bot with its
#: worker within 200 MiB after four hard games on every map (README, "Running the bot").
DEFAULT_MAX_MB = 64.0
#: ... and so is one that has made this many decisions (a bound independent of /proc).
DEFAULT_MAX_DECISIONS = 2_000
#: A decision that runs longer than this (seconds) means a wedged worker: it is killed.
DECISION_TIMEOUT_S = 60.0
#: AI levels decided in the workers; the others (easy, normal: milliseconds, small caches)
#: are decided in a thread of the bot process as before.
WORKER_LEVELS = frozenset({"hard"})


class WorkerSettings(Protocol):
    """What :meth:`AiWorkers.from_settings` reads (:class:`bot.config.Settings` has it; a
    protocol, so that the settings may import this module's defaults without a cycle)."""

    @property
    def ai_workers(self) -> int: ...

    @property
    def ai_worker_max_mb(self) -> float: ...


class AiWorkerError(RuntimeError):
    """No worker could make the decision: the worker and its replacement died (or timed out)."""


def resident_mib() -> float:
    """This process's resident size in MiB (Linux ``/proc/self/statm``; 0.0 where it is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / MIB


def _start_worker() -> None:
    """Worker initializer: leave Ctrl-C to the bot (it stops the workers); import the engine and
    load every map, so that the first decision does not wait for them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import engine.ai  # noqa: F401 - imported once here rather than in the first decision
    from maps.loader import available_maps, load_ruleset

    for map_id in available_maps():
        load_ruleset(map_id)


def decide(map_id: str, state: GameState, seat: int, kind: str) -> tuple[Action, float]:
    """In a worker: the action AI ``kind`` takes for ``seat`` (see :func:`engine.ai.choose_action`)
    and this worker's resident size after it, MiB."""
    from engine.ai import choose_action
    from maps.loader import load_ruleset

    action = choose_action(load_ruleset(map_id), state, seat, kind)
    return action, resident_mib()


def _warm() -> float:
    return resident_mib()


class AiWorkers:
    """A pool of AI worker processes (spawned, never forked: the bot process has threads).

    Args:
        workers: processes in the pool (>= 1).
        max_mb: a worker whose resident size after a decision is above this many MiB
            is replaced (the pool is renewed: the old processes finish what they do and exit).
        max_decisions: a worker is replaced after this many decisions.
        timeout_s: a decision running longer than this kills the pool (a wedged worker;
            time queued behind other decisions does not count).
        decide_fn: the function a worker runs, ``(map_id, state, seat, kind) -> (action,
            resident MiB)`` (tests pass one that misbehaves; it must be importable by name).

    Thread-safe: :meth:`choose` is called from the threads that run AI moves.
    """

    def __init__(
        self,
        workers: int = DEFAULT_WORKERS,
        *,
        max_mb: float = DEFAULT_MAX_MB,
        max_decisions: int = DEFAULT_MAX_DECISIONS,
        timeout_s: float = DECISION_TIMEOUT_S,
        decide_fn: Any = decide,
    ) -> None:
        if workers < 1:
            raise ValueError(f"AiWorkers needs at least one worker, got {workers}")
        self.workers = workers
        self.max_mb = max_mb
        self.max_decisions = max_decisions
        self.timeout_s = timeout_s
        self._decide = decide_fn
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self._warned = False
        #: pools started so far (the first one included), and decisions made
        self.pools_started = 0
        self.decisions = 0

    @classmethod
    def from_settings(
        cls, settings: WorkerSettings, *, decide_fn: Any = decide
    ) -> AiWorkers | None:
        """The pool ``settings`` ask for (``TTR_AI_WORKERS``, ``TTR_AI_WORKER_MAX_MB``); None
        when ``TTR_AI_WORKERS=0`` (every AI decision in the bot process)."""
        if settings.ai_workers < 1:
            return None
        return cls(settings.ai_workers, max_mb=settings.ai_worker_max_mb, decide_fn=decide_fn)

    # ------------------------------------------------------------------ the pool
    def _new_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            max_tasks_per_child=self.max_decisions,
        )
        self.pools_started += 1
        # start a process now, not at the next decision: importing the engine and loading the
        # maps takes about a second that no player should wait for
        pool.submit(_warm)
        return pool

    def _current(self) -> ProcessPoolExecutor | None:
        """The pool (started if need be); None where no worker process can be started (no
        working ``sem_open``, no processes left): the caller decides in this process then."""
        with self._lock:
            if self._closed:
                raise AiWorkerError("the AI workers are closed")
            if self._pool is None:
                try:
                    self._pool = self._new_pool()
                except (OSError, ImportError, NotImplementedError) as exc:
                    if not self._warned:
                        log.warning(
                            "AI workers cannot start (%s): deciding in the bot process", exc
                        )
                        self._warned = True
                    return None
            return self._pool

    def _renew(self, old: ProcessPoolExecutor, reason: str, *, kill: bool = False) -> None:
        """Replace ``old`` by a fresh pool (unless another thread did already). The old workers
        exit first, so the two never hold memory at the same time (a sequential replacement,
        as ``max_tasks_per_child`` does it)."""
        with self._lock:
            if self._pool is not old or self._closed:
                return
            self._pool = None  # a decision asked meanwhile starts the fresh pool itself
        log.info("AI workers renewed: %s", reason)
        if kill:
            _kill(old)
        old.shutdown(wait=True, cancel_futures=False)
        with self._lock:
            if self._pool is None and not self._closed:
                try:
                    self._pool = self._new_pool()
                except (OSError, ImportError, NotImplementedError):
                    pass  # the next decision tries again (and says so when it cannot)

    def pids(self) -> list[int]:
        """The process ids of the current pool's workers (for tests and the benchmark)."""
        with self._lock:
            pool = self._pool
        return [] if pool is None else _pids(pool)

    # ------------------------------------------------------------------ deciding
    def choose(self, map_id: str, state: GameState, seat: int, kind: str) -> Action:
        """The action AI ``kind`` takes for ``seat`` in ``state``, decided in a worker; blocks the
        calling thread (never call it on the event loop).

        Where no worker process can start at all, the decision is made in the calling thread
        (as without workers; one warning in the log).

        Raises:
            AiWorkerError: the worker died (or took longer than ``timeout_s``) and so did a
                fresh one asked again; or the pool is closed.
        """
        for attempt in (1, 2):
            pool = self._current()
            if pool is None:
                return decide(map_id, state, seat, kind)[0]
            try:
                future: Future[tuple[Action, float]] = pool.submit(
                    self._decide, map_id, state, seat, kind
                )
                action, size = self._result(future)
            except BrokenProcessPool:
                log.warning("an AI worker died during a decision (attempt %s)", attempt)
                self._renew(pool, "a worker died")
                continue
            except FutureTimeout:
                log.warning("an AI decision took over %.0f s (attempt %s)", self.timeout_s, attempt)
                self._renew(pool, "a decision timed out", kill=True)
                continue
            except RuntimeError as exc:  # submit() on a pool being shut down meanwhile
                if self._closed:
                    raise AiWorkerError("the AI workers are closed") from exc
                self._renew(pool, f"the pool refused work ({exc})")
                continue
            with self._lock:
                self.decisions += 1
            if size > self.max_mb:
                self._renew(pool, f"a worker grew to {size:.0f} MiB (ceiling {self.max_mb:.0f})")
            return action
        raise AiWorkerError("the AI worker died twice during one decision")

    def _result(self, future: Future[tuple[Action, float]]) -> tuple[Action, float]:
        """``future``'s result; FutureTimeout once it has run ``timeout_s`` seconds (time spent
        queued behind other games' decisions does not count)."""
        deadline: float | None = None
        while True:
            try:
                return future.result(timeout=min(1.0, self.timeout_s))
            except FutureTimeout:
                if not future.running():
                    continue
                now = time.monotonic()
                if deadline is None:
                    deadline = now + self.timeout_s
                elif now >= deadline:
                    raise

    def close(self) -> None:
        """Stop the workers (decisions under way are abandoned: nothing of theirs is stored)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _pids(pool: ProcessPoolExecutor) -> list[int]:
    processes = getattr(pool, "_processes", None) or {}
    return [p for p in processes if p is not None]


def _kill(pool: ProcessPoolExecutor) -> None:
    """SIGKILL the processes of ``pool`` (CPython keeps them in ``_processes``)."""
    for pid in _pids(pool):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
