"""Many processes, one truth (issue 17.2, 17.3): two real processes on one database.

- Hammering the same games: every stored move is acknowledged by exactly one
  process, the acknowledged moves cover each game's log without a gap or an
  overlap, and every log replays (what one process playing them in that
  order would have stored).
- Timers on shard ranges: each process fires only the timers of games whose
  guild is on its shards; with overlapping ranges every timer still fires
  exactly once.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.host.services import GameService
from bot.host.services.ops import verify_storage
from bot.host.storage import ShardFilter, open_storage
from engine import KeepTickets

from .conftest import FakeClock

HELPER = Path(__file__).with_name("multi_process.py")
REPO = Path(__file__).resolve().parents[2]
USERS = (11, 22)
T0 = 1_800_000_000.0


@pytest.fixture(params=["postgres", "sqlite"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database both processes open."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


async def helper(*args: str) -> list[str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(HELPER),
        *args,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=300)
    assert proc.returncode == 0, err.decode()[-3000:]
    return out.decode().splitlines()


async def _games(url: str, guilds: list[int], clock: FakeClock) -> list[int]:
    """Started two-player games (users 11 and 22) with the tickets chosen: seat 0 to move."""
    storage = await open_storage(url, clock=clock)
    seeds = iter(range(500, 600))
    service = GameService(storage, clock=clock, seed_source=lambda: next(seeds))
    ids = []
    try:
        for i, guild in enumerate(guilds):
            game = await service.create(
                guild_id=guild, channel_id=9_000 + i, host_id=USERS[0], host_name="a",
                map_id=("usa", "nordic", "germany")[i % 3], turn_seconds=3600,
            )  # fmt: skip
            await service.join(game.id, USERS[1], "b")
            await service.start(game.id, USERS[0])
            state = await service.game_state(game.id)
            while state.phase == "setup":
                from engine.ai import choose_action
                from maps.loader import load_ruleset

                seat = state.seats_to_act()[0]
                move = choose_action(load_ruleset(state.map_id), state, seat)
                if isinstance(move, KeepTickets) or state.phase == "setup":
                    await service.act(game.id, USERS[seat], move, expected_version=None)
                state = await service.game_state(game.id)
            ids.append(game.id)
    finally:
        await service.close()
        await storage.close()
    return ids


async def test_two_processes_hammering_the_same_games(shared_url: str) -> None:
    games = await _games(shared_url, [1, 1, 1], FakeClock(T0))
    async with await open_storage(shared_url) as storage:
        start = {g: (await storage.get_game(g)).version for g in games}  # type: ignore[union-attr]
    outputs = await asyncio.gather(
        helper("hammer", shared_url, "1", "60"), helper("hammer", shared_url, "2", "60")
    )
    acked: dict[int, list[tuple[int, int, int]]] = {g: [] for g in games}
    conflicts = 0
    for who, lines in enumerate(outputs):
        assert lines[-1].startswith("done")
        conflicts += int(lines[-1].split()[1])
        for line in lines[:-1]:
            _, gid, first, last = line.split()
            acked[int(gid)].append((int(first), int(last), who))
    assert sum(len(a) for a in acked.values()) == 120
    async with await open_storage(shared_url) as storage:
        checked, problems = await verify_storage(storage)
        assert problems == [] and checked == len(games)
        for gid in games:
            game = await storage.get_game(gid)
            assert game is not None
            log = await storage.actions(gid)
            assert [a.seq for a in log] == list(range(1, game.version + 1))  # nothing lost
            covered = sorted((first, last) for first, last, _ in acked[gid])
            expected_first = start[gid] + 1
            for first, last in covered:  # no move doubled, no gap between acknowledged moves
                assert first == expected_first, (gid, covered)
                expected_first = last + 1
            assert expected_first == game.version + 1, (gid, covered, game.version)
            players = [a for a in log if a.source == "player"]
            assert len(players) >= len(acked[gid])
    print(f"{conflicts} races lost and retried")


def _guild(shard: int, count: int = 4) -> int:
    return (shard + count * 123) << 22


async def test_timers_fire_on_their_shards_and_exactly_once(shared_url: str) -> None:
    shards = [i % 4 for i in range(24)]
    games = await _games(shared_url, [_guild(s) for s in shards], FakeClock(T0))
    shard_of = dict(zip(games, shards, strict=True))
    async with await open_storage(shared_url) as storage:
        service = GameService(storage)
        to_move = {g: (await service.game_state(g)).seats_to_act()[0] for g in games}

    # half the turn: reminders, each process for its own shards
    low, high = await asyncio.gather(
        helper("timers", shared_url, str(T0 + 2_000), "4", "0-1"),
        helper("timers", shared_url, str(T0 + 2_000), "4", "2-3"),
    )
    fired_low = [(int(line.split()[1]), line.split()[2]) for line in low[:-1]]
    fired_high = [(int(line.split()[1]), line.split()[2]) for line in high[:-1]]
    assert {shard_of[g] for g, _ in fired_low} <= {0, 1}
    assert {shard_of[g] for g, _ in fired_high} <= {2, 3}
    assert sorted(fired_low + fired_high) == sorted((g, "reminder") for g in games)

    # the turn is over everywhere; both processes serve every shard: each timeout fires once
    one, two = await asyncio.gather(
        helper("timers", shared_url, str(T0 + 4_000), "4", "0-3"),
        helper("timers", shared_url, str(T0 + 4_000), "4", "0-3"),
    )
    fired = [int(line.split()[1]) for line in one[:-1] + two[:-1]]
    assert sorted(fired) == sorted(games), (one, two)
    print(f"timeouts fired: {len(one) - 1} by one process, {len(two) - 1} by the other")
    async with await open_storage(shared_url) as storage:
        assert (await verify_storage(storage))[1] == []
        for gid in games:
            late = to_move[gid]
            seats = await storage.seats(gid)
            assert [s.expiries_in_row for s in seats] == [int(s.seat == late) for s in seats]
            timeouts = [a for a in await storage.actions(gid) if a.source == "timeout"]
            assert timeouts and {a.seat for a in timeouts} == {late}, gid  # played once
    assert ShardFilter(4, frozenset({0, 1})).owns(_guild(1))
