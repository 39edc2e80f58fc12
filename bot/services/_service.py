"""GameService: the one door between Discord (or the demo) and the engine plus storage.

Flow of every change: per-game lock -> load the game row (snapshot) ->
check who asks -> ``engine.apply`` -> ``storage.append_action`` (the action
and the new snapshot in ONE transaction, ``WHERE version = ?``) -> AI seats
that must act next do so the same way -> an :class:`Outcome`. A refused
action raises before anything is written.

Timers: every stored game carries the current turn's ``deadline_at`` and
``reminder_at`` (unix seconds). A human turn gets ``now + turn_seconds`` and
a reminder at half time; a moment where an AI seat must act (or a timed-out
seat must be played) gets ``deadline_at = now``, so a crash between two AI
actions is resumed by the timer loop after a restart. One loop sleeps until
the soonest timer in the whole database (``Storage.next_deadline``).

Nothing here imports discord. Callers learn about moves made by the clock
through the ``on_turn`` and ``on_reminder`` callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine import (
    ENGINE_VERSION,
    Action,
    EngineError,
    Event,
    GameState,
    IllegalAction,
    SetupError,
    apply,
    new_game,
    player_view,
    public_view,
    replay,
)
from engine.ai import choose_action
from engine.codec import decode_action, decode_state, encode_action, encode_state
from maps.loader import UnknownMap, available_maps, load_ruleset

from ..storage import (
    DEFAULT_TURN_SECONDS,
    OPEN_STATUSES,
    SNAPSHOT_EVERY,
    UNSET,
    ActionRow,
    ChannelBusy,
    CorruptGame,
    GameRow,
    LeaderboardRow,
    NewSeat,
    PlayerResult,
    QuarantinedGame,
    SeatChanges,
    SeatRow,
    SeatTaken,
    ShardFilter,
    Storage,
    VersionConflict,
)
from ._errors import ServiceError
from ._models import GameViews, Outcome, Reminder, UserGame, UserStats

log = logging.getLogger(__name__)

#: Vacation a player may take per game, in days (issue 6: "up to 7 days per game").
VACATION_DAYS = 7
#: Consecutive turn timeouts after which the AI keeps the seat for good.
MAX_EXPIRIES = 3
#: Turn times offered by ``/ttr new`` (seconds); any positive value works here.
TURN_TIMES = (600, 3600, DEFAULT_TURN_SECONDS, 259_200)
#: Guard against a runaway AI loop (a whole 5-player game is < 1,000 actions).
MAX_AI_ACTIONS = 5_000
#: Decoded states kept in memory (games are loaded lazily; idle ones cost nothing).
STATE_CACHE = 256
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


class GameService:
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
        try:
            game = await self.storage.get_game(game_id)
        except CorruptGame as exc:
            await self._quarantine(game_id, exc.reason)
            raise ServiceError("game_quarantined", {"game": game_id}) from None
        if game is None:
            raise ServiceError("game_not_found", {"game": game_id})
        return game

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
            state = cached[1]
            tail = await self.storage.actions(game.id, after_seq=cached[0])
        else:
            checkpoint = await self.storage.load_checkpoint(game.id)
            if checkpoint is None:
                raise CorruptGame(game.id, "the game has no snapshot")
            try:
                state = decode_state(checkpoint.snapshot)
            except _UNREADABLE as exc:
                raise CorruptGame(
                    game.id, f"the snapshot does not decode ({type(exc).__name__})"
                ) from None
            tail = list(checkpoint.actions)
        return _replay_tail(game, state, tail)

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
        if game.status in wanted:
            return
        code = {
            "lobby": "not_started",
            "finished": "game_finished",
            "cancelled": "game_finished",
            "quarantined": "game_quarantined",
        }.get(game.status, "already_started")
        if "lobby" in wanted and game.status == "active":
            code = "already_started"
        raise ServiceError(code, {"status": game.status})

    async def _player_in_play(
        self, game_id: int, user_id: int
    ) -> tuple[GameRow, list[SeatRow], SeatRow]:
        """The active game, its seats and the human seat of ``user_id`` (call under the game's lock).

        Raises ServiceError ``game_not_found``, ``not_started``, ``game_finished``, ``not_in_game``, ``is_ai``.
        """
        game = await self._game(game_id)
        self._need_status(game, "active")
        seats = await self.storage.seats(game_id)
        seat = self._seat_of(seats, user_id)
        if seat is None:
            raise ServiceError("not_in_game")
        if ai_controlled(seat):
            raise ServiceError("is_ai")
        return game, seats, seat

    # ------------------------------------------------------------------ lobby
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        map_id: str,
        options: Mapping[str, Any] | None = None,
        turn_seconds: int = DEFAULT_TURN_SECONDS,
        thread_id: int | None = None,
        host_plays: bool = True,
    ) -> GameRow:
        """Open a lobby in ``channel_id`` (a channel or thread) with the host seated (unless ``host_plays`` is False).

        Raises:
            ServiceError: ``unknown_map``, ``bad_option`` (options the map does
                not offer), ``bad_turn_time`` (not positive), ``channel_busy``.
        """
        try:
            rules = load_ruleset(map_id)
        except UnknownMap:
            raise ServiceError("unknown_map", {"map": map_id, "maps": available_maps()}) from None
        try:
            resolved = rules.resolve_options(dict(options or {}))
        except SetupError as exc:
            raise ServiceError("bad_option", exc.detail) from None
        if not isinstance(turn_seconds, int) or turn_seconds <= 0:
            raise ServiceError("bad_turn_time", {"given": turn_seconds})
        seats = [NewSeat(display_name=host_name, user_id=host_id, seat=0)] if host_plays else []
        try:
            return await self.storage.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                host_user_id=host_id,
                map_id=map_id,
                options=dict(resolved),
                turn_seconds=turn_seconds,
                seats=seats,
            )
        except ChannelBusy as exc:
            raise ServiceError(
                "channel_busy", {"game": exc.args[1] if len(exc.args) > 1 else None}
            ) from None

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open (lobby or active) game of a channel or thread, or None."""
        return await self.storage.active_game_in_channel(channel_id)

    async def _seats_limit(self, game: GameRow) -> tuple[int, int]:
        p = load_ruleset(game.map_id).params
        return p.min_players, p.max_players

    async def join(self, game_id: int, user_id: int, name: str) -> SeatRow:
        """Seat ``user_id`` in the lobby.

        Raises:
            ServiceError: ``game_not_found``, ``already_started``, ``already_joined``, ``game_full``.
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            self._need_status(game, "lobby")
            seats = await self.storage.seats(game_id)
            if self._seat_of(seats, user_id) is not None:
                raise ServiceError("already_joined")
            _, most = await self._seats_limit(game)
            if len(seats) >= most:
                raise ServiceError("game_full", {"max": most})
            try:
                return await self.storage.add_seat(
                    game_id, NewSeat(display_name=name, user_id=user_id)
                )
            except SeatTaken:
                raise ServiceError("already_joined") from None

    async def leave(self, game_id: int, user_id: int) -> None:
        """Give up a lobby seat (the host cancels instead).

        Raises:
            ServiceError: ``game_not_found``, ``already_started``, ``not_in_game``, ``host_cannot_leave``.
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            self._need_status(game, "lobby")
            seat = self._seat_of(await self.storage.seats(game_id), user_id)
            if seat is None:
                raise ServiceError("not_in_game")
            if user_id == game.host_user_id:
                raise ServiceError("host_cannot_leave")
            await self.storage.remove_seat(game_id, seat.seat)

    async def add_ai(self, game_id: int, user_id: int, *, kind: str = "heuristic") -> SeatRow:
        """The host adds an AI seat to the lobby.

        Raises:
            ServiceError: ``game_not_found``, ``not_host``, ``already_started``, ``game_full``.
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            if user_id != game.host_user_id:
                raise ServiceError("not_host")
            self._need_status(game, "lobby")
            seats = await self.storage.seats(game_id)
            _, most = await self._seats_limit(game)
            if len(seats) >= most:
                raise ServiceError("game_full", {"max": most})
            number = 1 + sum(1 for s in seats if s.is_ai)
            return await self.storage.add_seat(
                game_id, NewSeat(display_name=f"AI {number}", is_ai=True, ai_kind=kind)
            )

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> Outcome:
        """The host starts the game: deal, then AI seats choose their tickets.

        Seats are renumbered 0..n-1 in joining order first (leaving may have
        left gaps). Raises:
            ServiceError: ``game_not_found``, ``not_host``, ``already_started``,
                ``not_enough_players``/``too_many_players`` (detail min, max).
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            if user_id != game.host_user_id:
                raise ServiceError("not_host")
            self._need_status(game, "lobby")
            rules = load_ruleset(game.map_id)
            seats = await self.storage.seats(game_id)
            least, most = rules.params.min_players, rules.params.max_players
            if len(seats) < least:
                raise ServiceError("not_enough_players", {"min": least, "max": most})
            if len(seats) > most:
                raise ServiceError("too_many_players", {"min": least, "max": most})
            seed = self.seed_source() if seed is None else seed
            state = new_game(rules, seats=len(seats), seed=seed, options=game.options)
            deadline, reminder = self._timers(game, seats, None, state)
            # one transaction: seats renumbered 0..n-1 in joining order, status, seed, snapshot
            game = await self.storage.start_game(
                game_id,
                seed=seed,
                snapshot=encode_state(state),
                engine_version=ENGINE_VERSION,
                deadline_at=deadline,
                reminder_at=reminder,
            )
            seats = await self.storage.seats(game_id)
            self._remember(game_id, state)
            self._wake.set()
            return await self._continue(game, seats, state, [], before=None)

    async def cancel(self, game_id: int, user_id: int, *, moderator: bool = False) -> GameRow:
        """Cancel a lobby or running game: the host, or a member with Manage Channels (``moderator``).

        Raises:
            ServiceError: ``game_not_found``, ``not_allowed``, ``game_finished``.
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            if user_id != game.host_user_id and not moderator:
                raise ServiceError("not_allowed")
            self._need_status(game, "lobby", "active")
            self._states.pop(game_id, None)
            return await self.storage.set_status(game_id, "cancelled")

    # ------------------------------------------------------------------ play
    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Action | Mapping[str, Any],
        *,
        expected_version: int | None = None,
    ) -> Outcome:
        """Apply a player's action, then let AI seats act; return what happened.

        ``action`` is an engine action or its JSON form (``engine.codec``).
        ``expected_version`` (optional) refuses a click made on an older board.

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_finished``,
                ``not_in_game``, ``is_ai`` (the AI holds the seat),
                ``stale_version``, ``malformed_action``, ``not_your_turn``.
            IllegalAction: the rules refuse the action (its own code).
        """
        if not isinstance(action, Action):
            action = decode_action(action)  # IllegalAction("malformed_action") on garbage
        async with self._lock(game_id):
            game, seats, seat = await self._player_in_play(game_id, user_id)
            if expected_version is not None and expected_version != game.version:
                raise ServiceError(
                    "stale_version", {"expected": expected_version, "current": game.version}
                )
            if action.seat != seat.seat:
                raise ServiceError("malformed_action", {"reason": "the action names another seat"})
            state = await self._state(game)
            if seat.seat not in state.seats_to_act():
                raise ServiceError("not_your_turn")
            rules = load_ruleset(game.map_id)
            transition = apply(rules, state, action)  # raises IllegalAction: nothing written
            changes = self._after_human_move(seat)
            seats = _with_changes(seats, changes)
            try:
                game = await self._persist(
                    game,
                    seats,
                    state,
                    action,
                    transition.state,
                    source="player",
                    actor=user_id,
                    seat_changes=changes,
                )
            except VersionConflict as exc:  # another process moved the game on meanwhile
                raise ServiceError(
                    "stale_version", {"expected": exc.expected, "current": exc.actual}
                ) from None
            return await self._continue(
                game, seats, transition.state, list(transition.events), before=state
            )

    def _after_human_move(self, seat: SeatRow) -> dict[int, SeatChanges]:
        """A player acted: the timeout streak is over, and an ongoing vacation ends (unused time
        refunded). Stored with the move, in its transaction."""
        now = self.clock()
        changes: SeatChanges = {}
        if seat.expiries_in_row:
            changes["expiries_in_row"] = 0
        if seat.vacation_until is not None:
            changes["vacation_until"] = None
            changes["vacation_used_s"] = max(
                0.0, seat.vacation_used_s - max(0.0, seat.vacation_until - now)
            )
        return {seat.seat: changes} if changes else {}

    async def play_ai(self, game_id: int, *, max_actions: int = 1) -> Outcome:
        """Apply up to ``max_actions`` actions of AI-controlled seats that must act now (for a service
        built with ``auto_ai=False``, e.g. the demo, which renders between moves).

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_finished``.
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            self._need_status(game, "active")
            seats = await self.storage.seats(game_id)
            state = await self._state(game)
            return await self._run_ai(game, seats, state, [], before=state, limit=max_actions)

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        """A player gives up: the AI plays the seat to the end (its score still counts).

        Raises:
            ServiceError: ``game_not_found``, ``not_started``, ``game_finished``, ``not_in_game``, ``is_ai``.
        """
        async with self._lock(game_id):
            game, seats, seat = await self._player_in_play(game_id, user_id)
            state = await self._state(game)
            # one transaction: the seat, and an AI turn due at once when the seat must act
            # (so a crash right after is resumed by the timer loop)
            due = seat.seat in state.seats_to_act()
            seats = await self.storage.update_seats(
                game_id,
                {seat.seat: {"resigned": True, "ai_permanent": True, "vacation_until": None}},
                deadline_at=self.clock() if due else UNSET,
                reminder_at=None if due else UNSET,
                expected_version=game.version,
            )
            if due:
                self._wake.set()
            game = await self._game(game_id)
            log.info("game %s: seat %s resigned", game_id, seat.seat)
            return await self._continue(game, seats, state, [], before=state)

    async def vacation(self, game_id: int, user_id: int, *, days: int) -> SeatRow:
        """Pause the player's clock for ``days`` (1-7; at most 7 days per game in all).

        A turn that is running gets its deadline moved by the same time.
        Raises:
            ServiceError: ``bad_days`` (detail min, max), ``vacation_limit``
                (detail left days), ``game_not_found``, ``not_started``,
                ``game_finished``, ``not_in_game``, ``is_ai``.
        """
        if not isinstance(days, int) or not 1 <= days <= VACATION_DAYS:
            raise ServiceError("bad_days", {"min": 1, "max": VACATION_DAYS})
        async with self._lock(game_id):
            game, seats, seat = await self._player_in_play(game_id, user_id)
            span = days * 86_400.0
            left = VACATION_DAYS * 86_400.0 - seat.vacation_used_s
            if span > left + 1e-6:
                raise ServiceError("vacation_limit", {"left": int(left // 86_400)})
            now = self.clock()
            until = max(now, seat.vacation_until or now) + span
            state = await self._state(game)
            moves = seat.seat in state.seats_to_act() and game.deadline_at is not None
            # one transaction: the seat's vacation and the running turn's moved clock
            rows = await self.storage.update_seats(
                game_id,
                {
                    seat.seat: {
                        "vacation_until": until,
                        "vacation_used_s": seat.vacation_used_s + span,
                    }
                },
                deadline_at=(game.deadline_at or 0.0) + span if moves else UNSET,
                reminder_at=(
                    (None if game.reminder_at is None else game.reminder_at + span)
                    if moves
                    else UNSET
                ),
                expected_version=game.version,
            )
            log.info("game %s: seat %s on vacation for %s days", game_id, seat.seat, days)
            return next(r for r in rows if r.seat == seat.seat)

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

    async def _persist(
        self,
        game: GameRow,
        seats: Sequence[SeatRow],
        before: GameState,
        action: Action,
        after: GameState,
        *,
        source: str,
        actor: int | None,
        timers: tuple[float | None, float | None] | None = None,
        seat_changes: Mapping[int, SeatChanges] | None = None,
    ) -> GameRow:
        """Append ``action`` (with a snapshot every ``SNAPSHOT_EVERY`` actions and at the end) and
        ``seat_changes`` in one transaction (raises VersionConflict if moved on)."""
        deadline, reminder = (
            timers if timers is not None else self._timers(game, seats, before, after)
        )
        finished = after.finished
        checkpoint = finished or after.version % SNAPSHOT_EVERY == 0
        game = await self.storage.append_action(
            game.id,
            before.version,
            action=encode_action(action),
            new_snapshot=encode_state(after) if checkpoint else None,
            seat_changes=seat_changes,
            seat=action.seat,
            deadline_at=deadline,
            reminder_at=reminder,
            source=source,  # type: ignore[arg-type]
            actor_user_id=actor,
            new_status="finished" if finished else None,
            results=player_results(after, seats) if finished else None,
        )
        self._remember(game.id, after)
        if deadline is not None:
            self._wake.set()
        if finished:
            log.info("game %s finished after %s actions", game.id, after.version)
        return game

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
        source: str = "ai",
        only: set[int] | None = None,
        seat_updates: dict[int, SeatChanges] | None = None,
    ) -> Outcome:
        """Apply actions of AI-controlled seats (or of ``only`` seats) while one must act, up to
        ``limit``. ``seat_updates`` are stored with that seat's first action (and removed)."""
        rules = load_ruleset(game.map_id)
        done = 0
        while not state.finished and done < limit:
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
            changes = (
                {seat: seat_updates.pop(seat)} if seat_updates and seat in seat_updates else None
            )
            seats = _with_changes(seats, changes)
            game = await self._persist(
                game,
                seats,
                state,
                action,
                transition.state,
                source=source,
                actor=None,
                seat_changes=changes,
            )
            events.extend(transition.events)
            state = transition.state
            done += 1
        return self._outcome(game, state, events, before, actions + done)

    def _outcome(
        self,
        game: GameRow,
        state: GameState,
        events: Sequence[Event],
        before: GameState | None,
        actions: int,
    ) -> Outcome:
        public = tuple(replace(e, secret=None) if e.secret is not None else e for e in events)
        private: dict[int, tuple[dict, ...]] = {}
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
        )

    # ------------------------------------------------------------------ reading
    async def views(self, game_id: int, user_id: int) -> GameViews:
        """The game as ``user_id`` may see it (``user_id=0``: the public).

        Raises:
            ServiceError: ``game_not_found``.
        """
        game = await self._game(game_id)
        seats = await self.storage.seats(game_id)
        if not game.started:
            return GameViews(game, seats, None, None, None)
        rules = load_ruleset(game.map_id)
        state = await self._state(game)
        seat = self._seat_of(seats, user_id) if user_id else None
        mine = player_view(rules, state, seat.seat) if seat is not None else None
        return GameViews(
            game, seats, public_view(rules, state), mine, None if seat is None else seat.seat
        )

    async def public_log(self, game_id: int, count: int = 10) -> list[Event]:
        """The public events of (at least) the last ``count`` actions, oldest first, secrets cut out.

        Raises:
            ServiceError: ``game_not_found``, ``not_started``.
        """
        game = await self._game(game_id)
        if game.seed is None:
            raise ServiceError("not_started")
        rules = load_ruleset(game.map_id)
        actions = [decode_action(a.action) for a in await self.storage.actions(game_id)]
        state = new_game(
            rules,
            seats=len(await self.storage.seats(game_id)),
            seed=game.seed,
            options=game.options,
        )
        events: list[Event] = []
        first = max(0, len(actions) - max(1, count) * 3)
        for i, action in enumerate(actions):
            transition = apply(rules, state, action)
            if i >= first:
                events.extend(replace(e, secret=None) for e in transition.events)
            state = transition.state
        return events

    async def games_for_user(self, user_id: int) -> list[UserGame]:
        """Every open game (any server) where ``user_id`` holds a seat, the ones waiting for them first."""
        out = []
        for game in await self.storage.games_for_user(user_id, status=None):
            if game.status not in OPEN_STATUSES:
                continue
            seats = await self.storage.seats(game.id)
            seat = self._seat_of(seats, user_id)
            if seat is None:
                continue
            your_turn = (
                game.started and not ai_controlled(seat) and await self._waits_for(game, seat)
            )
            out.append(
                UserGame(
                    game.id,
                    game.guild_id,
                    game.channel_id,
                    game.thread_id,
                    game.map_id,
                    game.status,
                    seat.seat,
                    your_turn,
                )
            )
        out.sort(key=lambda g: (not g.your_turn, g.id))
        return out

    async def _waits_for(self, game: GameRow, seat: SeatRow) -> bool:
        try:
            return seat.seat in (await self._state(game)).seats_to_act()
        except ServiceError:  # quarantined just now: listed, but nobody's turn
            return False

    async def stats(self, guild_id: int, user_id: int) -> UserStats:
        """A user's totals over finished games in ``guild_id`` (0: every server)."""
        rows = await self.storage.user_history(user_id, limit=1_000_000, guild_id=guild_id or None)
        games = len(rows)
        return UserStats(
            user_id=user_id,
            games=games,
            wins=sum(r.won for r in rows),
            avg_score=sum(r.score for r in rows) / games if games else 0.0,
            best_score=max((r.score for r in rows), default=None),
            tickets_completed=sum(r.tickets_completed for r in rows),
            tickets_failed=sum(r.tickets_failed for r in rows),
            recent=tuple(rows[:5]),
        )

    async def leaderboard(
        self, guild_id: int, limit: int = 10, *, map_id: str | None = None
    ) -> list[LeaderboardRow]:
        """The server's best players: wins, then average score (AI seats left out)."""
        return await self.storage.leaderboard(guild_id, limit, map_id=map_id)

    # ------------------------------------------------------------------ the clock
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
            nxt = await self.storage.next_deadline(self.shards)
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
            await self._quarantine(game_id, exc.reason)
            return None
        except Exception:  # noqa: BLE001 - logged with the game id, the loop goes on
            log.exception("game %s: the %s timer failed; retrying in a minute", game_id, kind)
        await self._retry_later(game_id, kind)
        return None

    async def _retry_later(self, game_id: int, kind: str) -> None:
        try:
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active":
                return
            later = self.clock() + MAX_SLEEP
            await self.storage.set_deadline(
                game_id,
                later if kind == "deadline" else game.deadline_at,
                later if kind == "reminder" else game.reminder_at,
                expected_version=game.version,
            )
        except CorruptGame as exc:
            await self._quarantine(game_id, exc.reason)
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
        async with self._lock(game_id):
            game = await self._game(game_id)
            if (
                game.status != "active"
                or game.reminder_at is None
                or game.reminder_at > self.clock()
            ):
                return None
            if not await self.storage.claim_reminder(game_id, game.reminder_at):
                return None  # another process sent it
            seats = await self.storage.seats(game_id)
            state = await self._state(game)
            waiting = tuple(seats[s] for s in state.seats_to_act() if not ai_controlled(seats[s]))
            overdue = game.deadline_at is not None and game.deadline_at <= self.clock()
            return (
                Reminder(game, waiting) if waiting and not overdue else None
            )  # no nudge once time is up

    async def _expire(self, game_id: int) -> Outcome | None:
        """A due deadline: AI seats that must act do so; human seats whose time ran out are played by the AI."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if (
                game.status != "active"
                or game.deadline_at is None
                or game.deadline_at > self.clock()
            ):
                return None
            seats = await self.storage.seats(game_id)
            state = await self._state(game)
            if self._ai_due(game, seats, state):
                return await self._run_ai(
                    game, seats, state, [], before=state, limit=MAX_AI_ACTIONS
                )
            late = {s for s in state.seats_to_act() if not ai_controlled(seats[s])}
            if not late:
                return None
            events: list[Event] = []
            before = state
            key = turn_key(state)
            # each late seat's streak is stored with its first timeout action (one transaction)
            streaks: dict[int, SeatChanges] = {}
            for s in sorted(late):
                streak = seats[s].expiries_in_row + 1
                streaks[s] = {
                    "expiries_in_row": streak,
                    "ai_permanent": seats[s].ai_permanent or streak >= MAX_EXPIRIES,
                }
                log.info("game %s: seat %s ran out of time (%s in a row)", game_id, s, streak)
            outcome = await self._run_ai(
                game,
                seats,
                state,
                events,
                before=before,
                limit=MAX_AI_ACTIONS,
                source="timeout",
                only=late,
                seat_updates=streaks,
            )
            if streaks:  # a late seat that did not act after all keeps its count all the same
                await self.storage.update_seats(game_id, streaks)
            # _run_ai(only=late) stops when none of them must act; in play that is the end of their turn
            game = outcome.game
            state = await self._state(game)
            seats = await self.storage.seats(game_id)
            if turn_key(state) == key and not state.finished:
                log.warning("game %s: the timed-out turn did not end", game_id)
            return await self._run_ai(
                game,
                seats,
                state,
                events,
                before=before,
                limit=MAX_AI_ACTIONS,
                actions=outcome.actions,
            )

    def start_timers(self) -> None:
        """Start the timer loop on the running event loop (idempotent)."""
        if self._timer_task is None or self._timer_task.done():
            self._timer_task = asyncio.get_running_loop().create_task(
                self._timer_loop(), name="ttr-timers"
            )

    async def _timer_loop(self) -> None:
        while True:
            try:
                await self.run_due()
                nxt = await self.storage.next_deadline(self.shards)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep the clock alive
                log.exception("timer loop failed; retrying")
                nxt = None
            delay = MAX_SLEEP if nxt is None else min(MAX_SLEEP, max(0.0, nxt.when - self.clock()))
            self._wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def close(self) -> None:
        """Stop the timer loop (the storage is closed by its owner)."""
        task, self._timer_task = self._timer_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _with_changes(
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


__all__ = [
    "GameService",
    "stored_state",
    "IllegalAction",
    "MAX_EXPIRIES",
    "VACATION_DAYS",
    "ai_controlled",
    "player_results",
    "replay_game",
    "turn_key",
]
