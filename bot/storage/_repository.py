"""Every storage method, written once in SQL both backends understand.

:class:`SqlStorage` implements :class:`~bot.storage.Storage` over a small
driver interface (:class:`Tx`: ``fetch``/``fetchrow``/``execute`` with ``?``
placeholders). The SQLite and PostgreSQL backends only supply connections,
transactions and error translation (``_read``, ``_consistent_read``,
``_write``); the SQL, the checks and the rows are the same for both, so the
same test suite proves both.

Write transactions take the game's id: PostgreSQL holds
``pg_advisory_xact_lock(game_id)`` for the whole transaction, so two
processes never write the same game at once, and every versioned write also
checks ``version`` (optimistic concurrency). SQLite writes are serialised by
``BEGIN IMMEDIATE``.
"""

from __future__ import annotations

import enum
import json
import logging
import zlib
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol, Self

from ._errors import (
    ChannelBusy,
    ConstraintError,
    CorruptGame,
    GameNotFound,
    GameStatusError,
    SeatNotFound,
    SeatTaken,
    StorageError,
    VersionConflict,
)
from ._rows import (
    DEFAULT_TURN_SECONDS,
    FINAL_STATUSES,
    LANGUAGES,
    SEAT_CHANGE_COLUMNS,
    USER_SETTING_NAMES,
    ActionRow,
    ActionSource,
    Checkpoint,
    GameDump,
    GameRow,
    GameStatus,
    LeaderboardRow,
    NewAction,
    NewSeat,
    NextTimer,
    PlayerResult,
    QuarantinedGame,
    ResultRow,
    SeatChanges,
    SeatRow,
    ShardFilter,
    TimerKind,
    UserSettings,
)

log = logging.getLogger("bot.storage")


class Row(Protocol):
    """A result row of either driver (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: str) -> Any: ...


class Tx(Protocol):
    """One connection inside a transaction (or a plain read), ``?`` placeholders.

    Drivers raise :class:`Violation` for a broken constraint and
    :class:`~bot.storage.StorageFull` for a full disk.
    """

    async def fetch(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def execute(self, sql: str, *args: Any) -> int: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class Violation(ConstraintError):
    """A constraint the database refused, translated by the driver (a
    :class:`~bot.storage.ConstraintError` when no method turns it into a
    more specific error).

    ``kind``: ``"channel"`` (second open game in a channel), ``"seat"`` (seat
    number taken), ``"user"`` (user already seated), ``"game"`` (game id
    taken), ``"check"``, ``"foreign_key"`` or ``"other"``.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class _Unset(enum.Enum):
    """Marker for "leave this column as it is" where None is a real value."""

    UNSET = enum.auto()


UNSET = _Unset.UNSET
Unset = _Unset

GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, host_user_id,"
    " map_id, options, status, seed, engine_version, version, snapshot_version, language,"
    " rematch_of, turn_seconds, deadline_at, reminder_at, created_at, updated_at, finished_at,"
    " status_note, timer_at"
)
SEAT_COLUMNS = (
    "game_id, seat, user_id, display_name, color, is_ai, ai_kind, joined_at,"
    " expiries_in_row, ai_permanent, vacation_used_s, vacation_until, resigned"
)
ACTION_COLUMNS = "game_id, seq, seat, action, actor_user_id, source, created_at"
RESULT_COLUMNS = (
    "game_id, seat, user_id, guild_id, map_id, score, rank, won, tickets_completed,"
    " tickets_failed, finished_at"
)
SNAPSHOT_COLUMNS = "game_id, version, format, data, created_at"
# the games and seats tables share no column name, so one join reads both (a LEFT JOIN:
# a game without seats still comes back, as one row whose seat columns are NULL)
_GAME_WITH_SEATS = (
    "SELECT "
    + ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
    + ", "
    + ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))
    + " FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat"
)
_BOOL_COLUMNS = frozenset({"is_ai", "ai_permanent", "resigned", "won"})

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

NEXT_TIMER_SQL = """
SELECT id, timer_at, deadline_at FROM games
WHERE status = 'active' AND timer_at IS NOT NULL{shards}
ORDER BY timer_at
LIMIT 1
"""


def timer_at(deadline_at: float | None, reminder_at: float | None) -> float | None:
    """The sooner of a game's two timers (None when neither is set): ``games.timer_at``."""
    if deadline_at is None:
        return reminder_at
    if reminder_at is None:
        return deadline_at
    return min(deadline_at, reminder_at)


