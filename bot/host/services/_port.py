"""The service as the cogs see it: a typed Protocol (the cogs depend on this, not on the class)."""

from __future__ import annotations

from typing import Protocol

from ._achievements import Achievements
from ._analysis import Analyses, OnAnalysis
from ._coach import Coach
from ._ladder import ServerLadder
from ._loading import OnReminder, OnTurn
from ._lobby import Lobby
from ._play import Play
from ._privacy import Privacy
from ._queries import Queries
from ._tables import OnExpired, OpenTables


class GameServicePort(Protocol):
    """What the Discord layer may ask of the game service: the parts it talks to (each
    documents its methods on its own class) and the callbacks it sets.

    Every mutating call carries ``expected_version``: the game version the
    player saw (a menu click carries it back), so a stale click is refused
    with ``stale_version`` instead of doing something the player did not see.
    """

    lobby: Lobby
    play: Play
    queries: Queries
    ladder: ServerLadder
    coach: Coach
    analyses: Analyses
    privacy: Privacy
    tables: OpenTables
    achievements: Achievements

    on_turn: OnTurn | None
    on_reminder: OnReminder | None
    on_analysis: OnAnalysis | None
    on_expired: OnExpired | None

    def start_timers(self) -> None:
        """Start the timer loop and the analysis queue (idempotent)."""
