"""Fixtures for storage tests: a fresh database on each backend and a controllable clock.

``storage`` is parametrised: every test that uses it runs once on SQLite and
once on PostgreSQL (a real server started from pip-installed binaries, see
tests/pg_server.py). ``sqlite_storage`` is for tests of SQLite internals.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.storage import Storage, open_storage
from bot.host.storage._sqlite import SqliteStorage
from tests.pg_fixtures import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]


class FakeClock:
    """A clock returning ``now`` (unix seconds); tests move it by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock starting at a fixed time."""
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Path of a database file that does not exist yet (in a missing folder)."""
    return tmp_path / "data" / "ttr.db"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test."""
    return str(request.param)


@pytest.fixture
def database_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """A URL of a fresh, empty database on the backend under test."""
    if backend == "sqlite":
        return f"sqlite:///{db_path}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def storage(database_url: str, clock: FakeClock) -> AsyncIterator[Storage]:
    """An opened, fully migrated storage on a fresh database (each backend)."""
    store = await open_storage(database_url, clock=clock)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def sqlite_storage(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStorage]:
    """An opened, fully migrated SQLite storage on a fresh file."""
    store = await open_storage(db_path, clock=clock)
    assert isinstance(store, SqliteStorage)
    try:
        yield store
    finally:
        await store.close()


async def raw_execute(url: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Run one statement on the database behind ``url`` outside the storage
    layer (``?`` placeholders), e.g. to damage a row; returns the rows."""
    if url.startswith("sqlite:///"):
        import sqlite3

        conn = sqlite3.connect(url[len("sqlite:///") :], isolation_level=None)
        try:
            return [tuple(r) for r in conn.execute(sql, args).fetchall()]
        finally:
            conn.close()
    import asyncpg

    from bot.host.storage._postgres import _numbered

    pg = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await pg.fetch(_numbered(sql), *args)]
    finally:
        await pg.close()
