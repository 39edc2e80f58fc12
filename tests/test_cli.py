"""``python -m bot``'s command line (:mod:`bot.cli`): every command has its help, and every
operator command fails the same way, one line on stderr (``ttrbot <command>: ...``), no
traceback, a documented exit code (docs/operators/commands.md). With
``TTR_ON_CONFIG_ERROR=wait`` (the container image) a configuration error leaves ``run`` idle
and unhealthy instead of exiting into a restart loop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.cli.stopping import exit_code

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (
    "run health demo verify export migrate ratings achievements backup forget purge privacy".split()
)


def bot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": "", **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_line(done: subprocess.CompletedProcess[str], command: str) -> str:
    """The failure's one line on stderr (asserted: one line, the command named, no traceback)."""
    err = done.stderr.strip()
    assert "Traceback" not in err and "\n" not in err, err
    assert err.startswith(f"ttrbot {command}: "), err
    return err


def test_every_command_is_a_sub_parser_with_its_help() -> None:
    listed = bot("--help")
    assert listed.returncode == 0
    for command in COMMANDS:
        # a name longer than argparse's column has its help on the next line
        assert re.search(rf"^    {command}( |\n)", listed.stdout, re.MULTILINE), command
        helped = bot(command, "--help")
        assert helped.returncode == 0 and f"usage: python -m bot {command}" in helped.stdout


def test_bad_use_is_argparses_usage_and_exit_2() -> None:
    unknown = bot("nonsense")
    assert unknown.returncode == 2 and "invalid choice" in unknown.stderr
    missing = bot("verify")
    assert missing.returncode == 2 and "--db" in missing.stderr
    assert "Traceback" not in unknown.stderr + missing.stderr


def test_the_demo_into_a_folder_it_cannot_create_is_one_line(tmp_path: Path) -> None:
    """A path under a file (what a read-only bind mount is to root, who may write anything)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    done = bot("demo", "--out", str(blocker / "sub"), "--players", "2")
    assert done.returncode == 2
    line = one_line(done, "demo")
    assert str(blocker / "sub") in line and "Not a directory" in line


def test_a_missing_or_unreachable_database_is_one_line(tmp_path: Path) -> None:
    for command in ("verify", "ratings", "forget", "purge", "export"):
        extra = {"forget": ["--user", "1"], "purge": ["--guild", "1"], "export": ["--game", "1"]}
        done = bot(command, "--db", str(tmp_path / "none.sqlite3"), *extra.get(command, []))
        assert done.returncode == 2, (command, done.stderr)
        assert "no database at" in one_line(done, command)
    url = "postgresql://ttr:hunter2@127.0.0.1:1/ttr"
    done = bot("verify", "--database-url", url)
    assert done.returncode == 2 and "hunter2" not in done.stderr
    one_line(done, "verify")
    done = bot("migrate", "--from", url, "--to", f"sqlite:///{tmp_path / 'copy.sqlite3'}")
    assert done.returncode == 2 and "source:" in one_line(done, "migrate")


def test_a_bad_setting_is_one_line() -> None:
    for command in ("run", "health", "privacy"):
        done = bot(command, env={"TTR_LOG_LEVEL": "loud", "TTR_GUILD_RETENTION_DAYS": "x"})
        assert done.returncode == 2, (command, done.stderr)
        assert "bad setting" in one_line(done, command)
    done = bot("run", env={"TTR_ON_CONFIG_ERROR": "sometimes"})
    assert done.returncode == 2 and "TTR_ON_CONFIG_ERROR" in one_line(done, "run")


def test_no_token_is_one_line_and_exit_2() -> None:
    done = bot("run")
    assert done.returncode == 2 and "DISCORD_TOKEN is not set" in one_line(done, "run")
    alone = bot()  # no command: run
    assert alone.returncode == 2 and alone.stderr == done.stderr


def test_an_unwritable_export_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "ttr.sqlite3"
    assert bot("demo", "--out", str(tmp_path), "--players", "2", "--every", "99").returncode == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    done = bot("export", "--db", str(db), "--game", "1", "--out", str(blocker / "game.json"))
    assert done.returncode == 2 and str(blocker) in one_line(done, "export")


def test_in_process_the_same_rules_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert capsys.readouterr().err == f"ttrbot verify: no database at {tmp_path}/none.sqlite3\n"


def test_a_stop_while_a_command_starts_exits_cleanly() -> None:
    """The run's stop is its normal end (0); another command was interrupted (128 + signal)."""
    assert exit_code([], signal.SIGTERM) == 0
    assert exit_code(["run"], signal.SIGTERM) == 0
    assert exit_code(["demo", "--map", "usa"], signal.SIGTERM) == 128 + signal.SIGTERM
    assert exit_code(["verify"], signal.SIGINT) == 128 + signal.SIGINT


