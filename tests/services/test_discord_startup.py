"""A start that waits for Discord (issue 28 point 3): ``python -m bot run`` when Discord cannot be
reached (connection refused, DNS failure, 5xx from the gateway, a connection lost later) logs one
line per attempt, waits capped, jittered, growing delays, is healthy but not ready meanwhile,
stops cleanly on SIGTERM; a rejected token is one line and exit code 2, with no retry."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.discord_app.connect import Backoff, classify
from bot.process.health import Health, Readiness
from bot.process.health import read as read_heartbeat

from ..e2e.fake_discord import BotProcess, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
ATTEMPT = re.compile(
    r"(cannot reach Discord|the connection to Discord was lost) \(attempt (\d+): (.*)\); "
    r"trying again in ([0-9.]+) s"
)


def _env(tmp_path: Path, api: str, gateway: str) -> dict[str, str]:
    return {
        **os.environ,
        "DISCORD_TOKEN": "x",
        "DISCORD_API_BASE": api,
        "DISCORD_GATEWAY_URL": gateway,
        "TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"),
        "TTR_HEARTBEAT_PATH": str(tmp_path / "beat"),
        "TTR_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }


@asynccontextmanager
async def _process(env: dict[str, str], log: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stdout=out, stderr=out
        )
        try:
            yield proc
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def _attempts(log: Path, count: int, timeout: float = 60.0) -> list[re.Match[str]]:
    """The first ``count`` attempt lines of the process's output (waits for them)."""
    deadline = time.monotonic() + timeout
    while True:
        found = [m for line in log.read_text().splitlines() if (m := ATTEMPT.search(line))]
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        await asyncio.sleep(0.05)


def _check_waits(found: list[re.Match[str]]) -> None:
    """Attempt n waits between half and all of min(60, 2**(n-1)) seconds."""
    for n, m in enumerate(found, start=1):
        assert int(m.group(2)) == n, [x.group(0) for x in found]
        ceiling = min(60.0, 2.0 ** (n - 1))
        assert ceiling / 2 - 0.05 <= float(m.group(4)) <= ceiling + 0.05, m.group(0)


