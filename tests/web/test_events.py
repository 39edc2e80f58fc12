"""The event stream: a stored move reaches an open page; a page that lost its connection, or
whose bot restarted, resumes with every missed version once; lobby changes and a cancel
reach it as a reset."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from aiohttp import ClientResponse

from ._helpers import HOST, Clock, board, play_one, private_token, public_token, two_player_game

#: A safety net against a hang (never a speed claim): an event that does not come fails here.
WAIT = 30.0


async def next_event(stream: ClientResponse) -> dict[str, Any]:
    """The next event of an SSE stream (comments and ``retry`` skipped): id, event, data."""
    event: dict[str, Any] = {}
    while True:
        raw = await asyncio.wait_for(stream.content.readline(), WAIT)
        assert raw, "the stream ended"
        line = raw.decode("utf-8").rstrip("\n")
        if not line:
            if "event" in event:
                return event
            event = {}
            continue
        if line.startswith(":") or line.startswith("retry:"):
            continue
        field, _, value = line.partition(": ")
        event[field] = json.loads(value) if field == "data" else value


async def test_a_stored_move_reaches_an_open_stream(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        stream = await client.get(f"/api/b/{public_token(game)}/events")
        first = await asyncio.wait_for(stream.content.readline(), WAIT)
        assert first == b"retry: 3000\n"
        await play_one(service, game)
        event = await next_event(stream)
        assert event["event"] == "move" and event["id"] == "1"
        data = event["data"]
        assert data["version"] == 1 and data["move"]["kind"] == "tickets"
        assert data["move"]["text"] == "Anna kept 2 destination tickets."
        assert data["state"]["version"] == 1 and data["state"]["me"] is None
        stream.close()


async def test_a_private_stream_carries_the_readers_own_hand(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        stream = await client.get(f"/api/b/{private_token(game, HOST, clock.now)}/events")
        await play_one(service, game)
        state = (await next_event(stream))["data"]["state"]
        assert state["me"]["seat"] == 0 and sum(state["me"]["hand"].values()) == 4
        stream.close()


async def test_resume_after_a_dropped_connection_sends_each_missed_version_once(
    tmp_path: Path,
) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        url = f"/api/b/{public_token(game)}/events"
        stream = await client.get(url)
        await play_one(service, game)
        seen = int((await next_event(stream))["id"])
        stream.close()  # the connection drops
        for _ in range(5):
            await play_one(service, game)
        stored = (await service.loader.game(game)).version
        again = await client.get(url, headers={"Last-Event-ID": str(seen)})
        got = []
        while len(got) < stored - seen:
            event = await next_event(again)
            assert event["event"] == "move"
            got.append(event)
        assert [int(e["id"]) for e in got] == list(range(seen + 1, stored + 1))
        assert [e["data"]["move"]["version"] for e in got] == list(range(seen + 1, stored + 1))
        assert got[-1]["data"]["state"]["version"] == stored
        assert all(e["data"]["state"] is None for e in got[:-1])
        await play_one(service, game)  # then live ones, none twice
        live = await next_event(again)
        assert int(live["id"]) == stored + 1
        again.close()


async def test_a_stream_resumes_after_the_bot_restarts(tmp_path: Path) -> None:
    path = tmp_path / "db"
    async with board(path) as (service, client, _):
        game = await two_player_game(service)
        stream = await client.get(f"/api/b/{public_token(game)}/events")
        await play_one(service, game)
        seen = int((await next_event(stream))["id"])
        for _ in range(3):
            await play_one(service, game)
        stream.close()
    # a new process: a new service and web app on the same database, the same secret
    async with board(path) as (service, client, _):
        stored = (await service.loader.game(game)).version
        assert stored == seen + 3
        stream = await client.get(
            f"/api/b/{public_token(game)}/events", headers={"Last-Event-ID": str(seen)}
        )
        ids = [int((await next_event(stream))["id"]) for _ in range(3)]
        assert ids == [seen + 1, seen + 2, seen + 3]
        await play_one(service, game)
        assert int((await next_event(stream))["id"]) == stored + 1
        stream.close()


async def test_lobby_changes_and_a_cancel_reach_the_page_as_resets(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        lobby = await service.lobby.create(
            guild_id=1, channel_id=1, host_id=HOST, host_name="Anna", map_id="usa", turn_seconds=60
        )
        stream = await client.get(f"/api/b/{public_token(lobby.id)}/events")
        await asyncio.wait_for(stream.content.readline(), WAIT)
        await service.lobby.add_ai(lobby.id, HOST)
        joined = await next_event(stream)
        assert joined["event"] == "reset"
        assert [s["name"] for s in joined["data"]["state"]["seats"]] == ["Anna", "AI 1"]
        assert joined["data"]["state"]["game"]["status"] == "lobby"
        await service.lobby.cancel(lobby.id, HOST)
        cancelled = await next_event(stream)
        assert cancelled["event"] == "reset"
        assert cancelled["data"]["state"]["game"]["status"] == "cancelled"
        stream.close()


async def test_the_ai_replies_stored_with_a_move_each_reach_the_page(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        lobby = await service.lobby.create(
            guild_id=1, channel_id=1, host_id=HOST, host_name="Anna", map_id="usa", turn_seconds=60
        )
        await service.lobby.add_ai(lobby.id, HOST)
        await service.lobby.start(lobby.id, HOST)
        version = (await service.loader.game(lobby.id)).version  # the AI kept its tickets
        stream = await client.get(
            f"/api/b/{public_token(lobby.id)}/events", headers={"Last-Event-ID": str(version)}
        )
        await play_one(service, lobby.id)  # Anna's tickets; then the AI plays its turn
        stored = (await service.loader.game(lobby.id)).version
        assert stored >= version + 2
        ids = [int((await next_event(stream))["id"]) for _ in range(stored - version)]
        assert ids == list(range(version + 1, stored + 1))
        stream.close()
