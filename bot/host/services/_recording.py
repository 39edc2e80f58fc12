"""Recording moves for the service: AI seats' moves, the timers after a move, one transaction, the outcome.

Flow of every change: per-game lock -> load the game row and its state
(:mod:`._loading`) -> check who asks -> ``engine.apply`` ->
``storage.actions.append_actions`` (the actions, the seat changes that belong to
them and, every ``SNAPSHOT_EVERY`` actions, a snapshot, in ONE transaction,
``WHERE version = ?``) -> AI seats that must act next do so the same way ->
an :class:`~._models.Outcome`. A refused action raises before anything is
written.

Timers: every stored game carries the current turn's ``deadline_at`` and
``reminder_at`` (unix seconds). A human turn gets ``now + turn_seconds`` and
a reminder at half time; a moment where an AI seat must act (or a timed-out
seat must be played) gets ``deadline_at = now``, so a crash between two AI
actions is resumed by the timer loop after a restart.

Nothing here imports discord."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from bot.host import ratings
from bot.host.ai_workers import WORKER_LEVELS, AiWorkers
from bot.host.ratings import ai_player, former_player, user_player
from bot.host.storage import (
    SNAPSHOT_EVERY,
    ActionSource,
    GameRow,
    NewAction,
    PlayerResult,
    SeatChanges,
    SeatRow,
    Storage,
)
from bot.process import metrics
from engine import Action, Event, GameState, apply
from engine.ai import ai_level, choose_action
from engine.codec import encode_action, encode_state
from maps.loader import load_ruleset

from ._changes import Changes
from ._loading import GameLoader, Wakes, ai_controlled, turn_key, turn_number
from ._models import Outcome, redacted

#: Threads of :meth:`MoveRecorder.ai_moves` (each waits while its game's AI decides, up to 10 s
#: for an expert seat); the decisions themselves queue for the AI worker processes.
AI_MOVE_THREADS = 32

log = logging.getLogger(__name__)

#: Guard against a runaway AI loop (a whole 5-player game is < 1,000 actions).
MAX_AI_ACTIONS = 5_000


def player_results(state: GameState, seats: Sequence[SeatRow]) -> list[PlayerResult]:
    """Per-seat results of a finished game for the statistics and ratings (rank 1 = winners; AI
    seats keep user None): each seat's rating identity and place (:func:`rating_places`) and
    whether it won the longest-path bonus."""
    result = state.result
    assert result is not None
    places = rating_places(state)
    out = []
    for s in result.seats:
        won = s.seat in result.winners
        rank = 1 if won else 1 + result.ranking.index(s.seat)
        row = seats[s.seat]
        out.append(
            PlayerResult(
                seat=s.seat,
                user_id=None if row.is_ai else row.user_id,
                score=s.score,
                rank=rank,
                won=won,
                tickets_completed=s.tickets_completed,
                tickets_failed=s.tickets_failed,
                player=rating_identity(row),
                place=places[s.seat],
                longest_path_bonus=s.breakdown.get("longest_path", 0) > 0,
            )
        )
    return out


def rating_identity(seat: SeatRow) -> str:
    """Who a seat is for the ratings: the person (``user:<id>``, also after resigning or when the
    computer took the seat over), a person forgotten while the game was paused
    (``former:<game>.<seat>``, see :func:`bot.host.ratings.former_player`), or the computer's level
    (``ai:easy|normal|hard|expert``; seats stored as ``heuristic`` are normal)."""
    if not seat.is_ai:
        if seat.user_id is not None:
            return user_player(seat.user_id)
        return former_player(f"{seat.game_id}.{seat.seat}")
    return ai_player(ai_level(seat.ai_kind or "normal"))


def rating_places(state: GameState) -> list[int]:
    """Each seat's place in a finished game for the ratings (:func:`bot.host.ratings.places`): by
    points, then the map's tie-breaks (USA rules "Spielende": most completed tickets, then the
    longest path), tied seats sharing a place, resigned seats last; the winners share place 1.
    A tie-break this function does not know keeps the engine's order (no tie)."""
    result = state.result
    assert result is not None
    tiebreaks = load_ruleset(state.map_id).params.tiebreaks

    def key(seat: int) -> tuple[int, ...]:
        s = result.seats[seat]
        known = {
            "tickets_completed": s.tickets_completed,
            "longest_path": s.longest_path,
            "longest_path_bonus": s.breakdown.get("longest_path", 0),
        }
        return (s.score, *(known.get(tb, -result.ranking.index(seat)) for tb in tiebreaks))

    seats = range(len(result.seats))
    places = ratings.places([key(i) for i in seats], [state.players[i].resigned for i in seats])
    return [1 if i in result.winners else p for i, p in zip(seats, places, strict=True)]


def ai_due(seats: Sequence[SeatRow], state: GameState) -> bool:
    """True when an AI-controlled seat must act in ``state``."""
    return any(ai_controlled(seats[s]) for s in state.seats_to_act())


