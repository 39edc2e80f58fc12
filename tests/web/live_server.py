"""The real live board for the browser tests: the ``web`` app over a game service on a SQLite
file, served on a free local port by an event loop of its own thread.

The browser (Playwright's sync API) runs in the test's thread; everything the service does
runs in the server's loop (:meth:`LiveServer.call`). A test starts a game
(:meth:`LiveServer.new_game`: human seats only, dealt from a fixed seed) and plays it through
``service.play.act`` with the engine's easy AI choosing each seat's action
(:meth:`LiveGame.play`), so every move reaches the open pages through the service's change
notices, the feed and the event stream exactly as a move from Discord does. What the page
is expected to show is read from the server's own answers (:meth:`LiveGame.get`).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.host.services import GameService
from bot.host.storage import Storage, open_storage
from web import Limits, WebApp, WebServer, sign
from web.tokens import private_grant, public_grant

T = TypeVar("T")

SECRET = b"browser tests of the live board"
#: The page loads a handful of files per open; the tests open many pages from one address, and
#: a closed page's stream holds its slot until the server next writes to it (a ping, 15 s).
OPEN = Limits(
    address_rate=1e6,
    address_burst=1e6,
    token_rate=1e6,
    token_burst=1e6,
    streams_per_address=10_000,
    streams_total=10_000,
)
#: The seats' names, in joining order (users 101, 102, ...).
NAMES = ("Anna", "Ben", "Chiara", "Dev", "Eli")
FIRST_USER = 101
#: The seed every game is dealt from (a game of each map that builds what the tests look for).
SEED = 20_261_128


@dataclass
class LiveGame:
    """A game on the live server: its id, its map, its seats' users (by seat) and the language
    of its links."""

    server: LiveServer
    id: int
    map_id: str
    users: list[int]
    lang: str = "en"
    #: Train stations still to build when a seat may (see :meth:`play_to_end`).
    stations_wanted: int = 0

    @property
    def version(self) -> int:
        """The game's stored version now."""
        return self.server.call(self._version())

    async def _version(self) -> int:
        table = await self.server.service.queries.board(self.id, None)
        return int(table.version)

    def join(self, user: int) -> None:
        """``user`` (one of :attr:`users`) takes a seat in the lobby."""
        name = NAMES[user - FIRST_USER]
        self.server.call(self.server.service.lobby.join(self.id, user, name))

    def start(self) -> None:
        """The host starts the game."""
        self.server.call(self.server.service.lobby.start(self.id, self.users[0]))

    def play(self, moves: int = 1) -> int:
        """Store the next ``moves`` actions (fewer when the game ends); returns the version."""
        return self.server.call(self._play(moves))

    def play_to_end(self, *, analysed: bool = True, stations: int = 0) -> int:
        """Play the game to its end (and make its analysis); returns the last version.
        ``stations``: the first that many times a seat may build a train station, it does
        (Europe; the easy AI seldom builds one)."""
        self.stations_wanted = stations
        version = self.play(10_000)
        if analysed:
            self.server.call(self.server.service.analyses.analyse_now(self.id))
        return version

    def play_until_claim(self) -> int:
        """Play up to the action before the next route claim; returns that claim's version."""
        return self.server.call(self._until_claim())

    async def _act(self) -> bool:
        from engine.ai import choose_action  # the test plays; the web package never imports it
        from maps.loader import load_ruleset

        service = self.server.service
        game = await service.loader.game(self.id)
        state = await service.loader.state(game)
        if state.finished:
            return False
        seat = state.seats_to_act()[0]
        rules = load_ruleset(self.map_id)
        action = choose_action(rules, state, seat, "easy")
        if self.stations_wanted:
            from engine import legal_actions
            from engine.rules.europe import BuildStation

            builds = [a for a in legal_actions(rules, state, seat) if isinstance(a, BuildStation)]
            if builds:
                action, self.stations_wanted = builds[0], self.stations_wanted - 1
        await service.play.act(self.id, self.users[seat], action, expected_version=None)
        return True

    async def _play(self, moves: int) -> int:
        for _ in range(moves):
            if not await self._act():
                break
        return await self._version()

    async def _until_claim(self) -> int:
        from engine import ClaimRoute
        from engine.ai import choose_action
        from maps.loader import load_ruleset

        service = self.server.service
        while True:
            game = await service.loader.game(self.id)
            state = await service.loader.state(game)
            assert not state.finished, "the game ended before another claim"
            seat = state.seats_to_act()[0]
            action = choose_action(load_ruleset(self.map_id), state, seat, "easy")
            if isinstance(action, ClaimRoute):
                return await self._version() + 1
            await self._act()

    def token(self, user: int | None = None, lang: str | None = None) -> str:
        """The spectator's link token (``user`` None) or ``user``'s own."""
        lang = lang or self.lang
        if user is None:
            return sign(SECRET, public_grant(self.id, lang))
        return sign(SECRET, private_grant(self.id, user, lang, time.time()))

    def get(self, what: str, token: str | None = None) -> Any:
        """The server's JSON answer ``what`` (``map``, ``state``, ``replay``) for ``token``
        (default: the spectator's)."""
        url = f"{self.server.base}/api/b/{token or self.token()}/{what}"
        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - local server
            return json.loads(response.read())


class LiveServer:
    """The service and the web app on ``base`` (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.storage: Storage
        self.service: GameService
        self.server: WebServer
        self.base = ""
        self._channels = 5000

    def call(self, work: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        """Run ``work`` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def start(self) -> None:
        """Open the storage, the service and the server."""
        self.thread.start()
        self.call(self._start())

    async def _start(self) -> None:
        self.storage = await open_storage(f"sqlite:///{self.folder / 'live.db'}")
        self.service = GameService(self.storage, seed_source=lambda: SEED)
        self.server = WebServer(WebApp(self.service, SECRET, limits=OPEN), "127.0.0.1", 0)
        await self.server.start()
        self.base = f"http://127.0.0.1:{self.server.port}"

    def stop(self) -> None:
        """Close the server, the service and the storage; stop the loop."""
        try:
            self.call(self._stop(), timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    async def _stop(self) -> None:
        await self.server.close()
        await self.service.close()
        await self.storage.close()

    def new_game(
        self,
        map_id: str,
        *,
        seats: int = 2,
        lang: str = "en",
        turn_seconds: int = 3600,
        started: bool = True,
    ) -> LiveGame:
        """A game of ``seats`` human seats on ``map_id``: started (nothing played yet), or still
        in the lobby with its host alone (``started`` False: :meth:`LiveGame.join`,
        :meth:`LiveGame.start`)."""
        self._channels += 1
        game = self.call(self._new_game(map_id, seats, lang, turn_seconds, self._channels))
        if started:
            for user in game.users[1:]:
                game.join(user)
            game.start()
        return game

    async def _new_game(
        self, map_id: str, seats: int, lang: str, turn_seconds: int, channel: int
    ) -> LiveGame:
        lobby = self.service.lobby
        users = [FIRST_USER + i for i in range(seats)]
        game = await lobby.create(
            guild_id=1,
            channel_id=channel,
            host_id=users[0],
            host_name=NAMES[0],
            map_id=map_id,
            turn_seconds=turn_seconds,
            language=lang,
        )
        return LiveGame(self, game.id, map_id, users, lang)


@contextmanager
def serve(folder: Path) -> Iterator[LiveServer]:
    """The live server on a database in ``folder`` while the block runs."""
    server = LiveServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
