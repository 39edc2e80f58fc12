"""Tournaments: the event, who signed up, each round's tables and seats, their results.

Every write is one transaction. A round's tables and seats are written together with the
tournament's round number (:meth:`TournamentStore.start_round`), so a crash leaves a round
either whole or absent, never half seated; a table's game and result are each one write
of their own, and the service picks up where a crash stopped (a table without a game is
opened again, a round whose tables are all done is followed by the next).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ._errors import StorageError
from ._sql import Row, StorePart, Tx

TournamentFormat = Literal["swiss", "round_robin", "elimination"]
TournamentStatus = Literal["open", "running", "finished", "cancelled"]
#: The formats a tournament can have.
FORMATS: tuple[TournamentFormat, ...] = ("swiss", "round_robin", "elimination")

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, name, maps, format, table_size, rounds, rated, turn_seconds,"
    " language, status, round, created_by, created_at, updated_at"
)


class TournamentRefused(StorageError):
    """A tournament write that does not fit what is stored: ``reason`` is ``not_found``,
    ``not_open`` (sign-up is over), ``already_joined``, ``not_joined``, ``round_moved`` (the
    round was written meanwhile) or ``status`` (not running)."""

    def __init__(self, tournament_id: int, reason: str) -> None:
        super().__init__(f"tournament {tournament_id}: {reason}")
        self.tournament_id = tournament_id
        self.reason = reason


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament: where (``guild_id``, ``channel_id``), its ``name``, ``maps`` (round
    ``r`` plays ``maps[(r - 1) % len(maps)]``), ``format``, ``table_size`` (2-5),
    ``rounds`` planned (0 until the start decides), ``rated``, ``turn_seconds`` (the games'
    turn time), ``language`` (of its public messages), ``status``, the ``round`` it is in (0
    before the start), who opened it (``created_by``, None once forgotten) and when
    (unix seconds)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    maps: tuple[str, ...]
    format: TournamentFormat
    table_size: int
    rounds: int
    rated: bool
    turn_seconds: int
    language: str
    status: TournamentStatus
    round: int
    created_by: int | None
    created_at: float
    updated_at: float

    def map_of(self, round_no: int) -> str:
        """The map of round ``round_no`` (from 1)."""
        return self.maps[(round_no - 1) % len(self.maps)]


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    """A player who signed up: ``user_id`` (negative: a forgotten user's stand-in),
    ``display_name`` ("" once forgotten), sign-up order ``joined`` (from 0) and
    ``left_round`` (left after that round, 0 before the start; None: still in)."""

    user_id: int
    display_name: str
    joined: int
    left_round: int | None

    def plays_in(self, round_no: int) -> bool:
        """Seated in round ``round_no`` unless they left before it."""
        return self.left_round is None or self.left_round >= round_no


@dataclass(frozen=True, slots=True)
class TableSeat:
    """Who sits at a table (``seat`` from 0) and, once it is done, their ``place`` (1 = best,
    ties share it) and final ``score``."""

    seat: int
    user_id: int
    place: int | None
    score: int | None


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """One table of a round: its ``map_id``, ``thread_id`` and ``game_id`` once opened,
    ``done`` once scored, and its ``seats`` (a table of one is a bye, done at once)."""

    round: int
    table_no: int
    map_id: str
    thread_id: int | None
    game_id: int | None
    done: bool
    seats: tuple[TableSeat, ...]

    @property
    def players(self) -> tuple[int, ...]:
        """The user ids in seat order."""
        return tuple(s.user_id for s in self.seats)


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table to seat: its ``map_id`` and ``players`` in seat order (one player: a bye)."""

    map_id: str
    players: tuple[int, ...]


def _tournament(r: Row) -> TournamentRow:
    return TournamentRow(
        id=int(r["id"]),
        guild_id=int(r["guild_id"]),
        channel_id=int(r["channel_id"]),
        name=str(r["name"]),
        maps=tuple(json.loads(r["maps"])),
        format=r["format"],
        table_size=int(r["table_size"]),
        rounds=int(r["rounds"]),
        rated=bool(r["rated"]),
        turn_seconds=int(r["turn_seconds"]),
        language=str(r["language"]),
        status=r["status"],
        round=int(r["round"]),
        created_by=None if r["created_by"] is None else int(r["created_by"]),
        created_at=float(r["created_at"]),
        updated_at=float(r["updated_at"]),
    )


async def _existing(tx: Tx, tournament_id: int) -> TournamentRow:
    row = await tx.fetchrow(
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id
    )
    if row is None:
        raise TournamentRefused(tournament_id, "not_found")
    return _tournament(row)


class TournamentStore(StorePart):
    """Tournaments, their players, tables and seats (see the module docstring)."""

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        maps: Sequence[str],
        format: TournamentFormat,
        table_size: int,
        rounds: int,
        rated: bool,
        turn_seconds: int,
        language: str,
        created_by: int,
    ) -> TournamentRow:
        """Open a tournament for sign-up (status ``open``, round 0).

        Raises:
            ConstraintError: a value outside the schema's checks (format, table size 2-5).
        """
        now = self._clock()
        async with self._write() as tx:
            row = await tx.fetchrow(
                "INSERT INTO tournaments (guild_id, channel_id, name, maps, format, table_size,"
                " rounds, rated, turn_seconds, language, status, round, created_by, created_at,"
                f" updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', 0, ?, ?, ?)"
                f" RETURNING {TOURNAMENT_COLUMNS}",
                guild_id,
                channel_id,
                name,
                json.dumps(list(maps)),
                format,
                table_size,
                rounds,
                bool(rated),
                turn_seconds,
                language,
                created_by,
                now,
                now,
            )
        assert row is not None
        return _tournament(row)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        """The tournament, or None."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id
            )
        return None if row is None else _tournament(row)

    async def in_guild(self, guild_id: int) -> list[TournamentRow]:
        """A server's tournaments, newest first."""
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC",
                guild_id,
            )
        return [_tournament(r) for r in rows]

    async def players(self, tournament_id: int) -> list[TournamentPlayer]:
        """Who signed up, in sign-up order."""
        async with self._read() as tx:
            return await _players(tx, tournament_id)

    async def join(self, tournament_id: int, user_id: int, display_name: str) -> TournamentPlayer:
        """Sign ``user_id`` up (the tournament must be ``open``).

        Raises:
            TournamentRefused: ``not_found``, ``not_open``, ``already_joined``.
        """
        async with self._write() as tx:
            t = await _existing(tx, tournament_id)
            if t.status != "open":
                raise TournamentRefused(tournament_id, "not_open")
            known = {p.user_id: p for p in await _players(tx, tournament_id)}
            if user_id in known:
                raise TournamentRefused(tournament_id, "already_joined")
            joined = max((p.joined for p in known.values()), default=-1) + 1
            await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, display_name, joined)"
                " VALUES (?, ?, ?, ?)",
                tournament_id,
                user_id,
                display_name,
                joined,
            )
            await _touch(tx, tournament_id, self._clock())
        return TournamentPlayer(user_id, display_name, joined, None)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentRow:
        """Take ``user_id`` out: before the start their sign-up goes; once running they
        forfeit every round after the current one (``left_round``).

        Raises:
            TournamentRefused: ``not_found``, ``not_joined`` (never signed up, or left),
                ``status`` (finished or cancelled).
        """
        async with self._write() as tx:
            t = await _existing(tx, tournament_id)
            if t.status not in ("open", "running"):
                raise TournamentRefused(tournament_id, "status")
            me = [p for p in await _players(tx, tournament_id) if p.user_id == user_id]
            if not me or me[0].left_round is not None:
                raise TournamentRefused(tournament_id, "not_joined")
            if t.status == "open":
                await tx.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    tournament_id,
                    user_id,
                )
            else:
                await tx.execute(
                    "UPDATE tournament_players SET left_round = ?"
                    " WHERE tournament_id = ? AND user_id = ?",
                    t.round,
                    tournament_id,
                    user_id,
                )
            await _touch(tx, tournament_id, self._clock())
        return t

    async def start_round(
        self,
        tournament_id: int,
        round_no: int,
        tables: Sequence[NewTable],
        *,
        rounds: int | None = None,
    ) -> TournamentRow:
        """Seat round ``round_no`` (the round after the stored one): the tournament becomes
        ``running`` at that round (``rounds`` planned, when given) and every table and seat
        is written, a table of one (a bye) done at once with place 1, score 0: ONE
        transaction, so a round is whole or absent.

        Raises:
            TournamentRefused: ``not_found``, ``status`` (finished or cancelled),
                ``round_moved`` (the stored round is not ``round_no - 1``).
        """
        now = self._clock()
        async with self._write() as tx:
            t = await _existing(tx, tournament_id)
            if t.status not in ("open", "running"):
                raise TournamentRefused(tournament_id, "status")
            if t.round != round_no - 1:
                raise TournamentRefused(tournament_id, "round_moved")
            await tx.execute(
                "UPDATE tournaments SET status = 'running', round = ?, rounds = ?, updated_at = ?"
                " WHERE id = ?",
                round_no,
                t.rounds if rounds is None else rounds,
                now,
                tournament_id,
            )
            await tx.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, table_no, map_id, done)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (tournament_id, round_no, i, table.map_id, len(table.players) == 1)
                    for i, table in enumerate(tables, 1)
                ],
            )
            await tx.executemany(
                "INSERT INTO tournament_seats (tournament_id, round, table_no, seat, user_id,"
                " place, score) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        round_no,
                        i,
                        seat,
                        user,
                        1 if len(table.players) == 1 else None,
                        0 if len(table.players) == 1 else None,
                    )
                    for i, table in enumerate(tables, 1)
                    for seat, user in enumerate(table.players)
                ],
            )
            return await _existing(tx, tournament_id)

    async def set_table_game(
        self, tournament_id: int, round_no: int, table_no: int, thread_id: int, game_id: int
    ) -> None:
        """Remember the thread and game a table plays in."""
        async with self._write(game_id) as tx:
            await tx.execute(
                "UPDATE tournament_tables SET thread_id = ?, game_id = ?"
                " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                thread_id,
                game_id,
                tournament_id,
                round_no,
                table_no,
            )

    async def record_table(
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        places: Sequence[int],
        scores: Sequence[int],
    ) -> bool:
        """Score a table (each seat's place and score, in seat order) and mark it done: one
        transaction. False when it was done already (nothing written)."""
        async with self._write() as tx:
            changed = await tx.execute(
                "UPDATE tournament_tables SET done = ?"
                " WHERE tournament_id = ? AND round = ? AND table_no = ? AND done = ?",
                True,
                tournament_id,
                round_no,
                table_no,
                False,
            )
            if not changed:
                return False
            await tx.executemany(
                "UPDATE tournament_seats SET place = ?, score = ?"
                " WHERE tournament_id = ? AND round = ? AND table_no = ? AND seat = ?",
                [
                    (place, score, tournament_id, round_no, table_no, seat)
                    for seat, (place, score) in enumerate(zip(places, scores, strict=True))
                ],
            )
            await _touch(tx, tournament_id, self._clock())
        return True

    async def tables(self, tournament_id: int) -> list[TournamentTable]:
        """Every table of every round with its seats, by round and table."""
        async with self._consistent_read() as tx:
            tables = await tx.fetch(
                "SELECT round, table_no, map_id, thread_id, game_id, done FROM tournament_tables"
                " WHERE tournament_id = ? ORDER BY round, table_no",
                tournament_id,
            )
            seats = await tx.fetch(
                "SELECT round, table_no, seat, user_id, place, score FROM tournament_seats"
                " WHERE tournament_id = ? ORDER BY round, table_no, seat",
                tournament_id,
            )
        by_table: dict[tuple[int, int], list[TableSeat]] = {}
        for s in seats:
            by_table.setdefault((int(s["round"]), int(s["table_no"])), []).append(
                TableSeat(
                    int(s["seat"]),
                    int(s["user_id"]),
                    None if s["place"] is None else int(s["place"]),
                    None if s["score"] is None else int(s["score"]),
                )
            )
        return [
            TournamentTable(
                round=int(row["round"]),
                table_no=int(row["table_no"]),
                map_id=str(row["map_id"]),
                thread_id=None if row["thread_id"] is None else int(row["thread_id"]),
                game_id=None if row["game_id"] is None else int(row["game_id"]),
                done=bool(row["done"]),
                seats=tuple(by_table.get((int(row["round"]), int(row["table_no"])), ())),
            )
            for row in tables
        ]

    async def table_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """``(tournament_id, round, table_no)`` of the table that plays ``game_id``, or None."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                "SELECT tournament_id, round, table_no FROM tournament_tables WHERE game_id = ?",
                game_id,
            )
        if row is None:
            return None
        return int(row["tournament_id"]), int(row["round"]), int(row["table_no"])

    async def set_status(
        self, tournament_id: int, status: TournamentStatus, *, expected_round: int | None = None
    ) -> TournamentRow:
        """Finish or cancel a tournament (``expected_round``: only if it is still in it).

        Raises:
            TournamentRefused: ``not_found``, ``status`` (already finished or cancelled),
                ``round_moved``.
        """
        async with self._write() as tx:
            t = await _existing(tx, tournament_id)
            if t.status not in ("open", "running"):
                raise TournamentRefused(tournament_id, "status")
            if expected_round is not None and t.round != expected_round:
                raise TournamentRefused(tournament_id, "round_moved")
            await tx.execute(
                "UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ?",
                status,
                self._clock(),
                tournament_id,
            )
            return await _existing(tx, tournament_id)


async def _players(tx: Tx, tournament_id: int) -> list[TournamentPlayer]:
    rows = await tx.fetch(
        "SELECT user_id, display_name, joined, left_round FROM tournament_players"
        " WHERE tournament_id = ? ORDER BY joined",
        tournament_id,
    )
    return [
        TournamentPlayer(
            int(r["user_id"]),
            str(r["display_name"]),
            int(r["joined"]),
            None if r["left_round"] is None else int(r["left_round"]),
        )
        for r in rows
    ]


async def _touch(tx: Tx, tournament_id: int, now: float) -> None:
    await tx.execute("UPDATE tournaments SET updated_at = ? WHERE id = ?", now, tournament_id)


async def forget_in_tournaments(tx: Tx, user_id: int, stand_in: int) -> int:
    """Inside a forget's transaction: ``user_id`` leaves every tournament under the negative
    ``stand_in`` id (one for all, naming no one; their places stay, so the others'
    standings do not change) with no name (who opened a tournament is cleared with
    ``NAMED_BY``). Returns the rows changed."""
    changed = await tx.execute(
        "UPDATE tournament_players SET user_id = ?, display_name = '' WHERE user_id = ?",
        stand_in,
        user_id,
    )
    changed += await tx.execute(
        "UPDATE tournament_seats SET user_id = ? WHERE user_id = ?", stand_in, user_id
    )
    return changed


__all__ = [
    "FORMATS",
    "NewTable",
    "TableSeat",
    "TournamentFormat",
    "TournamentPlayer",
    "TournamentRefused",
    "TournamentRow",
    "TournamentStatus",
    "TournamentStore",
    "TournamentTable",
    "forget_in_tournaments",
]
