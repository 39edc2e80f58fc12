"""The bot's answers to interactions: the interaction callback (types 4 to 9) and the interaction
webhook (followups, ``@original`` and followup edits and deletions), with Discord's rules on
acknowledgements, ephemerality and payloads."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .protocol import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    LAUNCH_ACTIVITY,
    LOADING,
    MODAL,
    UPDATE_MESSAGE,
)
from .records import ActivityInstance, ModalRequest
from .routing import discord_error, json_response, no_content, read_payload, reject
from .validation import check_choices, check_message_payload, check_modal

if TYPE_CHECKING:
    from .interactions import InteractionHandle
    from .messages import MessagesAPI
    from .records import StoredMessage, Upload
    from .routing import Route
    from .store import Store


class CallbacksAPI:
    """The interaction callback and webhook resource of the fake."""

    def __init__(self, store: Store, message_api: MessagesAPI) -> None:
        self.store = store
        self.message_api = message_api

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            (
                "POST",
                "/interactions/{interaction_id}/{token}/callback",
                self._interaction_callback,
                False,
            ),
            ("POST", "/webhooks/{application_id}/{token}", self._followup, False),
            (
                "GET",
                "/webhooks/{application_id}/{token}/messages/{message_ref}",
                self._get_webhook_message,
                False,
            ),
            (
                "PATCH",
                "/webhooks/{application_id}/{token}/messages/{message_ref}",
                self._edit_webhook_message,
                False,
            ),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message_ref}",
                self._delete_webhook_message,
                False,
            ),
        ]

    async def _interaction_callback(
        self, request: web.Request, interaction_id: int, token: str
    ) -> web.Response:
        """Discord's interaction response: acknowledge once, within the deadline, with a
        callback type the interaction allows and a payload Discord accepts."""
        route = f"POST /interactions/{interaction_id}/.../callback"
        payload, uploads = await read_payload(request)
        handle = self.store.interactions.get(token)
        if handle is None or handle.id != interaction_id:
            self.store.violation(
                "unknown_interaction",
                "callback for an interaction the fake never sent",
                route=route,
            )
            return discord_error(404, 10062, "Unknown interaction")
        now = asyncio.get_running_loop().time()
        refused = self._refuse(handle, payload, uploads, route, now)
        if refused is not None:
            return refused
        ctype = payload.get("type")
        data = payload.get("data") or {}
        handle.ack_type = ctype
        handle.acked_at = now
        if handle._timer is not None:
            handle._timer.cancel()
        message_json = await self._acknowledge(handle, ctype, data, uploads, route)
        if isinstance(message_json, web.Response):
            return message_json
        self.store.notify()

        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(handle.id),
                "type": handle.type,
                "activity_instance_id": None,
                "response_message_id": str(handle.original_message_id)
                if handle.original_message_id
                else None,
                "response_message_loading": ctype == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(handle.ephemeral),
            },
            "resource": {"type": ctype},
        }
        if message_json is not None:
            body["resource"]["message"] = message_json
        return json_response(body)

    def _refuse(
        self,
        handle: InteractionHandle,
        payload: Mapping[str, Any],
        uploads: Sequence[Upload],
        route: str,
        now: float,
    ) -> web.Response | None:
        """Discord's answer to a callback it refuses (a second or late acknowledgement, a
        callback type the interaction does not allow, a payload breaking the limits), or None."""
        if handle.ack_type is not None:
            self.store.violation(
                "double_ack", f"second acknowledgement (type {payload.get('type')})", handle, route
            )
            return discord_error(400, 40060, "Interaction has already been acknowledged.")
        assert handle.sent_at is not None
        if handle.expired or now - handle.sent_at > self.store.ack_deadline:
            if not handle.expired:
                handle.expired = True
                self.store.violation(
                    "late_ack",
                    f"acknowledged after {now - handle.sent_at:.2f} s (limit {self.store.ack_deadline:g} s)",
                    handle,
                    route,
                )
            return discord_error(404, 10062, "Unknown interaction")
        ctype = payload.get("type")
        data = payload.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS.get(handle.type, set()):
            self.store.violation(
                "invalid_callback",
                f"callback type {ctype} for interaction type {handle.type}",
                handle,
                route,
            )
            return discord_error(
                400, 50035, "Invalid Form Body", {"type": f"callback type {ctype} not allowed"}
            )
        if ctype == LAUNCH_ACTIVITY and not self.store.activity_enabled:
            # Discord refuses to launch an Activity the application does not have.
            return discord_error(400, 50035, "Invalid Form Body", {"type": "no Activity"})
        if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            problems = check_message_payload(
                data,
                uploads,
                size_limit=self.store.attachment_size_limit,
                creating=ctype == CHANNEL_MESSAGE,
            )
        elif ctype == AUTOCOMPLETE_RESULT:
            problems = check_choices(data.get("choices"))
        elif ctype == MODAL:
            problems = check_modal(data)
        else:
            problems = []
        return reject(self.store, problems, handle, route, ("data",))

    async def _acknowledge(
        self,
        handle: InteractionHandle,
        ctype: int,
        data: Mapping[str, Any],
        uploads: Sequence[Upload],
        route: str,
    ) -> dict[str, Any] | web.Response | None:
        """Carry out an accepted callback: the message it creates or updates (returned as JSON),
        the thinking message of a defer, the autocomplete choices or the modal."""
        message_json: dict[str, Any] | None = None
        if ctype == CHANNEL_MESSAGE:
            stored = self.message_api.new_message(
                handle.channel.id,
                handle=handle,
                webhook=True,
                type=20 if handle.type == APPLICATION_COMMAND else 0,
            )
            self.message_api.apply_payload(
                stored, data, uploads, creating=True, allow_ephemeral=True
            )
            handle.original_message_id = stored.id
            handle.ephemeral = stored.flags & EPHEMERAL != 0
            self.message_api.record(stored, "response", data, handle)
            message_json = self.message_api.message_json(stored)
            await self.message_api.announce(stored, "MESSAGE_CREATE")
        elif ctype == DEFERRED_CHANNEL_MESSAGE:
            stored = self.message_api.new_message(
                handle.channel.id,
                handle=handle,
                webhook=True,
                type=20 if handle.type == APPLICATION_COMMAND else 0,
            )
            stored.flags = ((data.get("flags") or 0) & EPHEMERAL) | LOADING
            handle.original_message_id = stored.id
            handle.ephemeral = stored.flags & EPHEMERAL != 0
            handle.loading = True
            self.message_api.record(stored, "deferred", data, handle)
            message_json = self.message_api.message_json(stored)
            await self.message_api.announce(stored, "MESSAGE_CREATE")
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = self.store.stored_messages.get(handle.source_message_id or 0)
            if source is None:
                self.store.violation(
                    "invalid_callback",
                    f"callback type {ctype} without a message to update",
                    handle,
                    route,
                )
                return discord_error(400, 50035, "Invalid Form Body")
            handle.original_message_id = source.id
            handle.ephemeral = source.flags & EPHEMERAL != 0
            if ctype == UPDATE_MESSAGE:
                self.message_api.apply_payload(
                    source, data, uploads, creating=False, allow_ephemeral=False
                )
                self.message_api.record(source, "update", data, handle)
                message_json = self.message_api.message_json(source)
                await self.message_api.announce(source, "MESSAGE_UPDATE")
        elif ctype == AUTOCOMPLETE_RESULT:
            handle.choices = list(data.get("choices") or [])
        elif ctype == LAUNCH_ACTIVITY:
            self.store.activity_launches.append((handle.user.id, handle.channel.id))
            instance = ActivityInstance(
                id=f"i-{self.store.ids.next()}",
                channel_id=handle.channel.id,
                users=[handle.user.id],
            )
            self.store.activity_instances[instance.id] = instance
        elif ctype == MODAL:
            handle.modal = ModalRequest(
                custom_id=data.get("custom_id", ""),
                title=data.get("title", ""),
                components=list(data.get("components") or []),
            )
        return message_json

    def _webhook_handle(
        self, application_id: int, token: str, route: str
    ) -> InteractionHandle | web.Response:
        handle = self.store.interactions.get(token)
        if handle is None or application_id != self.store.application_id:
            self.store.violation(
                "unknown_webhook",
                "interaction webhook with an unknown token or application",
                route=route,
            )
            return discord_error(404, 10015, "Unknown Webhook")
        if handle.ack_type is None:
            self.store.violation(
                "not_acknowledged",
                "webhook used before the interaction was acknowledged",
                handle,
                route,
            )
            return discord_error(404, 10015, "Unknown Webhook")
        return handle

    async def _followup(
        self, request: web.Request, application_id: int, token: str
    ) -> web.Response:
        route = f"POST /webhooks/{application_id}/.../ (followup)"
        payload, uploads = await read_payload(request)
        handle = self._webhook_handle(application_id, token, route)
        if isinstance(handle, web.Response):
            return handle
        rejected = reject(
            self.store,
            check_message_payload(
                payload, uploads, size_limit=self.store.attachment_size_limit, creating=True
            ),
            handle,
            route,
        )
        if rejected is not None:
            return rejected
        requested = payload.get("flags") or 0
        original = self.store.stored_messages.get(handle.original_message_id or 0)
        if handle.loading and original is not None and not original.deleted:
            # The first followup after a type 5 defer replaces the "thinking"
            # message and keeps the ephemerality chosen when deferring.
            if requested & EPHEMERAL and not original.flags & EPHEMERAL:
                self.store.violation(
                    "ephemeral_ignored",
                    "followup asked for ephemeral, but the first followup after a public defer is public",
                    handle,
                    route,
                )
            keep = original.flags & EPHEMERAL
            self.message_api.apply_payload(
                original, payload, uploads, creating=True, allow_ephemeral=False
            )
            original.flags = (original.flags & ~EPHEMERAL) | keep
            handle.loading = False
            stored = original
            event = "MESSAGE_UPDATE"
        else:
            stored = self.message_api.new_message(
                handle.channel.id, handle=handle, webhook=True, type=0
            )
            self.message_api.apply_payload(
                stored, payload, uploads, creating=True, allow_ephemeral=True
            )
            event = "MESSAGE_CREATE"
        self.message_api.record(stored, "followup", payload, handle)
        await self.message_api.announce(stored, event)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(self.message_api.message_json(stored))
        return no_content()

    def _webhook_target(
        self, handle: InteractionHandle, message_ref: str, route: str
    ) -> tuple[StoredMessage, bool] | web.Response:
        if message_ref == "@original":
            message_id = handle.original_message_id
        else:
            message_id = int(message_ref)
        stored = self.store.stored_messages.get(message_id or 0)
        if stored is None or stored.deleted:
            return discord_error(404, 10008, "Unknown Message")
        if message_ref != "@original" and stored.handle is not handle:
            return discord_error(404, 10008, "Unknown Message")
        return stored, message_ref == "@original"

    async def _get_webhook_message(
        self, request: web.Request, application_id: int, token: str, message_ref: str
    ) -> web.Response:
        handle = self._webhook_handle(
            application_id, token, f"GET /webhooks/{application_id}/.../messages/{message_ref}"
        )
        if isinstance(handle, web.Response):
            return handle
        target = self._webhook_target(handle, message_ref, "GET")
        if isinstance(target, web.Response):
            return target
        return json_response(self.message_api.message_json(target[0]))

    async def _edit_webhook_message(
        self, request: web.Request, application_id: int, token: str, message_ref: str
    ) -> web.Response:
        route = f"PATCH /webhooks/{application_id}/.../messages/{message_ref}"
        payload, uploads = await read_payload(request)
        handle = self._webhook_handle(application_id, token, route)
        if isinstance(handle, web.Response):
            return handle
        target = self._webhook_target(handle, message_ref, route)
        if isinstance(target, web.Response):
            return target
        stored, is_original = target
        rejected = reject(
            self.store,
            check_message_payload(
                payload, uploads, size_limit=self.store.attachment_size_limit, creating=False
            ),
            handle,
            route,
        )
        if rejected is not None:
            return rejected
        self.message_api.apply_payload(
            stored, payload, uploads, creating=False, allow_ephemeral=False
        )
        if is_original and handle.loading:
            stored.flags &= ~LOADING
            handle.loading = False
        self.message_api.record(
            stored, "original_edit" if is_original else "followup_edit", payload, handle
        )
        await self.message_api.announce(stored, "MESSAGE_UPDATE")
        return json_response(self.message_api.message_json(stored))

    async def _delete_webhook_message(
        self, request: web.Request, application_id: int, token: str, message_ref: str
    ) -> web.Response:
        route = f"DELETE /webhooks/{application_id}/.../messages/{message_ref}"
        handle = self._webhook_handle(application_id, token, route)
        if isinstance(handle, web.Response):
            return handle
        target = self._webhook_target(handle, message_ref, route)
        if isinstance(target, web.Response):
            return target
        await self.message_api.mark_deleted(target[0])
        return no_content()
