"""Staying connected to Discord: wait for it at start, come back after a loss, stop on a signal.

:func:`stay_connected` runs the client until the process is told to stop.
Each attempt builds a fresh client, logs in (REST) and connects to the
gateway. When Discord cannot be reached (connection refused, a DNS failure,
a timeout, a 5xx answer from the API or the gateway, a connection lost
later) it logs ONE line naming the cause and the wait, marks the process
not ready (:mod:`bot.process.health`), and tries again after a capped, jittered,
exponential wait (:class:`Backoff`: 1, 2, 4 ... 60 s, each between half and
all of that). A stop (SIGTERM, SIGINT) ends a wait or an attempt at once.

Discord's refusals that no retry can fix end the process with exit code 2
and one line: a rejected token (401, or the gateway's close code 4004), or
a bad shard or intents setting (4010-4014). discord.py itself still resumes
a session when Discord asks it to reconnect; only a connection that fails
comes back here.

Each new attempt is counted in ``ttr_discord_reconnects_total`` (reason
``unreachable`` or ``lost``; a session discord.py resumed is ``resumed``,
counted by the client).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot.process import metrics
from bot.process.health import Health
from bot.process.logs import describe

log = logging.getLogger(__name__)

#: The first wait and the longest one between attempts (seconds).
FIRST_DELAY = 1.0
MAX_DELAY = 60.0
#: Gateway close codes that no retry can fix (Discord's documentation): 4004 authentication
#: failed, 4010 invalid shard, 4011 sharding required, 4012 invalid API version, 4013 invalid
#: intents, 4014 disallowed intents.
FATAL_CLOSE_CODES = {
    4004: "rejected the token",
    4010: "refused the shard settings",
    4011: "requires sharding (set TTR_SHARD_COUNT)",
    4012: "refused the API version",
    4013: "refused the intents",
    4014: "refused privileged intents",
}


class Fatal(Exception):
    """Discord refused something no retry can fix; the message is one line for the operator."""


class Backoff:
    """Capped exponential waits with jitter: attempt n waits between half and all of
    ``min(cap, first * 2**(n-1))`` seconds (so many processes do not retry in step)."""

    def __init__(
        self,
        first: float = FIRST_DELAY,
        cap: float = MAX_DELAY,
        rng: Callable[[float, float], float] | None = None,
    ) -> None:
        self.first = first
        self.cap = cap
        self.rng = rng or random.uniform
        self.failures = 0

    def next(self) -> float:
        """The wait before the next attempt (seconds); each call counts one failure."""
        self.failures += 1
        ceiling = min(self.cap, self.first * 2 ** (self.failures - 1))
        return self.rng(ceiling / 2, ceiling)

    def reset(self) -> None:
        """A connection succeeded: the next failure waits the first delay again."""
        self.failures = 0


def classify(exc: BaseException) -> str:
    """``"fatal"`` (stop, exit 2), ``"retry"`` (Discord or the network is down) or
    ``"bug"`` (anything else: let it raise)."""
    if isinstance(exc, discord.LoginFailure | discord.PrivilegedIntentsRequired | Fatal):
        return "fatal"
    if isinstance(exc, discord.ConnectionClosed):
        return "fatal" if exc.code in FATAL_CLOSE_CODES else "retry"
    if isinstance(exc, discord.HTTPException):
        return "retry" if exc.status >= 500 or exc.status == 429 else "fatal"
    if isinstance(exc, OSError | aiohttp.ClientError | TimeoutError | discord.GatewayNotFound):
        return "retry"
    return "bug"


def fatal_line(exc: BaseException) -> str:
    """The one line said when Discord refused for good."""
    if isinstance(exc, discord.LoginFailure):
        return "Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused privileged intents this bot does not have"
    if isinstance(exc, discord.ConnectionClosed) and exc.code in FATAL_CLOSE_CODES:
        return f"Discord {FATAL_CLOSE_CODES[exc.code]} (gateway close code {exc.code})"
    if isinstance(exc, discord.HTTPException):
        return f"Discord refused the login: {exc.status} {describe(exc)}"
    return f"Discord refused: {describe(exc)}"


async def _attempt(bot: Any, token: str) -> None:
    """Log in and stay connected until the connection ends (it raises when it fails)."""
    await bot.login(token)
    await bot.connect(reconnect=False)


async def stay_connected(
    make_bot: Callable[[], Any],
    token: str,
    health: Health,
    stop: asyncio.Event,
    *,
    backoff: Backoff | None = None,
) -> int:
    """Run a client from ``make_bot`` until ``stop`` is set (returns 0) or Discord refuses for
    good (one line, returns 2); retries everything else (see the module docstring).
    An unexpected exception (a bug) propagates."""
    backoff = backoff or Backoff()
    while not stop.is_set():
        bot = make_bot()
        connects = health.snapshot().connects
        try:
            async with bot:
                attempt = asyncio.create_task(_attempt(bot, token), name="ttr-discord")
                stopper = asyncio.create_task(stop.wait(), name="ttr-stop")
                done, _ = await asyncio.wait(
                    {attempt, stopper}, return_when=asyncio.FIRST_COMPLETED
                )
                stopper.cancel()
                if attempt not in done:
                    await bot.close()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await attempt
                    break
                attempt.result()  # raises what ended the connection
                cause: BaseException | None = None
        except Exception as exc:  # noqa: BLE001 - sorted by classify(); bugs re-raised
            kind = classify(exc)
            if kind == "bug":
                raise
            if kind == "fatal":
                log.error("%s", fatal_line(exc))
                health.stopped(fatal_line(exc))
                return 2
            cause = exc
        if stop.is_set():
            break
        if health.snapshot().connects > connects:
            backoff.reset()  # it was connected: this is a new outage
        wait = backoff.next()
        lost = health.snapshot().connects > connects
        what = "the connection to Discord was lost" if lost else "cannot reach Discord"
        reason = describe(cause) if cause is not None else "the gateway closed the connection"
        log.warning(
            "%s (attempt %d: %s); trying again in %.1f s", what, backoff.failures, reason, wait
        )
        health.not_ready(f"{what}: {reason}", failed=True)
        metrics.reconnect("lost" if lost else "unreachable")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), wait)
    log.info("stopping")
    return 0
