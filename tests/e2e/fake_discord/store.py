"""The fake's shared store: the world (one guild, its members, channels and the bot user), the
synced commands, every message and interaction, the gateway connections, the problems seen,
and the waiting on all of it. Every resource of the fake (:mod:`.fake`) holds this one store."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .protocol import API_PREFIX, Perm
from .records import ActivityInstance, Failure, FakeUser, Snowflakes, Violation

if TYPE_CHECKING:
    from .gateway import GatewayConnection
    from .interactions import InteractionHandle
    from .records import Attachment, FakeChannel, Fault, SentMessage, StoredMessage, UnknownRoute


class Store:
    """What every resource of the fake reads and changes, and the waiting on it.

    Waiters are re-checked whenever the state changes (:meth:`notify`), so a test never
    polls. Everything runs on the event loop that started the fake; not thread-safe.
    """

    def __init__(
        self,
        *,
        guild_name: str,
        bot_name: str,
        attachment_size_limit: int,
        ack_deadline: float,
        response_timeout: float,
        heartbeat_interval_ms: int,
    ) -> None:
        self.ids = Snowflakes()
        self.attachment_size_limit = attachment_size_limit
        self.ack_deadline = ack_deadline
        self.response_timeout = response_timeout
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: Record a ``mentions`` violation for a new message without ``allowed_mentions``
        #: (Discord would then ping everyone its content mentions).
        self.require_allowed_mentions = False
        #: The port the fake listens on, once started.
        self.port: int | None = None

        self.guild_id: int = self.ids.next()
        self.guild_name = guild_name
        #: The server's preferred language (``guild_locale`` of interactions).
        self.guild_locale = "en-US"
        self.bot_user = FakeUser(id=self.ids.next(), name=bot_name, bot=True, permissions=Perm.BOT)
        self.application_id: int = self.bot_user.id
        self.owner_id: int = 0
        self.users: dict[str, FakeUser] = {}
        self.users_by_id: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        self.perm_roles: dict[int, int] = {}
        #: Roles a test made (:meth:`GuildAPI.add_role`): id -> name, and who has which.
        self.named_roles: dict[int, str] = {}
        self.member_roles: dict[int, set[int]] = {}
        self.bot_role_id: int = self.ids.next()
        #: Per-channel permissions of the bot (default ``Perm.BOT``): sent as ``app_permissions``
        #: and enforced on ``POST /channels/{id}/messages`` like Discord does (403, code 50013).
        self.bot_channel_permissions: dict[int, int] = {}

        # Commands: scope None = global, else guild id -> {(name, type): definition}.
        self.commands: dict[int | None, dict[tuple[str, int], dict[str, Any]]] = {None: {}}
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self.command_syncs: list[tuple[int | None, list[str]]] = []

        self.sent: list[SentMessage] = []
        self.user_messages: list[SentMessage] = []
        self.deleted_message_ids: list[int] = []
        self.reactions: list[tuple[int, str]] = []
        self.stored_messages: dict[int, StoredMessage] = {}
        self.attachments: dict[int, Attachment] = {}

        self.private_commands: set[str] = set()
        self.private_components: list[re.Pattern[str]] = []
        self.interactions: dict[str, InteractionHandle] = {}

        self.identify_count = 0
        self.resume_count = 0
        self.identify_payloads: list[dict[str, Any]] = []
        self.connections: list[GatewayConnection] = []
        self.connection_numbers = itertools.count(1)
        self.sessions: set[str] = set()
        self.background_tasks: set[asyncio.Task[Any]] = set()

        self.unknown_routes: list[UnknownRoute] = []
        #: Scripted failures: see :meth:`.routing.Router.fail`.
        self.faults: list[Fault] = []
        self.violations: list[Violation] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.tokens_seen: set[str] = set()
        #: Whether the application has an Activity (else Discord refuses to launch one).
        self.activity_enabled = False
        #: Every Activity launched: (user id, channel id).
        self.activity_launches: list[tuple[int, int]] = []
        #: Running Activity instances by id: their channel and the users in them.
        self.activity_instances: dict[str, ActivityInstance] = {}
        self.waiters: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []

    # -- addresses -----------------------------------------------------------

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

    # -- the gateway's listeners ---------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether a bot is identified on the gateway."""
        return any(c.ready for c in self.connections)

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a gateway DISPATCH to every identified connection; returns how many got it."""
        targets = [c for c in self.connections if c.ready and not c.ws.closed]
        for conn in targets:
            await conn.send({"op": 0, "t": event, "d": data})
        return len(targets)

    def background_dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Dispatch an event from synchronous code (adding a member or channel), if a bot listens."""
        if not self.connected:
            return
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data))
        self.background_tasks.add(task)
        task.add_done_callback(self.background_tasks.discard)

    # -- scripted faults -----------------------------------------------------

    def take_fault(self, method: str, path: str) -> Fault | None:
        """The scripted fault answering this request, used up once (see :meth:`.routing.Router.fail`)."""
        for fault in self.faults:
            if fault.times > 0 and fault.method == method and fault.path.fullmatch(path):
                fault.times -= 1
                fault.hits += 1
                self.requests.append(f"{method} {path} -> {fault.status} (scripted)")
                return fault
        return None

    # -- problems ------------------------------------------------------------

    def violation(
        self,
        kind: str,
        detail: str,
        handle: InteractionHandle | None = None,
        route: str | None = None,
    ) -> None:
        """Record a breach of Discord's rules, for the interaction ``handle`` if any."""
        self.violations.append(
            Violation(kind, detail, handle.describe() if handle else None, route)
        )
        self.notify()

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

    # -- waiting -------------------------------------------------------------

    def arm(self, check: Callable[[], Any]) -> asyncio.Future[Any]:
        """A future for the first non-None value of ``check``, re-checked on every :meth:`notify`."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        value = check()
        if value is not None:
            fut.set_result(value)
        else:
            self.waiters.append((check, fut))
        return fut

    def notify(self) -> None:
        """The state changed: re-check the waiters."""
        if not self.waiters:
            return
        remaining = []
        for check, fut in self.waiters:
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
        self.waiters = remaining

    async def wait(self, check: Callable[[], Any], timeout: float | None, what: str) -> Any:
        """Wait for ``check`` to give a value (AssertionError after ``timeout``, with diagnostics)."""
        return await self.wait_future(self.arm(check), timeout, what)

    async def wait_future(self, fut: asyncio.Future[Any], timeout: float | None, what: str) -> Any:
        """Wait for an armed future (see :meth:`wait`)."""
        timeout = self.response_timeout if timeout is None else timeout
        try:
            result = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise AssertionError(
                f"timed out after {timeout:g} s waiting for {what}\n{self.diagnostics()}"
            ) from None
        if isinstance(result, Failure):
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

        return await self.wait(check, timeout, what)

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

        return await self.wait(check, timeout, "a matching bot message")

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


class MessageExpectation:
    """An armed wait for a future message; ``await`` it (see :meth:`FakeDiscord.expect_message`)."""

    def __init__(self, store: Store, check: Callable[[], Any], what: str, timeout: float | None):
        self._store = store
        self._future = store.arm(check)
        self._what = what
        self._timeout = timeout

    def __await__(self) -> Any:
        return self._store.wait_future(self._future, self._timeout, self._what).__await__()
