"""Threads as Discord's thread resource: threads started in a channel or from a message, and
their members."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from aiohttp import web

from .protocol import TEXT_CHANNEL_TYPES
from .records import FakeChannel
from .routing import discord_error, json_response, no_content

if TYPE_CHECKING:
    from .channels import ChannelsAPI
    from .messages import MessagesAPI
    from .records import FakeUser
    from .routing import Route
    from .store import Store


class ThreadsAPI:
    """The thread resource of the fake."""

    def __init__(self, store: Store, channel_api: ChannelsAPI, message_api: MessagesAPI) -> None:
        self.store = store
        self.channel_api = channel_api
        self.message_api = message_api

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("POST", "/channels/{channel_id}/threads", self._create_thread, True),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._create_thread,
                True,
            ),
            ("GET", "/channels/{channel_id}/thread-members", self._list_thread_members, True),
            (
                "PUT",
                "/channels/{channel_id}/thread-members/{user_ref}",
                self._add_thread_member,
                True,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/thread-members/{user_ref}",
                self._remove_thread_member,
                True,
            ),
        ]

    def add_thread(
        self,
        parent: FakeChannel | str | int,
        name: str,
        *,
        private: bool = False,
        owner: FakeUser | None = None,
        members: Iterable[FakeUser] = (),
    ) -> FakeChannel:
        """Add a thread under a text channel (dispatches THREAD_CREATE if connected)."""
        parent_channel = self.channel_api.channel(parent)
        owner = owner or self.store.bot_user
        thread = FakeChannel(
            id=self.store.ids.next(),
            name=name,
            type=12 if private else 11,
            guild_id=self.store.guild_id,
            parent_id=parent_channel.id,
            owner_id=owner.id,
            member_ids={owner.id, *(m.id for m in members)},
        )
        self.store.channels[thread.id] = thread
        self.store.background_dispatch(
            "THREAD_CREATE", {**self.channel_api.channel_json(thread), "newly_created": True}
        )
        return thread

    async def _create_thread(
        self, request: web.Request, channel_id: int, message_id: int | None = None
    ) -> web.Response:
        parent = self.channel_api.channel_or_error(channel_id)
        if isinstance(parent, web.Response):
            return parent
        if parent.type not in TEXT_CHANNEL_TYPES:
            return discord_error(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        if message_id is not None:
            stored = self.message_api.channel_message(channel_id, message_id)
            if isinstance(stored, web.Response):
                return stored
            thread_type = 11
        else:
            thread_type = body.get("type") or 12
        thread = FakeChannel(
            id=message_id or self.store.ids.next(),
            name=body["name"],
            type=thread_type,
            guild_id=self.store.guild_id,
            parent_id=channel_id,
            owner_id=self.store.bot_user.id,
            invitable=body.get("invitable", True),
            member_ids={self.store.bot_user.id},
        )
        self.store.channels[thread.id] = thread
        data = self.channel_api.channel_json(thread)
        self.store.notify()
        await self.store.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return json_response(data, 201)

    async def _list_thread_members(self, request: web.Request, channel_id: int) -> web.Response:
        thread = self.channel_api.channel_or_error(channel_id)
        if isinstance(thread, web.Response):
            return thread
        return json_response(
            [
                {
                    "id": str(thread.id),
                    "user_id": str(uid),
                    "join_timestamp": thread.created_at,
                    "flags": 0,
                }
                for uid in sorted(thread.member_ids)
            ]
        )

    def _thread_member_target(
        self, channel_id: int, user_ref: str
    ) -> tuple[FakeChannel, int] | web.Response:
        thread = self.channel_api.channel_or_error(channel_id)
        if isinstance(thread, web.Response):
            return thread
        if not thread.is_thread:
            return discord_error(400, 50024, "Cannot execute action on this channel type")
        user_id = self.store.bot_user.id if user_ref == "@me" else int(user_ref)
        if user_id not in self.store.users_by_id:
            return discord_error(404, 10013, "Unknown User")
        return thread, user_id

    async def _add_thread_member(
        self, request: web.Request, channel_id: int, user_ref: str
    ) -> web.Response:
        target = self._thread_member_target(channel_id, user_ref)
        if isinstance(target, web.Response):
            return target
        target[0].member_ids.add(target[1])
        self.store.notify()
        return no_content()

    async def _remove_thread_member(
        self, request: web.Request, channel_id: int, user_ref: str
    ) -> web.Response:
        target = self._thread_member_target(channel_id, user_ref)
        if isinstance(target, web.Response):
            return target
        target[0].member_ids.discard(target[1])
        self.store.notify()
        return no_content()
