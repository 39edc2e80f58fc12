"""The live board's links in Discord: Live board under the turn message and My board on a
player's private panel when the web server is configured, neither otherwise; My board's
token is a fresh private grant of the clicking user, in their language."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from web.tokens import PRIVATE_TTL_S, Grant, derive_secret, verify

from ._harness import running_table, started_game

WEB = {"TTR_WEB_PORT": "8088", "TTR_WEB_URL": "https://ttr.example.org/"}


def links(components: list[Mapping[str, Any]]) -> dict[str, str]:
    """Label -> URL of the link buttons (style 5) among ``components``."""
    return {c["label"]: c["url"] for c in components if c.get("type") == 2 and c.get("style") == 5}


def grant_of(url: str) -> Grant:
    assert url.startswith("https://ttr.example.org/b/v1.")
    return verify(derive_secret("", "x"), url.rsplit("/", 1)[1], time.time())


async def test_the_turn_message_and_the_hand_carry_board_links(tmp_path: Path) -> None:
    async with running_table(tmp_path, env=WEB) as table:
        game = await started_game(table)
        turn = table.turn_messages(game)[-1]
        live = links(turn.all_components())
        assert list(live) == ["Live board"]
        assert grant_of(live["Live board"]) == Grant(game, None, "en", None)
        player = await table.active(game)
        hand = await player.slash("hand")
        mine = links(hand.all_components())
        assert list(mine) == ["My board"] and hand.ephemeral
        grant = grant_of(mine["My board"])
        assert (grant.game_id, grant.user_id, grant.lang) == (game, player.user.id, "en")
        assert grant.expires is not None and grant.expires <= time.time() + PRIVATE_TTL_S


async def test_without_a_web_server_there_are_no_board_links(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        game = await started_game(table)
        assert links(table.turn_messages(game)[-1].all_components()) == {}
        player = await table.active(game)
        assert links((await player.slash("hand")).all_components()) == {}


async def test_the_board_command_links_a_player_to_their_own_board(tmp_path: Path) -> None:
    async with running_table(tmp_path, env=WEB) as table:
        game = await started_game(table)
        player = await table.active(game)
        answer = await player.slash("board")
        grant = grant_of(links(answer.all_components())["My board"])
        assert (grant.game_id, grant.user_id) == (game, player.user.id)


ACTIVITY = {**WEB, "DISCORD_CLIENT_ID": "1234", "DISCORD_CLIENT_SECRET": "s3cret"}


def activity_button(components: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The Open in Discord button among ``components`` (None: there is none)."""
    found = [c for c in components if str(c.get("custom_id", "")).endswith(":activity")]
    return found[0] if found else None


async def test_open_in_discord_launches_the_activity_in_the_games_channel(tmp_path: Path) -> None:
    async with running_table(tmp_path, env=ACTIVITY) as table:
        table.fake.activity_enabled = True
        game = await started_game(table)
        turn = table.turn_messages(game)[-1]
        button = activity_button(turn.all_components())
        assert button is not None and button["label"] == "Open in Discord"
        player = await table.active(game)
        handle = await table.fake.click(player.user, turn, button["custom_id"])
        await handle.wait_ack(timeout=20)
        assert handle.ack_type == 12  # LAUNCH_ACTIVITY: no message, Discord opens the board
        assert table.fake.activity_launches == [(player.user.id, turn.channel_id)]
        board = await player.slash("board")
        assert activity_button(board.all_components()) is not None


async def test_where_discord_refuses_the_activity_the_link_comes_instead(tmp_path: Path) -> None:
    async with running_table(tmp_path, env=ACTIVITY) as table:
        game = await started_game(table)  # the fake's application has no Activity
        turn = table.turn_messages(game)[-1]
        button = activity_button(turn.all_components())
        assert button is not None
        idle = await table.idle(game)
        answer = await idle.click(turn, button["custom_id"])
        assert answer.ephemeral and "open it in your browser" in answer.content
        grant = grant_of(links(answer.all_components())["My board"])
        assert (grant.game_id, grant.user_id) == (game, idle.user.id)
        assert table.fake.activity_launches == []


async def test_without_the_oauth2_client_there_is_no_open_in_discord(tmp_path: Path) -> None:
    async with running_table(tmp_path, env=WEB) as table:
        game = await started_game(table)
        assert activity_button(table.turn_messages(game)[-1].all_components()) is None
