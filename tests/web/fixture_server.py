"""A small aiohttp server for the live board's browser tests: the page's static files and
contract-shaped JSON from a real game (``tests/web/payloads.py``).

It stands in for the real ``web`` app until that one is merged: :func:`make_app` is the one
function to swap (same URLs, same payloads, same CSP). Tokens are fixed words here, not
signed grants: ``public`` reads the spectator view, ``private`` the view of seat 0 (Anna).
The game shows ``version`` moves; :meth:`FixtureGame.push` sends the next stored move as an
SSE ``move`` event (or any version, to test that the page ignores older ones).
"""

from __future__ import annotations

import asyncio
import html
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from .payloads import map_payload, play_game, replay_payload, state_payload

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
#: The contract's Content-Security-Policy of every response.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'self' https://discord.com https://*.discordsays.com"
)
TOKENS = {"public": None, "private": 0}


@dataclass
class FixtureGame:
    """The game the fixture serves: a finished game shown at ``version`` moves."""

    map_id: str
    version: int
    lang: str = "en"
    deadline: float | None = None
    queues: list[asyncio.Queue[str]] = field(default_factory=list)
    loop: asyncio.AbstractEventLoop | None = None

    @property
    def record(self) -> Any:
        """The played game (``payloads.GameRecord``)."""
        return play_game(self.map_id)

    def state(self, token: str, version: int | None = None) -> dict[str, Any]:
        """The state payload for ``token``'s reader at ``version`` (default: the current one)."""
        return state_payload(
            self.record,
            self.version if version is None else version,
            lang=self.lang,
            me=TOKENS[token],
            deadline=self.deadline,
        )

    def event(self, version: int) -> str:
        """The SSE text of the ``move`` event of ``version`` (the public reader's state)."""
        data = {
            "version": version,
            "move": self.record.moves[version - 1],
            "state": self.state("public", version),
        }
        return f"id: {version}\nevent: move\ndata: {json.dumps(data)}\n\n"

    def push(self, version: int | None = None) -> int:
        """Send the move of ``version`` (default: the next one) to every open event stream,
        from any thread; the current version moves forward only. Returns the version sent."""
        v = self.version + 1 if version is None else version
        self.version = max(self.version, v)
        text = self.event(v)
        assert self.loop is not None, "the server is not running"
        for queue in list(self.queues):
            self.loop.call_soon_threadsafe(queue.put_nowait, text)
        return v


def shell(token: str, lang: str) -> str:
    """The page's HTML shell, as the contract gives it (no inline script or style)."""
    return (
        "<!doctype html>\n"
        f'<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>ttrbot</title><link rel="stylesheet" href="/static/board.css">'
        '<script type="module" src="/static/board.js"></script></head>'
        f'<body><div id="app" data-token="{html.escape(token)}"></div></body></html>'
    )


def make_app(game: FixtureGame) -> web.Application:
    """The fixture's aiohttp app serving ``game`` under the contract's URLs."""

    @web.middleware
    async def headers(request: web.Request, handler: Any) -> web.StreamResponse:
        response = await handler(request)
        response.headers["Content-Security-Policy"] = CSP
        return response

    def token_of(request: web.Request) -> str:
        token = request.match_info["token"]
        if token not in TOKENS:
            raise web.HTTPForbidden(
                text=json.dumps({"error": "forged", "message": "This link is not valid."}),
                content_type="application/json",
            )
        return token

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=shell(token_of(request), game.lang), content_type="text/html")

    async def map_json(request: web.Request) -> web.Response:
        token_of(request)
        response = web.json_response(map_payload(game.map_id, game.lang))
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response

    async def state_json(request: web.Request) -> web.Response:
        return web.json_response(game.state(token_of(request)))

    async def replay_json(request: web.Request) -> web.Response:
        token_of(request)
        return web.json_response(replay_payload(game.record))

    async def events(request: web.Request) -> web.StreamResponse:
        token_of(request)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        await response.write(b"retry: 3000\n\n")
        queue: asyncio.Queue[str] = asyncio.Queue()
        game.queues.append(queue)
        try:
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    text = ": ping\n\n"
                await response.write(text.encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            game.queues.remove(queue)
        return response

    app = web.Application(middlewares=[headers])
    app.router.add_get("/b/{token}", page)
    app.router.add_get("/api/b/{token}/map", map_json)
    app.router.add_get("/api/b/{token}/state", state_json)
    app.router.add_get("/api/b/{token}/replay", replay_json)
    app.router.add_get("/api/b/{token}/events", events)
    app.router.add_static("/static/", STATIC)
    return app


@contextmanager
def serve(game: FixtureGame) -> Iterator[str]:
    """Run the fixture app for ``game`` on a free local port in a thread; yields its base URL."""
    loop = asyncio.new_event_loop()
    game.loop = loop
    started = threading.Event()
    holder: dict[str, Any] = {}

    async def start() -> None:
        runner = web.AppRunner(make_app(game), shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        holder["runner"] = runner
        holder["port"] = runner.addresses[0][1]
        started.set()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield f"http://127.0.0.1:{holder['port']}"
    finally:
        future = asyncio.run_coroutine_threadsafe(holder["runner"].cleanup(), loop)
        try:
            future.result(5)
        except Exception:  # noqa: BLE001 - an open event stream may end with an error on shutdown
            pass
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
