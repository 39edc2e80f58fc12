"""``python -m bot backup``: a consistent copy of the database while the bot runs (the command
line is :mod:`bot.cli.backup`).

- ``python -m bot backup (--db PATH | --database-url URL) --to DIR [--keep N] [--verify]
  [--pg-dump PATH]``

SQLite: SQLite's online backup API copies every page of the file within one read
transaction, so the copy is the database as one moment saw it, while the bot goes
on writing (WAL lets readers and the writer work at once). The copy is a single
self-contained file (``DIR/ttr-YYYYmmddTHHMMSSZ.sqlite3``, no ``-wal`` beside it),
checked with ``PRAGMA quick_check``.

PostgreSQL: ``pg_dump`` (custom format, ``.pgdump``; one snapshot of the whole
database) where it exists and works with this server; otherwise the project's own
copy, as ``python -m bot migrate`` makes it, into a new SQLite file: every game and
user setting, each game read in one transaction, verified by replay. Either way a
copy is written under a temporary name and renamed when complete, so ``DIR`` never
holds half a backup under a backup's name.

``--keep N`` then removes all but the newest N backups in ``DIR`` (only files named
like the ones this command writes). ``--verify`` replays every game of a SQLite copy
(as ``python -m bot verify`` does). Exit 0 when the copy is written and sound, 1
when its check found problems (the copy is kept, named ``...-damaged``), 2 on bad
use or a database that cannot be read; one line each, never a traceback. No seed,
hand or ticket is ever printed. The restore steps: docs/operators/backups.md.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .storage import (
    ChannelBusy,
    MigrationError,
    StorageError,
    StorageUnavailable,
    database_url,
    open_storage,
    sqlite_path,
)

#: The names this command gives its backups (and the only files ``--keep`` removes).
BACKUP_NAME = re.compile(r"^ttr-\d{8}T\d{6}(\.\d{6})?Z\.(sqlite3|pgdump)$")


class BackupError(Exception):
    """The backup cannot be made; the message is one line for the operator (exit 2)."""


@dataclass(frozen=True, slots=True)
class Backup:
    """A finished backup: its file, how (``sqlite``, ``pg_dump`` or ``copy``), its size in bytes,
    the games in it (None for ``pg_dump``), seconds taken, and problems its check found."""

    path: Path
    method: str
    size: int
    games: int | None
    seconds: float
    problems: tuple[str, ...] = ()
    note: str = ""
    verify_seconds: float | None = None


def backup_name(now: datetime, suffix: str, folder: Path) -> Path:
    """``folder/ttr-YYYYmmddTHHMMSSZ.suffix`` for ``now`` (UTC), with microseconds when a backup
    of that second exists already."""
    stamp = now.astimezone(UTC)
    path = folder / f"ttr-{stamp:%Y%m%dT%H%M%S}Z.{suffix}"
    if path.exists():
        path = folder / f"ttr-{stamp:%Y%m%dT%H%M%S.%f}Z.{suffix}"
    return path


def backups_in(folder: Path) -> list[Path]:
    """The backups this command wrote in ``folder``, oldest first (by the time in their names)."""
    found = [p for p in folder.iterdir() if BACKUP_NAME.match(p.name) and p.is_file()]
    return sorted(found, key=_taken_at)


def _taken_at(path: Path) -> tuple[str, str]:
    match = BACKUP_NAME.match(path.name)
    assert match is not None
    return path.name[4:19], (match.group(1) or ".000000")


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` backups in ``folder``; returns the removed files."""
    old = backups_in(folder)[:-keep] if keep > 0 else []
    for path in old:
        path.unlink(missing_ok=True)
    return old


# -- SQLite -------------------------------------------------------------------------------


def backup_sqlite(source: Path, target: Path) -> Backup:
    """Copy the SQLite database ``source`` into the new file ``target`` with the online backup
    API (one read transaction: consistent while others write), as one file in rollback-journal
    mode, and check it with ``PRAGMA quick_check``.

    Raises:
        BackupError: ``source`` is missing or not a database, or ``target`` cannot be written.
    """
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    t0 = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open the database {source}: {exc}") from None
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # pages=-1: every page in one step, one read transaction
            dst.execute("PRAGMA journal_mode = DELETE")
            problems = tuple(
                r[0] for r in dst.execute("PRAGMA quick_check").fetchall() if r[0] != "ok"
            )
            games = _count_games(dst)
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot back up {source}: {exc}") from None
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot write {partial}: {exc.strerror or exc}") from None
    finally:
        src.close()
    _finish(partial, target)
    return Backup(
        target, "sqlite", target.stat().st_size, games, time.perf_counter() - t0, problems
    )


def _count_games(conn: sqlite3.Connection) -> int | None:
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return None  # not a ttrbot database: copied all the same


def _finish(partial: Path, target: Path) -> None:
    """Make ``partial`` durable and give it its name (an atomic rename in one folder)."""
    with open(partial, "rb") as f:
        os.fsync(f.fileno())
    partial.replace(target)
    try:
        fd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- PostgreSQL ---------------------------------------------------------------------------


