"""The coach's hints and analyses in the hard AI's worker processes (issue 36): no process of
the coach's own, an analysis in slices at a lower priority that never queues ahead of an AI
move or a hint, and the same analysis as one made at once."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.host import ai_workers
from bot.host.ai_workers import BACKGROUND_NICENESS, AiWorkers, urgent_waiting
from bot.host.services import GameService, ThreadJobs, WorkerJobs
from bot.host.storage import Storage

from .conftest import FakeClock
from .test_coach import _finished_ai_game


def _niceness() -> int:
    """In a worker: the nice value of the thread that runs the job."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _log(path: str, line: str) -> None:
    with open(path, "a") as f:  # one short write in append mode: whole lines, in order
        f.write(line + "\n")


def _urgent_job(path: str, n: int) -> int:
    """In a worker: an AI move's stand-in, 10 ms, logged."""
    _log(path, f"start {n}")
    time.sleep(0.01)
    return n


def _fake_slice(path: str, turns: int) -> tuple[int, bool]:
    """In a worker: a slice's stand-in, up to ``turns`` turns of 20 ms, ending early as
    :func:`analysis_slice` does; the turns made and whether an urgent job waited at the end."""
    _log(path, "slice")
    done = 0
    while done < turns:
        time.sleep(0.02)
        done += 1
        if urgent_waiting():
            break
    return done, bool(ai_workers._URGENT.is_set())


class _UrgentStream:
    """Two threads that keep asking ``workers`` for urgent jobs, each as soon as its last one is
    answered, so that one always waits or runs (``busy`` >= 1) until :meth:`stop`."""

    def __init__(self, workers: AiWorkers, path: str) -> None:
        self.asked = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._ask, args=(workers, path)) for _ in range(2)]
        for thread in self._threads:
            thread.start()

    def _ask(self, workers: AiWorkers, path: str) -> None:
        while not self._stop.is_set():
            with self._lock:
                n = self.asked
                self.asked += 1
                _log(path, f"ask {n}")
            workers.call(_urgent_job, path, n)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


def _wait_for(started: str, go: str) -> int:
    """In a worker: make ``started``, then wait (at most 60 s) until ``go`` exists; the pid."""
    Path(started).touch()
    deadline = time.monotonic() + 60
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


@pytest.fixture
def workers() -> Iterator[AiWorkers]:
    pool = AiWorkers(1)
    yield pool
    pool.close()


async def test_hints_and_analyses_run_in_the_ai_worker(workers: AiWorkers) -> None:
    """Both kinds of job run in the AI worker's process: the coach starts none of its own."""
    hints, analyses = WorkerJobs(workers), WorkerJobs(workers, background=True)
    hint_pid = await hints.run(os.getpid)
    analysis_pid = await analyses.run(os.getpid)
    assert hint_pid == analysis_pid != os.getpid()
    assert workers.pids() == [hint_pid]
    hints.close()
    analyses.close()  # the service closes the AI workers, not their jobs
    assert await hints.run(os.getpid) == hint_pid


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread nice values are Linux's")
async def test_a_background_job_runs_at_a_lower_priority_and_the_next_job_does_not(
    workers: AiWorkers,
) -> None:
    hints, analyses = WorkerJobs(workers), WorkerJobs(workers, background=True)
    normal = await hints.run(_niceness)
    assert await analyses.run(_niceness) == min(19, normal + BACKGROUND_NICENESS)
    assert await hints.run(_niceness) == normal


async def test_a_job_counts_as_busy_while_it_runs_unless_it_is_background(
    workers: AiWorkers, tmp_path: Path
) -> None:
    """An AI decision or a hint is counted in ``busy`` until it is answered; a background job
    (a slice of an analysis) is not, so it never keeps another slice waiting."""
    for background, counted in ((False, 1), (True, 0)):
        started, go = tmp_path / f"started-{background}", tmp_path / f"go-{background}"
        jobs = WorkerJobs(workers, background=background)
        job = asyncio.create_task(jobs.run(_wait_for, str(started), str(go)))
        for _ in range(1200):  # the worker's start and imports come first
            if started.exists():
                break
            await asyncio.sleep(0.05)
        assert started.exists() and workers.busy == counted
        go.touch()
        assert await job == workers.pids()[0]
        assert workers.busy == 0


async def test_a_slice_under_way_is_told_when_an_ai_move_or_a_hint_waits(
    workers: AiWorkers,
) -> None:
    """The workers' event that ends a slice early is set while every worker is wanted by an
    urgent job (here: the one worker, by the hint asking), and not for a background job."""
    assert await WorkerJobs(workers).run(urgent_waiting) is True
    assert await WorkerJobs(workers, background=True).run(urgent_waiting) is False
    assert urgent_waiting() is False  # outside the workers: never


