"""GameService: the one door between Discord (or the demo) and the engine plus storage.

It is composed of parts that change for different reasons, over the
loading of games (:mod:`._loading`: locks, the state cache, quarantine) and
the recording of moves (:mod:`._recording`: AI seats, timers, one
transaction per move, outcomes):
lobby (:mod:`._lobby`), play (:mod:`._play`), the clock (:mod:`._clock`),
reading (:mod:`._queries`), the ladder (:mod:`._ladder`: server settings,
seasons, ratings, statistics), the coach: hints (:mod:`._coach`) and the
analysis after the game (:mod:`._analysis`), and privacy (:mod:`._privacy`:
forgetting a player, servers that removed the bot; the clock's loop runs its
purge). Nothing here imports discord: methods take
Discord ids and return dataclasses (:mod:`._models`).
"""

from __future__ import annotations

from typing import Any

from bot.host.storage import Storage

from ._analysis import AnalysisOps, OnAnalysis
from ._coach import CoachOps
from ._jobs import Jobs
from ._ladder import LadderOps
from ._lobby import LobbyOps
from ._queries import QueryOps


class GameService(LobbyOps, CoachOps, AnalysisOps, QueryOps, LadderOps):
    """Games in channels: lobby, play, clocks, ratings, statistics, hints and analyses, privacy.
    Methods take Discord ids and return dataclasses.

    Args:
        storage: an open :class:`~bot.host.storage.Storage`.
        clock: unix seconds (tests pass a fake).
        seed_source: seeds for new games (default: 63 random bits).
        auto_ai: when True (default) AI seats act as soon as it is their turn;
            the demo passes False and steps them with :meth:`play_ai`.
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
        hint_jobs: Jobs | None = None,
        analysis_jobs: Jobs | None = None,
        on_analysis: OnAnalysis | None = None,
        analysis_budget_s: float | None = None,
        analysis_rollouts: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__(storage, **options)
        if hint_jobs is not None:
            self.hint_jobs = hint_jobs
        if analysis_jobs is not None:
            self.analysis_jobs = analysis_jobs
        self.on_analysis = on_analysis
        if analysis_budget_s is not None:
            self.analysis_budget_s = analysis_budget_s
        if analysis_rollouts is not None:
            self.analysis_rollouts = analysis_rollouts

    async def close(self) -> None:
        """Stop the timers and the analysis queue, then the workers of hints and analyses."""
        await super().close()
        self.hint_jobs.close()
        self.analysis_jobs.close()


__all__ = ["GameService"]
