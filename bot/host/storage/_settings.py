"""Settings: a user's (turn pings, a DM on one's turn, high contrast, the phone board, confirm before a
claim) and a server's (defaults of
new games, where they may be opened); one row per user or server who changed one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ._rows import (
    GUILD_SETTING_NAMES,
    LANGUAGES,
    USER_SETTING_NAMES,
    GuildSettings,
    UserSettings,
)
from ._sql import GUILD_SETTINGS_COLUMNS, Row, StorePart, Tx, dump_json


class SettingsStore(StorePart):
    """User settings (turn pings, a DM on one's turn, high contrast, the phone board, confirm
    before a claim)."""

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """The user's settings; the defaults (``updated_at`` None) when never set."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                "SELECT user_id, turn_pings, dm_turns, high_contrast, phone_board, confirm_claims,"
                " updated_at"
                " FROM user_settings WHERE user_id = ?",
                user_id,
            )
        return UserSettings(user_id) if row is None else _settings_row(row)

    async def set_user_settings(self, user_id: int, **changes: bool) -> UserSettings:
        """Change some of ``turn_pings``, ``dm_turns``, ``high_contrast``, ``phone_board``,
        ``confirm_claims``
        (the others keep their value or default); returns the stored settings.

        Raises:
            ValueError: an unknown setting name or a value that is not a bool.
        """
        unknown = sorted(set(changes) - set(USER_SETTING_NAMES))
        if unknown:
            raise ValueError(f"unknown user settings {unknown}; known: {USER_SETTING_NAMES}")
        bad = sorted(k for k, v in changes.items() if not isinstance(v, bool))
        if bad:
            raise ValueError(f"user settings {bad} must be True or False")
        defaults = UserSettings(user_id)
        values = {name: changes.get(name, getattr(defaults, name)) for name in USER_SETTING_NAMES}
        updates = ", ".join(f"{name} = excluded.{name}" for name in changes)
        now = self._clock()
        async with self._write() as tx:
            row = await tx.fetchrow(
                "INSERT INTO user_settings (user_id, turn_pings, dm_turns, high_contrast,"
                " phone_board, confirm_claims, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET "
                + (updates + ", " if updates else "")
                + "updated_at = excluded.updated_at"
                " RETURNING user_id, turn_pings, dm_turns, high_contrast, phone_board, confirm_claims,"
                " updated_at",
                user_id,
                values["turn_pings"],
                values["dm_turns"],
                values["high_contrast"],
                values["phone_board"],
                values["confirm_claims"],
                now,
            )
        assert row is not None
        return _settings_row(row)

    async def all_user_settings(self) -> list[UserSettings]:
        """Every stored user's settings, by user id (for copying a database)."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT user_id, turn_pings, dm_turns, high_contrast, phone_board, confirm_claims,"
                " updated_at"
                " FROM user_settings ORDER BY user_id"
            )
        return [_settings_row(r) for r in rows]

    async def restore_user_settings(self, rows: Sequence[UserSettings]) -> None:
        """Store these settings as they are, ``updated_at`` included."""
        async with self._write() as tx:
            await tx.executemany(
                "INSERT INTO user_settings (user_id, turn_pings, dm_turns, high_contrast,"
                " phone_board, confirm_claims, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET"
                " turn_pings = excluded.turn_pings, dm_turns = excluded.dm_turns,"
                " high_contrast = excluded.high_contrast, phone_board = excluded.phone_board,"
                " confirm_claims = excluded.confirm_claims,"
                " updated_at = excluded.updated_at",
                [
                    (
                        s.user_id,
                        s.turn_pings,
                        s.dm_turns,
                        s.high_contrast,
                        s.phone_board,
                        s.confirm_claims,
                        s.updated_at or 0.0,
                    )
                    for s in rows
                ],
            )


def _settings_row(r: Row) -> UserSettings:
    return UserSettings(
        user_id=r["user_id"],
        turn_pings=bool(r["turn_pings"]),
        dm_turns=bool(r["dm_turns"]),
        high_contrast=bool(r["high_contrast"]),
        phone_board=bool(r["phone_board"]),
        confirm_claims=bool(r["confirm_claims"]),
        updated_at=r["updated_at"],
    )


class GuildSettingsStore(StorePart):
    """Server settings: the defaults of new games and where they may be opened."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults (``updated_at`` None) when never set."""
        async with self._read() as tx:
            return await _guild_settings(tx, guild_id)

    async def set_guild_settings(
        self, guild_id: int, *, updated_by: int | None = None, **changes: Any
    ) -> GuildSettings:
        """Change some of ``language`` (``"en"``, ``"de"`` or None), ``turn_seconds`` (a
        positive int or None), ``rated``, ``hints`` (bools) and ``channels`` (channel ids;
        empty: any); the others keep their value. Returns the stored settings.

        Raises:
            ValueError: an unknown setting or a value it cannot take.
        """
        _check_guild_changes(changes)
        now = self._clock()
        async with self._write() as tx:
            current = await _guild_settings(tx, guild_id)
            values = {
                name: changes.get(name, getattr(current, name)) for name in GUILD_SETTING_NAMES
            }
            row = await tx.fetchrow(
                f"INSERT INTO guild_settings ({GUILD_SETTINGS_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " language = excluded.language, turn_seconds = excluded.turn_seconds,"
                " rated = excluded.rated, hints = excluded.hints, channels = excluded.channels,"
                " updated_at = excluded.updated_at, updated_by = excluded.updated_by"
                f" RETURNING {GUILD_SETTINGS_COLUMNS}",
                guild_id,
                values["language"],
                values["turn_seconds"],
                bool(values["rated"]),
                bool(values["hints"]),
                dump_json([int(c) for c in values["channels"]]),
                now,
                updated_by,
            )
        assert row is not None
        return guild_settings_row(row)


