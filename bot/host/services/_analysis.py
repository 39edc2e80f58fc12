"""The analysis after the game: queued when a game ends, computed by one worker, stored, told.

The move that finishes a game queues its analysis in the same transaction
(:meth:`~bot.host.storage.Storage.append_actions`). A background task (started with
the timers, :meth:`AnalysisOps.start_timers`) takes the queue first come, first
served: it claims a game's row (``running``), and makes the analysis in slices of
about :data:`SLICE_S` seconds of CPU (:func:`analysis_slice`: the stored log
replayed, then :func:`engine.ai.analysis.analyse_slice` goes on from the progress
so far) in a worker (:class:`~bot.host.services._jobs.Jobs`: in the bot, the hard AI's
worker process, one slice at a time at a lower priority and only while no AI move
or hint waits for it, except one whole slice every
:data:`~bot.host.services._jobs.WHOLE_SLICE_EVERY_S` seconds so that analyses finish
on a bot whose AI keeps the worker busy: neither the game-over message nor the
event loop waits for an analysis, and an AI move at most for that one slice; at most
:data:`~engine.ai.analysis.CPU_BUDGET_S` seconds of CPU per game), stores the
result (``done``) and awaits ``on_analysis`` so the cog posts it as a follow-up
of the game-over message. While one game is analysed the others wait, and
:meth:`AnalysisOps.analysis` says how many games are ahead. A row left
``running`` by a process that died is taken up again after
:data:`STALE_AFTER_S`; a game whose analysis failed :data:`MAX_ATTEMPTS` times
is marked ``failed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.host.ai_workers import urgent_waiting
from bot.host.storage import AnalysisRow, GameRow, SeatChanges, SeatRow
from bot.process import metrics
from engine import GameState
from engine.ai.analysis import (
    CPU_BUDGET_S,
    ROLLOUTS,
    AnalysisProgress,
    GameAnalysis,
    analyse_slice,
    finish_analysis,
    game_turns,
)
from engine.codec import decode_action
from maps.loader import load_ruleset

from ._clock import ClockOps
from ._errors import ServiceError
from ._jobs import Jobs, ThreadJobs
from ._recording import Move

log = logging.getLogger(__name__)

#: A ``running`` analysis older than this (seconds) was left by a worker that died.
STALE_AFTER_S = 600.0
#: Times an analysis is tried before it is marked ``failed``.
MAX_ATTEMPTS = 3
#: Longest sleep of the queue between looks at the database (seconds).
QUEUE_SLEEP_S = 60.0
#: CPU seconds of one slice of an analysis (an AI move or a hint that comes during a whole slice
#: waits for at most this, and the game's replay, a few milliseconds, is made again per slice).
SLICE_S = 0.25

OnAnalysis = Callable[["AnalysisView"], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """What there is to show of a game's analysis.

    Attributes:
        game: the game row.
        seats: its seats (names).
        status: ``none`` (not finished, or never asked), ``queued``, ``running``, ``done``
            or ``failed``.
        ahead: analyses to be made before this one (0 when it is next or running).
        analysis: the analysis once ``done``.
    """

    game: GameRow
    seats: list[SeatRow]
    status: str
    ahead: int = 0
    analysis: GameAnalysis | None = None


def analysis_slice(
    map_id: str,
    seats: int,
    seed: int,
    options: Mapping[str, Any],
    actions: Sequence[Mapping[str, Any]],
    cpu_budget_s: float,
    rollouts: int,
    progress: AnalysisProgress | None,
    slice_s: float | None,
) -> AnalysisProgress | dict[str, Any]:
    """In a worker: the analysis of a game given by its stored seed and action log, from
    ``progress`` (None: the start) for about ``slice_s`` CPU seconds (None: to the end); the
    progress to pass to the next slice, or the finished analysis as JSON (at most
    ``rollouts`` per turn and ``cpu_budget_s`` seconds of CPU in all). In an AI worker a slice
    also ends as soon as an AI decision or a hint waits for it
    (:func:`bot.host.ai_workers.urgent_waiting`), unless it is a whole slice
    (:class:`~bot.host.services.WorkerJobs`)."""
    rules = load_ruleset(map_id)
    turns = game_turns(
        rules,
        seats=seats,
        seed=seed,
        options=options,
        actions=[decode_action(a) for a in actions],
    )
    progress = analyse_slice(
        rules,
        turns,
        progress,
        rollouts=rollouts,
        cpu_budget_s=cpu_budget_s,
        slice_s=slice_s,
        stop=None if slice_s is None else urgent_waiting,
    )
    return finish_analysis(turns, progress).to_json() if progress.finished else progress


class AnalysisOps(ClockOps):
    """Post-game analysis operations of :class:`~bot.host.services.GameService`."""

    _analysis_task: asyncio.Task[None] | None = None
    _analysis_event: asyncio.Event | None = None

    #: where analyses are computed (the bot passes a process pool; tests a thread)
    analysis_jobs: Jobs = ThreadJobs()
    #: awaited with each analysis once it is stored (the cog posts it)
    on_analysis: OnAnalysis | None = None
    #: CPU seconds of rollouts per game, and rollouts per turn at most
    analysis_budget_s: float = CPU_BUDGET_S
    analysis_rollouts: int = ROLLOUTS
    #: CPU seconds of one slice of an analysis (None: the whole analysis in one job)
    analysis_slice_s: float | None = SLICE_S

    async def analysis(self, game_id: int, *, queue: bool = True) -> AnalysisView:
        """The analysis of a game as far as it goes. A finished game that never had one
        (finished before analyses existed) is queued now unless ``queue`` is False.

        Raises:
            ServiceError: ``game_not_found``.
        """
        game = await self._game(game_id)
        seats = await self.storage.seats(game_id)
        row = await self.storage.analysis(game_id)
        if row is None and game.status == "finished" and queue:
            row = await self.storage.queue_analysis(game_id)
            self._analysis_wake().set()
        if row is None:
            return AnalysisView(game, seats, "none")
        return await self._view(game, seats, row)

    async def _view(self, game: GameRow, seats: list[SeatRow], row: AnalysisRow) -> AnalysisView:
        if row.status == "done" and row.data is not None:
            try:
                analysis = GameAnalysis.from_json(row.data)
            except (KeyError, TypeError, ValueError):
                return AnalysisView(game, seats, "failed")
            return AnalysisView(game, seats, "done", analysis=analysis)
        if row.status in ("queued", "running"):
            queue = await self.storage.analysis_queue(self.shards)
            ahead = queue.index(game.id) if game.id in queue else 0
            return AnalysisView(game, seats, row.status, ahead=ahead)
        return AnalysisView(game, seats, "failed")

    async def remember_final_message(self, game_id: int, message_id: int) -> None:
        """Remember the game-over message (the analysis is posted as a reply to it, also
        after a restart; it is the game's last board message)."""
        await self.storage.set_message_ids(game_id, board_message_id=message_id)

    # ------------------------------------------------------------------ the queue
    async def analyse_next(self) -> AnalysisView | None:
        """Claim the first analysis of the queue that no other worker holds, make it and store
        it (``on_analysis`` is awaited); None when there was nothing to claim.

        Never raises for a game that cannot be analysed: it is marked ``failed`` (after
        :data:`MAX_ATTEMPTS` tries) and the queue goes on.
        """
        for game_id in await self.storage.analysis_queue(self.shards):
            row = await self.storage.start_analysis(game_id, stale_after=STALE_AFTER_S)
            if row is None:
                continue  # running in another process
            view = await self._analyse(game_id, row)
            if view is not None and self.on_analysis is not None:
                try:
                    await self.on_analysis(view)
                except Exception:  # noqa: BLE001 - a failed post must not stop the queue
                    log.exception("game %s: posting the analysis failed", game_id)
            return view
        return None

    async def analyse_now(self, game_id: int) -> AnalysisView:
        """Make the analysis of this finished game now, ahead of the queue, and return it
        (``on_analysis`` is not awaited); one already stored is returned as it is. For the
        demo and operators.

        Raises:
            ServiceError: ``game_not_found``, ``not_finished``, ``analysis_busy`` (another
                worker is making it right now).
        """
        game = await self._game(game_id)
        if game.status != "finished":
            raise ServiceError("not_finished")
        await self.storage.queue_analysis(game_id)
        row = await self.storage.start_analysis(game_id, stale_after=STALE_AFTER_S)
        if row is None:
            view = await self.analysis(game_id, queue=False)
            if view.status == "running":
                raise ServiceError("analysis_busy")
            return view
        await self._analyse(game_id, row)
        return await self.analysis(game_id, queue=False)

    async def _analyse(self, game_id: int, row: AnalysisRow) -> AnalysisView | None:
        if row.attempts > MAX_ATTEMPTS:
            await self.storage.fail_analysis(game_id, f"gave up after {MAX_ATTEMPTS} attempts")
            log.warning("game %s: analysis given up after %s attempts", game_id, MAX_ATTEMPTS)
            return None
        try:
            game = await self._game(game_id)
            if game.seed is None or game.status != "finished":
                raise ServiceError("not_finished")
            seats = await self.storage.seats(game_id)
            actions = [a.action for a in await self.storage.actions(game_id)]
            data = await self._analysed(game, len(seats), actions)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - one game's failure must not stop the queue
            log.warning(
                "game %s: analysis attempt %s failed (%s)",
                game_id,
                row.attempts,
                type(exc).__name__,
            )
            if row.attempts >= MAX_ATTEMPTS:
                await self.storage.fail_analysis(game_id, type(exc).__name__)
            # otherwise the row stays running: it is tried again once stale (STALE_AFTER_S)
            return None
        stored = await self.storage.finish_analysis(game_id, data)
        metrics.analysis_done(data.get("cpu_s"))
        log.info("game %s: analysis stored (%s s of CPU)", game_id, data.get("cpu_s"))
        return await self._view(game, seats, stored)

    async def _analysed(
        self, game: GameRow, seats: int, actions: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """The analysis of ``game`` as JSON, made slice by slice in :attr:`analysis_jobs`, each
        slice started only when it delays no AI move or hint (:meth:`Jobs.pause`)."""
        assert game.seed is not None  # checked by the caller (a finished game)
        progress: AnalysisProgress | None = None
        while True:
            await self.analysis_jobs.pause()
            out = await self.analysis_jobs.run(
                analysis_slice,
                game.map_id,
                seats,
                game.seed,
                dict(game.options),
                actions,
                self.analysis_budget_s,
                self.analysis_rollouts,
                progress,
                self.analysis_slice_s,
            )
            if isinstance(out, dict):
                return out
            progress = out

    def _analysis_wake(self) -> asyncio.Event:
        if self._analysis_event is None:
            self._analysis_event = asyncio.Event()
        return self._analysis_event

    async def _store(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        before: GameState,
        moves: Sequence[Move],
        after: GameState,
        *,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        """As the core's, and a finished game wakes the analysis queue (its row was queued in
        the same transaction)."""
        stored = await super()._store(game, seats, before, moves, after, seat_changes=seat_changes)
        if after.finished:
            self._analysis_wake().set()
        return stored

    def start_timers(self) -> None:
        """Start the timer loop and the analysis queue on the running event loop (idempotent)."""
        super().start_timers()
        if self._analysis_task is None or self._analysis_task.done():
            self._analysis_task = asyncio.get_running_loop().create_task(
                self._analysis_loop(), name="ttr-analyses"
            )

    async def _analysis_loop(self) -> None:
        wake = self._analysis_wake()
        while True:
            wake.clear()
            try:
                if await self.analyse_next() is not None:
                    continue
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep the queue alive
                log.exception("the analysis queue failed; retrying")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=QUEUE_SLEEP_S)

    async def close(self) -> None:
        """Stop the analysis queue and the timers; the workers are stopped by their owner."""
        task, self._analysis_task = self._analysis_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().close()


__all__ = [
    "MAX_ATTEMPTS",
    "SLICE_S",
    "STALE_AFTER_S",
    "AnalysisOps",
    "AnalysisView",
    "analysis_slice",
]
