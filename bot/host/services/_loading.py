"""Loading games for the service: per-game locks, the game row and its engine state, quarantine.

Every change runs under the game's lock (:meth:`GameLoader._lock`). A game's
engine state is the newest snapshot plus the actions after it, replayed by
the engine and cached by version (:data:`STATE_CACHE` games), so idle games
cost no memory. A game whose stored state cannot be read is quarantined: one
log line, its players told once, every other game plays on. Storing moves is
:mod:`._recording`'s part.

Nothing here imports discord."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot.host.ai_workers import AiWorkers
from bot.host.storage import (
    SNAPSHOT_EVERY,
    ActionRow,
    CorruptGame,
    GameRow,
    QuarantinedGame,
    SeatRow,
    ShardFilter,
    Storage,
)
from engine import EngineError, GameState, apply, replay
from engine.codec import decode_action, decode_state
from maps.loader import load_ruleset

from ._errors import ServiceError
from ._models import Outcome, Reminder

_Found = TypeVar("_Found")

log = logging.getLogger(__name__)

#: Decoded states of running games kept in memory (games are loaded lazily; idle ones cost
#: nothing; a finished game's state is not kept, see ``GameLoader._remember``). A decoded
#: state is 9-14 KB (measured on all six maps, 2 seats, mid-game and final), so 4,096 keeps
#: every running game of a busy process warm in at most about 50 MiB: a miss costs a
#: snapshot decode plus the replay of up to SNAPSHOT_EVERY actions (issue 12.8).
STATE_CACHE = 4096
#: How long a server's data is kept after it removed the bot, by default (days;
#: ``TTR_GUILD_RETENTION_DAYS``).
DEFAULT_RETENTION_DAYS = 30

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


class GameLoader:
    """The service's settings and its hold on games: per-game locks, the game row and its engine
    state (cached by version), quarantine. The base of every part of
    :class:`~bot.host.services.GameService`, whose docstring names the arguments."""

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
        ai_workers: AiWorkers | None = None,
        retention_days: float = DEFAULT_RETENTION_DAYS,
    ) -> None:
        self.storage = storage
        self.ai_workers = ai_workers
        self.clock = clock
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.auto_ai = auto_ai
        self.on_turn = on_turn
        self.on_reminder = on_reminder
        self.on_quarantine = on_quarantine
        self.shards = shards
        #: How long a server's data is kept after it removed the bot, in seconds.
        self.retention_s = float(retention_days) * 86_400.0
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
        """Cache ``state`` as ``game_id``'s newest, least recently used dropped first; a finished
        game's is dropped instead: it is read a few times more at most (the final board, the
        recap), each time from its final snapshot with nothing to replay, and a bot that runs
        for months would otherwise fill the cache with games nobody plays."""
        if state.finished:
            self._states.pop(game_id, None)
            return
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
        ``already_started`` (running); ``game_paused`` for a running game whose server removed
        the bot."""
        if game.status == "active" and game.paused_at is not None and "active" in wanted:
            raise ServiceError("game_paused", {"game": game.id})
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
