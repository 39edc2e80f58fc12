"""Each service operation commits whole or not at all, even under kill -9.

For start, resign, vacation, the last action of a rated game (its results and
every player's new rating), forgetting a player, purging a server, a lobby's expiry,
following a game and awarding a finished game's achievements, a real
process runs the operation and SIGKILLs itself at write point 1, 2, 3, ...
(before each statement, before each commit, right after each commit) until
one run gets through. After every kill the database opens and is intact,
every game replays to what is stored, and the operation is either all there
or not there at all: for forget, purge and award every row of the database is either
as before or as after the operation run without a kill.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, is_dataclass
from pathlib import Path

import pytest

from bot.host.services import GameService, ai_controlled
from bot.host.services.ops import verify_storage
from bot.host.storage import GameRow, SeatRow, Storage, open_storage

from .crash_ops import (
    CAROL,
    CLOCK,
    EXPIRE_AT,
    HOST,
    OPS,
    ROW_OPS,
    clock,
    prepare,
    prepare_rows,
    run,
)

HELPER = Path(__file__).with_name("crash_ops.py")
REPO = Path(__file__).resolve().parents[2]
#: More write points than any of the three operations has (a guard against a runaway loop).
MAX_POINTS = 200


@dataclass
class Trial:
    """One run of the helper: killed at ``point``, or done after ``passed`` points."""

    point: int
    killed: bool
    passed: int | None


async def run_helper(db: Path, op: str, point: int) -> Trial:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(HELPER),
        str(db),
        op,
        str(point),
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    if proc.returncode == -signal.SIGKILL:
        return Trial(point, True, None)
    assert proc.returncode == 0, err.decode()[-3000:]
    return Trial(point, False, int(out.decode().split()[-1]))


def _key(seat: SeatRow) -> tuple[object, ...]:
    return (seat.user_id, seat.display_name, seat.is_ai, seat.joined_at)


async def check(db: Path, op: str, before: list[SeatRow], start: GameRow) -> str:
    """Assert the database is sound and ``op`` is all there or not at all; return which."""
    async with await open_storage(db, clock=clock) as storage:
        assert await storage.integrity_check() == ["ok"]
        checked, problems = await verify_storage(storage)
        assert problems == []
        [game_id] = await storage.games.game_ids()
        game = await storage.games.get_game(game_id)
        seats = await storage.seats.seats(game_id)
        assert game is not None
        if op == "start":
            if game.status == "lobby":
                assert seats == before and not game.started and checked == 0
                return "none"
            assert game.status == "active" and game.started and checked == 1
            assert [s.seat for s in seats] == list(range(len(before)))
            assert [_key(s) for s in seats] == [_key(s) for s in before]
            return "all"
        if op == "finish":
            return await _finished_whole(storage, game_id, start)
        if op in ("expire", "follow"):
            return await _open_table_whole(storage, op, game, start)
        host = seats[0]
        state = await GameService(storage, clock=clock).loader.game_state(game_id)
        if op == "resign":
            if not host.resigned:
                assert seats == before and game == start
                return "none"
            assert host.ai_permanent and host.vacation_until is None
            if any(ai_controlled(seats[s]) for s in state.seats_to_act()):
                # the AI must still play: due now, so the timer loop resumes it after the crash
                assert game.deadline_at is not None and game.deadline_at <= CLOCK
            return "all"
        if host.vacation_until is None:
            assert seats == before and game == start
            return "none"
        assert host.vacation_until == CLOCK + 2 * 86_400
        assert host.vacation_used_s == 2 * 86_400
        assert start.deadline_at is not None and start.reminder_at is not None
        assert game.deadline_at == start.deadline_at + 2 * 86_400
        assert game.reminder_at == start.reminder_at + 2 * 86_400
        assert game.version == start.version
        assert [s for s in seats if s.seat] == [s for s in before if s.seat]
        return "all"


async def _finished_whole(storage: Storage, game_id: int, start: GameRow) -> str:
    """A rated game's last action: either still active with no result and no rating anywhere,
    or finished with its results, its place in the server's rated games and every player's
    rating (verify has already checked that a replay of the results gives those ratings)."""
    game = await storage.games.get_game(game_id)
    assert game is not None and game.rated
    results = await storage.results.results(game_id)
    rated = await storage.ratings.rated_games()
    ratings = await storage.ratings.ratings(game.guild_id)
    if game.status == "active":
        assert game.version == start.version and results == [] and rated == [] and ratings == []
        return "none"
    assert game.status == "finished" and game.version == start.version + 1
    assert [r.seat for r in results] == [0, 1, 2]
    assert [g.game_id for g in rated] == [game_id]
    assert {r.player for r in ratings} == {f"user:{HOST}", "ai:easy", "ai:normal"}
    assert {r.player for r in await storage.ratings.ratings(game.guild_id, scope="usa")} == {
        r.player for r in ratings
    }
    return "all"


async def _open_table_whole(storage: Storage, op: str, game: GameRow, start: GameRow) -> str:
    """The open tables' writes: the lobby closed by its expiry (still a lobby, or cancelled at
    the expiry's time), or a follower (no row, or the whole row)."""
    if op == "expire":
        if game.status == "lobby":
            assert game == start
            return "none"
        assert game.status == "cancelled" and game.finished_at == EXPIRE_AT
        return "all"
    followers = await storage.tables.followers(game.id)
    assert game == start
    if not followers:
        return "none"
    assert [(f.user_id, f.each_turn, f.language) for f in followers] == [(CAROL, True, "de")]
    return "all"