def _without_password(url: str) -> tuple[str, str | None]:
    """``url`` without its password, and the password (for ``PGPASSWORD``, never argv)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), parts.password


def backup_pg_dump(url: str, target: Path, pg_dump: str) -> Backup:
    """``pg_dump --format=custom`` of the database ``url`` into ``target`` (one snapshot of the
    whole database, taken while the bot writes).

    Raises:
        BackupError: pg_dump failed (its last line of output in the message).
    """
    t0 = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    dbname, password = _without_password(url)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    cmd = [pg_dump, "--format=custom", "--no-owner", "--file", str(partial), "--dbname", dbname]
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"pg_dump did not run: {exc}") from None
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        lines = (done.stderr or done.stdout or "").strip().splitlines() or ["no output"]
        raise BackupError(f"pg_dump failed: {lines[-1]}")
    _finish(partial, target)
    return Backup(target, "pg_dump", target.stat().st_size, None, time.perf_counter() - t0)


async def backup_copy(url: str, target: Path) -> Backup:
    """The project's own copy of the database ``url`` (``python -m bot migrate``'s) into the new
    SQLite file ``target``: every game (each read in one transaction) and user setting, verified
    by replay.

    Raises:
        BackupError: the source cannot be opened or the copy cannot be made.
    """
    from .services.ops import copy_database

    t0 = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    try:
        source = await open_storage(url)
    except (StorageUnavailable, MigrationError) as exc:
        raise BackupError(str(exc)) from None
    try:
        copy = await open_storage(partial)
        try:
            report = await copy_database(source, copy)
        finally:
            await copy.close()
    except (StorageError, ChannelBusy, OSError) as exc:
        _drop_sqlite(partial)
        raise BackupError(f"the copy failed: {exc}") from None
    finally:
        await source.close()
    _single_file(partial)
    _finish(partial, target)
    problems = tuple(f"game {p.game_id}: {p.reason}" for p in report.problems)
    return Backup(
        target, "copy", target.stat().st_size, report.games, time.perf_counter() - t0, problems
    )


def _single_file(path: Path) -> None:
    """Fold ``path``'s write-ahead log into it: one self-contained file."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
    finally:
        conn.close()


def _drop_sqlite(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)


# -- the command ---------------------------------------------------------------------------


async def verify_copy(path: Path) -> list[str]:
    """Every game of the SQLite backup ``path`` replayed (``python -m bot verify``); problems."""
    from .services.ops import verify_storage

    storage = await open_storage(path)
    try:
        _, problems = await verify_storage(storage)
    finally:
        await storage.close()
    return [f"game {p.game_id}: {p.reason}" for p in problems]


async def make_backup(
    source: str | Path, folder: Path, *, pg_dump: str | None = None, verify: bool = False
) -> Backup:
    """Back up ``source`` (a SQLite path or a database URL) into ``folder`` (created) under a new
    backup name. PostgreSQL: ``pg_dump`` (the one given, else the one on ``PATH``) and, where
    there is none or it fails, the project's own copy (:func:`backup_copy`). ``verify``: replay
    every game of a SQLite copy. Raises BackupError (one line)."""
    if folder.exists() and not folder.is_dir():
        raise BackupError(f"--to must be a folder: {folder} is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot use {folder} for backups: {exc.strerror or exc}") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise BackupError(f"cannot write backups into {folder}")
    try:
        url = database_url(source)
    except ValueError as exc:
        raise BackupError(str(exc)) from None
    now = datetime.now(UTC)
    if url.startswith("sqlite://"):
        made = await asyncio.to_thread(
            backup_sqlite, sqlite_path(url), backup_name(now, "sqlite3", folder)
        )
    else:
        made = await _backup_postgres(url, folder, now, pg_dump)
    if verify and made.path.suffix == ".sqlite3":
        t0 = time.perf_counter()
        found = await verify_copy(made.path)
        made = replace(
            made,
            problems=made.problems + tuple(found),
            verify_seconds=time.perf_counter() - t0,
        )
    return made


async def _backup_postgres(url: str, folder: Path, now: datetime, pg_dump: str | None) -> Backup:
    tool = pg_dump or shutil.which("pg_dump")
    note = ""
    if tool is not None:
        try:
            return await asyncio.to_thread(
                backup_pg_dump, url, backup_name(now, "pgdump", folder), tool
            )
        except BackupError as exc:
            note = f"{exc}; made the project's own copy instead"
    else:
        note = "no pg_dump on PATH: made the project's own copy"
    made = await backup_copy(url, backup_name(now, "sqlite3", folder))
    return replace(made, note=note)


def describe(made: Backup, removed: Sequence[Path], keep: int | None) -> str:
    """One line saying what was backed up, where, how fast, and what ``--keep`` removed."""
    games = "" if made.games is None else f"{made.games} game{'s' * (made.games != 1)}, "
    size = f"{made.size / 1e6:.1f} MB" if made.size >= 1e6 else f"{made.size / 1e3:.0f} kB"
    how = {"sqlite": "SQLite backup API", "pg_dump": "pg_dump", "copy": "own copy, verified"}
    line = f"backed up {games}{size} to {made.path} in {made.seconds:.2f} s ({how[made.method]})"
    if made.verify_seconds is not None:
        line += f"; every game replayed in {made.verify_seconds:.1f} s"
    if keep is not None:
        line += f"; kept the newest {keep}, removed {len(removed)}"
    return line
