"""The bot's Prometheus metrics: what is measured, where, and with which (bounded) labels.

Every metric lives in :data:`REGISTRY` (the bot's own registry, so no library's
metrics slip in) and is served at ``/metrics`` when ``TTR_METRICS_PORT`` is set
(:mod:`bot.process.metrics_server`). Each is measured in one central place:

- ``ttr_games{status}``: games in the database by status (lobby, active,
  finished, cancelled, quarantined), counted when scraped (:mod:`bot.process.metrics_server`);
- ``ttr_actions_total{source}``: actions stored, by player, ai or clock (a seat
  whose time ran out), counted after the commit (``bot/host/services/_recording.py``);
- ``ttr_interaction_seconds{kind}``: a slash command, autocomplete or click from
  its arrival to its answer (the command tree :mod:`bot.discord_app.tree`, the click base
  ``cogs/ttr/_clicks.py``);
- ``ttr_ai_decision_seconds{level}``: one AI decision (easy, normal, hard),
  timed where the service waits for it (``bot/host/services/_recording.py``);
- ``ttr_hint_seconds``: one ``/ttr hint`` from asking to the hint ready, a wait
  for a busy worker included (``bot/host/services/_coach.py``);
- ``ttr_analysis_cpu_seconds``: the CPU time of one finished analysis after a
  game, all its slices together (``bot/host/services/_analysis.py``);
- ``ttr_render_seconds{kind}``: one image (board, final, hand, zoom, the map
  of offered tickets, recap, the rating chart of ``/ttr player stats``, the analysis
  chart after a game), timed in the cogs' worker threads that call the renderer
  (``cogs/ttr/_images.py``);
- ``ttr_storage_seconds{operation}``: a read, or a write transaction to its
  commit, in the transaction hooks of both storage backends;
- ``ttr_discord_errors_total{status}``: calls Discord refused, by HTTP
  status: every message, seen by the send funnel (:mod:`bot.discord_app.send`), and the
  other calls that answer players through its ``counted`` (acknowledging an
  interaction, opening a thread, finding a user, syncing the commands);
- ``ttr_discord_reconnects_total{reason}``: unreachable, lost (:mod:`bot.discord_app.connect`),
  resumed (the client);
- ``ttr_ready``, ``ttr_discord_failed_attempts``: from :mod:`bot.process.health` when scraped;
- ``ttr_event_loop_lag_seconds``: how late the event loop wakes (the metrics server).

Plus the client library's ``process_*`` (memory, CPU, open files) and
``python_*`` (garbage collector, version) metrics of this process.

**Bounded and private.** Every label value comes from a fixed set (anything
else is counted as ``other``; an HTTP status is a number from 100 to 599):
never a game, user, guild or channel id, a map, a name or any text a player
typed, so the number of series is fixed and nothing private can appear.
Every label value of the fixed sets exists from the start (at zero), so a
dashboard shows 0 rather than "no data" (``ttr_games`` once the database is
open and counted: never a zero that is not known).

Nothing here imports discord, the engine or the database: the storage and the
service import this module.
"""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, ParamSpec, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.context_managers import Timer
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

P = ParamSpec("P")
T = TypeVar("T")

#: The bot's registry: what ``/metrics`` serves.
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)
# a ``*_created`` series per counter and histogram would double the series for nothing
disable_created_metrics()  # type: ignore[no-untyped-call]  # the library leaves it untyped

#: The label value of anything outside a label's fixed set.
OTHER = "other"
GAME_STATUSES = ("lobby", "active", "finished", "cancelled", "quarantined")
#: Stored action sources -> the label: a seat whose turn timed out is played by the clock.
ACTION_SOURCES = {"player": "player", "ai": "ai", "timeout": "clock"}
INTERACTION_KINDS = ("command", "autocomplete", "component")
AI_LEVELS = ("easy", "normal", "hard", "expert")
IMAGE_KINDS = ("board", "final", "hand", "zoom", "offer", "recap", "chart", "analysis", "phone")
STORAGE_OPERATIONS = ("read", "write")
RECONNECT_REASONS = ("unreachable", "lost", "resumed")