class MoveRecorder:
    """Applies AI seats' moves and stores moves with their timers and seat changes in one
    transaction (see the module docstring); every part that moves a game goes through it.

    Needs the storage, the :class:`~._loading.GameLoader` (the state cache it keeps up to
    date), the :class:`~._loading.Wakes` it sets (a timer set, a game finished) and the
    clock. ``auto_ai``: AI seats act as soon as it is their turn (False: the demo steps them);
    ``ai_workers``: where the hard AI decides (None: a thread of this process); ``changes``:
    told of every stored change (:class:`~._changes.Changes`; the lobby and play parts tell
    it of theirs too).
    """

    def __init__(
        self,
        storage: Storage,
        loader: GameLoader,
        wakes: Wakes,
        *,
        clock: Callable[[], float],
        auto_ai: bool = True,
        ai_workers: AiWorkers | None = None,
        changes: Changes | None = None,
    ) -> None:
        self.storage = storage
        self.loader = loader
        self.wakes = wakes
        #: Told after every stored change (the live board follows games through it).
        self.changes = changes if changes is not None else Changes(storage)
        self.clock = clock
        self.auto_ai = auto_ai
        self.ai_workers = ai_workers
        self._ai_threads: ThreadPoolExecutor | None = None
        #: Awaited with the game id after a game was stored finished (its own transactions:
        #: the game's end is already committed), in order; each logs its own failure.
        self.on_finished: list[Callable[[int], Awaitable[object]]] = []

    def timers(
        self, game: GameRow, seats: Sequence[SeatRow], before: GameState | None, after: GameState
    ) -> tuple[float | None, float | None]:
        """``(deadline_at, reminder_at)`` for the game after a move (see module docstring)."""
        if after.finished:
            return None, None
        now = self.clock()
        waiting = [seats[s] for s in after.seats_to_act()]
        if any(ai_controlled(s) for s in waiting) or not waiting:
            return (
                now,
                None,
            )  # an AI must act: due at once (resumed by the timer loop after a crash)
        if (
            before is not None
            and turn_key(before) == turn_key(after)
            and game.deadline_at is not None
            and game.deadline_at > now - 1e-9
            and not ai_due(seats, before)
        ):
            return game.deadline_at, game.reminder_at
        start = max([now] + [s.vacation_until for s in waiting if s.vacation_until is not None])
        return start + game.turn_seconds, start + game.turn_seconds / 2

    async def store(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        before: GameState,
        moves: Sequence[Move],
        after: GameState,
        *,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        """Store ``moves`` (applied one after the other from ``before`` to ``after``), the seat
        changes that belong to them, the timers after them and, when they crossed a multiple of
        ``SNAPSHOT_EVERY`` or ended the game, a snapshot: ONE transaction (raises
        VersionConflict if the game moved on meanwhile; nothing is written then). A finished
        game wakes the analysis queue."""
        if not moves:
            if seat_changes:
                await self.storage.seats.update_seats(game.id, seat_changes)
                self.changes.notify(game.id, game.version)
            return game
        deadline, reminder = self.timers(game, seats, before, after)
        finished = after.finished
        checkpoint = finished or before.version // SNAPSHOT_EVERY != after.version // SNAPSHOT_EVERY
        game = await self.storage.actions.append_actions(
            game.id,
            before.version,
            [NewAction(encode_action(m.action), m.action.seat, m.source, m.actor) for m in moves],
            new_snapshot=encode_state(after) if checkpoint else None,
            seat_changes=seat_changes,
            deadline_at=deadline,
            reminder_at=reminder,
            new_status="finished" if finished else None,
            results=player_results(after, seats) if finished else None,
        )
        metrics.count_actions(m.source for m in moves)
        self.loader.remember(game.id, after)
        self.changes.notify(game.id, game.version)
        if deadline is not None:
            self.wakes.timers.set()
        if finished:
            self.wakes.analyses.set()  # its analysis was queued in the same transaction
            log.info("game %s finished after %s actions", game.id, after.version)
            for hook in self.on_finished:
                await hook(game.id)
        return game

    async def ai_moves(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        state: GameState,
        events: list[Event],
        *,
        limit: int,
        source: ActionSource = "ai",
        only: set[int] | None = None,
    ) -> tuple[GameState, list[Move]]:
        """Apply, in memory, actions of AI-controlled seats (or of ``only`` seats) while one must
        act, up to ``limit``; returns the state after them and the moves (not stored yet).

        The choosing runs in a worker thread: a hard AI seat thinks up to about 1.4 s per
        move (an expert seat up to 10 s), and the event loop must keep answering every other
        interaction meanwhile. The threads are the recorder's own (:data:`AI_MOVE_THREADS`),
        so tables whose AI thinks never hold the loop's default executor, which images,
        queries and hints share (six expert tables would fill a 2-core machine's six).
        With ``ai_workers`` the hard AI's decisions are made in a worker process (the thread
        waits for it), so its caches never fill this process. The caller holds the game's
        lock, so nothing else touches this game (the engine's shared caches only hold
        derived values and are safe to fill from two threads). Raises
        :class:`~bot.host.ai_workers.AiWorkerError` when no worker could decide: nothing is
        stored then.
        """
        if self._ai_threads is None:
            self._ai_threads = ThreadPoolExecutor(AI_MOVE_THREADS, thread_name_prefix="ttr-ai-move")
        call = functools.partial(
            self._ai_moves_now, game, seats, state, events, limit=limit, source=source, only=only
        )
        return await asyncio.get_running_loop().run_in_executor(self._ai_threads, call)

    def close(self) -> None:
        """Let the threads of AI moves end (a move under way finishes first)."""
        if self._ai_threads is not None:
            self._ai_threads.shutdown(wait=False)
            self._ai_threads = None

    def _ai_moves_now(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        state: GameState,
        events: list[Event],
        *,
        limit: int,
        source: ActionSource = "ai",
        only: set[int] | None = None,
    ) -> tuple[GameState, list[Move]]:
        """:meth:`ai_moves` in the calling thread."""
        rules = load_ruleset(game.map_id)
        moves: list[Move] = []
        while not state.finished and len(moves) < limit:
            pending = state.seats_to_act()
            seat = next(
                (
                    s
                    for s in pending
                    if (only is not None and s in only)
                    or (only is None and ai_controlled(seats[s]))
                ),
                None,
            )
            if seat is None:
                break
            kind = seats[seat].ai_kind or "heuristic"
            workers = self.ai_workers
            with metrics.ai_timer(ai_level(kind)):  # in a worker process or here: the wait
                if workers is not None and ai_level(kind) in WORKER_LEVELS:
                    action = workers.choose(game.map_id, state, seat, kind)
                else:
                    action = choose_action(rules, state, seat, kind)
            transition = apply(rules, state, action)
            moves.append(Move(action, source))
            events.extend(transition.events)
            state = transition.state
        return state, moves

    async def proceed(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        state: GameState,
        events: list[Event],
        *,
        before: GameState | None,
        actions: int = 1,
    ) -> Outcome:
        """After a move: let AI seats act (when ``auto_ai``), then build the outcome."""
        if self.auto_ai:
            return await self.run_ai(
                game,
                seats,
                state,
                events,
                before=before,
                limit=MAX_AI_ACTIONS,
                actions=actions if events else 0,
            )
        return self.outcome(game, state, events, before, actions if events else 0)

    async def run_ai(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        state: GameState,
        events: list[Event],
        *,
        before: GameState | None,
        limit: int,
        actions: int = 0,
        source: ActionSource = "ai",
        only: set[int] | None = None,
        seat_updates: dict[int, SeatChanges] | None = None,
    ) -> Outcome:
        """Apply actions of AI-controlled seats (or of ``only`` seats) while one must act, up to
        ``limit``, and store them with ``seat_updates`` in one transaction."""
        seats = with_changes(seats, seat_updates)
        after, moves = await self.ai_moves(
            game, seats, state, events, limit=limit, source=source, only=only
        )
        game = await self.store(game, seats, state, moves, after, seat_changes=seat_updates)
        return self.outcome(game, after, events, before, actions + len(moves))

    def outcome(
        self,
        game: GameRow,
        state: GameState,
        events: Sequence[Event],
        before: GameState | None,
        actions: int,
    ) -> Outcome:
        """What ``events`` (from ``before``, None at the start, to ``state``) did, for the caller:
        public and private events, who acts now, whether the turn ended."""
        public = tuple(redacted(e) for e in events)
        private: dict[int, tuple[dict[str, Any], ...]] = {}
        for e in events:
            if e.secret is not None and e.seat is not None:
                private.setdefault(e.seat, ())
                private[e.seat] += (e.for_reader(e.seat),)
        ended = before is None or turn_key(before) != turn_key(state)
        return Outcome(
            game=game,
            events=tuple(events),
            public_events=public,
            private_events=private,
            actions=actions,
            to_act=tuple(state.seats_to_act()),
            turn_ended=ended and actions > 0 or before is None,
            result=state.result,
            from_turn=0 if before is None else turn_number(before),
        )


@dataclass(frozen=True, slots=True)
class Move:
    """An applied action waiting to be stored: who made it (``source``, ``actor`` user id)."""

    action: Action
    source: ActionSource = "ai"
    actor: int | None = None


def with_changes(
    seats: Sequence[SeatRow], changes: Mapping[int, SeatChanges] | None
) -> list[SeatRow]:
    """``seats`` with ``changes`` applied in memory (as they will be stored)."""
    if not changes:
        return list(seats)
    return [replace(s, **changes[s.seat]) if s.seat in changes else s for s in seats]
