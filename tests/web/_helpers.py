"""A game service on a fresh SQLite file, the live board's app over it, and a played game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.host.services import GameService
from bot.host.storage import open_storage
from web import Grant, Limits, WebApp, sign
from web.tokens import private_grant, public_grant

SECRET = b"test secret of the live board"
HOST, BOB, STRANGER = 101, 202, 999


class Clock:
    """Unix seconds that move only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def board(
    path: Path,
    *,
    clock: Clock | None = None,
    limits: Limits | None = None,
    url: str | None = None,
    seed: int = 11,
) -> AsyncIterator[tuple[GameService, TestClient[Any, Any], WebApp]]:
    """The service over ``path`` (or the database ``url``) and a test client of the web app over
    it (closed after); new games are dealt with ``seed``."""
    clock = clock or Clock()
    storage = await open_storage(url or f"sqlite:///{path}", clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: seed)
    app = WebApp(service, SECRET, clock=clock, limits=limits or Limits(), ping_s=0.5)
    client = TestClient(TestServer(app.app()))
    await client.start_server()
    try:
        yield service, client, app
    finally:
        await client.close()
        await service.close()
        await storage.close()


async def two_player_game(service: GameService, *, ais: int = 0) -> int:
    """A started game of HOST and BOB (and ``ais`` AI seats); its id."""
    game = await service.lobby.create(
        guild_id=1,
        channel_id=5000,
        host_id=HOST,
        host_name="Anna",
        map_id="usa",
        turn_seconds=3600,
    )
    await service.lobby.join(game.id, BOB, "Bert")
    for _ in range(ais):
        await service.lobby.add_ai(game.id, HOST)
    await service.lobby.start(game.id, HOST)
    return game.id


async def play_one(service: GameService, game_id: int) -> bool:
    """Let the AI choose one action for whoever must act and store it (False: game over)."""
    from engine.ai import choose_action  # the test plays; the web package never imports engine
    from maps.loader import load_ruleset

    game = await service.loader.game(game_id)
    state = await service.loader.state(game)
    if state.finished:
        return False
    seat = state.seats_to_act()[0]
    user = [s.user_id for s in await service.storage.seats.seats(game_id)][seat]
    assert user is not None
    action = choose_action(load_ruleset("usa"), state, seat, "easy")
    await service.play.act(game_id, user, action, expected_version=None)
    return True


def public_token(game_id: int, lang: str = "en") -> str:
    """The spectator's token of a game."""
    return sign(SECRET, public_grant(game_id, lang))


def private_token(game_id: int, user_id: int, now: float, lang: str = "en") -> str:
    """A player's own token."""
    return sign(SECRET, private_grant(game_id, user_id, lang, now))


def grant_token(grant: Grant) -> str:
    """Any grant's token."""
    return sign(SECRET, grant)


def dumps(payload: Any) -> str:
    """A payload as the wire carries it."""
    return json.dumps(payload, ensure_ascii=False)
