"""Crash-injection helper for tournaments, run as a subprocess: one tournament step, killed
at its n-th write point.

``python tests/services/crash_tournament.py DB STEP N`` opens the prepared database ``DB``
(see :func:`prepare`), arms the storage's fault hook so that the process SIGKILLs itself at
the N-th write point, and runs STEP through the service: ``open`` (an admin opens a
tournament), ``join`` (a fifth player signs up), ``seat`` (the start: round one's tables,
one transaction), ``table`` (a table's game is created, linked and started), ``score`` (the
round's last game ended: its table is scored and round two is seated). When the step
finishes before the N-th point it prints ``done <points passed>``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.host.services import GameService
from bot.host.storage import _faults, open_storage

ADMIN = 1
PLAYERS = (11, 12, 13, 14)
GUILD, CHANNEL = 5, 6
CLOCK = 1_800_000_000.0
STEPS = ("open", "join", "seat", "table", "score")
#: The thread the table step opens its game in.
THREAD = 9_001


def clock() -> float:
    return CLOCK


async def _open(service: GameService) -> int:
    t = await service.tournaments.open(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADMIN, manage_server=True, name="Cup",
        maps=["usa"], format="swiss", table_size=2, rated=False, turn_seconds=3600, rounds=2,
    )  # fmt: skip
    return t.id


async def prepare(db: Path, step: str) -> None:
    """The database ``step`` starts from: empty (open), a tournament with four sign-ups
    (join, seat), started with round one seated (table), or with every game of round one
    but the last ended and scored, the last one ended (score)."""
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 77)
    try:
        if step == "open":
            return
        tid = await _open(service)
        for user in PLAYERS:
            await service.tournaments.join(tid, user, f"u{user}")
        if step in ("join", "seat"):
            return
        first = await service.tournaments.start(tid, manage_server=True)
        if step == "table":
            return
        for i, table in enumerate(first.to_open):
            await service.tournaments.open_table(tid, 1, table.table_no, THREAD + i)
        tables = await storage.tournaments.tables(tid)
        for table in tables:
            assert table.game_id is not None
            for user in table.players:
                await service.play.resign(table.game_id, user)
        for table in tables[:-1]:
            assert table.game_id is not None
            await service.tournaments.game_over(table.game_id)
    finally:
        await service.close()
        await storage.close()


async def run(service: GameService, step: str) -> None:
    """Run ``step`` (see the module docstring) through the service."""
    tournaments = await service.storage.tournaments.in_guild(GUILD)
    if step == "open":
        await _open(service)
        return
    tid = tournaments[0].id
    if step == "join":
        await service.tournaments.join(tid, 15, "u15")
    elif step == "seat":
        await service.tournaments.start(tid, manage_server=True)
    elif step == "table":
        await service.tournaments.open_table(tid, 1, 1, THREAD)
    else:
        last = (await service.storage.tournaments.tables(tid))[-1]
        assert last.game_id is not None
        await service.tournaments.game_over(last.game_id)


async def main(db: Path, step: str, kill_at: int) -> None:
    passed = 0

    def hook(label: str) -> None:
        nonlocal passed
        passed += 1
        if passed == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock)
    _faults.hook = hook
    await run(service, step)
    _faults.hook = None
    await storage.close()
    print(f"done {passed}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
