"""Fixtures for the game service: a fresh database file, a settable clock, helpers to drive games."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.host.services import GameService, stored_state
from bot.host.storage import Storage, open_storage
from engine.ai import choose_action
from maps.loader import load_ruleset
from tests.pg_fixtures import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]


class FakeClock:
    """Unix seconds that only move when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    st = await open_storage(tmp_path / "ttr.sqlite3", clock=clock)
    try:
        yield st
    finally:
        await st.close()


@pytest.fixture(params=["sqlite", "postgres"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database on each backend (the test runs once per backend)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ttr.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def service(storage: Storage, clock: FakeClock) -> GameService:
    return GameService(storage, clock=clock, seed_source=lambda: 11)


HOST, BOB, CAROL, STRANGER = 101, 202, 303, 999


async def lobby(
    service: GameService,
    *,
    map_id: str = "usa",
    users: tuple[int, ...] = (HOST, BOB),
    ais: int = 0,
    channel: int = 5000,
    turn_seconds: int = 3600,
    rated: bool | None = None,
    hints: bool | None = None,
) -> int:
    """A lobby with ``users`` (the first hosts) and ``ais`` AI seats; returns its id.
    ``rated`` and ``hints`` as the host chooses at ``/ttr new`` (None: the server's default)."""
    game = await service.create(
        guild_id=1,
        channel_id=channel,
        host_id=users[0],
        host_name=f"u{users[0]}",
        map_id=map_id,
        turn_seconds=turn_seconds,
        rated=rated,
        hints=hints,
    )
    for u in users[1:]:
        await service.join(game.id, u, f"u{u}")
    for _ in range(ais):
        await service.add_ai(game.id, users[0])
    return game.id


async def state_of(storage: Storage, game_id: int) -> Any:
    """The stored engine state of a started game (newest snapshot plus the log after it)."""
    game = await storage.get_game(game_id)
    assert game is not None and game.started
    return await stored_state(storage, game)


async def play_for(service: GameService, storage: Storage, game_id: int, user_id: int) -> Any:
    """Let the heuristic AI choose the next action of ``user_id``'s seat and send it through ``act``."""
    game = await storage.get_game(game_id)
    assert game is not None
    st = await state_of(storage, game_id)
    seat = next(s.seat for s in await storage.seats(game_id) if s.user_id == user_id)
    return await service.act(
        game_id, user_id, choose_action(load_ruleset(game.map_id), st, seat), expected_version=None
    )
