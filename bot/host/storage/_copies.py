"""Whole games copied between databases (``python -m bot migrate``): every row of a game, as plain values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._achievements import ACHIEVEMENT_COLUMNS
from ._errors import ChannelBusy, StorageError
from ._rows import GameDump, GuildDump
from ._sql import (
    ACTION_COLUMNS,
    ANALYSIS_COLUMNS,
    GAME_COLUMNS,
    GUILD_SETTINGS_COLUMNS,
    LADDER_COLUMNS,
    RATED_GAME_COLUMNS,
    RATING_COLUMNS,
    RATING_HISTORY_COLUMNS,
    RESULT_COLUMNS,
    SEASON_COLUMNS,
    SEAT_COLUMNS,
    SNAPSHOT_COLUMNS,
    Row,
    StorePart,
    Tx,
    Violation,
)
from ._tables import FOLLOWER_COLUMNS, TABLE_SETTINGS_COLUMNS

_BOOL_COLUMNS = frozenset(
    {
        "is_ai",
        "ai_permanent",
        "resigned",
        "won",
        "rated",
        "hints",
        "longest_path_bonus",
        "hints_allowed",
        "each_turn",
    }
)
#: The server-wide tables (not part of one game) a copy takes whole: table -> (columns, order).
_GUILD_TABLES = {
    "settings": ("guild_settings", GUILD_SETTINGS_COLUMNS, "guild_id"),
    "ladders": ("ladders", LADDER_COLUMNS, "guild_id"),
    "seasons": ("seasons", SEASON_COLUMNS, "guild_id, season"),
    "ratings": ("ratings", RATING_COLUMNS, "guild_id, season, scope, player"),
    "tables": ("table_settings", TABLE_SETTINGS_COLUMNS, "guild_id"),
}


class GameCopier(StorePart):
    """Whole games copied between databases (``python -m bot migrate``)."""

    async def dump_game(self, game_id: int) -> GameDump | None:
        """Every row of one game, column by column, read in one consistent
        look (None for an unknown game). Holds secrets: never log it."""
        async with self._consistent_read() as tx:
            game = await tx.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id)
            if game is None:
                return None
            seats = await tx.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id
            )
            actions = await tx.fetch(
                f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", game_id
            )
            results = await tx.fetch(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", game_id
            )
            snap = await tx.fetchrow(
                f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", game_id
            )
            rated = await tx.fetch(
                f"SELECT {RATED_GAME_COLUMNS} FROM rated_games WHERE game_id = ?", game_id
            )
            history = await tx.fetch(
                f"SELECT {RATING_HISTORY_COLUMNS} FROM rating_history WHERE game_id = ?"
                " ORDER BY scope, player",
                game_id,
            )
            analysis = await tx.fetchrow(
                f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE game_id = ?", game_id
            )
            followers = await tx.fetch(
                f"SELECT {FOLLOWER_COLUMNS} FROM followers WHERE game_id = ? ORDER BY user_id",
                game_id,
            )
            achievements = await tx.fetch(
                f"SELECT {ACHIEVEMENT_COLUMNS} FROM achievements WHERE game_id = ?"
                " ORDER BY user_id, achievement",
                game_id,
            )
        return GameDump(
            game=_plain(game, GAME_COLUMNS),
            seats=tuple(_plain(r, SEAT_COLUMNS) for r in seats),
            actions=tuple(_plain(r, ACTION_COLUMNS) for r in actions),
            results=tuple(_plain(r, RESULT_COLUMNS) for r in results),
            snapshot=None if snap is None else _plain(snap, SNAPSHOT_COLUMNS),
            rated=tuple(_plain(r, RATED_GAME_COLUMNS) for r in rated),
            rating_history=tuple(_plain(r, RATING_HISTORY_COLUMNS) for r in history),
            analysis=None if analysis is None else _plain(analysis, ANALYSIS_COLUMNS),
            followers=tuple(_plain(r, FOLLOWER_COLUMNS) for r in followers),
            achievements=tuple(_plain(r, ACHIEVEMENT_COLUMNS) for r in achievements),
        )

    async def restore_game(self, dump: GameDump) -> None:
        """Insert a dumped game under its own id, in one transaction.

        Raises:
            StorageError: a game with this id exists here.
            ChannelBusy: the channel already has an open game here.
        """
        async with self._write(dump.game_id) as tx:
            try:
                await _insert_plain(tx, "games", GAME_COLUMNS, [dump.game])
                await _insert_plain(tx, "seats", SEAT_COLUMNS, dump.seats)
                await _insert_plain(tx, "actions", ACTION_COLUMNS, dump.actions)
                await _insert_plain(tx, "results", RESULT_COLUMNS, dump.results)
                if dump.snapshot is not None:
                    await _insert_plain(tx, "snapshots", SNAPSHOT_COLUMNS, [dump.snapshot])
                await _insert_plain(tx, "rated_games", RATED_GAME_COLUMNS, dump.rated)
                await _insert_plain(
                    tx, "rating_history", RATING_HISTORY_COLUMNS, dump.rating_history
                )
                if dump.analysis is not None:
                    await _insert_plain(tx, "analyses", ANALYSIS_COLUMNS, [dump.analysis])
                await _insert_plain(tx, "followers", FOLLOWER_COLUMNS, dump.followers)
                await _insert_plain(tx, "achievements", ACHIEVEMENT_COLUMNS, dump.achievements)
            except Violation as exc:
                if exc.kind == "channel":
                    raise ChannelBusy(int(dump.game["channel_id"]), None) from exc
                if exc.kind == "game":
                    raise StorageError(f"game {dump.game_id} already exists here") from exc
                raise
            await self._after_restore(tx)

    async def dump_guild_tables(self) -> GuildDump:
        """Every row of the server-wide tables (settings, ladders, seasons, ratings, the open
        tables' settings)."""
        async with self._consistent_read() as tx:
            parts = {
                name: tuple(
                    _plain(r, columns)
                    for r in await tx.fetch(f"SELECT {columns} FROM {table} ORDER BY {order}")
                )
                for name, (table, columns, order) in _GUILD_TABLES.items()
            }
        return GuildDump(**parts)

    async def restore_guild_tables(self, dump: GuildDump) -> None:
        """Insert dumped server-wide rows into an empty database, in one transaction."""
        async with self._write() as tx:
            for name, (table, columns, _) in _GUILD_TABLES.items():
                await _insert_plain(tx, table, columns, getattr(dump, name))


def _plain(row: Row, columns: str) -> dict[str, Any]:
    """A row as a dict of plain values (booleans as bool, blobs as bytes)."""
    out: dict[str, Any] = {}
    for name in (c.strip() for c in columns.split(",")):
        value = row[name]
        if name in _BOOL_COLUMNS and value is not None:
            value = bool(value)
        elif isinstance(value, memoryview):
            value = bytes(value)
        out[name] = value
    return out


async def _insert_plain(
    tx: Tx, table: str, columns: str, rows: Iterable[Mapping[str, Any]]
) -> None:
    names = [c.strip() for c in columns.split(",")]
    values = [[row[n] for n in names] for row in rows]
    if values:
        await tx.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(names))})", values
        )
