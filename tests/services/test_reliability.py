"""Reliability of the service: SIGKILL at random moments, 50 concurrent acts, 200 games at once."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.services.ops import verify_storage
from bot.host.storage import Storage, open_storage
from engine import DrawBlind, DrawFaceUp, IllegalAction
from engine.ai import choose_action
from engine.codec import decode_action, encode_state
from maps.loader import load_ruleset
from tests.scenario import all_cards

from .conftest import HOST, lobby, play_for, state_of

PLAYER = Path(__file__).with_name("crash_player.py")
REPO = Path(__file__).resolve().parents[2]
KILLS = 20


async def _run_and_kill(db: Path, delay: float) -> set[tuple[int, int]]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(PLAYER),
        str(db),
        cwd=REPO,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    head = b""
    while b"ready\n" not in head:
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=60)
        if not line:
            _, err = await proc.communicate()
            pytest.fail(f"the player stopped early: {head!r} {err.decode()[-3000:]}")
        head += line
    await asyncio.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, err = await proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err.decode()[-3000:]
    lines = (head + out).decode().split("\n")[:-1]  # a line cut by the kill does not count
    return {
        (int(p[1]), int(p[2]))
        for p in (line.split() for line in lines)
        if len(p) == 3 and p[0] == "ack"
    }


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
async def test_sigkill_during_play_loses_no_acknowledged_action(tmp_path: Path) -> None:
    """20 kills while three games are played through the service: every game verifies by replay,
    and every acknowledged action is in the log."""
    db = tmp_path / "ttr.sqlite3"
    rng = random.Random(6)
    acknowledged: set[tuple[int, int]] = set()
    for _ in range(KILLS):
        acknowledged |= await _run_and_kill(db, rng.uniform(0.05, 0.6))
        storage = await open_storage(db)
        try:
            assert await storage.integrity_check() == ["ok"]
            checked, problems = await verify_storage(storage)
            assert problems == [] and checked >= 1
            for game_id, version in acknowledged:
                game = await storage.get_game(game_id)
                assert game is not None and game.version >= version, (game_id, version)
                seqs = [a.seq for a in await storage.actions(game_id)]
                assert seqs == list(range(1, game.version + 1))
        finally:
            await storage.close()
    assert len(acknowledged) >= 20, "the player made real progress between kills"


async def _human_game(service: GameService, storage: Storage, channel: int) -> int:
    gid = await lobby(service, users=(HOST, 202), channel=channel)
    await service.start(gid, HOST)
    for user in (HOST, 202):
        await play_for(service, storage, gid, user)
    return gid


async def test_fifty_concurrent_acts_equal_a_legal_serial_order(
    service: GameService, storage: Storage
) -> None:
    """50 acts at once from both players (duplicate clicks included): the stored log replays to the
    snapshot, every success is one log row, failures are typed, no card is lost or claimed twice."""
    gid = await _human_game(service, storage, channel=1)
    rules = load_ruleset("usa")
    st0 = await state_of(storage, gid)
    total = sum(all_cards(st0).values())
    seats = {s.seat: s.user_id for s in await storage.seats(gid)}
    rng = random.Random(50)
    calls = []
    for _ in range(50):
        seat = rng.randrange(2)
        kind = rng.random()
        action = DrawBlind(seat) if kind < 0.6 else DrawFaceUp(seat, rng.randrange(5))
        version = st0.version if rng.random() < 0.2 else None
        calls.append(service.act(gid, seats[seat], action, expected_version=version))
    results = await asyncio.gather(*calls, return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(e, (ServiceError, IllegalAction)) for e in errors), errors
    assert ok and errors
    rows = await storage.actions(gid, after_seq=st0.version)
    assert len([r for r in rows if r.source == "player"]) == len(ok)
    checked, problems = await verify_storage(storage)
    assert problems == []
    st = await state_of(storage, gid)
    assert sum(all_cards(st).values()) == total
    assert len(set(st.owners)) == len(st.owners)
    assert [decode_action(r.action).seat for r in rows] == [r.seat for r in rows]
    del rules


async def test_two_hundred_games_at_once_stay_independent(tmp_path: Path) -> None:
    """200 games advanced concurrently end exactly where the same games end when played one by one."""

    async def advance(service: GameService, storage: Storage, gid: int, moves: int) -> None:
        for _ in range(moves):
            st = await state_of(storage, gid)
            seat = st.seats_to_act()[0]
            user = (await storage.seats(gid))[seat].user_id
            game = await storage.get_game(gid)
            await service.act(
                gid, user, choose_action(load_ruleset(game.map_id), st, seat), expected_version=None
            )

    maps = ["usa", "germany", "nordic", "amsterdam", "paris"]
    games, moves = 200, 6

    async def build(path: Path, concurrently: bool) -> list[dict]:
        seeds = iter(range(1000, 1000 + games))
        storage = await open_storage(path)
        service = GameService(storage, seed_source=lambda: next(seeds))
        try:
            ids = []
            for i in range(games):
                gid = await lobby(
                    service, map_id=maps[i % 5], users=(HOST,), ais=1, channel=10_000 + i
                )
                await service.start(gid, HOST)
                ids.append(gid)
            if concurrently:
                await asyncio.gather(*(advance(service, storage, gid, moves) for gid in ids))
            else:
                for gid in ids:
                    await advance(service, storage, gid, moves)
            checked, problems = await verify_storage(storage)
            assert checked == games and problems == []
            return [encode_state(await state_of(storage, gid)) for gid in ids]
        finally:
            await storage.close()

    together = await build(tmp_path / "together.sqlite3", True)
    alone = await build(tmp_path / "alone.sqlite3", False)
    assert together == alone
    assert all(s["version"] >= moves for s in together)
