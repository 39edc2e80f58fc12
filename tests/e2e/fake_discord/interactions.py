"""Interactions as a Discord user causes them: slash commands, autocomplete, button clicks,
select picks and modal submissions sent as INTERACTION_CREATE, each with a handle that waits
for the bot's response, the 3-second acknowledgement deadline and the declared privacy."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .protocol import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    SELECT_TYPES,
    UPDATE_MESSAGE,
)
from .records import Failure, ModalRequest, SentMessage

if TYPE_CHECKING:
    from .channels import ChannelsAPI
    from .commands import CommandsAPI
    from .guilds import GuildAPI
    from .messages import MessagesAPI
    from .options import CommandOptions
    from .records import FakeChannel, FakeUser, StoredMessage
    from .store import Store


class InteractionHandle:
    """One interaction the harness sent to the bot.

    ``await handle`` (or :meth:`response`) returns the interaction's response:

    * callback type 4 or 7: the :class:`SentMessage` of that message;
    * callback type 5 or 6 (deferred): the first followup, ``@original`` edit
      or (type 6) channel edit of the clicked message;
    * callback type 8: the autocomplete choices (a list of dicts);
    * callback type 9: the :class:`ModalRequest`.

    It raises AssertionError on timeout or when the interaction expired without
    acknowledgement. All messages made for the interaction are in
    :attr:`messages`; :meth:`wait_messages` waits for more of them.
    """

    def __init__(
        self,
        store: Store,
        *,
        type: int,
        user: FakeUser,
        channel: FakeChannel,
        label: str,
        private: bool,
        data: dict[str, Any],
        source_message_id: int | None = None,
        source: InteractionHandle | None = None,
    ) -> None:
        self._store = store
        self.id: int = store.ids.next()
        self.token: str = "itok_" + secrets.token_urlsafe(24)
        self.type = type
        self.user = user
        self.channel = channel
        self.label = label
        self.private = private
        self.data = data
        self.source_message_id = source_message_id
        self.source = source
        self.sent_at: float | None = None
        self.ack_type: int | None = None
        self.acked_at: float | None = None
        self.expired = False
        self.ephemeral: bool | None = None
        self.original_message_id: int | None = None
        self.loading = False
        self.messages: list[SentMessage] = []
        self.choices: list[dict[str, Any]] | None = None
        self.modal: ModalRequest | None = None
        self.payload: dict[str, Any] = {}
        self._timer: asyncio.TimerHandle | None = None

    def describe(self) -> str:
        """A short human description such as ``/demo secret by alice``."""
        return f"{self.label} by {self.user.name}"

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.describe()} ack={self.ack_type} messages={len(self.messages)}>"

    @property
    def acknowledged(self) -> bool:
        """Whether the bot answered the callback."""
        return self.ack_type is not None

    @property
    def last(self) -> SentMessage | None:
        """The latest message recorded for this interaction."""
        return self.messages[-1] if self.messages else None

    @property
    def ack_latency(self) -> float | None:
        """Seconds between sending the event and the acknowledgement."""
        if self.acked_at is None or self.sent_at is None:
            return None
        return self.acked_at - self.sent_at

    def _expired_failure(self) -> Failure | None:
        if self.expired and self.ack_type is None:
            return Failure(
                f"{self.describe()} was not acknowledged within "
                f"{self._store.ack_deadline:g} s (Discord would show 'This interaction failed')"
            )
        return None

    def _result(self) -> Any:
        failure = self._expired_failure()
        if failure is not None:
            return failure
        if self.ack_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            return next((m for m in self.messages if m.kind in ("response", "update")), None)
        if self.ack_type == AUTOCOMPLETE_RESULT:
            return self.choices
        if self.ack_type == MODAL:
            return self.modal
        if self.ack_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            kinds = ("followup", "original_edit", "channel_edit")
            return next((m for m in self.messages if m.kind in kinds), None)
        return None

    def __await__(self) -> Any:
        return self.response().__await__()

    async def response(self, timeout: float | None = None) -> Any:
        """Wait for the final response (see the class docstring)."""
        return await self._store.wait(self._result, timeout, f"the response to {self.describe()}")

    async def message(self, timeout: float | None = None) -> SentMessage:
        """Wait for the response and check that it is a message."""
        result = await self.response(timeout)
        if not isinstance(result, SentMessage):
            raise AssertionError(f"{self.describe()} answered with {result!r}, not a message")
        return result

    async def wait_ack(self, timeout: float | None = None) -> int:
        """Wait for the acknowledgement; returns the callback type."""

        def check() -> Any:
            return self._expired_failure() or self.ack_type

        return await self._store.wait(check, timeout, f"the acknowledgement of {self.describe()}")

    async def wait_messages(self, count: int, timeout: float | None = None) -> list[SentMessage]:
        """Wait until at least ``count`` messages were recorded for this interaction."""

        def check() -> Any:
            if len(self.messages) >= count:
                return list(self.messages)
            return self._expired_failure()

        return await self._store.wait(check, timeout, f"{count} messages for {self.describe()}")

    async def wait_choices(self, timeout: float | None = None) -> list[dict[str, Any]]:
        """Wait for the autocomplete choices."""
        result = await self.response(timeout)
        if not isinstance(result, list):
            raise AssertionError(f"{self.describe()} answered with {result!r}, not choices")
        return result

    async def wait_modal(self, timeout: float | None = None) -> ModalRequest:
        """Wait for a modal."""
        result = await self.response(timeout)
        if not isinstance(result, ModalRequest):
            raise AssertionError(f"{self.describe()} answered with {result!r}, not a modal")
        return result


class InteractionsAPI:
    """What a Discord user does to the bot, as interactions."""

    def __init__(
        self,
        store: Store,
        channel_api: ChannelsAPI,
        guild_api: GuildAPI,
        message_api: MessagesAPI,
        command_api: CommandsAPI,
        options: CommandOptions,
    ) -> None:
        self.store = store
        self.channel_api = channel_api
        self.guild_api = guild_api
        self.message_api = message_api
        self.command_api = command_api
        self.options = options

    def require_private_command(self, *qualified_names: str) -> None:
        """Declare commands (e.g. ``"ttr hand"``) whose every message must be ephemeral."""
        self.store.private_commands.update(" ".join(n.lstrip("/").split()) for n in qualified_names)

    def require_private_component(self, *patterns: str | re.Pattern[str]) -> None:
        """Declare custom ids (regexes, full match) of buttons/selects/modals that must answer privately."""
        self.store.private_components.extend(
            re.compile(p) if isinstance(p, str) else p for p in patterns
        )

    def is_private_command(self, qualified: str) -> bool:
        """Whether a declared private command covers ``qualified`` (or a command above it)."""
        parts = qualified.split()
        return any(
            " ".join(parts[:i]) in self.store.private_commands for i in range(1, len(parts) + 1)
        )

    def is_private_component(self, custom_id: str) -> bool:
        """Whether a declared private custom id pattern matches ``custom_id``."""
        return any(p.fullmatch(custom_id) for p in self.store.private_components)

    async def slash(
        self,
        user: FakeUser | str,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        channel: FakeChannel | str | int | None = None,
        focused: str | None = None,
        private: bool | None = None,
    ) -> InteractionHandle:
        """Run a slash command as ``user``; returns a handle to ``await`` for the response.

        ``name`` may hold the whole path (``"ttr new"``) or ``subcommand`` may
        (``"new"``, or ``"admin reset"`` for a subcommand group). Options are
        typed from the synced definition: strings, integers, numbers, booleans,
        users (:class:`FakeUser` or id), channels, roles (id), and attachments
        (``(filename, bytes)``). With ``focused`` the event is an autocomplete
        interaction (type 4) and awaiting the handle returns the choices.
        """
        user = self.guild_api.user(user) if isinstance(user, str) else user
        tokens = name.lstrip("/").split() + (subcommand.split() if subcommand else [])
        found = self.command_api.find_command(tokens[0])
        if found is None:
            raise LookupError(
                f"command /{tokens[0]} was not synced; synced: {self.store.command_names()}"
            )
        cmd, guild_scoped = found
        definitions: list[dict[str, Any]] = cmd.get("options") or []
        chain: list[dict[str, Any]] = []
        for token in tokens[1:]:
            sub = next(
                (o for o in definitions if o.get("name") == token and o.get("type") in (1, 2)), None
            )
            if sub is None:
                raise LookupError(
                    f"/{' '.join(tokens)}: no subcommand {token!r}; synced: {self.store.command_names()}"
                )
            chain.append(sub)
            definitions = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in definitions):
            raise ValueError(
                f"/{' '.join(tokens)} needs a subcommand; synced: {self.store.command_names()}"
            )
        resolved: dict[str, dict[str, Any]] = {}
        built = self.options.build(
            definitions, dict(options or {}), focused, resolved, f"/{' '.join(tokens)}"
        )
        for sub in reversed(chain):
            built = [{"type": sub["type"], "name": sub["name"], "options": built}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": built}
        if guild_scoped:
            data["guild_id"] = str(self.store.guild_id)
        if resolved:
            data["resolved"] = resolved
        qualified = " ".join(tokens)
        if focused:
            label = f"autocomplete /{qualified} ({focused})"
        else:
            label = "/" + qualified + "".join(f" {k}:{v}" for k, v in (options or {}).items())
        if private is None:
            private = self.is_private_command(qualified)
        handle = InteractionHandle(
            self.store,
            type=AUTOCOMPLETE if focused else APPLICATION_COMMAND,
            user=user,
            channel=self.channel_api.channel_or_default(channel),
            label=label,
            private=private,
            data=data,
        )
        await self._send_interaction(handle)
        return handle

    async def autocomplete(
        self,
        user: FakeUser | str,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        channel: FakeChannel | str | int | None = None,
    ) -> InteractionHandle:
        """An autocomplete interaction (type 4); ``await`` the handle for the choices."""
        return await self.slash(user, name, subcommand, options, channel=channel, focused=focused)

    async def click(
        self,
        user: FakeUser | str,
        message: SentMessage | int,
        custom_id: str,
        *,
        private: bool | None = None,
    ) -> InteractionHandle:
        """Click a button of a stored message (type 3, component_type 2)."""
        user = self.guild_api.user(user) if isinstance(user, str) else user
        stored = self.message_api.stored(message)
        comp = self._find_clickable(stored, custom_id, user)
        if comp.get("type") != 2:
            raise ValueError(
                f"{custom_id!r} is a component of type {comp.get('type')}, use select()"
            )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self.component_interaction(user, stored, data, f"click {custom_id}", private)

    async def select(
        self,
        user: FakeUser | str,
        message: SentMessage | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        private: bool | None = None,
    ) -> InteractionHandle:
        """Pick ``values`` in a select of a stored message (type 3, component_type 3/5/6/7/8)."""
        user = self.guild_api.user(user) if isinstance(user, str) else user
        stored = self.message_api.stored(message)
        comp = self._find_clickable(stored, custom_id, user)
        ctype = comp.get("type")
        if ctype not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is a component of type {ctype}, use click()")
        min_v, max_v = comp.get("min_values", 1), comp.get("max_values", 1)
        if not min_v <= len(values) <= max_v:
            raise ValueError(
                f"select {custom_id!r} takes {min_v}..{max_v} values, got {len(values)}"
            )
        resolved: dict[str, dict[str, Any]] = {}
        if ctype == 3:
            allowed = [o.get("value") for o in comp.get("options") or []]
            str_values = [str(v) for v in values]
            bad = [v for v in str_values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r} has no options {bad}; options: {allowed}")
        else:
            str_values = [str(self.options.resolve_entity(v, ctype, resolved)) for v in values]
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ctype,
            "values": str_values,
        }
        if "id" in comp:
            data["id"] = comp["id"]
        if resolved:
            data["resolved"] = resolved
        return await self.component_interaction(
            user, stored, data, f"select {custom_id} {str_values}", private
        )

    async def submit_modal(
        self,
        user: FakeUser | str,
        source: InteractionHandle,
        values: Mapping[str, str],
        *,
        private: bool | None = None,
    ) -> InteractionHandle:
        """Submit the modal that ``source`` opened, filling text inputs by custom id."""
        user = self.guild_api.user(user) if isinstance(user, str) else user
        modal = source.modal
        if modal is None:
            raise ValueError(f"{source.describe()} did not open a modal")
        if user is not source.user:
            raise PermissionError(f"the modal was shown to {source.user.name}, not {user.name}")
        known = {c.get("custom_id"): c for c in modal.text_inputs}
        unknown = set(values) - set(known)
        if unknown:
            raise ValueError(
                f"modal {modal.custom_id!r} has no inputs {sorted(unknown)}; inputs: {sorted(known)}"
            )
        for custom_id, comp in known.items():
            value = values.get(custom_id, "")
            if comp.get("required", True) and not value:
                raise ValueError(f"modal input {custom_id!r} is required")
            if value and not comp.get("min_length", 0) <= len(value) <= comp.get(
                "max_length", 4000
            ):
                raise ValueError(f"modal input {custom_id!r}: length {len(value)} out of bounds")

        def answer(comp: Mapping[str, Any]) -> dict[str, Any] | None:
            if comp.get("type") == 1:
                children = [a for a in (answer(c) for c in comp.get("components") or []) if a]
                return {"type": 1, "components": children}
            if comp.get("type") == 18 and isinstance(comp.get("component"), Mapping):
                inner = answer(comp["component"])
                return {"type": 18, "component": inner} if inner else None
            if comp.get("type") == 4:
                return {
                    "type": 4,
                    "custom_id": comp["custom_id"],
                    "value": values.get(comp["custom_id"], ""),
                }
            return None

        components = [a for a in (answer(c) for c in modal.components) if a]
        data = {"custom_id": modal.custom_id, "components": components}
        if private is None:
            private = source.private or self.is_private_component(modal.custom_id)
        stored = self.store.stored_messages.get(source.source_message_id or 0)
        handle = InteractionHandle(
            self.store,
            type=MODAL_SUBMIT,
            user=user,
            channel=source.channel,
            label=f"modal {modal.custom_id}",
            private=private,
            data=data,
            source_message_id=stored.id if stored else None,
            source=source,
        )
        await self._send_interaction(handle, message=stored)
        return handle

    def _find_clickable(
        self, stored: StoredMessage, custom_id: str, user: FakeUser
    ) -> Mapping[str, Any]:
        if (
            stored.flags & EPHEMERAL
            and stored.handle is not None
            and stored.handle.user is not user
        ):
            raise PermissionError(
                f"message {stored.id} is ephemeral for {stored.handle.user.name}; {user.name} cannot see it"
            )
        snap = self.message_api.snapshot(stored, "current")
        comp = snap.component(custom_id)
        if comp is None:
            raise LookupError(
                f"message {stored.id} has no component {custom_id!r}; it has {snap.custom_ids}"
            )
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} of message {stored.id} is disabled")
        return comp

    async def component_interaction(
        self,
        user: FakeUser,
        stored: StoredMessage,
        data: dict[str, Any],
        label: str,
        private: bool | None,
    ) -> InteractionHandle:
        """Send a component interaction (type 3) on ``stored`` as ``user``; also how a test
        forges a click that Discord's client would not send."""
        if private is None:
            private = self.is_private_component(data["custom_id"])
        handle = InteractionHandle(
            self.store,
            type=MESSAGE_COMPONENT,
            user=user,
            channel=self.store.channels[stored.channel_id],
            label=label,
            private=private,
            data=data,
            source_message_id=stored.id,
        )
        await self._send_interaction(handle, message=stored)
        return handle

    async def _send_interaction(
        self, handle: InteractionHandle, message: StoredMessage | None = None
    ) -> None:
        channel = handle.channel
        payload: dict[str, Any] = {
            "id": str(handle.id),
            "application_id": str(self.store.application_id),
            "type": handle.type,
            "data": handle.data,
            "token": handle.token,
            "version": 1,
            "locale": handle.user.locale,
            "app_permissions": str(self.channel_api.bot_permissions(channel.id)),
            "entitlements": [],
            "attachment_size_limit": self.store.attachment_size_limit,
            "channel_id": str(channel.id),
            "channel": self.channel_api.channel_json(
                channel, permissions=handle.user.effective_permissions
            ),
        }
        if channel.guild_id is not None:
            payload.update(
                guild_id=str(self.store.guild_id),
                guild={
                    "id": str(self.store.guild_id),
                    "locale": self.store.guild_locale,
                    "features": [],
                },
                guild_locale=self.store.guild_locale,
                member=self.guild_api.member_json(handle.user, with_permissions=True),
                authorizing_integration_owners={"0": str(self.store.guild_id)},
                context=0,
            )
        else:
            payload.update(
                user=handle.user.to_json(),
                authorizing_integration_owners={"0": str(self.store.guild_id)},
                context=1,
            )
        if message is not None:
            payload["message"] = self.message_api.message_json(message)
        handle.payload = payload
        if not self.store.connected:
            raise RuntimeError(
                f"no bot is connected to the fake gateway, cannot send {handle.describe()}"
            )
        self.store.interactions[handle.token] = handle
        loop = asyncio.get_running_loop()
        handle.sent_at = loop.time()
        handle._timer = loop.call_later(self.store.ack_deadline, self._ack_timer, handle)
        await self.store.dispatch("INTERACTION_CREATE", payload)

    def _ack_timer(self, handle: InteractionHandle) -> None:
        if handle.ack_type is None and not handle.expired:
            handle.expired = True
            self.store.violation(
                "late_ack",
                f"not acknowledged within {self.store.ack_deadline:g} s (Discord shows 'This interaction failed')",
                handle,
            )
