"""The page and Discord play the same game: a move from either lands once and the other is
told the turn moved on; a turn ended from the page is posted in the channel as after a click;
a refusal reads the same in both."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from tests.cogs._harness import RunningTable, my_turn_or_end, running_table, started_game
from web import WebApp

from ._helpers import SECRET, private_token
from ._live_game import send, state


@asynccontextmanager
async def page_client(table: RunningTable) -> AsyncIterator[TestClient[Any, Any]]:
    """The live board's app over the running bot's service (the bot's publisher posts its
    turn messages), served to a test client."""
    app = WebApp(table.service, SECRET)
    client = TestClient(TestServer(app.app()))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()


def deck_button(message: Any) -> str:
    """The custom id of the deck's card button on a private draw menu."""
    ids = [c for c in message.custom_ids if ":card:" in c and c.endswith(":deck")]
    assert ids, message.summary()
    return ids[0]


async def draw_menu(table: RunningTable) -> tuple[int, Any, int, Any, str, Any, str]:
    """A started game's active player opens the draw menu of the turn message: the game,
    the player, the version, the turn message, its draw button's id, the private menu and
    the player's page token."""
    game = await started_game(table)
    player = await table.active(game)
    version = await table.version(game)
    turn = table.turn_messages(game)[-1]
    draw = next(c for c in turn.custom_ids if c.endswith(":draw"))
    menu = await player.click(turn, draw)
    return game, player, version, turn, draw, menu, private_token(game, player.user.id, time.time())


async def test_the_same_move_from_the_page_and_from_discord_lands_once(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table, page_client(table) as client:
        game, player, version, _, _, menu, token = await draw_menu(table)
        page, discord = await asyncio.gather(
            send(client, token, version, {"kind": "draw", "slot": None}),
            player.click(menu, deck_button(menu), private=True),
        )
        assert await table.version(game) == version + 1  # one card drawn, not two
        status, body = page
        if status == 200:  # the page was first: the Discord click changed nothing
            assert "out of date" in discord.content, discord.summary()
        else:
            assert (status, body["error"]) == (409, "stale_version")
            assert discord.ephemeral and "out of date" not in discord.content, discord.summary()


async def test_a_click_after_the_pages_move_is_out_of_date_and_vice_versa(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table, page_client(table) as client:
        game, player, version, turn, draw, menu, token = await draw_menu(table)
        status, _ = await send(client, token, version, {"kind": "draw", "slot": None})
        assert status == 200
        late = await player.click(menu, deck_button(menu), private=True)
        assert "out of date" in late.content and await table.version(game) == version + 1
        menu = await player.click(turn, draw)  # the current menu: the second card
        await player.click(menu, deck_button(menu), private=True)
        assert await table.version(game) == version + 2
        status, body = await send(client, token, version + 1, {"kind": "draw", "slot": None})
        assert (status, body["error"]) == (409, "stale_version")
        assert body["message"] == "This button is out of date; open a fresh one."


async def test_a_turn_ended_on_the_page_is_posted_in_the_channel(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table, page_client(table) as client:
        game = await started_game(table)
        player = await table.active(game)
        other = await table.idle(game)
        token = private_token(game, player.user.id, time.time())
        since = len(table.fake.sent)
        before = len(table.turn_messages(game))
        for _ in range(2):
            now = await state(client, token)
            status, body = await send(client, token, now["version"], {"kind": "draw", "slot": None})
            assert status == 200, body
        posted = await my_turn_or_end(table, game, other, since)
        assert posted.kind == "channel" and "drew" in posted.content.lower()
        assert len(table.turn_messages(game)) == before + 1


async def test_a_refusal_reads_the_same_on_the_page_and_in_discord(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table, page_client(table) as client:
        game = await started_game(table)
        idle = await table.idle(game)
        turn = table.turn_messages(game)[-1]
        draw = next(c for c in turn.custom_ids if c.endswith(":draw"))
        in_discord = await idle.click(turn, draw)
        token = private_token(game, idle.user.id, time.time())
        status, body = await send(
            client, token, await table.version(game), {"kind": "draw", "slot": None}
        )
        assert (status, body["error"]) == (400, "not_your_turn")
        assert in_discord.ephemeral and in_discord.content == body["message"]
