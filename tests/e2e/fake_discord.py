"""A fake Discord (REST API and gateway) on loopback, for end-to-end tests.

The real discord.py client talks to :class:`FakeDiscord` over real sockets, in
the test process or in another process. The fake keeps one guild with text
channels, threads, members and the bot user; it stores the application commands
the bot syncs, records every message the bot creates or edits, and lets a test
act as a Discord user: run slash commands (and autocomplete), click buttons,
pick select options, submit modals and post plain messages.

Typical use in a test::

    async with FakeDiscord() as fake:             # fails at exit on problems
        with pointed_at(fake):                    # discord.py -> the fake
            async with running_client(fake, make_bot()):
                alice = fake.user("alice")
                reply = await (await fake.slash(alice, "ttr", "new", {"map": "usa"}))
                assert reply.ephemeral
                board = await fake.click(alice, reply, "ttr:join:1")

Awaiting the handle that :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click`,
:meth:`FakeDiscord.select` and :meth:`FakeDiscord.submit_modal` return waits,
without polling, for the interaction's response: the initial message, or for a
deferred acknowledgement the first followup or ``@original`` edit. Every waiter
is armed before the event is sent.

Problems are collected instead of raised inside the server: requests to routes
the fake does not know (:attr:`FakeDiscord.unknown_routes`) and breaches of
Discord's rules (:attr:`FakeDiscord.violations`: privacy, message limits, late
or double acknowledgements, bad command definitions...). :meth:`assert_clean`
fails if any occurred; tests that provoke them on purpose consume them with
:meth:`take_violations` / :meth:`take_unknown_routes`.

For a bot in a subprocess use :class:`BotProcess`, which passes
``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``, ``DISCORD_CDN_BASE`` and
``DISCORD_TOKEN`` in the environment. The fake keeps running (and keeps its
commands and messages) while the bot process is killed and started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import itertools
import json
import mimetypes
import os
import re
import secrets
import socket
import struct
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from aiohttp import WSMsgType, web

__all__ = [
    "API_PREFIX",
    "EPHEMERAL",
    "LOADING",
    "Attachment",
    "BotProcess",
    "FakeChannel",
    "FakeDiscord",
    "FakeUser",
    "InteractionHandle",
    "ModalRequest",
    "Perm",
    "SentMessage",
    "UnknownRoute",
    "Violation",
    "pointed_at",
    "running_client",
]

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
_USER_SETTABLE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

_ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}

# Discord limits.
MAX_CONTENT = 2000
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_V2_COMPONENTS = 40
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_CHOICES = 25
ACK_DEADLINE = 3.0
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

_SELECT_TYPES = {3, 5, 6, 7, 8}
_CHANNEL_TYPES_TEXT = {0, 5}
_THREAD_TYPES = {10, 11, 12}


class Perm:
    """Discord permission bits used by the fake (see Discord's permission docs)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    DEFAULT_MEMBER = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT = (
        DEFAULT_MEMBER | MANAGE_CHANNELS | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS
    )


def _now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat()


class _Snowflakes:
    """Monotonic snowflake ids that look like Discord's."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = ms << 22
        self._last = max(candidate, self._last + 1)
        return self._last


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Discord user who is a member of the fake guild.

    ``permissions`` is the member's effective guild permission integer; it is
    sent as the ``permissions`` string of interaction members and realised as a
    role in the guild payload.
    """

    id: int
    name: str
    bot: bool = False
    permissions: int = Perm.DEFAULT_MEMBER
    global_name: str | None = None
    joined_at: str = field(default_factory=_now_iso)
    #: The Discord client's language (sent as ``locale`` with every interaction).
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        """The ``<@id>`` mention string."""
        return f"<@{self.id}>"

    @property
    def effective_permissions(self) -> int:
        """Permissions as Discord reports them (administrators get every bit)."""
        if self.permissions & Perm.ADMINISTRATOR:
            return Perm.ALL
        return self.permissions

    def to_json(self) -> dict[str, Any]:
        """The Discord user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread (type 11 public, 12 private) or a DM (type 1)."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    member_ids: set[int] = field(default_factory=set)
    recipient: FakeUser | None = None
    created_at: str = field(default_factory=_now_iso)

    @property
    def is_thread(self) -> bool:
        """Whether the channel is a thread."""
        return self.type in _THREAD_TYPES

    @property
    def mention(self) -> str:
        """The ``<#id>`` mention string."""
        return f"<#{self.id}>"


@dataclass(eq=False)
class Attachment:
    """A file the bot uploaded (or an attachment option a user sent)."""

    id: int
    filename: str
    data: bytes
    content_type: str
    declared_content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    @property
    def is_png(self) -> bool:
        """Whether the bytes start with the PNG signature."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def __repr__(self) -> str:
        return (
            f"Attachment(id={self.id}, filename={self.filename!r}, "
            f"content_type={self.content_type!r}, size={self.size})"
        )


def iter_components(components: Iterable[Mapping[str, Any]] | None) -> Iterator[Mapping[str, Any]]:
    """Yield every component of a component tree, depth first."""
    for comp in components or ():
        yield comp
        yield from iter_components(comp.get("components"))
        for key in ("component", "accessory"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                yield from iter_components([child])


@dataclass(eq=False)
class SentMessage:
    """A snapshot of a message the bot created or edited, as recorded by the fake.

    ``kind`` says how it was produced: ``channel`` (POST /channels/{id}/messages),
    ``channel_edit`` (PATCH of a channel message), ``response`` (callback type 4),
    ``deferred`` (callback type 5, the "thinking" message), ``update`` (callback
    type 7), ``followup`` (POST to the interaction webhook; the first one after
    a type 5 defer replaces the thinking message and keeps its id),
    ``original_edit`` (PATCH @original), ``followup_edit`` (PATCH of a followup)
    and ``user`` (a message a test user posted with :meth:`FakeDiscord.say`).
    Edits carry the full message state after the edit.
    """

    kind: str
    message_id: int
    channel_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    author_id: int
    interaction_id: int | None = None
    interaction_token: str | None = None
    user: FakeUser | None = None
    payload: dict[str, Any] = field(default_factory=dict, repr=False)
    at: float = 0.0
    #: who this message notified when it was created (:func:`pings_of`): ``user:<id>``,
    #: ``role:<id>``, ``everyone``; edits notify no one.
    pings: frozenset[str] = frozenset()

    @property
    def ephemeral(self) -> bool:
        """Whether bit 64 (EPHEMERAL) of the flags is set."""
        return bool(self.flags & EPHEMERAL)

    @property
    def user_id(self) -> int | None:
        """Id of the user whose interaction produced the message, if any."""
        return None if self.user is None else self.user.id

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(embed.get("title") or "")
            parts.append(embed.get("description") or "")
            for fld in embed.get("fields") or ():
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            parts.append((embed.get("footer") or {}).get("text") or "")
        for comp in iter_components(self.components):
            if comp.get("type") == 10:
                parts.append(comp.get("content") or "")
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[Mapping[str, Any]]:
        """Every component, flattened."""
        return list(iter_components(self.components))

    @property
    def custom_ids(self) -> list[str]:
        """Custom ids of all interactive components, in order."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> Mapping[str, Any] | None:
        """The component with this custom id, or None."""
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    @property
    def buttons(self) -> list[Mapping[str, Any]]:
        """All buttons."""
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[Mapping[str, Any]]:
        """All select menus."""
        return [c for c in iter_components(self.components) if c.get("type") in _SELECT_TYPES]

    def attachment(self, filename: str) -> Attachment:
        """The attachment with this file name (KeyError if absent)."""
        for att in self.attachments:
            if att.filename == filename:
                return att
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def summary(self) -> str:
        """A one-line description for error messages."""
        text = self.text.replace("\n", " | ")
        if len(text) > 80:
            text = text[:77] + "..."
        eph = " ephemeral" if self.ephemeral else ""
        files = f" files={[a.filename for a in self.attachments]}" if self.attachments else ""
        return (
            f"{self.kind}{eph} #{self.message_id} in {self.channel_id}: {text!r}"
            f" custom_ids={self.custom_ids}{files}"
        )


@dataclass
class Violation:
    """A breach of Discord's rules or of the declared privacy, seen by the fake."""

    kind: str
    detail: str
    interaction: str | None = None
    route: str | None = None

    def __str__(self) -> str:
        where = f" [{self.interaction}]" if self.interaction else ""
        route = f" ({self.route})" if self.route else ""
        return f"{self.kind}{where}{route}: {self.detail}"


@dataclass
class UnknownRoute:
    """A request the fake has no handler for (answered 404)."""

    method: str
    path: str
    query: str
    body: bytes = field(repr=False, default=b"")

    def __str__(self) -> str:
        query = f"?{self.query}" if self.query else ""
        return f"{self.method} {self.path}{query}"


@dataclass
class ModalRequest:
    """A modal the bot opened (callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]

    @property
    def text_inputs(self) -> list[Mapping[str, Any]]:
        """The text inputs of the modal."""
        return [c for c in iter_components(self.components) if c.get("type") == 4]


class _Failure:
    def __init__(self, message: str) -> None:
        self.message = message


@dataclass
class _Upload:
    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass(eq=False)
class _StoredMessage:
    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: str | None = None
    webhook: bool = False
    handle: InteractionHandle | None = None
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    pinned: bool = False
    pings: frozenset[str] = frozenset()


_USER_MENTION = re.compile(r"<@!?([0-9]+)>")
_ROLE_MENTION = re.compile(r"<@&([0-9]+)>")


def pings_of(content: str, allowed: Mapping[str, Any] | None) -> frozenset[str]:
    """Who a new message with ``content`` notifies, as Discord decides from its
    ``allowed_mentions``: ``user:<id>``, ``role:<id>`` and ``everyone`` (for @everyone and
    @here). Without ``allowed_mentions`` Discord parses every mention in the content."""
    if allowed is None:
        parse, users, roles = {"users", "roles", "everyone"}, set(), set()
    else:
        parse = set(allowed.get("parse") or [])
        users = {str(u) for u in allowed.get("users") or []}
        roles = {str(r) for r in allowed.get("roles") or []}
    out = {
        f"user:{u}" for u in _USER_MENTION.findall(content or "") if "users" in parse or u in users
    }
    out |= {
        f"role:{r}" for r in _ROLE_MENTION.findall(content or "") if "roles" in parse or r in roles
    }
    if "everyone" in parse and ("@everyone" in (content or "") or "@here" in (content or "")):
        out.add("everyone")
    return frozenset(out)


# ---------------------------------------------------------------------------
# Interaction handles
# ---------------------------------------------------------------------------


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
        fake: FakeDiscord,
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
        self._fake = fake
        self.id: int = fake._ids.next()
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

    def _expired_failure(self) -> _Failure | None:
        if self.expired and self.ack_type is None:
            return _Failure(
                f"{self.describe()} was not acknowledged within "
                f"{self._fake.ack_deadline:g} s (Discord would show 'This interaction failed')"
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
        return await self._fake._wait(self._result, timeout, f"the response to {self.describe()}")

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

        return await self._fake._wait(check, timeout, f"the acknowledgement of {self.describe()}")

    async def wait_messages(self, count: int, timeout: float | None = None) -> list[SentMessage]:
        """Wait until at least ``count`` messages were recorded for this interaction."""

        def check() -> Any:
            if len(self.messages) >= count:
                return list(self.messages)
            return self._expired_failure()

        return await self._fake._wait(check, timeout, f"{count} messages for {self.describe()}")

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


class MessageExpectation:
    """An armed wait for a future message; ``await`` it (see :meth:`FakeDiscord.expect_message`)."""

    def __init__(
        self, fake: FakeDiscord, check: Callable[[], Any], what: str, timeout: float | None
    ):
        self._fake = fake
        self._future = fake._arm(check)
        self._what = what
        self._timeout = timeout

    def __await__(self) -> Any:
        return self._fake._wait_future(self._future, self._timeout, self._what).__await__()


# ---------------------------------------------------------------------------
# Validation of what the bot sends
# ---------------------------------------------------------------------------


class Problem(NamedTuple):
    """One breach of Discord's rules in a payload.

    ``kind`` names the violation for tests (``components``, ``custom_id``,
    ``content_length``, ``embeds``, ``mentions`` ...); ``detail`` says what is
    wrong; ``path`` is where, as Discord's error body names it (``components.0.
    components.1.custom_id``); ``code`` and ``message`` are Discord's own error
    code and sentence for it (``BASE_TYPE_MAX_LENGTH``, ``COMPONENT_CUSTOM_ID_DUPLICATED``).
    """

    kind: str
    detail: str
    path: tuple[str | int, ...] = ()
    code: str = "BASE_TYPE_INVALID"
    message: str = "Invalid Form Body"


def _too_long(
    kind: str, path: tuple[str | int, ...], what: str, value: Any, limit: int, least: int = 0
) -> list[Problem]:
    """Discord's length rule for a string: ``least``..``limit`` characters."""
    if value is None and least == 0:
        return []
    if value is None:
        return [
            Problem(
                kind, f"{what} is missing", path, "BASE_TYPE_REQUIRED", "This field is required"
            )
        ]
    if not isinstance(value, str):
        return [Problem(kind, f"{what} is not a string", path, "STRING_TYPE_CONVERT")]
    if len(value) > limit:
        return [
            Problem(
                kind,
                f"{what} has {len(value)} characters (max {limit}): {value[:30]!r}",
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limit} or fewer in length.",
            )
        ]
    if len(value) < least:
        return [
            Problem(
                kind,
                f"{what} has {len(value)} characters (min {least})",
                path,
                "BASE_TYPE_MIN_LENGTH" if least > 1 else "BASE_TYPE_REQUIRED",
                f"Must be {least} or more in length." if least > 1 else "This field is required",
            )
        ]
    return []


