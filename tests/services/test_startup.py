"""Starting a process: database URL and shard settings, an unopenable database (one clear line,
exit 2, no traceback), the health check's answer, the sharded client, structured log lines."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from discord.ext import commands

from bot.discord_app.client import create_bot
from bot.host.storage import ShardFilter
from bot.process.config import Settings, parse_shard_ids
from bot.process.run import GameContext, JsonFormatter, health, run

REPO = Path(__file__).resolve().parents[2]


def _settings(**env: str) -> Settings:
    return Settings.from_env(env, env_file=None)


def test_database_url_and_path() -> None:
    """TTR_DATABASE_URL wins; TTR_DATABASE_PATH keeps working; a bad scheme is refused."""
    assert _settings().database == "sqlite:///data/ttr.sqlite3"
    assert _settings(TTR_DATABASE_PATH="/x/y.db").database == "sqlite:////x/y.db"
    s = _settings(TTR_DATABASE_URL="sqlite:///data/other.sqlite3")
    assert s.database_path == Path("data/other.sqlite3") and s.uses_sqlite
    pg = _settings(TTR_DATABASE_URL="postgresql://ttr:pw@db:5432/ttr")
    assert pg.database == "postgresql://ttr:pw@db:5432/ttr" and not pg.uses_sqlite
    assert "pw" not in repr(pg)  # the password stays out of print(settings)
    assert pg.heartbeat_file == Path("data/ttr.heartbeat")
    with pytest.raises(ValueError, match="TTR_DATABASE_URL"):
        _settings(TTR_DATABASE_URL="mysql://x/y")


def test_shard_settings() -> None:
    """TTR_SHARD_COUNT with TTR_SHARD_IDS ranges; all shards by default; bad values refused."""
    assert parse_shard_ids("0-3", 8) == (0, 1, 2, 3)
    assert parse_shard_ids("0,2, 5-6", 8) == (0, 2, 5, 6)
    s = _settings(TTR_SHARD_COUNT="8", TTR_SHARD_IDS="4-7")
    assert s.shards == ShardFilter(8, frozenset({4, 5, 6, 7})) and s.shard_label == "4-7/8"
    assert _settings(TTR_SHARD_COUNT="2").shard_ids == (0, 1)
    assert _settings().shards is None and _settings().shard_label == "-"
    for env in (
        {"TTR_SHARD_IDS": "0-1"},
        {"TTR_SHARD_COUNT": "4", "TTR_SHARD_IDS": "3-5"},
        {"TTR_SHARD_COUNT": "0"},
        {"TTR_SHARD_COUNT": "4", "TTR_SHARD_IDS": "a-b"},
        {"TTR_SHARD_COUNT": "4", "TTR_SHARD_IDS": "3-1"},
    ):
        with pytest.raises(ValueError):
            _settings(**env)


async def test_the_client_runs_the_configured_shards() -> None:
    """With shard settings the bot is an AutoShardedBot on exactly those shards."""
    sharded = create_bot(_settings(TTR_SHARD_COUNT="8", TTR_SHARD_IDS="2-3"), None)
    async with sharded:
        assert isinstance(sharded, commands.AutoShardedBot)
        assert (sharded.shard_ids, sharded.shard_count) == ([2, 3], 8)
    plain = create_bot(_settings(), None)
    async with plain:
        assert not isinstance(plain, commands.AutoShardedBot)


async def test_closing_the_client_stops_the_warm_up_after_the_map_under_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board layers are drawn map by map in a thread that the process's exit waits for:
    a SIGTERM (or a failed connection, whose client is closed before the next one starts) ends
    it after the map it is drawing, not after every map (that made a stop take 9-21 s)."""
    import asyncio
    import threading

    import render
    from maps.loader import available_maps

    drawn: list[str] = []
    drawing, finish = threading.Event(), threading.Event()

    def warm_up(map_ids: list[str]) -> None:
        drawn.extend(map_ids)
        drawing.set()
        assert finish.wait(30)

    monkeypatch.setattr(render, "warm_up", warm_up)
    bot = create_bot(_settings(), None)
    warming = asyncio.create_task(bot._warm_up())
    assert await asyncio.to_thread(drawing.wait, 30)
    await bot.close()
    finish.set()
    await asyncio.wait_for(warming, 30)
    assert drawn == available_maps()[:1] and len(available_maps()) > 1


