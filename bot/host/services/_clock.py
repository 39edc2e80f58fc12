"""The clock: reminders, turn timeouts, pending AI moves, and the loop that sleeps until the next one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.host.ai_workers import AiWorkerError
from bot.host.storage import CorruptGame, SeatChanges, ShardFilter, Storage, VersionConflict
from engine import (
    Event,
)

from ._errors import ServiceError
from ._loading import GameLoader, OnReminder, OnTurn, Wakes, ai_controlled, turn_key
from ._models import Outcome, Reminder
from ._privacy import Privacy
from ._recording import MAX_AI_ACTIONS, MoveRecorder, ai_due, with_changes

log = logging.getLogger(__name__)

#: Consecutive turn timeouts after which the AI keeps the seat for good.
MAX_EXPIRIES = 3
#: Longest sleep of the timer loop between looks at the database, seconds.
MAX_SLEEP = 60.0


class Timers:
    """The clock: reminders, turn timeouts, pending AI moves, and the loop that sleeps until
    the next one; its loop also deletes the data of servers that removed the bot long enough
    ago (:meth:`~._privacy.Privacy.purge_due`).

    Owns the timer loop. Needs the storage, the :class:`~._loading.GameLoader` (locks, states,
    quarantine), the :class:`~._recording.MoveRecorder` (the moves a timeout makes), the
    :class:`~._privacy.Privacy` part (the purge), the :class:`~._loading.Wakes` (a sooner
    timer wakes the loop), the clock and the shards of this process (None: every game).
    ``on_turn`` and ``on_reminder`` are awaited after what a timer did (may be set later).
    """

    def __init__(
        self,
        storage: Storage,
        loader: GameLoader,
        recorder: MoveRecorder,
        privacy: Privacy,
        wakes: Wakes,
        *,
        clock: Callable[[], float],
        shards: ShardFilter | None = None,
        on_turn: OnTurn | None = None,
        on_reminder: OnReminder | None = None,
    ) -> None:
        self.storage = storage
        self.loader = loader
        self.recorder = recorder
        self.privacy = privacy
        self.wakes = wakes
        self.clock = clock
        self.shards = shards
        self.on_turn = on_turn
        self.on_reminder = on_reminder
        self._timer_task: asyncio.Task[None] | None = None
        #: More work of the loop, awaited after the timers on every round (the expiry of
        #: lobbies nobody joined); a failing chore is logged and the loop goes on.
        self.chores: list[Callable[[], Awaitable[object]]] = []

    async def run_due(self, now: float | None = None) -> list[Outcome | Reminder]:
        """Handle every timer due at ``now`` (default: the clock): reminders, timeouts, pending AI
        moves, of the games on this process's shards.

        Returns what happened, in order; the ``on_turn``/``on_reminder``
        callbacks are awaited as well. A game whose stored state cannot be
        read is quarantined (one log line, ``on_quarantine`` once). A game
        that fails otherwise is logged and its timer pushed back a minute, so
        one bad game cannot stall the loop. A timer another process handled
        first (a version conflict, a reminder already claimed) is skipped:
        every timer fires once across processes.
        """
        now = self.clock() if now is None else now
        done: list[Outcome | Reminder] = []
        seen: dict[tuple[int, str, float], int] = {}
        while True:
            nxt = await self.storage.timers.next_deadline(self.shards)
            if nxt is None or nxt.when > now:
                return done
            key = (nxt.game_id, nxt.kind, nxt.when)
            seen[key] = seen.get(key, 0) + 1
            item = await self._fire(nxt.game_id, nxt.kind, repeated=seen[key] > 1)
            if item is None:
                continue
            done.append(item)
            await self._notify(item)

    async def _fire(self, game_id: int, kind: str, *, repeated: bool) -> Outcome | Reminder | None:
        """Handle one due timer; never raises (see :meth:`run_due`)."""
        try:
            if repeated:
                raise RuntimeError("the timer did not move")
            return await (self._remind(game_id) if kind == "reminder" else self._expire(game_id))
        except VersionConflict:
            return None  # another process moved this game on first
        except ServiceError as exc:
            if exc.code in ("game_quarantined", "game_not_found"):
                return None
            log.warning("game %s: the %s timer was refused: %s", game_id, kind, exc.code)
        except CorruptGame as exc:
            await self.loader.quarantine(game_id, exc.reason)
            return None
        except AiWorkerError as exc:
            log.warning("game %s: the %s timer found no AI worker (%s)", game_id, kind, exc)
        except Exception:  # noqa: BLE001 - logged with the game id, the loop goes on
            log.exception("game %s: the %s timer failed; retrying in a minute", game_id, kind)
        await self._retry_later(game_id, kind)
        return None

    async def _retry_later(self, game_id: int, kind: str) -> None:
        try:
            game = await self.storage.games.get_game(game_id)
            if game is None or game.status != "active":
                return
            later = self.clock() + MAX_SLEEP
            await self.storage.timers.set_deadline(
                game_id,
                later if kind == "deadline" else game.deadline_at,
                later if kind == "reminder" else game.reminder_at,
                expected_version=game.version,
            )
        except CorruptGame as exc:
            await self.loader.quarantine(game_id, exc.reason)
        except VersionConflict:
            pass  # the game moved on meanwhile: its new timers stand

    async def _notify(self, item: Outcome | Reminder) -> None:
        try:
            if isinstance(item, Reminder):
                if self.on_reminder is not None:
                    await self.on_reminder(item)
            elif self.on_turn is not None:
                await self.on_turn(item.game.id, item)
        except Exception:  # noqa: BLE001 - a failed post must not stop the clock
            log.exception("game %s: notifying failed", item.game.id)

    async def _remind(self, game_id: int) -> Reminder | None:
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            if (
                game.status != "active"
                or game.paused_at is not None  # its server removed the bot: no timer fires
                or game.reminder_at is None
                or game.reminder_at > self.clock()
            ):
                return None
            if not await self.storage.timers.claim_reminder(game_id, game.reminder_at):
                return None  # another process sent it
            seats = await self.storage.seats.seats(game_id)
            state = await self.loader.state(game)
            waiting = tuple(seats[s] for s in state.seats_to_act() if not ai_controlled(seats[s]))
            overdue = game.deadline_at is not None and game.deadline_at <= self.clock()
            return (
                Reminder(game, waiting) if waiting and not overdue else None
            )  # no nudge once time is up

    async def _expire(self, game_id: int) -> Outcome | None:
        """A due deadline: AI seats that must act do so; human seats whose time ran out are played by the AI."""
        async with self.loader.lock(game_id):
            game = await self.loader.game(game_id)
            if (
                game.status != "active"
                or game.paused_at is not None  # its server removed the bot: no timer fires
                or game.deadline_at is None
                or game.deadline_at > self.clock()
            ):
                return None
            seats = await self.storage.seats.seats(game_id)
            state = await self.loader.state(game)
            if ai_due(seats, state):
                return await self.recorder.run_ai(
                    game, seats, state, [], before=state, limit=MAX_AI_ACTIONS
                )
            late = {s for s in state.seats_to_act() if not ai_controlled(seats[s])}
            if not late:
                return None
            events: list[Event] = []
            streaks: dict[int, SeatChanges] = {}
            for s in sorted(late):
                streak = seats[s].expiries_in_row + 1
                streaks[s] = {
                    "expiries_in_row": streak,
                    "ai_permanent": seats[s].ai_permanent or streak >= MAX_EXPIRIES,
                }
                log.info("game %s: seat %s ran out of time (%s in a row)", game_id, s, streak)
            seats = with_changes(seats, streaks)
            # the AI plays the late seats' turn, then the AI seats that follow; stored with the
            # timeout counts in ONE transaction
            after, moves = await self.recorder.ai_moves(
                game, seats, state, events, limit=MAX_AI_ACTIONS, source="timeout", only=late
            )
            if turn_key(after) == turn_key(state) and not after.finished:
                log.warning("game %s: the timed-out turn did not end", game_id)
            after, replies = await self.recorder.ai_moves(
                game, seats, after, events, limit=MAX_AI_ACTIONS
            )
            moves += replies
            game = await self.recorder.store(game, seats, state, moves, after, seat_changes=streaks)
            return self.recorder.outcome(game, after, events, state, len(moves))

    def start(self) -> None:
        """Start the timer loop on the running event loop (idempotent)."""
        if self._timer_task is None or self._timer_task.done():
            self._timer_task = asyncio.get_running_loop().create_task(
                self._timer_loop(), name="ttr-timers"
            )

    async def _timer_loop(self) -> None:
        while True:
            try:
                await self.run_due()
                await self.privacy.purge_due()
                for chore in self.chores:
                    await chore()
                nxt = await self.storage.timers.next_deadline(self.shards)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep the clock alive
                log.exception("timer loop failed; retrying")
                nxt = None
            delay = MAX_SLEEP if nxt is None else min(MAX_SLEEP, max(0.0, nxt.when - self.clock()))
            self.wakes.timers.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wakes.timers.wait(), timeout=delay)

    async def close(self) -> None:
        """Stop the timer loop."""
        task, self._timer_task = self._timer_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
