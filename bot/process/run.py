"""Process entry points: ``run`` (the bot) and ``health`` (the Docker HEALTHCHECK).

Logs go to stderr, one line per record: time, level, shards of this process,
the game a line is about (``game=-`` when none), logger and message; with
``TTR_LOG_FORMAT=json`` each line is a JSON object with the same fields, for a
log service. Nothing private at any level: see :mod:`bot.process.logs`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import sys
from pathlib import Path
from typing import IO, Any

from bot.cli import stopping

from .config import Settings
from .health import HEARTBEAT_MAX_AGE, Health
from .health import read as read_heartbeat
from .logs import GameContext, JsonFormatter, install
from .malloc import tune_malloc

log = logging.getLogger(__name__)

__all__ = ["GameContext", "JsonFormatter", "configure_logging", "health", "run"]


def configure_logging(
    settings: Settings, *, json_lines: bool | None = None, stream: IO[str] | None = None
) -> logging.Handler:
    """Log to stderr (or ``stream``) at the configured level with the shard and game of each
    line, nothing private at any level (see :mod:`bot.process.logs`)."""
    if json_lines is None:
        json_lines = os.environ.get("TTR_LOG_FORMAT", "").lower() == "json"
    return install(
        settings.log_level, shard=settings.shard_label, json_lines=json_lines, stream=stream
    )


class StartupError(Exception):
    """The bot cannot start; the message is one line for the operator. ``config``: a
    configuration error that no restart fixes (a setting, the token, a port), as opposed to a
    database that may come back."""

    def __init__(self, message: str, *, config: bool = False) -> None:
        super().__init__(message)
        self.config = config


#: How often a bot that waits for its configuration to be fixed says why (seconds).
CONFIG_ERROR_EVERY = 600.0


def run(settings: Settings, *, wait_on_config_error: bool = False) -> int:
    """Run the bot until it is stopped. Returns the process exit code: 0 after a stop
    (SIGTERM, SIGINT), 2 when it cannot start or Discord refuses it for good (no
    DISCORD_TOKEN; a database that cannot be opened; ``TTR_METRICS_PORT`` taken; a
    rejected token: one line, no traceback). While Discord cannot be reached it keeps
    trying (:mod:`bot.discord_app.connect`), serving ``/metrics`` and ``/healthz`` meanwhile.

    ``wait_on_config_error`` (``TTR_ON_CONFIG_ERROR=wait``, the container's choice): a
    configuration error (no token, a token or shard setting Discord refuses, the metrics
    port taken) does not end the process, which would be restarted in a loop, but leaves it
    idle (:func:`wait_for_operator`) until it is stopped (exit code 2 then).

    A stop signal at any moment ends it promptly: while it imports (under
    :mod:`bot.cli.stopping`, which ``python -m bot`` installs first) at once; from the start
    of the event loop on, through the loop's own handlers, after the move being stored is
    committed."""
    if not settings.token:
        missing = (
            "DISCORD_TOKEN is not set: put the bot token in the DISCORD_TOKEN "
            "environment variable (or a .env file, see .env.example)."
        )
        if wait_on_config_error:
            return wait_for_operator(missing, settings.heartbeat_file)
        print(f"ttrbot run: {missing}", file=sys.stderr)
        return 2
    configure_logging(settings)
    tune_malloc()
    if settings.maps_dir is not None:
        os.environ.setdefault("TTR_MAPS_DIR", str(settings.maps_dir))
    _import_the_bot()
    stopping.hold()  # from here on the event loop takes the signals (see _serve)
    try:
        return asyncio.run(_serve(settings, wait_on_config_error))
    except KeyboardInterrupt:
        return 0
    except StartupError as exc:
        if exc.config and wait_on_config_error:
            return wait_for_operator(str(exc), settings.heartbeat_file)
        print(f"ttrbot run: {exc}", file=sys.stderr)
        return 2


def wait_for_operator(
    reason: str, heartbeat: Path | None, *, every: float = CONFIG_ERROR_EVERY
) -> int:
    """Stay idle after a configuration error until a stop signal: say ``reason`` on stderr
    at once and again every ``every`` seconds, and keep the heartbeat file (when there is one)
    fresh and marked stopped with the reason, so that ``python -m bot health`` answers
    ``unhealthy: the bot has stopped (<reason>)``. Returns 2 (it never ran). A container
    restart policy thus sees a running, unhealthy container instead of a loop of exits."""
    stopping.hold()
    return asyncio.run(_wait_for_operator(reason, heartbeat, every))


async def _wait_for_operator(reason: str, heartbeat: Path | None, every: float) -> int:
    stop = _stop_event()
    health = Health(heartbeat) if heartbeat is not None else None
    beating = None
    if health is not None:
        health.stopped(reason)
        beating = asyncio.create_task(health.keep_beating(), name="ttr-heartbeat")
    try:
        while not stop.is_set():
            print(
                f"ttrbot run: {reason.rstrip('.')}; waiting (TTR_ON_CONFIG_ERROR=wait): fix the "
                "configuration and restart",
                file=sys.stderr,
                flush=True,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
    finally:
        if beating is not None:
            beating.cancel()
    return 2


def _stop_event() -> asyncio.Event:
    """An event set by SIGTERM or SIGINT, through the running loop's handlers; already set
    when a stop signal came before the loop started (:mod:`bot.cli.stopping`)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in stopping.STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    if stopping.received() is not None:
        stop.set()
    return stop


def _import_the_bot() -> None:
    """Import the heavy part of the bot (discord.py, the service, the engine, the storage)
    before the event loop starts, so that a stop signal meanwhile ends the start at once."""


async def build_service(storage: Any, settings: Settings) -> Any:
    """The GameService over ``storage``, its timers limited to this process's shards; the timer
    loop (and the queue of post-game analyses and the purge of servers past the retention
    period, ``TTR_GUILD_RETENTION_DAYS``) starts when the bot is ready
    (``TtrBot.on_ready``). The hard AI's decisions, the hints and the analyses are made in
    ``settings.ai_workers`` worker processes (started at the first job; :func:`coach_jobs`),
    so none holds the event loop; a worker is replaced after a job that left it above
    ``settings.ai_worker_max_mb``; ``service.close()`` stops them."""
    from bot.host.ai_workers import AiWorkers
    from bot.host.services import GameService

    workers = AiWorkers.from_settings(settings)
    hint_jobs, analysis_jobs = coach_jobs(settings, workers)
    return GameService(
        storage,
        shards=settings.shards,
        ai_workers=workers,
        hint_jobs=hint_jobs,
        analysis_jobs=analysis_jobs,
        retention_days=settings.guild_retention_days,
    )


def coach_jobs(settings: Settings, workers: Any) -> tuple[Any, Any]:
    """Where the coach's hints and analyses run: ``(hint jobs, analysis jobs)``.

    With AI workers (:class:`bot.host.ai_workers.AiWorkers`), in them: a hint like an AI
    decision, an analysis in slices at a lower priority between them (no
    idle process of the coach's holds memory). With ``TTR_AI_WORKERS=0`` (``workers``
    None), in one spawned process of their own (``ProcessJobs``), replaced after a job
    that left it above ``settings.ai_worker_max_mb``.
    """
    from bot.host.services import ProcessJobs, WorkerJobs

    if workers is None:
        jobs = ProcessJobs(1, max_mb=settings.ai_worker_max_mb)
        return jobs, jobs
    return WorkerJobs(workers), WorkerJobs(workers, background=True)


async def open_database(settings: Settings) -> Any:
    """Open (and migrate) the configured database.

    Raises:
        StartupError: it cannot be opened (a directory, not a database, no
            permission, the server unreachable, a schema newer than the code).
    """
    from bot.host.storage import MigrationError, StorageError, StorageUnavailable, open_storage

    try:
        return await open_storage(settings.database)
    except StorageUnavailable as exc:
        raise StartupError(str(exc)) from None
    except MigrationError as exc:
        raise StartupError(f"the database cannot be used: {exc}") from None
    except StorageError as exc:
        raise StartupError(f"cannot open the database: {exc}") from None


async def start_metrics(settings: Settings, health: Health) -> Any:
    """The ``/metrics`` and ``/healthz`` server (:mod:`bot.process.metrics_server`), listening, or None
    without ``TTR_METRICS_PORT``.

    Raises:
        StartupError: it cannot listen there (the port is taken, an address not of this host).
    """
    if settings.metrics_port is None:
        return None
    from .metrics_server import MetricsServer

    server = MetricsServer(health, settings.metrics_host, settings.metrics_port)
    try:
        await server.start()
    except OSError as exc:
        where = f"{settings.metrics_host}:{settings.metrics_port}"
        raise StartupError(
            f"cannot serve /metrics on {where} (TTR_METRICS_PORT, TTR_METRICS_HOST): "
            f"{exc.strerror or exc}",
            config=True,
        ) from None
    log.info("serving /metrics and /healthz on port %d", server.port)
    return server


async def start_web(settings: Settings, service: Any) -> Any:
    """The live board's server (:mod:`web`) over ``service``, listening, or None without
    ``TTR_WEB_PORT``. It signs and verifies links with ``TTR_WEB_SECRET`` (or a key derived
    from the Discord token, the same in every process: :func:`web.tokens.derive_secret`), and
    serves the Activity's page and sign-in when ``DISCORD_CLIENT_ID`` and
    ``DISCORD_CLIENT_SECRET`` are set (:mod:`web.activity`).

    Raises:
        StartupError: it cannot listen there (the port is taken, an address not of this host).
    """
    if settings.web_port is None:
        return None
    from web import WebApp, WebServer, derive_secret
    from web.activity import ActivityConfig

    secret = derive_secret(settings.web_secret.get(), settings.token.get())
    activity = None
    if settings.activity_enabled and settings.client_id is not None:
        activity = ActivityConfig(
            client_id=settings.client_id,
            client_secret=settings.client_secret.get(),
            bot_token=settings.token.get(),
            api_base=settings.api_base,
        )
    web_app = WebApp(service, secret, activity=activity)
    server = WebServer(web_app, settings.web_host, settings.web_port)
    try:
        await server.start()
    except OSError as exc:
        where = f"{settings.web_host}:{settings.web_port}"
        raise StartupError(
            f"cannot serve the live board on {where} (TTR_WEB_PORT, TTR_WEB_HOST): "
            f"{exc.strerror or exc}",
            config=True,
        ) from None
    log.info("serving the live board on port %d as %s", server.port, settings.web_base)
    return server


async def _serve(settings: Settings, wait_on_config_error: bool = False) -> int:
    """Take the stop signals (a signal noted before the loop started counts), serve /metrics
    and /healthz (with ``TTR_METRICS_PORT``), open the database, then stay connected to
    Discord until a stop signal; the exit code. ``wait_on_config_error``: Discord's refusal
    for good raises a configuration :class:`StartupError` instead of returning 2."""
    stop = _stop_event()
    health = Health(settings.heartbeat_file)
    server = await start_metrics(settings, health)
    try:
        code = await _play(settings, health, server, stop)
    finally:
        if server is not None:
            await server.close()
    if code == 2 and wait_on_config_error:
        raise StartupError(health.snapshot().reason, config=True)
    return code


async def _open_unless_stopped(settings: Settings, stop: asyncio.Event) -> Any:
    """The opened database, or None when a stop came first (a server that does not answer
    can take its whole connect timeout). A database that opens within a second of the stop
    is closed again, so that nothing is left half open."""
    opening = asyncio.create_task(open_database(settings), name="ttr-open-database")
    stopped = asyncio.create_task(stop.wait(), name="ttr-stop")
    await asyncio.wait({opening, stopped}, return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if not stop.is_set():
        return opening.result()
    try:
        storage = await asyncio.wait_for(asyncio.shield(opening), 1.0)
    except (TimeoutError, StartupError):
        opening.cancel()
        return None
    await storage.close()
    return None


async def _play(settings: Settings, health: Health, server: Any, stop: asyncio.Event) -> int:
    """Open the database, then stay connected to Discord until ``stop``; the exit code."""
    from bot.discord_app.client import create_bot
    from bot.discord_app.connect import stay_connected

    storage = await _open_unless_stopped(settings, stop)
    if storage is None:
        log.info("stopping")
        health.stopped("stopped")
        return 0
    log.info("database %s, shards %s", storage.url, settings.shard_label)
    if server is not None:
        server.watch(storage)
    beating = asyncio.create_task(health.keep_beating(), name="ttr-heartbeat")
    try:
        service = await build_service(storage, settings)
        web = await start_web(settings, service)
        try:
            code = await stay_connected(
                lambda: create_bot(settings, service, health=health),
                settings.token.get(),
                health,
                stop,
            )
        finally:
            if web is not None:
                await web.close()
        close = getattr(service, "close", None) or getattr(service, "stop", None)
        if close is not None:
            result = close()
            if inspect.isawaitable(result):
                await result
        return code
    finally:
        beating.cancel()
        health.stopped(health.snapshot().reason if health.snapshot().stopped else "stopped")
        if server is not None:
            server.watch(None)
        await storage.close()


def health(settings: Settings, *, ready: bool = False) -> int:
    """The container's health check: 0 when the database opens and the running process's
    heartbeat is recent (also while it waits for Discord: healthy, not ready); 1 otherwise.
    With ``ready`` it is 1 also while the process is not connected to Discord. One line on
    stdout (healthy) or stderr (with the reason)."""
    path = settings.heartbeat_file
    state, age = read_heartbeat(path)
    if state is not None and state.stopped and age is not None and age <= HEARTBEAT_MAX_AGE:
        # a bot that waits for its configuration to be fixed: its reason comes first
        print(f"unhealthy: the bot has stopped ({state.reason})", file=sys.stderr)
        return 1
    if settings.uses_sqlite and not settings.database_path.exists():
        print(f"unhealthy: no database at {settings.database_path}", file=sys.stderr)
        return 1
    try:
        asyncio.run(_check_database(settings))
    except StartupError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - any failure is unhealthy
        print(
            f"unhealthy: the database does not open: {type(exc).__name__}: {exc}", file=sys.stderr
        )
        return 1
    state, age = read_heartbeat(path)
    if state is None or age is None:
        print(f"unhealthy: no heartbeat file {path}", file=sys.stderr)
        return 1
    if age > HEARTBEAT_MAX_AGE:
        print(f"unhealthy: the heartbeat is {age:.0f} s old", file=sys.stderr)
        return 1
    if state.stopped:
        print(f"unhealthy: the bot has stopped ({state.reason})", file=sys.stderr)
        return 1
    if state.ready:
        print("healthy, ready")
        return 0
    line = f"not ready: {state.reason} ({state.attempts} failed attempts in a row)"
    if ready:
        print(line, file=sys.stderr)
        return 1
    print(f"healthy, {line}")
    return 0


async def _check_database(settings: Settings) -> None:
    storage = await open_database(settings)
    try:
        problems = await storage.integrity_check()
        if problems != ["ok"]:
            raise RuntimeError("; ".join(problems[:3]))
    finally:
        await storage.close()
