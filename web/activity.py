"""The live board as an Activity inside Discord: its page and its sign-in.

Inside Discord's Activity frame the page (``GET /activity``, script
``web/static/activity.js``) runs Discord's Embedded App SDK
(``web/static/discord-sdk.js``). Its ``authorize`` command asks the
Discord client for a one-time OAuth2 code for the application (scope
``identify``); the page posts that code and the SDK's ``instance_id`` to
``POST /api/activity/session``. The bot then

1. exchanges the code for an access token and asks Discord whose it is
   (``POST /oauth2/token``, ``GET /users/@me``: OAuth2's "Authorization Code
   Grant", as Discord's "Building an Activity" guide does it);
2. asks Discord, with the bot's token, where that Activity instance runs and
   who is in it (``GET /applications/{id}/activity-instances/{instance_id}``,
   Discord's "Activity Instance Management"): the channel comes from Discord,
   never from the page, and the user must be in the instance, so nobody reads
   the game of a channel they cannot see;
3. answers with the board of that channel's game: a private link of the user
   (their hand and tickets when they hold a seat, the spectators' board
   otherwise), in the user's Discord language.

The REST base is the bot's own (``DISCORD_API_BASE``, default Discord's), so
tests answer it with the fake Discord. The client secret, the bot token and
the access token are never logged, stored or sent to the page.
"""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from words import lang_of, words_for

from .errors import WebError
from .pages import page
from .tokens import private_grant, sign

#: Discord's REST base when ``DISCORD_API_BASE`` is not set.
DISCORD_API = "https://discord.com/api/v10"
#: How long one call to Discord may take before the sign-in is given up (seconds).
TIMEOUT_S = 5.0
_CODE = re.compile(r"[A-Za-z0-9._~-]{1,512}")
_INSTANCE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


@dataclass(frozen=True)
class ActivityConfig:
    """What the Activity's sign-in needs.

    Attributes:
        client_id: the application's OAuth2 client id (``DISCORD_CLIENT_ID``).
        client_secret: its client secret (``DISCORD_CLIENT_SECRET``; never shown).
        bot_token: the bot's token (``DISCORD_TOKEN``), to ask where an instance runs.
        api_base: the REST base (``DISCORD_API_BASE``), None for Discord's.
    """

    client_id: int
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api_base: str | None = None

    @property
    def base(self) -> str:
        """The REST base without a trailing ``/``."""
        return (self.api_base or DISCORD_API).rstrip("/")


@dataclass(frozen=True)
class ActivityUser:
    """The Discord user who opened the Activity: their id and Discord language
    (``en-US``, ``de``, ...; "" when not given)."""

    id: int
    locale: str


