"""The fake Discord as one object: its shared store and one part per Discord resource, served
over HTTP and a websocket on 127.0.0.1, with the methods tests call on it."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Sequence
from typing import Any

from aiohttp import web

from .callbacks import CallbacksAPI
from .channels import ChannelsAPI
from .commands import CommandsAPI
from .gateway import Gateway
from .guilds import GuildAPI
from .interactions import InteractionsAPI
from .messages import MessagesAPI
from .oauth import OAuthAPI
from .options import CommandOptions
from .protocol import ACK_DEADLINE, DEFAULT_ATTACHMENT_SIZE_LIMIT, Perm
from .routing import Router
from .store import Store
from .threads import ThreadsAPI
from .users import UsersAPI


class _Via:
    """An attribute of :class:`FakeDiscord` that lives on one of its parts (read and written
    there), so tests keep calling ``fake.slash(...)`` or setting ``fake.ack_deadline``."""

    def __init__(self, part: str, name: str | None = None) -> None:
        self.part = part
        self.name = name

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(getattr(obj, self.part), str(self.name))

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(getattr(obj, self.part), str(self.name), value)


class FakeDiscord:
    """A fake Discord serving REST under ``/api/v10`` and a gateway at ``/gateway``.

    The world: one guild (:attr:`guild_id`) with text channels (``general`` and
    ``games`` by default), members ``alice``, ``bob``, ``carol``, ``dave``,
    ``mod`` (has Manage Channels) and ``owner`` (guild owner, administrator),
    and the bot user (:attr:`bot_user`, whose id is also :attr:`application_id`).

    The fake is composed of its :attr:`store` (the state every part shares) and one part per
    Discord resource: :attr:`gateway`, :attr:`guild_api` (guild, members, roles),
    :attr:`channel_api`, :attr:`thread_api`, :attr:`user_api` (users, DMs), :attr:`oauth_api`
    (OAuth2 for an Activity: codes and bearer tokens),
    :attr:`message_api`, :attr:`command_api` (the application and its commands),
    :attr:`interaction_api` (what a user does), :attr:`callback_api` (the bot's answers to
    interactions) and the HTTP :attr:`router`. The attributes below forward to them.

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
        store = Store(
            guild_name=guild_name,
            bot_name=bot_name,
            attachment_size_limit=attachment_size_limit,
            ack_deadline=ack_deadline,
            response_timeout=response_timeout,
            heartbeat_interval_ms=heartbeat_interval_ms,
        )
        self.store = store
        self.channel_api = ChannelsAPI(store)
        self.guild_api = GuildAPI(store, self.channel_api)
        self.oauth_api = OAuthAPI(store)
        self.user_api = UsersAPI(store, self.channel_api, self.oauth_api)
        self.message_api = MessagesAPI(store, self.channel_api, self.guild_api)
        self.thread_api = ThreadsAPI(store, self.channel_api, self.message_api)
        self.command_api = CommandsAPI(store, self.guild_api)
        self.gateway = Gateway(store, self.guild_api)
        self.options = CommandOptions(store, self.channel_api, self.guild_api, self.message_api)
        self.interaction_api = InteractionsAPI(
            store,
            self.channel_api,
            self.guild_api,
            self.message_api,
            self.command_api,
            self.options,
        )
        self.callback_api = CallbacksAPI(store, self.message_api)
        self.router = Router(
            store,
            self.message_api,
            [
                self.gateway,
                self.user_api,
                self.oauth_api,
                self.command_api,
                self.callback_api,
                self.guild_api,
                self.channel_api,
                self.message_api,
                self.thread_api,
            ],
        )
        self._runner: web.AppRunner | None = None
        self._socket: socket.socket | None = None

        owner = self.add_member("owner", permissions=Perm.DEFAULT_MEMBER | Perm.ADMINISTRATOR)
        store.owner_id = owner.id
        for name in member_names:
            self.add_member(name)
        if moderator_name:
            self.add_member(moderator_name, manage_channels=True)
        for name in channel_names:
            self.add_channel(name)

    # -- lifecycle ---------------------------------------------------------

    async def start(self) -> None:
        """Bind 127.0.0.1 on a free port and start serving."""
        app = web.Application(
            client_max_size=256 * 1024 * 1024, middlewares=[self.router.middleware]
        )
        app.router.add_get("/gateway", self.gateway.serve)
        app.router.add_route("*", "/{tail:.*}", self.router.handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        sock.setblocking(False)
        self._socket = sock
        self.store.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        """Close gateway connections and the server."""
        for handle in self.store.interactions.values():
            if handle._timer is not None:
                handle._timer.cancel()
        for conn in list(self.store.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for _, fut in self.store.waiters:
            if not fut.done():
                fut.cancel()
        self.store.waiters.clear()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.stop()
        if exc_type is None:
            self.assert_clean()

    # -- the store: settings, the world, what was seen, waiting ------------

    attachment_size_limit = _Via("store")
    ack_deadline = _Via("store")
    response_timeout = _Via("store")
    heartbeat_interval_ms = _Via("store")
    require_allowed_mentions = _Via("store")
    port = _Via("store")
    base_url = _Via("store")
    api_base = _Via("store")
    gateway_url = _Via("store")
    cdn_base = _Via("store")
    guild_id = _Via("store")
    guild_name = _Via("store")
    guild_locale = _Via("store")
    bot_user = _Via("store")
    bot_role_id = _Via("store")
    application_id = _Via("store")
    activity_enabled = _Via("store")
    activity_launches = _Via("store")
    owner_id = _Via("store")
    users = _Via("store")
    channels = _Via("store")
    bot_channel_permissions = _Via("store")
    commands = _Via("store")
    command_syncs = _Via("store")
    sent = _Via("store")
    user_messages = _Via("store")
    deleted_message_ids = _Via("store")
    reactions = _Via("store")
    private_commands = _Via("store")
    private_components = _Via("store")
    interactions = _Via("store")
    identify_count = _Via("store")
    resume_count = _Via("store")
    identify_payloads = _Via("store")
    connections = _Via("store")
    connected = _Via("store")
    unknown_routes = _Via("store")
    faults = _Via("store")
    violations = _Via("store")
    errors = _Via("store")
    requests = _Via("store")
    tokens_seen = _Via("store")
    dispatch = _Via("store")
    take_violations = _Via("store")
    take_unknown_routes = _Via("store")
    pending_interactions = _Via("store")
    problems = _Via("store")
    assert_clean = _Via("store")
    diagnostics = _Via("store")
    command_names = _Via("store")
    wait_until = _Via("store")
    expect_message = _Via("store")
    wait_for_message = _Via("store")
    wait_for_identify = _Via("store")
    wait_for_disconnect = _Via("store")
    wait_for_commands = _Via("store")

    # -- the resources -------------------------------------------------------

    add_member = _Via("guild_api")
    user = _Via("guild_api")
    set_permissions = _Via("guild_api")
    _guild_json = _Via("guild_api", "guild_json")
    add_channel = _Via("channel_api")
    channel = _Via("channel_api")
    default_channel = _Via("channel_api")
    set_bot_permissions = _Via("channel_api")
    bot_permissions = _Via("channel_api")
    add_thread = _Via("thread_api")
    dm_channel = _Via("user_api")
    command = _Via("command_api")
    message = _Via("message_api")
    messages_in = _Via("message_api")
    plant_bot_message = _Via("message_api")
    say = _Via("message_api")
    _stored = _Via("message_api", "stored")
    drop_gateway = _Via("gateway")
    require_private_command = _Via("interaction_api")
    require_private_component = _Via("interaction_api")
    slash = _Via("interaction_api")
    autocomplete = _Via("interaction_api")
    click = _Via("interaction_api")
    select = _Via("interaction_api")
    submit_modal = _Via("interaction_api")
    _component_interaction = _Via("interaction_api", "component_interaction")
    fail = _Via("router")
