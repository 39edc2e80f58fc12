"""The coach's storage (issue 33) on both backends: hints per game and seat, the analysis queue."""

from __future__ import annotations

import pytest

from bot.host.storage import (
    GameNotFound,
    NewSeat,
    PlayerResult,
    SeatNotFound,
    ShardFilter,
    Storage,
    open_storage,
)

from .conftest import FakeClock
from .test_storage import HOST, move, started_game

RESULTS = [PlayerResult(0, HOST, 50, 1, True), PlayerResult(1, 1002, 40, 2, False)]


async def test_a_game_remembers_whether_hints_are_allowed(storage: Storage) -> None:
    """Allowed unless the host said no; the flag reads back from every query of the game."""
    allowed = await storage.create_game(
        guild_id=1, channel_id=10, host_user_id=HOST, map_id="usa", seats=[NewSeat("h", HOST)]
    )
    barred = await storage.create_game(
        guild_id=1, channel_id=11, host_user_id=HOST, map_id="usa", hints_allowed=False
    )
    assert allowed.hints_allowed is True and barred.hints_allowed is False
    assert (await storage.get_game(barred.id)).hints_allowed is False
    found = await storage.game_with_seats(barred.id)
    assert found is not None and found[0].hints_allowed is False


async def test_hints_are_counted_per_seat(storage: Storage) -> None:
    """Each hint adds one to its seat only; an unknown seat is refused."""
    game = await started_game(storage)
    assert [s.hints_used for s in await storage.seats(game.id)] == [0, 0]
    assert await storage.count_hint(game.id, 1) == 1
    assert await storage.count_hint(game.id, 1) == 2
    assert await storage.count_hint(game.id, 0) == 1
    assert [s.hints_used for s in await storage.seats(game.id)] == [1, 2]
    with pytest.raises(SeatNotFound):
        await storage.count_hint(game.id, 7)


async def test_the_move_that_finishes_a_game_queues_its_analysis(storage: Storage) -> None:
    """Finishing stores the results and queues the analysis in one transaction; a cancelled
    game or a plain move queues nothing."""
    game = await started_game(storage)
    game = await move(storage, game)
    assert await storage.analysis(game.id) is None
    await move(storage, game, new_status="finished", results=RESULTS)
    row = await storage.analysis(game.id)
    assert row is not None and row.status == "queued" and row.attempts == 0
    other = await started_game(storage, channel_id=501)
    await move(storage, other, new_status="cancelled")
    assert await storage.analysis(other.id) is None
    assert await storage.analysis_queue() == [game.id]


async def test_an_analysis_is_claimed_once_stored_and_survives_a_dead_worker(
    storage: Storage, clock: FakeClock
) -> None:
    """queued -> running (one claimer) -> done with its data; a row left running longer than
    ``stale_after`` is claimed again; a failure keeps its note; the queue keeps first-come order."""
    first = await started_game(storage)
    await move(storage, first, new_status="finished", results=RESULTS)
    clock.now += 5
    second = await started_game(storage, channel_id=501)
    await move(storage, second, new_status="finished", results=RESULTS)
    assert await storage.analysis_queue() == [first.id, second.id]

    claimed = await storage.start_analysis(first.id, stale_after=600)
    assert claimed is not None and claimed.status == "running" and claimed.attempts == 1
    assert await storage.start_analysis(first.id, stale_after=600) is None  # running elsewhere
    clock.now += 601  # its worker died: claimable again
    again = await storage.start_analysis(first.id, stale_after=600)
    assert again is not None and again.attempts == 2
    done = await storage.finish_analysis(first.id, {"format": 1, "turns": [1, 2]})
    assert done.status == "done" and done.data == {"format": 1, "turns": [1, 2]}
    assert (await storage.analysis(first.id)).data == {"format": 1, "turns": [1, 2]}
    assert await storage.start_analysis(first.id, stale_after=0) is None  # done stays done

    await storage.start_analysis(second.id, stale_after=600)
    failed = await storage.fail_analysis(second.id, "the log does not replay")
    assert (failed.status, failed.note, failed.data) == ("failed", "the log does not replay", None)
    assert await storage.analysis_queue() == []
    with pytest.raises(GameNotFound):
        await storage.finish_analysis(999_999, {})


async def test_queue_analysis_asks_for_an_older_game_once(storage: Storage) -> None:
    """A finished game without a row gets one on request; asking again returns the same row;
    an unknown game is refused; deleting the game deletes its analysis."""
    game = await started_game(storage)
    await move(storage, game, new_status="finished", results=RESULTS)
    row = await storage.queue_analysis(game.id)
    assert row == await storage.queue_analysis(game.id)
    with pytest.raises(GameNotFound):
        await storage.queue_analysis(999_999)
    await storage.delete_game(game.id)
    assert await storage.analysis(game.id) is None


async def test_the_queue_filters_by_shard(storage: Storage) -> None:
    """A process serving some shards sees only its guilds' analyses."""
    ids = {}
    for n, guild in enumerate((0 << 22, 1 << 22)):
        game = await started_game(storage, channel_id=600 + n, guild_id=guild)
        await move(storage, game, new_status="finished", results=RESULTS)
        ids[guild] = game.id
    assert await storage.analysis_queue(ShardFilter(2, frozenset({1}))) == [ids[1 << 22]]
    assert await storage.analysis_queue(ShardFilter(2, frozenset({0, 1}))) == sorted(ids.values())


async def test_dump_and_restore_carry_hints_and_the_analysis(
    storage: Storage, clock: FakeClock, tmp_path: object
) -> None:
    """``python -m bot migrate`` copies the hint flag, the counts and the stored analysis."""
    game = await started_game(storage)
    await storage.count_hint(game.id, 1)
    await move(storage, game, new_status="finished", results=RESULTS)
    await storage.start_analysis(game.id, stale_after=60)
    await storage.finish_analysis(game.id, {"format": 1})
    dump = await storage.dump_game(game.id)
    assert dump is not None and dump.analysis is not None
    target = await open_storage(f"sqlite:///{tmp_path}/copy.sqlite3", clock=clock)
    try:
        await target.restore_game(dump)
        assert await target.seats(game.id) == await storage.seats(game.id)
        assert await target.analysis(game.id) == await storage.analysis(game.id)
        assert await target.dump_game(game.id) == dump
    finally:
        await target.close()
