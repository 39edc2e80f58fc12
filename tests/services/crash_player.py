"""Crash-safety helper, run as a subprocess: play games through GameService until killed.

``python tests/services/crash_player.py DB``: opens the database, resumes
pending AI moves (``run_due``, as the bot does at start), then plays the open
games of channels 1-3 (creating them when missing: one human seat against AI
seats), choosing the human's moves with the heuristic AI. After every ``act``
returns it prints ``ack GAME VERSION`` (flushed): that action is acknowledged.
Meant to be killed with SIGKILL at any moment.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.host.services import GameService
from bot.host.storage import open_storage
from engine.ai import choose_action
from maps.loader import load_ruleset

HUMAN = 77
MAPS = {1: "usa", 2: "nordic", 3: "amsterdam"}


async def main(db: Path) -> None:
    print("opening", flush=True)
    storage = await open_storage(db)
    service = GameService(storage)
    await service.run_due()
    print("ready", flush=True)
    while True:
        for channel, map_id in MAPS.items():
            game = await service.game_in_channel(channel)
            if game is None:
                game = await service.create(
                    guild_id=1, channel_id=channel, host_id=HUMAN, host_name="human", map_id=map_id
                )
                await service.add_ai(game.id, HUMAN)
                await service.start(game.id, HUMAN)
                game = await storage.get_game(game.id)
            if game.status == "lobby":
                await service.cancel(game.id, HUMAN)
                continue
            state = await service.game_state(game.id)
            if 0 not in state.seats_to_act():
                await service.run_due()
                continue
            action = choose_action(load_ruleset(map_id), state, 0)
            outcome = await service.act(game.id, HUMAN, action, expected_version=None)
            print(f"ack {game.id} {state.version + 1}", flush=True)
            del outcome


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
