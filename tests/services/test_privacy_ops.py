"""``python -m bot forget`` and ``python -m bot purge`` on both backends (issue 35, point 4),
and the export of a game whose player was forgotten (point 5).

Each command runs as a real process: it prints what it removed, is idempotent (a second run
says nothing is stored, exit 0), refuses with exit 1 and changes nothing while the user still
plays or the server still has games the bot runs, and exits 2 on bad use.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.services import GameService
from bot.host.storage import Storage, open_storage

from .conftest import FakeClock
from .test_ops import bot
from .test_privacy import ALICE, BOB, _finished, _running


@pytest.fixture
async def prepared(any_url: str, clock: FakeClock) -> AsyncIterator[tuple[GameService, Storage]]:
    storage = await open_storage(any_url, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 5)
    try:
        yield service, storage
    finally:
        await storage.close()


async def test_forget_from_the_command_line(
    any_url: str, prepared: tuple[GameService, Storage]
) -> None:
    url = any_url
    """ALICE finished a game with BOB and plays another: refused (exit 1, nothing changed);
    after she resigns, forgotten (exit 0, counts printed), then 'nothing stored'; the export
    of the finished game holds only 'Former player N', and verify passes."""
    service, storage = prepared
    done = await _finished(service, storage, (ALICE, BOB), channel=1)
    running = await _running(service, 1, channel=2)
    await service.set_user_settings(ALICE, turn_pings=False)

    refused = bot("forget", "--database-url", url, "--user", str(ALICE))
    assert refused.returncode == 1, refused.stderr
    assert (
        f"still plays in games {running}" in refused.stdout
        and "nothing was changed" in refused.stdout
    )
    assert (await storage.get_user_settings(ALICE)).updated_at is not None

    await service.resign(running, ALICE)
    first = bot("forget", "--database-url", url, "--user", str(ALICE))
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"user {ALICE} forgotten: 2 games now name their seat")
    assert "their settings deleted" in first.stdout and "Traceback" not in first.stderr
    second = bot("forget", "--database-url", url, "--user", str(ALICE))
    assert (second.returncode, second.stdout.strip()) == (
        0,
        f"user {ALICE}: nothing stored (already forgotten, or never seen)",
    )

    exported = bot("export", "--database-url", url, "--game", str(done))
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    assert doc["complete"] and str(ALICE) not in exported.stdout
    assert f"name{ALICE}" not in exported.stdout
    names = [s["display_name"] for s in doc["seats"]]
    assert f"name{BOB}" in names and any(n.startswith("Former player ") for n in names)
    assert {s["user_id"] for s in doc["seats"]} == {BOB, None}
    verified = bot("verify", "--database-url", url)
    assert verified.returncode == 0, verified.stdout


async def test_purge_from_the_command_line(
    any_url: str, prepared: tuple[GameService, Storage], clock: FakeClock
) -> None:
    url = any_url
    """A server the bot still plays in is refused without --force; one that removed the bot
    is purged (counts printed), again 'nothing stored'; the other server's game plays on."""
    service, storage = prepared
    gone = await _running(service, 1, channel=2)
    await _finished(service, storage, (ALICE, BOB), channel=3, guild=1)
    other = await _running(service, 2, channel=4)

    refused = bot("purge", "--database-url", url, "--guild", "1")
    assert refused.returncode == 1 and "add --force" in refused.stdout
    assert await storage.get_game(gone) is not None

    await service.guild_removed(1)
    first = bot("purge", "--database-url", url, "--guild", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("guild 1 purged: 2 games (1 lobbies or running), 4 seats,")
    assert first.stdout.strip().endswith("its departure")
    second = bot("purge", "--database-url", url, "--guild", "1")
    assert (second.returncode, second.stdout.strip()) == (
        0,
        "guild 1: nothing stored (already purged, or never seen)",
    )
    assert await storage.guild_ids() == [2] and await storage.departures() == {}
    forced = bot("purge", "--database-url", url, "--guild", "2", "--force")
    assert forced.returncode == 0 and "guild 2 purged: 1 games" in forced.stdout
    assert await storage.get_game(other) is None


def test_bad_use_exits_2_with_one_line(tmp_path: Path) -> None:
    """No id, a wrong id, a missing database: exit 2, no traceback."""
    db = str(tmp_path / "none.sqlite3")
    for args in (
        ("forget", "--db", db),
        ("forget", "--db", db, "--user", "0"),
        ("purge", "--db", db, "--guild", "-5"),
        ("forget", "--db", db, "--user", "12"),
        ("purge", "--database-url", "mysql://x/y", "--guild", "12"),
    ):
        done = bot(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.strip(), args
