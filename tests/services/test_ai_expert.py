"""Expert AI seats decide in the AI worker processes (TTR_AI_WORKERS=1), as hard seats do:
never on the event loop, and the moves are the ones the expert makes in this process."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from bot.host.ai_workers import WORKER_LEVELS, AiWorkers
from bot.host.services import GameService
from bot.host.storage import Storage
from bot.process.config import Settings
from engine import apply, new_game
from engine.ai import ExpertPlayer, choose_action
from engine.codec import decode_action, encode_action
from maps.loader import load_ruleset
from tests.services import ai_worker_expert as expert_fn
from tests.services.conftest import HOST, FakeClock, lobby, play_for, state_of

MAP = "usa"


@pytest.fixture
async def game_service(storage: Storage, clock: FakeClock) -> AsyncIterator[GameService]:
    service = GameService(storage, clock=clock, seed_source=lambda: 17)
    yield service
    await service.close()


async def test_expert_seats_decide_in_the_worker(
    game_service: GameService, storage: Storage
) -> None:
    """With one worker (TTR_AI_WORKERS=1) the expert seat's moves come from the worker
    process, and each stored AI action is the expert's choice for the state it was made in."""
    assert "expert" in WORKER_LEVELS
    settings = Settings.from_env({"TTR_AI_WORKERS": "1"}, env_file=None)
    workers = AiWorkers.from_settings(settings, decide_fn=expert_fn.small_expert)
    assert workers is not None and workers.workers == 1
    game_service.recorder.ai_workers = workers
    try:
        gid = await lobby(game_service, map_id=MAP, users=(HOST,))
        await game_service.lobby.add_ai(gid, HOST, level="expert")
        await game_service.lobby.start(gid, HOST)
        for _ in range(10):
            await play_for(game_service, storage, gid, HOST)
        decisions = workers.decisions
        assert decisions >= 4
        assert workers.pids() and os.getpid() not in workers.pids()
    finally:
        workers.close()
    rules = load_ruleset(MAP)
    player = ExpertPlayer(iterations=expert_fn.ITERATIONS, time_cap_s=None)
    game = await storage.games.get_game(gid)
    assert game is not None and game.seed is not None
    replayed = new_game(rules, seats=2, seed=game.seed, options=game.options)
    ai_moves = 0
    for row in await storage.actions.actions(gid):
        if row.source != "player":
            mine = choose_action(rules, replayed, row.seat, "expert", player=player)
            assert encode_action(mine) == row.action
            ai_moves += 1
        replayed = apply(rules, replayed, decode_action(row.action)).state
    assert ai_moves == decisions and replayed == await state_of(storage, gid)
