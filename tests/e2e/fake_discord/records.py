"""What the fake stores and hands to tests: users, channels, attachments, message snapshots,
violations, unknown routes, modals, scripted faults, and who a message pings."""

from __future__ import annotations

import datetime as _dt
import mimetypes
import re
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .protocol import DISCORD_EPOCH_MS, EPHEMERAL, SELECT_TYPES, THREAD_TYPES, Perm

if TYPE_CHECKING:
    from .interactions import InteractionHandle


def now_iso() -> str:
    """The current UTC time in ISO 8601, as Discord's timestamps."""
    return _dt.datetime.now(_dt.UTC).isoformat()


class Snowflakes:
    """Monotonic snowflake ids that look like Discord's."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """The next id: milliseconds since Discord's epoch shifted by 22 bits, always increasing."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = ms << 22
        self._last = max(candidate, self._last + 1)
        return self._last


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
    joined_at: str = field(default_factory=now_iso)
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
    created_at: str = field(default_factory=now_iso)

    @property
    def is_thread(self) -> bool:
        """Whether the channel is a thread."""
        return self.type in THREAD_TYPES

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


def sniff_content_type(filename: str, data: bytes, declared: str | None) -> str:
    """The content type Discord would report: from the bytes (PNG, JPEG, GIF), else the
    declared one, else guessed from the file name."""
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
        return [c for c in iter_components(self.components) if c.get("type") in SELECT_TYPES]

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


class Failure:
    """Why a wait ended without a result (a waiter returns it to fail with this message)."""

    def __init__(self, message: str) -> None:
        self.message = message


@dataclass
class Upload:
    """One file of a multipart request (``files[index]``)."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass(eq=False)
class StoredMessage:
    """A message as the fake keeps it (mutable; tests get :class:`SentMessage` snapshots)."""

    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=now_iso)
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


@dataclass
class ActivityInstance:
    """A running Activity: launched in a channel (callback type 12); the users in it (the
    launcher, then whoever joins: :meth:`.fake.FakeDiscord.join_activity`)."""

    id: str
    channel_id: int
    users: list[int]
