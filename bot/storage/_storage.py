"""The SQLite repository: one aiosqlite connection, one lock, typed rows.

Every public method is atomic with respect to the others: reads and write
transactions run one at a time under an :class:`asyncio.Lock`, so a reader
never sees another coroutine's uncommitted write on the shared connection.
Writes use ``BEGIN IMMEDIATE`` and either commit completely or leave nothing.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from ._errors import (
    ChannelBusy,
    GameNotFound,
    GameStatusError,
    SeatNotFound,
    SeatTaken,
    StorageError,
    VersionConflict,
)
from ._migrate import _rollback_quietly, migrate
from ._rows import (
    DEFAULT_TURN_SECONDS,
    FINAL_STATUSES,
    ActionRow,
    ActionSource,
    GameRow,
    GameStatus,
    LeaderboardRow,
    NewSeat,
    NextTimer,
    PlayerResult,
    ResultRow,
    SeatRow,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class _Unset(enum.Enum):
    """Marker for "leave this column as it is" where None is a real value."""

    UNSET = enum.auto()


_UNSET = _Unset.UNSET

_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, host_user_id,"
    " map_id, options, status, seed, engine_version, version, snapshot, turn_seconds,"
    " deadline_at, reminder_at, created_at, updated_at, finished_at"
)
_SEAT_COLUMNS = (
    "game_id, seat, user_id, display_name, color, is_ai, ai_kind, joined_at,"
    " expiries_in_row, ai_permanent, vacation_used_s, vacation_until, resigned"
)
_ACTION_COLUMNS = "game_id, seq, seat, action, actor_user_id, source, created_at"
_RESULT_COLUMNS = (
    "game_id, seat, user_id, guild_id, map_id, score, rank, won, tickets_completed,"
    " tickets_failed, finished_at"
)

#: Status changes allowed through :meth:`Storage.set_status` (start_game does lobby -> active).
_TRANSITIONS: dict[str, frozenset[str]] = {
    "lobby": frozenset({"cancelled"}),
    "active": frozenset({"finished", "cancelled"}),
    "finished": frozenset(),
    "cancelled": frozenset(),
}


def dump_json(value: Any) -> str:
    """Compact, key-sorted UTF-8 JSON as stored in every JSON column.

    Raises:
        TypeError: a value that JSON cannot encode.
        ValueError: NaN or infinity (not valid JSON).
    """
    return json.dumps(
        value, separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False
    )


async def open_storage(
    path: str | Path, *, clock: Clock = time.time, busy_timeout_ms: int = 5_000
) -> Storage:
    """Open (creating it and its parent folders if needed) and migrate the
    database file at ``path``; return a ready :class:`Storage`.

    The connection runs in WAL mode with ``synchronous=NORMAL``: a transaction
    whose commit has returned survives a kill of the process at any moment (the
    WAL frames are already handed to the operating system); only a power loss
    or OS crash can undo the last few commits, and even then the file stays
    consistent. ``foreign_keys`` is on; ``busy_timeout`` makes other processes'
    locks (a backup, a CLI tool) wait up to ``busy_timeout_ms`` instead of
    failing. ``clock`` returns unix seconds and stamps every row.

    Raises:
        StorageError: the file cannot use WAL (e.g. ``":memory:"``).
        MigrationError: a migration failed or the file is newer than the code.
        sqlite3.Error: the file cannot be opened or is not a database.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
        mode = await _scalar(conn, "PRAGMA journal_mode = WAL")
        if str(mode).lower() != "wal":
            raise StorageError(f"{path}: journal_mode is {mode!r}, WAL is required")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        version = await migrate(conn)
    except BaseException:
        await conn.close()
        raise
    log.info("opened storage %s at schema version %s", path, version)
    return Storage(conn, path, clock=clock)


