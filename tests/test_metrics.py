"""The metrics (bot/process/metrics.py) and their HTTP server (bot/process/metrics_server.py), in this process:
bounded labels, the settings, ``/healthz`` from the readiness, ``/metrics`` with the games
counted from a real database, and a port that cannot be served."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.host.storage import open_storage
from bot.process import metrics
from bot.process.config import Settings
from bot.process.health import Health
from bot.process.metrics_server import MetricsServer
from bot.process.run import StartupError, start_metrics
from cogs.ttr._announce import Announcer
from cogs.ttr._base import Base


def test_labels_come_from_fixed_sets() -> None:
    assert metrics.bounded("hard", metrics.AI_LEVELS) == "hard"
    assert metrics.bounded("random", metrics.AI_LEVELS) == "other"
    assert metrics.bounded(123456789012345678, metrics.IMAGE_KINDS) == "other"
    assert metrics.status_label(403) == "403"
    assert [metrics.status_label(s) for s in (0, 99, 600, "403", None)] == ["other"] * 5


def test_actions_are_counted_by_source_with_the_clock_for_timeouts() -> None:
    def value(source: str) -> float:
        return metrics.sample("ttr_actions_total", source=source) or 0.0

    before = {s: value(s) for s in ("player", "ai", "clock", "other")}
    metrics.count_actions(["player", "ai", "ai", "timeout", "forged"])
    after = {s: value(s) for s in before}
    assert {s: after[s] - before[s] for s in before} == {
        "player": 1,
        "ai": 2,
        "clock": 1,
        "other": 1,
    }


def test_timers_and_counters_move() -> None:
    count = "ttr_ai_decision_seconds_count"
    before = metrics.sample(count, level="hard") or 0.0
    with metrics.ai_timer("hard"):
        pass
    assert metrics.sample(count, level="hard") == before + 1
    errors = metrics.sample("ttr_discord_errors_total", status="429") or 0.0
    metrics.discord_error(429)
    assert metrics.sample("ttr_discord_errors_total", status="429") == errors + 1
    lost = metrics.sample("ttr_discord_reconnects_total", reason="lost") or 0.0
    metrics.reconnect("lost")
    assert metrics.sample("ttr_discord_reconnects_total", reason="lost") == lost + 1

    hints = metrics.sample("ttr_hint_seconds_count") or 0.0
    with metrics.hint_timer():
        pass
    assert metrics.sample("ttr_hint_seconds_count") == hints + 1
    analyses = metrics.sample("ttr_analysis_cpu_seconds_count") or 0.0
    cpu = metrics.sample("ttr_analysis_cpu_seconds_sum") or 0.0
    for figure in (12.5, None, "12", True, -1.0):  # only a real number of seconds counts
        metrics.analysis_done(figure)
    assert metrics.sample("ttr_analysis_cpu_seconds_count") == analyses + 1
    assert metrics.sample("ttr_analysis_cpu_seconds_sum") == cpu + 12.5

    @metrics.render_timer("zoom")
    def draw() -> bytes:
        return b"png"

    zooms = metrics.sample("ttr_render_seconds_count", kind="zoom") or 0.0
    assert draw() == b"png"
    assert metrics.sample("ttr_render_seconds_count", kind="zoom") == zooms + 1


def test_settings() -> None:
    plain = Settings.from_env({}, env_file=None)
    assert plain.metrics_port is None and plain.metrics_host == "0.0.0.0"
    s = Settings.from_env(
        {"TTR_METRICS_PORT": "9108", "TTR_METRICS_HOST": "127.0.0.1"}, env_file=None
    )
    assert (s.metrics_port, s.metrics_host) == (9108, "127.0.0.1")
    for bad in ("0", "65536", "http", "-1"):
        with pytest.raises(ValueError, match="TTR_METRICS_PORT must be a port number"):
            Settings.from_env({"TTR_METRICS_PORT": bad}, env_file=None)


@pytest.fixture
async def served() -> AsyncIterator[tuple[MetricsServer, Health, aiohttp.ClientSession]]:
    health = Health()
    server = MetricsServer(health, "127.0.0.1", 0)
    await server.start()
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as http:
            yield server, health, http
    finally:
        await server.close()


async def test_healthz_is_503_with_the_reason_until_ready(
    served: tuple[MetricsServer, Health, aiohttp.ClientSession],
) -> None:
    _, health, http = served
    async with http.get("/healthz") as r:
        assert r.status == 503 and r.content_type == "application/json"
        assert json.loads(await r.text())["reason"] == "starting"
    health.not_ready("cannot reach Discord: ClientConnectorError: refused", failed=True)
    async with http.get("/healthz") as r:
        body = json.loads(await r.text())
        assert r.status == 503 and body["ready"] is False and body["attempts"] == 1
        assert body["reason"].startswith("cannot reach Discord")
    health.ready()
    async with http.get("/healthz") as r:
        assert r.status == 200 and json.loads(await r.text())["ready"] is True
    health.stopped()
    async with http.get("/healthz") as r:
        assert r.status == 503 and json.loads(await r.text())["stopped"] is True
    async with http.get("/nothing") as r:
        assert r.status == 404


async def test_metrics_reads_readiness_and_counts_games(
    served: tuple[MetricsServer, Health, aiohttp.ClientSession], tmp_path: Path
) -> None:
    server, health, http = served

    async def scrape() -> dict[str, float]:
        async with http.get("/metrics") as r:
            assert r.status == 200 and r.content_type == "text/plain"
            text = await r.text()
        return {
            s.name + "".join(f"{{{k}={v}}}" for k, v in sorted(s.labels.items())): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }

    metrics.GAMES.clear()  # the registry is the process's: another test may have counted
    health.not_ready("cannot reach Discord: x", failed=True)
    first = await scrape()
    assert first["ttr_ready"] == 0 and first["ttr_discord_failed_attempts"] == 1
    assert not any(k.startswith("ttr_games{") for k in first), "no count before the database"
    assert "process_resident_memory_bytes" in first

    storage = await open_storage(f"sqlite:///{tmp_path / 'ttr.sqlite3'}")
    try:
        for channel in (1, 2):
            await storage.create_game(guild_id=9, channel_id=channel, host_user_id=3, map_id="usa")
        server.watch(storage)
        health.ready()
        second = await scrape()
        assert second["ttr_ready"] == 1 and second["ttr_discord_failed_attempts"] == 0
        assert second["ttr_games{status=lobby}"] == 2 and second["ttr_games{status=active}"] == 0
        await storage.create_game(guild_id=9, channel_id=3, host_user_id=3, map_id="usa")
        assert (await scrape())["ttr_games{status=lobby}"] == 2, "counted at most every 5 s"
        server._counted_at = -1e9  # as if GAMES_EVERY had passed
        assert (await scrape())["ttr_games{status=lobby}"] == 3
        server.watch(None)
    finally:
        await storage.close()


async def test_a_port_that_cannot_be_served_is_a_startup_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings.from_env(
            {"TTR_METRICS_PORT": str(port), "TTR_METRICS_HOST": "127.0.0.1"}, env_file=None
        )
        with pytest.raises(StartupError, match=rf"cannot serve /metrics on 127.0.0.1:{port}"):
            await start_metrics(settings, Health())
    assert await start_metrics(Settings.from_env({}, env_file=None), Health()) is None


def _refusal(status: int, code: int, message: str) -> discord.HTTPException:
    """What discord.py raises when Discord answers ``status`` (its own exception classes)."""
    response = SimpleNamespace(status=status, reason=message)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(response, {"code": code, "message": message})  # type: ignore[arg-type]


async def test_refused_calls_that_are_not_messages_are_counted_by_status() -> None:
    """An acknowledgement Discord refuses (404: answered after its 3 s) and a user it cannot
    find are counted once each and still reach the caller; a call that succeeds or fails
    without Discord's answer is not counted."""

    class Response:
        def __init__(self, error: Exception | None) -> None:
            self.error = error
            self.deferred = 0

        def is_done(self) -> bool:
            return False

        async def defer(self, **kwargs: object) -> None:
            self.deferred += 1
            if self.error is not None:
                raise self.error

    def refused(status: str) -> float:
        return metrics.sample("ttr_discord_errors_total", status=status) or 0.0

    before = {s: refused(s) for s in ("404", "other")}
    late = Response(_refusal(404, 10062, "Unknown interaction"))
    with pytest.raises(discord.NotFound):
        await Base.defer(SimpleNamespace(response=late))  # type: ignore[arg-type]
    fine = Response(None)
    await Base.defer(SimpleNamespace(response=fine))  # type: ignore[arg-type]
    with pytest.raises(TimeoutError):
        await Base.defer(SimpleNamespace(response=Response(TimeoutError())))  # type: ignore[arg-type]
    assert (late.deferred, fine.deferred) == (1, 1)

    class Client:
        def get_user(self, user_id: int) -> None:
            return None

        async def fetch_user(self, user_id: int) -> None:
            raise _refusal(404, 10013, "Unknown User")

    announcer = Announcer(Client())  # type: ignore[arg-type]
    assert await announcer.direct(1, [12345], "hello") == ()
    assert refused("404") - before["404"] == 2
    assert refused("other") == before["other"]
