"""A corrupt row cannot take the service down (issue 12.5): the game is quarantined once, its
players are told once, one log line is written, and every other game keeps running."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.storage import QuarantinedGame, Storage

from .conftest import BOB, HOST, FakeClock, lobby, play_for


def _damage(db: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(db)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


async def _due_game(service: GameService, storage: Storage, channel: int) -> int:
    """A started two-player game whose first turn is played, so its clock runs."""
    gid = await lobby(service, users=(HOST, BOB), channel=channel)
    await service.start(gid, HOST)
    for user in (HOST, BOB):
        await play_for(service, storage, gid, user)
    return gid


DAMAGE = {
    "snapshot bad compressed data": "UPDATE snapshots SET data = x'0102' WHERE game_id = ?",
    "snapshot bad JSON": (
        "UPDATE snapshots SET format = 'json', data = CAST('{nope' AS BLOB) WHERE game_id = ?"
    ),
    "snapshot missing": "DELETE FROM snapshots WHERE game_id = ?",
    "snapshot decodes to nonsense": (
        "UPDATE snapshots SET format = 'json', data = CAST('{\"deck\": 5}' AS BLOB)"
        " WHERE game_id = ?"
    ),
    "options bad JSON": "UPDATE games SET options = '{' WHERE id = ?",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
async def test_the_timer_loop_quarantines_a_corrupt_game_once(
    damage: str,
    tmp_path: Path,
    storage: Storage,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    told: list[QuarantinedGame] = []

    async def tell(game: QuarantinedGame) -> None:
        told.append(game)

    service = GameService(storage, clock=clock, seed_source=lambda: 5, on_quarantine=tell)
    bad = await _due_game(service, storage, channel=1)
    good = await _due_game(service, storage, channel=2)
    _damage(tmp_path / "ttr.sqlite3", DAMAGE[damage], bad)
    service._states.clear()  # as after a restart: the state comes from the database
    version = (await storage.get_game(good)).version  # type: ignore[union-attr]

    caplog.set_level(logging.INFO)
    clock.advance(4_000)  # both games' turns run out
    for _ in range(5):  # the loop comes back again and again
        await service.run_due()
        clock.advance(60)

    assert [(t.game_id, t.channel_id, t.user_ids) for t in told] == [(bad, 1, (HOST, BOB))]
    lines = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in lines] == [f"game {bad} quarantined: {told[0].reason}"]
    assert all(r.exc_info is None for r in caplog.records), "no traceback"
    row = (await storage.game_ids("quarantined"), await storage.next_deadline())
    assert row[0] == [bad]
    assert row[1] is None or row[1].game_id == good
    assert (await storage.get_game(good)).version > version  # type: ignore[union-attr]
    with pytest.raises(ServiceError) as refused:
        await service.act(bad, HOST, {"type": "draw_blind", "seat": 0}, expected_version=None)
    assert refused.value.code == "game_quarantined"
    assert await service.game_in_channel(1) is None  # the channel is free for a new game


async def test_a_player_touching_a_corrupt_game_quarantines_it(
    tmp_path: Path, storage: Storage, clock: FakeClock
) -> None:
    """A click on a game whose log does not replay gets a clear refusal, not a crash."""
    service = GameService(storage, clock=clock, seed_source=lambda: 5)
    gid = await _due_game(service, storage, channel=1)
    _damage(
        tmp_path / "ttr.sqlite3",
        "UPDATE snapshots SET version = 0 WHERE game_id = ?",  # the log after it is not the game's
        gid,
    )
    _damage(tmp_path / "ttr.sqlite3", "UPDATE games SET version = version + 5 WHERE id = ?", gid)
    service._states.clear()
    for call in (
        service.table(gid, HOST),
        service.act(gid, HOST, {"type": "draw_blind", "seat": 0}, expected_version=None),
        service.game_state(gid),
    ):
        with pytest.raises(ServiceError) as refused:
            await call
        assert refused.value.code == "game_quarantined"
    game = await storage.get_game(gid)
    assert game is not None and game.status == "quarantined" and game.status_note
    assert "version" in game.status_note
    mine = await service.games_for_user(HOST)
    assert [g.id for g in mine] == []  # a quarantined game is not an open game
