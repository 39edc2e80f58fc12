"""Open tables and followers: a server's "looking for players" role, its ping interval and
the expiry of lobbies nobody joins (``table_settings``), the server's lobbies waiting for
players, and who follows a game without playing (``followers``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._rows import GameRow, ShardFilter
from ._sql import GAME_COLUMNS, UNSET, Row, StorePart, Tx, Unset, game_row

#: How long a lobby nobody joins waits before it expires, by default: one day.
DEFAULT_EXPIRY_SECONDS = 86_400
#: The least time between two pings of the looking-for-players role, by default: 10 minutes.
DEFAULT_PING_SECONDS = 600

TABLE_SETTINGS_COLUMNS = (
    "guild_id, role_id, ping_seconds, expiry_seconds, last_ping_at, updated_at, updated_by"
)
FOLLOWER_COLUMNS = "game_id, user_id, each_turn, language, followed_at"

#: A lobby in which nobody but its host (and computer players) sits.
_NOBODY_JOINED = (
    "NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id IS NOT NULL"
    " AND s.user_id <> g.host_user_id)"
)


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A server's open-table settings (the defaults when an admin never changed any).

    ``role_id``: the "looking for players" role pinged when a lobby opens (None: no pings);
    ``ping_seconds``: the least time between two pings; ``expiry_seconds``: how long a lobby
    nobody joins waits; ``last_ping_at``: unix seconds of the last ping (None: never).
    """

    guild_id: int
    role_id: int | None = None
    ping_seconds: int = DEFAULT_PING_SECONDS
    expiry_seconds: int = DEFAULT_EXPIRY_SECONDS
    last_ping_at: float | None = None
    updated_at: float | None = None
    updated_by: int | None = None


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """A lobby waiting for players: the game and how many seats are taken (people and
    computer players)."""

    game: GameRow
    seats: int


@dataclass(frozen=True, slots=True)
class Follower:
    """Someone who follows a game without playing: ``each_turn`` a note at every turn (else
    only at the end), in ``language``."""

    game_id: int
    user_id: int
    each_turn: bool
    language: str
    followed_at: float


