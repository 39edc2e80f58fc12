"""Playing through the live board's move API: the first legal move of a kind, chosen from the
state's ``me.moves`` as a page offers it, and the request that sends it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web
from aiohttp.test_utils import TestClient

from tests.cogs._harness import RunningTable, running_table
from web import Limits, WebApp

from ._helpers import SECRET, private_token

T = TypeVar("T")


def first_move(moves: dict[str, Any], *, tickets: bool = False) -> dict[str, Any]:
    """The first legal move of ``moves`` (a state's ``me.moves``): keep every offered ticket,
    pay a tunnel the first way (or give it up), keep no flag card, claim the first claimable
    route paying the first way, else draw tickets when ``tickets``, else a card (deck first)."""
    step = moves["step"]
    if moves["keep"] is not None:
        return {"kind": "keep", "tickets": list(range(len(moves["keep"]["offer"])))}
    if step == "tunnel":
        pays = moves["tunnel"]["payments"]
        return {"kind": "tunnel", "payment": 0 if pays else None}
    if step == "flag":
        return {"kind": "flag", "colour": None}
    if step == "announce_mix" or (tickets and moves["tickets"]):
        return {"kind": "tickets", "draw": 0}
    if moves["claims"]:
        return {"kind": "claim", "route": moves["claims"][0]["index"], "payment": 0}
    if moves["deck"] or not moves["slots"]:
        return {"kind": "draw", "slot": None}
    return {"kind": "draw", "slot": moves["slots"][0]}


async def state(client: TestClient[Any, Any], token: str) -> dict[str, Any]:
    """The state payload of ``token``."""
    response = await client.get(f"/api/b/{token}/state")
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    return body


async def send(
    client: TestClient[Any, Any], token: str, version: int, action: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """POST one move; its status and JSON body."""
    response = await client.post(f"/api/b/{token}/act", json={"version": version, "action": action})
    body: dict[str, Any] = await response.json()
    return response.status, body


async def play_to_end(
    client: TestClient[Any, Any], tokens: list[str], *, limit: int = 600
) -> dict[str, int]:
    """Play the game of ``tokens`` (one private token per seat) to its end from the pages
    alone, each seat making the first legal move of a kind (one ticket draw each early on);
    returns how many moves of each kind landed."""
    made: dict[str, int] = {}
    drew_tickets: set[str] = set()
    for _ in range(limit):
        acted = False
        for token in tokens:
            now = await state(client, token)
            if now["game"]["status"] == "finished":
                return made
            moves = now["me"]["moves"]
            if moves is None:
                continue
            wants = (
                token not in drew_tickets and moves["step"] == "turn" and now["turn"]["round"] > 1
            )
            action = first_move(moves, tickets=wants)
            if action["kind"] == "tickets":
                drew_tickets.add(token)
            status, body = await send(client, token, now["version"], action)
            assert status == 200, (action, body)
            assert body["version"] > now["version"]
            made[action["kind"]] = made.get(action["kind"], 0) + 1
            acted = True
            break
        assert acted, "nobody could move"
    raise AssertionError(f"the game did not end in {limit} moves: {made}")


class LiveTable:
    """The bot against the fake Discord (``tests/cogs/_harness.py``) and the live board's app
    over its service, served on a free port, on an event loop in a thread of its own (the
    browser tests drive Chromium synchronously). ``run(coro)`` runs a coroutine there."""

    def __init__(self, tmp_path: Path, *, seed: int = 7) -> None:
        self.tmp_path = tmp_path
        self.seed = seed
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.table: RunningTable | None = None
        self.port = 0
        self._stack = AsyncExitStack()

    def __enter__(self) -> LiveTable:
        self.thread.start()
        self.run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.run(self._stack.aclose())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        """Run ``coro`` on the table's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        self.table = await self._stack.enter_async_context(
            running_table(self.tmp_path, seed=self.seed)
        )
        limits = Limits(address_rate=1e6, address_burst=1e6, token_rate=1e6, token_burst=1e6)
        runner = web.AppRunner(WebApp(self.table.service, SECRET, limits=limits).app())
        await runner.setup()
        self._stack.push_async_callback(runner.cleanup)
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(runner.addresses[0][1])

    @property
    def base(self) -> str:
        """The server's URL."""
        return f"http://127.0.0.1:{self.port}"

    async def open_game(self, map_id: str, lang: str = "en") -> tuple[int, list[str]]:
        """A started game of the fake Discord's members on ``map_id``, opened, joined and
        started in Discord (the ticket choice left to the pages); its id and each seat's
        private token."""
        assert self.table is not None
        players = list(self.table.players.values())
        await players[0].slash("new", {"map": map_id})
        for p in players[1:]:
            await p.slash("join")
        await players[0].slash("start")
        game = await self.table.game_id()
        seats = await self.table.service.storage.seats.seats(game)
        tokens = [private_token(game, s.user_id or 0, time.time(), lang) for s in seats]
        return game, tokens

    def channel_texts(self) -> list[str]:
        """Every public message posted in the games channel, oldest first."""
        assert self.table is not None
        return [m.content for m in self.table.fake.messages_in("games")]
