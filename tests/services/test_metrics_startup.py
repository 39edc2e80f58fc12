"""``/metrics`` and ``/healthz`` of the real process: with ``TTR_METRICS_PORT``
set and Discord unreachable (a closed port, or the fake Discord refusing the gateway), both answer
within 20 s of the start (503, the reason, the failed attempts counted), SIGTERM still ends the
process with exit code 0, and the log has no traceback. A database that cannot be opened, or a
port that is taken, is one line and exit code 2, and the port is left free."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from ..e2e.fake_discord import FakeDiscord
from .test_discord_startup import _env as startup_env
from .test_discord_startup import _process

#: The issue's bound: both paths answer within this many seconds of the start.
ANSWER_WITHIN = 20.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(tmp_path: Path, api: str, gateway: str, port: int) -> dict[str, str]:
    """The start-up tests' environment, with the metrics on ``port`` of this machine."""
    env = startup_env(tmp_path, api, gateway)
    env.update(TTR_METRICS_PORT=str(port), TTR_METRICS_HOST="127.0.0.1")
    return env


def _samples(text: str) -> dict[str, float]:
    return {
        s.name + "".join(f"{{{k}={v}}}" for k, v in sorted(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def _get(http: aiohttp.ClientSession, path: str) -> tuple[int, str] | None:
    """``(status, body)``, or None while nothing listens."""
    try:
        async with http.get(path, timeout=aiohttp.ClientTimeout(total=2)) as r:
            return r.status, await r.text()
    except (aiohttp.ClientConnectionError, TimeoutError):
        return None


@pytest.mark.parametrize("discord", ["closed port", "gateway refused"])
async def test_metrics_and_healthz_answer_while_discord_is_unreachable(
    tmp_path: Path, discord: str
) -> None:
    port = _free_port()
    log = tmp_path / "out.log"
    async with FakeDiscord(member_names=("alice",)) as fake:
        if discord == "closed port":
            closed = _free_port()
            api, gateway = f"http://127.0.0.1:{closed}/api/v10", f"ws://127.0.0.1:{closed}/"
        else:  # the REST API answers (login works), the gateway's handshake is refused
            fake.fail("GET", r"/gateway", 503, times=1000)
            api, gateway = fake.api_base, fake.gateway_url
        started = time.monotonic()
        async with (
            _process(_env(tmp_path, api, gateway, port), log) as proc,
            aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http,
        ):
            health = page = None
            while health is None or page is None:
                assert proc.returncode is None, log.read_text()[-3000:]
                assert time.monotonic() - started < ANSWER_WITHIN, log.read_text()[-3000:]
                health = health or await _get(http, "/healthz")
                page = page or await _get(http, "/metrics")
                await asyncio.sleep(0.05)
            answered = time.monotonic() - started
            assert health[0] == 503 and json.loads(health[1])["ready"] is False
            assert page[0] == 200 and "ttr_ready 0.0" in page[1]

            # the failed attempts show in both answers once the first one failed
            while True:
                got = await _get(http, "/healthz")
                assert got is not None
                state = json.loads(got[1])
                if state["attempts"] >= 2:
                    break
                assert time.monotonic() - started < 60, log.read_text()[-3000:]
                await asyncio.sleep(0.1)
            assert got[0] == 503 and state["reason"].startswith("cannot reach Discord"), state
            got = await _get(http, "/metrics")
            assert got is not None
            values = _samples(got[1])
            assert values["ttr_discord_reconnects_total{reason=unreachable}"] >= 2
            assert values["ttr_discord_failed_attempts"] >= 2 and values["ttr_ready"] == 0
            assert values["ttr_games{status=active}"] == 0  # the database is open and counted
            proc.send_signal(signal.SIGTERM)
            # within Docker's default grace of 10 s (it took 9-21 s while the exit waited for
            # every client's warm-up of the board images; now 0.3-1.8 s on a busy machine)
            assert await asyncio.wait_for(proc.wait(), 10) == 0
            assert await _get(http, "/healthz") is None  # nothing listens after the stop
    out = log.read_text()
    assert "Traceback" not in out, out
    assert f"serving /metrics and /healthz on port {port}" in out
    print(f"/metrics and /healthz answered {answered:.2f} s after the start ({discord})")


@pytest.mark.parametrize("problem", ["database is a directory", "port taken"])
async def test_start_up_problems_are_one_line_and_exit_2(tmp_path: Path, problem: str) -> None:
    """The server is up while the database opens; when the database cannot be opened the
    process stops (one line, exit 2) and the port is free again. A taken port: the same."""
    port = _free_port()
    closed = _free_port()
    env = _env(tmp_path, f"http://127.0.0.1:{closed}/api/v10", f"ws://127.0.0.1:{closed}/", port)
    log = tmp_path / "out.log"
    holder = socket.socket()
    try:
        if problem == "database is a directory":
            (tmp_path / "ttr.sqlite3").mkdir()
            expected = "ttr.sqlite3: it is a directory, not a database file"
        else:
            holder.bind(("127.0.0.1", port))
            holder.listen()
            expected = f"cannot serve /metrics on 127.0.0.1:{port}"
        async with _process(env, log) as proc:
            assert await asyncio.wait_for(proc.wait(), 30) == 2
    finally:
        holder.close()
    out = log.read_text()
    assert "Traceback" not in out and expected in out, out
    stderr_lines = [line for line in out.splitlines() if " INFO " not in line]
    assert len(stderr_lines) == 1, out
    with socket.socket() as again:
        again.bind(("127.0.0.1", port))  # released
