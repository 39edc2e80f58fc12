"""The HTTP side of the fake: Discord's JSON replies and error bodies, reading a JSON or
multipart request, the REST routing table every resource contributes to (with the bot
authorization check, scripted faults and unknown routes), and the CDN (attachments, avatars)."""

from __future__ import annotations

import json
import re
import struct
import traceback
import zlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

from .protocol import API_PREFIX
from .records import Fault, UnknownRoute, Upload
from .validation import Problem, errors_body

if TYPE_CHECKING:
    from .interactions import InteractionHandle
    from .messages import MessagesAPI
    from .store import Store

#: One REST route of a resource: method, path with ``{name}`` parameters (``*_id`` ones are
#: numbers and reach the handler as ``int``), handler, whether it needs the bot's authorization.
Route = tuple[str, str, Callable[..., Any], bool]


class Resource(Protocol):
    """What :class:`Router` needs from a resource of the fake: its REST routes."""

    def routes(self) -> list[Route]:
        """The resource's routes."""


def json_response(data: Any, status: int = 200) -> web.Response:
    """``data`` as JSON with the content type exactly ``application/json`` (discord.py compares
    the header verbatim; aiohttp's ``json_response`` adds a charset)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


def discord_error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    """Discord's error body: ``{"message", "code"}`` and, for form errors, ``errors``."""
    body: dict[str, Any] = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return json_response(body, status)


def no_content() -> web.Response:
    """204 No Content."""
    return web.Response(status=204)


def solid_png(width: int, height: int, rgb: tuple[int, int, int] = (90, 120, 200)) -> bytes:
    """A valid solid-colour PNG, built without Pillow (used for avatars)."""

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


