"""Persistence of games: one :class:`Storage` interface, two backends.

SQLite (aiosqlite, the embedded default) and PostgreSQL (asyncpg, for several
bot processes sharing one database), chosen by the database URL given to
:func:`open_storage`. Both run the same numbered migrations at open (a
database newer than the code is refused) and the same SQL (see ``_sql.py``):
one part per thing stored (``storage.games``, ``storage.seats``,
``storage.actions``, ...), each written once and held by :class:`Storage`. Imports neither discord nor the engine: snapshots,
actions and options are JSON-able dicts handed in by the service.
"""

from __future__ import annotations

from ._actions import ActionLog
from ._coach import CoachStore
from ._copies import GameCopier
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
    UserInOpenGames,
    VersionConflict,
)
from ._games import GameStore
from ._handovers import HandoverReason, HandoverStore, SeatHandover
from ._migrate import latest_version, load_migrations, migrate, user_version
from ._open import SCHEMES, database_url, open_storage, sqlite_path
from ._privacy import PrivacyStore
from ._ratings import RatingStore
from ._repository import Storage
from ._results import ResultStore
from ._rows import (
    ALL_STATUSES,
    DEFAULT_TURN_SECONDS,
    FINAL_STATUSES,
    GUILD_SETTING_NAMES,
    LANGUAGES,
    OPEN_STATUSES,
    SNAPSHOT_EVERY,
    USER_SETTING_NAMES,
    ActionRow,
    ActionSource,
    AnalysisRow,
    AnalysisStatus,
    Checkpoint,
    ForgetReport,
    GameDump,
    GameRow,
    GameStatus,
    GuildDeparture,
    GuildDump,
    GuildSettings,
    LeaderboardRow,
    NewAction,
    NewSeat,
    NextTimer,
    PlayerResult,
    PurgeReport,
    QuarantinedGame,
    RatedGame,
    RatingChange,
    RatingRow,
    ResultRow,
    Season,
    SeatChanges,
    SeatRef,
    SeatRow,
    ShardFilter,
    TimerKind,
    UserData,
    UserSettings,
)
from ._seats import SeatStore
from ._settings import GuildSettingsStore, SettingsStore
from ._sql import UNSET, decode_snapshot, dump_json, encode_snapshot
from ._timers import TimerStore

__all__ = [
    "ActionLog",
    "CoachStore",
    "GameCopier",
    "GameStore",
    "GuildSettingsStore",
    "HandoverReason",
    "HandoverStore",
    "SeatHandover",
    "RatingStore",
    "PrivacyStore",
    "ResultStore",
    "SeatStore",
    "SettingsStore",
    "TimerStore",
    "ALL_STATUSES",
    "DEFAULT_TURN_SECONDS",
    "FINAL_STATUSES",
    "GUILD_SETTING_NAMES",
    "LANGUAGES",
    "OPEN_STATUSES",
    "SCHEMES",
    "SNAPSHOT_EVERY",
    "UNSET",
    "USER_SETTING_NAMES",
    "ActionRow",
    "ActionSource",
    "AnalysisRow",
    "AnalysisStatus",
    "ChannelBusy",
    "Checkpoint",
    "ForgetReport",
    "ConstraintError",
    "CorruptGame",
    "GameDump",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "GameStatusError",
    "GuildDump",
    "GuildSettings",
    "GuildDeparture",
    "LeaderboardRow",
    "MigrationError",
    "NewAction",
    "NewSeat",
    "NextTimer",
    "PlayerResult",
    "PurgeReport",
    "QuarantinedGame",
    "RatedGame",
    "RatingChange",
    "RatingRow",
    "ResultRow",
    "Season",
    "SeatChanges",
    "SeatNotFound",
    "SeatRef",
    "SeatRow",
    "SeatTaken",
    "ShardFilter",
    "Storage",
    "StorageError",
    "StorageFull",
    "StorageRefusal",
    "StorageUnavailable",
    "UserInOpenGames",
    "TimerKind",
    "UserData",
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