class Storage:
    """Repository over one SQLite file. Create it with :func:`open_storage`.

    JSON values (options, snapshots, actions) are JSON-able dicts handed in by
    the service; they come back as fresh dicts. Ids are Discord snowflakes
    (``int``); times are unix seconds (``float``). Usable as an async context
    manager that closes it.
    """

    def __init__(self, conn: aiosqlite.Connection, path: Path, *, clock: Clock) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._clock = clock
        #: The database file.
        self.path = path

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Wait for the running call, then close the connection. Idempotent."""
        async with self._lock:
            try:
                await self._conn.execute("PRAGMA optimize")
            except (sqlite3.Error, ValueError):  # ValueError: already closed
                pass
            await self._conn.close()

    # -- plumbing ---------------------------------------------------------

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._conn

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                await _rollback_quietly(self._conn)
                raise

    # -- diagnostics ------------------------------------------------------

    async def pragmas(self) -> dict[str, Any]:
        """The connection settings that matter for safety: ``journal_mode``,
        ``synchronous`` (1 = NORMAL), ``foreign_keys`` (1 = on),
        ``busy_timeout`` (ms) and ``user_version`` (schema version)."""
        names = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout", "user_version")
        async with self._reading() as conn:
            return {name: await _scalar(conn, f"PRAGMA {name}") for name in names}

    async def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check`` plus ``foreign_key_check``; ``["ok"]`` when
        the file is sound, otherwise one message per problem."""
        async with self._reading() as conn:
            problems = [str(r[0]) for r in await conn.execute_fetchall("PRAGMA integrity_check")]
            orphans = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        problems += [f"foreign key: {tuple(r)}" for r in orphans]
        if problems != ["ok"]:
            problems = [p for p in problems if p != "ok"]
        return problems

    # -- games ------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        map_id: str,
        options: dict[str, Any] | None = None,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        turn_seconds: int = DEFAULT_TURN_SECONDS,
        seats: Sequence[NewSeat] = (),
    ) -> GameRow:
        """Create a game in the ``lobby`` status at version 0, with the given
        seats (e.g. the host's) in the same transaction.

        ``channel_id`` is where the game lives (a channel or a thread).

        Raises:
            ChannelBusy: the channel already has a lobby or active game.
            SeatTaken: two of ``seats`` clash (same seat number or user).
            ValueError: ``turn_seconds`` is not positive.
        """
        if turn_seconds <= 0:
            raise ValueError(f"turn_seconds must be positive, got {turn_seconds}")
        options_json = dump_json(options or {})
        now = self._clock()
        async with self._writing() as conn:
            busy = await _one(
                conn,
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            if busy is not None:
                raise ChannelBusy(channel_id, busy["id"])
            try:
                async with conn.execute(
                    "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id,"
                    " host_user_id, map_id, options, status, version, turn_seconds,"
                    " created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        thread_id,
                        lobby_message_id,
                        host_user_id,
                        map_id,
                        options_json,
                        turn_seconds,
                        now,
                        now,
                    ),
                ) as cursor:
                    game_id = cursor.lastrowid
            except sqlite3.IntegrityError as exc:
                if "games.channel_id" in str(exc):
                    raise ChannelBusy(channel_id, None) from exc
                raise
            assert game_id is not None
            for new_seat in seats:
                await _insert_seat(conn, game_id, new_seat, now)
            game = await _game(conn, game_id)
        log.info("created game %s in channel %s (map %s)", game_id, channel_id, map_id)
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        async with self._reading() as conn:
            return await _game_or_none(conn, game_id)

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's open game (``lobby`` or ``active``), or None."""
        async with self._reading() as conn:
            row = await _one(
                conn,
                f"SELECT {_GAME_COLUMNS} FROM games"
                " WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
        return None if row is None else _game_row(row)

    async def list_games(
        self, status: GameStatus | None = None, *, guild_id: int | None = None
    ) -> list[GameRow]:
        """Games ordered by id, optionally only one status and/or one guild.

        Snapshots are decoded for every row; meant for restart recovery and
        admin listings, not for hot paths.
        """
        clauses, params = _filters(status=status, guild_id=guild_id)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games{clauses} ORDER BY id", params
            )
        return [_game_row(r) for r in rows]

    async def games_for_user(
        self, user_id: int, status: GameStatus | None = "active"
    ) -> list[GameRow]:
        """Games where ``user_id`` holds a seat, ordered by id; ``status=None``
        means any status."""
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games"
            " WHERE id IN (SELECT game_id FROM seats WHERE user_id = ?)"
        )
        params: list[Any] = [user_id]
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql + " ORDER BY id", params)
        return [_game_row(r) for r in rows]

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        snapshot: dict[str, Any],
        engine_version: str,
        version: int = 0,
        deadline_at: float | None = None,
        reminder_at: float | None = None,
    ) -> GameRow:
        """Move a lobby game to ``active`` with its first snapshot.

        ``version`` is the number of actions the snapshot already includes
        (normally 0); ``deadline_at``/``reminder_at`` are the first turn's
        timers in unix seconds.

        Raises:
            GameNotFound: no such game.
            GameStatusError: the game is not in the lobby.
        """
        snapshot_json = dump_json(snapshot)
        now = self._clock()
        async with self._writing() as conn:
            async with conn.execute(
                "UPDATE games SET status = 'active', seed = ?, snapshot = ?, engine_version = ?,"
                " version = ?, deadline_at = ?, reminder_at = ?, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (
                    seed,
                    snapshot_json,
                    engine_version,
                    version,
                    deadline_at,
                    reminder_at,
                    now,
                    game_id,
                ),
            ) as cursor:
                changed = cursor.rowcount
            if changed == 0:
                current = await _game(conn, game_id)
                raise GameStatusError(game_id, current.status, "only a lobby game can start")
            game = await _game(conn, game_id)
        log.info("started game %s (seed %s)", game_id, seed)
        return game

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        action: dict[str, Any],
        new_snapshot: dict[str, Any],
        seat: int | None,
        deadline_at: float | None,
        reminder_at: float | None,
        source: ActionSource = "player",
        actor_user_id: int | None = None,
        new_status: GameStatus | None = None,
        results: Sequence[PlayerResult] | None = None,
    ) -> GameRow:
        """Record one applied action and the resulting snapshot, atomically.

        In ONE transaction: ``UPDATE games SET snapshot, version =
        expected_version + 1, timers ... WHERE id = ? AND version =
        expected_version AND status = 'active'``, then insert the action with
        ``seq = expected_version + 1``. ``deadline_at``/``reminder_at`` are the
        next turn's timers (None clears them). ``new_status`` may end the game
        (``finished`` or ``cancelled``): timers are cleared and ``finished_at``
        set. ``results`` (only with ``new_status="finished"``) are recorded in
        the same transaction, so a finished game never lacks its results.

        Returns the updated game.

        Raises:
            VersionConflict: the game's version is not ``expected_version``;
                nothing was written.
            GameNotFound: no such game.
            GameStatusError: the game is not ``active``.
            ValueError: ``new_status`` is not a final status, or ``results``
                without ``new_status="finished"``.
        """
        if new_status is not None and new_status not in FINAL_STATUSES:
            raise ValueError(f"append_action can only end a game, not set {new_status!r}")
        if results is not None and new_status != "finished":
            raise ValueError("results can only be recorded with new_status='finished'")
        seq = expected_version + 1
        action_json = dump_json(action)
        snapshot_json = dump_json(new_snapshot)
        now = self._clock()
        finished_at = now if new_status is not None else None
        if new_status is not None:
            deadline_at = reminder_at = None
        async with self._writing() as conn:
            async with conn.execute(
                "UPDATE games SET snapshot = ?, version = ?, status = COALESCE(?, status),"
                " deadline_at = ?, reminder_at = ?, updated_at = ?,"
                " finished_at = COALESCE(?, finished_at)"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (
                    snapshot_json,
                    seq,
                    new_status,
                    deadline_at,
                    reminder_at,
                    now,
                    finished_at,
                    game_id,
                    expected_version,
                ),
            ) as cursor:
                changed = cursor.rowcount
            if changed == 0:
                current = await _game(conn, game_id)
                if current.status != "active":
                    raise GameStatusError(
                        game_id, current.status, "only an active game takes actions"
                    )
                raise VersionConflict(game_id, expected_version, current.version)
            await conn.execute(
                f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, action_json, actor_user_id, source, now),
            )
            if results is not None:
                await _replace_results(conn, game_id, results, now)
            game = await _game(conn, game_id)
        log.debug("game %s: action %s by seat %s (%s)", game_id, seq, seat, source)
        return game

    async def actions(
        self, game_id: int, after_seq: int = 0, *, limit: int | None = None
    ) -> list[ActionRow]:
        """The game's actions with ``seq > after_seq`` in order, at most
        ``limit`` of them (None: all). Empty for an unknown game."""
        sql = f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq"
        params: list[Any] = [game_id, after_seq]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [_action_row(r) for r in rows]

    async def set_message_ids(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None | _Unset = _UNSET,
        board_message_id: int | None | _Unset = _UNSET,
    ) -> None:
        """Remember the lobby and/or board message of a game; an omitted
        argument stays as it is, None clears it.

        Raises:
            GameNotFound: no such game.
        """
        changes = _given(lobby_message_id=lobby_message_id, board_message_id=board_message_id)
        async with self._writing() as conn:
            await _update_game(conn, game_id, changes, self._clock())

    async def set_status(
        self, game_id: int, status: GameStatus, *, expected_version: int | None = None
    ) -> GameRow:
        """End or cancel a game: ``lobby -> cancelled``, ``active -> finished``
        or ``active -> cancelled``. Leaving ``active`` clears the timers and
        sets ``finished_at``. Setting a final status the game already has is a
        no-op, so retries are safe. ``expected_version`` (optional) guards
        against a game that moved on.

        Raises:
            GameNotFound: no such game.
            GameStatusError: the transition is not allowed (use
                :meth:`start_game` to activate a lobby).
            VersionConflict: ``expected_version`` given and different.
        """
        now = self._clock()
        async with self._writing() as conn:
            current = await _game(conn, game_id)
            if expected_version is not None and current.version != expected_version:
                raise VersionConflict(game_id, expected_version, current.version)
            if current.status == status and status in FINAL_STATUSES:
                return current
            if status not in _TRANSITIONS[current.status]:
                raise GameStatusError(game_id, current.status, f"cannot become {status!r}")
            await conn.execute(
                "UPDATE games SET status = ?, deadline_at = NULL, reminder_at = NULL,"
                " finished_at = ?, updated_at = ? WHERE id = ?",
                (status, now, now, game_id),
            )
            game = await _game(conn, game_id)
        log.info("game %s: %s -> %s", game_id, current.status, status)
        return game

    async def set_deadline(
        self,
        game_id: int,
        deadline_at: float | None,
        reminder_at: float | None,
        *,
        expected_version: int | None = None,
    ) -> None:
        """Set (or clear with None) the active turn's expiry and reminder, in
        unix seconds. With ``expected_version`` the write only happens if the
        game has not moved on (e.g. the timer loop clearing a sent reminder).

        Raises:
            GameNotFound: no such game.
            VersionConflict: ``expected_version`` given and different.
        """
        now = self._clock()
        async with self._writing() as conn:
            sql = "UPDATE games SET deadline_at = ?, reminder_at = ?, updated_at = ? WHERE id = ?"
            params: list[Any] = [deadline_at, reminder_at, now, game_id]
            if expected_version is not None:
                sql += " AND version = ?"
                params.append(expected_version)
            async with conn.execute(sql, params) as cursor:
                changed = cursor.rowcount
            if changed == 0:
                current = await _game(conn, game_id)
                raise VersionConflict(game_id, expected_version or 0, current.version)

    async def next_deadline(self) -> NextTimer | None:
        """The soonest ``deadline_at`` or ``reminder_at`` over active games, as
        ``(game_id, when, kind)``, or None when no timer is set. On a tie the
        deadline comes first. One statement over two partial indexes, so the
        cost does not grow with the number of games."""
        async with self._reading() as conn:
            row = await _one(conn, _NEXT_TIMER_SQL)
        if row is None:
            return None
        return NextTimer(row["id"], row["at"], row["kind"])

    async def delete_game(self, game_id: int) -> bool:
        """Delete a game with its seats, actions and results (cascade).
        Returns False when there was no such game."""
        async with self._writing() as conn:
            async with conn.execute("DELETE FROM games WHERE id = ?", (game_id,)) as cursor:
                deleted = cursor.rowcount > 0
        if deleted:
            log.info("deleted game %s", game_id)
        return deleted

    # -- seats ------------------------------------------------------------

    async def add_seat(self, game_id: int, new_seat: NewSeat) -> SeatRow:
        """Seat a player or an AI; ``new_seat.seat=None`` takes the lowest free
        seat number. Does not check the game's status or size: the service
        decides who may join.

        Raises:
            GameNotFound: no such game.
            SeatTaken: the seat number is occupied or the user already sits here.
        """
        now = self._clock()
        async with self._writing() as conn:
            await _game_header(conn, game_id)
            return await _insert_seat(conn, game_id, new_seat, now)

    async def remove_seat(self, game_id: int, seat: int) -> bool:
        """Free a seat; False when it was not taken. Other seats keep their numbers."""
        async with self._writing() as conn:
            async with conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cursor:
                return cursor.rowcount > 0

    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None | _Unset = _UNSET,
        display_name: str | _Unset = _UNSET,
        color: str | None | _Unset = _UNSET,
        is_ai: bool | _Unset = _UNSET,
        ai_kind: str | None | _Unset = _UNSET,
        expiries_in_row: int | _Unset = _UNSET,
        ai_permanent: bool | _Unset = _UNSET,
        vacation_used_s: float | _Unset = _UNSET,
        vacation_until: float | None | _Unset = _UNSET,
        resigned: bool | _Unset = _UNSET,
    ) -> SeatRow:
        """Change the given columns of a seat (omitted ones stay); returns the
        updated seat.

        Raises:
            SeatNotFound: the game has no such seat.
            SeatTaken: ``user_id`` already sits elsewhere in this game.
            sqlite3.IntegrityError: a value breaks a CHECK (e.g. negative counts).
        """
        changes = _given(
            user_id=user_id,
            display_name=display_name,
            color=color,
            is_ai=is_ai,
            ai_kind=ai_kind,
            expiries_in_row=expiries_in_row,
            ai_permanent=ai_permanent,
            vacation_used_s=vacation_used_s,
            vacation_until=vacation_until,
            resigned=resigned,
        )
        async with self._writing() as conn:
            if changes:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                try:
                    async with conn.execute(
                        f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
                        [*changes.values(), game_id, seat],
                    ) as cursor:
                        changed = cursor.rowcount
                except sqlite3.IntegrityError as exc:
                    if "seats.game_id, seats.user_id" in str(exc):
                        raise SeatTaken(game_id, f"user {user_id} already has a seat") from exc
                    raise
                if changed == 0:
                    raise SeatNotFound(game_id, seat)
            row = await _one(
                conn,
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
            if row is None:
                raise SeatNotFound(game_id, seat)
            return _seat_row(row)

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The game's seats ordered by seat number (empty for an unknown game)."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return [_seat_row(r) for r in rows]

    # -- results and statistics ------------------------------------------

    async def record_results(
        self, game_id: int, results: Sequence[PlayerResult]
    ) -> list[ResultRow]:
        """Store a finished game's results, replacing any stored before (so
        calling it again is harmless). Guild, map and finish time come from the
        game. Returns the stored rows by seat.

        Raises:
            GameNotFound: no such game.
            GameStatusError: the game is not ``finished``.
            ValueError: two results for the same seat.
        """
        async with self._writing() as conn:
            game = await _game_header(conn, game_id)
            if game["status"] != "finished":
                raise GameStatusError(game_id, game["status"], "only finished games have results")
            return await _replace_results(conn, game_id, results, self._clock())

    async def results(self, game_id: int) -> list[ResultRow]:
        """A game's stored results ordered by seat."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        return [_result_row(r) for r in rows]

    async def user_history(
        self, user_id: int, limit: int = 10, *, guild_id: int | None = None
    ) -> list[ResultRow]:
        """The user's latest results, newest first, optionally in one guild."""
        sql = f"SELECT {_RESULT_COLUMNS} FROM results WHERE user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY finished_at DESC, game_id DESC LIMIT ?"
        params.append(limit)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [_result_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, limit: int = 10, *, map_id: str | None = None
    ) -> list[LeaderboardRow]:
        """Per-user totals over the guild's recorded games (AI seats left
        out), ranked by wins, then average score, then games played, then
        user id."""
        sql = (
            "SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, AVG(score) AS avg_score,"
            " SUM(tickets_completed) AS tickets_completed, SUM(tickets_failed) AS tickets_failed"
            " FROM results WHERE guild_id = ? AND user_id IS NOT NULL"
        )
        params: list[Any] = [guild_id]
        if map_id is not None:
            sql += " AND map_id = ?"
            params.append(map_id)
        sql += " GROUP BY user_id ORDER BY wins DESC, avg_score DESC, games DESC, user_id LIMIT ?"
        params.append(limit)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [
            LeaderboardRow(
                user_id=r["user_id"],
                games=r["games"],
                wins=r["wins"],
                avg_score=float(r["avg_score"]),
                tickets_completed=r["tickets_completed"],
                tickets_failed=r["tickets_failed"],
            )
            for r in rows
        ]


_NEXT_TIMER_SQL = """
SELECT id, at, kind FROM (
    SELECT id, deadline_at AS at, 'deadline' AS kind FROM games
    WHERE status = 'active' AND deadline_at IS NOT NULL ORDER BY deadline_at LIMIT 1
)
UNION ALL
SELECT id, at, kind FROM (
    SELECT id, reminder_at AS at, 'reminder' AS kind FROM games
    WHERE status = 'active' AND reminder_at IS NOT NULL ORDER BY reminder_at LIMIT 1
)
ORDER BY at, kind
LIMIT 1
"""


# -- helpers (run inside a held lock) --------------------------------------


async def _scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0] if rows else None


