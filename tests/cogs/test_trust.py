"""Trust around the rules (issue 12): committed moves are told as made, every click is answered,
wrong input gets an answer that names the choices, the bot checks its permissions."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from bot.host.services.ops import verify_storage

from ..e2e.fake_discord import Perm
from ._harness import TIMEOUT, running_table, started_game


async def _two_draws(player, game_id: int) -> object:  # type: ignore[no-untyped-def]
    """The active player draws two blind cards by command; returns the second private reply."""
    first = await player.slash("draw", {"source": "deck"})
    assert first.ephemeral and "You drew" in first.content, first.summary()
    return await player.slash("draw", {"source": "deck"})


async def test_attach_files_removed_after_the_move(tmp_path: Path) -> None:
    """403 on the board upload: the move stands, the player hears why, the turn is posted as text,
    the next player is pinged there and the server owner gets one message naming the permission."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover, nxt = await t.active(g), await t.idle(g)
        before = await t.version(g)
        posted = len(t.fake.messages_in("games"))
        t.fake.set_bot_permissions("games", Perm.BOT & ~Perm.ATTACH_FILES)
        reply = await _two_draws(mover, g)
        assert await t.version(g) == before + 2
        text = reply.content  # type: ignore[attr-defined]
        assert "nothing was changed" not in text and "Attach Files" in text, text
        fresh = t.fake.messages_in("games")[posted:]
        turn = [m for m in fresh if "it is your turn" in m.content]
        assert turn and not turn[-1].attachments and str(nxt.user.id) in turn[-1].content
        owner = t.fake.user(t.fake.owner_id)
        dms = t.fake.messages_in(t.fake.dm_channel(owner))  # type: ignore[arg-type]
        assert len(dms) == 1 and "Attach Files" in dms[0].content
        # the second failing post does not tell the owner again
        await _two_draws(nxt, g)
        assert len(t.fake.messages_in(t.fake.dm_channel(owner))) == 1  # type: ignore[arg-type]


async def test_send_messages_removed_reaches_the_next_player_by_dm(tmp_path: Path) -> None:
    """403 even for text: the next player is told by direct message; the mover hears the move was made."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover, nxt = await t.active(g), await t.idle(g)
        t.fake.set_bot_permissions("games", Perm.BOT & ~Perm.SEND_MESSAGES)
        reply = await _two_draws(mover, g)
        text = reply.content  # type: ignore[attr-defined]
        assert "Send Messages" in text and "direct message" in text, text
        dm = t.fake.dm_channel(nxt.user)
        assert dm is not None and "your turn" in t.fake.messages_in(dm)[-1].content


async def test_discord_error_is_retried_in_the_background(tmp_path: Path) -> None:
    """A 503 from Discord after the commit: the player is told it is being sent again, and it arrives."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        t.cog.announcer.delays = (0.05, 0.05, 0.05)
        mover = await t.active(g)
        await mover.slash("draw", {"source": "deck"})
        before = len(t.turn_messages(g))
        t.fake.fail("POST", r"/channels/\d+/messages", 503, times=2)
        reply = await mover.slash("draw", {"source": "deck"})
        assert "being sent again" in reply.content, reply.summary()
        await t.fake.wait_until(lambda: len(t.turn_messages(g)) > before, timeout=TIMEOUT)
        assert t.turn_messages(g)[-1].attachments


async def test_new_refuses_where_the_bot_cannot_post_the_board(tmp_path: Path) -> None:
    """/ttr new checks the bot's permissions in the channel and lists what is missing; no game is made."""
    async with running_table(tmp_path) as t:
        t.fake.set_bot_permissions("games", Perm.BOT & ~Perm.ATTACH_FILES & ~Perm.SEND_MESSAGES)
        reply = await t.players["alice"].slash("new", {"map": "usa"})
        assert (
            reply.ephemeral and "Attach Files" in reply.content and "Send Messages" in reply.content
        )
        assert await t.service.game_in_channel(t.fake.channel("games").id) is None
        check = await t.players["alice"].slash("admin check")
        assert "Attach Files" in check.content


async def test_used_and_stale_menus_are_answered(tmp_path: Path) -> None:
    """A menu click after the move it offered was made gets the current menu; nothing changes twice."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        turn = t.turn_messages(g)[-1]
        menu = await mover.click(turn, f"ttr:{g}:draw")
        older = await mover.click(turn, f"ttr:{g}:draw")  # a second panel of the same turn
        deck = next(b["custom_id"] for b in menu.buttons if b["label"].startswith("Deck"))
        first = await mover.click(menu, deck, private=True)
        assert "You drew" in first.content and first.message_id == menu.message_id
        version = await t.version(g)
        again = await mover.click(older, deck, private=True)  # the same, now stale, button
        assert "out of date" in again.content and again.buttons, again.summary()
        assert await t.version(g) == version
        second = await mover.click(again, again.buttons[0]["custom_id"], private=True)
        assert "You drew" in second.content and await t.version(g) == version + 1


async def test_forged_oversize_and_misplaced_ids_get_a_clear_answer(tmp_path: Path) -> None:
    """Unknown, oversize and other-channel ids: a private error each, never a failed interaction."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        alice = t.players["alice"]
        version = await t.version(g)
        planted = t.fake.plant_bot_message(
            "games",
            "old buttons",
            [
                "ttr:9999999999999999999:hand",
                "ttr:99999999999999999999:hand",
                "nonsense",
                f"ttr:{g}:fly",
            ],
        )
        answers = [await alice.click(planted, c, private=True) for c in planted.custom_ids]
        assert "cannot exist" in answers[0].content
        assert all("not one of this bot" in a.content for a in answers[1:]), [
            a.content for a in answers
        ]
        elsewhere = t.fake.plant_bot_message("general", "a copy", [f"ttr:{g}:hand"])
        other = await alice.click(elsewhere, f"ttr:{g}:hand", private=True)
        assert "another channel" in other.content and "<#" in other.content
        assert await t.version(g) == version
        assert all(a.ephemeral for a in [*answers, other])


