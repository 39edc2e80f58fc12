"""What every part of the SQL storage shares: the driver interface, columns, rows, snapshots.

Every storage method is written once in SQL both backends understand, over a
small driver interface (:class:`Tx`: ``fetch``/``fetchrow``/``execute`` with
``?`` placeholders). The SQLite and PostgreSQL backends only supply
connections, transactions and error translation (:class:`SqlBase`'s hooks
``_read``, ``_consistent_read``, ``_write``); the SQL, the checks and the
rows are the same for both, so the same test suite proves both. The methods
live with what they store: games (``_games``), seats (``_seats``), the action
log and snapshots (``_actions``), timers (``_timers``), results
(``_results``), user settings (``_settings``) and whole-game copies
(``_copies``); :class:`~bot.host.storage._repository.SqlStorage` is all of them.

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
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol, Self

from ._errors import ConstraintError, CorruptGame, GameNotFound
from ._rows import ActionRow, GameRow, ResultRow, SeatRow

log = logging.getLogger("bot.host.storage")


class Row(Protocol):
    """A result row of either driver (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: str) -> Any: ...


class Tx(Protocol):
    """One connection inside a transaction (or a plain read), ``?`` placeholders.

    Drivers raise :class:`Violation` for a broken constraint and
    :class:`~bot.host.storage.StorageFull` for a full disk.
    """

    async def fetch(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def execute(self, sql: str, *args: Any) -> int: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class Violation(ConstraintError):
    """A constraint the database refused, translated by the driver (a
    :class:`~bot.host.storage.ConstraintError` when no method turns it into a
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
    " status_note, timer_at, rated, hints_allowed, paused_at"
)
SEAT_COLUMNS = (
    "game_id, seat, user_id, display_name, color, is_ai, ai_kind, joined_at,"
    " expiries_in_row, ai_permanent, vacation_used_s, vacation_until, resigned, hints_used"
)
ACTION_COLUMNS = "game_id, seq, seat, action, actor_user_id, source, created_at"
RESULT_COLUMNS = (
    "game_id, seat, user_id, guild_id, map_id, score, rank, won, tickets_completed,"
    " tickets_failed, finished_at, player, place, longest_path_bonus"
)
SNAPSHOT_COLUMNS = "game_id, version, format, data, created_at"
GUILD_SETTINGS_COLUMNS = (
    "guild_id, language, turn_seconds, rated, hints, channels, updated_at, updated_by"
)
LADDER_COLUMNS = "guild_id, season, rated_games, updated_at"
SEASON_COLUMNS = "guild_id, season, started_at, started_by"
RATED_GAME_COLUMNS = "game_id, guild_id, season, seq, map_id, rated_at"
RATING_COLUMNS = "guild_id, season, scope, player, user_id, mu, sigma, games, updated_at"
RATING_HISTORY_COLUMNS = (
    "game_id, scope, player, user_id, mu_before, sigma_before, mu_after, sigma_after, games"
)
ANALYSIS_COLUMNS = "game_id, status, queued_at, started_at, finished_at, attempts, data, note"


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


class SqlBase:
    """The driver hooks every part of the SQL storage works through. A backend supplies
    ``_read``, ``_consistent_read``, ``_write``, ``close``, ``integrity_check`` and
    ``schema_version``."""

    #: ``"sqlite"`` or ``"postgres"``.
    backend: ClassVar[str] = ""

    def __init__(self, *, clock: Any) -> None:
        self._clock = clock
        #: A printable name of the database (a path, or a URL without password).
        self.url = ""

    def _read(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def _consistent_read(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def _write(self, game_id: int | None = None) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    async def _after_restore(self, tx: Tx) -> None:
        """Backend work after games were inserted with explicit ids."""

    async def _lock_games(self, tx: Tx, game_ids: Sequence[int]) -> None:
        """Hold the write locks of several games until ``tx`` ends (PostgreSQL's advisory locks,
        taken in id order; SQLite's one writer needs none)."""

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# -- helpers (run inside a transaction) ----------------------------------------------


async def game_or_none(tx: Tx, game_id: int) -> GameRow | None:
    row = await tx.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id)
    return None if row is None else game_row(row)


async def existing_game(tx: Tx, game_id: int) -> GameRow:
    game = await game_or_none(tx, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


async def game_header(tx: Tx, game_id: int) -> Row:
    """id, status, version, guild_id, map_id, finished_at, deadline_at, reminder_at, rated,
    paused_at (no JSON decoded)."""
    row = await tx.fetchrow(
        "SELECT id, status, version, guild_id, map_id, finished_at, deadline_at, reminder_at,"
        " rated, paused_at FROM games WHERE id = ?",
        game_id,
    )
    if row is None:
        raise GameNotFound(game_id)
    return row


async def update_game(tx: Tx, game_id: int, changes: Mapping[str, Any], now: float) -> None:
    changes = {**changes, "updated_at": now}
    assignments = ", ".join(f"{column} = ?" for column in changes)
    if not await tx.execute(
        f"UPDATE games SET {assignments} WHERE id = ?", *changes.values(), game_id
    ):
        raise GameNotFound(game_id)


def given(**values: Any) -> dict[str, Any]:
    """The arguments that were passed (not :data:`UNSET`)."""
    return {k: v for k, v in values.items() if v is not UNSET}


def filters(**equal: Any) -> tuple[str, list[Any]]:
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
        rated=bool(r["rated"]),
        hints_allowed=bool(r["hints_allowed"]),
        paused_at=r["paused_at"],
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
        hints_used=r["hints_used"],
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
        player=r["player"],
        place=r["place"],
        longest_path_bonus=None
        if r["longest_path_bonus"] is None
        else bool(r["longest_path_bonus"]),
    )