async def read_payload(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body of a request, or of a multipart one its ``payload_json`` and its
    ``files[N]`` uploads."""
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            name = part.name or ""
            raw = await part.read(decode=False)  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(raw.decode())
            else:
                match = re.fullmatch(r"files\[(\d+)\]", name)
                index = int(match.group(1)) if match else len(uploads)
                uploads.append(
                    Upload(
                        index=index,
                        filename=part.filename or f"file{index}",  # type: ignore[union-attr]
                        data=bytes(raw),
                        content_type=part.headers.get("Content-Type"),
                    )
                )
        return payload, uploads
    body = await request.read()
    return (json.loads(body) if body.strip() else {}), []


def reject(
    store: Store,
    problems: list[Problem],
    handle: InteractionHandle | None,
    route: str,
    prefix: tuple[str | int, ...] = (),
) -> web.Response | None:
    """Record ``problems`` as violations and answer as Discord does: 413 for a file over
    the limit, 50006 for an empty message, else 400 with code 50035 and the errors body
    (:func:`errors_body`, under ``prefix``: ``data`` for interaction callbacks)."""
    if not problems:
        return None
    for p in problems:
        store.violation(p.kind, p.detail, handle, route)
    if any(p.kind == "attachments" and "limit" in p.detail for p in problems):
        return discord_error(413, 40005, "Request entity too large")
    if any(p.kind == "empty_message" for p in problems):
        return discord_error(400, 50006, "Cannot send an empty message")
    return discord_error(400, 50035, "Invalid Form Body", errors_body(problems, prefix))


def fault_response(fault: Fault) -> web.Response:
    """The answer of a scripted fault (a 429 carries Discord's rate limit headers)."""
    if fault.status == 429:
        return web.json_response(
            {"message": fault.message, "retry_after": 0.05, "global": False},
            status=429,
            headers={"Retry-After": "0.05", "X-RateLimit-Scope": "user"},
            content_type="application/json",
        )
    return discord_error(fault.status, fault.code, f"{fault.status}: {fault.message}")


_PARAM = re.compile(r"{(\w+)}")
_PARAM_PATTERNS = {
    "token": r"[^/]+",
    "emoji": r"[^/]+",
    "message_ref": r"@original|\d+",
    "user_ref": r"@me|\d+",
    "instance": r"[^/]+",
}


def bot_authorized(store: Store, request: web.Request, sub: str) -> bool:
    """True when ``request`` carries the bot's ``Authorization: Bot ...`` header (the token is
    remembered in :attr:`.store.Store.tokens_seen`); else a violation is recorded."""
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bot "):
        store.violation("auth", f"missing bot Authorization header on {request.method} {sub}")
        return False
    store.tokens_seen.add(auth[4:])
    return True


def compile_route(path: str) -> re.Pattern[str]:
    """The regex of a route path: ``{name}`` parameters become named groups."""

    def repl(match: re.Match[str]) -> str:
        name = match.group(1)
        return f"(?P<{name}>{_PARAM_PATTERNS.get(name, r'[0-9]+')})"

    return re.compile("^" + _PARAM.sub(repl, path) + "/?$")


class Router:
    """Every HTTP request the fake gets: the CDN, then the REST routes of its resources.

    Scripted faults (:meth:`fail`) answer first; a route needing the bot's authorization
    without a ``Bot`` token is a violation (401); a request no route knows is recorded in
    :attr:`.store.Store.unknown_routes` (404).
    """

    def __init__(
        self, store: Store, message_api: MessagesAPI, resources: Sequence[Resource]
    ) -> None:
        self.store = store
        self.message_api = message_api
        self._routes = [
            (method, compile_route(path), handler, auth)
            for resource in resources
            for method, path, handler, auth in resource.routes()
        ]

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        code: int = 0,
        *,
        times: int = 1,
        message: str = "scripted failure",
    ) -> Fault:
        """Answer the next ``times`` requests ``method`` on paths matching the regex ``path``
        (relative to the API base, e.g. ``r"/channels/\\d+/messages"``) with ``status``/``code``.
        ``fail("GET", r"/gateway", 503)`` refuses the gateway's websocket handshake.

        Use it to test what the bot does when Discord answers 403, 404, 429 or 500.
        """
        fault = Fault(method.upper(), re.compile(path), status, code, times, message)
        self.store.faults.append(fault)
        return fault

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        """Log every request; a crash of a handler is recorded and answered 400."""
        self.store.requests.append(f"{request.method} {request.path}")
        self.store.notify()
        try:
            return await handler(request)  # type: ignore[no-any-return]
        except web.HTTPException:
            raise
        except Exception as exc:
            self.store.errors.append(
                f"{request.method} {request.path}: {exc!r}\n{traceback.format_exc()}"
            )
            self.store.notify()
            # 400, not 500: discord.py retries 5xx with back-off, which only slows tests down.
            return discord_error(400, 0, f"fake Discord crashed handling this request: {exc!r}")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one HTTP request (every path but the gateway's websocket)."""
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            return self.message_api.serve_attachment(path)
        if request.method == "GET" and path.startswith(("/embed/avatars/", "/avatars/")):
            return web.Response(body=solid_png(64, 64), content_type="image/png")
        if path.startswith(API_PREFIX + "/"):
            sub = path[len(API_PREFIX) :]
            fault = self.store.take_fault(request.method, sub)
            if fault is not None:
                await request.read()
                return fault_response(fault)
            for method, pattern, handler, needs_auth in self._routes:
                match = pattern.match(sub) if method == request.method else None
                if match is None:
                    continue
                if needs_auth and not self._authorized(request, sub):
                    return discord_error(401, 0, "401: Unauthorized")
                params = {
                    k: (int(v) if k.endswith("_id") else v) for k, v in match.groupdict().items()
                }
                return await handler(request, **params)  # type: ignore[no-any-return]
        body = await request.read()
        self.store.unknown_routes.append(
            UnknownRoute(request.method, path, request.query_string, body)
        )
        self.store.notify()
        return discord_error(404, 0, "404: Not Found (route unknown to the fake Discord)")

    def _authorized(self, request: web.Request, sub: str) -> bool:
        return bot_authorized(self.store, request, sub)
