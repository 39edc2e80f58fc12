"""Helper for the two-process tests, run as a subprocess against a shared database.

``python tests/services/multi_process.py hammer URL SEED ACTS``
    Play ``ACTS`` moves on the shared games (two human seats each), choosing a
    game at random each time: read its state, let the heuristic AI choose the
    move of the seat to act, send it with the version it was based on. A move
    that lost a race (``stale_version``, ``not_your_turn``) is chosen again from
    the new state. After each stored move prints ``ack GAME FIRST LAST`` (the
    seqs it stored) and at the end ``done CONFLICTS``.

``python tests/services/multi_process.py timers URL NOW SHARD_COUNT SHARD_IDS``
    Run the service's clock once at unix time ``NOW`` for the shards
    ``SHARD_IDS`` (``0-1``) of ``SHARD_COUNT``; print ``fired GAME KIND`` per timer
    handled, then ``done``.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.host.services import GameService, Outcome, ServiceError
from bot.host.storage import ShardFilter, open_storage
from bot.process.config import parse_shard_ids
from engine import IllegalAction
from engine.ai import choose_action
from maps.loader import load_ruleset

USERS = (11, 22)


async def hammer(url: str, seed: int, acts: int) -> None:
    storage = await open_storage(url)
    service = GameService(storage)
    rng = random.Random(seed)
    games = await storage.game_ids("active")
    conflicts = 0
    try:
        done = 0
        while done < acts and games:
            gid = rng.choice(games)
            game = await storage.get_game(gid)
            assert game is not None
            if game.status != "active":
                games.remove(gid)
                continue
            state = await service.game_state(gid)
            seat = state.seats_to_act()[0]
            action = choose_action(load_ruleset(game.map_id), state, seat)
            try:
                outcome = await service.act(
                    gid, USERS[seat], action, expected_version=state.version
                )
            except (ServiceError, IllegalAction) as exc:
                if getattr(exc, "code", None) in ("stale_version", "not_your_turn"):
                    conflicts += 1
                    continue
                raise
            print(f"ack {gid} {state.version + 1} {outcome.game.version}", flush=True)
            done += 1
    finally:
        await service.close()
        await storage.close()
    print(f"done {conflicts}", flush=True)


async def timers(url: str, now: float, count: int, ids: str) -> None:
    storage = await open_storage(url, clock=lambda: now)
    shards = ShardFilter(count, frozenset(parse_shard_ids(ids, count)))
    service = GameService(storage, clock=lambda: now, shards=shards)
    try:
        for item in await service.run_due():
            kind = "turn" if isinstance(item, Outcome) else "reminder"
            print(f"fired {item.game.id} {kind}", flush=True)
    finally:
        await service.close()
        await storage.close()
    print("done", flush=True)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "hammer":
        asyncio.run(hammer(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(timers(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
