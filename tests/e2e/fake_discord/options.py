"""The options of a slash command as a user would type them: typed from the synced definition,
checked against its bounds and choices, with users, roles, channels and attachments put into
the interaction's ``resolved`` data as Discord does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .protocol import Perm
from .records import Attachment, FakeChannel, FakeUser, sniff_content_type

if TYPE_CHECKING:
    from .channels import ChannelsAPI
    from .guilds import GuildAPI
    from .messages import MessagesAPI
    from .store import Store


class CommandOptions:
    """Builds an interaction's options and ``resolved`` data."""

    def __init__(
        self, store: Store, channel_api: ChannelsAPI, guild_api: GuildAPI, message_api: MessagesAPI
    ) -> None:
        self.store = store
        self.channel_api = channel_api
        self.guild_api = guild_api
        self.message_api = message_api

    def build(
        self,
        definitions: Sequence[Mapping[str, Any]],
        values: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
        where: str,
    ) -> list[dict[str, Any]]:
        """The options of a slash command (or autocomplete) for ``values``, typed and checked by
        their definitions; entities land in ``resolved``. ValueError for what Discord's client
        would not let a user send."""
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
                    "value": self.coerce(definition, value, resolved, where),
                }
            )
        if focused is None:
            missing = [
                d["name"] for d in definitions if d.get("required") and d["name"] not in values
            ]
            if missing:
                raise ValueError(f"{where} is missing required options {missing}")
        return built

    def coerce(
        self,
        definition: Mapping[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        where: str,
    ) -> Any:
        """One option's value as Discord sends it, checked against its type, bounds and choices."""
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
                channel = self.channel_api.channel(value)
                allowed_types = definition.get("channel_types")
                if allowed_types and channel.type not in allowed_types:
                    raise ValueError(
                        f"{where} {name}: channel type {channel.type} not in {allowed_types}"
                    )
            result = str(self.resolve_entity(value, entity_type, resolved))
        elif otype == 11:
            filename, data = value if isinstance(value, tuple) else (value.filename, value.data)
            att = Attachment(
                id=self.store.ids.next(),
                filename=filename,
                data=data,
                content_type=sniff_content_type(filename, data, None),
            )
            self.store.attachments[att.id] = att
            resolved.setdefault("attachments", {})[str(att.id)] = self.message_api.attachment_json(
                att
            )
            result = str(att.id)
        else:
            raise ValueError(f"{where} {name}: unsupported option type {otype}")
        choices = definition.get("choices")
        if choices and result not in [c["value"] for c in choices]:
            raise ValueError(
                f"{where} {name}: {result!r} is not one of {[c['value'] for c in choices]}"
            )
        return result

    def resolve_entity(
        self, value: Any, component_type: int, resolved: dict[str, dict[str, Any]]
    ) -> int:
        """Fill ``resolved`` for a user (5), role (6), mentionable (7) or channel (8) and return its id."""
        if component_type == 8 or isinstance(value, FakeChannel):
            channel = self.channel_api.channel(value)
            resolved.setdefault("channels", {})[str(channel.id)] = self.channel_api.channel_json(
                channel, permissions=Perm.DEFAULT_MEMBER
            )
            return channel.id
        if isinstance(value, FakeUser) or (
            component_type in (5, 7) and int(value) in self.store.users_by_id
        ):
            user = value if isinstance(value, FakeUser) else self.store.users_by_id[int(value)]
            resolved.setdefault("users", {})[str(user.id)] = user.to_json()
            resolved.setdefault("members", {})[str(user.id)] = self.guild_api.member_json(
                user, with_permissions=True, with_user=False
            )
            return user.id
        role_id = int(value)
        role = next((r for r in self.guild_api.roles_json() if int(r["id"]) == role_id), None)
        if role is None:
            raise ValueError(f"unknown user or role {value!r}")
        resolved.setdefault("roles", {})[str(role_id)] = role
        return role_id