async def _one(
    conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()
) -> sqlite3.Row | None:
    rows = list(await conn.execute_fetchall(sql, tuple(params)))
    return rows[0] if rows else None


async def _game_or_none(conn: aiosqlite.Connection, game_id: int) -> GameRow | None:
    row = await _one(conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    return None if row is None else _game_row(row)


async def _game(conn: aiosqlite.Connection, game_id: int) -> GameRow:
    game = await _game_or_none(conn, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


async def _game_header(conn: aiosqlite.Connection, game_id: int) -> sqlite3.Row:
    """id, status, version, guild_id, map_id, finished_at without decoding the snapshot."""
    row = await _one(
        conn,
        "SELECT id, status, version, guild_id, map_id, finished_at FROM games WHERE id = ?",
        (game_id,),
    )
    if row is None:
        raise GameNotFound(game_id)
    return row


async def _update_game(
    conn: aiosqlite.Connection, game_id: int, changes: dict[str, Any], now: float
) -> None:
    changes = {**changes, "updated_at": now}
    assignments = ", ".join(f"{column} = ?" for column in changes)
    async with conn.execute(
        f"UPDATE games SET {assignments} WHERE id = ?", [*changes.values(), game_id]
    ) as cursor:
        if cursor.rowcount == 0:
            raise GameNotFound(game_id)


async def _insert_seat(
    conn: aiosqlite.Connection, game_id: int, new_seat: NewSeat, now: float
) -> SeatRow:
    number = new_seat.seat
    if number is None:
        taken = {
            r[0]
            for r in await conn.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ?", (game_id,)
            )
        }
        number = next(n for n in range(len(taken) + 1) if n not in taken)
    try:
        await conn.execute(
            "INSERT INTO seats (game_id, seat, user_id, display_name, color, is_ai, ai_kind,"
            " joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                number,
                new_seat.user_id,
                new_seat.display_name,
                new_seat.color,
                int(new_seat.is_ai),
                new_seat.ai_kind,
                now,
            ),
        )
    except sqlite3.IntegrityError as exc:
        message = str(exc)
        if "seats.game_id, seats.user_id" in message:
            raise SeatTaken(game_id, f"user {new_seat.user_id} already has a seat") from exc
        if "seats.game_id, seats.seat" in message:
            raise SeatTaken(game_id, f"seat {number} is taken") from exc
        raise
    row = await _one(
        conn,
        f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?",
        (game_id, number),
    )
    assert row is not None
    return _seat_row(row)