async def rows(storage: Storage) -> str:
    """Every row of the database as the storage reads it, as sorted JSON: each game whole (its
    rating history included), the user settings, the server-wide tables (settings, ladders,
    seasons, ratings), the servers that removed the bot. A forgotten user's random rating
    identity ('former:<key>', new in every run) reads as 'former:*'."""
    games = [await storage.copies.dump_game(game_id) for game_id in await storage.games.game_ids()]
    servers = await storage.copies.dump_guild_tables()
    everything = (
        games,
        await storage.settings.all_user_settings(),
        servers,
        await storage.privacy.departures(),
    )
    text = json.dumps(everything, default=_plain, sort_keys=True)
    return re.sub(r"former:[0-9a-f]+", "former:*", text)


def _plain(value: object) -> object:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return repr(value)


async def _rows_after(template: Path, op: str) -> str:
    """The rows after ``op`` run on a copy of ``template`` without a kill."""
    ref = template.with_name(f"{op}-reference.sqlite3")
    shutil.copy(template, ref)
    async with await open_storage(ref, clock=clock) as storage:
        await run(GameService(storage, clock=clock), op, 0)
        return await rows(storage)


async def check_rows(db: Path, before: str, after: str) -> str:
    """Assert the database is sound and holds exactly the rows before or after the operation."""
    async with await open_storage(db, clock=clock) as storage:
        assert await storage.integrity_check() == ["ok"]
        assert (await verify_storage(storage))[1] == []
        now = await rows(storage)
    if now == before:
        return "none"
    assert now == after, "a half-done operation"
    return "all"


async def _trials(
    tmp_path: Path, op: str, template: Path, outcome: Callable[[Path], Awaitable[str]]
) -> list[tuple[Trial, str]]:
    """Run ``op`` on copies of ``template``, killed at write point 1, 2, ... until a run gets
    through; ``outcome`` checks each copy ("none" or "all")."""
    trials = []
    for point in range(1, MAX_POINTS):
        db = tmp_path / op / f"{point}.sqlite3"
        db.parent.mkdir(exist_ok=True)
        shutil.copy(template, db)
        trial = await run_helper(db, op, point)
        trials.append((trial, await outcome(db)))
        if not trial.killed:
            return trials
    pytest.fail(f"{op} did not finish within {MAX_POINTS} write points")


async def _kill_everywhere(tmp_path: Path, op: str) -> list[tuple[Trial, str]]:
    template = tmp_path / f"{op}.sqlite3"
    if op in ROW_OPS:
        await prepare_rows(template, op)
        async with await open_storage(template, clock=clock) as storage:
            before_rows = await rows(storage)
        after = await _rows_after(template, op)
        assert after != before_rows
        return await _trials(tmp_path, op, template, lambda db: check_rows(db, before_rows, after))
    await prepare(template, op)
    async with await open_storage(template) as storage:
        [game_id] = await storage.games.game_ids()
        before = await storage.seats.seats(game_id)
        start = await storage.games.get_game(game_id)
        assert start is not None
    return await _trials(tmp_path, op, template, lambda db: check(db, op, before, start))


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
@pytest.mark.parametrize("op", OPS)
async def test_kill_at_every_write_point_leaves_all_or_nothing(tmp_path: Path, op: str) -> None:
    trials = await _kill_everywhere(tmp_path, op)
    kills = [(t.point, outcome) for t, outcome in trials if t.killed]
    last, outcome = trials[-1]
    assert not last.killed and outcome == "all" and last.passed == len(kills)
    # the first points are inside the operation's transaction: killed there, nothing is stored;
    # from the commit on, all of it is
    outcomes = [o for _, o in kills]
    first_all = outcomes.index("all") if "all" in outcomes else len(outcomes)
    assert first_all >= 2, kills  # at least a statement and the commit point come first
    assert outcomes[:first_all] == ["none"] * first_all
    assert set(outcomes[first_all:]) <= {"all"}, kills