GAMES = Gauge(
    "ttr_games",
    "Games in the database by status (the whole database: every process sharing it reports "
    "the same numbers).",
    ["status"],
    registry=REGISTRY,
)
ACTIONS = Counter(
    "ttr_actions",
    "Game actions stored, by who made them: a player, an AI seat, or the clock (a seat "
    "whose time ran out, played by the AI).",
    ["source"],
    registry=REGISTRY,
)
INTERACTION_SECONDS = Histogram(
    "ttr_interaction_seconds",
    "Time from receiving a slash command, autocomplete or click to having answered it "
    "(seconds; a move includes the AI seats' replies and the storing).",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
AI_DECISION_SECONDS = Histogram(
    "ttr_ai_decision_seconds",
    "Time an AI seat took to choose one action, by level (seconds).",
    ["level"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 5.0, 10.0),
    registry=REGISTRY,
)
HINT_SECONDS = Histogram(
    "ttr_hint_seconds",
    "Time from asking for a hint to the hint ready, a wait for a busy worker included "
    "(seconds; the search itself stops at 1.5 s).",
    buckets=(0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
    registry=REGISTRY,
)
ANALYSIS_CPU_SECONDS = Histogram(
    "ttr_analysis_cpu_seconds",
    "CPU time of one finished analysis after a game, all its slices together (seconds).",
    buckets=(1.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0),
    registry=REGISTRY,
)
RENDER_SECONDS = Histogram(
    "ttr_render_seconds",
    "Time to draw and encode one image, by kind (seconds).",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.0, 5.0),
    registry=REGISTRY,
)
STORAGE_SECONDS = Histogram(
    "ttr_storage_seconds",
    "Time of one storage call, waiting for the connection included: a read, or a write "
    "transaction up to its commit (seconds).",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
    registry=REGISTRY,
)
DISCORD_ERRORS = Counter(
    "ttr_discord_errors",
    "Calls Discord refused (messages, acknowledgements, threads, users, command syncs), by "
    "HTTP status (403 missing permission, 404 gone or answered too late, 400 a message it "
    "would not take, 429 rate limited, 5xx Discord's trouble).",
    ["status"],
    registry=REGISTRY,
)
RECONNECTS = Counter(
    "ttr_discord_reconnects",
    "Connecting to Discord again: after an attempt that could not reach it (unreachable), "
    "after a connection was lost (lost), or a session Discord let resume (resumed).",
    ["reason"],
    registry=REGISTRY,
)
READY = Gauge(
    "ttr_ready",
    "1 while connected to Discord and answering, 0 while starting or reconnecting.",
    registry=REGISTRY,
)
FAILED_ATTEMPTS = Gauge(
    "ttr_discord_failed_attempts",
    "Failed attempts to reach Discord in a row (0 once connected).",
    registry=REGISTRY,
)
LOOP_LAG_SECONDS = Histogram(
    "ttr_event_loop_lag_seconds",
    "How late the event loop woke a sleeping task (seconds): everything that blocks the "
    "loop delays every answer by this much.",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
    registry=REGISTRY,
)

for _source in dict.fromkeys(ACTION_SOURCES.values()):
    ACTIONS.labels(_source)
for _kind in INTERACTION_KINDS:
    INTERACTION_SECONDS.labels(_kind)
for _level in AI_LEVELS:
    AI_DECISION_SECONDS.labels(_level)
for _kind in IMAGE_KINDS:
    RENDER_SECONDS.labels(_kind)
for _operation in STORAGE_OPERATIONS:
    STORAGE_SECONDS.labels(_operation)
for _reason in RECONNECT_REASONS:
    RECONNECTS.labels(_reason)


def bounded(value: object, allowed: Iterable[str]) -> str:
    """``value`` as a label when it is one of ``allowed``, else :data:`OTHER`."""
    text = str(value)
    return text if text in allowed else OTHER


def status_label(status: object) -> str:
    """An HTTP status as a label: ``"100"``-``"599"``, else :data:`OTHER`."""
    return str(status) if isinstance(status, int) and 100 <= status <= 599 else OTHER


def count_actions(sources: Iterable[str]) -> None:
    """Count stored actions by their stored source (``player``, ``ai``, ``timeout``)."""
    for source in sources:
        ACTIONS.labels(ACTION_SOURCES.get(source, OTHER)).inc()


def interaction_timer(kind: str) -> Timer:
    """A context manager timing one interaction (``kind``: :data:`INTERACTION_KINDS`)."""
    return INTERACTION_SECONDS.labels(bounded(kind, INTERACTION_KINDS)).time()


def ai_timer(level: str) -> Timer:
    """A context manager timing one AI decision (``level``: :data:`AI_LEVELS`)."""
    return AI_DECISION_SECONDS.labels(bounded(level, AI_LEVELS)).time()


def hint_timer() -> Timer:
    """A context manager timing one hint, from asking to the hint ready."""
    return HINT_SECONDS.time()


def analysis_done(cpu_s: object) -> None:
    """Record one finished analysis's CPU time (seconds; anything not a number is skipped:
    the figure comes from a stored JSON document)."""
    if isinstance(cpu_s, (int, float)) and not isinstance(cpu_s, bool) and cpu_s >= 0:
        ANALYSIS_CPU_SECONDS.observe(float(cpu_s))


def render_timer(kind: str) -> Timer:
    """A context manager or decorator timing one image (``kind``: :data:`IMAGE_KINDS`)."""
    return RENDER_SECONDS.labels(bounded(kind, IMAGE_KINDS)).time()


def discord_error(status: object) -> None:
    """Count one message Discord refused with HTTP ``status``."""
    DISCORD_ERRORS.labels(status_label(status)).inc()


def reconnect(reason: str) -> None:
    """Count one reconnection (``reason``: :data:`RECONNECT_REASONS`)."""
    RECONNECTS.labels(bounded(reason, RECONNECT_REASONS)).inc()


def storage_timed(
    operation: str,
) -> Callable[
    [Callable[P, AbstractAsyncContextManager[T]]], Callable[P, AbstractAsyncContextManager[T]]
]:
    """Decorate a storage backend's transaction hook (an async context manager factory) so
    that each use is timed from the call (waiting for the connection or lock included) to
    its end (the commit), whatever the outcome (``operation``: :data:`STORAGE_OPERATIONS`)."""
    child = STORAGE_SECONDS.labels(bounded(operation, STORAGE_OPERATIONS))

    def wrap(
        factory: Callable[P, AbstractAsyncContextManager[T]],
    ) -> Callable[P, AbstractAsyncContextManager[T]]:
        @functools.wraps(factory)
        @asynccontextmanager
        async def measured(*args: P.args, **kwargs: P.kwargs) -> AsyncIterator[T]:
            started = time.perf_counter()
            try:
                async with factory(*args, **kwargs) as value:
                    yield value
            finally:
                child.observe(time.perf_counter() - started)

        return measured

    return wrap


def sample(name: str, **labels: str) -> float | None:
    """The current value of one sample of :data:`REGISTRY` (tests, diagnostics)."""
    value: Any = REGISTRY.get_sample_value(name, labels)
    return None if value is None else float(value)


__all__ = [
    "ACTION_SOURCES",
    "AI_LEVELS",
    "GAME_STATUSES",
    "IMAGE_KINDS",
    "INTERACTION_KINDS",
    "OTHER",
    "RECONNECT_REASONS",
    "REGISTRY",
    "STORAGE_OPERATIONS",
    "ai_timer",
    "analysis_done",
    "bounded",
    "count_actions",
    "discord_error",
    "hint_timer",
    "interaction_timer",
    "reconnect",
    "render_timer",
    "sample",
    "status_label",
    "storage_timed",
]
