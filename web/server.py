"""The live board's HTTP server: an aiohttp app on the bot's own event loop.

Routes (the contract, ``docs/contributors/live-board.md``): ``GET /b/{token}`` the page's
HTML shell, ``GET /static/{file}`` its files (``web/static/``), and under
``/api/b/{token}/``: ``map``, ``state``, ``events`` (Server-Sent Events) and ``replay``. A
token is a signed grant (:mod:`web.tokens`); every answer about a game reads it through the
service (:class:`bot.host.services.GameService`) and the same per-seat views as Discord's
replies. Every answer, errors included, carries a strict Content-Security-Policy,
``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``; a request is
refused with 429 (``Retry-After``) beyond the token buckets of its address and its link,
with 413 when it carries a body larger than :data:`MAX_BODY`, and an event stream with 503
beyond the open streams allowed per address and in all (:mod:`web.limits`).
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.host.services import ServiceError
from words import error_text, words_for

from .activity import ActivityConfig, ActivityRoutes
from .errors import WebError
from .events import EventStreams
from .feed import Feeds
from .headers import CSP, SECURITY_HEADERS
from .limits import Buckets, StreamSlots
from .moves import Moves
from .pages import page
from .tokens import Grant, TokenError, verify
from .views import BoardReader

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
#: The largest request body read (bytes); the page sends none.
MAX_BODY = 4096
_STATIC_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}")
_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".woff2": "font/woff2",
}
#: The page's refusals: code -> HTTP status (their sentences are in words/_errors.py).
STATUS = {
    "link_invalid": 403,
    "link_expired": 403,
    "game_not_found": 404,
    "page_not_found": 404,
    "rate_limited": 429,
    "streams_full": 503,
    "request_too_large": 413,
    "activity_sign_in_refused": 401,
    "activity_unavailable": 503,
    "activity_no_game": 404,
}


@dataclass(frozen=True, slots=True)
class Limits:
    """What one reader may ask (see :mod:`web.limits`).

    Attributes:
        address_rate, address_burst: requests per second (and burst) of one address.
        token_rate, token_burst: requests per second (and burst) of one link.
        streams_per_address: event streams one address may hold open.
        streams_total: event streams the server holds open at most.
    """

    address_rate: float = 20.0
    address_burst: float = 60.0
    token_rate: float = 5.0
    token_burst: float = 30.0
    streams_per_address: int = 16
    streams_total: int = 2000


def lang_of(request: web.Request) -> str:
    """The reader's language for a page without a grant: German when the browser asks first
    for it, else English."""
    accept = request.headers.get("Accept-Language", "")
    return "de" if accept.strip().lower().startswith("de") else "en"


class WebApp:
    """The aiohttp application of the live board (see the module docstring).

    Args:
        service: the game service (``queries``, ``analyses``, ``changes``).
        secret: the key that signs links (:func:`web.tokens.derive_secret`).
        clock: unix seconds (token expiry, clocks).
        monotonic: monotonic seconds (rate limits).
        limits: the request and stream limits.
        ping_s: seconds between keep-alive comments of an event stream.
        activity: the OAuth2 client of the Activity (:mod:`web.activity`); None: the board
            is not an Activity (no ``/activity`` page).
    """

    def __init__(
        self,
        service: Any,
        secret: bytes,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        limits: Limits | None = None,
        ping_s: float = 15.0,
        activity: ActivityConfig | None = None,
    ) -> None:
        self.service = service
        self.activity = activity
        self.secret = secret
        self.clock = clock
        self.limits = limits or Limits()
        self.by_address = Buckets(self.limits.address_rate, self.limits.address_burst, monotonic)
        self.by_token = Buckets(self.limits.token_rate, self.limits.token_burst, monotonic)
        self.slots = StreamSlots(self.limits.streams_per_address, self.limits.streams_total)
        self.feeds = Feeds(self._read_steps, monotonic)
        self.reader = BoardReader(service, clock)
        self.events = EventStreams(self.feeds, self.reader, self.slots, ping_s=ping_s)
        self._unsubscribe: Callable[[], None] | None = None

    async def _read_steps(self, game_id: int, after: int) -> Any:
        return await self.service.queries.board_steps(game_id, after=after)

    def app(self) -> web.Application:
        """The aiohttp application (listening to the service's changes while it runs)."""
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/b/{token}", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/b/{token}/map", self._map)
        app.router.add_get("/api/b/{token}/state", self._state)
        app.router.add_get("/api/b/{token}/events", self._events)
        app.router.add_get("/api/b/{token}/replay", self._replay)
        Moves(self).add_to(app)
        if self.activity is not None:
            ActivityRoutes(self.service, self.secret, self.activity, self.clock).add_to(app)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_startup(self, _app: web.Application) -> None:
        changes = self.service.changes
        self._unsubscribe = changes.subscribe(self.feeds.changed)
        await changes.listen()

    async def _on_shutdown(self, _app: web.Application) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await self.feeds.close()

    # ------------------------------------------------------------------ guard
    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            self._admit(request)
            response = await handler(request)
        except WebError as exc:
            response = self._refusal(request, exc)
        except web.HTTPException as exc:
            if exc.status == 413:
                refused = WebError("request_too_large", lang_of(request))
            else:
                refused = WebError("page_not_found", lang_of(request))
            response = self._refusal(request, refused)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    def _admit(self, request: web.Request) -> None:
        """Refuse a request beyond the limits (before any work)."""
        if (request.content_length or 0) > MAX_BODY:
            raise WebError("request_too_large", lang_of(request))
        address = request.remote or "-"
        wait = self.by_address.take(address)
        token = request.match_info.get("token")
        if not wait and token:
            wait = self.by_token.take(token[:MAX_TOKEN_KEY])
        if wait:
            raise WebError("rate_limited", lang_of(request), retry_after=wait)

    def _refusal(self, request: web.Request, exc: WebError) -> web.Response:
        status = STATUS.get(exc.code, 400)
        text = error_text(exc.code, words_for(exc.lang), exc.detail)
        headers = {"Cache-Control": "no-store", **SECURITY_HEADERS}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        if request.path.startswith("/b/"):
            body = error_page(exc.lang, text)
            return web.Response(status=status, text=body, content_type="text/html", headers=headers)
        payload = json.dumps({"error": exc.code, "message": text}, ensure_ascii=False)
        return web.Response(
            status=status, text=payload, content_type="application/json", headers=headers
        )

    def grant(self, request: web.Request) -> Grant:
        """The request's grant (its token verified now). Raises :class:`WebError`."""
        try:
            return verify(self.secret, request.match_info["token"], self.clock())
        except TokenError as exc:
            if exc.reason == "expired":
                raise WebError("link_expired", exc.lang) from None
            raise WebError("link_invalid", lang_of(request)) from None

    # ------------------------------------------------------------------ routes
    async def _page(self, request: web.Request) -> web.Response:
        grant = self.grant(request)
        table = await self._guarded(self.reader.table(grant), grant)
        title = self.reader.title(table, grant.lang)
        body = page_shell(grant.lang, title, request.match_info["token"])
        return web.Response(
            text=body, content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = STATIC / name
        if not _STATIC_NAME.fullmatch(name) or ".." in name or not path.is_file():
            raise WebError("page_not_found", lang_of(request))
        kind = _TYPES.get(path.suffix, "application/octet-stream")
        return web.Response(
            body=path.read_bytes(),
            content_type=kind,
            charset="utf-8" if kind.startswith("text/") else None,
            headers={"Cache-Control": "public, max-age=300"},
        )

    async def _map(self, request: web.Request) -> web.Response:
        grant = self.grant(request)
        payload = await self._guarded(self.reader.map(grant), grant)
        return _json(payload, "public, max-age=86400")

    async def _state(self, request: web.Request) -> web.Response:
        return _json(await self.state_for(self.grant(request)))

    async def state_for(self, grant: Grant) -> dict[str, Any]:
        """The state payload for ``grant`` now (the feed's steps when it has them)."""
        feed = self.feeds.feeds.get(grant.game_id)
        steps = list(feed.steps) if feed is not None and feed.ready.is_set() else None
        state: dict[str, Any] = await self._guarded(self.reader.state(grant, steps), grant)
        return state

    async def _replay(self, request: web.Request) -> web.Response:
        grant = self.grant(request)
        return _json(await self._guarded(self.reader.replay(grant), grant))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        grant = self.grant(request)
        if not self.slots.take(request.remote or "-"):
            raise WebError("streams_full", grant.lang)
        try:
            response: web.StreamResponse = await self._guarded(
                self.events.serve(request, grant), grant
            )
            return response
        finally:
            self.slots.give_back(request.remote or "-")

    @staticmethod
    async def _guarded(work: Awaitable[Any], grant: Grant) -> Any:
        try:
            return await work
        except ServiceError as exc:
            if exc.code == "game_not_found":
                raise WebError("game_not_found", grant.lang) from None
            raise WebError("page_not_found", grant.lang) from None


#: How much of a token keys its rate limit (a real token is shorter).
MAX_TOKEN_KEY = 256


def _json(payload: Any, cache: str = "no-store") -> web.Response:
    return web.Response(
        text=json.dumps(payload, ensure_ascii=False, separators=(",", ":")),
        content_type="application/json",
        headers={"Cache-Control": cache},
    )


def page_shell(lang: str, title: str, token: str) -> str:
    """The page's HTML: no inline script or style; the page's module does the rest."""
    needs_js = words_for(lang).t("The live board needs JavaScript.")
    body = (
        f'<div id="app" data-token="{html.escape(token, quote=True)}"></div>\n'
        f"<noscript>{html.escape(needs_js)}</noscript>\n"
    )
    return page(lang, title, body, "board.js")


def error_page(lang: str, text: str) -> str:
    """A refused page: the sentence alone (nothing of the game)."""
    return page(lang, words_for(lang).t("Live board"), f"<main><p>{html.escape(text)}</p></main>\n")


class WebServer:
    """The live board's server on ``host:port`` (the bot starts and stops it).

    Args:
        web_app: the application (:class:`WebApp`).
        host: the address to listen on.
        port: the port (0: any free port; see :attr:`port` after :meth:`start`).
    """

    def __init__(self, web_app: WebApp, host: str, port: int) -> None:
        self.web_app = web_app
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen. Raises OSError when it cannot (the port is taken, no permission)."""
        runner = web.AppRunner(
            self.web_app.app(), access_log=None, handle_signals=False, shutdown_timeout=2.0
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])

    async def close(self) -> None:
        """Stop listening and end every event stream (idempotent)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await asyncio.wait_for(runner.cleanup(), 10.0)


__all__ = [
    "CSP",
    "MAX_BODY",
    "SECURITY_HEADERS",
    "STATUS",
    "Limits",
    "WebApp",
    "WebError",
    "WebServer",
]