async def _health(tmp_path: Path, *args: str) -> tuple[int, str]:
    """``python -m bot health`` (the container's HEALTHCHECK): exit code and output."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        *args,
        cwd=ROOT,
        env=_env(tmp_path, "http://127.0.0.1:1/api/v10", "ws://127.0.0.1:1/"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return await proc.wait(), out.decode().strip()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("where", ["connection refused", "DNS failure"])
async def test_start_without_discord_retries_then_stops_on_sigterm(
    tmp_path: Path, where: str
) -> None:
    """One line per attempt, growing jittered waits, healthy but not ready meanwhile (the
    heartbeat file says why), exit 0 on SIGTERM, never a traceback."""
    if where == "connection refused":
        port = _closed_port()
        api, gateway = f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/gateway"
    else:
        api, gateway = "http://discord.invalid/api/v10", "ws://gateway.discord.invalid/"
    log = tmp_path / "out.log"
    async with _process(_env(tmp_path, api, gateway), log) as proc:
        found = await _attempts(log, 3)
        _check_waits(found)
        state, age = read_heartbeat(tmp_path / "beat")
        assert state is not None and not state.ready and age is not None and age < 60
        assert state.attempts >= 3 and "cannot reach Discord" in state.reason
        code, said = await _health(tmp_path)
        assert code == 0 and "healthy, not ready: cannot reach Discord" in said, said
        code, said = await _health(tmp_path, "--ready")
        assert code == 1 and said.startswith("not ready: cannot reach Discord"), said
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
    out = log.read_text()
    assert "Traceback" not in out, out
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if ATTEMPT.search(line))
    others = [line for line in lines[first:] if not ATTEMPT.search(line)]
    assert [line.split(": ", 1)[-1] for line in others] == ["stopping"], others
    noisy = [
        line
        for line in out.splitlines()
        if (" WARNING " in line or " ERROR " in line)
        and not ATTEMPT.search(line)
        and "is not installed, voice will NOT be supported" not in line
    ]
    assert not noisy, noisy
    if where == "DNS failure":
        assert "DNS" in found[0].group(3) or "Name or service" in found[0].group(3), found[0]
    else:
        assert "Connect" in found[0].group(3), found[0]
    state, _ = read_heartbeat(tmp_path / "beat")
    assert state is not None and state.stopped and state.reason == "stopped"
    code, said = await _health(tmp_path)
    assert code == 1 and said == "unhealthy: the bot has stopped (stopped)", said


async def test_gateway_5xx_then_connected_then_lost_and_back(tmp_path: Path) -> None:
    """503 from the gateway twice: two attempt lines, then connected and ready. Later the
    connection is lost and the gateway refuses once: one line, and it comes back."""
    async with FakeDiscord(member_names=("alice",)) as fake:
        fake.fail("GET", r"/gateway", 503, times=2)
        env = {
            "TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"),
            "TTR_HEARTBEAT_PATH": str(tmp_path / "beat"),
        }
        bot = BotProcess(fake, [sys.executable, "-m", "bot", "run"], env=env, cwd=str(ROOT))
        try:
            await bot.start(timeout=60)
            found = [m for line in bot.output().splitlines() if (m := ATTEMPT.search(line))]
            assert len(found) == 2 and "503" in found[0].group(3), bot.output()[-3000:]
            _check_waits(found)
            await fake.wait_for_commands("ttr new", timeout=30)
            deadline = time.monotonic() + 30
            while not (read_heartbeat(tmp_path / "beat")[0] or Readiness(False, "", 0)).ready:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            before = fake.identify_count
            fake.fail("GET", r"/gateway", 503, times=1)
            await fake.drop_gateway(4000)
            await fake.wait_for_identify(after=before, timeout=60)
            out = bot.output()
            lost = [m for line in out.splitlines() if (m := ATTEMPT.search(line))][2:]
            assert len(lost) == 1 and lost[0].group(1) == "the connection to Discord was lost"
            assert lost[0].group(2) == "1", lost[0].group(0)  # a new outage starts the waits again
            assert "Traceback" not in out, out[-3000:]
        finally:
            await bot.close()


async def test_rejected_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """401 at login: one line naming the token, exit code 2, the login tried once."""
    async with FakeDiscord(member_names=("alice",)) as fake:
        fake.fail("GET", r"/users/@me", 401, 0, times=5, message="Unauthorized")
        log = tmp_path / "out.log"
        env = _env(tmp_path, fake.api_base, fake.gateway_url)
        async with _process(env, log) as proc:
            assert await asyncio.wait_for(proc.wait(), 60) == 2
        out = log.read_text()
        assert "Traceback" not in out and not ATTEMPT.search(out), out
        lines = [line for line in out.splitlines() if " ERROR " in line or " WARNING " in line]
        lines = [line for line in lines if "voice will NOT be supported" not in line]
        assert len(lines) == 1 and "Discord rejected the token (401 Unauthorized)" in lines[0], out
        assert sum("/users/@me -> 401" in r for r in fake.requests) == 1


def test_backoff_is_capped_exponential_with_jitter() -> None:
    lows = Backoff(first=1.0, cap=60.0, rng=lambda a, b: a)
    highs = Backoff(first=1.0, cap=60.0, rng=lambda a, b: b)
    assert [lows.next() for _ in range(9)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]
    assert [highs.next() for _ in range(9)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    highs.reset()
    assert highs.next() == 1


def test_classify() -> None:
    import aiohttp
    import discord

    assert classify(ConnectionRefusedError()) == "retry"
    assert classify(aiohttp.ClientConnectionError()) == "retry"
    assert classify(TimeoutError()) == "retry"
    assert classify(discord.LoginFailure("x")) == "fatal"
    assert classify(ValueError("a bug")) == "bug"


def test_health_object(tmp_path: Path) -> None:
    """Not ready while starting and after failures (counted), ready once connected; every
    change is in the heartbeat file at once."""
    now = [1000.0]
    h = Health(tmp_path / "beat", clock=lambda: now[0])
    assert not h.snapshot().ready and h.snapshot().reason == "starting"
    h.not_ready("cannot reach Discord: x", failed=True)
    h.not_ready("cannot reach Discord: y", failed=True)
    state, _ = read_heartbeat(tmp_path / "beat")
    assert state is not None and (state.ready, state.attempts, state.failures) == (False, 2, 2)
    now[0] = 1005.0
    h.ready()
    state, _ = read_heartbeat(tmp_path / "beat")
    assert state is not None and state.ready and state.attempts == 0 and state.connects == 1
    assert state.since == 1005.0 and state.failures == 2