async def _replace_results(
    conn: aiosqlite.Connection, game_id: int, results: Sequence[PlayerResult], now: float
) -> list[ResultRow]:
    seats = [r.seat for r in results]
    if len(set(seats)) != len(seats):
        raise ValueError(f"game {game_id}: two results for one seat in {seats}")
    game = await _game_header(conn, game_id)
    finished_at = game["finished_at"] if game["finished_at"] is not None else now
    await conn.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
    await conn.executemany(
        f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                r.seat,
                r.user_id,
                game["guild_id"],
                game["map_id"],
                r.score,
                r.rank,
                int(r.won),
                r.tickets_completed,
                r.tickets_failed,
                finished_at,
            )
            for r in results
        ],
    )
    rows = await conn.execute_fetchall(
        f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [_result_row(r) for r in rows]


def _given(**values: Any) -> dict[str, Any]:
    """The arguments that were passed, bools stored as 0/1."""
    return {k: int(v) if isinstance(v, bool) else v for k, v in values.items() if v is not _UNSET}


def _filters(**equal: Any) -> tuple[str, list[Any]]:
    given = {k: v for k, v in equal.items() if v is not None}
    if not given:
        return "", []
    return " WHERE " + " AND ".join(f"{k} = ?" for k in given), list(given.values())


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _game_row(r: sqlite3.Row) -> GameRow:
    return GameRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        thread_id=r["thread_id"],
        lobby_message_id=r["lobby_message_id"],
        board_message_id=r["board_message_id"],
        host_user_id=r["host_user_id"],
        map_id=r["map_id"],
        options=json.loads(r["options"]),
        status=r["status"],
        seed=r["seed"],
        engine_version=r["engine_version"],
        version=r["version"],
        snapshot=_loads(r["snapshot"]),
        turn_seconds=r["turn_seconds"],
        deadline_at=r["deadline_at"],
        reminder_at=r["reminder_at"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        finished_at=r["finished_at"],
    )


def _seat_row(r: sqlite3.Row) -> SeatRow:
    return SeatRow(
        game_id=r["game_id"],
        seat=r["seat"],
        user_id=r["user_id"],
        display_name=r["display_name"],
        color=r["color"],
        is_ai=bool(r["is_ai"]),
        ai_kind=r["ai_kind"],
        joined_at=r["joined_at"],
        expiries_in_row=r["expiries_in_row"],
        ai_permanent=bool(r["ai_permanent"]),
        vacation_used_s=r["vacation_used_s"],
        vacation_until=r["vacation_until"],
        resigned=bool(r["resigned"]),
    )


def _action_row(r: sqlite3.Row) -> ActionRow:
    return ActionRow(
        game_id=r["game_id"],
        seq=r["seq"],
        seat=r["seat"],
        action=json.loads(r["action"]),
        actor_user_id=r["actor_user_id"],
        source=r["source"],
        created_at=r["created_at"],
    )


def _result_row(r: sqlite3.Row) -> ResultRow:
    return ResultRow(
        game_id=r["game_id"],
        seat=r["seat"],
        user_id=r["user_id"],
        guild_id=r["guild_id"],
        map_id=r["map_id"],
        score=r["score"],
        rank=r["rank"],
        won=bool(r["won"]),
        tickets_completed=r["tickets_completed"],
        tickets_failed=r["tickets_failed"],
        finished_at=r["finished_at"],
    )
