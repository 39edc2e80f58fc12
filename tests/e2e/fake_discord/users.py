"""Users and direct messages as Discord's user resource: ``/users/@me``, ``/users/{id}`` and the
DM channels the bot opens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from .records import FakeChannel
from .routing import bot_authorized, discord_error, json_response

if TYPE_CHECKING:
    from .channels import ChannelsAPI
    from .oauth import OAuthAPI
    from .records import FakeUser
    from .routing import Route
    from .store import Store


class UsersAPI:
    """The user resource of the fake: the bot's own user, other users, DM channels."""

    def __init__(self, store: Store, channel_api: ChannelsAPI, oauth: OAuthAPI) -> None:
        self.store = store
        self.channel_api = channel_api
        self.oauth = oauth

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("GET", "/users/@me", self._get_me, False),
            ("POST", "/users/@me/channels", self._create_dm, True),
            ("GET", "/users/{user_id}", self._get_user, True),
        ]

    def dm_channel(self, user: FakeUser) -> FakeChannel | None:
        """The DM channel the bot opened with ``user``, if any."""
        for channel in self.store.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return channel
        return None

    async def _get_me(self, request: web.Request) -> web.Response:
        """The bot's own user for a ``Bot`` token; for an OAuth2 ``Bearer`` token (an
        Activity's user) that user with their locale; else 401 and a violation."""
        if request.headers.get("Authorization", "").startswith("Bearer "):
            user = self.oauth.bearer_user(request)
            if user is None:
                return discord_error(401, 0, "401: Unauthorized")
            return json_response({**user.to_json(), "locale": user.locale})
        if not bot_authorized(self.store, request, "/users/@me"):
            return discord_error(401, 0, "401: Unauthorized")
        return json_response(
            {**self.store.bot_user.to_json(), "verified": True, "mfa_enabled": False}
        )

    async def _get_user(self, request: web.Request, user_id: int) -> web.Response:
        user = self.store.users_by_id.get(user_id)
        if user is None:
            return discord_error(404, 10013, "Unknown User")
        return json_response(user.to_json())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self.store.users_by_id.get(int(body.get("recipient_id", 0)))
        if user is None:
            return discord_error(404, 10013, "Unknown User")
        channel = self.dm_channel(user)
        if channel is None:
            channel = FakeChannel(
                id=self.store.ids.next(), name=f"dm-{user.name}", type=1, recipient=user
            )
            self.store.channels[channel.id] = channel
        return json_response(self.channel_api.channel_json(channel))
