"""``python -m bot [run]`` (the bot, the default command) and ``python -m bot health [--ready]``
(the container's health check); the work is :mod:`bot.process.run`'s.

Both read the settings from the environment (and ``.env``); a setting that does not parse is
one line and exit code 2. With ``TTR_ON_CONFIG_ERROR=wait`` (set by the container image; the
default is ``exit``) a configuration error does not end ``run``: the process stays up, idle and
unhealthy, and says why every 10 minutes, so a restart policy does not loop
(:func:`bot.process.run.wait_for_operator`; docs/operators/container.md)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ._common import CommandError

if TYPE_CHECKING:
    from bot.process.config import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``run`` and ``health`` to ``python -m bot``."""
    run = commands.add_parser(
        "run",
        help="run the bot until it is stopped (the default command)",
        description="Run the bot until SIGTERM or SIGINT (settings: environment or .env).",
    )
    run.set_defaults(handler=run_command)
    health = commands.add_parser(
        "health",
        help="the container's health check: the database opens, the heartbeat is recent",
        description="Exit 0 when the database opens and the running bot's heartbeat is recent.",
    )
    health.add_argument(
        "--ready", action="store_true", help="also exit 1 while the bot is not connected"
    )
    health.set_defaults(handler=health_command)


def _settings() -> Settings:
    from bot.process.config import Settings

    try:
        return Settings.from_env()
    except ValueError as exc:
        raise CommandError(f"bad setting: {exc}") from None


def waits_on_config_error(environ: Mapping[str, str] | None = None) -> bool:
    """``TTR_ON_CONFIG_ERROR`` (from the environment only, so that it holds when the other
    settings do not parse): ``wait`` is True, ``exit`` (the default) False.

    Raises:
        CommandError: any other value.
    """
    raw = (os.environ if environ is None else environ).get("TTR_ON_CONFIG_ERROR", "")
    value = raw.strip().lower() or "exit"
    if value not in ("exit", "wait"):
        raise CommandError(f"bad setting: TTR_ON_CONFIG_ERROR must be exit or wait, got {raw!r}")
    return value == "wait"


def run_command(args: argparse.Namespace) -> int:
    """Run the bot (:func:`bot.process.run.run`); its exit code. A setting that does not parse waits
    for the operator instead with ``TTR_ON_CONFIG_ERROR=wait``."""
    from bot.process.run import run, wait_for_operator

    wait = waits_on_config_error()
    try:
        settings = _settings()
    except CommandError as exc:
        if not wait:
            raise
        return wait_for_operator(str(exc), None)
    return run(settings, wait_on_config_error=wait)


def health_command(args: argparse.Namespace) -> int:
    """The health check (:func:`bot.process.run.health`); its exit code."""
    from bot.process.run import health

    return health(_settings(), ready=args.ready)
