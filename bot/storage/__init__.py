"""Persistence of games in SQLite (aiosqlite): connection, migrations, repository.

Imports neither discord nor the engine: snapshots, actions and options are
JSON-able dicts handed in by the service. Start with :func:`open_storage`.
"""

from __future__ import annotations

from ._errors import (
    ChannelBusy,
    GameNotFound,
    GameStatusError,
    MigrationError,
    SeatNotFound,
    SeatTaken,
    StorageError,
    VersionConflict,
)
from ._migrate import latest_version, load_migrations, migrate, user_version
from ._rows import (
    DEFAULT_TURN_SECONDS,
    FINAL_STATUSES,
    OPEN_STATUSES,
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
    TimerKind,
)
from ._storage import Storage, dump_json, open_storage

__all__ = [
    "DEFAULT_TURN_SECONDS",
    "FINAL_STATUSES",
    "OPEN_STATUSES",
    "ActionRow",
    "ActionSource",
    "ChannelBusy",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "GameStatusError",
    "LeaderboardRow",
    "MigrationError",
    "NewSeat",
    "NextTimer",
    "PlayerResult",
    "ResultRow",
    "SeatNotFound",
    "SeatRow",
    "SeatTaken",
    "Storage",
    "StorageError",
    "TimerKind",
    "VersionConflict",
    "dump_json",
    "latest_version",
    "load_migrations",
    "migrate",
    "open_storage",
    "user_version",
]
