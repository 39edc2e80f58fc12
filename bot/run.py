"""Process entry points: ``run`` (the bot) and ``health`` (the Docker HEALTHCHECK)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import signal
import sys
import time
from typing import Any

from .config import Settings

log = logging.getLogger(__name__)

#: The heartbeat must be younger than this for ``health`` to pass.
HEARTBEAT_MAX_AGE = 180.0


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the configured level; discord.py's own chatter one level quieter."""
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if settings.log_level != "DEBUG":
        logging.getLogger("discord").setLevel(
            max(logging.INFO, logging.getLevelName(settings.log_level))
        )


def run(settings: Settings) -> int:
    """Run the bot until it is stopped. Returns the process exit code (2: no DISCORD_TOKEN)."""
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
    return 0


async def build_service(storage: Any, settings: Settings) -> Any:
    """The GameService over ``storage``; its timer loop starts when the bot is ready (``TtrBot.on_ready``)."""
    from .services import GameService

    return GameService(storage)


async def _serve(settings: Settings) -> None:
    from .client import create_bot
    from .storage import open_storage

    storage = await open_storage(settings.database_path)
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
    """0 when the database opens and the running bot's heartbeat is recent; 1 otherwise (a reason on stderr)."""
    if not settings.database_path.exists():
        print(f"unhealthy: no database at {settings.database_path}", file=sys.stderr)
        return 1
    try:
        asyncio.run(_check_database(settings))
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
    from .storage import open_storage

    storage = await open_storage(settings.database_path)
    try:
        problems = await storage.integrity_check()
        if problems != ["ok"]:
            raise RuntimeError("; ".join(problems[:3]))
    finally:
        await storage.close()