def _unopenable(tmp_path: Path) -> dict[str, Path]:
    cases = {}
    folder = tmp_path / "a-directory.sqlite3"
    folder.mkdir()
    cases["directory"] = folder
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database, just text\n" * 200)
    cases["not a SQLite database"] = garbage
    return cases


@pytest.mark.parametrize("case", ["directory", "not a SQLite database"])
def test_run_stops_with_one_line_and_exit_2(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unopenable database stops run() before Discord is contacted: one line, exit 2."""
    path = _unopenable(tmp_path)[case]
    settings = _settings(DISCORD_TOKEN="x", TTR_DATABASE_PATH=str(path))
    assert run(settings) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert str(path) in err and case in err
    assert health(settings) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("unhealthy:") and case in err and "\n" not in err


def _bot_run(env: dict[str, str], user: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "x", **env},
        capture_output=True,
        text=True,
        timeout=60,
        user=user,
    )


def test_python_m_bot_run_on_a_directory_exits_2_without_traceback(tmp_path: Path) -> None:
    """The real command line: exit code 2 and one line on stderr, so a container does not
    restart in a loop printing tracebacks."""
    folder = tmp_path / "db"
    folder.mkdir()
    proc = _bot_run({"TTR_DATABASE_PATH": str(folder)})
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr
    assert "directory" in proc.stderr
    bad = _bot_run({"TTR_DATABASE_URL": "postgresql://ttr:hunter2@127.0.0.1:1/ttr"})
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "hunter2" not in bad.stderr and "cannot open the database" in bad.stderr


def _run_unprivileged(settings: Settings) -> tuple[int, str]:
    """``run(settings)`` in a forked child that dropped to user ``nobody`` (the code is already
    loaded, so nothing needs to be readable by that user); returns (exit code, stderr)."""
    import pwd

    import bot.discord_app.client  # noqa: F401 - loaded before the fork
    import bot.host.services  # noqa: F401

    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            os.close(read)
            sys.stderr = open(write, "w", buffering=1, closefd=False)  # noqa: SIM115
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            code = run(settings)
        except BaseException:  # noqa: BLE001 - shown to the parent, which fails the test
            import traceback

            traceback.print_exc()
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        err = pipe.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), err


def test_no_permission_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database file the process may not write: one line naming the problem, exit 2."""
    db = tmp_path / "locked" / "ttr.sqlite3"
    db.parent.mkdir()
    db.write_bytes(b"")
    db.chmod(0o400)
    db.parent.chmod(0o555)
    settings = _settings(DISCORD_TOKEN="x", TTR_DATABASE_PATH=str(db))
    if os.geteuid() == 0:  # root may write anything: drop to an unprivileged user
        code, err = _run_unprivileged(settings)
    else:
        code, err = run(settings), capsys.readouterr().err
    db.parent.chmod(0o755)
    assert code == 2, err
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert str(db) in err
    assert any(word in err for word in ("read-only", "permission", "cannot be opened")), err


def test_log_lines_carry_the_shard_and_the_game() -> None:
    """Every line names this process's shards and, when it is about one, the game."""
    context = GameContext("0-3/8")
    about = logging.LogRecord(
        "bot.host.services", logging.INFO, "x", 1, "game %s: seat %s", (42, 1), None
    )
    other = logging.LogRecord("bot", logging.INFO, "x", 1, "stopping", None, None)
    assert context.filter(about) and context.filter(other)
    line = json.loads(JsonFormatter().format(about))
    assert (line["shard"], line["game"], line["message"]) == ("0-3/8", 42, "game 42: seat 1")
    assert json.loads(JsonFormatter().format(other))["game"] == "-"


def test_health_of_a_postgres_database(postgres_url: str, tmp_path: Path) -> None:
    """health opens a PostgreSQL database (no local file needed) and checks the heartbeat."""
    beat = tmp_path / "beat"
    settings = _settings(TTR_DATABASE_URL=postgres_url, TTR_HEARTBEAT_PATH=str(beat))
    assert health(settings) == 1  # no heartbeat yet
    beat.write_text("1\n")
    assert health(settings) == 0
