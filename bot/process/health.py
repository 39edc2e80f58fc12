"""Whether this bot process is alive and whether it is ready: one small object, one file.

*Alive* (healthy) means the process runs its loop: it has opened its database
and keeps trying to reach Discord. *Ready* means it is connected to Discord's
gateway and answers players. While Discord cannot be reached (at start, or
after the connection was lost) the process is healthy but not ready, with
the reason and the number of failed attempts in a row, so a container is not
restarted in a loop while Discord or the network is down.

:class:`Health` holds that state for the process: the start-up loop
(:mod:`bot.discord_app.connect`) and the client (:mod:`bot.discord_app.client`) change it, and it
writes it to the heartbeat file (``TTR_HEARTBEAT_PATH``) on every change and
every :data:`HEARTBEAT_SECONDS`, where ``python -m bot health`` reads it
(:func:`read`). :meth:`Health.snapshot` and the counters are what an HTTP
``/healthz`` endpoint and metrics would serve.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

log = logging.getLogger(__name__)

#: How often the heartbeat file is rewritten (seconds).
HEARTBEAT_SECONDS = 30.0
#: A heartbeat older than this (seconds) means the process is stuck or gone: unhealthy.
HEARTBEAT_MAX_AGE = 180.0


@dataclass(frozen=True, slots=True)
class Readiness:
    """The process's state at one moment.

    Attributes:
        ready: connected to Discord and answering.
        reason: why not ready (empty when ready), one line for an operator.
        since: when this state (ready or not) began, Unix time in seconds.
        attempts: failed attempts to reach Discord in a row (0 once connected).
        connects: successful connections since the process started.
        failures: failed attempts since the process started.
        updated: when this was written, Unix time in seconds.
        stopped: the process has ended (its last word).
    """

    ready: bool
    reason: str
    since: float
    attempts: int = 0
    connects: int = 0
    failures: int = 0
    updated: float = 0.0
    stopped: bool = False

    def to_json(self) -> str:
        """One line of JSON (the heartbeat file's content)."""
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Readiness:
        """Parse :meth:`to_json`'s line. Raises ValueError when it is not one."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("ready"), bool):
            raise ValueError("not a readiness record")
        return cls(
            ready=data["ready"],
            reason=str(data.get("reason", "")),
            since=float(data.get("since", 0.0)),
            attempts=int(data.get("attempts", 0)),
            connects=int(data.get("connects", 0)),
            failures=int(data.get("failures", 0)),
            updated=float(data.get("updated", 0.0)),
            stopped=bool(data.get("stopped", False)),
        )


class Health:
    """The readiness of this process (see the module docstring).

    Args:
        path: the heartbeat file (None: kept in memory only, as in tests).
        clock: Unix time in seconds.
    """

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self._state = Readiness(False, "starting", clock())

    def snapshot(self) -> Readiness:
        """The state now."""
        return replace(self._state, updated=self.clock())

    def ready(self) -> None:
        """Connected to Discord (after READY or a resumed session)."""
        s = self._state
        if not s.ready:
            self._state = replace(
                s, ready=True, reason="", since=self.clock(), attempts=0, connects=s.connects + 1
            )
            log.info("ready: connected to Discord")
            self.beat()

    def not_ready(self, reason: str, *, failed: bool = False) -> None:
        """Not (or no longer) connected, for ``reason``; ``failed``: an attempt to reach
        Discord failed (counted)."""
        s = self._state
        since = s.since if not s.ready else self.clock()
        self._state = replace(
            s,
            ready=False,
            reason=reason,
            since=since,
            attempts=s.attempts + int(failed),
            failures=s.failures + int(failed),
        )
        self.beat()

    def stopped(self, reason: str = "stopped") -> None:
        """The process ends (a stop signal, or Discord refused it for good)."""
        self._state = replace(self._state, ready=False, reason=reason, stopped=True)
        self.beat()

    def beat(self) -> None:
        """Write the state to the heartbeat file (atomically; a failure is logged)."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
            tmp.write_text(self.snapshot().to_json() + "\n", encoding="utf-8")
            tmp.replace(self.path)
        except OSError as exc:
            log.warning("cannot write the heartbeat file %s: %s", self.path, exc)

    async def keep_beating(self, every: float = HEARTBEAT_SECONDS) -> None:
        """Rewrite the heartbeat file every ``every`` seconds until cancelled."""
        while True:
            self.beat()
            await asyncio.sleep(every)


def read(path: Path, *, now: float | None = None) -> tuple[Readiness | None, float | None]:
    """``(state, age in seconds)`` from the heartbeat file; ``(None, None)`` when there is none.
    A file from before this format (a bare timestamp) reads as ready."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
        text = path.read_text(encoding="utf-8").strip()
    except OSError:
        return None, None
    try:
        return Readiness.from_json(text), age
    except ValueError:
        return Readiness(True, "", 0.0), age
