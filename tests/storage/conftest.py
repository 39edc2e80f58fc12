"""Fixtures for storage tests: a fresh database file and a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage, open_storage


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


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """An opened, fully migrated storage on a fresh file."""
    store = await open_storage(db_path, clock=clock)
    try:
        yield store
    finally:
        await store.close()
