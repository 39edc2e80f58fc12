"""Persistence of games: one :class:`Storage` interface, two backends.

SQLite (aiosqlite, the embedded default) and PostgreSQL (asyncpg, for several
bot processes sharing one database), chosen by the database URL given to
:func:`open_storage`. Both run the same numbered migrations at open (a
database newer than the code is refused) and the same SQL (see
``_repository.py``). Imports neither discord nor the engine: snapshots,
actions and options are JSON-able dicts handed in by the service.
"""

from __future__ import annotations

from ._errors import (
    ChannelBusy,
    ConstraintError,
    CorruptGame,
    GameNotFound,
    GameStatusError,
    MigrationError,
    SeatNotFound,
    SeatTaken,
    StorageError,
    StorageFull,
    StorageRefusal,
    StorageUnavailable,
    VersionConflict,
)
from ._interface import Storage
from ._migrate import latest_version, load_migrations, migrate, user_version
from ._open import SCHEMES, database_url, open_storage, sqlite_path
from ._repository import UNSET, decode_snapshot, dump_json, encode_snapshot
from ._rows import (
    ALL_STATUSES,
    DEFAULT_TURN_SECONDS,
    FINAL_STATUSES,
    LANGUAGES,
    OPEN_STATUSES,
    SNAPSHOT_EVERY,
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

__all__ = [
    "ALL_STATUSES",
    "DEFAULT_TURN_SECONDS",
    "FINAL_STATUSES",
    "LANGUAGES",
    "OPEN_STATUSES",
    "SCHEMES",
    "SNAPSHOT_EVERY",
    "UNSET",
    "USER_SETTING_NAMES",
    "ActionRow",
    "ActionSource",
    "ChannelBusy",
    "Checkpoint",
    "ConstraintError",
    "CorruptGame",
    "GameDump",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "GameStatusError",
    "LeaderboardRow",
    "MigrationError",
    "NewAction",
    "NewSeat",
    "NextTimer",
    "PlayerResult",
    "QuarantinedGame",
    "ResultRow",
    "SeatChanges",
    "SeatNotFound",
    "SeatRow",
    "SeatTaken",
    "ShardFilter",
    "Storage",
    "StorageError",
    "StorageFull",
    "StorageRefusal",
    "StorageUnavailable",
    "TimerKind",
    "UserSettings",
    "VersionConflict",
    "database_url",
    "decode_snapshot",
    "dump_json",
    "encode_snapshot",
    "latest_version",
    "load_migrations",
    "migrate",
    "open_storage",
    "sqlite_path",
    "user_version",
]
