"""``/metrics`` and ``/healthz`` over HTTP, served on the bot's own event loop.

With ``TTR_METRICS_PORT`` set, ``python -m bot run`` starts this server first
thing, before it opens the database and long before Discord answers, and
stops it last:

- ``GET /metrics``: the Prometheus text format of :data:`bot.process.metrics.REGISTRY`
  (``prometheus_client``'s own aiohttp handler: content negotiation, gzip).
  Before answering it reads the readiness (``ttr_ready``,
  ``ttr_discord_failed_attempts``) and, at most every
  :data:`GAMES_EVERY` seconds, the number of games by status from the
  database (``ttr_games``; left as it was when the database does not answer
  within :data:`GAMES_TIMEOUT`).
- ``GET /healthz``: 200 while connected to Discord and answering, else 503;
  the body is the readiness as one JSON object (``ready``, ``reason``,
  ``attempts`` in a row, ``connects``, ``failures``, ``since``, ``stopped``: see
  :class:`bot.process.health.Readiness`), so ``reason`` says why not ready
  (``starting``, ``cannot reach Discord: ...``). Any answer at all means the
  process and its event loop are alive.

Why aiohttp on the event loop rather than ``prometheus_client``'s server in a
thread: aiohttp is already installed (discord.py runs on it); one server
answers both paths with real status codes; the games count can await the
database's async driver; it starts and stops with ``asyncio.run`` with no
thread to manage; and an answer proves the loop itself is responsive (a
thread would keep answering ``/healthz`` while the loop that answers players
is stuck). Nothing in it waits on the loop: ``/healthz`` is a snapshot; the
games count awaits the database driver (SQLite's thread, PostgreSQL's server)
at most every :data:`GAMES_EVERY` seconds with a timeout; ``/metrics`` formats
its text (about 270 lines, 15 KB; at most about 770 if Discord refused with
every possible status) on the loop, measured at 3 ms (7 ms at most) on a
loaded 2-core machine, once per scrape (Prometheus: every 15 s). A thread would
not spare the loop that time (the formatting holds the GIL), and the label sets
are fixed, so it cannot grow with the number of games or players.

While it runs, a small task measures how late the loop wakes a sleeping task
(``ttr_event_loop_lag_seconds``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from . import metrics
from .health import Health
from .logs import describe

log = logging.getLogger(__name__)

#: The games count is read from the database at most this often (seconds).
GAMES_EVERY = 5.0
#: ... and given up after this long (seconds): the last numbers stay.
GAMES_TIMEOUT = 5.0
#: How often the event loop's lag is sampled (seconds).
LAG_EVERY = 1.0


class MetricsServer:
    """The HTTP server of ``/metrics`` and ``/healthz`` (see the module docstring).

    Args:
        health: the process's readiness.
        host: the address to listen on (``0.0.0.0``, ``127.0.0.1``, ``::``).
        port: the port (0: any free port, see :attr:`port` after :meth:`start`).
        clock: monotonic seconds (when the games were last counted).
    """

    def __init__(
        self,
        health: Health,
        host: str,
        port: int,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.health = health
        self.host = host
        self.port = port
        self.clock = clock
        self._storage: Any = None
        self._counted_at: float | None = None
        self._counting_failed = False
        self._runner: web.AppRunner | None = None
        self._lag: asyncio.Task[None] | None = None
        self._export = make_aiohttp_handler(metrics.REGISTRY)

    def watch(self, storage: Any) -> None:
        """Count the games of ``storage`` (an open :class:`~bot.host.storage.Storage`) from now on;
        None stops counting (before the storage is closed)."""
        self._storage = storage
        self._counted_at = None

    async def start(self) -> None:
        """Listen on ``host:port``. Raises OSError when it cannot (the port is taken, the
        address is not this machine's, no permission)."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        self._lag = asyncio.create_task(self._measure_lag(), name="ttr-loop-lag")

    async def close(self) -> None:
        """Stop listening (idempotent)."""
        lag, self._lag = self._lag, None
        if lag is not None:
            lag.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await lag
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        state = self.health.snapshot()
        ok = state.ready and not state.stopped
        return web.Response(
            status=200 if ok else 503,
            text=state.to_json() + "\n",
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    async def _metrics(self, request: web.Request) -> web.StreamResponse:
        state = self.health.snapshot()
        metrics.READY.set(1 if state.ready and not state.stopped else 0)
        metrics.FAILED_ATTEMPTS.set(state.attempts)
        await self._count_games()
        return await self._export(request)

    async def _count_games(self) -> None:
        storage = self._storage
        now = self.clock()
        if storage is None or (
            self._counted_at is not None and now - self._counted_at < GAMES_EVERY
        ):
            return
        self._counted_at = now
        try:
            counts = await asyncio.wait_for(storage.game_counts(), GAMES_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - the last numbers stay; said once per outage
            if not self._counting_failed:
                log.warning("cannot count the games for /metrics: %s", describe(exc))
            self._counting_failed = True
            return
        self._counting_failed = False
        for status in metrics.GAME_STATUSES:
            metrics.GAMES.labels(status).set(counts.get(status, 0))

    async def _measure_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_EVERY)
            metrics.LOOP_LAG_SECONDS.observe(max(0.0, loop.time() - before - LAG_EVERY))


__all__ = ["GAMES_EVERY", "GAMES_TIMEOUT", "MetricsServer"]