async def test_out_of_range_choices_name_what_exists(tmp_path: Path) -> None:
    """A payment index or draw slot that does not exist is refused with the choices that do."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        view = await t.service.table(g, mover.user.id)
        assert view.menu is not None
        v = view.version
        ids = [f"ttr:{g}:dr:{v}:7"]
        if view.menu.claims:
            ids.append(f"ttr:{g}:cc:{v}:{view.menu.claims[0].index}.99")
        planted = t.fake.plant_bot_message("games", "menu", ids)
        draw = await mover.click(planted, ids[0], private=True)
        assert "face-up slots" in draw.content and "deck: yes" in draw.content, draw.content
        if len(ids) > 1:
            pay = await mover.click(planted, ids[1], private=True)
            assert "no payment number 100" in pay.content and "way to pay" in pay.content
        assert await t.version(g) == v
        await asyncio.sleep(0)


#: Discord's answers to a call after the commit: (status, JSON error code).
FAILURES = {
    "403 Missing Permissions": (403, 50013),
    "404 Unknown Channel": (404, 10003),
    "429 rate limited": (429, 0),
    "500 server error": (500, 0),
}
#: The calls the bot makes after a move is stored: the public turn message, and the
#: answer to the player's own interaction (the follow-up after the deferral; the
#: deferral itself comes before the commit).
CALLS = {
    "turn message": ("POST", r"/channels/{channel}/messages"),
    "reply to the player": ("POST", r"/webhooks/\d+/[^/]+$"),
}


@pytest.mark.parametrize("failure", list(FAILURES))
@pytest.mark.parametrize("call", list(CALLS))
async def test_a_discord_failure_after_the_commit_loses_nothing(
    tmp_path: Path, failure: str, call: str
) -> None:
    """Fault injection after the commit (issue 12 "Show"): whatever Discord answers to the calls
    that follow a stored move, the move is stored exactly once, every game still replays, and the
    next player is reached (in the channel, or by direct message)."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        t.cog.announcer.delays = (0.05, 0.05, 0.05)
        mover, nxt = await t.active(g), await t.idle(g)
        await mover.slash("draw", {"source": "deck"})
        before = await t.version(g)
        posted = len(t.fake.sent)
        status, code = FAILURES[failure]
        method, path = CALLS[call]
        t.fake.fail(method, path.format(channel=t.fake.channel("games").id), status, code, times=2)
        handle = await t.fake.slash(mover.user, "ttr", "draw", {"source": "deck"}, channel="games")
        with contextlib.suppress(Exception):  # the reply itself may be the failing call
            reply = await handle.message(timeout=TIMEOUT)
            assert "nothing was changed" not in reply.content.lower(), reply.summary()

        def reached() -> bool:
            fresh = t.fake.sent[posted:]
            dm = t.fake.dm_channel(nxt.user)
            return any(
                str(nxt.user.id) in m.content and "your turn" in m.content for m in fresh
            ) or bool(dm is not None and t.fake.messages_in(dm))

        await t.fake.wait_until(reached, timeout=TIMEOUT, what="the next player is told")
        assert await t.version(g) == before + 1  # the second draw, once
        checked, problems = await verify_storage(t.service.storage)
        assert checked == 1 and not problems
        # and the table plays on: the next player's move is accepted
        assert (await t.active(g)) is nxt
        nxt_reply = await nxt.slash("draw", {"source": "deck"})
        assert nxt_reply.ephemeral and "You drew" in nxt_reply.content, nxt_reply.summary()


async def test_a_gone_channel_and_closed_dms_are_said_as_they_are(tmp_path: Path) -> None:
    """The channel is gone and the next player's DMs are closed: the mover hears the move was made
    and that the next player could not be reached, never that they were told."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        await mover.slash("draw", {"source": "deck"})
        before = await t.version(g)
        t.fake.fail("POST", rf"/channels/{t.fake.channel('games').id}/messages", 404, 10003)
        t.fake.fail("POST", r"/users/@me/channels", 403, 50007, times=5)
        reply = await mover.slash("draw", {"source": "deck"})
        assert await t.version(g) == before + 1
        assert "You drew" in reply.content, reply.summary()
        assert "could not be reached" in reply.content and "was told" not in reply.content
