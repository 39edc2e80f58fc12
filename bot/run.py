"""Process entry points: ``run`` (the bot) and ``health`` (the Docker HEALTHCHECK).

Logs go to stderr, one line per record: time, level, shards of this process,
the game a line is about (``game=-`` when none), logger and message; with
``TTR_LOG_FORMAT=json`` each line is a JSON object with the same fields, for a
log service. Nothing private at any level: see :mod:`bot.logs`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import signal
import sys
import time
from typing import IO, Any

from .config import Settings
from .logs import GameContext, JsonFormatter, install

log = logging.getLogger(__name__)

__all__ = ["GameContext", "JsonFormatter", "configure_logging", "health", "run"]

#: The heartbeat must be younger than this for ``health`` to pass.
HEARTBEAT_MAX_AGE = 180.0


def configure_logging(
    settings: Settings, *, json_lines: bool | None = None, stream: IO[str] | None = None
) -> logging.Handler:
    """Log to stderr (or ``stream``) at the configured level with the shard and game of each
    line, nothing private at any level (see :mod:`bot.logs`)."""
    if json_lines is None:
        json_lines = os.environ.get("TTR_LOG_FORMAT", "").lower() == "json"
    return install(
        settings.log_level, shard=settings.shard_label, json_lines=json_lines, stream=stream
    )


class StartupError(Exception):
    """The bot cannot start; the message is one line for the operator."""


def run(settings: Settings) -> int:
    """Run the bot until it is stopped. Returns the process exit code: 0 after a stop, 2 when it
    cannot start (no DISCORD_TOKEN; a database that cannot be opened: one line, no traceback)."""
    if not settings.token:
        print(
            "DISCORD_TOKEN is not set: put the bot token in the DISCORD_TOKEN environment variable "
            "(or a .env file, see .env.example).",
            file=sys.stderr,
        )
        return 2
    configure_logging(settings)
    if settings.maps_dir is not None:
        os.environ.setdefault("TTR_MAPS_DIR", str(settings.maps_dir))
    try:
        asyncio.run(_serve(settings))
    except KeyboardInterrupt:
        pass
    except StartupError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    return 0


async def build_service(storage: Any, settings: Settings) -> Any:
    """The GameService over ``storage``, its timers limited to this process's shards; the timer
    loop starts when the bot is ready (``TtrBot.on_ready``)."""
    from .services import GameService

    return GameService(storage, shards=settings.shards)


async def open_database(settings: Settings) -> Any:
    """Open (and migrate) the configured database.

    Raises:
        StartupError: it cannot be opened (a directory, not a database, no
            permission, the server unreachable, a schema newer than the code).
    """
    from .storage import MigrationError, StorageError, StorageUnavailable, open_storage

    try:
        return await open_storage(settings.database)
    except StorageUnavailable as exc:
        raise StartupError(str(exc)) from None
    except MigrationError as exc:
        raise StartupError(f"the database cannot be used: {exc}") from None
    except StorageError as exc:
        raise StartupError(f"cannot open the database: {exc}") from None


async def _serve(settings: Settings) -> None:
    from .client import create_bot

    storage = await open_database(settings)
    log.info("database %s, shards %s", storage.url, settings.shard_label)
    try:
        service = await build_service(storage, settings)
        bot = create_bot(settings, service)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        async with bot:
            runner = asyncio.create_task(bot.start(settings.token.get()), name="ttr-bot")
            stopper = asyncio.create_task(stop.wait(), name="ttr-stop")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("stopping")
                await bot.close()
            else:
                stopper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runner
        close = getattr(service, "close", None) or getattr(service, "stop", None)
        if close is not None:
            result = close()
            if inspect.isawaitable(result):
                await result
    finally:
        await storage.close()


def health(settings: Settings) -> int:
    """0 when the database opens and the running bot's heartbeat is recent; 1 otherwise (one
    line with the reason on stderr)."""
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
    path = settings.heartbeat_file
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        print(f"unhealthy: no heartbeat file {path}", file=sys.stderr)
        return 1
    if age > HEARTBEAT_MAX_AGE:
        print(f"unhealthy: the heartbeat is {age:.0f} s old", file=sys.stderr)
        return 1
    print("healthy")
    return 0


async def _check_database(settings: Settings) -> None:
    storage = await open_database(settings)
    try:
        problems = await storage.integrity_check()
        if problems != ["ok"]:
            raise RuntimeError("; ".join(problems[:3]))
    finally:
        await storage.close()