def dump_json(value: Any) -> str:
    """Compact, key-sorted UTF-8 JSON as stored in every JSON column.

    Raises:
        TypeError: a value that JSON cannot encode.
        ValueError: NaN or infinity (not valid JSON).
    """
    return json.dumps(
        value, separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False
    )


def encode_snapshot(snapshot: Mapping[str, Any]) -> tuple[str, bytes]:
    """``(format, data)`` as stored: zlib-compressed compact JSON (``"zjson"``).

    Raises:
        TypeError, ValueError: the snapshot is not JSON (see :func:`dump_json`).
    """
    return "zjson", zlib.compress(dump_json(snapshot).encode("utf-8"), 6)


def decode_snapshot(game_id: int, fmt: str, data: bytes | str) -> dict[str, Any]:
    """The snapshot dict back from its stored ``(format, data)``.

    Raises:
        CorruptGame: unknown format, bad compressed data or bad JSON.
    """
    try:
        if fmt == "zjson":
            raw: bytes | str = zlib.decompress(data if isinstance(data, bytes) else b"")
        elif fmt == "json":
            raw = data
        else:
            raise CorruptGame(game_id, f"the snapshot has an unknown format {fmt!r}")
        value = json.loads(raw)
    except zlib.error:
        raise CorruptGame(game_id, "the snapshot is not readable (bad compressed data)") from None
    except (ValueError, UnicodeDecodeError):
        raise CorruptGame(game_id, "the snapshot is not readable (bad JSON)") from None
    if not isinstance(value, dict):
        raise CorruptGame(game_id, "the snapshot is not readable (not a JSON object)")
    return value


