"""The action log and snapshots: a move (its actions, the game's new version and timers, and what
changes with it) in one transaction; the newest snapshot with the actions after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._coach import queue_analysis_in
from ._errors import CorruptGame, GameStatusError, VersionConflict
from ._results import replace_results
from ._rows import (
    FINAL_STATUSES,
    ActionRow,
    ActionSource,
    Checkpoint,
    GameRow,
    GameStatus,
    NewAction,
    PlayerResult,
    SeatChanges,
)
from ._seats import seat_assignments, update_seat_row
from ._sql import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    SNAPSHOT_COLUMNS,
    Row,
    SqlBase,
    Tx,
    action_row,
    decode_snapshot,
    dump_json,
    encode_snapshot,
    game_header,
    game_row,
    log,
    timer_at,
)


class SqlActionLog(SqlBase):
    """The actions and snapshots tables (see :class:`~bot.host.storage.ActionLog`)."""

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
            return await advance_in(tx, game_id, expected_version, changes, rows)

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
        seat_columns = {s: seat_assignments(c) for s, c in (seat_changes or {}).items()}
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
                    raise _refusal(await game_header(tx, game_id), expected_version)
        else:
            async with self._write(game_id) as tx:
                row = await advance_in(tx, game_id, expected_version, changes, rows)
                if row is None:
                    raise _refusal(await game_header(tx, game_id), expected_version)
                if snap is not None:
                    await put_snapshot(tx, game_id, version, snap[0], snap[1], now)
                for number, columns in seat_columns.items():
                    await update_seat_row(tx, game_id, number, columns)
                if results is not None:
                    await replace_results(tx, game_id, results, now)
                if new_status == "finished":
                    await queue_analysis_in(tx, game_id, now)
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


async def advance_in(
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
        " WHERE id = ? AND version = ? AND status = 'active' AND paused_at IS NULL"
        f" RETURNING {GAME_COLUMNS}",
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
    """Why a game whose header is ``head`` refused actions at ``expected_version`` (not active,
    paused because its server removed the bot, or moved on)."""
    game_id = int(head["id"])
    if head["status"] != "active":
        return GameStatusError(game_id, head["status"], "only an active game takes actions")
    if head["paused_at"] is not None:
        return GameStatusError(game_id, "paused", "a paused game takes no actions")
    return VersionConflict(game_id, expected_version, int(head["version"]))


async def put_snapshot(
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
