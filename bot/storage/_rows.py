"""Frozen rows read from and written to the database.

JSON columns come back as plain ``dict`` objects (the caller must not mutate
them in place and expect the database to change). Times are unix seconds as
``float``; Discord ids are ``int``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

GameStatus = Literal["lobby", "active", "finished", "cancelled"]
ActionSource = Literal["player", "ai", "timeout"]
TimerKind = Literal["deadline", "reminder"]

#: Statuses in which a channel counts as busy.
OPEN_STATUSES: frozenset[str] = frozenset({"lobby", "active"})
#: Statuses a game never leaves.
FINAL_STATUSES: frozenset[str] = frozenset({"finished", "cancelled"})
#: Default time a player has for a turn: one day.
DEFAULT_TURN_SECONDS = 86_400


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game: its Discord placement, lifecycle and cached engine snapshot.

    ``version`` is the number of actions applied (0 right after start);
    ``snapshot`` is None while the game is in the lobby. ``deadline_at`` and
    ``reminder_at`` are the active turn's expiry and nudge time, or None.
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    board_message_id: int | None
    host_user_id: int
    map_id: str
    options: dict[str, Any]
    status: GameStatus
    seed: int | None
    engine_version: str | None
    version: int
    snapshot: dict[str, Any] | None
    turn_seconds: int
    deadline_at: float | None
    reminder_at: float | None
    created_at: float
    updated_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat to insert. ``seat`` None means the lowest free seat number (from 0).

    An AI seat has ``is_ai=True``, usually ``user_id=None`` and an ``ai_kind``
    such as ``"heuristic"``.
    """

    display_name: str
    user_id: int | None = None
    color: str | None = None
    is_ai: bool = False
    ai_kind: str | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a game (0-based ``seat``).

    ``expiries_in_row`` counts consecutive turn timeouts; ``ai_permanent`` means
    the AI keeps playing this seat; ``vacation_used_s`` is vacation time spent
    in seconds and ``vacation_until`` the end of the current vacation (or None).
    """

    game_id: int
    seat: int
    user_id: int | None
    display_name: str
    color: str | None
    is_ai: bool
    ai_kind: str | None
    joined_at: float
    expiries_in_row: int
    ai_permanent: bool
    vacation_used_s: float
    vacation_until: float | None
    resigned: bool


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of a game's append-only action log; ``seq`` starts at 1 and
    equals the game version after this action was applied."""

    game_id: int
    seq: int
    seat: int | None
    action: dict[str, Any]
    actor_user_id: int | None
    source: ActionSource
    created_at: float


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A finished game's outcome for one seat, as handed in by the service.

    ``rank`` is 1 for the winner(s); ``user_id`` is None for AI seats (kept in
    the table, left out of user statistics).
    """

    seat: int
    user_id: int | None
    score: int
    rank: int
    won: bool
    tickets_completed: int = 0
    tickets_failed: int = 0


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A stored result: :class:`PlayerResult` plus the game's guild, map and
    finish time."""

    game_id: int
    seat: int
    user_id: int | None
    guild_id: int
    map_id: str
    score: int
    rank: int
    won: bool
    tickets_completed: int
    tickets_failed: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A user's totals over the finished games of one guild."""

    user_id: int
    games: int
    wins: int
    avg_score: float
    tickets_completed: int
    tickets_failed: int


class NextTimer(NamedTuple):
    """The soonest pending timer: ``(game_id, when, kind)``, ``when`` in unix
    seconds, ``kind`` ``"deadline"`` (turn expiry) or ``"reminder"``."""

    game_id: int
    when: float
    kind: TimerKind
