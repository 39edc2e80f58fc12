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

from bot.ai_workers import BACKGROUND_NICENESS, AiWorkers, urgent_waiting
from bot.services import GameService, ThreadJobs, WorkerJobs
from bot.storage import Storage

from .conftest import FakeClock
from .test_coach import _finished_ai_game


def _niceness() -> int:
    """In a worker: the nice value of the thread that runs the job."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


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


async def test_an_analysis_made_in_slices_in_the_ai_worker_is_the_one_made_at_once(
    storage: Storage, clock: FakeClock, workers: AiWorkers
) -> None:
    """The same finished game analysed in one job in a thread, and in slices of 10 ms of CPU
    in the AI worker (each slice a job that replays the game): the same chances, turn by
    turn (a budget large enough that no CPU cap cuts the rounds)."""
    options = {"auto_ai": False, "analysis_budget_s": 1e6, "analysis_rollouts": 16}
    at_once = GameService(storage, clock=clock, analysis_jobs=ThreadJobs(), **options)
    at_once.analysis_slice_s = None
    sliced = GameService(
        storage, clock=clock, analysis_jobs=WorkerJobs(workers, background=True), **options
    )
    sliced.analysis_slice_s = 0.01
    try:
        first = await _finished_ai_game(at_once, 8300)
        made = await at_once.analyse_next()
        assert made is not None and made.game.id == first and made.analysis is not None
        async with storage._write(first) as tx:  # the same game queued again
            await tx.execute("DELETE FROM analyses WHERE game_id = ?", first)
        again = await sliced.analyse_now(first)
        assert again.analysis is not None
        assert again.analysis.rollouts == made.analysis.rollouts == 16
        assert again.analysis.turns == made.analysis.turns
        assert again.analysis.turning_points == made.analysis.turning_points
    finally:
        await at_once.close()
        await sliced.close()
