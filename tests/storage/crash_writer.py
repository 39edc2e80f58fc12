"""Crash-safety helper, run as a subprocess: append actions to one game forever.

Usage: ``python tests/storage/crash_writer.py DB_PATH [CHANNEL_ID]``

Prints ``opening``, opens (creating and migrating if needed) the database, finds or creates and
starts the channel's game, prints ``ready <version>``, then appends one action
after another. After each ``append_action`` has returned (the commit is done)
it prints the action's seq on its own line and flushes stdout, so every
printed seq is an acknowledged write. The snapshot carries the seq (and
padding of varying size, so commits span several pages and the WAL gets
checkpointed now and then). Meant to be killed with SIGKILL at any moment.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.host.storage import NewSeat, open_storage

log = logging.getLogger(__name__)


def snapshot_for(seq: int) -> dict[str, object]:
    """The snapshot after action ``seq``: the seq plus 0-20 kB of padding."""
    return {"seq": seq, "pad": "x" * (seq * 7919 % 20_000)}


async def write_forever(path: str, channel_id: int) -> None:
    """Append actions to the channel's game until killed."""
    print("opening", flush=True)
    storage = await open_storage(path)
    game = await storage.active_game_in_channel(channel_id)
    if game is None:
        game = await storage.create_game(
            guild_id=1,
            channel_id=channel_id,
            host_user_id=1,
            map_id="usa",
            seats=[NewSeat(display_name="writer", user_id=1)],
        )
    if game.status == "lobby":  # a previous run died between create and start
        game = await storage.start_game(
            game.id, seed=1, snapshot=snapshot_for(0), engine_version="crash-writer"
        )
    print(f"ready {game.version}", flush=True)
    while True:
        seq = game.version + 1
        game = await storage.append_action(
            game.id,
            game.version,
            action={"kind": "draw_blind", "seq": seq},
            new_snapshot=snapshot_for(seq),
            seat=0,
            actor_user_id=1,
            deadline_at=float(seq),
            reminder_at=None,
        )
        print(seq, flush=True)


if __name__ == "__main__":
    asyncio.run(write_forever(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1))
