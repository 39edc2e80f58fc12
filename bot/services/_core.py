"""The service core shared by its parts: locks, the state cache, persisting an action, AI seats, outcomes.

Flow of every change: per-game lock -> load the game row and its state (the
newest snapshot plus the actions after it, cached) -> check who asks ->
``engine.apply`` -> ``storage.append_action`` (the action, the seat changes
that belong to it and, every ``SNAPSHOT_EVERY`` actions, a snapshot, in ONE
transaction, ``WHERE version = ?``) -> AI seats
that must act next do so the same way -> an :class:`Outcome`. A refused
action raises before anything is written.

Timers: every stored game carries the current turn's ``deadline_at`` and
``reminder_at`` (unix seconds). A human turn gets ``now + turn_seconds`` and
a reminder at half time; a moment where an AI seat must act (or a timed-out
seat must be played) gets ``deadline_at = now``, so a crash between two AI
actions is resumed by the timer loop after a restart.

Nothing here imports discord."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from engine import (
    Action,
    EngineError,
    Event,
    GameState,
    apply,
    replay,
)
from engine.ai import choose_action
from engine.codec import decode_action, decode_state, encode_action, encode_state
from maps.loader import load_ruleset

from ..storage import (
    DEFAULT_TURN_SECONDS,
    SNAPSHOT_EVERY,
    ActionRow,
    ActionSource,
    CorruptGame,
    GameRow,
    NewAction,
    PlayerResult,
    QuarantinedGame,
    SeatChanges,
    SeatRow,
    ShardFilter,
    Storage,
)
from ._errors import ServiceError
from ._models import Outcome, Reminder, redacted

_Found = TypeVar("_Found")

log = logging.getLogger(__name__)


#: Vacation a player may take per game, in days (issue 6: "up to 7 days per game").
VACATION_DAYS = 7
#: Consecutive turn timeouts after which the AI keeps the seat for good.
MAX_EXPIRIES = 3
#: Turn times offered by ``/ttr new`` (seconds); any positive value works here.
TURN_TIMES = (600, 3600, DEFAULT_TURN_SECONDS, 259_200)
#: Guard against a runaway AI loop (a whole 5-player game is < 1,000 actions).
MAX_AI_ACTIONS = 5_000
#: Decoded states kept in memory (games are loaded lazily; idle ones cost nothing). A state
#: is a few KB, so 4,096 keeps every running game of a busy process warm: a miss costs a
#: snapshot decode plus the replay of up to SNAPSHOT_EVERY actions (issue 12.8).
STATE_CACHE = 4096
#: Longest sleep of the timer loop between looks at the database, seconds.
MAX_SLEEP = 60.0

OnTurn = Callable[[int, Outcome], Awaitable[None]]
OnReminder = Callable[[Reminder], Awaitable[None]]
OnQuarantine = Callable[[QuarantinedGame], Awaitable[None]]
#: What decoding a snapshot or replaying a stored action raises on damaged data.
_UNREADABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError, EngineError)


def ai_controlled(seat: SeatRow) -> bool:
    """True when the AI plays this seat: an AI seat, a resigned player or one lost to timeouts."""
    return seat.is_ai or seat.ai_permanent or seat.resigned


def turn_number(state: GameState) -> int:
    """The number of the turn being played, as the board counts: 0 during the ticket choice, then 1, 2, ..."""
    return 0 if state.phase == "setup" else state.turn + 1


def turn_key(state: GameState) -> tuple[Any, ...]:
    """What identifies "one turn" for the clock: the whole setup is one turn, then each player turn."""
    if state.phase == "setup":
        return ("setup",)
    return (state.phase, state.turn, state.active)


def player_results(state: GameState, seats: Sequence[SeatRow]) -> list[PlayerResult]:
    """Per-seat results of a finished game for the statistics (rank 1 = winners; AI seats keep user None)."""
    result = state.result
    assert result is not None
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
            )
        )
    return out


class ServiceCore:
    """Games in channels: lobby, play, clocks, statistics. Methods take Discord ids and return dataclasses.

    Args:
        storage: an open :class:`~bot.storage.Storage`.
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
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.auto_ai = auto_ai
        self.on_turn = on_turn
        self.on_reminder = on_reminder
        self.on_quarantine = on_quarantine
        self.shards = shards
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._states: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
        self._wake = asyncio.Event()
        self._timer_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ plumbing
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _game(self, game_id: int) -> GameRow:
        return await self._found(game_id, self.storage.get_game)

    async def _found(self, game_id: int, read: Callable[[int], Awaitable[_Found | None]]) -> _Found:
        """``read(game_id)`` (a storage read of the game's row); ServiceError
        ``game_not_found`` when it finds nothing, ``game_quarantined`` (after quarantining
        the game) when the row is corrupt."""
        try:
            found = await read(game_id)
        except CorruptGame as exc:
            await self._quarantine(game_id, exc.reason)
            raise ServiceError("game_quarantined", {"game": game_id}) from None
        if found is None:
            raise ServiceError("game_not_found", {"game": game_id})
        return found

    async def _state(self, game: GameRow) -> GameState:
        """The engine state of ``game`` at its version (cached by version).

        Loaded as the newest stored snapshot plus the actions after it,
        replayed by the engine (snapshots are stored every ``SNAPSHOT_EVERY``
        actions); a cached older state only replays the actions it lacks. A
        game whose state cannot be read is quarantined (ServiceError
        ``game_quarantined``).
        """
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.version:
            self._states.move_to_end(game.id)
            return cached[1]
        if game.status == "quarantined":
            raise ServiceError("game_quarantined", {"game": game.id})
        try:
            state = await self._read_state(game, cached)
        except CorruptGame as exc:
            await self._quarantine(game.id, exc.reason)
            raise ServiceError("game_quarantined", {"game": game.id}) from None
        self._remember(game.id, state)
        return state

    async def _read_state(self, game: GameRow, cached: tuple[int, GameState] | None) -> GameState:
        if cached is not None and 0 < game.version - cached[0] <= SNAPSHOT_EVERY:
            tail = await self.storage.actions(game.id, after_seq=cached[0])
            return _replay_tail(game, cached[1], tail)
        return await stored_state(self.storage, game)

    async def _quarantine(self, game_id: int, reason: str) -> None:
        """Take a game whose state cannot be read out of play: one log line, the players told once."""
        moved = await self.storage.quarantine(game_id, reason)
        self._states.pop(game_id, None)
        if moved is None:
            return
        log.error("game %s quarantined: %s", game_id, reason)
        if self.on_quarantine is not None:
            try:
                await self.on_quarantine(moved)
            except Exception:  # noqa: BLE001 - telling the players must not stop the service
                log.exception("game %s: telling the players about the quarantine failed", game_id)

    async def game_state(self, game_id: int) -> GameState:
        """The engine state of a started game, secrets included (server-side use only:
        tests, the demo, operator tools; players get views).

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_quarantined``.
        """
        game = await self._game(game_id)
        if not game.started:
            raise ServiceError("not_started")
        return await self._state(game)

    def _remember(self, game_id: int, state: GameState) -> None:
        self._states[game_id] = (state.version, state)
        self._states.move_to_end(game_id)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)

    @staticmethod
    def _seat_of(seats: Sequence[SeatRow], user_id: int) -> SeatRow | None:
        return next((s for s in seats if s.user_id == user_id and not s.is_ai), None)

    @staticmethod
    def _need_status(game: GameRow, *wanted: str) -> None:
        """Refuse a game whose status is not one of ``wanted``: ServiceError ``not_started``
        (a lobby), ``game_over`` (finished or cancelled), ``game_quarantined`` or
        ``already_started`` (running)."""
        if game.status in wanted:
            return
        detail = {"status": game.status}
        if game.status == "lobby":
            raise ServiceError("not_started", detail)
        if game.status in ("finished", "cancelled"):
            raise ServiceError("game_over", detail)
        if game.status == "quarantined":
            raise ServiceError("game_quarantined", detail)
        raise ServiceError("already_started", detail)

    async def _player_in_play(
        self, game_id: int, user_id: int
    ) -> tuple[GameRow, list[SeatRow], SeatRow]:
        """The active game, its seats and the human seat of ``user_id`` (call under the game's lock).

        Raises ServiceError ``game_not_found``, ``not_started``, ``game_over``, ``not_in_game``, ``is_ai``.
        """
        # one round trip for both: this runs for every move
        game, seats = await self._found(game_id, self.storage.game_with_seats)
        self._need_status(game, "active")
        seat = self._seat_of(seats, user_id)
        if seat is None:
            raise ServiceError("not_in_game")
        if ai_controlled(seat):
            raise ServiceError("is_ai")
        return game, seats, seat

    # ------------------------------------------------------------------ the core loop
    def _timers(
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
            and not self._ai_due(game, seats, before)
        ):
            return game.deadline_at, game.reminder_at
        start = max([now] + [s.vacation_until for s in waiting if s.vacation_until is not None])
        return start + game.turn_seconds, start + game.turn_seconds / 2

    @staticmethod
    def _ai_due(game: GameRow, seats: Sequence[SeatRow], state: GameState) -> bool:
        return any(ai_controlled(seats[s]) for s in state.seats_to_act())

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
        """Store ``moves`` (applied one after the other from ``before`` to ``after``), the seat
        changes that belong to them, the timers after them and, when they crossed a multiple of
        ``SNAPSHOT_EVERY`` or ended the game, a snapshot: ONE transaction (raises
        VersionConflict if the game moved on meanwhile; nothing is written then)."""
        if not moves:
            if seat_changes:
                await self.storage.update_seats(game.id, seat_changes)
            return game
        deadline, reminder = self._timers(game, seats, before, after)
        finished = after.finished
        checkpoint = finished or before.version // SNAPSHOT_EVERY != after.version // SNAPSHOT_EVERY
        game = await self.storage.append_actions(
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
        self._remember(game.id, after)
        if deadline is not None:
            self._wake.set()
        if finished:
            log.info("game %s finished after %s actions", game.id, after.version)
        return game

    async def _ai_moves(
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
        move, and the event loop must keep answering every other interaction meanwhile.
        The caller holds the game's lock, so nothing else touches this game (the engine's
        shared caches only hold derived values and are safe to fill from two threads).
        """
        return await asyncio.to_thread(
            self._ai_moves_now, game, seats, state, events, limit=limit, source=source, only=only
        )

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
        """:meth:`_ai_moves` in the calling thread."""
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
            action = choose_action(rules, state, seat, kind)
            transition = apply(rules, state, action)
            moves.append(Move(action, source))
            events.extend(transition.events)
            state = transition.state
        return state, moves

    async def _continue(
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
            return await self._run_ai(
                game,
                seats,
                state,
                events,
                before=before,
                limit=MAX_AI_ACTIONS,
                actions=actions if events else 0,
            )
        return self._outcome(game, state, events, before, actions if events else 0)

    async def _run_ai(
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
        after, moves = await self._ai_moves(
            game, seats, state, events, limit=limit, source=source, only=only
        )
        game = await self._store(game, seats, state, moves, after, seat_changes=seat_updates)
        return self._outcome(game, after, events, before, actions + len(moves))

    def _outcome(
        self,
        game: GameRow,
        state: GameState,
        events: Sequence[Event],
        before: GameState | None,
        actions: int,
    ) -> Outcome:
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


def _replay_tail(game: GameRow, state: GameState, tail: Sequence[ActionRow]) -> GameState:
    """``state`` moved on by the stored actions up to ``game.version`` (raises CorruptGame)."""
    rules = load_ruleset(game.map_id)
    for row in tail:
        if row.seq > game.version:
            break
        try:
            state = apply(rules, state, decode_action(row.action)).state
        except _UNREADABLE as exc:
            raise CorruptGame(
                game.id, f"action {row.seq} does not replay ({type(exc).__name__})"
            ) from None
    if state.version != game.version:
        raise CorruptGame(
            game.id, f"the stored state reaches version {state.version}, not {game.version}"
        )
    return state


async def stored_state(storage: Storage, game: GameRow) -> GameState:
    """The engine state of a started ``game`` from its newest snapshot and the actions after it
    (no cache; for tools and tests). Raises CorruptGame when it cannot be read."""
    checkpoint = await storage.load_checkpoint(game.id)
    if checkpoint is None:
        raise CorruptGame(game.id, "the game has no snapshot")
    try:
        state = decode_state(checkpoint.snapshot)
    except _UNREADABLE as exc:
        raise CorruptGame(game.id, f"the snapshot does not decode ({type(exc).__name__})") from None
    return _replay_tail(game, state, checkpoint.actions)


async def replay_game(storage: Storage, game: GameRow) -> GameState:
    """Rebuild ``game`` from its seed and stored action log (raises IllegalAction on a corrupt log)."""
    if game.seed is None:
        raise ServiceError("not_started")
    rules = load_ruleset(game.map_id)
    actions = [decode_action(a.action) for a in await storage.actions(game.id)]
    seats = len(await storage.seats(game.id))
    return replay(rules, seats=seats, seed=game.seed, options=game.options, actions=actions)
