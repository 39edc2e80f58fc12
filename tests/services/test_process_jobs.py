"""The coach's worker pools are bounded like the AI workers (issue 36): a job that leaves its
worker above ``max_mb`` replaces the worker, the old one gone before the new one starts; under
the ceiling the worker stays."""

from __future__ import annotations

import os

import pytest

from bot.host.ai_workers import sized
from bot.host.services import ProcessJobs


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_a_worker_above_its_ceiling_is_replaced_after_its_job() -> None:
    """Every worker holds more than 1 MiB, so with that ceiling each job gets a fresh worker,
    and the one before it has exited."""
    jobs = ProcessJobs(1, max_mb=1.0)
    try:
        first = await jobs.run(os.getpid)
        second = await jobs.run(os.getpid)
        third = await jobs.run(os.getpid)
        assert len({first, second, third, os.getpid()}) == 4
        assert not _alive(first) and not _alive(second)
        assert jobs.pools_started == 4  # the first pool and one after each job
    finally:
        jobs.close()


async def test_a_worker_under_its_ceiling_or_without_one_is_kept() -> None:
    for jobs in (ProcessJobs(1, max_mb=10_000.0), ProcessJobs(1)):
        try:
            pids = {await jobs.run(os.getpid) for _ in range(3)}
            assert len(pids) == 1 and os.getpid() not in pids
            assert jobs.pools_started == 1
        finally:
            jobs.close()


def test_a_job_reports_its_workers_size() -> None:
    """What the ceiling is compared with: the worker's resident size after the job, MiB."""
    result, size = sized(sum, [1, 2, 3])
    assert result == 6 and 5 < size < 10_000


async def test_an_error_in_a_job_reaches_the_caller_and_the_pool_goes_on() -> None:
    jobs = ProcessJobs(1, max_mb=1.0)
    try:
        with pytest.raises(ZeroDivisionError):
            await jobs.run(divmod, 1, 0)
        assert await jobs.run(divmod, 7, 2) == (3, 1)
    finally:
        jobs.close()
