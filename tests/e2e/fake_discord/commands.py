"""The application and its commands as Discord's application command resource: global and
guild commands synced, listed, edited and deleted, each definition checked as Discord checks it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .routing import discord_error, json_response, no_content
from .validation import check_command_definition

#: The application command type of an Activity's entry point (Discord: PRIMARY_ENTRY_POINT).
ENTRY_POINT = 4

if TYPE_CHECKING:
    from .guilds import GuildAPI
    from .routing import Route
    from .store import Store


class CommandsAPI:
    """The application and application command resource of the fake."""

    def __init__(self, store: Store, guild_api: GuildAPI) -> None:
        self.store = store
        self.guild_api = guild_api

    def routes(self) -> list[Route]:
        """The REST routes this resource answers: (method, path, handler, needs bot authorization)."""
        return [
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("GET", "/applications/{application_id}/commands", self._list_commands, True),
            ("PUT", "/applications/{application_id}/commands", self._put_commands, True),
            ("POST", "/applications/{application_id}/commands", self._upsert_command, True),
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
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
                self._command_permissions,
                True,
            ),
        ]

    def add_entry_point(self) -> None:
        """The global entry point command Discord gives an application whose Activities are
        enabled ("Launch", type 4, handled by Discord: it opens the Activity)."""
        stored = self._store_command(
            None, {"name": "launch", "type": ENTRY_POINT, "description": "", "handler": 2}
        )
        self.store.commands.setdefault(None, {})[("launch", ENTRY_POINT)] = stored

    def command(self, name: str, *, guild: bool | None = None) -> dict[str, Any]:
        """The synced definition of a chat-input command (guild scope first)."""
        found = self.find_command(name, guild=guild)
        if found is None:
            raise LookupError(
                f"command /{name} was not synced; synced: {self.store.command_names()}"
            )
        return found[0]

    def find_command(
        self, name: str, *, guild: bool | None = None
    ) -> tuple[dict[str, Any], bool] | None:
        """A synced chat-input command and whether it is guild-scoped (guild scope first), or None."""
        if guild is not False:
            cmd = self.store.commands.get(self.store.guild_id, {}).get((name, 1))
            if cmd is not None:
                return cmd, True
        if guild is not True:
            cmd = self.store.commands[None].get((name, 1))
            if cmd is not None:
                return cmd, False
        return None

    def _application_json(self) -> dict[str, Any]:
        owner = self.guild_api.user(self.store.owner_id)
        return {
            "id": str(self.store.application_id),
            "name": self.store.bot_user.name,
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
            "bot": self.store.bot_user.to_json(),
        }

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(self._application_json())

    def _scope(
        self, application_id: int, guild_id: int | None
    ) -> dict[tuple[str, int], dict[str, Any]] | web.Response:
        if application_id != self.store.application_id:
            return discord_error(403, 50001, "Missing Access (wrong application id)")
        if guild_id is not None and guild_id != self.store.guild_id:
            return discord_error(404, 10004, "Unknown Guild")
        return self.store.commands.setdefault(guild_id, {})

    def _store_command(self, scope_id: int | None, definition: Mapping[str, Any]) -> dict[str, Any]:
        ctype = definition.get("type", 1)
        key = (scope_id, definition["name"], ctype)
        if key not in self.store.command_ids:
            self.store.command_ids[key] = self.store.ids.next()
        stored = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **definition,
            "id": str(self.store.command_ids[key]),
            "application_id": str(self.store.application_id),
            "version": str(self.store.ids.next()),
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
        return json_response(list(scope.values()))

    async def _put_commands(
        self, request: web.Request, application_id: int, guild_id: int | None = None
    ) -> web.Response:
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        definitions = await request.json()
        if not isinstance(definitions, list):
            return discord_error(400, 50035, "Invalid Form Body")
        problems = [p for d in definitions for p in check_command_definition(d)]
        keys = [(d.get("name"), d.get("type", 1)) for d in definitions]
        if len(set(keys)) != len(keys):
            problems.append("duplicate command names")
        if sum(1 for _, t in keys if t == 1) > 100:
            problems.append("more than 100 chat-input commands")
        if problems:
            for problem in problems:
                self.store.violation("command_definition", problem, route=f"PUT {request.path}")
            return discord_error(400, 50035, "Invalid Form Body", {"fake": problems})
        if guild_id is None and any(c["type"] == ENTRY_POINT for c in scope.values()):
            if ENTRY_POINT not in [t for _, t in keys]:
                # Discord keeps an Activity's entry point command out of reach of a bulk update
                return discord_error(
                    400,
                    50240,
                    "You cannot remove this app's Entry Point command in a bulk update operation.",
                )
        scope.clear()
        for definition in definitions:
            stored = self._store_command(guild_id, definition)
            scope[(stored["name"], stored["type"])] = stored
        self.store.command_syncs.append((guild_id, [k[0] for k in keys]))
        self.store.notify()
        return json_response(list(scope.values()))

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
                self.store.violation("command_definition", problem, route=f"POST {request.path}")
            return discord_error(400, 50035, "Invalid Form Body", {"fake": problems})
        stored = self._store_command(guild_id, definition)
        scope[(stored["name"], stored["type"])] = stored
        self.store.notify()
        return json_response(stored, 201)

    def _command(
        self, application_id: int, command_id: int, guild_id: int | None
    ) -> tuple[dict[tuple[str, int], dict[str, Any]], tuple[str, int]] | web.Response:
        """The scope (global or the guild's commands) and the key of one stored command, or
        Discord's error: the application's or guild's (from :meth:`_scope`), or 10063."""
        scope = self._scope(application_id, guild_id)
        if isinstance(scope, web.Response):
            return scope
        key = next((k for k, v in scope.items() if int(v["id"]) == command_id), None)
        if key is None:
            return discord_error(404, 10063, "Unknown application command")
        return scope, key

    async def _get_command(
        self,
        request: web.Request,
        application_id: int,
        command_id: int,
        guild_id: int | None = None,
    ) -> web.Response:
        found = self._command(application_id, command_id, guild_id)
        if isinstance(found, web.Response):
            return found
        scope, key = found
        return json_response(scope[key])

    async def _edit_command(
        self,
        request: web.Request,
        application_id: int,
        command_id: int,
        guild_id: int | None = None,
    ) -> web.Response:
        found = self._command(application_id, command_id, guild_id)
        if isinstance(found, web.Response):
            return found
        scope, key = found
        updated = {**scope[key], **(await request.json())}
        del scope[key]
        stored = self._store_command(guild_id, updated)
        scope[(stored["name"], stored["type"])] = stored
        self.store.notify()
        return json_response(stored)

    async def _delete_command(
        self,
        request: web.Request,
        application_id: int,
        command_id: int,
        guild_id: int | None = None,
    ) -> web.Response:
        found = self._command(application_id, command_id, guild_id)
        if isinstance(found, web.Response):
            return found
        scope, key = found
        del scope[key]
        self.store.notify()
        return no_content()

    async def _command_permissions(
        self, request: web.Request, application_id: int, guild_id: int
    ) -> web.Response:
        return json_response([])
