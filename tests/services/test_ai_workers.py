"""Hard AI decisions in worker processes (issue 36): the same moves, stored once, whatever
happens to a worker; workers replaced when they grow; the bot's settings build the pool."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.host.ai_workers import AiWorkerError, AiWorkers
from bot.host.services import GameService, ProcessJobs, WorkerJobs
from bot.host.services.ops import verify_storage
from bot.host.storage import Storage
from bot.process.config import Settings
from bot.process.run import build_service
from engine import apply, new_game
from engine.ai import HardPlayer, choose_action
from engine.codec import decode_action, encode_action
from maps.loader import load_ruleset
from tests.services import ai_worker_faults as faults
from tests.services.conftest import HOST, FakeClock, lobby, play_for, state_of

MAP = "paris"


@pytest.fixture
def marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "marker"
    folder.mkdir()
    monkeypatch.setenv(faults.MARKER_ENV, str(folder))
    return folder


@pytest.fixture
def pools() -> Iterator[list[AiWorkers]]:
    """Pools made by a test; closed after it, whatever happened."""
    made: list[AiWorkers] = []
    yield made
    for pool in made:
        pool.close()


def _pool(pools: list[AiWorkers], decide_fn: Any, **kw: Any) -> AiWorkers:
    pool = AiWorkers(1, decide_fn=decide_fn, **kw)
    pools.append(pool)
    return pool


@pytest.fixture
async def game_service(storage: Storage, clock: FakeClock) -> AsyncIterator[GameService]:
    service = GameService(storage, clock=clock, seed_source=lambda: 11)
    yield service
    await service.close()


async def _hard_game(service: GameService) -> int:
    """A lobby on Paris: the host and one hard AI seat."""
    gid = await lobby(service, map_id=MAP, users=(HOST,))
    await service.add_ai(gid, HOST, level="hard")
    return gid


async def _ai_actions(storage: Storage, game_id: int) -> list[dict[str, object]]:
    return [a.action for a in await storage.actions(game_id) if a.source != "player"]


async def _sound(storage: Storage) -> None:
    checked, problems = await verify_storage(storage)
    assert checked >= 1 and problems == []


async def test_a_worker_decides_as_the_bot_process_would(
    game_service: GameService, storage: Storage, pools: list[AiWorkers]
) -> None:
    """The hard AI seat's moves come from a worker, and they are the moves the same AI makes
    in this process: a game's stored log replays, and each AI action equals what
    choose_action gives for the state it was made in."""
    workers = game_service.ai_workers = _pool(pools, faults.cheap)
    gid = await _hard_game(game_service)
    await game_service.start(gid, HOST)
    for _ in range(6):
        await play_for(game_service, storage, gid, HOST)
    assert workers.decisions >= 4
    assert workers.pids() and os.getpid() not in workers.pids()
    rules = load_ruleset(MAP)
    player = HardPlayer(iterations=faults.ITERATIONS, time_cap_s=1e9)
    st = await state_of(storage, gid)
    log = await storage.actions(gid)
    game = await storage.get_game(gid)
    assert game is not None and game.seed is not None
    replayed = new_game(rules, seats=2, seed=game.seed, options=game.options)
    for row in log:
        if row.source != "player":
            mine = choose_action(rules, replayed, row.seat, "hard", player=player)
            assert encode_action(mine) == row.action
        replayed = apply(rules, replayed, decode_action(row.action)).state
    assert replayed == st
    await _sound(storage)


async def test_a_worker_killed_during_a_decision_costs_nothing(
    game_service: GameService, storage: Storage, pools: list[AiWorkers], marker: Path
) -> None:
    """SIGKILL the worker while it decides the AI seat's tickets at the start: the decision is
    asked again of a fresh worker, the start completes, and the AI's choice is stored once."""
    workers = game_service.ai_workers = _pool(pools, faults.hangs_first)
    gid = await _hard_game(game_service)
    starting = asyncio.create_task(game_service.start(gid, HOST))
    for _ in range(600):
        if (marker / "pid").exists():
            break
        await asyncio.sleep(0.05)
    pid = int((marker / "pid").read_text())
    os.kill(pid, signal.SIGKILL)
    outcome = await asyncio.wait_for(starting, 120)
    assert outcome.actions == 1  # the AI seat's tickets
    assert len(await _ai_actions(storage, gid)) == 1
    assert workers.pools_started == 2 and pid not in workers.pids()
    game = await storage.get_game(gid)
    assert game is not None and game.version == 1
    await _sound(storage)