class SignInError(Exception):
    """The sign-in failed. ``reason``: ``"refused"`` (Discord refused the code or the
    application's secret: an old, used or forged code), ``"not_in_instance"`` (the user is
    not in that Activity instance, or there is no such instance) or ``"unreachable"``
    (Discord did not answer in time or answered with a server error)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def _json(reply: aiohttp.ClientResponse, refused: str) -> Any:
    if reply.status >= 500:
        raise SignInError("unreachable")
    if reply.status != 200:
        raise SignInError(refused)
    return await reply.json()


async def exchange_code(
    session: aiohttp.ClientSession, config: ActivityConfig, code: str
) -> ActivityUser:
    """Exchange an Activity's one-time OAuth2 ``code`` for its user.

    Raises:
        SignInError: ``refused`` or ``unreachable``.
    """
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
    form = {
        "client_id": str(config.client_id),
        "client_secret": config.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    try:
        async with session.post(f"{config.base}/oauth2/token", data=form, timeout=timeout) as r:
            token = str((await _json(r, "refused")).get("access_token", ""))
        if not token:
            raise SignInError("refused")
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(f"{config.base}/users/@me", headers=headers, timeout=timeout) as r:
            user = await _json(r, "refused")
        return ActivityUser(id=int(user["id"]), locale=str(user.get("locale") or ""))
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError, TypeError) as exc:
        raise SignInError("unreachable") from exc


async def instance_channel(
    session: aiohttp.ClientSession, config: ActivityConfig, instance_id: str, user_id: int
) -> int:
    """The channel the Activity instance ``instance_id`` runs in, when ``user_id`` is in it.

    Raises:
        SignInError: ``not_in_instance`` or ``unreachable``.
    """
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
    url = f"{config.base}/applications/{config.client_id}/activity-instances/{instance_id}"
    headers = {"Authorization": f"Bot {config.bot_token}"}
    try:
        async with session.get(url, headers=headers, timeout=timeout) as r:
            instance = await _json(r, "not_in_instance")
        users = {int(u) for u in instance.get("users") or []}
        channel = (instance.get("location") or {}).get("channel_id")
        if user_id not in users or channel is None:
            raise SignInError("not_in_instance")
        return int(channel)
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError, TypeError) as exc:
        raise SignInError("unreachable") from exc


class ActivityRoutes:
    """``GET /activity`` and ``POST /api/activity/session`` on the live board's app.

    Args:
        service: the game service (``queries.last_game_in_channel``).
        secret: the key that signs board links.
        config: the OAuth2 client and the REST base.
        clock: unix seconds (the link's expiry).
    """

    def __init__(
        self,
        service: Any,
        secret: bytes,
        config: ActivityConfig,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.secret = secret
        self.config = config
        self.clock = clock
        self._session: aiohttp.ClientSession | None = None

    def add_to(self, app: web.Application) -> None:
        """Register the routes (and close the HTTP client with the app)."""
        app.router.add_get("/activity", self.page)
        app.router.add_post("/api/activity/session", self.session)
        app.on_cleanup.append(self._close)

    async def _close(self, _app: web.Application) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        return self._session

    async def page(self, request: web.Request) -> web.Response:
        """The Activity's HTML shell (in the browser's language: nobody is signed in yet)."""
        lang = lang_of(request.headers.get("Accept-Language", ""))
        return web.Response(
            text=activity_shell(lang, self.config.client_id),
            content_type="text/html",
            headers={"Cache-Control": "no-store"},
        )

    async def session(self, request: web.Request) -> web.Response:
        """Sign the Activity's user in; ``{"board": "/b/<token>"}``. Refuses
        ``activity_sign_in_refused``, ``activity_unavailable`` or ``activity_no_game``."""
        lang = lang_of(request.headers.get("Accept-Language", ""))
        try:
            body = json.loads(await request.text())
            code, instance = str(body["code"]), str(body["instance_id"])
        except (ValueError, KeyError, TypeError):
            raise WebError("activity_sign_in_refused", lang) from None
        if not _CODE.fullmatch(code) or not _INSTANCE.fullmatch(instance):
            raise WebError("activity_sign_in_refused", lang)
        try:
            user = await exchange_code(self._client(), self.config, code)
            lang = lang_of(user.locale) if user.locale else lang
            channel = await instance_channel(self._client(), self.config, instance, user.id)
        except SignInError as exc:
            if exc.reason == "unreachable":
                raise WebError("activity_unavailable", lang) from None
            raise WebError("activity_sign_in_refused", lang) from None
        game = await self.service.queries.last_game_in_channel(channel)
        if game is None:
            raise WebError("activity_no_game", lang)
        token = sign(self.secret, private_grant(game.id, user.id, lang, self.clock()))
        payload = json.dumps({"board": f"/b/{token}"})
        return web.Response(
            text=payload, content_type="application/json", headers={"Cache-Control": "no-store"}
        )


def activity_shell(lang: str, client_id: int) -> str:
    """The Activity's HTML: no inline script or style; ``activity.js`` signs the user in."""
    w = words_for(lang)
    signing_in = w.t("Signing you in with Discord…")
    failed = w.t("Discord did not let the board sign you in. Close the Activity and open it again.")
    body = (
        f'<main id="app" data-client-id="{client_id}" '
        f'data-failed="{html.escape(failed, quote=True)}">'
        f'<p id="status">{html.escape(signing_in)}</p></main>\n'
    )
    return page(lang, w.t("Live board"), body, "activity.js")


__all__ = [
    "ActivityConfig",
    "ActivityRoutes",
    "ActivityUser",
    "SignInError",
    "activity_shell",
    "exchange_code",
    "instance_channel",
]
