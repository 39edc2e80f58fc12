"""The live board's feed: each watched game's newest steps, pushed to its open event streams.

A game has a feed while at least one event stream follows it. The feed holds the game's last
:data:`FEED_STEPS` steps (:class:`~bot.host.services.BoardStep`: the public view and events of
one stored action), so a page that lost its connection resumes from them; older gaps are
read again from the service, or answered with one ``reset`` when very far behind. When the
service tells of a change (:meth:`bot.host.services.Changes.subscribe`; on PostgreSQL also
the changes made by the other processes), the feed reads the steps after its version and
puts each into every stream's queue, in order; a change that stored no action (a lobby seat,
a cancel, a vacation) puts a ``reset``. A stream's queue is bounded: a reader too slow to
take :data:`QUEUE_SIZE` items gets one ``reset`` instead of the rest.

Every write to the feed happens on the event loop without an ``await`` between appending a
step and queueing it, so a stream that attached before a step was appended gets it in its
queue, and one that attached after finds it in the steps: nothing missed; a stream skips a
version it already sent, so nothing is sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.host.services import BoardStep, ServiceError

from .tokens import Grant

log = logging.getLogger(__name__)

#: Steps a game's feed keeps for resuming streams (and the most a stream is sent at once:
#: a reader further behind gets one ``reset``).
FEED_STEPS = 200
#: Items a stream's queue holds before its reader is sent a ``reset`` instead.
QUEUE_SIZE = 256


@dataclass(frozen=True, slots=True)
class Item:
    """One thing for a stream: a ``move`` (with its ``step``), a ``reset`` (send the whole
    state), or ``close`` (the server stops)."""

    kind: Literal["move", "reset", "close"]
    step: BoardStep | None = None
    version: int = 0
    #: When the step was heard from the service (the loop's clock; the benchmark's latency).
    heard_at: float = 0.0


@dataclass(eq=False)
class Stream:
    """One open event stream of one reader."""

    grant: Grant
    queue: asyncio.Queue[Item] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    #: The newest version this stream has sent (it skips anything not newer).
    sent: int = 0

    def put(self, item: Item) -> None:
        """Queue ``item``; a full queue is emptied and given one ``reset`` instead."""
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(Item("reset", version=item.version))


class GameFeed:
    """The feed of one game (see the module docstring)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.version = 0
        self.steps: deque[BoardStep] = deque(maxlen=FEED_STEPS)
        self.streams: set[Stream] = set()
        self.ready = asyncio.Event()
        self._dirty = False
        self._refreshing: asyncio.Task[None] | None = None

    def backlog(self, after: int) -> list[BoardStep] | None:
        """The kept steps after version ``after`` (None: older ones are needed, not kept)."""
        if after >= self.version:
            return []
        if self.steps and self.steps[0].version <= after + 1:
            return [s for s in self.steps if s.version > after]
        return None

    def publish(self, steps: list[BoardStep], heard_at: float) -> None:
        """Append ``steps`` and queue them to every stream (a change without steps: a reset)."""
        if not steps:
            for stream in self.streams:
                stream.put(Item("reset", version=self.version, heard_at=heard_at))
            return
        for step in steps:
            if step.version <= self.version:
                continue
            self.steps.append(step)
            self.version = step.version
            for stream in self.streams:
                stream.put(Item("move", step, step.version, heard_at))


Read = Callable[[int, int], Any]


class Feeds:
    """Every watched game's feed.

    Args:
        read_steps: ``await read_steps(game_id, after)`` -> the service's
            ``(game, seats, steps)`` after version ``after``
            (:meth:`bot.host.services.Queries.board_steps`).
        clock: the loop's monotonic clock (when a change was heard).
    """

    def __init__(self, read_steps: Read, clock: Callable[[], float]) -> None:
        self.read_steps = read_steps
        self.clock = clock
        self.feeds: dict[int, GameFeed] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def streams(self) -> int:
        """Streams open now."""
        return sum(len(f.streams) for f in self.feeds.values())

    async def attach(self, grant: Grant) -> tuple[GameFeed, Stream]:
        """A new stream of ``grant``'s game, its feed read up to the game's version.

        Raises:
            ServiceError: ``game_not_found``.
        """
        feed = self.feeds.get(grant.game_id)
        if feed is None:
            feed = self.feeds[grant.game_id] = GameFeed(grant.game_id)
            try:
                await self._refresh(feed, initial=True)
            except BaseException:
                self.feeds.pop(grant.game_id, None)
                feed.ready.set()
                raise
            feed.ready.set()
        else:
            await feed.ready.wait()
            if grant.game_id not in self.feeds:  # its first reader's read failed
                raise ServiceError("game_not_found")
        stream = Stream(grant, sent=feed.version)
        feed.streams.add(stream)
        return feed, stream

    def detach(self, feed: GameFeed, stream: Stream) -> None:
        """Close ``stream``; a feed without streams is dropped (its memory with it)."""
        feed.streams.discard(stream)
        if not feed.streams and self.feeds.get(feed.game_id) is feed:
            del self.feeds[feed.game_id]
            if feed._refreshing is not None:
                feed._refreshing.cancel()

    def changed(self, game_id: int, version: int) -> None:
        """The service's change listener: refresh the game's feed if it is watched."""
        feed = self.feeds.get(game_id)
        if feed is None or version < feed.version:  # not watched, or a late notice: all sent
            return
        heard = self.clock()
        if feed._refreshing is not None and not feed._refreshing.done():
            feed._dirty = True
            return
        task = asyncio.get_running_loop().create_task(self._refresh_loop(feed, heard))
        feed._refreshing = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh_loop(self, feed: GameFeed, heard: float) -> None:
        await feed.ready.wait()
        while True:
            feed._dirty = False
            try:
                await self._refresh(feed, heard_at=heard)
            except ServiceError:
                return
            except Exception:  # the next change or reconnect catches up
                log.exception("cannot read game %s for its live board", feed.game_id)
                return
            if not feed._dirty:
                return
            heard = self.clock()

    async def _refresh(
        self, feed: GameFeed, *, initial: bool = False, heard_at: float = 0.0
    ) -> None:
        after = 0 if initial else feed.version
        _game, _seats, steps = await self.read_steps(feed.game_id, after)
        if initial:
            for step in steps[-FEED_STEPS:]:
                feed.steps.append(step)
            feed.version = steps[-1].version if steps else 0
            return
        feed.publish(steps, heard_at or self.clock())

    async def close(self) -> None:
        """Tell every stream to end and stop the refreshes."""
        for feed in list(self.feeds.values()):
            for stream in feed.streams:
                with contextlib.suppress(asyncio.QueueFull):
                    stream.queue.put_nowait(Item("close"))
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task


__all__ = ["FEED_STEPS", "QUEUE_SIZE", "Feeds", "GameFeed", "Item", "Stream"]
