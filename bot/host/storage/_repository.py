"""The storage over a driver: every part of :class:`~bot.host.storage.Storage` in one class.

Each part is written once in SQL both backends understand and lives with what
it stores (see :mod:`._sql`); the SQLite and PostgreSQL backends subclass
:class:`SqlStorage` and supply only connections, transactions and error
translation.
"""

from __future__ import annotations

from ._actions import SqlActionLog
from ._coach import SqlCoachStore
from ._copies import SqlGameCopier
from ._games import SqlGameStore
from ._privacy import SqlPrivacyStore
from ._ratings import SqlRatingStore
from ._results import SqlResultStore
from ._seats import SqlSeatStore
from ._settings import SqlGuildSettingsStore, SqlSettingsStore
from ._timers import SqlTimerStore


class SqlStorage(
    SqlGameStore,
    SqlSeatStore,
    SqlActionLog,
    SqlTimerStore,
    SqlResultStore,
    SqlRatingStore,
    SqlSettingsStore,
    SqlGuildSettingsStore,
    SqlGameCopier,
    SqlCoachStore,
    SqlPrivacyStore,
):
    """The repository over a driver; see :class:`~bot.host.storage.Storage` for what every method
    does. Subclasses supply ``_read``, ``_consistent_read``, ``_write``, ``close``,
    ``integrity_check`` and ``schema_version`` (:class:`~._sql.SqlBase`)."""
