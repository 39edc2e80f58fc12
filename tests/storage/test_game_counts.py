"""``game_counts`` (the ``ttr_games`` metric) and the timing of every storage call, on both backends."""

from __future__ import annotations

import pytest

from bot.host.storage import GameNotFound, Storage
from bot.process import metrics


async def test_game_counts_by_status(storage: Storage) -> None:
    assert await storage.game_counts() == {}
    games = [
        await storage.create_game(guild_id=1, channel_id=10 + i, host_user_id=5, map_id="usa")
        for i in range(3)
    ]
    await storage.set_status(games[0].id, "cancelled")
    assert await storage.game_counts() == {"lobby": 2, "cancelled": 1}


async def test_every_read_and_write_is_timed_whatever_the_outcome(storage: Storage) -> None:
    """Each storage call is one observation of ``ttr_storage_seconds`` (a refused write too)."""

    def count(operation: str) -> float:
        return metrics.sample("ttr_storage_seconds_count", operation=operation) or 0.0

    reads, writes = count("read"), count("write")
    game = await storage.create_game(guild_id=1, channel_id=10, host_user_id=5, map_id="usa")
    assert await storage.get_game(game.id) is not None
    with pytest.raises(GameNotFound):
        await storage.set_status(game.id + 1000, "cancelled")
    assert count("write") - writes == 2
    assert count("read") - reads == 1
    total = metrics.sample("ttr_storage_seconds_sum", operation="write")
    assert total is not None and total > 0
