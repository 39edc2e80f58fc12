"""The Activity's sign-in: Discord's OAuth2 code exchange, made by the bot's web server.

Inside Discord's Activity frame the page runs Discord's Embedded App SDK
(``web/static/vendor/discord-sdk.js``). Its ``authorize`` command asks the
Discord client for a one-time OAuth2 code for the application (scope
``identify``); the page posts that code to the bot, which exchanges it here
for an access token and asks Discord who the token belongs to (Discord's
developer documentation: "Building an Activity", step "Authorizing and
authenticating users"; OAuth2 "Authorization Code Grant"). The user's id then
picks the seat (their private board) or the spectator's view of the game in
the Activity's channel.

The REST base is the bot's own (``DISCORD_API_BASE``, default Discord's
``https://discord.com/api/v10``), so tests answer it with the fake Discord. The
client secret and the access token are never logged, never stored and never
sent to the page except the access token, which the page needs for the SDK's
``authenticate`` command.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp

#: Discord's REST base when ``DISCORD_API_BASE`` is not set.
DISCORD_API = "https://discord.com/api/v10"
#: How long one call to Discord may take before the sign-in is given up (seconds).
TIMEOUT_S = 5.0


@dataclass(frozen=True)
class ActivityUser:
    """The Discord user who opened the Activity.

    Attributes:
        id: their Discord user id.
        name: their global display name, else their username.
        locale: their Discord client's language (``en-US``, ``de``, ...), "" if not given.
        access_token: the OAuth2 access token (for the SDK's ``authenticate``; never logged).
    """

    id: int
    name: str
    locale: str
    access_token: str

    def __repr__(self) -> str:
        return f"ActivityUser(id={self.id}, locale={self.locale!r})"


class SignInError(Exception):
    """The code could not be exchanged. ``reason``: ``"refused"`` (Discord refused the
    code or the application's secret: an old, used or forged code), ``"unreachable"``
    (Discord did not answer in time or answered with a server error) or ``"not_configured"``
    (no client secret set)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def exchange_code(
    session: aiohttp.ClientSession,
    *,
    api_base: str | None,
    client_id: int,
    client_secret: str,
    code: str,
) -> ActivityUser:
    """Exchange an Activity's one-time OAuth2 ``code`` for its user.

    Args:
        session: the HTTP client session to use.
        api_base: the REST base (``DISCORD_API_BASE``), None for Discord's.
        client_id: the application's id (the bot's user id).
        client_secret: the application's OAuth2 client secret.
        code: the code the SDK's ``authorize`` returned to the page.

    Returns:
        The user, with the access token.

    Raises:
        SignInError: see its reasons.
    """
    if not client_secret:
        raise SignInError("not_configured")
    base = (api_base or DISCORD_API).rstrip("/")
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
    form = {
        "client_id": str(client_id),
        "client_secret": client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    try:
        async with session.post(f"{base}/oauth2/token", data=form, timeout=timeout) as reply:
            if reply.status >= 500:
                raise SignInError("unreachable")
            if reply.status != 200:
                raise SignInError("refused")
            token = str((await reply.json()).get("access_token", ""))
        if not token:
            raise SignInError("refused")
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(f"{base}/users/@me", headers=headers, timeout=timeout) as reply:
            if reply.status >= 500:
                raise SignInError("unreachable")
            if reply.status != 200:
                raise SignInError("refused")
            user = await reply.json()
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise SignInError("unreachable") from exc
    return ActivityUser(
        id=int(user["id"]),
        name=str(user.get("global_name") or user.get("username") or ""),
        locale=str(user.get("locale") or ""),
        access_token=token,
    )
