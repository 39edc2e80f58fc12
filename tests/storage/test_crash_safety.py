"""SIGKILL the crash writer at random moments; no acknowledged action may be lost."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from bot.host.storage import latest_version, open_storage

from .crash_writer import snapshot_for

WRITER = Path(__file__).with_name("crash_writer.py")
REPO = Path(__file__).resolve().parents[2]
KILLS = 20
CHANNEL = 1


def parse_acknowledged(stdout: bytes) -> set[int]:
    """Seqs printed on complete lines (a line cut by the kill does not count)."""
    lines = stdout.decode().split("\n")[:-1]
    return {int(line) for line in lines if line.isdigit()}


async def run_and_kill(db: Path, delay: float, *, wait_for: bytes) -> tuple[set[int], bool]:
    """Start the writer, SIGKILL it ``delay`` s after it printed the line
    starting with ``wait_for`` (``opening`` or ``ready``), and return
    (acknowledged seqs, whether it got ready)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WRITER),
        str(db),
        str(CHANNEL),
        cwd=REPO,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    head = b""
    while not head.endswith(b"\n") or not head.split(b"\n")[-2].startswith(wait_for):
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=20)
        if not line:
            _, err = await proc.communicate()
            pytest.fail(f"writer stopped before {wait_for!r}: {head!r} {err.decode()[-2000:]}")
        head += line
    await asyncio.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, err = await proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err.decode()[-2000:]
    stdout = head + out
    return parse_acknowledged(stdout), b"ready" in stdout


async def assert_consistent(db: Path, acknowledged: set[int]) -> int:
    """Reopen the file and check nothing acknowledged is lost; return the version."""
    async with await open_storage(db) as storage:
        assert await storage.integrity_check() == ["ok"]
        game = await storage.active_game_in_channel(CHANNEL)
        if game is None:
            assert not acknowledged, "acknowledged actions but no game"
            return 0
        seqs = [a.seq for a in await storage.actions(game.id)]
        assert seqs == list(range(1, len(seqs) + 1))
        assert acknowledged <= set(seqs), sorted(acknowledged - set(seqs))[:10]
        assert game.version == (seqs[-1] if seqs else 0)
        if game.status == "active":
            checkpoint = await storage.load_checkpoint(game.id)
            assert checkpoint is not None and checkpoint.version == game.version
            assert checkpoint.snapshot == snapshot_for(game.version)
            if seqs:
                last = (await storage.actions(game.id, after_seq=game.version - 1))[0]
                assert last.action["seq"] == game.version
        return game.version


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
async def test_sigkill_never_loses_an_acknowledged_action(tmp_path: Path) -> None:
    """20 random SIGKILLs: the file opens, is intact, and keeps every acknowledged seq."""
    db = tmp_path / "crash" / "ttr.db"
    rng = random.Random(20_240_601)
    acknowledged: set[int] = set()
    versions = []
    for run in range(KILLS):
        # Every fourth run is killed within 20 ms of opening the file, so some
        # kills land while it is created, migrated or the game is started.
        if run % 4 == 0:
            acked, _ = await run_and_kill(db, rng.uniform(0, 0.02), wait_for=b"opening")
        else:
            acked, _ = await run_and_kill(db, rng.uniform(0.05, 0.3), wait_for=b"ready")
        acknowledged |= acked
        versions.append(await assert_consistent(db, acknowledged))
    assert versions == sorted(versions)
    assert versions[-1] >= 20, versions  # the writer made real progress between kills


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
async def test_sigkill_while_creating_the_file(tmp_path: Path) -> None:
    """Kills during creation and migration of a new file leave a file that opens
    at the latest schema, with a consistent game if one was started."""
    rng = random.Random(7)
    for attempt in range(6):
        db = tmp_path / str(attempt) / "ttr.db"
        acked, _ = await run_and_kill(db, rng.uniform(0, 0.012), wait_for=b"opening")
        await assert_consistent(db, acked)
        async with await open_storage(db) as storage:
            assert (await storage.pragmas())["user_version"] == latest_version()
