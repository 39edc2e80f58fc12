"""Achievements for the service: awarded at a game's end, read for the stats, recomputed.

A finished game's :class:`~bot.host.achievements.GameRecord` is made from what is stored
only: its results, its rating changes and its replay from the seed and the action log (the
routes claimed, tunnel cards paid, stations built, the points when the last round was
announced). :func:`~bot.host.achievements.achievements_of` decides; the store keeps the first
game of each (player, server, achievement). The recorder awards a game as soon as it is
stored finished (:meth:`Achievements.award`, its own transaction after the finishing one);
awarding is idempotent, so the game-over message awards again before it reads them, and
``python -m bot achievements recompute`` rebuilds every row from the stored games and
reports (and, asked to, repairs) the differences.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.host.achievements import (
    GameRecord,
    SeatRecord,
    achievements_of,
    career_of,
)
from bot.host.ratings import OVERALL
from bot.host.storage import (
    AchievementRow,
    ActionRow,
    CorruptGame,
    GameRow,
    RatingChange,
    ResultRow,
    SeatRow,
    Storage,
)
from engine import GameState, apply, new_game
from engine.ai import ai_level
from engine.codec import decode_action
from engine.errors import EngineError
from engine.events import LastRound, RouteClaimed, TunnelPaid
from engine.rules.europe import StationBuilt
from maps.loader import load_ruleset

from ._errors import ServiceError
from ._loading import GameLoader
from ._recording import MoveRecorder

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Recompute:
    """What ``python -m bot achievements recompute`` found: the games read, the rows the stored
    games give (``expected``), and the stored rows that differ: ``missing`` (expected, not
    stored, or stored with another game) and ``extra`` (stored, not expected as they are);
    ``repaired``: the differences were written; ``skipped``: finished games whose stored log
    does not replay (their achievements are left out; ``python -m bot verify`` names why)."""

    games: int
    expected: tuple[AchievementRow, ...]
    missing: tuple[AchievementRow, ...]
    extra: tuple[AchievementRow, ...]
    repaired: bool = False
    skipped: tuple[int, ...] = ()

    @property
    def same(self) -> bool:
        """True when the stored rows are exactly the recomputed ones."""
        return not self.missing and not self.extra


class Achievements:
    """The ``achievements`` part of the service: :meth:`award` at a game's end, :meth:`of_game`
    for the game-over message, :meth:`of_user` for ``/ttr player stats``, :meth:`recompute`.

    Needs the storage, the :class:`~._loading.GameLoader` (the game rows) and the
    :class:`~._recording.MoveRecorder`, which awards every game it stores finished."""

    def __init__(self, storage: Storage, loader: GameLoader, recorder: MoveRecorder) -> None:
        self.storage = storage
        self.loader = loader
        recorder.on_finished.append(self.award_after_move)

    async def award_after_move(self, game_id: int) -> None:
        """:meth:`award` right after the game's end was stored. The end is committed whatever
        happens here, so a failure is logged, not raised to the player who moved: the
        game-over message awards again, and a recompute repairs what is left."""
        try:
            await self.award(game_id)
        except Exception:
            log.exception("game %s: the achievements were not awarded", game_id)

    async def record(self, game_id: int) -> GameRecord:
        """The finished game's record, replayed from its seed and action log (in a thread).

        Raises:
            ServiceError: ``game_not_found``; ``wrong_status`` for a game not finished.
        """
        game = await self.loader.game(game_id)
        if game.status != "finished" or game.seed is None:
            raise ServiceError("wrong_status")
        seats = await self.storage.seats.seats(game_id)
        actions = await self.storage.actions.actions(game_id)
        results = await self.storage.results.results(game_id)
        changes = await self.storage.ratings.game_rating_changes(game_id)
        return await asyncio.to_thread(game_record, game, seats, actions, results, changes)

    async def earned(self, record: GameRecord) -> frozenset[tuple[int, str]]:
        """Every (user id, achievement id) ``record`` meets, with each player's career in the
        server read from the stored results."""
        users = [s.user_id for s in record.seats if s.user_id is not None]
        rows = await self.storage.achievements.careers(record.guild_id, users)
        by_user: dict[int, list[tuple[int, str, bool, float]]] = defaultdict(list)
        for r in rows:
            by_user[r.user_id].append((r.game_id, r.map_id, r.won, r.finished_at))
        upto = (record.finished_at, record.game_id)
        careers = {u: career_of(by_user[u], upto) for u in users}
        return achievements_of(record, careers)

    async def award(self, game_id: int) -> tuple[AchievementRow, ...]:
        """Store what finished game ``game_id`` earned (one transaction; idempotent) and return
        every achievement first earned in it, by user and id.

        Raises:
            ServiceError: as :meth:`record`.
        """
        record = await self.record(game_id)
        earned = await self.earned(record)
        return tuple(await self.storage.achievements.award(game_id, sorted(earned)))

    async def for_game_over(self, game_id: int) -> tuple[AchievementRow, ...]:
        """What the game-over message announces: :meth:`award` (a no-op when the recorder
        awarded the game already; done here when it could not, e.g. a crash between the two
        transactions); when awarding fails, what is stored (logged, never raised: the message
        is posted either way)."""
        try:
            return await self.award(game_id)
        except Exception:
            log.exception("game %s: the achievements were not awarded", game_id)
            return await self.of_game(game_id)

    async def of_game(self, game_id: int) -> tuple[AchievementRow, ...]:
        """The achievements first earned in ``game_id`` (as stored), by user and id."""
        return tuple(await self.storage.achievements.of_game(game_id))

    async def of_user(self, guild_id: int, user_id: int) -> tuple[AchievementRow, ...]:
        """What ``user_id`` earned in server ``guild_id``, oldest first."""
        return tuple(await self.storage.achievements.of_user(guild_id, user_id))

    async def recompute(self, *, repair: bool = False) -> Recompute:
        """Recompute every achievement from the stored finished games (in the order they
        finished, each player's first game per achievement and server) and compare with the
        stored rows; with ``repair`` write the differences (one transaction). A game whose log
        does not replay is skipped (``python -m bot verify`` names it)."""
        ids = await self.storage.games.game_ids("finished")
        games = [await self.loader.game(i) for i in ids]
        games.sort(key=lambda g: (g.finished_at or 0.0, g.id))
        first: dict[tuple[int, int, str], AchievementRow] = {}
        skipped: list[int] = []
        for game in games:
            try:
                record = await self.record(game.id)
            except (ServiceError, EngineError, CorruptGame, ValueError, KeyError):
                skipped.append(game.id)
                continue
            for user, achievement in sorted(await self.earned(record)):
                key = (record.guild_id, user, achievement)
                if key not in first:
                    first[key] = AchievementRow(
                        record.guild_id, user, achievement, record.game_id, record.finished_at
                    )
        expected = set(first.values())
        stored = set(await self.storage.achievements.every_row())
        missing, extra = sorted(expected - stored), sorted(stored - expected)
        if repair and (missing or extra):
            await self.storage.achievements.replace_all(extra, missing)
        return Recompute(
            len(games),
            tuple(sorted(expected)),
            tuple(missing),
            tuple(extra),
            repair and bool(missing or extra),
            tuple(skipped),
        )


def game_record(
    game: GameRow,
    seats: Sequence[SeatRow],
    actions: Sequence[ActionRow],
    results: Sequence[ResultRow],
    changes: Sequence[RatingChange],
) -> GameRecord:
    """The :class:`GameRecord` of a finished game from its stored rows: its replay (seed and
    action log) for what happened during play, ``results`` for places and points, ``changes``
    (its rating changes, empty when not rated) for the ratings before it.

    Raises:
        ServiceError: ``wrong_status`` when the replay does not end the game.
    """
    assert game.seed is not None
    rules = load_ruleset(game.map_id)
    n = len(seats)
    state = new_game(rules, seats=n, seed=game.seed, options=game.options)
    longest, ferries, tunnel, stations = [0] * n, [0] * n, [0] * n, [0] * n
    last: int | None = None
    for row in actions:
        transition = apply(rules, state, decode_action(row.action))
        state = transition.state
        for e in transition.events:
            if isinstance(e, RouteClaimed):
                route = rules.board.routes[e.route]
                longest[e.seat] = max(longest[e.seat], route.length)
                ferries[e.seat] += route.locomotives > 0
            elif isinstance(e, TunnelPaid):
                tunnel[e.seat] += e.extra.total
            elif isinstance(e, StationBuilt):
                stations[e.seat] += 1
            elif isinstance(e, LastRound) and last is None:
                last = fewest_points(state)
    final = state.result
    if final is None:
        raise ServiceError("wrong_status")
    by_seat = {r.seat: r for r in results}
    before = {c.player: c.mu_before - 3 * c.sigma_before for c in changes if c.scope == OVERALL}
    records = []
    for seat in seats:
        result = by_seat.get(seat.seat)
        score = final.seats[seat.seat]
        player = result.player if result is not None else None
        level = _ai_level(seat, player)
        records.append(
            SeatRecord(
                seat=seat.seat,
                user_id=None if result is None or level is not None else result.user_id,
                ai_level=level,
                won=seat.seat in final.winners,
                place=(result.place or result.rank) if result is not None else len(seats),
                score=score.score,
                resigned=state.players[seat.seat].resigned,
                tickets_completed=score.tickets_completed,
                tickets_failed=score.tickets_failed,
                bonuses=dict(score.breakdown),
                longest_route=longest[seat.seat],
                ferries=ferries[seat.seat],
                tunnel_extra=tunnel[seat.seat],
                stations_built=stations[seat.seat],
                pieces_left=state.players[seat.seat].pieces,
                last_at_last_round=last == seat.seat,
                rating_before=before.get(player) if player is not None else None,
            )
        )
    return GameRecord(
        game_id=game.id,
        guild_id=game.guild_id,
        map_id=game.map_id,
        ruleset=rules.name,
        finished_at=game.finished_at or 0.0,
        rated=bool(game.rated),
        seats=tuple(records),
    )


def fewest_points(state: GameState) -> int | None:
    """The seat with strictly the fewest points scored so far (routes, and what the rule set
    scores during play: French flags) among the seats still playing; None on a tie or with
    fewer than two such seats."""
    points = {p.seat: p.route_points + p.bonus_points for p in state.players if not p.resigned}
    if len(points) < 2:
        return None
    low = min(points.values())
    lowest = [s for s, v in points.items() if v == low]
    return lowest[0] if len(lowest) == 1 else None


def _ai_level(seat: SeatRow, player: str | None) -> str | None:
    """The computer level that played the seat, or None for a person's seat (also one the
    computer took over after timeouts: its rating identity stays the person's)."""
    if player is not None:
        return player.removeprefix("ai:") if player.startswith("ai:") else None
    return ai_level(seat.ai_kind or "normal") if seat.is_ai else None
