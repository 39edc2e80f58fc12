"""``python -m bot backup``: a consistent copy while the bot writes, on SQLite and on
PostgreSQL (pg_dump, or the project's own copy where there is none), the newest N kept, and
every copy passes ``python -m bot verify``; bad use exits 2 with one line."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from bot.host.backup import BACKUP_NAME, backups_in, make_backup, prune
from bot.host.services import GameService
from bot.host.services.ops import verify_storage
from bot.host.storage import Storage, open_storage
from tests.pg_server import PostgresServer, find_binaries

from .conftest import FakeClock
from .test_ops import _games, _play_next, bot


async def _storage_with_games(target: str | Path, clock: FakeClock) -> tuple[Storage, list[int]]:
    storage = await open_storage(target, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 5)
    return storage, await _games(service, storage, 3, finish=1)


def _verified(target: str) -> str:
    """``python -m bot verify`` on ``target`` (a path or URL): exit 0; its last line."""
    flag = "--database-url" if "://" in target else "--db"
    done = bot("verify", flag, target)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1]


async def test_a_sqlite_backup_while_the_bot_writes_is_consistent(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Backups taken while moves are being stored (another connection, the bot's) are whole:
    each passes ``bot verify``, and its games are the live ones at some moment (no game ahead
    of the database, none with a log longer than its version)."""
    db = tmp_path / "ttr.sqlite3"
    storage, ids = await _storage_with_games(db, clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 5)
    stop = asyncio.Event()

    async def keep_playing() -> int:
        moves = 0
        while not stop.is_set():
            playing = [
                gid for gid in ids[1:] if not (await service.loader.game_state(gid)).finished
            ]
            if not playing:  # a slow machine: every game ended before the backups did
                break
            for gid in playing:
                await _play_next(service, storage, gid)
                moves += 1
            await asyncio.sleep(0)
        return moves

    writer = asyncio.create_task(keep_playing())
    made = []
    try:
        for _ in range(3):
            made.append(await make_backup(db, tmp_path / "backups"))
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        moves = await writer
    assert moves > 0
    for backup in made:
        assert backup.problems == () and backup.games == 3 and backup.method == "sqlite"
        assert BACKUP_NAME.match(backup.path.name)
        assert not Path(str(backup.path) + "-wal").exists()  # one self-contained file
        assert _verified(str(backup.path)) == "3 games checked, 0 mismatches"
        copy = await open_storage(backup.path)
        try:
            for gid in ids:
                old, live = await copy.games.get_game(gid), await storage.games.get_game(gid)
                assert old is not None and live is not None and old.version <= live.version
        finally:
            await copy.close()
    await storage.close()


async def test_keep_removes_only_the_oldest_backups_it_wrote(
    tmp_path: Path, clock: FakeClock
) -> None:
    """``--keep 2`` after three backups leaves the newest two; other files in the folder stay."""
    db = tmp_path / "ttr.sqlite3"
    storage, _ = await _storage_with_games(db, clock)
    await storage.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "ttr-manual.sqlite3").write_text("not a backup of this command")
    made = []
    for _ in range(3):
        done = bot("backup", "--db", str(db), "--to", str(folder), "--keep", "2")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backed up 3 games, ") and "kept the newest 2" in done.stdout
        made.append(Path(done.stdout.split(" to ", 1)[1].split(" in ", 1)[0]))
    assert backups_in(folder) == made[1:]
    assert (folder / "notes.txt").exists() and (folder / "ttr-manual.sqlite3").exists()
    assert prune(folder, 1) == [made[1]] and backups_in(folder) == [made[2]]


def test_bad_use_and_unreadable_databases_exit_2_with_one_line(tmp_path: Path) -> None:
    """A missing file, a file that is not a database, ``--to`` naming a file, ``--keep 0``, an
    unknown URL scheme, a server that does not answer: exit 2, one line, no traceback; and no
    half backup is left behind."""
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database")
    folder = tmp_path / "backups"
    cases = [
        (["--db", str(tmp_path / "missing.sqlite3"), "--to", str(folder)], "no database at"),
        (["--db", str(junk), "--to", str(folder)], "not a database"),
        (["--db", str(junk), "--to", str(junk)], "must be a folder"),
        (["--db", str(junk), "--to", str(folder), "--keep", "0"], "--keep must be at least 1"),
        (["--database-url", "mysql://x/y", "--to", str(folder)], "unknown database URL scheme"),
        (
            ["--database-url", "postgresql://ttr:s3cret@127.0.0.1:9/ttr", "--to", str(folder)],
            "cannot open the database postgresql://ttr:***@",
        ),
    ]
    for args, words in cases:
        done = bot("backup", *args, "--pg-dump", "/nonexistent/pg_dump")
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and words in done.stderr, (args, done.stderr)
        if "usage:" not in done.stderr:  # argparse's own errors come with the usage
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "s3cret" not in done.stdout + done.stderr
    assert not folder.exists() or list(folder.iterdir()) == []


def _pg_tool(name: str) -> str:
    return str(find_binaries() / name)


async def test_postgres_backup_with_pg_dump_restores_and_verifies(
    tmp_path: Path, postgres_url: str, postgres_server: PostgresServer, clock: FakeClock
) -> None:
    """pg_dump where it exists: one archive of the whole database, which pg_restore puts into
    an empty database that passes ``bot verify`` with every game."""
    storage, ids = await _storage_with_games(postgres_url, clock)
    await storage.close()
    folder = tmp_path / "backups"
    done = bot("backup", "--database-url", postgres_url, "--to", str(folder), "--keep", "3",
               "--pg-dump", _pg_tool("pg_dump"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "(pg_dump)" in done.stdout and postgres_url not in done.stdout
    (archive,) = backups_in(folder)
    assert archive.suffix == ".pgdump"
    restored = await postgres_server.create_database()
    try:
        subprocess.run(
            [_pg_tool("pg_restore"), "--no-owner", "--dbname", restored, str(archive)],
            check=True,
            capture_output=True,
        )
        assert _verified(restored) == f"{len(ids)} games checked, 0 mismatches"
    finally:
        await postgres_server.drop_database(restored)


async def test_postgres_backup_without_pg_dump_is_the_projects_own_copy(
    tmp_path: Path,
    postgres_url: str,
    postgres_server: PostgresServer,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No pg_dump on PATH (or one that fails): a SQLite copy made as ``migrate`` makes it,
    verified by replay, which ``migrate`` puts back into an empty PostgreSQL database."""
    storage, ids = await _storage_with_games(postgres_url, clock)
    await storage.close()
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    made = await make_backup(postgres_url, tmp_path / "backups")
    assert made.method == "copy" and made.problems == () and made.games == len(ids)
    assert "no pg_dump" in made.note and made.path.suffix == ".sqlite3"
    assert _verified(str(made.path)) == f"{len(ids)} games checked, 0 mismatches"
    failing = await make_backup(postgres_url, tmp_path / "backups", pg_dump="/bin/false")
    assert failing.method == "copy" and "pg_dump failed" in failing.note
    monkeypatch.undo()
    restored = await postgres_server.create_database()
    try:
        done = bot("migrate", "--from", f"sqlite:///{made.path}", "--to", restored)
        assert done.returncode == 0, done.stdout + done.stderr
        back = await open_storage(restored)
        try:
            checked, problems = await verify_storage(back)
        finally:
            await back.close()
        assert (checked, problems) == (len(ids), [])
    finally:
        await postgres_server.drop_database(restored)


def test_the_command_is_listed() -> None:
    """``python -m bot`` names ``backup`` among its commands."""
    done = bot("nonsense")
    assert done.returncode == 2 and "backup" in done.stderr
