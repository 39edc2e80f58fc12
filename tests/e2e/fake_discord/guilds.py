"""The guild and its members and roles as Discord's guild resource: the full guild object the
gateway sends, members with their permissions (realised as roles), and ``/guilds/{id}/...``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .protocol import TEXT_CHANNEL_TYPES, Perm
from .records import FakeUser
from .routing import discord_error, json_response, no_content

if TYPE_CHECKING:
    from .channels import ChannelsAPI
    from .routing import Route
    from .store import Store


class GuildAPI:
    """The guild resource of the fake: the guild, its members and its roles."""

    def __init__(self, store: Store, channel_api: ChannelsAPI) -> None:
        self.store = store
        self.channel_api = channel_api

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("POST", "/guilds/{guild_id}/channels", self._create_guild_channel, True),
            ("GET", "/guilds/{guild_id}/members", self._list_members, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
            ("GET", "/guilds/{guild_id}/roles", self._get_roles, True),
            (
                "PUT",
                "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self._add_member_role,
                True,
            ),
            (
                "DELETE",
                "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self._remove_member_role,
                True,
            ),
        ]

    def add_role(self, name: str) -> int:
        """A plain role of the guild (below the bot's); returns its id. Members get it only
        through the bot (``PUT /guilds/{id}/members/{user}/roles/{role}``, which needs the bot's
        Manage Roles: ``store.bot_user.permissions``)."""
        role_id = self.store.ids.next()
        self.store.named_roles[role_id] = name
        return role_id

    def roles_of(self, user: FakeUser) -> set[int]:
        """The roles made by :meth:`add_role` that ``user`` has."""
        return set(self.store.member_roles.get(user.id, set()))

    def add_member(
        self,
        name: str,
        *,
        permissions: int | None = None,
        manage_channels: bool = False,
        id: int | None = None,
    ) -> FakeUser:
        """Add a guild member (dispatches GUILD_MEMBER_ADD if a bot is connected)."""
        if name in self.store.users:
            raise ValueError(f"member {name!r} exists")
        perms = Perm.DEFAULT_MEMBER if permissions is None else permissions
        if manage_channels:
            perms |= Perm.MANAGE_CHANNELS
        user = FakeUser(id=id or self.store.ids.next(), name=name, permissions=perms)
        self.store.users[name] = user
        self.store.users_by_id[user.id] = user
        self.store.background_dispatch(
            "GUILD_MEMBER_ADD", {**self.member_json(user), "guild_id": str(self.store.guild_id)}
        )
        return user

    def user(self, name_or_id: str | int) -> FakeUser:
        """A member by name or id."""
        if isinstance(name_or_id, int):
            return self.store.users_by_id[name_or_id]
        return self.store.users[name_or_id]

    def set_permissions(self, user: FakeUser, permissions: int) -> None:
        """Change a member's permissions (effective for later interactions)."""
        user.permissions = permissions

    def _perm_role_id(self, user: FakeUser) -> int:
        if user.id not in self.store.perm_roles:
            self.store.perm_roles[user.id] = self.store.ids.next()
        return self.store.perm_roles[user.id]

    def _member_roles(self, user: FakeUser) -> list[str]:
        if user is self.store.bot_user:
            return [str(self.store.bot_role_id)]
        named = [str(r) for r in sorted(self.store.member_roles.get(user.id, ()))]
        if user.permissions & ~Perm.DEFAULT_MEMBER:
            return [str(self._perm_role_id(user)), *named]
        return named

    def roles_json(self) -> list[dict[str, Any]]:
        """The guild's roles: @everyone (id = guild id), the bot's managed role and one role
        per member whose permissions go beyond the default."""

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
            role(self.store.guild_id, "@everyone", Perm.DEFAULT_MEMBER, 0),
            role(
                self.store.bot_role_id,
                self.store.bot_user.name,
                Perm.BOT,
                1,
                managed=True,
                tags={"bot_id": str(self.store.bot_user.id)},
            ),
        ]
        for position, user in enumerate(self.store.users.values(), start=2):
            if user.permissions & ~Perm.DEFAULT_MEMBER:
                roles.append(
                    role(
                        self._perm_role_id(user),
                        f"{user.name} permissions",
                        user.permissions,
                        position,
                    )
                )
        for role_id, name in self.store.named_roles.items():
            roles.append(role(role_id, name, 0, 1))
        return roles

    def member_json(
        self, user: FakeUser, *, with_permissions: bool = False, with_user: bool = True
    ) -> dict[str, Any]:
        """Discord's guild member object; ``with_permissions`` adds the interaction member's
        ``permissions``, ``with_user`` the user object."""
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

    def guild_json(self) -> dict[str, Any]:
        """The full guild object of GUILD_CREATE: roles, channels, threads, members."""
        guild_channels = [c for c in self.store.channels.values() if c.guild_id is not None]
        members = [self.store.bot_user, *self.store.users.values()]
        return {
            "id": str(self.store.guild_id),
            "name": self.store.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.store.owner_id),
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
            "preferred_locale": self.store.guild_locale,
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
            "joined_at": self.store.bot_user.joined_at,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(members),
            "roles": self.roles_json(),
            "emojis": [],
            "stickers": [],
            "channels": [
                self.channel_api.channel_json(c) for c in guild_channels if not c.is_thread
            ],
            "threads": [
                self.channel_api.channel_json(c)
                for c in guild_channels
                if c.is_thread and not c.archived
            ],
            "members": [self.member_json(u) for u in members],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _check_guild(self, guild_id: int) -> web.Response | None:
        if guild_id != self.store.guild_id:
            return discord_error(404, 10004, "Unknown Guild")
        return None

    async def _get_guild(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        data = self.guild_json()
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            data.pop(key, None)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        return json_response(
            [
                self.channel_api.channel_json(c)
                for c in self.store.channels.values()
                if c.guild_id is not None and not c.is_thread
            ]
        )

    async def _create_guild_channel(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        body = await request.json()
        if body.get("type", 0) not in TEXT_CHANNEL_TYPES:
            return discord_error(400, 50035, "the fake only creates text channels")
        channel = self.channel_api.add_channel(body["name"], topic=body.get("topic"))
        self.store.notify()
        return json_response(self.channel_api.channel_json(channel), 201)

    async def _list_members(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        return json_response(
            [self.member_json(u) for u in (self.store.bot_user, *self.store.users.values())]
        )

    async def _get_member(self, request: web.Request, guild_id: int, user_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        user = self.store.users_by_id.get(user_id)
        if user is None:
            return discord_error(404, 10007, "Unknown Member")
        return json_response(self.member_json(user))

    async def _get_roles(self, request: web.Request, guild_id: int) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        return json_response(self.roles_json())

    async def _change_member_role(
        self, guild_id: int, user_id: int, role_id: int, *, add: bool
    ) -> web.Response:
        error = self._check_guild(guild_id)
        if error:
            return error
        if not self.store.bot_user.permissions & (Perm.MANAGE_ROLES | Perm.ADMINISTRATOR):
            return discord_error(403, 50013, "Missing Permissions")
        if user_id not in self.store.users_by_id:
            return discord_error(404, 10007, "Unknown Member")
        if role_id not in self.store.named_roles:
            return discord_error(404, 10011, "Unknown Role")
        held = self.store.member_roles.setdefault(user_id, set())
        if add:
            held.add(role_id)
        else:
            held.discard(role_id)
        self.store.notify()
        return no_content()

    async def _add_member_role(
        self, request: web.Request, guild_id: int, user_id: int, role_id: int
    ) -> web.Response:
        return await self._change_member_role(guild_id, user_id, role_id, add=True)

    async def _remove_member_role(
        self, request: web.Request, guild_id: int, user_id: int, role_id: int
    ) -> web.Response:
        return await self._change_member_role(guild_id, user_id, role_id, add=False)