async def test_when_no_worker_can_decide_nothing_is_stored(
    game_service: GameService,
    storage: Storage,
    pools: list[AiWorkers],
    marker: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A player's move whose AI reply cannot be decided (the worker and its replacement die) is
    refused with AiWorkerError and nothing is written; sent again when a worker can decide,
    it is stored once with the reply."""
    good = _pool(pools, faults.cheap)
    game_service.ai_workers = good
    gid = await _hard_game(game_service)
    await game_service.start(gid, HOST)
    await play_for(game_service, storage, gid, HOST)  # the host's tickets
    game_service.ai_workers = _pool(pools, faults.dies)
    rules = load_ruleset(MAP)
    for _ in range(10):  # the host's moves until one ends the turn and needs the AI's reply
        before = await storage.get_game(gid)
        assert before is not None
        move = choose_action(rules, await state_of(storage, gid), 0)
        try:
            await game_service.act(gid, HOST, move, expected_version=before.version)
        except AiWorkerError:
            break
    else:
        raise AssertionError("no move of the host needed the AI's reply")
    assert len(list(marker.glob("died-*"))) == 2
    after = await storage.get_game(gid)
    assert after is not None and after.version == before.version
    game_service.ai_workers = good
    outcome = await game_service.act(gid, HOST, move, expected_version=before.version)
    assert outcome.actions >= 2  # the move and the AI's reply, in one transaction
    log = await storage.actions(gid)
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    await _sound(storage)


async def test_a_due_ai_turn_without_a_worker_is_retried_by_the_clock(
    storage: Storage,
    clock: FakeClock,
    pools: list[AiWorkers],
    marker: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An AI turn due on the clock whose worker dies twice: one warning (no traceback), nothing
    stored, the timer a minute later; then it is played once."""
    service = GameService(storage, clock=clock, seed_source=lambda: 11, auto_ai=False)
    try:
        service.ai_workers = _pool(pools, faults.cheap)
        gid = await _hard_game(service)
        await service.start(gid, HOST)
        await play_for(service, storage, gid, HOST)
        service.auto_ai = True
        service.ai_workers = _pool(pools, faults.dies)
        before = await storage.get_game(gid)
        assert before is not None
        await storage.set_deadline(gid, clock.now, None, expected_version=before.version)
        done = await service.run_due()
        assert done == []
        assert any("found no AI worker" in r.getMessage() for r in caplog.records)
        assert not any(r.exc_info for r in caplog.records if r.name.startswith("bot."))
        after = await storage.get_game(gid)
        assert after is not None and after.version == before.version
        assert after.deadline_at == pytest.approx(clock.now + 60)
        service.ai_workers = _pool(pools, faults.cheap)
        clock.advance(61)
        done = await service.run_due()
        assert len(done) == 1
        after = await storage.get_game(gid)
        assert after is not None and after.version > before.version
        await _sound(storage)
    finally:
        await service.close()


def test_a_worker_over_its_ceiling_is_replaced(pools: list[AiWorkers]) -> None:
    """A worker above ``max_mb`` after a decision is replaced: each decision here comes from a
    new process, and the answers stay those of the AI."""
    workers = _pool(pools, faults.cheap, max_mb=1.0)
    rules = load_ruleset(MAP)
    st = new_game(rules, seats=2, seed=3)
    player = HardPlayer(iterations=faults.ITERATIONS, time_cap_s=1e9)
    seen: set[int] = set()
    for seat in (0, 1, 0):
        action = workers.choose(MAP, st, seat, "hard")
        assert action == choose_action(rules, st, seat, "hard", player=player)
        seen.update(workers.pids())
    assert workers.pools_started == 4  # the first, and one after each decision
    assert len(seen) >= 3


def test_a_wedged_worker_is_killed(pools: list[AiWorkers], marker: Path) -> None:
    """A decision that outlasts the timeout kills the worker; twice gives AiWorkerError."""
    workers = _pool(pools, faults.stalls, timeout_s=3.0)
    st = new_game(load_ruleset(MAP), seats=2, seed=3)
    with pytest.raises(AiWorkerError):
        workers.choose(MAP, st, 0, "hard")
    assert workers.pools_started == 3


def test_without_worker_processes_the_bot_decides_itself(
    pools: list[AiWorkers], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Where no process can be started (no sem_open in a locked-down container), the decision
    is made in the calling thread, as without workers, and the log says so once."""
    import bot.host.ai_workers as module

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("this platform lacks a functioning sem_open")

    monkeypatch.setattr(module, "ProcessPoolExecutor", refuse)
    monkeypatch.setitem(module.__dict__, "decide", faults.cheap)
    workers = _pool(pools, faults.dies)
    rules = load_ruleset(MAP)
    st = new_game(rules, seats=2, seed=3)
    player = HardPlayer(iterations=faults.ITERATIONS, time_cap_s=1e9)
    for seat in (0, 1):
        assert workers.choose(MAP, st, seat, "hard") == choose_action(
            rules, st, seat, "hard", player=player
        )
    warnings = [r for r in caplog.records if "cannot start" in r.getMessage()]
    assert len(warnings) == 1 and workers.pools_started == 0


async def test_normal_and_easy_seats_never_wait_for_a_worker(
    game_service: GameService, storage: Storage, pools: list[AiWorkers], marker: Path
) -> None:
    """Only hard seats are decided in the workers: a normal AI seat plays on while every
    worker would die."""
    game_service.ai_workers = _pool(pools, faults.dies)
    gid = await lobby(game_service, map_id=MAP, users=(HOST,), ais=1)
    await game_service.start(gid, HOST)
    for _ in range(4):
        await play_for(game_service, storage, gid, HOST)
    assert list(marker.glob("died-*")) == []
    assert len(await _ai_actions(storage, gid)) >= 2  # its tickets and a move at least


async def test_the_settings_build_the_pool(storage: Storage) -> None:
    """TTR_AI_WORKERS (default 1; 0: none) and TTR_AI_WORKER_MAX_MB reach the service that
    ``python -m bot`` builds; bad values stop the bot with one line."""
    built = []
    for env, pool in (
        ({}, (1, 64.0)),
        ({"TTR_AI_WORKERS": "2", "TTR_AI_WORKER_MAX_MB": "80"}, (2, 80.0)),
        ({"TTR_AI_WORKERS": "0"}, None),
    ):
        service = await build_service(storage, Settings.from_env(env, env_file=None))
        built.append(service)
        workers = service.ai_workers
        assert (None if workers is None else (workers.workers, workers.max_mb)) == pool
        if workers is not None:  # the coach's jobs run in them: no process of its own
            assert isinstance(service.hint_jobs, WorkerJobs) and not service.hint_jobs.background
            assert (
                isinstance(service.analysis_jobs, WorkerJobs) and service.analysis_jobs.background
            )
            assert service.hint_jobs.workers is service.analysis_jobs.workers is workers
            assert workers.pids() == []  # started at the first job, not with the service
        else:  # without AI workers, one process for hints and analyses
            assert isinstance(service.hint_jobs, ProcessJobs)
            assert service.analysis_jobs is service.hint_jobs
    for service in built:  # worker processes must not outlive the test
        await service.close()
    for bad in ({"TTR_AI_WORKERS": "-1"}, {"TTR_AI_WORKERS": "two"}, {"TTR_AI_WORKER_MAX_MB": "0"}):
        with pytest.raises(ValueError, match="TTR_AI_WORKER"):
            Settings.from_env(bad, env_file=None)


def test_the_worker_module_imports_no_engine_until_it_works() -> None:
    """``bot.process.config`` names the pool's defaults without importing the engine (the health check
    imports the settings every minute)."""
    import subprocess
    import sys

    code = "import sys, bot.process.config; print(any(m.startswith('engine') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.fixture(autouse=True)
def _log_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
