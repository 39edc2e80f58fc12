"""Games: creating, finding, starting, status changes, quarantine, deleting (one row per game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._actions import put_snapshot
from ._errors import ChannelBusy, GameStatusError, VersionConflict
from ._rows import (
    DEFAULT_TURN_SECONDS,
    FINAL_STATUSES,
    LANGUAGES,
    GameRow,
    GameStatus,
    NewSeat,
    QuarantinedGame,
)
from ._seats import insert_seat
from ._sql import (
    GAME_COLUMNS,
    UNSET,
    SqlBase,
    Tx,
    Unset,
    Violation,
    dump_json,
    encode_snapshot,
    existing_game,
    filters,
    game_header,
    game_or_none,
    game_row,
    given,
    log,
    timer_at,
    update_game,
)

#: Status changes allowed through :meth:`SqlStorage.set_status` (start_game does lobby -> active,
#: quarantine() active/lobby -> quarantined).
_TRANSITIONS: dict[str, frozenset[str]] = {
    "lobby": frozenset({"cancelled"}),
    "active": frozenset({"finished", "cancelled"}),
    "finished": frozenset(),
    "cancelled": frozenset(),
    "quarantined": frozenset({"cancelled"}),
}
#: Seat numbers are moved this far up while a start renumbers them (one transaction).
_SEAT_SHIFT = 1_000_000


class SqlGameStore(SqlBase):
    """The games table (see :class:`~bot.host.storage.GameStore`)."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        map_id: str,
        options: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        turn_seconds: int = DEFAULT_TURN_SECONDS,
        seats: Sequence[NewSeat] = (),
        language: str = "en",
        rematch_of: int | None = None,
        rated: bool = False,
        hints_allowed: bool = True,
    ) -> GameRow:
        if turn_seconds <= 0:
            raise ValueError(f"turn_seconds must be positive, got {turn_seconds}")
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")
        options_json = dump_json(dict(options or {}))
        now = self._clock()
        async with self._write() as tx:
            busy = await tx.fetchrow(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                channel_id,
            )
            if busy is not None:
                raise ChannelBusy(channel_id, busy["id"])
            try:
                row = await tx.fetchrow(
                    "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id,"
                    " host_user_id, map_id, options, status, version, turn_seconds, language,"
                    " rematch_of, rated, created_at, updated_at, hints_allowed)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?, ?)"
                    f" RETURNING {GAME_COLUMNS}",
                    guild_id,
                    channel_id,
                    thread_id,
                    lobby_message_id,
                    host_user_id,
                    map_id,
                    options_json,
                    turn_seconds,
                    language,
                    rematch_of,
                    bool(rated),
                    now,
                    now,
                    bool(hints_allowed),
                )
            except Violation as exc:
                if exc.kind == "channel":
                    raise ChannelBusy(channel_id, None) from exc
                raise
            assert row is not None
            game = game_row(row)
            for new_seat in seats:
                await insert_seat(tx, game.id, new_seat, now)
        log.info("created game %s in channel %s (map %s)", game.id, channel_id, map_id)
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._read() as tx:
            return await game_or_none(tx, game_id)

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self._read() as tx:
            row = await tx.fetchrow(
                f"SELECT {GAME_COLUMNS} FROM games"
                " WHERE channel_id = ? AND status IN ('lobby', 'active')",
                channel_id,
            )
        return None if row is None else game_row(row)

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self._read() as tx:
            row = await tx.fetchrow(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                channel_id,
            )
        return None if row is None else game_row(row)

    async def list_games(
        self, status: GameStatus | None = None, *, guild_id: int | None = None
    ) -> list[GameRow]:
        clauses, params = filters(status=status, guild_id=guild_id)
        async with self._read() as tx:
            rows = await tx.fetch(f"SELECT {GAME_COLUMNS} FROM games{clauses} ORDER BY id", *params)
        return [game_row(r) for r in rows]

    async def game_ids(self, status: GameStatus | None = None) -> list[int]:
        clauses, params = filters(status=status)
        async with self._read() as tx:
            rows = await tx.fetch(f"SELECT id FROM games{clauses} ORDER BY id", *params)
        return [int(r["id"]) for r in rows]

    async def game_counts(self) -> dict[str, int]:
        async with self._read() as tx:
            rows = await tx.fetch("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
        return {str(r["status"]): int(r["n"]) for r in rows}

    async def finished_games(
        self, guild_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[GameRow]:
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished'"
                " ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?",
                guild_id,
                limit,
                offset,
            )
        return [game_row(r) for r in rows]

    async def games_for_user(
        self, user_id: int, status: GameStatus | None = "active"
    ) -> list[GameRow]:
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games"
            " WHERE id IN (SELECT game_id FROM seats WHERE user_id = ?)"
        )
        params: list[Any] = [user_id]
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        async with self._read() as tx:
            rows = await tx.fetch(sql + " ORDER BY id", *params)
        return [game_row(r) for r in rows]

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        snapshot: Mapping[str, Any],
        engine_version: str,
        version: int = 0,
        deadline_at: float | None = None,
        reminder_at: float | None = None,
    ) -> GameRow:
        fmt, data = encode_snapshot(snapshot)
        now = self._clock()
        async with self._write(game_id) as tx:
            head = await game_header(tx, game_id)
            if head["status"] != "lobby":
                raise GameStatusError(game_id, head["status"], "only a lobby game can start")
            await _compact_seats(tx, game_id)
            row = await tx.fetchrow(
                "UPDATE games SET status = 'active', seed = ?, engine_version = ?, version = ?,"
                " snapshot_version = ?, deadline_at = ?, reminder_at = ?, timer_at = ?,"
                f" updated_at = ? WHERE id = ? AND status = 'lobby' RETURNING {GAME_COLUMNS}",
                seed,
                engine_version,
                version,
                version,
                deadline_at,
                reminder_at,
                timer_at(deadline_at, reminder_at),
                now,
                game_id,
            )
            assert row is not None
            await put_snapshot(tx, game_id, version, fmt, data, now)
            game = game_row(row)
        log.info("started game %s", game_id)  # never the seed (issue 12.1)
        return game

    async def set_message_ids(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None | Unset = UNSET,
        board_message_id: int | None | Unset = UNSET,
    ) -> None:
        changes = given(lobby_message_id=lobby_message_id, board_message_id=board_message_id)
        async with self._write(game_id) as tx:
            await update_game(tx, game_id, changes, self._clock())

    async def set_status(
        self, game_id: int, status: GameStatus, *, expected_version: int | None = None
    ) -> GameRow:
        now = self._clock()
        async with self._write(game_id) as tx:
            current = await existing_game(tx, game_id)
            if expected_version is not None and current.version != expected_version:
                raise VersionConflict(game_id, expected_version, current.version)
            if current.status == status and status in FINAL_STATUSES:
                return current
            if status not in _TRANSITIONS[current.status]:
                raise GameStatusError(game_id, current.status, f"cannot become {status!r}")
            row = await tx.fetchrow(
                "UPDATE games SET status = ?, deadline_at = NULL, reminder_at = NULL,"
                " timer_at = NULL, finished_at = ?, updated_at = ? WHERE id = ?"
                f" RETURNING {GAME_COLUMNS}",
                status,
                now,
                now,
                game_id,
            )
            assert row is not None
            game = game_row(row)
        log.info("game %s: %s -> %s", game_id, current.status, status)
        return game

    async def quarantine(self, game_id: int, reason: str) -> QuarantinedGame | None:
        now = self._clock()
        async with self._write(game_id) as tx:
            changed = await tx.execute(
                "UPDATE games SET status = 'quarantined', status_note = ?, deadline_at = NULL,"
                " reminder_at = NULL, timer_at = NULL, updated_at = ?"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                reason[:500],
                now,
                game_id,
            )
            if not changed:
                return None
            head = await tx.fetchrow(
                "SELECT guild_id, channel_id, thread_id FROM games WHERE id = ?", game_id
            )
            assert head is not None
            users = await tx.fetch(
                "SELECT user_id FROM seats WHERE game_id = ? AND user_id IS NOT NULL ORDER BY seat",
                game_id,
            )
        return QuarantinedGame(
            game_id=game_id,
            guild_id=int(head["guild_id"]),
            channel_id=int(head["channel_id"]),
            thread_id=head["thread_id"],
            reason=reason,
            user_ids=tuple(int(u["user_id"]) for u in users),
        )

    async def delete_game(self, game_id: int) -> bool:
        async with self._write(game_id) as tx:
            deleted = await tx.execute("DELETE FROM games WHERE id = ?", game_id) > 0
        if deleted:
            log.info("deleted game %s", game_id)
        return deleted


async def _compact_seats(tx: Tx, game_id: int) -> None:
    """Renumber the seats 0..n-1 in their current order (a left player leaves a gap)."""
    numbers = [
        int(r["seat"])
        for r in await tx.fetch("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", game_id)
    ]
    if numbers == list(range(len(numbers))):
        return
    await tx.execute("UPDATE seats SET seat = seat + ? WHERE game_id = ?", _SEAT_SHIFT, game_id)
    for new, old in enumerate(numbers):
        await tx.execute(
            "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?",
            new,
            game_id,
            old + _SEAT_SHIFT,
        )
