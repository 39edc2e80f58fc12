"""User settings: turn pings, a DM on one's turn, high contrast (one row per user who changed one)."""

from __future__ import annotations

from collections.abc import Sequence

from ._rows import USER_SETTING_NAMES, UserSettings
from ._sql import Row, SqlBase


class SqlSettingsStore(SqlBase):
    """The user_settings table (see :class:`~bot.storage.SettingsStore`)."""

    async def get_user_settings(self, user_id: int) -> UserSettings:
        async with self._read() as tx:
            row = await tx.fetchrow(
                "SELECT user_id, turn_pings, dm_turns, high_contrast, updated_at"
                " FROM user_settings WHERE user_id = ?",
                user_id,
            )
        return UserSettings(user_id) if row is None else _settings_row(row)

    async def set_user_settings(self, user_id: int, **changes: bool) -> UserSettings:
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
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                + (updates + ", " if updates else "")
                + "updated_at = excluded.updated_at"
                " RETURNING user_id, turn_pings, dm_turns, high_contrast, updated_at",
                user_id,
                values["turn_pings"],
                values["dm_turns"],
                values["high_contrast"],
                now,
            )
        assert row is not None
        return _settings_row(row)

    async def all_user_settings(self) -> list[UserSettings]:
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT user_id, turn_pings, dm_turns, high_contrast, updated_at"
                " FROM user_settings ORDER BY user_id"
            )
        return [_settings_row(r) for r in rows]

    async def restore_user_settings(self, rows: Sequence[UserSettings]) -> None:
        async with self._write() as tx:
            await tx.executemany(
                "INSERT INTO user_settings (user_id, turn_pings, dm_turns, high_contrast,"
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " turn_pings = excluded.turn_pings, dm_turns = excluded.dm_turns,"
                " high_contrast = excluded.high_contrast, updated_at = excluded.updated_at",
                [
                    (s.user_id, s.turn_pings, s.dm_turns, s.high_contrast, s.updated_at or 0.0)
                    for s in rows
                ],
            )


def _settings_row(r: Row) -> UserSettings:
    return UserSettings(
        user_id=r["user_id"],
        turn_pings=bool(r["turn_pings"]),
        dm_turns=bool(r["dm_turns"]),
        high_contrast=bool(r["high_contrast"]),
        updated_at=r["updated_at"],
    )
