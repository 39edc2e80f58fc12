"""Fault-injection trials shared by the tests and ``python -m benchmarks crash``.

Each trial builds its own database, injects one fault and reports what a
player or an operator would notice: moves acknowledged then lost (must be 0)
and games that no longer read or replay (must be 0, apart from the game that
was damaged on purpose, which must be quarantined and reported).

- :func:`disk_full_trial`: the database file may not grow (SQLite's page
  limit, the same error as a full disk); moves fail with ``StorageFull``, the
  rest of the game stays as it was, and play goes on once there is room.
- :func:`corrupt_row_trial`: one game's row is damaged in one of five ways;
  the timer loop quarantines it once, every other game keeps running, and
  ``verify`` names it.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.host.services import GameService, ServiceError
from bot.host.services.ops import verify_storage
from bot.host.storage import QuarantinedGame, StorageFull, open_storage
from bot.host.storage._sqlite import SqliteStorage
from engine import IllegalAction
from engine.ai import choose_action
from maps.loader import load_ruleset

HUMAN = 77
START = 1_800_000_000.0

DAMAGE = {
    "bad compressed snapshot": "UPDATE snapshots SET data = x'0102' WHERE game_id = ?",
    "bad JSON snapshot": (
        "UPDATE snapshots SET format = 'json', data = CAST('{nope' AS BLOB) WHERE game_id = ?"
    ),
    "missing snapshot": "DELETE FROM snapshots WHERE game_id = ?",
    "nonsense snapshot": (
        "UPDATE snapshots SET format = 'json', data = CAST('{\"deck\": 5}' AS BLOB)"
        " WHERE game_id = ?"
    ),
    "bad JSON options": "UPDATE games SET options = '{' WHERE id = ?",
}


@dataclass
class TrialResult:
    """What one trial saw: moves acknowledged, of them lost, faults hit, games unreadable."""

    acknowledged: int = 0
    lost: int = 0
    faults: int = 0
    unreadable: int = 0


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def _new_games(service: GameService, count: int, rng: random.Random) -> list[int]:
    ids = []
    for i in range(count):
        game = await service.create(
            guild_id=1, channel_id=100 + i, host_id=HUMAN, host_name="human",
            map_id=rng.choice(["usa", "nordic", "germany", "amsterdam", "paris"]),
            turn_seconds=3600,
        )  # fmt: skip
        await service.add_ai(game.id, HUMAN)
        await service.start(game.id, HUMAN)
        ids.append(game.id)
    return ids


async def _move(service: GameService, gid: int) -> int | None:
    """One human move (the heuristic's choice); the version afterwards, or None if not to move."""
    state = await service.game_state(gid)
    if state.finished or 0 not in state.seats_to_act():
        return None
    action = choose_action(load_ruleset(state.map_id), state, 0)
    outcome = await service.act(gid, HUMAN, action, expected_version=state.version)
    return outcome.game.version


async def disk_full_trial(folder: Path, seed: int) -> TrialResult:
    """Play three games while the file may grow only a little, then with room again."""
    rng = random.Random(seed)
    clock = _Clock()
    result = TrialResult()
    acked: dict[int, int] = {}
    storage = await open_storage(folder / f"full-{seed}.sqlite3", clock=clock)
    assert isinstance(storage, SqliteStorage)
    service = GameService(storage, clock=clock, seed_source=lambda: rng.randrange(2**62))
    try:
        games = await _new_games(service, 3, rng)
        await storage.set_max_pages(await _pages(storage) + rng.randrange(0, 12))
        for phase in ("full", "room"):
            if phase == "room":
                await storage.set_max_pages(None)
            for _ in range(40):
                gid = rng.choice(games)
                try:
                    version = await _move(service, gid)
                except StorageFull:
                    result.faults += 1
                    continue
                except (ServiceError, IllegalAction):
                    continue
                if version is not None:
                    acked[gid] = version
                    result.acknowledged += 1
        for gid, version in acked.items():
            game = await storage.get_game(gid)
            result.lost += game is None or game.version < version
        _, problems = await verify_storage(storage)
        result.unreadable = len(problems)
    finally:
        await service.close()
        await storage.close()
    return result


async def _pages(storage: SqliteStorage) -> int:
    async with storage._read() as tx:
        row = await tx.fetchrow("PRAGMA page_count")
    assert row is not None
    return int(row[0])


async def corrupt_row_trial(folder: Path, seed: int) -> tuple[TrialResult, str, bool]:
    """Five running games; one is damaged; all turns run out. Returns the counts (unreadable:
    games other than the damaged one that do not verify), the damage and whether the damaged
    game was quarantined once, with its players told once."""
    rng = random.Random(seed)
    clock = _Clock()
    result = TrialResult()
    db = folder / f"corrupt-{seed}.sqlite3"
    told: list[QuarantinedGame] = []

    async def tell(game: QuarantinedGame) -> None:
        told.append(game)

    storage = await open_storage(db, clock=clock)
    service = GameService(
        storage, clock=clock, seed_source=lambda: rng.randrange(2**62), on_quarantine=tell
    )
    try:
        games = await _new_games(service, 5, rng)
        for gid in games:
            for _ in range(rng.randrange(1, 6)):
                if await _move(service, gid) is not None:
                    result.acknowledged += 1
        versions = {g: (await storage.get_game(g)).version for g in games}  # type: ignore[union-attr]
        bad = rng.choice(games)
        damage = rng.choice(sorted(DAMAGE))
        conn = sqlite3.connect(db)
        conn.execute(DAMAGE[damage], (bad,))
        conn.commit()
        conn.close()
        service._states.clear()  # as after a restart
        result.faults = 1
        for _ in range(3):
            clock.now += 4_000
            await service.run_due()
        quarantined = await storage.game_ids("quarantined") == [bad] and len(told) == 1
        for gid in games:
            if gid == bad:
                continue
            game = await storage.get_game(gid)
            result.lost += game is None or game.version < versions[gid]
        _, problems = await verify_storage(storage)
        result.unreadable = len({p.game_id for p in problems} - {bad})
        quarantined = quarantined and {p.game_id for p in problems} == {bad}
    finally:
        await service.close()
        await storage.close()
    return result, damage, quarantined
