"""OAuth2 and Activity instances as Discord answers an Activity: the code exchange (``POST
/oauth2/token``), the user behind a bearer token (``GET /users/@me`` with ``Authorization:
Bearer ...``) and where an instance runs and who is in it (``GET
/applications/{application_id}/activity-instances/{instance_id}``, with the bot's token:
Discord's "Activity Instance Management"). An instance starts when the bot answers an
interaction with callback type 12 (``LAUNCH_ACTIVITY``).

Discord's steps (https://discord.com/developers/docs/topics/oauth2, "Authorization Code
Grant"; the Embedded App SDK's ``authorize`` command hands the page a code): the
application's server posts ``client_id``, ``client_secret``, ``grant_type=authorization_code``
and ``code`` as a form and receives ``access_token``, ``token_type`` ("Bearer"),
``expires_in``, ``refresh_token`` and ``scope``; ``GET /users/@me`` with that bearer token
gives the user (with ``locale`` under the ``identify`` scope). A code is good once.

The fake's codes are issued by the test (:meth:`OAuthAPI.issue_code`, or by the stand-in
client frame through :meth:`issue_code` too), so a test decides who authorises.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from .routing import discord_error, json_response

if TYPE_CHECKING:
    from .records import FakeUser
    from .routing import Route
    from .store import Store

#: How long an access token lives (seconds), as Discord's answer says it.
TOKEN_LIFETIME_S = 604800


@dataclass
class OAuthState:
    """The fake's OAuth2 books: the application's secret, codes not yet exchanged, tokens."""

    client_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    codes: dict[str, int] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    exchanges: list[str] = field(default_factory=list)


class OAuthAPI:
    """The OAuth2 resource of the fake (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.state = OAuthState()

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot
        authorization). ``/users/@me`` with a bearer token is answered by
        :meth:`bearer_user`, called from the user resource."""
        return [
            ("POST", "/oauth2/token", self._token, False),
            (
                "GET",
                "/applications/{application_id}/activity-instances/{instance}",
                self._instance,
                True,
            ),
        ]

    def join(self, user: FakeUser, instance_id: str) -> None:
        """``user`` joins the running Activity instance ``instance_id``."""
        self.store.activity_instances[instance_id].users.append(user.id)

    async def _instance(
        self, request: web.Request, application_id: int, instance: str
    ) -> web.Response:
        running = self.store.activity_instances.get(instance)
        if application_id != self.store.application_id or running is None:
            return discord_error(404, 10001, "Unknown Activity Instance")
        return json_response(
            {
                "application_id": str(self.store.application_id),
                "instance_id": running.id,
                "launch_id": running.id,
                "location": {
                    "id": f"gc-{self.store.guild_id}-{running.channel_id}",
                    "kind": "gc",
                    "channel_id": str(running.channel_id),
                    "guild_id": str(self.store.guild_id),
                },
                "users": [str(u) for u in running.users],
            }
        )

    def issue_code(self, user: FakeUser) -> str:
        """A one-time authorisation code for ``user``, as the Discord client hands one to
        the Activity after ``authorize``."""
        code = secrets.token_urlsafe(16)
        self.state.codes[code] = user.id
        return code

    def bearer_user(self, request: web.Request) -> FakeUser | None:
        """The user of the request's ``Authorization: Bearer`` token (None: no such token)."""
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return None
        user_id = self.state.tokens.get(auth[len("Bearer ") :])
        return None if user_id is None else self.store.users_by_id.get(user_id)

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.state.exchanges.append(str(form.get("code", "")))
        if str(form.get("grant_type", "")) != "authorization_code":
            return json_response({"error": "unsupported_grant_type"}, 400)
        if str(form.get("client_id", "")) != str(self.store.application_id) or str(
            form.get("client_secret", "")
        ) != (self.state.client_secret):
            return json_response({"error": "invalid_client"}, 401)
        user_id = self.state.codes.pop(str(form.get("code", "")), None)
        if user_id is None:
            return json_response(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                400,
            )
        token = secrets.token_urlsafe(24)
        self.state.tokens[token] = user_id
        return json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME_S,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )
