"""Operator tools: verify names every damaged game in a line and exits 1 (never a traceback),
export keeps a running game's secrets, migrate copies every game between backends and back."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.host.services import GameService
from bot.host.services.ops import copy_database, verify_storage
from bot.host.storage import Storage, open_storage

from .conftest import BOB, HOST, FakeClock, lobby, play_for

REPO = Path(__file__).resolve().parents[2]


def bot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def _games(
    service: GameService, storage: Storage, count: int, *, finish: int = 0
) -> list[int]:
    """``count`` started games (two humans, some moves); the first ``finish`` played to the end
    by AI seats."""
    ids = []
    for i in range(count):
        if i < finish:
            gid = await lobby(service, users=(HOST,), ais=2, channel=100 + i)
            await service.lobby.start(gid, HOST)
            await service.play.resign(gid, HOST)  # the AI plays the host's seat to the end
        else:
            gid = await lobby(service, users=(HOST, BOB), channel=100 + i)
            await service.lobby.start(gid, HOST)
            for _ in range(6):
                await _play_next(service, storage, gid)
        ids.append(gid)
    return ids


async def _play_next(service: GameService, storage: Storage, gid: int) -> None:
    """The seat that must act plays the heuristic AI's choice."""
    seat = (await service.loader.game_state(gid)).seats_to_act()[0]
    user = (await storage.seats.seats(gid))[seat].user_id
    assert user is not None
    await play_for(service, storage, gid, user)


