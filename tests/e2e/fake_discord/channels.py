"""Guild text channels (and DM channels) as Discord's channel resource: the channel objects, the
bot's permissions per channel, and ``/channels/{id}`` itself (get, edit, delete, typing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .protocol import Perm
from .records import FakeChannel
from .routing import discord_error, json_response, no_content

if TYPE_CHECKING:
    from .routing import Route
    from .store import Store


class ChannelsAPI:
    """The channel resource of the fake."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("PATCH", "/channels/{channel_id}", self._edit_channel, True),
            ("DELETE", "/channels/{channel_id}", self._delete_channel, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
        ]

    def add_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        """Add a guild text channel (dispatches CHANNEL_CREATE if connected)."""
        position = sum(1 for c in self.store.channels.values() if c.type == 0)
        channel = FakeChannel(
            id=self.store.ids.next(),
            name=name,
            guild_id=self.store.guild_id,
            position=position,
            topic=topic,
        )
        self.store.channels[channel.id] = channel
        self.store.background_dispatch("CHANNEL_CREATE", self.channel_json(channel))
        return channel

    def channel(self, ref: FakeChannel | str | int) -> FakeChannel:
        """A channel by object, name or id."""
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int):
            return self.store.channels[ref]
        for channel in self.store.channels.values():
            if channel.name == ref:
                return channel
        raise KeyError(f"no channel {ref!r}")

    def channel_or_default(self, ref: FakeChannel | str | int | None) -> FakeChannel:
        """A channel by object, name or id; None is the default channel."""
        return self.default_channel if ref is None else self.channel(ref)

    @property
    def default_channel(self) -> FakeChannel:
        """The first text channel."""
        return next(c for c in self.store.channels.values() if c.type == 0)

    def set_bot_permissions(self, channel: FakeChannel | str | int, permissions: int) -> None:
        """The bot's permissions in ``channel`` from now on (an admin changed the channel's settings)."""
        self.store.bot_channel_permissions[self.channel(channel).id] = permissions

    def bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in a channel (threads inherit their parent's)."""
        channel = self.store.channels.get(channel_id)
        if channel is not None and channel.parent_id is not None:
            channel_id = channel.parent_id
        return self.store.bot_channel_permissions.get(channel_id, Perm.BOT)

    def channel_json(
        self, channel: FakeChannel, *, permissions: int | None = None
    ) -> dict[str, Any]:
        """Discord's channel object (DM, thread or text channel); ``permissions`` adds the
        interaction channel's ``permissions`` string."""
        if channel.type == 1:
            data: dict[str, Any] = {
                "id": str(channel.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [channel.recipient.to_json()] if channel.recipient else [],
                "flags": 0,
            }
        elif channel.is_thread:
            count = sum(
                1
                for m in self.store.stored_messages.values()
                if m.channel_id == channel.id and not m.deleted
            )
            data = {
                "id": str(channel.id),
                "type": channel.type,
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "owner_id": str(channel.owner_id),
                "name": channel.name,
                "last_message_id": None,
                "message_count": count,
                "total_message_sent": count,
                "member_count": len(channel.member_ids),
                "rate_limit_per_user": 0,
                "flags": 0,
                "applied_tags": [],
                "thread_metadata": {
                    "archived": channel.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": channel.created_at,
                    "locked": channel.locked,
                    "invitable": channel.invitable,
                    "create_timestamp": channel.created_at,
                },
            }
        else:
            data = {
                "id": str(channel.id),
                "type": channel.type,
                "guild_id": str(channel.guild_id),
                "name": channel.name,
                "position": channel.position,
                "permission_overwrites": [],
                "parent_id": None,
                "topic": channel.topic,
                "nsfw": False,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "default_auto_archive_duration": 1440,
                "flags": 0,
            }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def channel_or_error(self, channel_id: int) -> FakeChannel | web.Response:
        """The channel, or Discord's 404 Unknown Channel."""
        channel = self.store.channels.get(channel_id)
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self.channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        return json_response(self.channel_json(channel))

    async def _edit_channel(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self.channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        body = await request.json()
        for key in ("name", "topic", "archived", "locked", "invitable", "position"):
            if key in body and body[key] is not None:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        data = self.channel_json(channel)
        self.store.notify()
        await self.store.dispatch(event, data)
        return json_response(data)

    async def _delete_channel(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self.channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        data = self.channel_json(channel)
        del self.store.channels[channel_id]
        self.store.notify()
        await self.store.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", data)
        return json_response(data)

    async def _typing(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self.channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        return no_content()