class SqlStorage:
    """The repository over a driver; see :class:`~bot.storage.Storage` for
    what every method does. Subclasses supply ``_read``, ``_consistent_read``,
    ``_write``, ``close``, ``integrity_check`` and ``schema_version``."""

    #: ``"sqlite"`` or ``"postgres"``.
    backend: ClassVar[str] = ""

    def __init__(self, *, clock: Any) -> None:
        self._clock = clock
        #: A printable name of the database (a path, or a URL without password).
        self.url = ""

    # -- driver hooks -------------------------------------------------------

    def _read(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def _consistent_read(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def _write(self, game_id: int | None = None) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    async def _after_restore(self, tx: Tx) -> None:
        """Backend work after games were inserted with explicit ids."""

    async def _advance(
        self,
        game_id: int,
        expected_version: int,
        changes: Mapping[str, Any],
        rows: Sequence[Sequence[Any]],
    ) -> Row | None:
        """In one write transaction under the game's lock: set ``changes`` on the game's row
        if it is active at ``expected_version`` and append the action ``rows``; the game's
        new row, or None (nothing written) when the row was not at that version or not
        active. A backend may do it in fewer round trips."""
        async with self._write(game_id) as tx:
            return await _advance_in(tx, game_id, expected_version, changes, rows)

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- games --------------------------------------------------------------

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
                    " rematch_of, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?)"
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
                    now,
                    now,
                )
            except Violation as exc:
                if exc.kind == "channel":
                    raise ChannelBusy(channel_id, None) from exc
                raise
            assert row is not None
            game = game_row(row)
            for new_seat in seats:
                await _insert_seat(tx, game.id, new_seat, now)
        log.info("created game %s in channel %s (map %s)", game.id, channel_id, map_id)
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._read() as tx:
            return await _game_or_none(tx, game_id)

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
        clauses, params = _filters(status=status, guild_id=guild_id)
        async with self._read() as tx:
            rows = await tx.fetch(f"SELECT {GAME_COLUMNS} FROM games{clauses} ORDER BY id", *params)
        return [game_row(r) for r in rows]

    async def game_ids(self, status: GameStatus | None = None) -> list[int]:
        clauses, params = _filters(status=status)
        async with self._read() as tx:
            rows = await tx.fetch(f"SELECT id FROM games{clauses} ORDER BY id", *params)
        return [int(r["id"]) for r in rows]

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
            head = await _header(tx, game_id)
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
            await _put_snapshot(tx, game_id, version, fmt, data, now)
            game = game_row(row)
        log.info("started game %s", game_id)  # never the seed (issue 12.1)
        return game

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        action: Mapping[str, Any],
        seat: int | None,
        deadline_at: float | None,
        reminder_at: float | None,
        new_snapshot: Mapping[str, Any] | None = None,
        source: ActionSource = "player",
        actor_user_id: int | None = None,
        new_status: GameStatus | None = None,
        results: Sequence[PlayerResult] | None = None,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        return await self.append_actions(
            game_id,
            expected_version,
            [NewAction(dict(action), seat, source, actor_user_id)],
            deadline_at=deadline_at,
            reminder_at=reminder_at,
            new_snapshot=new_snapshot,
            new_status=new_status,
            results=results,
            seat_changes=seat_changes,
        )

    async def append_actions(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[NewAction],
        *,
        deadline_at: float | None,
        reminder_at: float | None,
        new_snapshot: Mapping[str, Any] | None = None,
        new_status: GameStatus | None = None,
        results: Sequence[PlayerResult] | None = None,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        if not actions:
            raise ValueError("append_actions needs at least one action")
        if new_status is not None and new_status not in FINAL_STATUSES:
            raise ValueError(f"append_actions can only end a game, not set {new_status!r}")
        if results is not None and new_status != "finished":
            raise ValueError("results can only be recorded with new_status='finished'")
        version = expected_version + len(actions)
        now = self._clock()
        rows = [
            (game_id, expected_version + i, a.seat, dump_json(dict(a.action)), a.actor_user_id,
             a.source, now)
            for i, a in enumerate(actions, start=1)
        ]  # fmt: skip
        snap = None if new_snapshot is None else encode_snapshot(new_snapshot)
        seat_columns = {s: _seat_assignments(c) for s, c in (seat_changes or {}).items()}
        finished_at = now if new_status is not None else None
        if new_status is not None:
            deadline_at = reminder_at = None
        # only the columns that change: an index on a column named in SET is rewritten even
        # when the value stays (the open-game index on status: one page per move saved)
        changes: dict[str, Any] = {
            "version": version,
            "deadline_at": deadline_at,
            "reminder_at": reminder_at,
            "timer_at": timer_at(deadline_at, reminder_at),
            "updated_at": now,
        }
        if new_status is not None:
            changes.update(status=new_status, finished_at=finished_at)
        if snap is not None:
            changes["snapshot_version"] = version
        if snap is None and not seat_columns and results is None and new_status is None:
            # the common move: the game's row and the log only (one round trip on PostgreSQL)
            row = await self._advance(game_id, expected_version, changes, rows)
            if row is None:
                async with self._read() as tx:
                    raise _refusal(await _header(tx, game_id), expected_version)
        else:
            async with self._write(game_id) as tx:
                row = await _advance_in(tx, game_id, expected_version, changes, rows)
                if row is None:
                    raise _refusal(await _header(tx, game_id), expected_version)
                if snap is not None:
                    await _put_snapshot(tx, game_id, version, snap[0], snap[1], now)
                for number, columns in seat_columns.items():
                    await _update_seat(tx, game_id, number, columns)
                if results is not None:
                    await _replace_results(tx, game_id, results, now)
        game = game_row(row)
        log.debug("game %s: actions %s-%s stored", game_id, expected_version + 1, version)
        return game

    async def load_checkpoint(self, game_id: int) -> Checkpoint | None:
        async with self._consistent_read() as tx:
            head = await tx.fetchrow(
                "SELECT version, snapshot_version FROM games WHERE id = ?", game_id
            )
            if head is None or head["snapshot_version"] is None:
                return None
            snap = await tx.fetchrow(
                "SELECT version, format, data FROM snapshots WHERE game_id = ?", game_id
            )
            if snap is None:
                raise CorruptGame(game_id, "the snapshot is missing")
            rows = await tx.fetch(
                f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                game_id,
                snap["version"],
            )
        version, base = int(head["version"]), int(snap["version"])
        actions = tuple(action_row(r) for r in rows)
        if [a.seq for a in actions] != list(range(base + 1, version + 1)):
            raise CorruptGame(
                game_id,
                f"the log after the snapshot (version {base}) does not reach version {version}",
            )
        return Checkpoint(
            game_id=game_id,
            version=base,
            snapshot=decode_snapshot(game_id, str(snap["format"]), snap["data"]),
            actions=actions,
            game_version=version,
        )

    async def actions(
        self, game_id: int, after_seq: int = 0, *, limit: int | None = None
    ) -> list[ActionRow]:
        sql = f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq"
        params: list[Any] = [game_id, after_seq]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        async with self._read() as tx:
            rows = await tx.fetch(sql, *params)
        return [action_row(r) for r in rows]

    async def set_message_ids(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None | Unset = UNSET,
        board_message_id: int | None | Unset = UNSET,
    ) -> None:
        changes = _given(lobby_message_id=lobby_message_id, board_message_id=board_message_id)
        async with self._write(game_id) as tx:
            await _update_game(tx, game_id, changes, self._clock())

    async def set_status(
        self, game_id: int, status: GameStatus, *, expected_version: int | None = None
    ) -> GameRow:
        now = self._clock()
        async with self._write(game_id) as tx:
            current = await _game(tx, game_id)
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

    async def set_deadline(
        self,
        game_id: int,
        deadline_at: float | None,
        reminder_at: float | None,
        *,
        expected_version: int | None = None,
    ) -> None:
        now = self._clock()
        async with self._write(game_id) as tx:
            sql = (
                "UPDATE games SET deadline_at = ?, reminder_at = ?, timer_at = ?, updated_at = ?"
                " WHERE id = ?"
            )
            params: list[Any] = [
                deadline_at,
                reminder_at,
                timer_at(deadline_at, reminder_at),
                now,
                game_id,
            ]
            if expected_version is not None:
                sql += " AND version = ?"
                params.append(expected_version)
            if await tx.execute(sql, *params) == 0:
                head = await _header(tx, game_id)
                raise VersionConflict(game_id, expected_version or 0, int(head["version"]))

    async def claim_reminder(self, game_id: int, when: float) -> bool:
        async with self._write(game_id) as tx:
            changed = await tx.execute(
                "UPDATE games SET reminder_at = NULL, timer_at = deadline_at, updated_at = ?"
                " WHERE id = ? AND reminder_at = ? AND status = 'active'",
                self._clock(),
                game_id,
                when,
            )
        return changed > 0

    async def next_deadline(self, shards: ShardFilter | None = None) -> NextTimer | None:
        sql, params = next_timer_query(shards)
        async with self._read() as tx:
            row = await tx.fetchrow(sql, *params)
        if row is None:
            return None
        when = float(row["timer_at"])
        deadline = row["deadline_at"]
        kind: TimerKind = "deadline" if deadline is not None and deadline <= when else "reminder"
        return NextTimer(int(row["id"]), when, kind)

    async def delete_game(self, game_id: int) -> bool:
        async with self._write(game_id) as tx:
            deleted = await tx.execute("DELETE FROM games WHERE id = ?", game_id) > 0
        if deleted:
            log.info("deleted game %s", game_id)
        return deleted

    # -- seats --------------------------------------------------------------

    async def add_seat(self, game_id: int, new_seat: NewSeat) -> SeatRow:
        now = self._clock()
        async with self._write(game_id) as tx:
            await _header(tx, game_id)
            return await _insert_seat(tx, game_id, new_seat, now)

    async def remove_seat(self, game_id: int, seat: int) -> bool:
        async with self._write(game_id) as tx:
            changed = await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", game_id, seat
            )
        return changed > 0

    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None | Unset = UNSET,
        display_name: str | Unset = UNSET,
        color: str | None | Unset = UNSET,
        is_ai: bool | Unset = UNSET,
        ai_kind: str | None | Unset = UNSET,
        expiries_in_row: int | Unset = UNSET,
        ai_permanent: bool | Unset = UNSET,
        vacation_used_s: float | Unset = UNSET,
        vacation_until: float | None | Unset = UNSET,
        resigned: bool | Unset = UNSET,
    ) -> SeatRow:
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
        async with self._write(game_id) as tx:
            return await _update_seat(tx, game_id, seat, changes)

    async def update_seats(
        self,
        game_id: int,
        changes: Mapping[int, SeatChanges],
        *,
        deadline_at: float | None | Unset = UNSET,
        reminder_at: float | None | Unset = UNSET,
        expected_version: int | None = None,
    ) -> list[SeatRow]:
        assignments = {s: _seat_assignments(c) for s, c in changes.items()}
        timers = _given(deadline_at=deadline_at, reminder_at=reminder_at)
        now = self._clock()
        async with self._write(game_id) as tx:
            head = await _header(tx, game_id)
            if expected_version is not None and int(head["version"]) != expected_version:
                raise VersionConflict(game_id, expected_version, int(head["version"]))
            for number, columns in assignments.items():
                await _update_seat(tx, game_id, number, columns)
            if timers:
                merged = {"deadline_at": head["deadline_at"], "reminder_at": head["reminder_at"]}
                merged.update(timers)
                merged["timer_at"] = timer_at(merged["deadline_at"], merged["reminder_at"])
                await _update_game(tx, game_id, merged, now)
            rows = await tx.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id
            )
        return [seat_row(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id
            )
        return [seat_row(r) for r in rows]

    async def game_with_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        async with self._read() as tx:
            rows = await tx.fetch(_GAME_WITH_SEATS, game_id)
        if not rows:
            return None
        return game_row(rows[0]), [seat_row(r) for r in rows if r["seat"] is not None]

    # -- results and statistics ---------------------------------------------

    async def record_results(
        self, game_id: int, results: Sequence[PlayerResult]
    ) -> list[ResultRow]:
        async with self._write(game_id) as tx:
            head = await _header(tx, game_id)
            if head["status"] != "finished":
                raise GameStatusError(game_id, head["status"], "only finished games have results")
            return await _replace_results(tx, game_id, results, self._clock())

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", game_id
            )
        return [result_row(r) for r in rows]

    async def user_history(
        self, user_id: int, limit: int = 10, *, guild_id: int | None = None
    ) -> list[ResultRow]:
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY finished_at DESC, game_id DESC LIMIT ?"
        params.append(limit)
        async with self._read() as tx:
            rows = await tx.fetch(sql, *params)
        return [result_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, limit: int = 10, *, map_id: str | None = None
    ) -> list[LeaderboardRow]:
        sql = (
            "SELECT user_id, COUNT(*) AS games, SUM(CASE WHEN won THEN 1 ELSE 0 END) AS wins,"
            " AVG(score) AS avg_score, SUM(tickets_completed) AS tickets_completed,"
            " SUM(tickets_failed) AS tickets_failed"
            " FROM results WHERE guild_id = ? AND user_id IS NOT NULL"
        )
        params: list[Any] = [guild_id]
        if map_id is not None:
            sql += " AND map_id = ?"
            params.append(map_id)
        sql += " GROUP BY user_id ORDER BY wins DESC, avg_score DESC, games DESC, user_id LIMIT ?"
        params.append(limit)
        async with self._read() as tx:
            rows = await tx.fetch(sql, *params)
        return [
            LeaderboardRow(
                user_id=int(r["user_id"]),
                games=int(r["games"]),
                wins=int(r["wins"]),
                avg_score=float(r["avg_score"]),
                tickets_completed=int(r["tickets_completed"]),
                tickets_failed=int(r["tickets_failed"]),
            )
            for r in rows
        ]

    # -- user settings ------------------------------------------------------

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

    # -- copying games between databases ------------------------------------

    async def dump_game(self, game_id: int) -> GameDump | None:
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
        return GameDump(
            game=_plain(game, GAME_COLUMNS),
            seats=tuple(_plain(r, SEAT_COLUMNS) for r in seats),
            actions=tuple(_plain(r, ACTION_COLUMNS) for r in actions),
            results=tuple(_plain(r, RESULT_COLUMNS) for r in results),
            snapshot=None if snap is None else _plain(snap, SNAPSHOT_COLUMNS),
        )

    async def restore_game(self, dump: GameDump) -> None:
        async with self._write(dump.game_id) as tx:
            try:
                await _insert_plain(tx, "games", GAME_COLUMNS, [dump.game])
                await _insert_plain(tx, "seats", SEAT_COLUMNS, dump.seats)
                await _insert_plain(tx, "actions", ACTION_COLUMNS, dump.actions)
                await _insert_plain(tx, "results", RESULT_COLUMNS, dump.results)
                if dump.snapshot is not None:
                    await _insert_plain(tx, "snapshots", SNAPSHOT_COLUMNS, [dump.snapshot])
            except Violation as exc:
                if exc.kind == "channel":
                    raise ChannelBusy(int(dump.game["channel_id"]), None) from exc
                if exc.kind == "game":
                    raise StorageError(f"game {dump.game_id} already exists here") from exc
                raise
            await self._after_restore(tx)