def _check_guild_changes(changes: dict[str, Any]) -> None:
    """Raise ValueError for an unknown server setting or a value it cannot take."""
    unknown = sorted(set(changes) - set(GUILD_SETTING_NAMES))
    if unknown:
        raise ValueError(f"unknown server settings {unknown}; known: {GUILD_SETTING_NAMES}")
    if changes.get("language") not in (None, *LANGUAGES):
        raise ValueError(f"language must be one of {LANGUAGES} or None")
    seconds = changes.get("turn_seconds")
    if seconds is not None and (not isinstance(seconds, int) or seconds <= 0):
        raise ValueError("turn_seconds must be a positive int or None")
    bad = sorted(k for k in ("rated", "hints") if k in changes and not isinstance(changes[k], bool))
    if bad:
        raise ValueError(f"server settings {bad} must be True or False")
    channels = changes.get("channels", ())
    if not isinstance(channels, tuple | list) or not all(isinstance(c, int) for c in channels):
        raise ValueError("channels must be a sequence of channel ids")


async def _guild_settings(tx: Tx, guild_id: int) -> GuildSettings:
    row = await tx.fetchrow(
        f"SELECT {GUILD_SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = ?", guild_id
    )
    return GuildSettings(guild_id) if row is None else guild_settings_row(row)


def guild_settings_row(r: Row) -> GuildSettings:
    """A :class:`GuildSettings` from a ``guild_settings`` row (unreadable channels: none)."""
    try:
        channels = tuple(sorted({int(c) for c in json.loads(r["channels"])}))
    except (ValueError, TypeError):
        channels = ()
    return GuildSettings(
        guild_id=int(r["guild_id"]),
        language=r["language"],
        turn_seconds=r["turn_seconds"],
        rated=bool(r["rated"]),
        hints=bool(r["hints"]),
        channels=channels,
        updated_at=r["updated_at"],
        updated_by=r["updated_by"],
    )
