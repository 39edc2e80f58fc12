"""The service's cache of decoded states (issue 36: bounded memory): running games are kept
warm, finished ones are not kept, and a finished game still reads back whole."""

from __future__ import annotations

from bot.host.services import GameService
from bot.host.storage import Storage
from tests.services.conftest import state_of


async def test_a_finished_game_leaves_the_state_cache(storage: Storage) -> None:
    service = GameService(storage, auto_ai=False, seed_source=lambda: 11)
    game = await service.create(
        guild_id=1, channel_id=77, host_id=1, host_name="host", map_id="usa", host_plays=False
    )
    for _ in range(2):
        await service.add_ai(game.id, 1, level="easy")
    await service.start(game.id, 1, seed=4)
    outcome = await service.play_ai(game.id, max_actions=1)
    # a running game's state is kept, at its newest version
    assert game.id in service._states
    while outcome.result is None:
        outcome = await service.play_ai(game.id, max_actions=20)
        if outcome.result is None:
            version, cached = service._states[game.id]
            assert version == cached.version
    assert game.id not in service._states
    # read again from its final snapshot: the whole final state, and still not kept
    again = await service.game_state(game.id)
    assert again.finished and again.result == outcome.result
    assert again == await state_of(storage, game.id)
    assert game.id not in service._states