# -- helpers (run inside a transaction) ----------------------------------------------


def next_timer_query(shards: ShardFilter | None) -> tuple[str, list[Any]]:
    """The timer query and its parameters, limited to ``shards`` when given."""
    if shards is None or shards.everything:
        return NEXT_TIMER_SQL.format(shards=""), []
    ids = sorted(shards.ids)
    clause = f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
    return NEXT_TIMER_SQL.format(shards=clause), [shards.count, *ids]


async def _advance_in(
    tx: Tx,
    game_id: int,
    expected_version: int,
    changes: Mapping[str, Any],
    rows: Sequence[Sequence[Any]],
) -> Row | None:
    """:meth:`SqlStorage._advance` inside the open transaction ``tx``."""
    assignments = ", ".join(f"{column} = ?" for column in changes)
    row = await tx.fetchrow(
        f"UPDATE games SET {assignments}"
        f" WHERE id = ? AND version = ? AND status = 'active' RETURNING {GAME_COLUMNS}",
        *changes.values(),
        game_id,
        expected_version,
    )
    if row is not None:
        await tx.executemany(
            f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows
        )
    return row


def _refusal(head: Row, expected_version: int) -> GameStatusError | VersionConflict:
    """Why a game whose header is ``head`` refused actions at ``expected_version``."""
    game_id = int(head["id"])
    if head["status"] != "active":
        return GameStatusError(game_id, head["status"], "only an active game takes actions")
    return VersionConflict(game_id, expected_version, int(head["version"]))


