"""/ttr privacy (the notice, and forgetting) and the servers that remove and re-invite the bot,
through the fake Discord with the real bot, service and SQLite storage (issue 35)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.host.services import GameService
from cogs.ttr import _ids as ids
from words import privacy_notice, words_for

from ._driver import _button
from ._harness import TIMEOUT, RunningTable, running_table, started_game


async def _finished_with_ai(table: RunningTable, host: str) -> int:
    """A game in the table's channel that ``host`` opened with one AI seat, then resigned from:
    the AI plays it to the end."""
    player = table.players[host]
    await player.slash("new", {"map": "amsterdam"})
    await player.slash("add_ai")
    await player.slash("start")
    gid = await table.game_id()
    service: GameService = table.service
    state = await service.game_state(gid)
    seat = next(s.seat for s in await service.storage.seats(gid) if s.user_id == player.user.id)
    from engine import KeepTickets

    await service.act(
        gid,
        player.user.id,
        KeepTickets(seat, tuple(state.players[seat].offer)),
        expected_version=None,
    )
    await player.slash("resign")
    for _ in range(400):
        game = await service.storage.get_game(gid)
        if game is not None and game.status == "finished":
            return gid
        await asyncio.sleep(0.02)
    raise AssertionError("the AI did not finish the game")


async def test_privacy_tells_each_player_in_their_language(tmp_path: Path) -> None:
    """/ttr privacy answers privately with the catalog's notice, in the reader's language, with
    the retention period the bot runs with, whole (within Discord's 2,000 characters), and a
    Forget me… button that only asks."""
    async with running_table(tmp_path) as table:
        alice, bob = table.players["alice"], table.players["bob"]
        bob.user.locale = "de"
        english = await alice.slash("privacy show")
        german = await bob.slash("privacy show")
        assert english.ephemeral and german.ephemeral
        assert english.content == privacy_notice(words_for("en"), 30)
        assert german.content == privacy_notice(words_for("de"), 30)
        assert "Former player" in english.content and "vergiss_mich" in german.content
        assert english.custom_ids == [ids.ForgetMe(0, alice.user.id, "ask").custom_id]
        assert [b["label"] for b in german.buttons] == ["Vergiss mich …"]
        asked = await alice.click(english, english.custom_ids[0], private=True)
        assert asked.content == "The bot stores nothing about you." and not asked.custom_ids
        assert not table.fake.messages_in("games")  # nothing public


async def test_forget_me_asks_then_forgets_and_says_what_went(tmp_path: Path) -> None:
    """After a finished game and a setting: /ttr privacy forget_me lists what goes with a Forget
    me and a Keep my data button; keeping deletes nothing, forgetting anonymises the seat and deletes
    the setting, and a second /ttr privacy forget_me finds nothing."""
    async with running_table(tmp_path) as table:
        alice = table.players["alice"]
        gid = await _finished_with_ai(table, "alice")
        await alice.slash("settings", {"dm_turns": True})
        ask = await alice.slash("privacy forget_me")
        assert ask.ephemeral and "your settings" in ask.content and "in 1 game" in ask.content
        keep = ids.ForgetMe(0, alice.user.id, "keep").custom_id
        confirm = ids.ForgetMe(0, alice.user.id, "confirm").custom_id
        assert ask.custom_ids == [confirm, keep]
        kept = await alice.click(ask, keep, private=True)
        assert kept.content == "Nothing was deleted." and not kept.custom_ids
        assert (await table.service.user_settings(alice.user.id)).dm_turns

        ask = await alice.slash("privacy forget_me")
        done = await alice.click(ask, _button(ask, "Forget me"), private=True)
        assert done.ephemeral and "Done: the bot has forgotten you." in done.content
        assert "removed from 1 game" in done.content and "settings were deleted" in done.content
        seats = await table.service.storage.seats(gid)
        assert alice.user.id not in {s.user_id for s in seats}
        assert "Former player 1" in {s.display_name for s in seats}
        assert not (await table.service.user_settings(alice.user.id)).dm_turns
        again = await alice.slash("privacy forget_me")
        assert again.content == "The bot stores nothing about you." and not again.custom_ids


async def test_a_player_still_in_a_game_can_resign_and_be_forgotten_at_once(
    tmp_path: Path,
) -> None:
    """Alice plays with Bob: forgetting names the game and offers to resign first; that
    button resigns her (told in the channel, the computer plays on), then forgets her. Someone
    else's forget button is refused."""
    async with running_table(tmp_path) as table:
        alice, bob = table.players["alice"], table.players["bob"]
        gid = await started_game(table)
        ask = await alice.slash("privacy forget_me")
        assert f"Game {gid} in <#" in ask.content and "is running: you would resign" in ask.content
        go = ids.ForgetMe(0, alice.user.id, "resign").custom_id
        assert ask.custom_ids[0] == go

        forged = await table.fake._component_interaction(
            bob.user,
            table.fake._stored(ask),
            {"custom_id": go, "component_type": 2},
            "forged click",
            True,
        )
        refused = await forged.message(timeout=TIMEOUT)
        assert refused.content == "This button belongs to someone else."
        assert alice.user.id in {s.user_id for s in await table.service.storage.seats(gid)}

        since = len(table.fake.sent)
        done = await alice.click(ask, go, private=True)
        assert "You resigned from 1 game." in done.content
        assert "Done: the bot has forgotten you." in done.content
        notice = await table.fake.wait_for_message(
            lambda m: m.kind == "channel" and "resigned" in m.content, since=since, timeout=TIMEOUT
        )
        assert f"<@{alice.user.id}> resigned" in notice.content
        [seat] = [s for s in await table.service.storage.seats(gid) if s.user_id is None]
        assert seat.resigned and seat.display_name == f"Former player {seat.seat + 1}"
        game = await table.service.storage.get_game(gid)
        assert game is not None and game.status == "active"  # Bob plays on against the computer


async def test_a_server_that_removes_and_reinvites_the_bot(tmp_path: Path) -> None:
    """GUILD_DELETE: the running game pauses (and the departure is recorded).
    GUILD_CREATE again: the game resumes and its channel is told, pinging who is to move."""
    async with running_table(tmp_path) as table:
        gid = await started_game(table)
        fake, storage = table.fake, table.service.storage
        await fake.dispatch("GUILD_DELETE", {"id": str(fake.guild_id)})
        for _ in range(200):
            game = await storage.get_game(gid)
            if game is not None and game.paused_at is not None:
                break
            await asyncio.sleep(0.02)
        assert game is not None and game.paused_at is not None
        assert await storage.departures() == {fake.guild_id: game.paused_at}

        since = len(fake.sent)
        await fake.dispatch("GUILD_CREATE", fake._guild_json())
        back = await fake.wait_for_message(
            lambda m: m.kind == "channel" and "The bot is back" in m.content,
            since=since,
            timeout=TIMEOUT,
        )
        mover = await table.active(gid)
        assert f"game {gid} goes on" in back.content and f"<@{mover.user.id}>" in back.content
        game = await storage.get_game(gid)
        assert game is not None and game.paused_at is None and await storage.departures() == {}
