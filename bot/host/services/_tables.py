"""Open tables and followers: the server's lobbies waiting for players, the "looking for
players" role and its rate-limited ping, the expiry of lobbies nobody joins, and who follows
a game without playing."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.host.storage import (
    UNSET,
    Follower,
    GameRow,
    ShardFilter,
    Storage,
    TableSettings,
)
from maps.loader import load_ruleset

from ._errors import ServiceError
from ._loading import GameLoader, need_status, seat_of

log = logging.getLogger(__name__)

#: Awaited with each lobby that expired (the cog tells its host in the channel).
OnExpired = Callable[[GameRow], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A lobby waiting for players, as the server's list shows it: the game (map, turn time
    ``game.turn_seconds``, language, rated or casual, host), ``taken`` seats, ``free`` seats
    (the map's most players minus the taken ones) and ``age_s`` seconds since it opened."""

    game: GameRow
    taken: int
    free: int
    age_s: float


class OpenTables:
    """Open tables and followers.

    Owns the server's open-table settings (``storage.tables``) and the followers. Needs the
    storage, the :class:`~._loading.GameLoader` (the per-game lock an expiry takes), the clock
    and the shards of this process (None: every server). ``on_expired`` is awaited with each
    lobby :meth:`expire_due` cancelled (may be set later). The timer loop
    (:class:`~._clock.Timers`) runs :meth:`expire_due`.
    """

    def __init__(
        self,
        storage: Storage,
        loader: GameLoader,
        *,
        clock: Callable[[], float],
        shards: ShardFilter | None = None,
        on_expired: OnExpired | None = None,
    ) -> None:
        self.storage = storage
        self.loader = loader
        self.clock = clock
        self.shards = shards
        self.on_expired = on_expired

    # ------------------------------------------------------------ settings
    async def settings(self, guild_id: int) -> TableSettings:
        """The server's open-table settings (the role, the ping interval, the expiry)."""
        return await self.storage.tables.settings(guild_id)

    async def configure(
        self,
        guild_id: int,
        user_id: int,
        *,
        manage_server: bool,
        role_id: int | None = None,
        clear_role: bool = False,
        ping_minutes: int | None = None,
        expiry_hours: int | None = None,
    ) -> TableSettings:
        """Change the looking-for-players role (``clear_role``: none; None: unchanged), the least minutes between two of its
        pings and the hours a lobby nobody joins waits; members with Manage Server only.

        Raises:
            ServiceError: ``not_manager``; ``bad_interval`` (an interval that is not positive;
                nothing written).
        """
        if not manage_server:
            raise ServiceError("not_manager")
        for value in (ping_minutes, expiry_hours):
            if value is not None and value <= 0:
                raise ServiceError("bad_interval", {"given": value})
        return await self.storage.tables.set_settings(
            guild_id,
            updated_by=user_id,
            role_id=None if clear_role else (UNSET if role_id is None else role_id),
            ping_seconds=None if ping_minutes is None else ping_minutes * 60,
            expiry_seconds=None if expiry_hours is None else expiry_hours * 3600,
        )

    # ------------------------------------------------------------ the list and the ping
    async def open_tables(self, guild_id: int) -> list[OpenTable]:
        """The server's lobbies with a free seat, oldest first."""
        now = self.clock()
        tables = []
        for row in await self.storage.tables.lobbies(guild_id):
            most = load_ruleset(row.game.map_id).params.max_players
            if row.seats < most:
                tables.append(
                    OpenTable(row.game, row.seats, most - row.seats, now - row.game.created_at)
                )
        return tables

    async def ping_role(self, guild_id: int) -> int | None:
        """The role to ping for a lobby that just opened, or None: the server names no role,
        or pinged it less than its interval ago (the ping is recorded: call it once per lobby)."""
        return await self.storage.tables.claim_ping(guild_id, self.clock())

    # ------------------------------------------------------------ expiry
    async def expire_due(self, now: float | None = None) -> list[GameRow]:
        """Cancel every lobby (of this process's servers) nobody but its host joined within its
        server's expiry time (default one day), each under its game's lock in one
        transaction; ``on_expired`` is awaited with each. Returns the cancelled lobbies."""
        now = self.clock() if now is None else now
        expired = []
        for game_id in await self.storage.tables.expired_lobbies(now, self.shards):
            async with self.loader.lock(game_id):
                game = await self.storage.tables.expire_lobby(game_id, now)
                self.loader.forget(game_id)
            if game is None:
                continue  # someone joined, or the host started or cancelled it meanwhile
            log.info("game %s: the lobby expired, nobody joined", game_id)
            expired.append(game)
            if self.on_expired is not None:
                try:
                    await self.on_expired(game)
                except Exception:  # noqa: BLE001 - a failed note must not stop the clock
                    log.exception("game %s: telling the host of the expiry failed", game_id)
        return expired

    # ------------------------------------------------------------ followers
    async def follow(
        self, game_id: int, user_id: int, *, each_turn: bool, language: str
    ) -> GameRow:
        """Follow a lobby or running game without playing: a note at its end, and at each turn
        when ``each_turn``, in ``language``. Following again replaces the choice.

        Raises:
            ServiceError: ``game_not_found``, ``game_over``, ``follow_own_game`` (a player of
                the game).
        """
        game = await self.loader.game(game_id)
        need_status(game, "lobby", "active")
        if seat_of(await self.storage.seats.seats(game_id), user_id) is not None:
            raise ServiceError("follow_own_game")
        await self.storage.tables.follow(game_id, user_id, each_turn=each_turn, language=language)
        return game

    async def unfollow(self, game_id: int, user_id: int) -> None:
        """Stop following a game.

        Raises:
            ServiceError: ``not_following`` (detail ``game``).
        """
        if not await self.storage.tables.unfollow(game_id, user_id):
            raise ServiceError("not_following", {"game": game_id})

    async def followers(self, game_id: int) -> list[Follower]:
        """Who follows the game, by user id."""
        return await self.storage.tables.followers(game_id)


__all__ = ["OnExpired", "OpenTable", "OpenTables"]