class OpenTableStore(StorePart):
    """The open-table settings of servers, their lobbies, and the followers of games."""

    async def settings(self, guild_id: int) -> TableSettings:
        """The server's open-table settings; the defaults when never set."""
        async with self._read() as tx:
            return await _settings(tx, guild_id)

    async def set_settings(
        self,
        guild_id: int,
        *,
        updated_by: int | None,
        role_id: int | None | Unset = UNSET,
        ping_seconds: int | None = None,
        expiry_seconds: int | None = None,
    ) -> TableSettings:
        """Change some of the role (None: no role), the ping interval and the expiry (positive
        seconds); the others keep their value. Returns the stored settings.

        Raises:
            ValueError: an interval or expiry that is not a positive int.
        """
        for value in (ping_seconds, expiry_seconds):
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise ValueError("ping_seconds and expiry_seconds must be positive ints")
        async with self._write() as tx:
            now = await _settings(tx, guild_id)
            row = await tx.fetchrow(
                f"INSERT INTO table_settings ({TABLE_SETTINGS_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " role_id = excluded.role_id, ping_seconds = excluded.ping_seconds,"
                " expiry_seconds = excluded.expiry_seconds, updated_at = excluded.updated_at,"
                f" updated_by = excluded.updated_by RETURNING {TABLE_SETTINGS_COLUMNS}",
                guild_id,
                now.role_id if isinstance(role_id, Unset) else role_id,
                ping_seconds or now.ping_seconds,
                expiry_seconds or now.expiry_seconds,
                now.last_ping_at,
                self._clock(),
                updated_by,
            )
        assert row is not None
        return _settings_row(row)

    async def claim_ping(self, guild_id: int, now: float) -> int | None:
        """The role to ping for a lobby opened at ``now``, or None (no role, or the last
        ping is less than the server's interval ago). The one caller that gets the role has
        recorded the ping (one transaction), so a role is pinged once per interval."""
        async with self._write() as tx:
            row = await tx.fetchrow(
                "UPDATE table_settings SET last_ping_at = ?"
                " WHERE guild_id = ? AND role_id IS NOT NULL"
                " AND (last_ping_at IS NULL OR last_ping_at + ping_seconds <= ?)"
                " RETURNING role_id",
                now,
                guild_id,
                now,
            )
        return None if row is None else int(row["role_id"])

    async def lobbies(self, guild_id: int) -> list[LobbyRow]:
        """The server's lobbies waiting for players, oldest first."""
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {_prefixed('g')}, (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id)"
                " AS taken FROM games g WHERE g.guild_id = ? AND g.status = 'lobby'"
                " ORDER BY g.created_at, g.id",
                guild_id,
            )
        return [LobbyRow(game_row(r), int(r["taken"])) for r in rows]

    async def expired_lobbies(self, now: float, shards: ShardFilter | None = None) -> list[int]:
        """The lobbies (of ``shards``' servers) nobody but their host joined within their
        server's expiry time, by id."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT g.id, g.guild_id FROM games g"
                " LEFT JOIN table_settings t ON t.guild_id = g.guild_id"
                " WHERE g.status = 'lobby' AND g.created_at + COALESCE(t.expiry_seconds, ?) <= ?"
                f" AND {_NOBODY_JOINED} ORDER BY g.id",
                DEFAULT_EXPIRY_SECONDS,
                now,
            )
        return [int(r["id"]) for r in rows if shards is None or shards.owns(int(r["guild_id"]))]

    async def expire_lobby(self, game_id: int, now: float) -> GameRow | None:
        """Cancel the lobby if it is still expired at ``now`` (still a lobby nobody joined);
        one transaction. Returns the cancelled game, or None (it changed meanwhile)."""
        async with self._write(game_id) as tx:
            row = await tx.fetchrow(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ?"
                " WHERE id = ? AND status = 'lobby' AND id IN (SELECT g.id FROM games g"
                " LEFT JOIN table_settings t ON t.guild_id = g.guild_id WHERE g.id = ?"
                f" AND g.created_at + COALESCE(t.expiry_seconds, ?) <= ? AND {_NOBODY_JOINED})"
                f" RETURNING {GAME_COLUMNS}",
                now,
                now,
                game_id,
                game_id,
                DEFAULT_EXPIRY_SECONDS,
                now,
            )
        return None if row is None else game_row(row)

    async def follow(self, game_id: int, user_id: int, *, each_turn: bool, language: str) -> None:
        """Follow a game (again: the choice and language are replaced)."""
        async with self._write(game_id) as tx:
            await tx.execute(
                "INSERT INTO followers (game_id, user_id, each_turn, language, followed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " each_turn = excluded.each_turn, language = excluded.language",
                game_id,
                user_id,
                each_turn,
                language,
                self._clock(),
            )

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """Stop following; False when the user did not follow the game."""
        async with self._write(game_id) as tx:
            gone = await tx.execute(
                "DELETE FROM followers WHERE game_id = ? AND user_id = ?", game_id, user_id
            )
        return gone > 0

    async def followers(self, game_id: int) -> list[Follower]:
        """The followers of a game, by user id."""
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {FOLLOWER_COLUMNS} FROM followers WHERE game_id = ? ORDER BY user_id",
                game_id,
            )
        return [
            Follower(
                int(r["game_id"]),
                int(r["user_id"]),
                bool(r["each_turn"]),
                str(r["language"]),
                float(r["followed_at"]),
            )
            for r in rows
        ]

    async def following(self, user_id: int) -> int:
        """How many games the user follows."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM followers WHERE user_id = ?", user_id
            )
        return 0 if row is None else int(row["n"])


def _prefixed(alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in GAME_COLUMNS.split(","))


async def _settings(tx: Tx, guild_id: int) -> TableSettings:
    row = await tx.fetchrow(
        f"SELECT {TABLE_SETTINGS_COLUMNS} FROM table_settings WHERE guild_id = ?", guild_id
    )
    return TableSettings(guild_id) if row is None else _settings_row(row)


def _settings_row(r: Row) -> TableSettings:
    values: dict[str, Any] = {c.strip(): r[c.strip()] for c in TABLE_SETTINGS_COLUMNS.split(",")}
    return TableSettings(**values)


__all__ = [
    "DEFAULT_EXPIRY_SECONDS",
    "DEFAULT_PING_SECONDS",
    "Follower",
    "LobbyRow",
    "OpenTableStore",
    "TableSettings",
]
