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

The same workers make the coach's hints and, in short slices between AI moves, the
analyses of finished games (:meth:`AiWorkers.call`, :class:`bot.host.services.WorkerJobs`):
one process whose memory is bounded instead of three (the bot and its
workers within 200 MiB after four hard games on every map). A slice of an analysis
runs in a thread of the worker at a lower priority (Linux) and is only handed to a
worker while no AI decision or hint waits for one, so an AI move waits at most for
the one slice under way (:data:`~bot.host.services._analysis.SLICE_S`). So that analyses cannot
starve while AI moves keep every worker busy, a background job that has had no whole slice
for :data:`~bot.host.services._jobs.WHOLE_SLICE_EVERY_S` is handed over anyway and runs whole
(:func:`sized_whole`): an AI move then waits for that one slice, at most once per that time.

A worker process imports this module and, when it starts, the engine and the maps;
this module imports neither at its top, so the settings can name its defaults cheaply.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

T = TypeVar("T")

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
#: worker within 200 MiB after four hard games on every map (docs/operators/memory.md).
DEFAULT_MAX_MB = 64.0
#: ... and so is one that has made this many decisions (a bound independent of /proc).
DEFAULT_MAX_DECISIONS = 2_000
#: A decision that runs longer than this (seconds) means a wedged worker: it is killed.
DECISION_TIMEOUT_S = 60.0
#: AI levels decided in the workers; the others (easy, normal: milliseconds, small caches)
#: are decided in a thread of the bot process as before. An expert decision takes up to
#: 10 s of a worker's CPU (docs/operators/memory.md says how many workers expert seats want).
WORKER_LEVELS = frozenset({"hard", "expert"})
#: Added to the nice value of the worker thread that runs a background job (an analysis's
#: slice), so the bot process and the players' moves come first (Linux).
BACKGROUND_NICENESS = 10


class WorkerSettings(Protocol):
    """What :meth:`AiWorkers.from_settings` reads (:class:`bot.process.config.Settings` has it; a
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


#: In a worker: set while every worker is wanted for an AI decision or a hint (see
#: :func:`urgent_waiting`); None outside the workers or where it could not be made.
_URGENT: Any = None
#: In a worker: True while it runs a whole slice (:func:`sized_whole`), which
#: :func:`urgent_waiting` does not cut short.
_WHOLE = False


def _start_worker(urgent: Any = None) -> None:
    """Worker initializer: leave Ctrl-C to the bot (it stops the workers); keep the pool's
    ``urgent`` event (a ``multiprocessing`` Event, or None); import the engine and load every
    map, so that the first decision does not wait for them."""
    global _URGENT
    _URGENT = urgent
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


def urgent_waiting() -> bool:
    """In a worker: True while an AI decision or a hint waits for a worker, so that a background
    job (a slice of an analysis) should stop soon and return what it has; False elsewhere, and
    during a whole slice (:func:`sized_whole`)."""
    return not _WHOLE and _URGENT is not None and bool(_URGENT.is_set())


def sized(fn: Callable[..., T], /, *args: Any) -> tuple[T, float]:
    """In a worker: ``fn(*args)`` and this worker's resident size after it, MiB."""
    return fn(*args), resident_mib()


def sized_background(fn: Callable[..., T], /, *args: Any) -> tuple[T, float]:
    """:func:`sized` in a thread of the worker whose nice value is raised by
    :data:`BACKGROUND_NICENESS` (Linux gives every thread its own; elsewhere the job runs at
    the worker's priority), so that the process's next job runs at its normal priority."""
    if sys.platform != "linux":
        return sized(fn, *args)
    outcome: list[Any] = []

    def lowered() -> None:
        thread = threading.get_native_id()
        try:
            niceness = os.getpriority(os.PRIO_PROCESS, thread) + BACKGROUND_NICENESS
            os.setpriority(os.PRIO_PROCESS, thread, min(19, niceness))
        except OSError:  # not allowed here: run at the worker's priority
            pass
        try:
            outcome.append((True, fn(*args)))
        except BaseException as exc:  # noqa: BLE001 - raised again in the worker's own thread
            outcome.append((False, exc))

    thread = threading.Thread(target=lowered, name="ttr-background-job")
    thread.start()
    thread.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value, resident_mib()