async def _game_or_none(tx: Tx, game_id: int) -> GameRow | None:
    row = await tx.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id)
    return None if row is None else game_row(row)


async def _game(tx: Tx, game_id: int) -> GameRow:
    game = await _game_or_none(tx, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


async def _header(tx: Tx, game_id: int) -> Row:
    """id, status, version, guild_id, map_id, finished_at, deadline_at, reminder_at (no JSON
    decoded)."""
    row = await tx.fetchrow(
        "SELECT id, status, version, guild_id, map_id, finished_at, deadline_at, reminder_at"
        " FROM games WHERE id = ?",
        game_id,
    )
    if row is None:
        raise GameNotFound(game_id)
    return row


async def _update_game(tx: Tx, game_id: int, changes: Mapping[str, Any], now: float) -> None:
    changes = {**changes, "updated_at": now}
    assignments = ", ".join(f"{column} = ?" for column in changes)
    if not await tx.execute(
        f"UPDATE games SET {assignments} WHERE id = ?", *changes.values(), game_id
    ):
        raise GameNotFound(game_id)


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


async def _put_snapshot(
    tx: Tx, game_id: int, version: int, fmt: str, data: bytes, now: float
) -> None:
    await tx.execute(
        f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
        " format = excluded.format, data = excluded.data, created_at = excluded.created_at",
        game_id,
        version,
        fmt,
        data,
        now,
    )


async def _insert_seat(tx: Tx, game_id: int, new_seat: NewSeat, now: float) -> SeatRow:
    number = new_seat.seat
    if number is None:
        taken = {
            int(r["seat"])
            for r in await tx.fetch("SELECT seat FROM seats WHERE game_id = ?", game_id)
        }
        number = next(n for n in range(len(taken) + 1) if n not in taken)
    try:
        row = await tx.fetchrow(
            "INSERT INTO seats (game_id, seat, user_id, display_name, color, is_ai, ai_kind,"
            f" joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING {SEAT_COLUMNS}",
            game_id,
            number,
            new_seat.user_id,
            new_seat.display_name,
            new_seat.color,
            bool(new_seat.is_ai),
            new_seat.ai_kind,
            now,
        )
    except Violation as exc:
        if exc.kind == "user":
            raise SeatTaken(game_id, f"user {new_seat.user_id} already has a seat") from exc
        if exc.kind == "seat":
            raise SeatTaken(game_id, f"seat {number} is taken") from exc
        raise
    assert row is not None
    return seat_row(row)


def _seat_assignments(changes: SeatChanges | Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(changes) - SEAT_CHANGE_COLUMNS)
    if unknown:
        raise ValueError(f"cannot change seat columns {unknown}")
    return dict(changes)


async def _update_seat(tx: Tx, game_id: int, seat: int, changes: Mapping[str, Any]) -> SeatRow:
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        try:
            row = await tx.fetchrow(
                f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?"
                f" RETURNING {SEAT_COLUMNS}",
                *changes.values(),
                game_id,
                seat,
            )
        except Violation as exc:
            if exc.kind == "user":
                raise SeatTaken(
                    game_id, f"user {changes.get('user_id')} already has a seat"
                ) from exc
            raise
    else:
        row = await tx.fetchrow(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?", game_id, seat
        )
    if row is None:
        raise SeatNotFound(game_id, seat)
    return seat_row(row)


async def _replace_results(
    tx: Tx, game_id: int, results: Sequence[PlayerResult], now: float
) -> list[ResultRow]:
    seats = [r.seat for r in results]
    if len(set(seats)) != len(seats):
        raise ValueError(f"game {game_id}: two results for one seat in {seats}")
    game = await _header(tx, game_id)
    finished_at = game["finished_at"] if game["finished_at"] is not None else now
    await tx.execute("DELETE FROM results WHERE game_id = ?", game_id)
    await tx.executemany(
        f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                r.seat,
                r.user_id,
                game["guild_id"],
                game["map_id"],
                r.score,
                r.rank,
                bool(r.won),
                r.tickets_completed,
                r.tickets_failed,
                finished_at,
            )
            for r in results
        ],
    )
    rows = await tx.fetch(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", game_id
    )
    return [result_row(r) for r in rows]


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


