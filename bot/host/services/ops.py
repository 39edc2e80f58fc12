"""Operator tools over a database: verify every game by replay, export one game, copy all games.

The work behind ``python -m bot verify``, ``export``, ``migrate`` and ``ratings``
(:mod:`.rating_tools`); their command lines are in :mod:`bot.cli.games` and
:mod:`bot.cli.ratings`. Nothing here gives a seed, a hand, a ticket or the deck
of a game that is not finished.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bot.host.ratings import FORMER_PREFIX, is_former
from bot.host.storage import (
    ActionRow,
    CorruptGame,
    GameRow,
    PlayerResult,
    ResultRow,
    Storage,
    StorageError,
)
from engine import GameState, apply, new_game
from engine.codec import decode_action, decode_state, encode_state
from maps.loader import load_ruleset

from ._recording import player_results
from .rating_tools import rating_problems


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A stored game that is not sound: unreadable, or not what its log replays to."""

    game_id: int
    reason: str


async def verify_storage(storage: Storage) -> tuple[int, list[Mismatch]]:
    """Check every started game: its rows read, its log replays from the seed through the
    stored snapshot to its version, and a finished game's results are the replay's; then the
    ratings (:func:`~.rating_tools.rating_problems`: a replay of the rated results gives
    exactly every stored rating and change, and every finished rated game was rated).

    Returns ``(games checked, problems)``; lobby games are not counted. Never
    raises for a damaged game: each problem is one :class:`Mismatch` (game 0: a
    server's table rather than one game).
    """
    checked = 0
    problems: list[Mismatch] = []
    for game_id in await storage.games.game_ids():
        try:
            counted, reasons = await check_game(storage, game_id)
        except Exception as exc:  # noqa: BLE001 - a damaged game is reported, never a traceback
            counted, reasons = True, [f"cannot be checked ({type(exc).__name__})"]
        checked += counted
        problems += [Mismatch(game_id, r) for r in reasons]
    try:
        problems += [Mismatch(g, r) for g, r in await rating_problems(storage)]
    except Exception as exc:  # noqa: BLE001 - reported, never a traceback
        problems.append(Mismatch(0, f"the ratings cannot be checked ({type(exc).__name__})"))
    return checked, problems


async def check_game(storage: Storage, game_id: int) -> tuple[bool, list[str]]:
    """``(was it checked, problems)`` for one game (see :func:`verify_storage`)."""
    try:
        game = await storage.games.get_game(game_id)
    except CorruptGame as exc:
        return True, [exc.reason]
    if game is None or (game.status in ("lobby", "cancelled") and not game.started):
        return False, []
    problems = [f"quarantined: {game.status_note or 'no reason stored'}"] * (
        game.status == "quarantined"
    )
    if game.seed is None or not game.started:
        return True, [*problems, f"status {game.status!r} but the game was never dealt"]
    try:
        log = await storage.actions.actions(game_id)
    except CorruptGame as exc:
        return True, [*problems, exc.reason]
    snapshot: tuple[int, dict[str, Any]] | None = None
    try:
        checkpoint = await storage.actions.load_checkpoint(game_id)
        if checkpoint is not None:
            snapshot = (checkpoint.version, checkpoint.snapshot)
    except CorruptGame as exc:
        problems.append(exc.reason)
    state, replay_problems = _replay(game, len(await storage.seats.seats(game_id)), log, snapshot)
    problems += replay_problems
    if state is not None:
        problems += await _check_end(storage, game, state)
    return True, problems


def _replay(
    game: GameRow, seats: int, log: Sequence[ActionRow], snapshot: tuple[int, dict[str, Any]] | None
) -> tuple[GameState | None, list[str]]:
    """Replay the whole log from the seed, comparing with the snapshot on the way."""
    assert game.seed is not None
    rules = load_ruleset(game.map_id)
    state = new_game(rules, seats=seats, seed=game.seed, options=game.options)
    problems: list[str] = []

    def compare() -> None:
        if snapshot is not None and state.version == snapshot[0]:
            try:
                stored = decode_state(snapshot[1])
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                problems.append("the snapshot does not decode")
                return
            if stored != state:
                where = _first_difference(encode_state(state), snapshot[1])
                problems.append(
                    f"the snapshot (version {snapshot[0]}) differs from the replay at {where}"
                )

    compare()
    for row in log:
        try:
            state = apply(rules, state, decode_action(row.action)).state
        except Exception as exc:  # noqa: BLE001 - any refusal means the log is damaged
            problems.append(f"the log does not replay at action {row.seq} ({type(exc).__name__})")
            return None, problems
        compare()
    if snapshot is not None and snapshot[0] > state.version:
        problems.append(f"the snapshot is at version {snapshot[0]}, past the log's end")
    if state.version != game.version:
        problems.append(f"the replay has {state.version} actions, the game says {game.version}")
    return state, problems


