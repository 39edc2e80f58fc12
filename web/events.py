"""Server-Sent Events: one stream per open page, fed by its game's feed (:mod:`web.feed`).

A stream starts with ``retry: 3000``. A reader that names the version it has
(``Last-Event-ID``, or ``?after=VERSION`` on the first connection) is first sent one ``move``
event for every version after it (the newest with the state, the others with
``"state": null``), or one ``reset`` when it is more than :data:`~web.feed.FEED_STEPS`
versions behind; then every new move as it is stored: ``id: <version>``, ``event: move``,
``data: {"version", "move", "state"}``. A change that stored no action (a lobby seat, a
cancel) is an ``event: reset`` with the whole state. A comment ``: ping`` keeps the
connection open every ``ping_s`` seconds. A version is never sent twice on one stream.

A reader that goes away is noticed within :data:`WATCH_S` seconds: the stream looks at its
connection that often between pings and ends (giving back its slot, :mod:`web.limits`), so
a closed page does not hold one of the address's slots until the next ping's write fails
(the server does not cancel handlers on a disconnect: a move in flight must finish).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from aiohttp import web

from bot.host.services import BoardStep, TableView

from .feed import FEED_STEPS, Feeds, GameFeed, Stream
from .headers import SECURITY_HEADERS
from .limits import StreamSlots
from .tokens import Grant
from .views import BoardReader

#: Spectators' move frames kept (per game, version, language).
CACHED_FRAMES = 512
#: Seconds between looks at a stream's connection (see the module docstring).
WATCH_S = 1.0


def gone(request: web.BaseRequest) -> bool:
    """True when the reader's connection is closed or closing."""
    transport = request.transport
    return transport is None or transport.is_closing()


def resume_from(request: web.Request) -> int | None:
    """The version the reader has: ``Last-Event-ID`` or ``?after=`` (None: neither, or not a
    version)."""
    raw = request.headers.get("Last-Event-ID") or request.query.get("after")
    if raw is None or not raw.isdigit() or len(raw) > 9:
        return None
    return int(raw)


def frame(event: str, data: dict[str, Any], version: int | None = None) -> bytes:
    """One SSE frame."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"id: {version}\n" if version is not None else ""
    return f"{head}event: {event}\ndata: {text}\n\n".encode()


class EventStreams:
    """Serves ``/api/b/{token}/events`` (see the module docstring).

    Args:
        feeds: the games' feeds.
        reader: reads states for grants.
        slots: the open stream slots (the caller takes one per stream).
        ping_s: seconds between keep-alive comments.
    """

    def __init__(
        self, feeds: Feeds, reader: BoardReader, slots: StreamSlots, *, ping_s: float = 15.0
    ) -> None:
        self.feeds = feeds
        self.reader = reader
        self.slots = slots
        self.ping_s = ping_s
        self._frames: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    async def serve(self, request: web.Request, grant: Grant) -> web.StreamResponse:
        """Stream the grant's game until the reader leaves or the server stops."""
        after = resume_from(request)
        feed, stream = await self.feeds.attach(grant)
        try:
            response = web.StreamResponse(
                headers={
                    "Content-Type": "text/event-stream",
                    "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                }
            )
            response.headers.update(SECURITY_HEADERS)
            await response.prepare(request)
            await response.write(b"retry: 3000\n\n")
            if after is not None and after < feed.version:
                await self._catch_up(response, feed, stream, after)
            elif after is not None:  # the reader is as far as the feed (or further): skip those
                stream.sent = max(stream.sent, after)
            await self._follow(request, response, feed, stream)
            return response
        except ConnectionResetError:  # the reader left: nothing to tell, nothing to log
            return response
        finally:
            self.feeds.detach(feed, stream)

    async def _catch_up(
        self, response: web.StreamResponse, feed: GameFeed, stream: Stream, after: int
    ) -> None:
        """Send the versions after ``after`` the reader missed (or one reset)."""
        stream.sent = after
        missed = feed.backlog(after)
        if missed is None and feed.version - after <= FEED_STEPS:
            _, _, read = await self.reader.service.queries.board_steps(
                grant_id(stream), after=after
            )
            missed = list(read)
        if missed is None:
            await self._send_reset(response, stream, feed.version)
            return
        await self._send_moves(response, feed, stream, missed)

    async def _follow(
        self, request: web.Request, response: web.StreamResponse, feed: GameFeed, stream: Stream
    ) -> None:
        loop = asyncio.get_running_loop()
        quiet_since = loop.time()
        while True:
            try:
                item = await asyncio.wait_for(stream.queue.get(), min(self.ping_s, WATCH_S))
            except TimeoutError:
                if gone(request):
                    return
                if loop.time() - quiet_since >= self.ping_s:
                    await response.write(b": ping\n\n")
                    quiet_since = loop.time()
                continue
            quiet_since = loop.time()
            if item.kind == "close":
                return
            batch = [item]
            while not stream.queue.empty():
                batch.append(stream.queue.get_nowait())
            if any(i.kind == "close" for i in batch):
                return
            if any(i.kind == "reset" for i in batch):
                await self._send_reset(response, stream, max(i.version for i in batch))
                continue
            steps = [i.step for i in batch if i.step is not None]
            await self._send_moves(response, feed, stream, steps)

    async def _send_moves(
        self,
        response: web.StreamResponse,
        feed: GameFeed,
        stream: Stream,
        steps: Sequence[BoardStep],
    ) -> None:
        fresh = [s for s in steps if s.version > stream.sent]
        if not fresh:
            return
        grant = stream.grant
        newest = fresh[-1]
        if grant.user_id is None:  # spectators of a game share the table and the frames
            table = await self.reader.public_table(grant.game_id, newest.version)
        else:
            table = await self.reader.table(grant)
        chunks = [self._frame(table, grant, feed, step, step is newest) for step in fresh]
        stream.sent = newest.version
        await response.write(b"".join(chunks))

    def _frame(
        self, table: TableView, grant: Grant, feed: GameFeed, step: BoardStep, newest: bool
    ) -> bytes:
        """One move's frame for ``grant`` (a spectator's is made once per game, version and
        language)."""
        with_state = newest and table.version == step.version
        key = (grant.game_id, step.version, grant.lang, with_state, table.version)
        if grant.user_id is None and (cached := self._frames.get(key)) is not None:
            return cached
        state = self.reader.state_of(table, grant, list(feed.steps)) if with_state else None
        data = {"version": step.version, "move": self.reader.move(table, grant, step)}
        data["state"] = state
        chunk = frame("move", data, step.version)
        if grant.user_id is None:
            self._frames[key] = chunk
            while len(self._frames) > CACHED_FRAMES:
                self._frames.popitem(last=False)
        return chunk

    async def _send_reset(self, response: web.StreamResponse, stream: Stream, version: int) -> None:
        table = await self.reader.table(stream.grant)
        feed = self.feeds.feeds.get(stream.grant.game_id)
        steps = list(feed.steps) if feed is not None else []
        state = self.reader.state_of(table, stream.grant, steps)
        stream.sent = max(stream.sent, table.version)
        await response.write(
            frame("reset", {"version": table.version, "state": state}, table.version)
        )


def grant_id(stream: Stream) -> int:
    """The game a stream follows."""
    return stream.grant.game_id


__all__ = ["EventStreams", "frame", "resume_from"]