def _count(
    kind: str, path: tuple[str | int, ...], what: str, n: int, least: int, most: int
) -> list[Problem]:
    """Discord's length rule for a list: ``least``..``most`` items."""
    if least <= n <= most:
        return []
    sentence = (
        f"Must be {most} or fewer in length."
        if least == 0
        else f"Must be between {least} and {most} in length."
    )
    return [
        Problem(
            kind, f"{what}: {n} (allowed {least}..{most})", path, "BASE_TYPE_BAD_LENGTH", sentence
        )
    ]


def check_embeds(embeds: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """Check Discord's embed limits (10 embeds; title 256, description 4,096, 25 fields of
    name 256 and value 1,024, footer 2,048, author 256; 6,000 characters in all)."""
    problems = _count("embeds", ("embeds",), "embeds", len(embeds), 0, MAX_EMBEDS)
    total = 0

    def measure(
        path: tuple[str | int, ...], what: str, value: Any, limit: int, least: int = 0
    ) -> None:
        nonlocal total
        if value is not None:
            total += len(str(value))
        problems.extend(_too_long("embeds", path, what, value, limit, least))

    for i, embed in enumerate(embeds):
        at: tuple[str | int, ...] = ("embeds", i)
        measure((*at, "title"), f"embed {i} title", embed.get("title"), 256)
        measure((*at, "description"), f"embed {i} description", embed.get("description"), 4096)
        fields_ = embed.get("fields") or []
        problems.extend(_count("embeds", (*at, "fields"), f"embed {i} fields", len(fields_), 0, 25))
        for j, fld in enumerate(fields_):
            here = (*at, "fields", j)
            measure((*here, "name"), f"embed {i} field {j} name", fld.get("name"), 256, 1)
            measure((*here, "value"), f"embed {i} field {j} value", fld.get("value"), 1024, 1)
        footer = (embed.get("footer") or {}).get("text")
        measure((*at, "footer", "text"), f"embed {i} footer", footer, 2048)
        author = (embed.get("author") or {}).get("name")
        measure((*at, "author", "name"), f"embed {i} author", author, 256)
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                "embeds",
                f"embeds total {total} characters (max {MAX_EMBED_TOTAL})",
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return problems


def _check_row(row: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    """An action row: 1..5 buttons, or one select alone."""
    children = row.get("components") or []
    where = "action row " + ".".join(str(p) for p in at)
    problems = _count(
        "components",
        (*at, "components"),
        f"{where} components",
        len(children),
        1,
        MAX_BUTTONS_PER_ROW,
    )
    selects = [c for c in children if c.get("type") in _SELECT_TYPES]
    others = [c.get("type") for c in children if c.get("type") not in _SELECT_TYPES | {2}]
    if others:
        problems.append(
            Problem(
                "components",
                f"{where} holds component types {others}",
                (*at, "components"),
                "COMPONENT_TYPE_INVALID",
                "Component type not allowed in an action row",
            )
        )
    if selects and len(children) > 1:
        problems.append(
            Problem(
                "components",
                f"{where} mixes a select with other components",
                (*at, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        )
    return problems


def _check_button(comp: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    """A button: a known style; a label (<= 80) or an emoji; a custom_id, or for a link button
    a url (<= 512) and no custom_id, or for a premium button only a sku_id."""
    style = comp.get("style")
    label = comp.get("label")
    problems = _too_long("components", (*at, "label"), "button label", label, 80)
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append(
            Problem(
                "components",
                f"button style {style!r}",
                (*at, "style"),
                "ENUM_TYPE_COERCE",
                f'Value "{style}" is not a valid enum value.',
            )
        )
    if style == 6:
        if not comp.get("sku_id") or any(
            comp.get(k) for k in ("custom_id", "url", "label", "emoji")
        ):
            problems.append(
                Problem(
                    "components",
                    "premium button needs a sku_id and nothing else",
                    at,
                    "BUTTON_COMPONENT_INVALID_PREMIUM",
                    "A premium button takes only a sku_id",
                )
            )
        return problems
    if not label and not comp.get("emoji"):
        problems.append(
            Problem(
                "components",
                "button without label or emoji",
                at,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        )
    if style == 5:
        if comp.get("custom_id") is not None:
            problems.append(
                Problem(
                    "components",
                    "link button with a custom_id",
                    (*at, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
            )
        problems += _too_long(
            "components", (*at, "url"), "link button url", comp.get("url"), 512, 1
        )
    elif comp.get("custom_id") is None:
        problems.append(
            Problem(
                "custom_id",
                f"button {label!r} has no custom_id",
                (*at, "custom_id"),
                "BASE_TYPE_REQUIRED",
                "This field is required",
            )
        )
    elif comp.get("url") is not None:
        problems.append(
            Problem(
                "components",
                "a url on a button that is not a link",
                (*at, "url"),
                "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                "Only a link button has a url",
            )
        )
    return problems


def _check_options(comp: Mapping[str, Any], at: tuple[str | int, ...], most: int) -> list[Problem]:
    """A string select's options: 1..25, labels and values 1..100, descriptions <= 100, values
    unique, no more preselected than may be chosen."""
    options = comp.get("options") or []
    problems = _count("components", (*at, "options"), "string select options", len(options), 1, 25)
    seen: set[str] = set()
    for k, opt in enumerate(options):
        here = (*at, "options", k)
        problems += _too_long(
            "components", (*here, "label"), "select option label", opt.get("label"), 100, 1
        )
        problems += _too_long(
            "components", (*here, "value"), "select option value", opt.get("value"), 100, 1
        )
        problems += _too_long(
            "components",
            (*here, "description"),
            "select option description",
            opt.get("description"),
            100,
        )
        value = opt.get("value")
        if value in seen:
            problems.append(
                Problem(
                    "components",
                    f"string select has the option value {value!r} twice",
                    (*here, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values must be unique",
                )
            )
        seen.add(value)
    defaults = sum(1 for o in options if o.get("default"))
    if defaults > most:
        problems.append(
            Problem(
                "components",
                f"{defaults} options preselected but max_values is {most}",
                (*at, "options"),
                "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                "More default values than max_values",
            )
        )
    return problems


def _check_select(comp: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    """A select: a custom_id, placeholder <= 150, 0 <= min_values <= max_values <= 25, and for a
    string select its options (within min and max values)."""
    problems: list[Problem] = []
    if comp.get("custom_id") is None:
        problems.append(
            Problem(
                "custom_id",
                "select without custom_id",
                (*at, "custom_id"),
                "BASE_TYPE_REQUIRED",
                "This field is required",
            )
        )
    problems += _too_long(
        "components", (*at, "placeholder"), "select placeholder", comp.get("placeholder"), 150
    )
    min_v, max_v = comp.get("min_values", 1), comp.get("max_values", 1)
    if not (
        isinstance(min_v, int)
        and isinstance(max_v, int)
        and 0 <= min_v <= 25
        and 1 <= max_v <= 25
        and min_v <= max_v
    ):
        problems.append(
            Problem(
                "components",
                f"select min_values={min_v} max_values={max_v} invalid",
                (*at, "min_values"),
                "BASE_TYPE_BAD_INT",
                "min_values must be 0..25, max_values 1..25 and not below min_values",
            )
        )
        return problems
    if comp.get("type") == 3:
        n = len(comp.get("options") or [])
        if max_v > n or min_v > n:
            problems.append(
                Problem(
                    "components",
                    f"select min_values {min_v} / max_values {max_v} > {n} options",
                    (*at, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                    "max_values exceeds the number of options",
                )
            )
        problems += _check_options(comp, at, max_v)
    else:
        defaults = comp.get("default_values") or []
        problems += _count(
            "components",
            (*at, "default_values"),
            "select default values",
            len(defaults),
            min_v if defaults else 0,
            max_v,
        )
    return problems


def _check_item(comp: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    ctype = comp.get("type")
    if ctype == 2:
        return _check_button(comp, at)
    if ctype in _SELECT_TYPES:
        return _check_select(comp, at)
    if ctype == 4:
        return [
            Problem(
                "components",
                "text inputs are only allowed in modals",
                at,
                "COMPONENT_TYPE_INVALID",
                "Text inputs are only allowed in modals",
            )
        ]
    return []


def _walk(
    components: Sequence[Mapping[str, Any]], at: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], Mapping[str, Any]]]:
    """Every component with its path, depth first (as :func:`iter_components` orders them)."""
    for i, comp in enumerate(components):
        here = (*at, i)
        yield here, comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from _walk(children, (*here, "components"))
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                yield from _walk([child], (*here, key))


def check_components(components: Sequence[Mapping[str, Any]], flags: int = 0) -> list[Problem]:
    """Check Discord's component rules for a message: <= 5 action rows (components v2: <= 40
    components), each with 1..5 buttons or one select alone, every button and select as
    :func:`_check_button` / :func:`_check_select` say, custom_ids of 1..100 characters and
    unique in the message, numeric component ids unique."""
    problems: list[Problem] = []
    everything = list(_walk(components, ("components",)))
    if flags & IS_COMPONENTS_V2:
        problems += _count(
            "components", ("components",), "components", len(everything), 0, MAX_V2_COMPONENTS
        )
        for at, comp in everything:
            if comp.get("type") == 1:
                problems += _check_row(comp, at)
    else:
        problems += _count(
            "components", ("components",), "action rows", len(components), 0, MAX_ACTION_ROWS
        )
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(
                    Problem(
                        "components",
                        f"top-level component {i} is type {row.get('type')}, not an action row",
                        ("components", i, "type"),
                        "UNION_TYPE_CHOICES",
                        "Top-level components of a message must be action rows",
                    )
                )
            else:
                problems += _check_row(row, ("components", i))
    seen: set[str] = set()
    ids: set[int] = set()
    for at, comp in everything:
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                problems.append(
                    Problem(
                        "custom_id",
                        f"custom_id of {len(str(custom_id))} characters (1..{MAX_CUSTOM_ID}): {str(custom_id)[:40]!r}",
                        (*at, "custom_id"),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {MAX_CUSTOM_ID} in length.",
                    )
                )
            elif custom_id in seen:
                problems.append(
                    Problem(
                        "custom_id",
                        f"duplicate custom_id {custom_id!r}",
                        (*at, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(str(custom_id))
        number = comp.get("id")
        if number is not None:
            if number in ids:
                problems.append(
                    Problem(
                        "components",
                        f"duplicate component id {number}",
                        (*at, "id"),
                        "COMPONENT_ID_DUPLICATED",
                        "Component id cannot be duplicated",
                    )
                )
            ids.add(number)
        problems += _check_item(comp, at)
    return problems


def check_allowed_mentions(mentions: Any) -> list[Problem]:
    """``allowed_mentions``: ``parse`` of users/roles/everyone, at most 100 user and 100 role
    ids, and never ``parse: users`` together with a ``users`` list (nor roles with roles)."""
    if mentions is None:
        return []
    at: tuple[str | int, ...] = ("allowed_mentions",)
    if not isinstance(mentions, Mapping):
        return [
            Problem(
                "mentions",
                "allowed_mentions is not an object",
                at,
                "DICT_TYPE_CONVERT",
                "Must be an object",
            )
        ]
    problems: list[Problem] = []
    parse = mentions.get("parse") or []
    bad = [p for p in parse if p not in ("users", "roles", "everyone")]
    if bad:
        problems.append(
            Problem(
                "mentions",
                f"allowed_mentions.parse has {bad}",
                (*at, "parse"),
                "ENUM_TYPE_COERCE",
                f'Value "{bad[0]}" is not a valid enum value.',
            )
        )
    for key in ("users", "roles"):
        listed = mentions.get(key) or []
        problems += _count("mentions", (*at, key), f"allowed_mentions.{key}", len(listed), 0, 100)
        if listed and key in parse:
            problems.append(
                Problem(
                    "mentions",
                    f"allowed_mentions parses {key} and lists {key}",
                    at,
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{key}"] and {key}: [ids] are mutually exclusive.',
                )
            )
    return problems


def check_message_payload(
    payload: Mapping[str, Any],
    uploads: Sequence[_Upload],
    *,
    size_limit: int,
    creating: bool,
) -> list[Problem]:
    """Check a message create/edit payload against Discord's limits."""
    content = payload.get("content")
    problems = _too_long("content_length", ("content",), "content", content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    problems += check_embeds(embeds)
    flags = payload.get("flags") or 0
    components = payload.get("components") or []
    if components:
        problems += check_components(components, flags)
    problems += check_allowed_mentions(payload.get("allowed_mentions"))
    if flags & IS_COMPONENTS_V2 and (content or embeds):
        problems.append(
            Problem(
                "components",
                "an IS_COMPONENTS_V2 message cannot have content or embeds",
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    if len(uploads) > MAX_FILES:
        problems.append(
            Problem(
                "attachments",
                f"{len(uploads)} files (max {MAX_FILES})",
                ("attachments",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be {MAX_FILES} or fewer in length.",
            )
        )
    for up in uploads:
        if len(up.data) > size_limit:
            problems.append(
                Problem(
                    "attachments", f"{up.filename} is {len(up.data)} bytes (limit {size_limit})"
                )
            )
    if creating and not (
        content
        or embeds
        or uploads
        or components
        or payload.get("poll")
        or payload.get("sticker_ids")
    ):
        problems.append(Problem("empty_message", "Cannot send an empty message"))
    return problems


def check_modal(data: Mapping[str, Any]) -> list[Problem]:
    """Check a modal (callback type 9)."""
    problems = _too_long("modal", ("title",), "modal title", data.get("title") or "", 45, 1)
    problems += _too_long(
        "custom_id",
        ("custom_id",),
        "modal custom_id",
        data.get("custom_id") or "",
        MAX_CUSTOM_ID,
        1,
    )
    top = data.get("components") or []
    problems += _count("modal", ("components",), "modal top-level components", len(top), 1, 5)
    for at, comp in _walk(top, ("components",)):
        if comp.get("type") == 4:
            problems += _too_long(
                "custom_id",
                (*at, "custom_id"),
                "text input custom_id",
                comp.get("custom_id"),
                MAX_CUSTOM_ID,
            )
            problems += _too_long(
                "modal", (*at, "label"), "text input label", comp.get("label"), 45
            )
            problems += _too_long(
                "modal", (*at, "value"), "text input value", comp.get("value"), 4000
            )
            problems += _too_long(
                "modal",
                (*at, "placeholder"),
                "text input placeholder",
                comp.get("placeholder"),
                100,
            )
        if comp.get("type") == 18:
            problems += _too_long("modal", (*at, "label"), "label", comp.get("label"), 45)
    return problems


def check_choices(choices: Any) -> list[Problem]:
    """Check autocomplete choices (callback type 8): at most 25, names 1..100, string values <= 100."""
    if not isinstance(choices, list):
        return [
            Problem(
                "autocomplete",
                f"choices must be a list, got {type(choices).__name__}",
                ("choices",),
            )
        ]
    problems = _count("autocomplete", ("choices",), "choices", len(choices), 0, MAX_CHOICES)
    for i, choice in enumerate(choices):
        problems += _too_long(
            "autocomplete", ("choices", i, "name"), "choice name", choice.get("name") or "", 100, 1
        )
        value = choice.get("value")
        if isinstance(value, str):
            problems += _too_long(
                "autocomplete", ("choices", i, "value"), "choice value", value, 100
            )
    return problems


def errors_body(problems: Sequence[Problem], prefix: tuple[str | int, ...] = ()) -> dict[str, Any]:
    """Discord's ``errors`` object for ``problems``: nested by path, ``_errors`` at each leaf
    (``{"components": {"0": {"components": {"1": {"custom_id": {"_errors": [...]}}}}}}``);
    interaction callbacks put it under ``data``."""
    body: dict[str, Any] = {}
    for p in problems:
        node = body
        for part in (*prefix, *p.path):
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return body


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def check_command_definition(cmd: Mapping[str, Any]) -> list[str]:
    """Check an application command definition the way Discord does on sync."""
    problems: list[str] = []
    ctype = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if ctype == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(f"command name {name!r} must be 1-32 lowercase letters, digits, - or _")
        if not 1 <= len(cmd.get("description") or "") <= 100:
            problems.append(f"/{name}: description must be 1-100 characters")
        problems += _check_option_list(cmd.get("options") or [], f"/{name}", depth=0)
    elif not 1 <= len(name) <= 32:
        problems.append(f"context menu name {name!r} must be 1-32 characters")
    return problems


def _check_option_list(options: Sequence[Mapping[str, Any]], where: str, depth: int) -> list[str]:
    problems: list[str] = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (max 25)")
    subs = [o for o in options if o.get("type") in (1, 2)]
    if subs and len(subs) != len(options):
        problems.append(f"{where}: mixes subcommands with plain options")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names")
    seen_optional = False
    for opt in options:
        name = opt.get("name") or ""
        here = f"{where} {name}"
        otype = opt.get("type")
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(f"{here}: option name must be 1-32 lowercase letters, digits, - or _")
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(f"{here}: description must be 1-100 characters")
        if otype == 2:
            if depth > 0:
                problems.append(f"{here}: subcommand groups cannot be nested")
            if any(o.get("type") != 1 for o in opt.get("options") or []):
                problems.append(f"{here}: a subcommand group may only hold subcommands")
            problems += _check_option_list(opt.get("options") or [], here, depth + 1)
        elif otype == 1:
            problems += _check_option_list(opt.get("options") or [], here, depth + 1)
        else:
            if opt.get("required"):
                if seen_optional:
                    problems.append(f"{here}: required options must come before optional ones")
            else:
                seen_optional = True
            choices = opt.get("choices") or []
            if len(choices) > MAX_CHOICES:
                problems.append(f"{here}: {len(choices)} choices (max 25)")
            if choices and opt.get("autocomplete"):
                problems.append(f"{here}: autocomplete and choices are mutually exclusive")
            for choice in choices:
                if not 1 <= len(choice.get("name") or "") <= 100:
                    problems.append(f"{here}: choice name must be 1-100 characters")
                value = choice.get("value")
                if isinstance(value, str) and len(value) > 100:
                    problems.append(f"{here}: choice value longer than 100")
    return problems


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def _json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim.
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


def _error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return _json_response(body, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _sniff_content_type(filename: str, data: bytes, declared: str | None) -> str:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if declared and declared != "application/octet-stream":
        return declared
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


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


_PARAM = re.compile(r"{(\w+)}")
_PARAM_PATTERNS = {
    "token": r"[^/]+",
    "emoji": r"[^/]+",
    "message_ref": r"@original|\d+",
    "user_ref": r"@me|\d+",
}


def _compile_route(path: str) -> re.Pattern[str]:
    def repl(match: re.Match[str]) -> str:
        name = match.group(1)
        return f"(?P<{name}>{_PARAM_PATTERNS.get(name, r'[0-9]+')})"

    return re.compile("^" + _PARAM.sub(repl, path) + "/?$")


@dataclass(eq=False)
class _GatewayConnection:
    ws: web.WebSocketResponse
    number: int
    seq: int = 0
    session_id: str | None = None
    identified: bool = False
    ready: bool = False
    identify: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            if self.ws.closed:
                return
            if payload.get("op") == 0:
                self.seq += 1
                payload = {**payload, "s": self.seq}
            else:
                payload = {"t": None, "s": None, **payload}
            await self.ws.send_str(json.dumps(payload))


# ---------------------------------------------------------------------------
# The fake
# ---------------------------------------------------------------------------


@dataclass
class Fault:
    """A scripted failure of the fake's REST API (see :meth:`FakeDiscord.fail`)."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    times: int
    message: str
    hits: int = 0


class FakeDiscord:
    """A fake Discord serving REST under ``/api/v10`` and a gateway at ``/gateway``.

    The world: one guild (:attr:`guild_id`) with text channels (``general`` and
    ``games`` by default), members ``alice``, ``bob``, ``carol``, ``dave``,
    ``mod`` (has Manage Channels) and ``owner`` (guild owner, administrator),
    and the bot user (:attr:`bot_user`, whose id is also :attr:`application_id`).

    Everything runs on the event loop that called :meth:`start`; the class is
    not thread-safe.
    """

    def __init__(
        self,
        *,
        guild_name: str = "TTR Test Guild",
        channel_names: Sequence[str] = ("general", "games"),
        member_names: Sequence[str] = ("alice", "bob", "carol", "dave"),
        moderator_name: str | None = "mod",
        bot_name: str = "TTR Bot",
        attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
        ack_deadline: float = ACK_DEADLINE,
        response_timeout: float = 10.0,
        heartbeat_interval_ms: int = 41250,
    ) -> None:
        self._ids = _Snowflakes()
        self.attachment_size_limit = attachment_size_limit
        self.ack_deadline = ack_deadline
        self.response_timeout = response_timeout
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: Record a ``mentions`` violation for a new message without ``allowed_mentions``
        #: (Discord would then ping everyone its content mentions).
        self.require_allowed_mentions = False

        self.guild_id: int = self._ids.next()
        self.guild_name = guild_name
        #: The server's preferred language (``guild_locale`` of interactions).
        self.guild_locale = "en-US"
        self.bot_user = FakeUser(id=self._ids.next(), name=bot_name, bot=True, permissions=Perm.BOT)
        self.application_id: int = self.bot_user.id
        self.users: dict[str, FakeUser] = {}
        self._users_by_id: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        self._perm_roles: dict[int, int] = {}
        self.bot_role_id: int = self._ids.next()

        # Commands: scope None = global, else guild id -> {(name, type): definition}.
        self.commands: dict[int | None, dict[tuple[str, int], dict[str, Any]]] = {None: {}}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.command_syncs: list[tuple[int | None, list[str]]] = []

        self.sent: list[SentMessage] = []
        self.user_messages: list[SentMessage] = []
        self.deleted_message_ids: list[int] = []
        self.reactions: list[tuple[int, str]] = []
        self._messages: dict[int, _StoredMessage] = {}
        self._attachments: dict[int, Attachment] = {}

        self.unknown_routes: list[UnknownRoute] = []
        #: Scripted failures: see :meth:`fail`.
        self.faults: list[Fault] = []
        #: Per-channel permissions of the bot (default ``Perm.BOT``): sent as ``app_permissions``
        #: and enforced on ``POST /channels/{id}/messages`` like Discord does (403, code 50013).
        self.bot_channel_permissions: dict[int, int] = {}
        self.violations: list[Violation] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.tokens_seen: set[str] = set()

        self.private_commands: set[str] = set()
        self.private_components: list[re.Pattern[str]] = []

        self.interactions: dict[str, InteractionHandle] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.identify_payloads: list[dict[str, Any]] = []
        self.connections: list[_GatewayConnection] = []
        self._connection_numbers = itertools.count(1)
        self._sessions: set[str] = set()

        self._background_tasks: set[asyncio.Task[Any]] = set()
        self._waiters: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._runner: web.AppRunner | None = None
        self._socket: socket.socket | None = None
        self.port: int | None = None
        self._routes = self._build_routes()

        owner = self.add_member("owner", permissions=Perm.DEFAULT_MEMBER | Perm.ADMINISTRATOR)
        self.owner_id = owner.id
        for name in member_names:
            self.add_member(name)
        if moderator_name:
            self.add_member(moderator_name, manage_channels=True)
        for name in channel_names:
            self.add_channel(name)

    # -- lifecycle ---------------------------------------------------------

    async def start(self) -> None:
        """Bind 127.0.0.1 on a free port and start serving."""
        app = web.Application(client_max_size=256 * 1024 * 1024, middlewares=[self._middleware])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._dispatch_http)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        sock.setblocking(False)
        self._socket = sock
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        """Close gateway connections and the server."""
        for handle in self.interactions.values():
            if handle._timer is not None:
                handle._timer.cancel()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for _, fut in self._waiters:
            if not fut.done():
                fut.cancel()
        self._waiters.clear()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.stop()
        if exc_type is None:
            self.assert_clean()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self.port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def cdn_base(self) -> str:
        """The value for ``discord.asset.Asset.BASE`` (serves default avatars)."""
        return self.base_url

    # -- world -------------------------------------------------------------

    def add_member(
        self,
        name: str,
        *,
        permissions: int | None = None,
        manage_channels: bool = False,
        id: int | None = None,
    ) -> FakeUser:
        """Add a guild member (dispatches GUILD_MEMBER_ADD if a bot is connected)."""
        if name in self.users:
            raise ValueError(f"member {name!r} exists")
        perms = Perm.DEFAULT_MEMBER if permissions is None else permissions
        if manage_channels:
            perms |= Perm.MANAGE_CHANNELS
        user = FakeUser(id=id or self._ids.next(), name=name, permissions=perms)
        self.users[name] = user
        self._users_by_id[user.id] = user
        self._background_dispatch(
            "GUILD_MEMBER_ADD", {**self._member_json(user), "guild_id": str(self.guild_id)}
        )
        return user

    def user(self, name_or_id: str | int) -> FakeUser:
        """A member by name or id."""
        if isinstance(name_or_id, int):
            return self._users_by_id[name_or_id]
        return self.users[name_or_id]

    def set_permissions(self, user: FakeUser, permissions: int) -> None:
        """Change a member's permissions (effective for later interactions)."""
        user.permissions = permissions

    def plant_bot_message(
        self, channel: FakeChannel | str | int, content: str, custom_ids: Sequence[str]
    ) -> SentMessage:
        """Store a message "from the bot" with buttons of any custom_id, without the bot sending it:
        what a forged, stale or misplaced button looks like to the bot when someone clicks it."""
        target = self.channel(channel)
        stored = self._new_message(target.id)
        buttons = [
            {"type": 2, "style": 2, "label": f"b{i}", "custom_id": c}
            for i, c in enumerate(custom_ids)
        ]
        payload = {
            "content": content,
            "components": [{"type": 1, "components": buttons}],
            "allowed_mentions": {"parse": []},
        }
        self._apply_payload(stored, payload, [], creating=True, allow_ephemeral=False)
        self._record(stored, "planted", payload, None)
        return self._snapshot(stored, "current")

    def set_bot_permissions(self, channel: FakeChannel | str | int, permissions: int) -> None:
        """The bot's permissions in ``channel`` from now on (an admin changed the channel's settings)."""
        self.bot_channel_permissions[self.channel(channel).id] = permissions

    def bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in a channel (threads inherit their parent's)."""
        channel = self.channels.get(channel_id)
        if channel is not None and channel.parent_id is not None:
            channel_id = channel.parent_id
        return self.bot_channel_permissions.get(channel_id, Perm.BOT)

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
        self.faults.append(fault)
        return fault

    def add_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        """Add a guild text channel (dispatches CHANNEL_CREATE if connected)."""
        position = sum(1 for c in self.channels.values() if c.type == 0)
        channel = FakeChannel(
            id=self._ids.next(), name=name, guild_id=self.guild_id, position=position, topic=topic
        )
        self.channels[channel.id] = channel
        self._background_dispatch("CHANNEL_CREATE", self._channel_json(channel))
        return channel

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
        parent_channel = self.channel(parent)
        owner = owner or self.bot_user
        thread = FakeChannel(
            id=self._ids.next(),
            name=name,
            type=12 if private else 11,
            guild_id=self.guild_id,
            parent_id=parent_channel.id,
            owner_id=owner.id,
            member_ids={owner.id, *(m.id for m in members)},
        )
        self.channels[thread.id] = thread
        self._background_dispatch(
            "THREAD_CREATE", {**self._channel_json(thread), "newly_created": True}
        )
        return thread

    def channel(self, ref: FakeChannel | str | int) -> FakeChannel:
        """A channel by object, name or id."""
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int):
            return self.channels[ref]
        for channel in self.channels.values():
            if channel.name == ref:
                return channel
        raise KeyError(f"no channel {ref!r}")

    @property
    def default_channel(self) -> FakeChannel:
        """The first text channel."""
        return next(c for c in self.channels.values() if c.type == 0)

    def dm_channel(self, user: FakeUser) -> FakeChannel | None:
        """The DM channel the bot opened with ``user``, if any."""
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return channel
        return None

    # -- commands ----------------------------------------------------------

    def command(self, name: str, *, guild: bool | None = None) -> dict[str, Any]:
        """The synced definition of a chat-input command (guild scope first)."""
        found = self._find_command(name, guild=guild)
        if found is None:
            raise LookupError(f"command /{name} was not synced; synced: {self.command_names()}")
        return found[0]

    def command_names(self) -> list[str]:
        """Qualified names of all synced chat-input commands and subcommands."""
        names: list[str] = []

        def walk(prefix: str, options: Sequence[Mapping[str, Any]]) -> None:
            subs = [o for o in options if o.get("type") in (1, 2)]
            if not subs:
                names.append(prefix)
            for sub in subs:
                walk(f"{prefix} {sub['name']}", sub.get("options") or [])

        for scope in self.commands.values():
            for (name, ctype), cmd in scope.items():
                if ctype == 1:
                    walk(name, cmd.get("options") or [])
        return sorted(set(names))

    def _find_command(
        self, name: str, *, guild: bool | None = None
    ) -> tuple[dict[str, Any], bool] | None:
        if guild is not False:
            cmd = self.commands.get(self.guild_id, {}).get((name, 1))
            if cmd is not None:
                return cmd, True
        if guild is not True:
            cmd = self.commands[None].get((name, 1))
            if cmd is not None:
                return cmd, False
        return None

    # -- privacy declarations ---------------------------------------------

    def require_private_command(self, *qualified_names: str) -> None:
        """Declare commands (e.g. ``"ttr hand"``) whose every message must be ephemeral."""
        self.private_commands.update(" ".join(n.lstrip("/").split()) for n in qualified_names)

    def require_private_component(self, *patterns: str | re.Pattern[str]) -> None:
        """Declare custom ids (regexes, full match) of buttons/selects/modals that must answer privately."""
        self.private_components.extend(re.compile(p) if isinstance(p, str) else p for p in patterns)

    def _is_private_command(self, qualified: str) -> bool:
        parts = qualified.split()
        return any(" ".join(parts[:i]) in self.private_commands for i in range(1, len(parts) + 1))

    def _is_private_component(self, custom_id: str) -> bool:
        return any(p.fullmatch(custom_id) for p in self.private_components)

    # -- problems ----------------------------------------------------------

    def _violation(
        self,
        kind: str,
        detail: str,
        handle: InteractionHandle | None = None,
        route: str | None = None,
    ) -> None:
        self.violations.append(
            Violation(kind, detail, handle.describe() if handle else None, route)
        )
        self._notify()

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return recorded violations (all, or of one kind)."""
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def take_unknown_routes(self) -> list[UnknownRoute]:
        """Remove and return recorded unknown routes."""
        taken, self.unknown_routes = self.unknown_routes, []
        return taken

    def pending_interactions(self) -> list[InteractionHandle]:
        """Interactions sent but neither acknowledged nor expired."""
        return [h for h in self.interactions.values() if h.ack_type is None and not h.expired]

    def problems(self) -> list[str]:
        """Everything :meth:`assert_clean` would complain about."""
        out = [f"unknown route: {r}" for r in self.unknown_routes]
        out += [f"violation: {v}" for v in self.violations]
        out += [f"fake error: {e}" for e in self.errors]
        out += [f"never acknowledged: {h.describe()}" for h in self.pending_interactions()]
        return out

    def assert_clean(self) -> None:
        """Fail if unknown routes, violations, fake errors or unanswered interactions occurred."""
        problems = self.problems()
        if problems:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(problems))

    # -- waiting -----------------------------------------------------------

    def _arm(self, check: Callable[[], Any]) -> asyncio.Future[Any]:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        value = check()
        if value is not None:
            fut.set_result(value)
        else:
            self._waiters.append((check, fut))
        return fut

    def _notify(self) -> None:
        if not self._waiters:
            return
        remaining = []
        for check, fut in self._waiters:
            if fut.done():
                continue
            try:
                value = check()
            except Exception as exc:  # a broken predicate fails its waiter
                fut.set_exception(exc)
                continue
            if value is None:
                remaining.append((check, fut))
            else:
                fut.set_result(value)
        self._waiters = remaining

    async def _wait(self, check: Callable[[], Any], timeout: float | None, what: str) -> Any:
        return await self._wait_future(self._arm(check), timeout, what)

    async def _wait_future(self, fut: asyncio.Future[Any], timeout: float | None, what: str) -> Any:
        timeout = self.response_timeout if timeout is None else timeout
        try:
            result = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise AssertionError(
                f"timed out after {timeout:g} s waiting for {what}\n{self.diagnostics()}"
            ) from None
        if isinstance(result, _Failure):
            raise AssertionError(f"{result.message}\n{self.diagnostics()}")
        return result

    async def wait_until(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float | None = None,
        what: str = "a condition",
    ) -> Any:
        """Wait until ``predicate()`` is truthy; it is re-checked whenever the fake's state changes."""

        def check() -> Any:
            value = predicate()
            return value if value else None

        return await self._wait(check, timeout, what)

    def expect_message(
        self,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        timeout: float | None = None,
    ) -> MessageExpectation:
        """Arm a wait for the next recorded bot message matching ``predicate``; await the result later.

        Arm it before triggering the action, e.g.::

            board = fake.expect_message(lambda m: m.kind == "channel")
            await (await fake.slash(alice, "ttr", "start"))
            board_message = await board
        """
        start = len(self.sent)
        pred = predicate or (lambda m: True)

        def check() -> Any:
            return next((m for m in self.sent[start:] if pred(m)), None)

        return MessageExpectation(self, check, "a matching bot message", timeout)

    async def wait_for_message(
        self,
        predicate: Callable[[SentMessage], bool],
        *,
        since: int = 0,
        timeout: float | None = None,
    ) -> SentMessage:
        """Return the first recorded message from index ``since`` on matching ``predicate`` (waiting if needed)."""

        def check() -> Any:
            return next((m for m in self.sent[since:] if predicate(m)), None)

        return await self._wait(check, timeout, "a matching bot message")

    async def wait_for_identify(self, *, after: int = 0, timeout: float | None = None) -> int:
        """Wait until more than ``after`` IDENTIFYs completed (READY and GUILD_CREATE sent)."""
        return await self.wait_until(
            lambda: self.identify_count if self.identify_count > after and self.connected else None,
            timeout=timeout,
            what=f"bot IDENTIFY number {after + 1}",
        )

    async def wait_for_disconnect(self, *, timeout: float | None = None) -> None:
        """Wait until no gateway connection is open."""
        await self.wait_until(
            lambda: not self.connections, timeout=timeout, what="gateway disconnect"
        )

    async def wait_for_commands(self, *names: str, timeout: float | None = None) -> None:
        """Wait until the given qualified command names were synced."""
        await self.wait_until(
            lambda: all(n in self.command_names() for n in names),
            timeout=timeout,
            what=f"commands {list(names)} to be synced",
        )

    @property
    def connected(self) -> bool:
        """Whether a bot is identified on the gateway."""
        return any(c.ready for c in self.connections)

    def diagnostics(self) -> str:
        """A multi-line summary of the fake's state for failure messages."""
        lines = [
            f"  gateway: {len(self.connections)} connection(s), connected={self.connected}, identifies={self.identify_count}",
            f"  synced commands: {self.command_names()}",
        ]
        for msg in self.sent[-6:]:
            lines.append(f"  sent: {msg.summary()}")
        lines += [f"  unknown route: {r}" for r in self.unknown_routes[-5:]]
        lines += [f"  violation: {v}" for v in self.violations[-5:]]
        lines += [f"  fake error: {e.splitlines()[0]}" for e in self.errors[-3:]]
        return "\n".join(lines)

    # -- messages ----------------------------------------------------------

    def message(self, message_id: int | SentMessage) -> SentMessage:
        """The current state of a stored message."""
        return self._snapshot(self._stored(message_id), "current")

    def messages_in(
        self, channel: FakeChannel | str | int, *, include_ephemeral: bool = False
    ) -> list[SentMessage]:
        """Current state of the non-deleted messages of a channel, oldest first."""
        channel_id = self.channel(channel).id
        return [
            self._snapshot(m, "current")
            for m in self._messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and (include_ephemeral or not m.flags & EPHEMERAL)
        ]

    def _stored(self, ref: int | SentMessage) -> _StoredMessage:
        message_id = ref.message_id if isinstance(ref, SentMessage) else ref
        stored = self._messages.get(message_id)
        if stored is None:
            raise LookupError(f"unknown message {message_id}")
        if stored.deleted:
            raise LookupError(f"message {message_id} was deleted")
        return stored

    def _snapshot(
        self, stored: _StoredMessage, kind: str, payload: Mapping[str, Any] | None = None
    ) -> SentMessage:
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

    def _record(
        self,
        stored: _StoredMessage,
        kind: str,
        payload: Mapping[str, Any] | None,
        handle: InteractionHandle | None,
    ) -> SentMessage:
        snap = self._snapshot(stored, kind, payload)
        if handle is not None:
            snap.interaction_id, snap.interaction_token, snap.user = (
                handle.id,
                handle.token,
                handle.user,
            )
        self.sent.append(snap)
        if handle is not None:
            handle.messages.append(snap)
            if handle.private and not snap.ephemeral:
                self._violation(
                    "privacy",
                    f"{kind} message {snap.message_id} is public but this interaction must answer privately: "
                    f"{snap.summary()}",
                    handle,
                )
        self._notify()
        return snap

    def _message_json(self, stored: _StoredMessage) -> dict[str, Any]:
        channel = self.channels.get(stored.channel_id)
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
            "attachments": [self._attachment_json(a) for a in stored.attachments],
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
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
        if stored.message_reference:
            data["message_reference"] = stored.message_reference
        handle = stored.handle
        if handle is not None:
            metadata: dict[str, Any] = {
                "id": str(handle.id),
                "type": handle.type,
                "user": handle.user.to_json(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if handle.type == MESSAGE_COMPONENT and handle.source_message_id:
                metadata["interacted_message_id"] = str(handle.source_message_id)
            data["interaction_metadata"] = metadata
        return data

    def _attachment_json(self, att: Attachment) -> dict[str, Any]:
        url = f"{self.base_url}/attachments/{att.id}/{att.filename}"
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

    def _new_message(
        self,
        channel_id: int,
        *,
        author: FakeUser | None = None,
        handle: InteractionHandle | None = None,
        webhook: bool = False,
        type: int = 0,
    ) -> _StoredMessage:
        stored = _StoredMessage(
            id=self._ids.next(),
            channel_id=channel_id,
            author=author or self.bot_user,
            webhook=webhook,
            handle=handle,
            type=type,
        )
        self._messages[stored.id] = stored
        return stored

    def _apply_payload(
        self,
        stored: _StoredMessage,
        payload: Mapping[str, Any],
        uploads: Sequence[_Upload],
        *,
        creating: bool,
        allow_ephemeral: bool,
    ) -> None:
        if "content" in payload or creating:
            stored.content = payload.get("content") or ""
        if "embeds" in payload or creating:
            stored.embeds = list(payload.get("embeds") or [])
        if "components" in payload or creating:
            stored.components = list(payload.get("components") or [])
        if creating:
            mask = _USER_SETTABLE_FLAGS if allow_ephemeral else _USER_SETTABLE_FLAGS & ~EPHEMERAL
            stored.flags = (payload.get("flags") or 0) & mask
            stored.pings = pings_of(stored.content, payload.get("allowed_mentions"))
            if self.require_allowed_mentions and "allowed_mentions" not in payload:
                self._violation(
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
            stored.edited_timestamp = _now_iso()

    def _resolve_attachments(
        self,
        payload: Mapping[str, Any],
        uploads: Sequence[_Upload],
        existing: Sequence[Attachment],
    ) -> list[Attachment]:
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()

        def new(upload: _Upload, entry: Mapping[str, Any] | None) -> Attachment:
            used.add(upload.index)
            filename = (entry or {}).get("filename") or upload.filename
            att = Attachment(
                id=self._ids.next(),
                filename=filename,
                data=upload.data,
                content_type=_sniff_content_type(filename, upload.data, upload.content_type),
                declared_content_type=upload.content_type,
                description=(entry or {}).get("description"),
            )
            self._attachments[att.id] = att
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

    # -- JSON builders -------------------------------------------------------

    def _perm_role_id(self, user: FakeUser) -> int:
        if user.id not in self._perm_roles:
            self._perm_roles[user.id] = self._ids.next()
        return self._perm_roles[user.id]

    def _member_roles(self, user: FakeUser) -> list[str]:
        if user is self.bot_user:
            return [str(self.bot_role_id)]
        if user.permissions & ~Perm.DEFAULT_MEMBER:
            return [str(self._perm_role_id(user))]
        return []

    def _roles_json(self) -> list[dict[str, Any]]:
        def role(
            role_id: int, name: str, permissions: int, position: int, **extra: Any
        ) -> dict[str, Any]:
            return {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
                **extra,
            }

        roles = [
            role(self.guild_id, "@everyone", Perm.DEFAULT_MEMBER, 0),
            role(
                self.bot_role_id,
                self.bot_user.name,
                Perm.BOT,
                1,
                managed=True,
                tags={"bot_id": str(self.bot_user.id)},
            ),
        ]
        for position, user in enumerate(self.users.values(), start=2):
            if user.permissions & ~Perm.DEFAULT_MEMBER:
                roles.append(
                    role(
                        self._perm_role_id(user),
                        f"{user.name} permissions",
                        user.permissions,
                        position,
                    )
                )
        return roles

    def _member_json(
        self, user: FakeUser, *, with_permissions: bool = False, with_user: bool = True
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": self._member_roles(user),
            "joined_at": user.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.to_json()
        if with_permissions:
            data["permissions"] = str(user.effective_permissions)
        return data

    def _channel_json(
        self, channel: FakeChannel, *, permissions: int | None = None
    ) -> dict[str, Any]:
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
                1 for m in self._messages.values() if m.channel_id == channel.id and not m.deleted
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

    def _guild_json(self) -> dict[str, Any]:
        guild_channels = [c for c in self.channels.values() if c.guild_id is not None]
        members = [self.bot_user, *self.users.values()]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.guild_locale,
            "features": [],
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "incidents_data": None,
            "joined_at": self.bot_user.joined_at,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(members),
            "roles": self._roles_json(),
            "emojis": [],
            "stickers": [],
            "channels": [self._channel_json(c) for c in guild_channels if not c.is_thread],
            "threads": [
                self._channel_json(c) for c in guild_channels if c.is_thread and not c.archived
            ],
            "members": [self._member_json(u) for u in members],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _application_json(self) -> dict[str, Any]:
        owner = self.user(self.owner_id)
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "Fake application for end-to-end tests",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": owner.to_json(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "interactions_endpoint_url": None,
            "summary": "",
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "approximate_guild_count": 1,
            "bot": self.bot_user.to_json(),
        }

    # -- gateway -------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        for fault in self.faults:  # fail("GET", r"/gateway", 503): the handshake is refused
            if fault.times > 0 and fault.method == "GET" and fault.path.fullmatch("/gateway"):
                fault.times -= 1
                fault.hits += 1
                self.requests.append(f"GET /gateway -> {fault.status} (scripted)")
                return _error(fault.status, fault.code, f"{fault.status}: {fault.message}")
        ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        conn = _GatewayConnection(ws=ws, number=next(self._connection_numbers))
        self.connections.append(conn)
        self._notify()
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    raw = msg.data if isinstance(msg.data, str) else msg.data.decode()
                    await self._on_gateway_payload(conn, json.loads(raw))
                elif msg.type == WSMsgType.ERROR:
                    break
        except Exception:
            self.errors.append("gateway: " + traceback.format_exc())
        finally:
            self.connections.remove(conn)
            self._notify()
        return ws

    async def _on_gateway_payload(self, conn: _GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "d": None})
        elif op == 2:  # identify
            await self._identify(conn, data or {})
        elif op == 6:  # resume
            session_id = (data or {}).get("session_id")
            if session_id in self._sessions:
                conn.session_id = session_id
                conn.seq = int((data or {}).get("seq") or 0)
                conn.identified = conn.ready = True
                self.resume_count += 1
                await conn.send({"op": 0, "t": "RESUMED", "d": {}})
                self._notify()
            else:
                await conn.send({"op": 9, "d": False})
        elif op == 8:  # request guild members
            await self._members_chunk(conn, data or {})

    async def _identify(self, conn: _GatewayConnection, data: dict[str, Any]) -> None:
        token = str(data.get("token") or "")
        self.tokens_seen.add(token)
        conn.identify = data
        conn.session_id = secrets.token_hex(16)
        self._sessions.add(conn.session_id)
        conn.identified = True
        self.identify_payloads.append(data)
        ready = {
            "v": 10,
            "user": {
                **self.bot_user.to_json(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": conn.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "shard": data.get("shard") or [0, 1],
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }
        await conn.send({"op": 0, "t": "READY", "d": ready})
        await conn.send({"op": 0, "t": "GUILD_CREATE", "d": self._guild_json()})
        conn.ready = True
        self.identify_count += 1
        self._notify()

    async def _members_chunk(self, conn: _GatewayConnection, data: dict[str, Any]) -> None:
        members = [self.bot_user, *self.users.values()]
        query = data.get("query")
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.id in wanted]
        elif query:
            members = [m for m in members if m.name.lower().startswith(str(query).lower())]
        chunk = {
            "guild_id": str(self.guild_id),
            "members": [self._member_json(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await conn.send({"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a gateway DISPATCH to every identified connection; returns how many got it."""
        targets = [c for c in self.connections if c.ready and not c.ws.closed]
        for conn in targets:
            await conn.send({"op": 0, "t": event, "d": data})
        return len(targets)

    def _background_dispatch(self, event: str, data: dict[str, Any]) -> None:
        if not self.connected:
            return
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data))
        self._background_tasks.add(task)
        task.add_done_callback(self._background_tasks.discard)

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with ``code`` (4000 makes discord.py resume)."""
        for conn in list(self.connections):
            await conn.ws.close(code=code, message=b"fake discord dropped the connection")

    # -- driving the bot as a user -----------------------------------------

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
        user = self.user(user) if isinstance(user, str) else user
        tokens = name.lstrip("/").split() + (subcommand.split() if subcommand else [])
        found = self._find_command(tokens[0])
        if found is None:
            raise LookupError(
                f"command /{tokens[0]} was not synced; synced: {self.command_names()}"
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
                    f"/{' '.join(tokens)}: no subcommand {token!r}; synced: {self.command_names()}"
                )
            chain.append(sub)
            definitions = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in definitions):
            raise ValueError(
                f"/{' '.join(tokens)} needs a subcommand; synced: {self.command_names()}"
            )
        resolved: dict[str, dict[str, Any]] = {}
        built = self._build_options(
            definitions, dict(options or {}), focused, resolved, f"/{' '.join(tokens)}"
        )
        for sub in reversed(chain):
            built = [{"type": sub["type"], "name": sub["name"], "options": built}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": built}
        if guild_scoped:
            data["guild_id"] = str(self.guild_id)
        if resolved:
            data["resolved"] = resolved
        qualified = " ".join(tokens)
        if focused:
            label = f"autocomplete /{qualified} ({focused})"
        else:
            label = "/" + qualified + "".join(f" {k}:{v}" for k, v in (options or {}).items())
        if private is None:
            private = self._is_private_command(qualified)
        handle = InteractionHandle(
            self,
            type=AUTOCOMPLETE if focused else APPLICATION_COMMAND,
            user=user,
            channel=self._target_channel(channel),
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
        user = self.user(user) if isinstance(user, str) else user
        stored = self._stored(message)
        comp = self._find_clickable(stored, custom_id, user)
        if comp.get("type") != 2:
            raise ValueError(
                f"{custom_id!r} is a component of type {comp.get('type')}, use select()"
            )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._component_interaction(user, stored, data, f"click {custom_id}", private)

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
        user = self.user(user) if isinstance(user, str) else user
        stored = self._stored(message)
        comp = self._find_clickable(stored, custom_id, user)
        ctype = comp.get("type")
        if ctype not in _SELECT_TYPES:
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
            str_values = [str(self._resolve_entity(v, ctype, resolved)) for v in values]
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ctype,
            "values": str_values,
        }
        if "id" in comp:
            data["id"] = comp["id"]
        if resolved:
            data["resolved"] = resolved
        return await self._component_interaction(
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
        user = self.user(user) if isinstance(user, str) else user
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
            private = source.private or self._is_private_component(modal.custom_id)
        stored = self._messages.get(source.source_message_id or 0)
        handle = InteractionHandle(
            self,
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

    async def say(
        self, user: FakeUser | str, content: str, *, channel: FakeChannel | str | int | None = None
    ) -> SentMessage:
        """Post a plain message as ``user`` (dispatches MESSAGE_CREATE)."""
        user = self.user(user) if isinstance(user, str) else user
        target = self._target_channel(channel)
        stored = self._new_message(target.id, author=user)
        stored.content = content
        snap = self._snapshot(stored, "user")
        self.user_messages.append(snap)
        await self.dispatch("MESSAGE_CREATE", self._message_event(stored))
        return snap

    def _message_event(self, stored: _StoredMessage) -> dict[str, Any]:
        data = self._message_json(stored)
        channel = self.channels.get(stored.channel_id)
        if channel is not None and channel.guild_id is not None:
            data["member"] = self._member_json(stored.author, with_user=False)
        return data

    def _target_channel(self, channel: FakeChannel | str | int | None) -> FakeChannel:
        return self.default_channel if channel is None else self.channel(channel)

    def _find_clickable(
        self, stored: _StoredMessage, custom_id: str, user: FakeUser
    ) -> Mapping[str, Any]:
        if (
            stored.flags & EPHEMERAL
            and stored.handle is not None
            and stored.handle.user is not user
        ):
            raise PermissionError(
                f"message {stored.id} is ephemeral for {stored.handle.user.name}; {user.name} cannot see it"
            )
        snap = self._snapshot(stored, "current")
        comp = snap.component(custom_id)
        if comp is None:
            raise LookupError(
                f"message {stored.id} has no component {custom_id!r}; it has {snap.custom_ids}"
            )
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} of message {stored.id} is disabled")
        return comp

    async def _component_interaction(
        self,
        user: FakeUser,
        stored: _StoredMessage,
        data: dict[str, Any],
        label: str,
        private: bool | None,
    ) -> InteractionHandle:
        if private is None:
            private = self._is_private_component(data["custom_id"])
        handle = InteractionHandle(
            self,
            type=MESSAGE_COMPONENT,
            user=user,
            channel=self.channels[stored.channel_id],
            label=label,
            private=private,
            data=data,
            source_message_id=stored.id,
        )
        await self._send_interaction(handle, message=stored)
        return handle

    async def _send_interaction(
        self, handle: InteractionHandle, message: _StoredMessage | None = None
    ) -> None:
        channel = handle.channel
        payload: dict[str, Any] = {
            "id": str(handle.id),
            "application_id": str(self.application_id),
            "type": handle.type,
            "data": handle.data,
            "token": handle.token,
            "version": 1,
            "locale": handle.user.locale,
            "app_permissions": str(self.bot_permissions(channel.id)),
            "entitlements": [],
            "attachment_size_limit": self.attachment_size_limit,
            "channel_id": str(channel.id),
            "channel": self._channel_json(channel, permissions=handle.user.effective_permissions),
        }
        if channel.guild_id is not None:
            payload.update(
                guild_id=str(self.guild_id),
                guild={"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
                guild_locale=self.guild_locale,
                member=self._member_json(handle.user, with_permissions=True),
                authorizing_integration_owners={"0": str(self.guild_id)},
                context=0,
            )
        else:
            payload.update(
                user=handle.user.to_json(),
                authorizing_integration_owners={"0": str(self.guild_id)},
                context=1,
            )
        if message is not None:
            payload["message"] = self._message_json(message)
        handle.payload = payload
        if not self.connected:
            raise RuntimeError(
                f"no bot is connected to the fake gateway, cannot send {handle.describe()}"
            )
        self.interactions[handle.token] = handle
        loop = asyncio.get_running_loop()
        handle.sent_at = loop.time()
        handle._timer = loop.call_later(self.ack_deadline, self._ack_timer, handle)
        await self.dispatch("INTERACTION_CREATE", payload)

    def _ack_timer(self, handle: InteractionHandle) -> None:
        if handle.ack_type is None and not handle.expired:
            handle.expired = True
            self._violation(
                "late_ack",
                f"not acknowledged within {self.ack_deadline:g} s (Discord shows 'This interaction failed')",
                handle,
            )

    def _build_options(
        self,
        definitions: Sequence[Mapping[str, Any]],
        values: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
        where: str,
    ) -> list[dict[str, Any]]:
        by_name = {d["name"]: d for d in definitions}
        built: list[dict[str, Any]] = []
        if focused is not None:
            if focused not in by_name:
                raise ValueError(f"{where} has no option {focused!r}; options: {sorted(by_name)}")
            if not by_name[focused].get("autocomplete"):
                raise ValueError(f"{where} option {focused!r} has no autocomplete")
            values.setdefault(focused, "")
        for key, value in values.items():
            definition = by_name.get(key)
            if definition is None:
                raise ValueError(f"{where} has no option {key!r}; options: {sorted(by_name)}")
            otype = definition["type"]
            if key == focused:
                built.append({"name": key, "type": otype, "value": str(value), "focused": True})
                continue
            built.append(
                {
                    "name": key,
                    "type": otype,
                    "value": self._coerce_option(definition, value, resolved, where),
                }
            )
        if focused is None:
            missing = [
                d["name"] for d in definitions if d.get("required") and d["name"] not in values
            ]
            if missing:
                raise ValueError(f"{where} is missing required options {missing}")
        return built

    def _coerce_option(
        self,
        definition: Mapping[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        where: str,
    ) -> Any:
        otype = definition["type"]
        name = definition["name"]
        if otype == 3:
            result: Any = value if isinstance(value, str) else str(value)
            lo, hi = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not lo <= len(result) <= hi:
                raise ValueError(f"{where} {name}: length {len(result)} not in {lo}..{hi}")
        elif otype in (4, 10):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{where} {name}: expected a number, got {value!r}")
            if otype == 4 and int(value) != value:
                raise ValueError(f"{where} {name}: expected an integer, got {value!r}")
            result = int(value) if otype == 4 else value
            lo, hi = definition.get("min_value"), definition.get("max_value")
            if (lo is not None and result < lo) or (hi is not None and result > hi):
                raise ValueError(f"{where} {name}: {result} not in {lo}..{hi}")
        elif otype == 5:
            if not isinstance(value, bool):
                raise ValueError(f"{where} {name}: expected a bool, got {value!r}")
            result = value
        elif otype in (6, 7, 8, 9):
            # Map the option type to the matching select type: user 5, role 6, mentionable 7, channel 8.
            entity_type = {6: 5, 7: 8, 8: 6, 9: 7}[otype]
            if otype == 7:
                channel = self.channel(value)
                allowed_types = definition.get("channel_types")
                if allowed_types and channel.type not in allowed_types:
                    raise ValueError(
                        f"{where} {name}: channel type {channel.type} not in {allowed_types}"
                    )
            result = str(self._resolve_entity(value, entity_type, resolved))
        elif otype == 11:
            filename, data = value if isinstance(value, tuple) else (value.filename, value.data)
            att = Attachment(
                id=self._ids.next(),
                filename=filename,
                data=data,
                content_type=_sniff_content_type(filename, data, None),
            )
            self._attachments[att.id] = att
            resolved.setdefault("attachments", {})[str(att.id)] = self._attachment_json(att)
            result = str(att.id)
        else:
            raise ValueError(f"{where} {name}: unsupported option type {otype}")
        choices = definition.get("choices")
        if choices and result not in [c["value"] for c in choices]:
            raise ValueError(
                f"{where} {name}: {result!r} is not one of {[c['value'] for c in choices]}"
            )
        return result

    def _resolve_entity(
        self, value: Any, component_type: int, resolved: dict[str, dict[str, Any]]
    ) -> int:
        """Fill ``resolved`` for a user (5), role (6), mentionable (7) or channel (8) and return its id."""
        if component_type == 8 or isinstance(value, FakeChannel):
            channel = self.channel(value)
            resolved.setdefault("channels", {})[str(channel.id)] = self._channel_json(
                channel, permissions=Perm.DEFAULT_MEMBER
            )
            return channel.id
        if isinstance(value, FakeUser) or (
            component_type in (5, 7) and int(value) in self._users_by_id
        ):
            user = value if isinstance(value, FakeUser) else self._users_by_id[int(value)]
            resolved.setdefault("users", {})[str(user.id)] = user.to_json()
            resolved.setdefault("members", {})[str(user.id)] = self._member_json(
                user, with_permissions=True, with_user=False
            )
            return user.id
        role_id = int(value)
        role = next((r for r in self._roles_json() if int(r["id"]) == role_id), None)
        if role is None:
            raise ValueError(f"unknown user or role {value!r}")
        resolved.setdefault("roles", {})[str(role_id)] = role
        return role_id

    # -- HTTP plumbing -------------------------------------------------------

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        self.requests.append(f"{request.method} {request.path}")
        self._notify()
        try:
            return await handler(request)
        except web.HTTPException:
            raise
        except Exception as exc:
            self.errors.append(
                f"{request.method} {request.path}: {exc!r}\n{traceback.format_exc()}"
            )
            self._notify()
            # 400, not 500: discord.py retries 5xx with back-off, which only slows tests down.
            return _error(400, 0, f"fake Discord crashed handling this request: {exc!r}")

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Any], bool]]:
        table: list[tuple[str, str, Callable[..., Any], bool]] = [
            # (method, path, handler, needs bot authorization)
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/users/@me", self._get_me, True),
            ("POST", "/users/@me/channels", self._create_dm, True),
            ("GET", "/users/{user_id}", self._get_user, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("GET", "/applications/{application_id}/commands", self._list_commands, True),
            ("PUT", "/applications/{application_id}/commands", self._put_commands, True),
            ("POST", "/applications/{application_id}/commands", self._upsert_command, True),
            (
                "GET",
                "/applications/{application_id}/commands/{command_id}",
                self._get_command,
                True,
            ),
            (
                "PATCH",
                "/applications/{application_id}/commands/{command_id}",
                self._edit_command,
                True,
            ),
            (
                "DELETE",
                "/applications/{application_id}/commands/{command_id}",
                self._delete_command,
                True,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
                self._command_permissions,
                True,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._list_commands,
                True,
            ),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
                True,
            ),
            (
                "POST",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._upsert_command,
                True,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                self._get_command,
                True,
            ),
            (
                "PATCH",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                self._edit_command,
                True,
            ),
            (
                "DELETE",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                self._delete_command,
                True,
            ),
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
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("POST", "/guilds/{guild_id}/channels", self._create_guild_channel, True),
            ("GET", "/guilds/{guild_id}/members", self._list_members, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
            ("GET", "/guilds/{guild_id}/roles", self._get_roles, True),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("PATCH", "/channels/{channel_id}", self._edit_channel, True),
            ("DELETE", "/channels/{channel_id}", self._delete_channel, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
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
        return [
            (method, _compile_route(path), handler, auth) for method, path, handler, auth in table
        ]

    async def _dispatch_http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            return self._serve_attachment(path)
        if request.method == "GET" and (
            path.startswith("/embed/avatars/") or path.startswith("/avatars/")
        ):
            return web.Response(body=solid_png(64, 64), content_type="image/png")
        if path.startswith(API_PREFIX + "/"):
            sub = path[len(API_PREFIX) :]
            for fault in self.faults:
                if fault.times > 0 and fault.method == request.method and fault.path.fullmatch(sub):
                    fault.times -= 1
                    fault.hits += 1
                    await request.read()
                    self.requests.append(f"{request.method} {sub} -> {fault.status} (scripted)")
                    if fault.status == 429:
                        return web.json_response(
                            {"message": fault.message, "retry_after": 0.05, "global": False},
                            status=429,
                            headers={"Retry-After": "0.05", "X-RateLimit-Scope": "user"},
                            content_type="application/json",
                        )
                    return _error(fault.status, fault.code, f"{fault.status}: {fault.message}")
            for method, pattern, handler, needs_auth in self._routes:
                if method != request.method:
                    continue
                match = pattern.match(sub)
                if match is None:
                    continue
                if needs_auth:
                    auth = request.headers.get("Authorization", "")
                    if not auth.startswith("Bot "):
                        self._violation(
                            "auth", f"missing bot Authorization header on {request.method} {sub}"
                        )
                        return _error(401, 0, "401: Unauthorized")
                    self.tokens_seen.add(auth[4:])
                params = {
                    k: (int(v) if k.endswith("_id") else v) for k, v in match.groupdict().items()
                }
                return await handler(request, **params)
        body = await request.read()
        self.unknown_routes.append(UnknownRoute(request.method, path, request.query_string, body))
        self._notify()
        return _error(404, 0, "404: Not Found (route unknown to the fake Discord)")

    def _serve_attachment(self, path: str) -> web.StreamResponse:
        parts = path.split("/")
        try:
            att = self._attachments[int(parts[2])]
        except (IndexError, ValueError, KeyError):
            return _error(404, 0, "404: Not Found")
        return web.Response(body=att.data, content_type=att.content_type)

    async def _read_payload(self, request: web.Request) -> tuple[Any, list[_Upload]]:
        if request.content_type.startswith("multipart/"):
            payload: Any = {}
            uploads: list[_Upload] = []
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
                        _Upload(
                            index=index,
                            filename=part.filename or f"file{index}",  # type: ignore[union-attr]
                            data=bytes(raw),
                            content_type=part.headers.get("Content-Type"),
                        )
                    )
            return payload, uploads
        body = await request.read()
        return (json.loads(body) if body.strip() else {}), []

    def _reject(
        self,
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
            self._violation(p.kind, p.detail, handle, route)
        if any(p.kind == "attachments" and "limit" in p.detail for p in problems):
            return _error(413, 40005, "Request entity too large")
        if any(p.kind == "empty_message" for p in problems):
            return _error(400, 50006, "Cannot send an empty message")
        return _error(400, 50035, "Invalid Form Body", errors_body(problems, prefix))

    # -- REST: identity, application, commands -----------------------------

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json_response({"url": f"ws://127.0.0.1:{self.port}/gateway"})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "url": f"ws://127.0.0.1:{self.port}/gateway",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json_response({**self.bot_user.to_json(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request, user_id: int) -> web.Response:
        user = self._users_by_id.get(user_id)
        if user is None:
            return _error(404, 10013, "Unknown User")
        return _json_response(user.to_json())

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json_response(self._application_json())

    def _scope(
        self, application_id: int, guild_id: int | None
    ) -> dict[tuple[str, int], dict[str, Any]] | web.Response:
        if application_id != self.application_id:
            return _error(403, 50001, "Missing Access (wrong application id)")
        if guild_id is not None and guild_id != self.guild_id:
            return _error(404, 10004, "Unknown Guild")
        return self.commands.setdefault(guild_id, {})

    def _store_command(self, scope_id: int | None, definition: Mapping[str, Any]) -> dict[str, Any]:
        ctype = definition.get("type", 1)
        key = (scope_id, definition["name"], ctype)
        if key not in self._command_ids:
            self._command_ids[key] = self._ids.next()
        stored = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **definition,
            "id": str(self._command_ids[key]),
            "application_id": str(self.application_id),
            "version": str(self._ids.next()),
        }
        if scope_id is not None:
            stored["guild_id"] = str(scope_id)
        return stored

    async def _list_commands(
        self, request: web.Request, application_id: int, guild_id: int | None = None
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        return _json_response(list(scope.values()))

    async def _put_commands(
        self, request: web.Request, application_id: int, guild_id: int | None = None
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        definitions = await request.json()
        if not isinstance(definitions, list):
            return _error(400, 50035, "Invalid Form Body")
        problems = [p for d in definitions for p in check_command_definition(d)]
        keys = [(d.get("name"), d.get("type", 1)) for d in definitions]
        if len(set(keys)) != len(keys):
            problems.append("duplicate command names")
        if sum(1 for _, t in keys if t == 1) > 100:
            problems.append("more than 100 chat-input commands")
        if problems:
            for problem in problems:
                self._violation("command_definition", problem, route=f"PUT {request.path}")
            return _error(400, 50035, "Invalid Form Body", {"fake": problems})
        scope.clear()
        for definition in definitions:
            stored = self._store_command(guild_id, definition)
            scope[(stored["name"], stored["type"])] = stored
        self.command_syncs.append((guild_id, [k[0] for k in keys]))
        self._notify()
        return _json_response(list(scope.values()))

    async def _upsert_command(
        self, request: web.Request, application_id: int, guild_id: int | None = None
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        definition = await request.json()
        problems = check_command_definition(definition)
        if problems:
            for problem in problems:
                self._violation("command_definition", problem, route=f"POST {request.path}")
            return _error(400, 50035, "Invalid Form Body", {"fake": problems})
        stored = self._store_command(guild_id, definition)
        scope[(stored["name"], stored["type"])] = stored
        self._notify()
        return _json_response(stored, 201)

    def _command_by_id(
        self, scope: dict[tuple[str, int], dict[str, Any]], command_id: int
    ) -> tuple[str, int] | None:
        return next((k for k, v in scope.items() if int(v["id"]) == command_id), None)

    async def _get_command(
        self,
        request: web.Request,
        application_id: int,
        command_id: int,
        guild_id: int | None = None,
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        key = self._command_by_id(scope, command_id)
        if key is None:
            return _error(404, 10063, "Unknown application command")
        return _json_response(scope[key])

    async def _edit_command(
        self,
        request: web.Request,
        application_id: int,
        command_id: int,
        guild_id: int | None = None,
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        key = self._command_by_id(scope, command_id)
        if key is None:
            return _error(404, 10063, "Unknown application command")
        updated = {**scope[key], **(await request.json())}
        del scope[key]
        stored = self._store_command(guild_id, updated)
        scope[(stored["name"], stored["type"])] = stored
        self._notify()
        return _json_response(stored)

    async def _delete_command(
        self,
        request: web.Request,
        application_id: int,
        command_id: int,
        guild_id: int | None = None,
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        key = self._command_by_id(scope, command_id)
        if key is None:
            return _error(404, 10063, "Unknown application command")
        del scope[key]
        self._notify()
        return _no_content()

    async def _command_permissions(
        self, request: web.Request, application_id: int, guild_id: int
    ) -> web.Response:
        return _json_response([])

    # -- REST: interactions ----------------------------------------------------

    async def _interaction_callback(
        self, request: web.Request, interaction_id: int, token: str
    ) -> web.Response:
        route = f"POST /interactions/{interaction_id}/.../callback"
        payload, uploads = await self._read_payload(request)
        handle = self.interactions.get(token)
        if handle is None or handle.id != interaction_id:
            self._violation(
                "unknown_interaction",
                "callback for an interaction the fake never sent",
                route=route,
            )
            return _error(404, 10062, "Unknown interaction")
        loop = asyncio.get_running_loop()
        now = loop.time()
        if handle.ack_type is not None:
            self._violation(
                "double_ack", f"second acknowledgement (type {payload.get('type')})", handle, route
            )
            return _error(400, 40060, "Interaction has already been acknowledged.")
        assert handle.sent_at is not None
        if handle.expired or now - handle.sent_at > self.ack_deadline:
            if not handle.expired:
                handle.expired = True
                self._violation(
                    "late_ack",
                    f"acknowledged after {now - handle.sent_at:.2f} s (limit {self.ack_deadline:g} s)",
                    handle,
                    route,
                )
            return _error(404, 10062, "Unknown interaction")
        ctype = payload.get("type")
        data = payload.get("data") or {}
        if ctype not in _ALLOWED_CALLBACKS.get(handle.type, set()):
            self._violation(
                "invalid_callback",
                f"callback type {ctype} for interaction type {handle.type}",
                handle,
                route,
            )
            return _error(
                400, 50035, "Invalid Form Body", {"type": f"callback type {ctype} not allowed"}
            )
        if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            problems = check_message_payload(
                data,
                uploads,
                size_limit=self.attachment_size_limit,
                creating=ctype == CHANNEL_MESSAGE,
            )
        elif ctype == AUTOCOMPLETE_RESULT:
            problems = check_choices(data.get("choices"))
        elif ctype == MODAL:
            problems = check_modal(data)
        else:
            problems = []
        rejected = self._reject(problems, handle, route, ("data",))
        if rejected is not None:
            return rejected

        handle.ack_type = ctype
        handle.acked_at = now
        if handle._timer is not None:
            handle._timer.cancel()
        message_json: dict[str, Any] | None = None
        if ctype == CHANNEL_MESSAGE:
            stored = self._new_message(
                handle.channel.id,
                handle=handle,
                webhook=True,
                type=20 if handle.type == APPLICATION_COMMAND else 0,
            )
            self._apply_payload(stored, data, uploads, creating=True, allow_ephemeral=True)
            handle.original_message_id = stored.id
            handle.ephemeral = stored.flags & EPHEMERAL != 0
            self._record(stored, "response", data, handle)
            message_json = self._message_json(stored)
            await self._announce(stored, "MESSAGE_CREATE")
        elif ctype == DEFERRED_CHANNEL_MESSAGE:
            stored = self._new_message(
                handle.channel.id,
                handle=handle,
                webhook=True,
                type=20 if handle.type == APPLICATION_COMMAND else 0,
            )
            stored.flags = ((data.get("flags") or 0) & EPHEMERAL) | LOADING
            handle.original_message_id = stored.id
            handle.ephemeral = stored.flags & EPHEMERAL != 0
            handle.loading = True
            self._record(stored, "deferred", data, handle)
            message_json = self._message_json(stored)
            await self._announce(stored, "MESSAGE_CREATE")
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = self._messages.get(handle.source_message_id or 0)
            if source is None:
                self._violation(
                    "invalid_callback",
                    f"callback type {ctype} without a message to update",
                    handle,
                    route,
                )
                return _error(400, 50035, "Invalid Form Body")
            handle.original_message_id = source.id
            handle.ephemeral = source.flags & EPHEMERAL != 0
            if ctype == UPDATE_MESSAGE:
                self._apply_payload(source, data, uploads, creating=False, allow_ephemeral=False)
                self._record(source, "update", data, handle)
                message_json = self._message_json(source)
                await self._announce(source, "MESSAGE_UPDATE")
        elif ctype == AUTOCOMPLETE_RESULT:
            handle.choices = list(data.get("choices") or [])
        elif ctype == MODAL:
            handle.modal = ModalRequest(
                custom_id=data.get("custom_id", ""),
                title=data.get("title", ""),
                components=list(data.get("components") or []),
            )
        self._notify()

        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return _no_content()
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
        return _json_response(body)

    async def _announce(self, stored: _StoredMessage, event: str) -> None:
        """Tell the gateway about a public message (ephemeral ones get no events)."""
        if stored.flags & EPHEMERAL:
            return
        data = self._message_event(stored)
        await self.dispatch(event, data)

    def _webhook_handle(
        self, application_id: int, token: str, route: str
    ) -> InteractionHandle | web.Response:
        handle = self.interactions.get(token)
        if handle is None or application_id != self.application_id:
            self._violation(
                "unknown_webhook",
                "interaction webhook with an unknown token or application",
                route=route,
            )
            return _error(404, 10015, "Unknown Webhook")
        if handle.ack_type is None:
            self._violation(
                "not_acknowledged",
                "webhook used before the interaction was acknowledged",
                handle,
                route,
            )
            return _error(404, 10015, "Unknown Webhook")
        return handle

    async def _followup(
        self, request: web.Request, application_id: int, token: str
    ) -> web.Response:
        route = f"POST /webhooks/{application_id}/.../ (followup)"
        payload, uploads = await self._read_payload(request)
        handle = self._webhook_handle(application_id, token, route)
        if isinstance(handle, web.Response):
            return handle
        rejected = self._reject(
            check_message_payload(
                payload, uploads, size_limit=self.attachment_size_limit, creating=True
            ),
            handle,
            route,
        )
        if rejected is not None:
            return rejected
        requested = payload.get("flags") or 0
        original = self._messages.get(handle.original_message_id or 0)
        if handle.loading and original is not None and not original.deleted:
            # The first followup after a type 5 defer replaces the "thinking"
            # message and keeps the ephemerality chosen when deferring.
            if requested & EPHEMERAL and not original.flags & EPHEMERAL:
                self._violation(
                    "ephemeral_ignored",
                    "followup asked for ephemeral, but the first followup after a public defer is public",
                    handle,
                    route,
                )
            keep = original.flags & EPHEMERAL
            self._apply_payload(original, payload, uploads, creating=True, allow_ephemeral=False)
            original.flags = (original.flags & ~EPHEMERAL) | keep
            handle.loading = False
            stored = original
            event = "MESSAGE_UPDATE"
        else:
            stored = self._new_message(handle.channel.id, handle=handle, webhook=True, type=0)
            self._apply_payload(stored, payload, uploads, creating=True, allow_ephemeral=True)
            event = "MESSAGE_CREATE"
        self._record(stored, "followup", payload, handle)
        await self._announce(stored, event)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return _json_response(self._message_json(stored))
        return _no_content()

    def _webhook_target(
        self, handle: InteractionHandle, message_ref: str, route: str
    ) -> tuple[_StoredMessage, bool] | web.Response:
        if message_ref == "@original":
            message_id = handle.original_message_id
        else:
            message_id = int(message_ref)
        stored = self._messages.get(message_id or 0)
        if stored is None or stored.deleted:
            return _error(404, 10008, "Unknown Message")
        if message_ref != "@original" and stored.handle is not handle:
            return _error(404, 10008, "Unknown Message")
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
        return _json_response(self._message_json(target[0]))

    async def _edit_webhook_message(
        self, request: web.Request, application_id: int, token: str, message_ref: str
    ) -> web.Response:
        route = f"PATCH /webhooks/{application_id}/.../messages/{message_ref}"
        payload, uploads = await self._read_payload(request)
        handle = self._webhook_handle(application_id, token, route)
        if isinstance(handle, web.Response):
            return handle
        target = self._webhook_target(handle, message_ref, route)
        if isinstance(target, web.Response):
            return target
        stored, is_original = target
        rejected = self._reject(
            check_message_payload(
                payload, uploads, size_limit=self.attachment_size_limit, creating=False
            ),
            handle,
            route,
        )
        if rejected is not None:
            return rejected
        self._apply_payload(stored, payload, uploads, creating=False, allow_ephemeral=False)
        if is_original and handle.loading:
            stored.flags &= ~LOADING
            handle.loading = False
        self._record(stored, "original_edit" if is_original else "followup_edit", payload, handle)
        await self._announce(stored, "MESSAGE_UPDATE")
        return _json_response(self._message_json(stored))

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
        await self._mark_deleted(target[0])
        return _no_content()

    async def _mark_deleted(self, stored: _StoredMessage) -> None:
        stored.deleted = True
        self.deleted_message_ids.append(stored.id)
        self._notify()
        if not stored.flags & EPHEMERAL:
            data: dict[str, Any] = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
            channel = self.channels.get(stored.channel_id)
            if channel is not None and channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            await self.dispatch("MESSAGE_DELETE", data)

    # -- REST: guild -------------------------------------------------------------

    def _check_guild(self, guild_id: int) -> web.Response | None:
        if guild_id != self.guild_id:
            return _error(404, 10004, "Unknown Guild")
        return None

    async def _get_guild(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        data = self._guild_json()
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            data.pop(key, None)
        return _json_response(data)

    async def _get_guild_channels(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        return _json_response(
            [
                self._channel_json(c)
                for c in self.channels.values()
                if c.guild_id is not None and not c.is_thread
            ]
        )

    async def _create_guild_channel(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        body = await request.json()
        if body.get("type", 0) not in _CHANNEL_TYPES_TEXT:
            return _error(400, 50035, "the fake only creates text channels")
        channel = self.add_channel(body["name"], topic=body.get("topic"))
        self._notify()
        return _json_response(self._channel_json(channel), 201)

    async def _list_members(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        return _json_response([self._member_json(u) for u in (self.bot_user, *self.users.values())])

    async def _get_member(self, request: web.Request, guild_id: int, user_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        user = self._users_by_id.get(user_id)
        if user is None:
            return _error(404, 10007, "Unknown Member")
        return _json_response(self._member_json(user))

    async def _get_roles(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        return _json_response(self._roles_json())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self._users_by_id.get(int(body.get("recipient_id", 0)))
        if user is None:
            return _error(404, 10013, "Unknown User")
        channel = self.dm_channel(user)
        if channel is None:
            channel = FakeChannel(
                id=self._ids.next(), name=f"dm-{user.name}", type=1, recipient=user
            )
            self.channels[channel.id] = channel
        return _json_response(self._channel_json(channel))

    # -- REST: channels ------------------------------------------------------

    def _get_channel_or_error(self, channel_id: int) -> FakeChannel | web.Response:
        channel = self.channels.get(channel_id)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self._get_channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        return _json_response(self._channel_json(channel))

    async def _edit_channel(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self._get_channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        body = await request.json()
        for key in ("name", "topic", "archived", "locked", "invitable", "position"):
            if key in body and body[key] is not None:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        data = self._channel_json(channel)
        self._notify()
        await self.dispatch(event, data)
        return _json_response(data)

    async def _delete_channel(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self._get_channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        data = self._channel_json(channel)
        del self.channels[channel_id]
        self._notify()
        await self.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", data)
        return _json_response(data)

    async def _typing(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self._get_channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        return _no_content()

    def _channel_message(self, channel_id: int, message_id: int) -> _StoredMessage | web.Response:
        stored = self._messages.get(message_id)
        if (
            stored is None
            or stored.deleted
            or stored.channel_id != channel_id
            or stored.flags & EPHEMERAL
        ):
            return _error(404, 10008, "Unknown Message")
        return stored

    async def _list_messages(self, request: web.Request, channel_id: int) -> web.Response:
        channel = self._get_channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        limit = int(request.query.get("limit", 50))
        before = request.query.get("before")
        after = request.query.get("after")
        found = [
            m
            for m in self._messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and not m.flags & EPHEMERAL
            and (before is None or m.id < int(before))
            and (after is None or m.id > int(after))
        ]
        found.sort(key=lambda m: m.id, reverse=after is None)
        return _json_response([self._message_json(m) for m in found[:limit]])

    async def _create_message(self, request: web.Request, channel_id: int) -> web.Response:
        route = f"POST /channels/{channel_id}/messages"
        channel = self._get_channel_or_error(channel_id)
        if isinstance(channel, web.Response):
            return channel
        payload, uploads = await self._read_payload(request)
        rejected = self._reject(
            check_message_payload(
                payload, uploads, size_limit=self.attachment_size_limit, creating=True
            ),
            None,
            route,
        )
        if rejected is not None:
            return rejected
        if channel.type != 1:  # guild channels: Discord checks the bot's permissions
            perms = self.bot_permissions(channel_id)
            need = Perm.VIEW_CHANNEL | (
                Perm.SEND_MESSAGES_IN_THREADS
                if channel.type in _THREAD_TYPES
                else Perm.SEND_MESSAGES
            )
            if uploads:
                need |= Perm.ATTACH_FILES
            if perms & Perm.ADMINISTRATOR == 0 and perms & need != need:
                self.requests.append(f"POST {route} -> 403 (missing permissions)")
                return _error(403, 50013, "Missing Permissions")
        stored = self._new_message(channel_id, type=19 if payload.get("message_reference") else 0)
        self._apply_payload(stored, payload, uploads, creating=True, allow_ephemeral=False)
        self._record(stored, "channel", payload, None)
        await self._announce(stored, "MESSAGE_CREATE")
        return _json_response(self._message_json(stored))

    async def _get_message(
        self, request: web.Request, channel_id: int, message_id: int
    ) -> web.Response:
        stored = self._channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        return _json_response(self._message_json(stored))

    async def _edit_message(
        self, request: web.Request, channel_id: int, message_id: int
    ) -> web.Response:
        route = f"PATCH /channels/{channel_id}/messages/{message_id}"
        stored = self._channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        payload, uploads = await self._read_payload(request)
        if stored.author is not self.bot_user:
            return _error(403, 50005, "Cannot edit a message authored by another user")
        rejected = self._reject(
            check_message_payload(
                payload, uploads, size_limit=self.attachment_size_limit, creating=False
            ),
            None,
            route,
        )
        if rejected is not None:
            return rejected
        self._apply_payload(stored, payload, uploads, creating=False, allow_ephemeral=False)
        # A channel edit of the message a component interaction deferred (type 6) settles that interaction.
        linked = next(
            (
                h
                for h in reversed(list(self.interactions.values()))
                if h.ack_type == DEFERRED_UPDATE_MESSAGE
                and h.source_message_id == stored.id
                and not any(
                    m.kind in ("followup", "original_edit", "channel_edit") for m in h.messages
                )
            ),
            None,
        )
        self._record(stored, "channel_edit", payload, linked)
        await self._announce(stored, "MESSAGE_UPDATE")
        return _json_response(self._message_json(stored))

    async def _delete_message(
        self, request: web.Request, channel_id: int, message_id: int
    ) -> web.Response:
        stored = self._channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        await self._mark_deleted(stored)
        return _no_content()

    async def _list_pins(self, request: web.Request, channel_id: int) -> web.Response:
        pinned = [
            m
            for m in self._messages.values()
            if m.channel_id == channel_id and m.pinned and not m.deleted
        ]
        return _json_response(
            {
                "items": [
                    {"pinned_at": _now_iso(), "message": self._message_json(m)} for m in pinned
                ],
                "has_more": False,
            }
        )

    async def _pin(self, request: web.Request, channel_id: int, message_id: int) -> web.Response:
        stored = self._channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        stored.pinned = True
        self._notify()
        return _no_content()

    async def _unpin(self, request: web.Request, channel_id: int, message_id: int) -> web.Response:
        stored = self._channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        stored.pinned = False
        self._notify()
        return _no_content()

    async def _add_reaction(
        self, request: web.Request, channel_id: int, message_id: int, emoji: str
    ) -> web.Response:
        stored = self._channel_message(channel_id, message_id)
        if isinstance(stored, web.Response):
            return stored
        self.reactions.append((message_id, emoji))
        self._notify()
        return _no_content()

    async def _remove_reaction(
        self, request: web.Request, channel_id: int, message_id: int, emoji: str
    ) -> web.Response:
        with contextlib.suppress(ValueError):
            self.reactions.remove((message_id, emoji))
        return _no_content()

    async def _create_thread(
        self, request: web.Request, channel_id: int, message_id: int | None = None
    ) -> web.Response:
        parent = self._get_channel_or_error(channel_id)
        if isinstance(parent, web.Response):
            return parent
        if parent.type not in _CHANNEL_TYPES_TEXT:
            return _error(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        if message_id is not None:
            stored = self._channel_message(channel_id, message_id)
            if isinstance(stored, web.Response):
                return stored
            thread_type = 11
        else:
            thread_type = body.get("type") or 12
        thread = FakeChannel(
            id=message_id or self._ids.next(),
            name=body["name"],
            type=thread_type,
            guild_id=self.guild_id,
            parent_id=channel_id,
            owner_id=self.bot_user.id,
            invitable=body.get("invitable", True),
            member_ids={self.bot_user.id},
        )
        self.channels[thread.id] = thread
        data = self._channel_json(thread)
        self._notify()
        await self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return _json_response(data, 201)

    async def _list_thread_members(self, request: web.Request, channel_id: int) -> web.Response:
        thread = self._get_channel_or_error(channel_id)
        if isinstance(thread, web.Response):
            return thread
        return _json_response(
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
        thread = self._get_channel_or_error(channel_id)
        if isinstance(thread, web.Response):
            return thread
        if not thread.is_thread:
            return _error(400, 50024, "Cannot execute action on this channel type")
        user_id = self.bot_user.id if user_ref == "@me" else int(user_ref)
        if user_id not in self._users_by_id:
            return _error(404, 10013, "Unknown User")
        return thread, user_id

    async def _add_thread_member(
        self, request: web.Request, channel_id: int, user_ref: str
    ) -> web.Response:
        target = self._thread_member_target(channel_id, user_ref)
        if isinstance(target, web.Response):
            return target
        target[0].member_ids.add(target[1])
        self._notify()
        return _no_content()

    async def _remove_thread_member(
        self, request: web.Request, channel_id: int, user_ref: str
    ) -> web.Response:
        target = self._thread_member_target(channel_id, user_ref)
        if isinstance(target, web.Response):
            return target
        target[0].member_ids.discard(target[1])
        self._notify()
        return _no_content()


# ---------------------------------------------------------------------------
# Running discord.py against the fake
# ---------------------------------------------------------------------------


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's class attributes (REST base, gateway, CDN) at ``fake``; restore on exit."""
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    saved = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    discord.asset.Asset.BASE = fake.cdn_base
    try:
        yield
    finally:
        (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        ) = saved


@contextlib.asynccontextmanager
async def running_client(
    fake: FakeDiscord,
    client: Any,
    *,
    token: str = "fake-token",
    timeout: float = 10.0,
) -> AsyncIterator[Any]:
    """Run a discord.py client in this process until it has identified; close it on exit.

    Use inside :func:`pointed_at`. Raises if the client stops before connecting.
    """
    before = fake.identify_count
    task = asyncio.create_task(client.start(token), name="fake-discord-client")
    ready = asyncio.ensure_future(fake.wait_for_identify(after=before, timeout=timeout))
    done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        ready.cancel()
        task.result()  # re-raise the client's error
        raise RuntimeError("the discord.py client stopped before identifying")
    try:
        ready.result()
    except BaseException:
        await client.close()
        task.cancel()
        raise
    try:
        yield client
    finally:
        await client.close()
        try:
            await asyncio.wait_for(task, 5)
        except (asyncio.CancelledError, Exception):
            pass


class BotProcess:
    """The bot in a subprocess, connected to a :class:`FakeDiscord` through environment variables.

    The child gets ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
    ``DISCORD_CDN_BASE``, ``DISCORD_TOKEN`` and ``PYTHONUNBUFFERED=1`` on top
    of the current environment and ``env``. Output (stdout and stderr) goes to
    a temporary file, see :meth:`output`. The fake keeps running across
    :meth:`kill` / :meth:`start`, so stored commands and messages persist.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        argv: Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        token: str = "fake-token",
    ) -> None:
        self.fake = fake
        self.argv = list(argv or [sys.executable, "-m", "bot"])
        self.extra_env = dict(env or {})
        self.cwd = cwd
        self.token = token
        self.process: asyncio.subprocess.Process | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="bot-", suffix=".log", delete=False)
        self.starts = 0

    def environment(self) -> dict[str, str]:
        """The child's environment."""
        env = dict(os.environ)
        env.update(
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            DISCORD_CDN_BASE=self.fake.cdn_base,
            DISCORD_TOKEN=self.token,
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        """Whether the child is alive."""
        return self.process is not None and self.process.returncode is None

    async def start(self, *, timeout: float = 20.0, wait_ready: bool = True) -> None:
        """Start the child and (by default) wait until it identified on the gateway."""
        if self.running:
            raise RuntimeError("bot process already running")
        before = self.fake.identify_count
        self._log.write(f"\n===== start {self.starts + 1}: {' '.join(self.argv)}\n".encode())
        self._log.flush()
        self.process = await asyncio.create_subprocess_exec(
            *self.argv,
            env=self.environment(),
            cwd=self.cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1
        if not wait_ready:
            return
        exited = asyncio.ensure_future(self.process.wait())
        ready = asyncio.ensure_future(self.fake.wait_for_identify(after=before, timeout=timeout))
        done, _ = await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ready in done:
            exited.cancel()
            try:
                ready.result()
            except AssertionError as exc:
                raise AssertionError(
                    f"{exc}\n--- bot output ---\n{self.output()[-4000:]}"
                ) from None
            return
        ready.cancel()
        raise AssertionError(
            f"bot process exited with {self.process.returncode} before identifying\n"
            f"--- bot output ---\n{self.output()[-4000:]}"
        )

    async def kill(self) -> None:
        """SIGKILL the child (a crash) and wait until its gateway connection is gone."""
        await self._end(kill=True)

    async def terminate(self, timeout: float = 5.0) -> None:
        """SIGTERM the child, SIGKILL after ``timeout``."""
        await self._end(kill=False, timeout=timeout)

    async def _end(self, *, kill: bool, timeout: float = 5.0) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        open_before = list(self.fake.connections)
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self.fake.wait_until(
            lambda: not any(c in self.fake.connections for c in open_before),
            timeout=5.0,
            what="the killed bot's gateway connection to close",
        )

    async def restart(self, *, kill: bool = True, timeout: float = 20.0) -> None:
        """Kill (or terminate) the child and start it again."""
        await self._end(kill=kill)
        await self.start(timeout=timeout)

    def output(self) -> str:
        """Everything the child printed so far."""
        self._log.flush()
        with open(self._log.name, "rb") as fh:
            return fh.read().decode(errors="replace")

    async def close(self) -> None:
        """Terminate the child and delete the log file."""
        await self.terminate()
        self._log.close()
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close()
