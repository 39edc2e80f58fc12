"""Messages as Discord's message resource: the store of every message (the bot's, users', planted
ones), their JSON and snapshots, the gateway events they cause, and ``/channels/{id}/messages``
with pins, reactions and the attachments' CDN."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .protocol import (
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    MESSAGE_COMPONENT,
    SUPPRESS_EMBEDS,
    THREAD_TYPES,
    USER_SETTABLE_FLAGS,
    Perm,
)
from .records import Attachment, SentMessage, StoredMessage, now_iso, pings_of, sniff_content_type
from .routing import discord_error, json_response, no_content, read_payload, reject
from .validation import check_message_payload

if TYPE_CHECKING:
    from .channels import ChannelsAPI
    from .guilds import GuildAPI
    from .interactions import InteractionHandle
    from .records import FakeChannel, FakeUser, Upload
    from .routing import Route
    from .store import Store


class MessagesAPI:
    """The message resource of the fake."""

    def __init__(self, store: Store, channel_api: ChannelsAPI, guild_api: GuildAPI) -> None:
        self.store = store
        self.channel_api = channel_api
        self.guild_api = guild_api

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("GET", "/channels/{channel_id}/messages/pins", self._list_pins, True),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._pin, True),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._unpin, True),
            ("GET", "/channels/{channel_id}/messages", self._list_messages, True),
            ("POST", "/channels/{channel_id}/messages", self._create_message, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message, True),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._add_reaction,
                True,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._remove_reaction,
                True,
            ),
        ]

    def message(self, message_id: int | SentMessage) -> SentMessage:
        """The current state of a stored message."""
        return self.snapshot(self.stored(message_id), "current")

    def messages_in(
        self, channel: FakeChannel | str | int, *, include_ephemeral: bool = False
    ) -> list[SentMessage]:
        """Current state of the non-deleted messages of a channel, oldest first."""
        channel_id = self.channel_api.channel(channel).id
        return [
            self.snapshot(m, "current")
            for m in self.store.stored_messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and (include_ephemeral or not m.flags & EPHEMERAL)
        ]

    def plant_bot_message(
        self, channel: FakeChannel | str | int, content: str, custom_ids: Sequence[str]
    ) -> SentMessage:
        """Store a message "from the bot" with buttons of any custom_id, without the bot sending it:
        what a forged, stale or misplaced button looks like to the bot when someone clicks it."""
        target = self.channel_api.channel(channel)
        stored = self.new_message(target.id)
        buttons = [
            {"type": 2, "style": 2, "label": f"b{i}", "custom_id": c}
            for i, c in enumerate(custom_ids)
        ]
        payload = {
            "content": content,
            "components": [{"type": 1, "components": buttons}],
            "allowed_mentions": {"parse": []},
        }
        self.apply_payload(stored, payload, [], creating=True, allow_ephemeral=False)
        self.record(stored, "planted", payload, None)
        return self.snapshot(stored, "current")

    async def say(
        self, user: FakeUser | str, content: str, *, channel: FakeChannel | str | int | None = None
    ) -> SentMessage:
        """Post a plain message as ``user`` (dispatches MESSAGE_CREATE)."""
        user = self.guild_api.user(user) if isinstance(user, str) else user
        target = self.channel_api.channel_or_default(channel)
        stored = self.new_message(target.id, author=user)
        stored.content = content
        snap = self.snapshot(stored, "user")
        self.store.user_messages.append(snap)
        await self.store.dispatch("MESSAGE_CREATE", self.message_event(stored))
        return snap

    def stored(self, ref: int | SentMessage) -> StoredMessage:
        """The stored message behind a snapshot or id (LookupError if unknown or deleted)."""
        message_id = ref.message_id if isinstance(ref, SentMessage) else ref
        stored = self.store.stored_messages.get(message_id)
        if stored is None:
            raise LookupError(f"unknown message {message_id}")
        if stored.deleted:
            raise LookupError(f"message {message_id} was deleted")
        return stored

    def snapshot(
        self, stored: StoredMessage, kind: str, payload: Mapping[str, Any] | None = None
    ) -> SentMessage:
        """A :class:`SentMessage` of the message's current state."""
        handle = stored.handle
        return SentMessage(
            kind=kind,
            message_id=stored.id,
            channel_id=stored.channel_id,
            content=stored.content,
            embeds=json.loads(json.dumps(stored.embeds)),
            components=json.loads(json.dumps(stored.components)),
            attachments=list(stored.attachments),
            flags=stored.flags,
            author_id=stored.author.id,
            interaction_id=handle.id if handle else None,
            interaction_token=handle.token if handle else None,
            user=handle.user if handle else None,
            payload=dict(payload or {}),
            at=time.monotonic(),
            pings=stored.pings,
        )

    def record(
        self,
        stored: StoredMessage,
        kind: str,
        payload: Mapping[str, Any] | None,
        handle: InteractionHandle | None,
    ) -> SentMessage:
        """Record a bot message (created or edited) as ``kind``, for ``handle``'s interaction if
        any; a public message for an interaction declared private is a ``privacy`` violation."""
        snap = self.snapshot(stored, kind, payload)
        if handle is not None:
            snap.interaction_id, snap.interaction_token, snap.user = (
                handle.id,
                handle.token,
                handle.user,
            )
        self.store.sent.append(snap)
        if handle is not None:
            handle.messages.append(snap)
            if handle.private and not snap.ephemeral:
                self.store.violation(
                    "privacy",
                    f"{kind} message {snap.message_id} is public but this interaction must answer privately: "
                    f"{snap.summary()}",
                    handle,
                )
        self.store.notify()
        return snap

    def message_json(self, stored: StoredMessage) -> dict[str, Any]:
        """Discord's message object, with ``interaction_metadata`` for an interaction's message."""
        channel = self.store.channels.get(stored.channel_id)
        data: dict[str, Any] = {
            "id": str(stored.id),
            "channel_id": str(stored.channel_id),
            "author": stored.author.to_json(),
            "content": stored.content,
            "timestamp": stored.timestamp,
            "edited_timestamp": stored.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self.attachment_json(a) for a in stored.attachments],
            "embeds": stored.embeds,
            "reactions": [],
            "pinned": stored.pinned,
            "type": stored.type,
            "flags": stored.flags,
            "components": stored.components,
        }
        if channel is not None and channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        if stored.webhook:
            data["webhook_id"] = str(self.store.application_id)
            data["application_id"] = str(self.store.application_id)
        if stored.message_reference:
            data["message_reference"] = stored.message_reference
        handle = stored.handle
        if handle is not None:
            metadata: dict[str, Any] = {
                "id": str(handle.id),
                "type": handle.type,
                "user": handle.user.to_json(),
                "authorizing_integration_owners": {"0": str(self.store.guild_id)},
            }
            if handle.type == MESSAGE_COMPONENT and handle.source_message_id:
                metadata["interacted_message_id"] = str(handle.source_message_id)
            data["interaction_metadata"] = metadata
        return data

    def attachment_json(self, att: Attachment) -> dict[str, Any]:
        """Discord's attachment object, its url served by the fake's CDN."""
        url = f"{self.store.base_url}/attachments/{att.id}/{att.filename}"
        data: dict[str, Any] = {
            "id": str(att.id),
            "filename": att.filename,
            "size": att.size,
            "url": url,
            "proxy_url": url,
            "content_type": att.content_type,
        }
        if att.description is not None:
            data["description"] = att.description
        return data

    def message_event(self, stored: StoredMessage) -> dict[str, Any]:
        """The MESSAGE_CREATE / MESSAGE_UPDATE payload: the message and, in a guild, its author's member."""
        data = self.message_json(stored)
        channel = self.store.channels.get(stored.channel_id)
        if channel is not None and channel.guild_id is not None:
            data["member"] = self.guild_api.member_json(stored.author, with_user=False)
        return data

    def new_message(
        self,
        channel_id: int,
        *,
        author: FakeUser | None = None,
        handle: InteractionHandle | None = None,
        webhook: bool = False,
        type: int = 0,
    ) -> StoredMessage:
        """Store a new, empty message in a channel (by default from the bot)."""
        stored = StoredMessage(
            id=self.store.ids.next(),
            channel_id=channel_id,
            author=author or self.store.bot_user,
            webhook=webhook,
            handle=handle,
            type=type,
        )
        self.store.stored_messages[stored.id] = stored
        return stored

    def apply_payload(
        self,
        stored: StoredMessage,
        payload: Mapping[str, Any],
        uploads: Sequence[Upload],
        *,
        creating: bool,
        allow_ephemeral: bool,
    ) -> None:
        """Apply a create or edit payload to a stored message as Discord does: an edit keeps what
        it does not name, keeps the ephemeral flag and notifies no one."""
        if "content" in payload or creating:
            stored.content = payload.get("content") or ""
        if "embeds" in payload or creating:
            stored.embeds = list(payload.get("embeds") or [])
        if "components" in payload or creating:
            stored.components = list(payload.get("components") or [])
        if creating:
            mask = USER_SETTABLE_FLAGS if allow_ephemeral else USER_SETTABLE_FLAGS & ~EPHEMERAL
            stored.flags = (payload.get("flags") or 0) & mask
            stored.pings = pings_of(stored.content, payload.get("allowed_mentions"))
            if self.store.require_allowed_mentions and "allowed_mentions" not in payload:
                self.store.violation(
                    "mentions",
                    f"message {stored.id} sent without allowed_mentions: {stored.content[:60]!r}",
                    stored.handle,
                )
        else:
            stored.pings = frozenset()  # an edit notifies no one
            if payload.get("flags") is not None:
                keep = stored.flags & (EPHEMERAL | IS_COMPONENTS_V2)
                stored.flags = keep | (payload["flags"] & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        if payload.get("message_reference"):
            stored.message_reference = payload["message_reference"]
        stored.attachments = self._resolve_attachments(
            payload, uploads, [] if creating else stored.attachments
        )
        if not creating:
            stored.edited_timestamp = now_iso()

    def _resolve_attachments(
        self,
        payload: Mapping[str, Any],
        uploads: Sequence[Upload],
        existing: Sequence[Attachment],
    ) -> list[Attachment]:
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()

        def new(upload: Upload, entry: Mapping[str, Any] | None) -> Attachment:
            used.add(upload.index)
            filename = (entry or {}).get("filename") or upload.filename
            att = Attachment(
                id=self.store.ids.next(),
                filename=filename,
                data=upload.data,
                content_type=sniff_content_type(filename, upload.data, upload.content_type),
                declared_content_type=upload.content_type,
                description=(entry or {}).get("description"),
            )
            self.store.attachments[att.id] = att
            return att

        entries = payload.get("attachments")
        if entries is None:
            result = list(existing)
        else:
            result = []
            old = {a.id: a for a in existing}
            for entry in entries:
                try:
                    ref = int(entry.get("id"))
                except (TypeError, ValueError):
                    continue
                if ref in by_index and ref not in used:
                    result.append(new(by_index[ref], entry))
                elif ref in old:
                    result.append(old[ref])
        for upload in uploads:
            if upload.index not in used:
                result.append(new(upload, None))
        return result

    async def announce(self, stored: StoredMessage, event: str) -> None:
        """Tell the gateway about a public message (ephemeral ones get no events)."""
        if stored.flags & EPHEMERAL:
            return
        data = self.message_event(stored)
        await self.store.dispatch(event, data)

    async def mark_deleted(self, stored: StoredMessage) -> None:
        """Delete a message; public ones announce MESSAGE_DELETE."""
        stored.deleted = True
        self.store.deleted_message_ids.append(stored.id)
        self.store.notify()
        if not stored.flags & EPHEMERAL:
            data: dict[str, Any] = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
            channel = self.store.channels.get(stored.channel_id)
            if channel is not None and channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            await self.store.dispatch("MESSAGE_DELETE", data)

    def channel_message(self, channel_id: int, message_id: int) -> StoredMessage | web.Response:
        """A public, live message of that channel, or Discord's 404 Unknown Message."""
        stored = self.store.stored_messages.get(message_id)
        if (
            stored is None
            or stored.deleted
            or stored.channel_id != channel_id
            or stored.flags & EPHEMERAL
        ):
            return discord_error(404, 10008, "Unknown Message")
        return stored

    def serve_attachment(self, path: str) -> web.StreamResponse:
        """The CDN: the bytes of an uploaded attachment."""
        parts = path.split("/")
        try:
            att = self.store.attachments[int(parts[2])]
        except (IndexError, ValueError, KeyError):
            return discord_error(404, 0, "404: Not Found")
        return web.Response(body=att.data, content_type=att.content_type)

    async def _list_messages(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self.channel_api.channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        limit = int(request.query.get("limit", 50))
        before = request.query.get("before")
        after = request.query.get("after")
        found = [
            m
            for m in self.store.stored_messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and not m.flags & EPHEMERAL
            and (before is None or m.id < int(before))
            and (after is None or m.id > int(after))
        ]
        found.sort(key=lambda m: m.id, reverse=after is None)
        return json_response([self.message_json(m) for m in found[:limit]])

    async def _create_message(self, request: web.Request, channel_id: int) -> web.Response:
        route = f"POST /channels/{channel_id}/messages"
        channel = self.channel_api.channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        payload, uploads = await read_payload(request)
        rejected = reject(
            self.store,
            check_message_payload(
                payload, uploads, size_limit=self.store.attachment_size_limit, creating=True
            ),
            None,
            route,
        )
        if rejected is not None:
            return rejected
        if channel.type != 1:  # guild channels: Discord checks the bot's permissions
            perms = self.channel_api.bot_permissions(channel_id)
            need = Perm.VIEW_CHANNEL | (
                Perm.SEND_MESSAGES_IN_THREADS
                if channel.type in THREAD_TYPES
                else Perm.SEND_MESSAGES
            )
            if uploads:
                need |= Perm.ATTACH_FILES
            if perms & Perm.ADMINISTRATOR == 0 and perms & need != need:
                self.store.requests.append(f"POST {route} -> 403 (missing permissions)")
                return discord_error(403, 50013, "Missing Permissions")
        stored = self.new_message(channel_id, type=19 if payload.get("message_reference") else 0)
        self.apply_payload(stored, payload, uploads, creating=True, allow_ephemeral=False)
        self.record(stored, "channel", payload, None)
        await self.announce(stored, "MESSAGE_CREATE")
        return json_response(self.message_json(stored))

    async def _get_message(
        self, request: web.Request, channel_id: int, message_id: int
    ) -> web.Response:
        stored = self.channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        return json_response(self.message_json(stored))

    async def _edit_message(
        self, request: web.Request, channel_id: int, message_id: int
    ) -> web.Response:
        route = f"PATCH /channels/{channel_id}/messages/{message_id}"
        stored = self.channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        payload, uploads = await read_payload(request)
        if stored.author is not self.store.bot_user:
            return discord_error(403, 50005, "Cannot edit a message authored by another user")
        rejected = reject(
            self.store,
            check_message_payload(
                payload, uploads, size_limit=self.store.attachment_size_limit, creating=False
            ),
            None,
            route,
        )
        if rejected is not None:
            return rejected
        self.apply_payload(stored, payload, uploads, creating=False, allow_ephemeral=False)
        # A channel edit of the message a component interaction deferred (type 6) settles that interaction.
        linked = next(
            (
                h
                for h in reversed(list(self.store.interactions.values()))
                if h.ack_type == DEFERRED_UPDATE_MESSAGE
                and h.source_message_id == stored.id
                and not any(
                    m.kind in ("followup", "original_edit", "channel_edit") for m in h.messages
                )
            ),
            None,
        )
        self.record(stored, "channel_edit", payload, linked)
        await self.announce(stored, "MESSAGE_UPDATE")
        return json_response(self.message_json(stored))

    async def _delete_message(
        self, request: web.Request, channel_id: int, message_id: int
    ) -> web.Response:
        stored = self.channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        await self.mark_deleted(stored)
        return no_content()

    async def _list_pins(self, request: web.Request, channel_id: int) -> web.Response:
        pinned = [
            m
            for m in self.store.stored_messages.values()
            if m.channel_id == channel_id and m.pinned and not m.deleted
        ]
        return json_response(
            {
                "items": [
                    {"pinned_at": now_iso(), "message": self.message_json(m)} for m in pinned
                ],
                "has_more": False,
            }
        )

    async def _pin(self, request: web.Request, channel_id: int, message_id: int) -> web.Response:
        stored = self.channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        stored.pinned = True
        self.store.notify()
        return no_content()

    async def _unpin(self, request: web.Request, channel_id: int, message_id: int) -> web.Response:
        stored = self.channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        stored.pinned = False
        self.store.notify()
        return no_content()

    async def _add_reaction(
        self, request: web.Request, channel_id: int, message_id: int, emoji: str
    ) -> web.Response:
        stored = self.channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        self.store.reactions.append((message_id, emoji))
        self.store.notify()
        return no_content()

    async def _remove_reaction(
        self, request: web.Request, channel_id: int, message_id: int, emoji: str
    ) -> web.Response:
        with contextlib.suppress(ValueError):
            self.store.reactions.remove((message_id, emoji))
        return no_content()
