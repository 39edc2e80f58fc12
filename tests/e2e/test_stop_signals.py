"""A stop at any moment: the real ``python -m bot run`` against the fake Discord, sent SIGTERM
while it imports, while it starts, while it connects, and in the middle of a game right after a
player's move was acknowledged. Each time it ends within 2 s (Docker's grace is 10 s; a
container's PID 1 ignored SIGTERM until the bot took it), with exit code 0 and no traceback,
and ``python -m bot verify`` passes on what it stored, the acknowledged move included."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..cogs._driver import TIMEOUT, Player, _keep_offered
from .fake_discord import BotProcess, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
#: The longest a stop may take (seconds).
STOP_WITHIN = 2.0


def _bot(fake: FakeDiscord, tmp_path: Path) -> BotProcess:
    env = {
        "TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"),
        "TTR_HEARTBEAT_PATH": str(tmp_path / "beat"),
        "TTR_LOG_LEVEL": "INFO",
    }
    return BotProcess(fake, [sys.executable, "-m", "bot", "run"], env=env, cwd=str(ROOT))


async def _stop(bot: BotProcess) -> float:
    """SIGTERM the bot; asserts a clean exit (code 0, no traceback) within
    :data:`STOP_WITHIN`; the seconds it took."""
    assert bot.process is not None and bot.process.returncode is None, bot.output()[-3000:]
    began = time.monotonic()
    bot.process.send_signal(signal.SIGTERM)
    try:
        code = await asyncio.wait_for(bot.process.wait(), 15)
    finally:
        took = time.monotonic() - began
    out = bot.output()
    assert code == 0, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert took <= STOP_WITHIN, (took, out[-3000:])
    return took


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def _verified(db: Path) -> None:
    """``python -m bot verify`` passes (when the bot got as far as creating the database)."""
    if not db.exists():
        return
    done = _cli("verify", "--db", str(db))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("after", [0.1, 0.5, 2.0])
async def test_a_stop_during_start_up_ends_at_once(tmp_path: Path, after: float) -> None:
    """0.1 s: Python is importing the bot; 0.5 s: it opens the database or imports
    discord.py; 2 s: it logs in or syncs its commands with the fake Discord."""
    async with FakeDiscord(member_names=("alice",)) as fake:
        bot = _bot(fake, tmp_path)
        try:
            await bot.start(wait_ready=False)
            await asyncio.sleep(after)
            await _stop(bot)
        finally:
            await bot.close()
    _verified(tmp_path / "ttr.sqlite3")


async def test_a_stop_in_the_middle_of_a_game_keeps_the_acknowledged_move(tmp_path: Path) -> None:
    """A game against a computer seat, the player's ticket choice acknowledged, then SIGTERM:
    the move is stored and the database verifies."""
    async with FakeDiscord(member_names=("alice",)) as fake:
        bot = _bot(fake, tmp_path)
        try:
            await bot.start(timeout=TIMEOUT * 3)
            await fake.wait_for_commands("ttr new", "ttr hand", timeout=TIMEOUT * 3)
            alice = Player(fake, "alice", "games")
            assert (await alice.slash("new", {"map": "usa", "turn_time": "24h"})).ephemeral
            assert (await alice.slash("add_ai")).ephemeral
            first_board = fake.expect_message(
                lambda m: m.kind == "channel" and bool(m.attachments), timeout=TIMEOUT * 3
            )
            await alice.slash("start")
            await first_board
            hand = await alice.slash("hand")
            kept = await _keep_offered(alice, hand)  # answered only once it is stored
            assert kept.ephemeral, kept.summary()
            await _stop(bot)
        finally:
            await bot.close()
    db = tmp_path / "ttr.sqlite3"
    _verified(db)
    exported = _cli("export", "--db", str(db), "--game", "1")
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    alice_seat = next(s["seat"] for s in doc["seats"] if s["user_id"] == fake.user("alice").id)
    kept_moves = [
        a
        for a in doc["actions"]
        if a["seat"] == alice_seat and a["action"]["type"] == "keep_tickets"
    ]
    assert len(kept_moves) == 1, doc["actions"]
