"""Each tournament step is stored whole or not at all under kill -9, and no round is ever
half seated.

For opening, a sign-up, seating round one, opening a table's game and scoring a round's
last table (which seats round two), a real process runs the step and SIGKILLs itself at
write point 1, 2, 3, ... until one run gets through. After every kill the database is
intact, every game replays, every stored round seats each of its players exactly once, a
scored table has every place, and running the step again completes it (a table's game is
not doubled).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from bot.host.services import GameService
from bot.host.services.ops import verify_storage
from bot.host.storage import open_storage

from .crash_tournament import GUILD, STEPS, THREAD, clock, prepare, run
from .test_crash_ops import MAX_POINTS, Trial, run_helper

HELPER = Path(__file__).with_name("crash_tournament.py")


async def check(db: Path, step: str) -> str:
    """Assert the database is sound and no round is half seated; finish the step on it again
    (the recovery a restart or the admin's /ttr tournament start does) and check it is whole.
    Returns "none" or "all": whether the killed run's step was stored."""
    async with await open_storage(db, clock=clock) as storage:
        assert await storage.integrity_check() == ["ok"]
        assert (await verify_storage(storage))[1] == []
        found = await storage.tournaments.in_guild(GUILD)
        outcome = "all"
        if not found:
            assert step == "open"
            return "none"
        t = found[0]
        players = {p.user_id for p in await storage.tournaments.players(t.id)}
        tables = await storage.tournaments.tables(t.id)
        for r in range(1, t.round + 1):
            seated = [p for x in tables if x.round == r for p in x.players]
            assert sorted(seated) == sorted(players), f"round {r} is half seated"
        assert {x.round for x in tables} <= set(range(1, t.round + 1))
        for x in tables:
            places = [s.place for s in x.seats]
            assert (None not in places) == x.done, "a half-scored table"
        if step == "join":
            outcome = "all" if 15 in players else "none"
        elif step == "seat":
            outcome = "all" if t.round == 1 else "none"
        elif step == "table":
            outcome = "all" if tables[0].game_id is not None else "none"
            if outcome == "none":
                game = await storage.games.active_game_in_channel(THREAD)
                outcome = "none" if game is None else "lobby"
        elif step == "score":
            outcome = "all" if t.round == 2 else "none"
        service = GameService(storage, clock=clock)
        await run(service, step) if outcome != "all" or step == "table" else None
        tables = await storage.tournaments.tables(t.id)
        if step == "table":
            assert tables[0].game_id is not None
            game = await storage.games.get_game(tables[0].game_id)
            assert game is not None and game.status == "active"
            assert len(await storage.games.game_ids()) == 1  # never a second game
        if step == "score":
            after = await storage.tournaments.get(t.id)
            assert after is not None and after.round == 2
        await service.close()
        return "none" if outcome == "lobby" else outcome


async def kill_everywhere(tmp_path: Path, step: str) -> list[tuple[Trial, str]]:
    """Run ``step`` killed at write point 1, 2, ... until a run gets through, checking each."""
    template = tmp_path / f"{step}.sqlite3"
    await prepare(template, step)
    trials = []
    for point in range(1, MAX_POINTS):
        db = tmp_path / step / f"{point}.sqlite3"
        db.parent.mkdir(exist_ok=True)
        shutil.copy(template, db)
        trial = await run_helper(db, step, point, helper=HELPER)
        trials.append((trial, await check(db, step)))
        if not trial.killed:
            return trials
    pytest.fail(f"{step} did not finish within {MAX_POINTS} write points")


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
@pytest.mark.parametrize("step", STEPS)
async def test_a_kill_at_any_write_point_leaves_no_half_round(tmp_path: Path, step: str) -> None:
    trials = await kill_everywhere(tmp_path, step)
    last, outcome = trials[-1]
    assert not last.killed and outcome == "all"
    outcomes = [o for t, o in trials if t.killed]
    assert outcomes[0] == "none"  # the first point is inside the first transaction