async def _check_end(storage: Storage, game: GameRow, state: GameState) -> list[str]:
    if game.status == "finished" and not state.finished:
        return ["marked finished but the replay is not over"]
    if game.status == "active" and state.finished:
        return ["the replay is over but the game is still marked active"]
    if game.status != "finished":
        return []
    stored = await storage.results.results(game.id)
    if not stored:
        return ["finished without stored results"]
    rated = {r.seat for r in stored if r.player is not None}
    got = {r.seat: _result_key(r, r.seat in rated) for r in stored}
    want = {
        r.seat: _result_key(r, r.seat in rated or r.seat not in got)
        for r in player_results(state, await storage.seats.seats(game.id))
    }
    if got == want:
        return []
    seats = sorted(s for s in set(got) | set(want) if got.get(s) != want.get(s))
    return [
        f"the stored results disagree with the replay for seat(s) {seats} "
        "(score, rank, won, tickets completed/failed, rating identity, place, longest-path bonus)"
    ]


def _result_key(result: PlayerResult | ResultRow, with_rating: bool) -> tuple[Any, ...]:
    """What a stored result must agree on with the replay; the rating columns only where the
    stored row has them (results stored before schema version 4 have none). Any forgotten
    person's identity (``former:...``, whose key the seat no longer knows) is one."""
    key: tuple[Any, ...] = (
        result.score,
        result.rank,
        result.won,
        result.tickets_completed,
        result.tickets_failed,
    )
    if with_rating:
        player = result.player
        if player is not None and is_former(player):
            player = FORMER_PREFIX
        key += (player, result.place, result.longest_path_bonus)
    return key


def _first_difference(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path


# -- export -----------------------------------------------------------------------

#: Action fields that reveal hidden information while a game runs.
_SECRET_ACTION_FIELDS = {"keep_tickets": "tickets"}


def _public_action(action: dict[str, Any]) -> dict[str, Any]:
    """An action with hidden information replaced by counts (tickets kept -> how many)."""
    field = _SECRET_ACTION_FIELDS.get(str(action.get("type")))
    if field is None or field not in action:
        return action
    out = {k: v for k, v in action.items() if k != field}
    value = action[field]
    out[f"{field}_count"] = len(value) if isinstance(value, list) else None
    return out


async def export_game(storage: Storage, game_id: int) -> dict[str, Any] | None:
    """A game's record as a JSON-able dict: game, seats, action log, results (None if unknown).

    While the game is not finished the export holds no secret: no seed, no
    snapshot, and the tickets a player kept are given as a count only. A
    finished game's export is complete (seed, final snapshot, every action),
    so it can be replayed anywhere, with its post-game analysis once made.
    """
    game = await storage.games.get_game(game_id)
    if game is None:
        return None
    finished = game.status == "finished"
    record = {k: getattr(game, k) for k in game.__slots__}
    if not finished:
        record.pop("seed")
    doc: dict[str, Any] = {
        "complete": finished,
        "game": record,
        "seats": [asdict(s) for s in await storage.seats.seats(game_id)],
        "actions": [
            {
                "seq": a.seq,
                "seat": a.seat,
                "action": a.action if finished else _public_action(a.action),
                "source": a.source,
                "actor_user_id": a.actor_user_id,
                "at": a.created_at,
            }
            for a in await storage.actions.actions(game_id)
        ],
        "results": [asdict(r) for r in await storage.results.results(game_id)],
    }
    if finished:
        checkpoint = await storage.actions.load_checkpoint(game_id)
        doc["snapshot"] = None if checkpoint is None else checkpoint.snapshot
        doc["snapshot_version"] = None if checkpoint is None else checkpoint.version
        analysis = await storage.coach.analysis(game_id)
        doc["analysis"] = None if analysis is None else analysis.data
    return doc


# -- migrate ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What :func:`copy_database` did: games and actions copied, user settings
    copied, and the problems found when the copy was verified."""

    games: int
    actions: int
    settings: int
    problems: tuple[Mismatch, ...]


async def copy_database(source: Storage, target: Storage) -> CopyReport:
    """Copy every game (all rows, same ids, its ratings history included), all user settings,
    the server-wide tables (server settings, seasons, ratings) and the servers that removed the
    bot (when, for the retention period) from ``source`` into the empty ``target``, then verify the copy: each game's rows read back equal, and each game
    replays (see :func:`verify_storage`).

    Raises:
        StorageError: ``target`` already holds games.
    """
    present = await target.games.game_ids()
    if present:
        raise StorageError(
            f"the target already holds {len(present)} games; migrate copies into an empty database"
        )
    games = actions = 0
    problems: list[Mismatch] = []
    for game_id in await source.games.game_ids():
        dump = await source.copies.dump_game(game_id)
        if dump is None:
            continue
        await target.copies.restore_game(dump)
        games += 1
        actions += len(dump.actions)
        if await target.copies.dump_game(game_id) != dump:
            problems.append(Mismatch(game_id, "the copy differs from the original"))
    settings = await source.settings.all_user_settings()
    await target.settings.restore_user_settings(settings)
    if await target.settings.all_user_settings() != settings:
        problems.append(Mismatch(0, "the user settings differ after the copy"))
    servers = await source.copies.dump_guild_tables()
    await target.copies.restore_guild_tables(servers)
    if await target.copies.dump_guild_tables() != servers:
        problems.append(
            Mismatch(0, "the server settings, seasons or ratings differ after the copy")
        )
    departures = await source.privacy.departures()
    await target.privacy.restore_departures(departures)
    if await target.privacy.departures() != departures:
        problems.append(Mismatch(0, "the servers that removed the bot differ after the copy"))
    _, found = await verify_storage(target)
    return CopyReport(games, actions, len(settings), tuple(problems + found))
