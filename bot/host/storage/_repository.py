"""The storage: one object per thing stored, over a backend's driver hooks.

Every method is atomic: a write either commits completely or leaves nothing,
and each write is ONE transaction (a service operation that changes several
rows calls one method that changes them together). Ids are Discord snowflakes
(``int``); times are unix seconds (``float``); JSON values are JSON-able
dicts handed in by the service and come back as fresh dicts.

The interface is the parts' own classes, written once in SQL both backends
understand (see :mod:`._sql`); the SQLite and PostgreSQL backends subclass
:class:`Storage` and supply only connections, transactions and error
translation (the :class:`~._sql.Driver` hooks).

Errors: every error raised on purpose is a :class:`~bot.host.storage.StorageError`
(``GameNotFound``, ``VersionConflict``, ``GameStatusError``, ``ChannelBusy``,
``SeatTaken``, ``SeatNotFound``, ``ConstraintError``, ``CorruptGame``,
``StorageFull``, ``StorageUnavailable``, ``UserInOpenGames``); a write that raised
wrote nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import ClassVar, Self

from ._achievements import AchievementStore
from ._actions import ActionLog
from ._coach import CoachStore
from ._copies import GameCopier
from ._games import GameStore
from ._privacy import PrivacyStore
from ._ratings import RatingStore
from ._results import ResultStore
from ._seats import SeatStore
from ._settings import GuildSettingsStore, SettingsStore
from ._sql import Clock, Tx
from ._tables import OpenTableStore
from ._timers import TimerStore


class Storage:
    """Games, seats, the action log, timers, results, ratings, user and server settings,
    whole-game copies, the coach's hints and analyses, and privacy, on SQLite or
    PostgreSQL (open one with :func:`~bot.host.storage.open_storage`). Usable as an async
    context manager that closes it.

    Each part owns its tables and needs only this object's driver hooks (no part
    calls another): ``games`` (:class:`GameStore`), ``seats`` (:class:`SeatStore`),
    ``actions`` (:class:`ActionLog`: moves and snapshots), ``timers``
    (:class:`TimerStore`), ``results`` (:class:`ResultStore`), ``ratings``
    (:class:`RatingStore`: seasons and ratings), ``settings``
    (:class:`SettingsStore`: a user's), ``guild_settings``
    (:class:`GuildSettingsStore`), ``copies`` (:class:`GameCopier`: dumps and
    restores), ``coach`` (:class:`CoachStore`: hints and analyses), ``privacy``
    (:class:`PrivacyStore`: a user's data, servers that left), ``tables``
    (:class:`OpenTableStore`: open tables, their role pings, followers) and ``achievements``
    (:class:`AchievementStore`: the achievements earned).

    A backend subclass supplies ``_read``, ``_consistent_read``, ``_write``
    (and, when it needs them, ``_after_restore`` and ``_lock_games``), ``close``,
    ``integrity_check`` and ``schema_version``.

    Args:
        clock: unix seconds; stamps every row.
    """

    #: ``"sqlite"`` or ``"postgres"``.
    backend: ClassVar[str] = ""

    def __init__(self, *, clock: Clock) -> None:
        self.clock = clock
        #: A printable name of the database: a path, or a URL without its password.
        self.url = ""
        self.games = GameStore(self)
        self.seats = SeatStore(self)
        self.actions = ActionLog(self)
        self.timers = TimerStore(self)
        self.results = ResultStore(self)
        self.ratings = RatingStore(self)
        self.settings = SettingsStore(self)
        self.guild_settings = GuildSettingsStore(self)
        self.copies = GameCopier(self)
        self.coach = CoachStore(self)
        self.privacy = PrivacyStore(self)
        self.tables = OpenTableStore(self)
        self.achievements = AchievementStore(self)

    # -- the driver hooks (see bot.host.storage._sql.Driver) --------------------------------

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

    # -- the whole database -------------------------------------------------------------

    async def close(self) -> None:
        """Wait for running calls, then release the connections. Idempotent."""
        raise NotImplementedError

    async def integrity_check(self) -> list[str]:
        """``["ok"]`` when the database is sound, otherwise one line per problem."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The schema version (the number of the last migration applied)."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