def _given(**values: Any) -> dict[str, Any]:
    """The arguments that were passed (not :data:`UNSET`)."""
    return {k: v for k, v in values.items() if v is not UNSET}


def _filters(**equal: Any) -> tuple[str, list[Any]]:
    given = {k: v for k, v in equal.items() if v is not None}
    if not given:
        return "", []
    return " WHERE " + " AND ".join(f"{k} = ?" for k in given), list(given.values())


def game_row(r: Row) -> GameRow:
    """A :class:`GameRow` from a ``games`` row (raises CorruptGame on bad options JSON)."""
    try:
        options = json.loads(r["options"])
    except (ValueError, TypeError):
        raise CorruptGame(int(r["id"]), "the options are not readable (bad JSON)") from None
    if not isinstance(options, dict):
        raise CorruptGame(int(r["id"]), "the options are not a JSON object")
    return GameRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        thread_id=r["thread_id"],
        lobby_message_id=r["lobby_message_id"],
        board_message_id=r["board_message_id"],
        host_user_id=r["host_user_id"],
        map_id=r["map_id"],
        options=options,
        status=r["status"],
        seed=r["seed"],
        engine_version=r["engine_version"],
        version=r["version"],
        snapshot_version=r["snapshot_version"],
        language=r["language"],
        rematch_of=r["rematch_of"],
        turn_seconds=r["turn_seconds"],
        deadline_at=r["deadline_at"],
        reminder_at=r["reminder_at"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        finished_at=r["finished_at"],
        status_note=r["status_note"],
    )


def seat_row(r: Row) -> SeatRow:
    """A :class:`SeatRow` from a ``seats`` row."""
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


def action_row(r: Row) -> ActionRow:
    """An :class:`ActionRow` from an ``actions`` row (raises CorruptGame on bad JSON)."""
    try:
        action = json.loads(r["action"])
    except (ValueError, TypeError):
        raise CorruptGame(
            int(r["game_id"]), f"action {r['seq']} is not readable (bad JSON)"
        ) from None
    if not isinstance(action, dict):
        raise CorruptGame(int(r["game_id"]), f"action {r['seq']} is not a JSON object")
    return ActionRow(
        game_id=r["game_id"],
        seq=r["seq"],
        seat=r["seat"],
        action=action,
        actor_user_id=r["actor_user_id"],
        source=r["source"],
        created_at=r["created_at"],
    )


def result_row(r: Row) -> ResultRow:
    """A :class:`ResultRow` from a ``results`` row."""
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


def _settings_row(r: Row) -> UserSettings:
    return UserSettings(
        user_id=r["user_id"],
        turn_pings=bool(r["turn_pings"]),
        dm_turns=bool(r["dm_turns"]),
        high_contrast=bool(r["high_contrast"]),
        updated_at=r["updated_at"],
    )
