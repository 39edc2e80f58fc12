"""Who hears that a game changed: the live board follows every stored change through this.

Every part that writes a game (a move, the AI's replies, a timeout, a resign, a lobby
change, a cancel, a vacation) calls :meth:`Changes.notify` after its transaction committed,
with the game's id and its version (the number of stored actions; a lobby change keeps the
version). Listeners (the web server's feed, :mod:`web`) subscribe a plain callback; nothing
here imports the web package.

With one process (SQLite) a change is delivered in the process. With PostgreSQL several bot
processes share one database, each serving some shards, and a page opened on any of them
follows its game: every process sends each change with ``NOTIFY`` on :data:`CHANNEL` (payload
``game_id:version:origin``; in the background, one short query, whether or not it serves the
live board itself), and every process that listens (:meth:`Changes.listen`: those serving the
live board) delivers the changes of the others (its own it delivered at once, so ``origin``
lets it skip them).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable

from bot.host.storage import Storage

log = logging.getLogger(__name__)

#: The PostgreSQL ``LISTEN``/``NOTIFY`` channel of stored changes.
CHANNEL = "ttr_moves"

#: A listener: called with ``(game_id, version)`` after a change of that game was stored.
OnChange = Callable[[int, int], None]


class Changes:
    """The change notices of one process (see the module docstring).

    Args:
        storage: the storage whose backend decides how notices cross processes.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: This process's mark in the notices it sends (its own are not delivered twice).
        self.origin = secrets.token_hex(4)
        self._listeners: list[OnChange] = []
        self._stop_listening: Callable[[], Awaitable[None]] | None = None

    def subscribe(self, listener: OnChange) -> Callable[[], None]:
        """Call ``listener(game_id, version)`` after every stored change from now on; returns
        the function that unsubscribes it. A listener must not block (schedule work)."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def notify(self, game_id: int, version: int) -> None:
        """Tell the listeners (and, on PostgreSQL, the other processes) that ``game_id`` changed
        and is at ``version`` now. Called after the change was committed; never raises."""
        self._deliver(game_id, version)
        send = getattr(self.storage, "notify", None)
        if send is not None and self.storage.backend == "postgres":
            send(CHANNEL, f"{game_id}:{version}:{self.origin}")

    def _deliver(self, game_id: int, version: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, version)
            except Exception:  # a listener's bug must not undo a stored move's answer
                log.exception("a change listener failed for game %s", game_id)

    def heard(self, payload: str) -> None:
        """A notice of another process (``game_id:version:origin``); malformed ones are dropped."""
        parts = payload.split(":")
        if len(parts) != 3 or parts[2] == self.origin:
            return
        try:
            game_id, version = int(parts[0]), int(parts[1])
        except ValueError:
            return
        self._deliver(game_id, version)

    async def listen(self) -> None:
        """Hear the other processes' changes from now on (PostgreSQL: ``LISTEN`` on
        :data:`CHANNEL`; SQLite has one process and nothing to hear). Idempotent."""
        if self._stop_listening is not None or self.storage.backend != "postgres":
            return
        listen = getattr(self.storage, "listen", None)
        if listen is not None:
            self._stop_listening = await listen(CHANNEL, self.heard)

    async def close(self) -> None:
        """Stop listening to other processes (idempotent)."""
        stop, self._stop_listening = self._stop_listening, None
        if stop is not None:
            await stop()


__all__ = ["CHANNEL", "Changes", "OnChange"]
