"""Crash-injection helper, run as a subprocess: one service operation, killed at its n-th write point.

``python tests/services/crash_ops.py DB OP N`` opens the prepared database
``DB`` (see :func:`prepare`), arms the storage's fault hook so that the
process SIGKILLs itself at the N-th write point (before a statement, before a
commit or right after one, counted from 1), and runs OP through
GameService: ``start`` (the host starts a lobby whose seats have a gap),
``resign`` (the player to move gives up; the AI plays on) or ``vacation``
(the player to move takes two days; the clock moves). When the operation
finishes before the N-th point it prints ``done <points passed>``.

``prepare(db, op)`` (called by the test in-process) builds the database the
operation starts from; :data:`CLOCK` is the fixed time both sides use.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.services import GameService
from bot.storage import _faults, open_storage
from engine import KeepTickets

HOST, LEAVER, BOB, CAROL = 101, 102, 202, 303
CLOCK = 1_800_000_000.0
OPS = ("start", "resign", "vacation")


def clock() -> float:
    return CLOCK


async def prepare(db: Path, op: str) -> None:
    """The database ``op`` starts from: a lobby with a gap in its seats (start), or a running
    game after the ticket choice where HOST is to move (resign, vacation)."""
    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 4242)
    try:
        game = await service.create(
            guild_id=1, channel_id=7, host_id=HOST, host_name="host", map_id="usa",
            turn_seconds=3600,
        )  # fmt: skip
        for user, name in ((LEAVER, "leaver"), (BOB, "bob"), (CAROL, "carol")):
            await service.join(game.id, user, name)
        await service.add_ai(game.id, HOST)
        await service.leave(game.id, LEAVER)  # seats 0, 2, 3, 4: a gap to close at start
        if op == "start":
            return
        await service.start(game.id, HOST)
        state = await service.game_state(game.id)
        seats = await storage.seats(game.id)
        for seat in state.seats_to_act():
            user = seats[seat].user_id
            if user is not None:
                await service.act(
                    game.id,
                    user,
                    KeepTickets(seat, state.players[seat].offer),
                    expected_version=None,
                )
        assert (await service.game_state(game.id)).seats_to_act() == [0]  # HOST is to move
    finally:
        await service.close()
        await storage.close()


async def main(db: Path, op: str, kill_at: int) -> None:
    passed = 0

    def hook(label: str) -> None:
        nonlocal passed
        passed += 1
        if passed == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    storage = await open_storage(db, clock=clock)
    service = GameService(storage, clock=clock)
    game_id = (await storage.game_ids())[0]
    _faults.hook = hook
    if op == "start":
        await service.start(game_id, HOST)
    elif op == "resign":
        await service.resign(game_id, HOST)
    else:
        await service.vacation(game_id, HOST, days=2)
    _faults.hook = None
    await storage.close()
    print(f"done {passed}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