def sized_whole(fn: Callable[..., T], /, *args: Any) -> tuple[T, float]:
    """:func:`sized_background`, but :func:`urgent_waiting` stays False while ``fn`` runs: a
    slice owed to the background (see :class:`bot.host.services.WorkerJobs`) runs to its own end
    even while AI decisions or hints wait (a worker runs one job at a time, so the flag is
    the job's)."""
    global _WHOLE
    _WHOLE = True
    try:
        return sized_background(fn, *args)
    finally:
        _WHOLE = False


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
        self._urgent = 0
        self._urgent_event: Any = None
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
        context = multiprocessing.get_context("spawn")
        if self._urgent_event is None:
            self._urgent_event = context.Event()  # shared by every pool of these workers
            if self._urgent >= self.workers:
                self._urgent_event.set()
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self._urgent_event,),
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

    @property
    def busy(self) -> int:
        """AI decisions and urgent jobs (hints) asked of the workers and not answered yet."""
        with self._lock:
            return self._urgent

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
        action: Action = self._submit(
            self._decide,
            (map_id, state, seat, kind),
            lambda: decide(map_id, state, seat, kind)[0],
            "an AI decision",
            urgent=True,
        )
        with self._lock:
            self.decisions += 1
        return action

    def call(
        self, fn: Callable[..., T], /, *args: Any, background: bool = False, whole: bool = False
    ) -> T:
        """``fn(*args)`` in a worker (``fn`` must be importable by name and free of side
        effects: a worker that dies during it is replaced and asked again); blocks the calling
        thread. An urgent job (``background`` False: a hint) counts in :attr:`busy`; a
        background job (an analysis's slice) runs in a worker thread at a lower priority
        (:func:`sized_background`), and with ``whole`` it is not told to stop early when an
        urgent job waits (:func:`sized_whole`). Jobs start in the order they are asked. Where
        no worker process can start, ``fn`` runs in the calling thread.

        Raises:
            AiWorkerError: as :meth:`choose`; and whatever ``fn`` raises.
        """
        runner = (sized_whole if whole else sized_background) if background else sized
        result: T = self._submit(
            runner, (fn, *args), lambda: fn(*args), "a job", urgent=not background
        )
        return result

    def _submit(
        self,
        fn: Callable[..., tuple[Any, float]],
        args: tuple[Any, ...],
        here: Callable[[], Any],
        what: str,
        *,
        urgent: bool,
    ) -> Any:
        """``fn(*args)``'s result (its first part) from a worker, the worker renewed when the
        second part (its resident MiB) is above the ceiling; ``here()`` where no worker can
        start. A worker that dies or times out is replaced and the job asked again once."""
        if urgent:
            self._count_urgent(+1)
        try:
            for attempt in (1, 2):
                pool = self._current()
                if pool is None:
                    return here()
                try:
                    future: Future[tuple[Any, float]] = pool.submit(fn, *args)
                except RuntimeError as exc:  # a pool shut down or broken meanwhile
                    if self._closed:
                        raise AiWorkerError("the AI workers are closed") from exc
                    self._renew(pool, f"the pool refused work ({exc})")
                    continue
                try:
                    result, size = self._result(future)
                except BrokenProcessPool:
                    log.warning("an AI worker died during %s (attempt %s)", what, attempt)
                    self._renew(pool, "a worker died")
                    continue
                except FutureTimeout:
                    log.warning("%s took over %.0f s (attempt %s)", what, self.timeout_s, attempt)
                    self._renew(pool, f"{what} timed out", kill=True)
                    continue
                if size > self.max_mb:
                    self._renew(
                        pool, f"a worker grew to {size:.0f} MiB (ceiling {self.max_mb:.0f})"
                    )
                return result
            raise AiWorkerError(f"the AI worker died twice during {what}")
        finally:
            if urgent:
                self._count_urgent(-1)

    def _count_urgent(self, change: int) -> None:
        """Count an urgent job asked (+1) or answered (-1); the workers' ``urgent`` event is set
        while every worker is wanted by one (:func:`urgent_waiting`)."""
        with self._lock:
            self._urgent += change
            event = self._urgent_event
            if event is not None:
                if self._urgent >= self.workers:
                    event.set()
                else:
                    event.clear()

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