def _waiting(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """``python -m bot run`` with TTR_ON_CONFIG_ERROR=wait: it says why on stderr and stays
    up (its first line, once said); returns the process and the line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        cwd=ROOT,
        env={
            **os.environ,
            "DISCORD_TOKEN": "",
            "TTR_ON_CONFIG_ERROR": "wait",
            "TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"),
            "TTR_HEARTBEAT_PATH": str(tmp_path / "beat"),
            **env,
        },
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    line = proc.stderr.readline().strip()
    return proc, line


@pytest.mark.parametrize("case", ["no token", "bad setting"])
def test_a_configuration_error_waits_unhealthy_until_stopped(tmp_path: Path, case: str) -> None:
    env = {"TTR_SHARD_COUNT": "two"} if case == "bad setting" else {}
    proc, line = _waiting(tmp_path, env)
    try:
        assert line.startswith("ttrbot run: ") and "waiting (TTR_ON_CONFIG_ERROR=wait)" in line
        assert ("DISCORD_TOKEN is not set" if case == "no token" else "TTR_SHARD_COUNT") in line
        assert proc.poll() is None, "it stays up: nothing for a restart policy to repeat"
        if case == "no token":  # the heartbeat says why; the health check answers with it
            health = bot("health", env={"TTR_HEARTBEAT_PATH": str(tmp_path / "beat")})
            assert health.returncode == 1, health.stderr
            assert health.stderr.startswith("unhealthy: the bot has stopped (DISCORD_TOKEN")
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 2
        assert time.monotonic() - began <= 2.0
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_a_token_discord_rejects_waits_with_the_container_setting(tmp_path: Path) -> None:
    """401 at login with TTR_ON_CONFIG_ERROR=wait: the rejection is logged once, the process
    stays up and unhealthy with the reason, and a stop ends it with exit code 2."""
    import asyncio

    from tests.e2e.fake_discord import BotProcess, FakeDiscord

    async with FakeDiscord(member_names=("alice",)) as fake:
        fake.fail("GET", r"/users/@me", 401, 0, times=5, message="Unauthorized")
        env = {
            "TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"),
            "TTR_HEARTBEAT_PATH": str(tmp_path / "beat"),
            "TTR_ON_CONFIG_ERROR": "wait",
        }
        bot_process = BotProcess(fake, [sys.executable, "-m", "bot", "run"], env=env, cwd=str(ROOT))
        try:
            await bot_process.start(wait_ready=False)
            deadline = time.monotonic() + 60
            while "waiting (TTR_ON_CONFIG_ERROR=wait)" not in bot_process.output():
                assert bot_process.running, bot_process.output()[-3000:]
                assert time.monotonic() < deadline, bot_process.output()[-3000:]
                await asyncio.sleep(0.05)
            health = await asyncio.to_thread(
                bot, "health", env={"TTR_HEARTBEAT_PATH": str(tmp_path / "beat")}
            )
            assert health.returncode == 1
            assert "the bot has stopped (Discord rejected the token" in health.stderr
            assert bot_process.running and bot_process.process is not None
            bot_process.process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(bot_process.process.wait(), 15) == 2
            out = bot_process.output()
        finally:
            await bot_process.close()
    assert "Traceback" not in out, out[-3000:]
    assert sum("/users/@me -> 401" in r for r in fake.requests) == 1
