"""Several bot processes on one PostgreSQL database: a page opened on one process follows a
game whose moves another process stores (LISTEN/NOTIFY on ``ttr_moves``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp import ClientResponse

from ._helpers import board, play_one, public_token, two_player_game
from .test_events import next_event


async def next_move(stream: ClientResponse) -> dict[str, Any]:
    """The next ``move`` event (a ``reset`` told of a lobby change, the start: skipped)."""
    while (event := await next_event(stream))["event"] != "move":
        assert event["event"] == "reset"
    return event


async def test_a_page_on_one_process_follows_moves_stored_by_another(
    postgres_url: str, tmp_path: Path
) -> None:
    async with (
        board(tmp_path / "a", url=postgres_url) as (mover, _, _),
        board(tmp_path / "b", url=postgres_url) as (_, client, _),
    ):
        game = await two_player_game(mover)
        stream = await client.get(f"/api/b/{public_token(game)}/events")
        for version in (1, 2, 3):
            await play_one(mover, game)  # stored by the other process's service
            assert int((await next_move(stream))["id"]) == version
        stream.close()


async def test_a_change_notice_from_this_process_is_not_delivered_twice(
    postgres_url: str, tmp_path: Path
) -> None:
    async with board(tmp_path / "a", url=postgres_url) as (service, client, _):
        heard: list[tuple[int, int]] = []
        service.changes.subscribe(lambda game, version: heard.append((game, version)))
        await service.changes.listen()
        game = await two_player_game(service)
        stream = await client.get(f"/api/b/{public_token(game)}/events")
        await play_one(service, game)
        assert int((await next_move(stream))["id"]) == 1
        await play_one(service, game)
        assert int((await next_move(stream))["id"]) == 2
        assert heard.count((game, 1)) == 1 and heard.count((game, 2)) == 1
        stream.close()