def _sql(db: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(db)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


async def test_verify_names_each_damaged_game_and_exits_1(
    tmp_path: Path, storage: Storage, service: GameService
) -> None:
    """Bad JSON, a missing snapshot, results that disagree with the replay, a log that does not
    replay: one line per game naming it, exit 1, no traceback; a clean database exits 0."""
    db = tmp_path / "ttr.sqlite3"
    ids = await _games(service, storage, 6, finish=2)
    finished, wrong_result, bad_json, missing, bad_options, bad_log = ids
    assert bot("verify", "--db", str(db)).returncode == 0
    _sql(db, "UPDATE results SET score = score + 7 WHERE game_id = ? AND seat = 1", wrong_result)
    _sql(db, "UPDATE snapshots SET format = 'json', data = CAST('{x' AS BLOB) WHERE game_id = ?",
         bad_json)  # fmt: skip
    _sql(db, "DELETE FROM snapshots WHERE game_id = ?", missing)
    _sql(db, "UPDATE games SET options = 'not json' WHERE id = ?", bad_options)
    _sql(db, "PRAGMA writable_schema = 0")
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER actions_no_update")
    conn.execute(
        'UPDATE actions SET action = \'{"type":"claim_route","seat":0,"route":"nowhere"}\''
        " WHERE game_id = ? AND seq = 3",
        (bad_log,),
    )
    conn.commit()
    conn.close()

    proc = bot("verify", "--db", str(db))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    by_game = {int(line.split(":")[0].split()[1]): line for line in lines[:-1]}
    assert set(by_game) == {wrong_result, bad_json, missing, bad_options, bad_log}, lines
    assert "results disagree" in by_game[wrong_result] and "seat(s) [1]" in by_game[wrong_result]
    assert "bad JSON" in by_game[bad_json]
    assert "snapshot is missing" in by_game[missing]
    assert "options" in by_game[bad_options]
    assert "does not replay at action 3" in by_game[bad_log]
    assert finished not in by_game
    assert lines[-1] == f"{len(ids)} games checked, 5 mismatches"
    url = bot("verify", "--database-url", f"sqlite:///{db}")
    assert url.returncode == 1 and url.stdout == proc.stdout


def test_verify_and_export_on_an_unopenable_database(tmp_path: Path) -> None:
    """No such file, a directory or garbage: exit 2 and one line, no traceback."""
    (tmp_path / "dir.sqlite3").mkdir()
    (tmp_path / "junk.sqlite3").write_bytes(b"junk" * 1000)
    for args in (
        ("verify", "--db", str(tmp_path / "missing.sqlite3")),
        ("verify", "--database-url", f"sqlite:///{tmp_path / 'dir.sqlite3'}"),
        ("verify", "--db", str(tmp_path / "junk.sqlite3")),
        ("export", "--db", str(tmp_path / "junk.sqlite3"), "--game", "1"),
        ("migrate", "--from", f"sqlite:///{tmp_path / 'junk.sqlite3'}", "--to", "sqlite:///x"),
    ):
        proc = bot(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr, args


async def test_export_keeps_a_running_games_secrets(
    tmp_path: Path, storage: Storage, service: GameService
) -> None:
    """A running game's export has no seed, no snapshot, and kept tickets only as a count; a
    finished game's export is complete and replays."""
    finished, running = await _games(service, storage, 2, finish=1)
    db = tmp_path / "ttr.sqlite3"
    doc = json.loads(bot("export", "--db", str(db), "--game", str(running)).stdout)
    assert not doc["complete"] and "seed" not in doc["game"] and "snapshot" not in doc
    kept = [a["action"] for a in doc["actions"] if a["action"]["type"] == "keep_tickets"]
    assert kept and all("tickets" not in a and a["tickets_count"] >= 2 for a in kept)
    doc = json.loads(bot("export", "--db", str(db), "--game", str(finished)).stdout)
    assert doc["complete"] and doc["game"]["seed"] == 11 and doc["snapshot"]["seed"] == 11
    assert all(
        "tickets" in a["action"] for a in doc["actions"] if a["action"]["type"] == "keep_tickets"
    )
    missing = bot("export", "--db", str(db), "--game", "999")
    assert missing.returncode == 1 and "no game 999" in missing.stderr


async def test_migrate_sqlite_to_postgres_and_back(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    """Every game goes to PostgreSQL and back: rows equal, replays verified, user and server
    settings, seasons and ratings kept, and the copied games go on being played on the new
    database."""
    source = tmp_path / "source.sqlite3"
    storage = await open_storage(source, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 11)
    ids = await _games(service, storage, 4, finish=1)
    await storage.settings.set_user_settings(HOST, dm_turns=True)
    await storage.guild_settings.set_guild_settings(1, language="de", channels=(7, 8))
    ratings = await storage.ratings.all_ratings()
    assert {r.player for r in ratings} == {f"user:{HOST}", "ai:normal"}
    await storage.close()

    proc = await asyncio.to_thread(
        bot, "migrate", "--from", f"sqlite:///{source}", "--to", postgres_url
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "copied 4 games" in proc.stdout and "0 problems" in proc.stdout
    assert "@/" in proc.stdout or "postgresql://" in proc.stdout
    again = await asyncio.to_thread(
        bot, "migrate", "--from", f"sqlite:///{source}", "--to", postgres_url
    )
    assert again.returncode == 2 and "already holds 4 games" in again.stderr

    back = tmp_path / "back.sqlite3"
    async with await open_storage(postgres_url, clock=clock) as pg:
        assert (await pg.settings.get_user_settings(HOST)).dm_turns
        assert (
            await pg.ratings.all_ratings() == ratings and len(await pg.ratings.rated_games()) == 1
        )
        assert (await pg.guild_settings.get_guild_settings(1)).channels == (7, 8)
        pg_service = GameService(pg, clock=clock)
        await _play_next(pg_service, pg, ids[-1])  # play on where it stopped
        async with await open_storage(back, clock=clock) as target:
            report = await copy_database(pg, target)
            assert (report.games, report.settings, report.problems) == (4, 1, ())
            for gid in ids:
                assert await target.copies.dump_game(gid) == await pg.copies.dump_game(gid)
            checked, problems = await verify_storage(target)
            assert (checked, problems) == (4, [])
            assert await target.ratings.all_ratings() == ratings
            assert await target.copies.dump_guild_tables() == await pg.copies.dump_guild_tables()


@pytest.fixture(params=["sqlite", "postgres"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'v.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


async def test_verify_on_both_backends(any_url: str, clock: FakeClock) -> None:
    """verify runs on a database URL of either backend."""
    storage = await open_storage(any_url, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 3)
    await _games(service, storage, 2, finish=1)
    await storage.close()
    proc = await asyncio.to_thread(bot, "verify", "--database-url", any_url)
    assert proc.returncode == 0 and "2 games checked, 0 mismatches" in proc.stdout, proc.stdout


async def test_demo_plays_in_the_database_it_is_given(postgres_url: str, tmp_path: Path) -> None:
    """`python -m bot demo --database-url URL` plays its game in that database (twice: the second
    game beside the first), and verify agrees."""
    from bot.cli.demo_game import run_demo

    for seed in (3, 4):
        code = await run_demo("usa", 2, seed, tmp_path / "out", every=1000, database=postgres_url)
        assert code == 0
    async with await open_storage(postgres_url) as storage:
        assert len(await storage.games.game_ids("finished")) == 2
        assert (await verify_storage(storage)) == (2, [])
    assert not (tmp_path / "out" / "ttr.sqlite3").exists()
