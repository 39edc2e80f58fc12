"""GameService: the one door between Discord (or the demo) and the engine plus storage.

It is composed of parts, each an object of its own that changes for its own
reason, and its constructor is the whole wiring: the loader of games
(:mod:`._loading`: locks, the state cache, quarantine) and the recorder of
moves (:mod:`._recording`: AI seats, timers, one transaction per move,
outcomes) under the lobby (:mod:`._lobby`), play (:mod:`._play`), the timers
(:mod:`._clock`), reading (:mod:`._queries`), the ladder (:mod:`._ladder`:
server settings, seasons, ratings, statistics), the coach's hints
(:mod:`._coach`), the analyses after the game (:mod:`._analysis`) and privacy
(:mod:`._privacy`: forgetting a player, servers that removed the bot; the
timer loop runs its purge), the open tables (:mod:`._tables`: the server's lobbies, the
looking-for-players role, lobbies that expire, followers; the timer loop runs the expiry),
the achievements (:mod:`._achievements`: awarded when a game ends, recomputed from the stored
games), tournaments (:mod:`._tournaments`), substitutes (:mod:`._seats`: a seat handed to
another member) and undo by consent (:mod:`._undo`). Callers name the part: ``service.lobby.join(...)``,
``service.play.act(...)``. Nothing here imports discord: methods take Discord
ids and return dataclasses (:mod:`._models`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

from bot.host.ai_workers import AiWorkers
from bot.host.storage import ShardFilter, Storage
from engine.ai.analysis import CPU_BUDGET_S, ROLLOUTS

from ._achievements import Achievements
from ._analysis import Analyses, OnAnalysis
from ._changes import Changes
from ._clock import Timers
from ._coach import Coach
from ._jobs import Jobs
from ._ladder import ServerLadder
from ._loading import (
    DEFAULT_RETENTION_DAYS,
    GameLoader,
    OnQuarantine,
    OnReminder,
    OnTurn,
    Wakes,
)
from ._lobby import Lobby
from ._play import Play
from ._privacy import Privacy
from ._queries import Queries
from ._recording import MoveRecorder
from ._seats import Substitutes
from ._tables import OnExpired, OpenTables
from ._tournaments import Tournaments
from ._undo import TakeBacks


class GameService:
    """Games in channels: lobby, play, timers, ratings, statistics, hints and analyses, privacy.
    Methods take Discord ids and return dataclasses.

    Parts (each documents what it owns and needs): ``loader``
    (:class:`~._loading.GameLoader`), ``recorder`` (:class:`~._recording.MoveRecorder`),
    ``lobby`` (:class:`~._lobby.Lobby`), ``play`` (:class:`~._play.Play`), ``queries``
    (:class:`~._queries.Queries`), ``ladder`` (:class:`~._ladder.ServerLadder`), ``coach``
    (:class:`~._coach.Coach`), ``analyses`` (:class:`~._analysis.Analyses`), ``privacy``
    (:class:`~._privacy.Privacy`), ``tables`` (:class:`~._tables.OpenTables`),
    ``achievements`` (:class:`~._achievements.Achievements`), ``tournaments``
    (:class:`~._tournaments.Tournaments`), ``seats`` (:class:`~._seats.Substitutes`), ``undo``
    (:class:`~._undo.TakeBacks`) and ``timers`` (:class:`~._clock.Timers`); ``changes``
    (:class:`~._changes.Changes`) tells listeners (the live board) of every stored change.

    Args:
        storage: an open :class:`~bot.host.storage.Storage`.
        clock: unix seconds (tests pass a fake).
        seed_source: seeds for new games (default: 63 random bits).
        auto_ai: when True (default) AI seats act as soon as it is their turn;
            the demo passes False and steps them with :meth:`Play.play_ai`.
        on_turn: awaited after moves made by the clock (timeouts, resumed AI
            turns) so the caller can post the board.
        on_reminder: awaited when half a turn's time is gone.
        on_quarantine: awaited once when a game is taken out of play because
            its stored state cannot be read (tell the players).
        shards: the Discord shards this process serves; the clock only fires
            for games of guilds on them (None: every game).
        hint_jobs: where hints are computed (default: a thread of this process;
            the bot passes worker processes, :class:`~bot.host.services.ProcessJobs`).
        analysis_jobs: where post-game analyses are computed (the same).
        on_analysis: awaited with each analysis once stored (the cog posts it).
        analysis_budget_s: CPU seconds of rollouts per analysis (default 40).
        analysis_rollouts: rollouts per turn at most (default 128; the demo uses fewer).
        ai_workers: worker processes for the hard AI's decisions
            (:class:`bot.host.ai_workers.AiWorkers`; None: every AI move in a thread of
            this process); :meth:`close` stops them.
        retention_days: how long a server's data is kept after it removed the
            bot (``TTR_GUILD_RETENTION_DAYS``, default 30); then it is deleted.

    Errors: :class:`ServiceError` (typed code), engine ``IllegalAction`` /
    ``SetupError`` (typed code); in every case nothing was written.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        auto_ai: bool = True,
        on_turn: OnTurn | None = None,
        on_reminder: OnReminder | None = None,
        on_quarantine: OnQuarantine | None = None,
        shards: ShardFilter | None = None,
        hint_jobs: Jobs | None = None,
        analysis_jobs: Jobs | None = None,
        on_analysis: OnAnalysis | None = None,
        analysis_budget_s: float | None = None,
        analysis_rollouts: int | None = None,
        ai_workers: AiWorkers | None = None,
        retention_days: float = DEFAULT_RETENTION_DAYS,
    ) -> None:
        self.storage = storage
        wakes = Wakes()
        self.loader = GameLoader(storage, on_quarantine=on_quarantine)
        self.changes = Changes(storage)
        self.recorder = MoveRecorder(
            storage,
            self.loader,
            wakes,
            clock=clock,
            auto_ai=auto_ai,
            ai_workers=ai_workers,
            changes=self.changes,
        )
        self.lobby = Lobby(
            storage,
            self.loader,
            self.recorder,
            wakes,
            seed_source=seed_source or (lambda: secrets.randbits(63)),
        )
        self.play = Play(storage, self.loader, self.recorder, clock=clock)
        self.queries = Queries(storage, self.loader)
        self.seats = Substitutes(storage, self.loader, clock=clock)
        self.undo = TakeBacks(storage, self.loader, self.recorder)
        self.ladder = ServerLadder(storage)
        self.coach = Coach(storage, self.loader, self.play, jobs=hint_jobs)
        self.analyses = Analyses(
            storage,
            self.loader,
            wakes,
            shards=shards,
            jobs=analysis_jobs,
            on_analysis=on_analysis,
            budget_s=CPU_BUDGET_S if analysis_budget_s is None else analysis_budget_s,
            rollouts=ROLLOUTS if analysis_rollouts is None else analysis_rollouts,
        )
        self.privacy = Privacy(
            storage, self.loader, wakes, clock=clock, shards=shards, retention_days=retention_days
        )
        self.tables = OpenTables(storage, self.loader, clock=clock, shards=shards)
        self.achievements = Achievements(storage, self.loader, self.recorder)
        self.tournaments = Tournaments(storage, self.lobby)
        self.timers = Timers(
            storage,
            self.loader,
            self.recorder,
            self.privacy,
            wakes,
            clock=clock,
            shards=shards,
            on_turn=on_turn,
            on_reminder=on_reminder,
        )
        self.timers.chores.append(self.tables.expire_due)  # lobbies nobody joined expire

    # the callbacks the cogs set once their publisher exists (after the service was built)
    @property
    def on_turn(self) -> OnTurn | None:
        """Awaited after moves made by the clock (see :class:`~._clock.Timers`)."""
        return self.timers.on_turn

    @on_turn.setter
    def on_turn(self, callback: OnTurn | None) -> None:
        self.timers.on_turn = callback

    @property
    def on_reminder(self) -> OnReminder | None:
        """Awaited when half a turn's time is gone (see :class:`~._clock.Timers`)."""
        return self.timers.on_reminder

    @on_reminder.setter
    def on_reminder(self, callback: OnReminder | None) -> None:
        self.timers.on_reminder = callback

    @property
    def on_analysis(self) -> OnAnalysis | None:
        """Awaited with each analysis once stored (see :class:`~._analysis.Analyses`)."""
        return self.analyses.on_analysis

    @on_analysis.setter
    def on_analysis(self, callback: OnAnalysis | None) -> None:
        self.analyses.on_analysis = callback

    @property
    def on_expired(self) -> OnExpired | None:
        """Awaited with each lobby that expired (see :class:`~._tables.OpenTables`)."""
        return self.tables.on_expired

    @on_expired.setter
    def on_expired(self, callback: OnExpired | None) -> None:
        self.tables.on_expired = callback

    def start_timers(self) -> None:
        """Start the timer loop and the analysis queue on the running event loop (idempotent)."""
        self.timers.start()
        self.analyses.start()

    async def close(self) -> None:
        """Stop the analysis queue and the timers, then the workers of AI moves, hints and
        analyses (the storage is closed by its owner)."""
        await self.analyses.close()
        await self.timers.close()
        await self.changes.close()
        self.recorder.close()
        if self.recorder.ai_workers is not None:
            await asyncio.to_thread(self.recorder.ai_workers.close)
        self.coach.jobs.close()
        self.analyses.jobs.close()


__all__ = ["GameService"]