class _Busy:
    """A stand-in for the AI workers: ``workers`` processes, ``busy`` of them asked for."""

    def __init__(self, workers: int, busy: int) -> None:
        self.workers = workers
        self.busy = busy


async def test_a_slice_of_an_analysis_waits_while_every_worker_has_an_ai_move_to_make() -> None:
    busy = _Busy(2, 2)
    background = WorkerJobs(busy, background=True, poll_s=0.01)  # type: ignore[arg-type]
    waiting = asyncio.create_task(background.pause())
    await asyncio.sleep(0.1)
    assert not waiting.done()
    busy.busy = 1  # one worker is free: the slice may go
    await asyncio.wait_for(waiting, timeout=5)
    busy.busy = 5
    await asyncio.wait_for(  # a hint never waits for pause: only the background does
        WorkerJobs(busy).pause(),  # type: ignore[arg-type]
        timeout=5,
    )


async def test_under_a_stream_of_ai_moves_a_background_job_gets_a_whole_slice_now_and_then(
    workers: AiWorkers, tmp_path: Path
) -> None:
    """The worker never free (two threads ask urgent jobs back to back): without the rule no
    slice would ever start. With a whole slice due every 1 s, the slices go on: each due one
    runs all its turns although urgent jobs wait, and no urgent job waits for more than one
    slice between being asked and starting (the log orders the two processes' events)."""
    log = str(tmp_path / "log")
    await WorkerJobs(workers).run(os.getpid)  # the worker started
    background = WorkerJobs(workers, background=True, poll_s=0.01, whole_every_s=1.0)
    stream = _UrgentStream(workers, log)
    made = []

    async def slices() -> None:
        while background.whole_slices < 3:
            await background.pause()
            made.append(await background.run(_fake_slice, log, 5))

    try:
        await asyncio.wait_for(slices(), timeout=120)  # never, without the rule
    finally:
        stream.stop()
    assert background.whole_slices == 3
    whole = [done for done, urgent in made if urgent and done == 5]
    assert len(whole) >= 3, made  # run to their end while urgent jobs waited
    lines = Path(log).read_text().split("\n")[:-1]
    asked: dict[str, int] = {}
    slices_while_waiting = 0
    for i, line in enumerate(lines):
        kind, _, n = line.partition(" ")
        if kind == "ask":
            asked[n] = i
        elif kind == "start":
            between = lines[asked.pop(n) : i]
            assert between.count("slice") <= 1, between  # at most one slice ahead of it
        elif asked:
            slices_while_waiting += 1  # this slice started while an urgent job waited
    assert slices_while_waiting >= 3


async def test_an_analysis_made_in_slices_in_the_ai_worker_is_the_one_made_at_once(
    storage: Storage, clock: FakeClock, workers: AiWorkers, tmp_path: Path
) -> None:
    """The same finished game analysed in one job in a thread, and in slices of 20 ms of CPU
    in the AI worker while a stream of urgent jobs keeps the worker from ever being free (each
    slice a job that replays the game; a whole one due every 0.1 s): it finishes, with the
    same chances, turn by turn (a budget large enough that no CPU cap cuts the rounds)."""
    options = {"auto_ai": False, "analysis_budget_s": 1e6, "analysis_rollouts": 16}
    at_once = GameService(storage, clock=clock, analysis_jobs=ThreadJobs(), **options)
    at_once.analysis_slice_s = None
    jobs = WorkerJobs(workers, background=True, poll_s=0.01, whole_every_s=0.1)
    sliced = GameService(storage, clock=clock, analysis_jobs=jobs, **options)
    sliced.analysis_slice_s = 0.02
    try:
        first = await _finished_ai_game(at_once, 8300)
        made = await at_once.analyse_next()
        assert made is not None and made.game.id == first and made.analysis is not None
        async with storage._write(first) as tx:  # the same game queued again
            await tx.execute("DELETE FROM analyses WHERE game_id = ?", first)
        await WorkerJobs(workers).run(os.getpid)  # the worker started
        stream = _UrgentStream(workers, str(tmp_path / "log"))
        try:
            again = await asyncio.wait_for(sliced.analyse_now(first), timeout=300)
        finally:
            stream.stop()
        assert again.analysis is not None
        assert again.analysis.rollouts == made.analysis.rollouts == 16
        assert again.analysis.turns == made.analysis.turns
        assert again.analysis.turning_points == made.analysis.turning_points
        assert jobs.whole_slices >= 1 and stream.asked > jobs.whole_slices
    finally:
        await at_once.close()
        await sliced.close()
