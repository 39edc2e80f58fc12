"""The coach through the fake Discord: /ttr hint, Do it, fair play, the analysis."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from bot.process import metrics
from engine.codec import decode_action

from ..e2e.fake_discord import DEFERRED_CHANNEL_MESSAGE, SentMessage
from ._driver import _button, _keep_offered
from ._harness import TIMEOUT, RunningTable, running_table, started_game

HINT_DO = re.compile(r"ttr:(\d+):hint-do:v(\d+):action:(\d+)")


def _do_it(reply: SentMessage) -> tuple[str, int, int]:
    """The Do it button of a hint reply: (its id, the version, the action's index)."""
    found = [m for c in reply.custom_ids if (m := HINT_DO.fullmatch(c))]
    assert found, reply.summary()
    return found[0].group(0), int(found[0].group(2)), int(found[0].group(3))


@pytest.mark.parametrize(
    ("locale", "playing"),
    [("en-US", "Playing the hinted move"), ("de", "Der vorgeschlagene Zug wird ausgeführt")],
)
async def test_a_hint_is_private_explained_and_do_it_plays_exactly_it_in_one_click(
    tmp_path: Path, locale: str, playing: str
) -> None:
    """The player to act gets a private hint (the move, why, the alternative) with Do it; one
    click on Do it stores exactly the hinted action as the player's move, with no question in
    between (an opening move is no tunnel without a spare card); the other player is refused
    privately."""
    async with running_table(tmp_path) as t:
        g = await started_game(t, rated=False)
        mover, idle = await t.active(g), await t.idle(g)
        refused = await idle.slash("hint")
        assert refused.ephemeral and "not your turn" in refused.content
        asked = await t.fake.slash(mover.user, "ttr", "hint", {}, channel=mover.channel)
        reply = await asked.message(timeout=TIMEOUT)
        assert asked.ack_type == DEFERRED_CHANNEL_MESSAGE  # deferred at once, the search after
        assert reply.ephemeral and "**Hint** (1 hint taken in this game):" in reply.content
        assert "• Why: " in reply.content
        custom_id, version, index = _do_it(reply)
        assert version == await t.version(g)
        hinted = await t.service.coach.hinted(g, mover.user.id, version=version, index=index)
        mover.user.locale = locale
        done = await mover.click(reply, custom_id, private=True)
        assert done.ephemeral and playing in done.content, done.content
        assert not any("hint-confirm" in c for c in done.custom_ids)
        await _moved(t, g, version)
        (stored,) = await t.service.storage.actions.actions(g, after_seq=version, limit=1)
        assert decode_action(stored.action) == hinted
        assert stored.source == "player" and stored.actor_user_id == mover.user.id
        seats = await t.service.storage.seats.seats(g)
        counted = {s.user_id: s.hints_used for s in seats}
        assert counted[mover.user.id] == 1 and counted[idle.user.id] == 0


async def _moved(t: RunningTable, game_id: int, version: int) -> None:
    """Wait until the game is past ``version`` (Do it answers first, then plays)."""
    for _ in range(400):
        if await t.version(game_id) > version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} stayed at version {version}")


async def test_do_it_after_the_game_moved_on_plays_nothing_and_offers_a_fresh_hint(
    tmp_path: Path,
) -> None:
    """A hint, then the player draws a card another way: Do it on the old hint says the game
    moved on, plays nothing, and its Fresh hint button answers a new hint."""
    async with running_table(tmp_path) as t:
        g = await started_game(t, rated=False)
        mover = await t.active(g)
        reply = await mover.slash("hint")
        custom_id, _, _ = _do_it(reply)
        await mover.slash("draw", {"source": "deck"})  # still their turn: the second card
        version = await t.version(g)
        stale = await mover.click(reply, custom_id, private=True)
        assert "moved on since this hint; nothing was played" in stale.content
        assert await t.version(g) == version
        fresh = await mover.click(stale, _button(stale, "Fresh hint"), private=True)
        # the second card is the same turn: still one hint
        assert fresh.ephemeral and "**Hint** (1 hint taken in this game):" in fresh.content
        assert _do_it(fresh)[1] == version


async def test_two_asks_in_one_turn_count_one_hint_in_both_languages(tmp_path: Path) -> None:
    """Asking twice on the same turn (in English, then in German) counts one hint; the next
    turn of the same player counts the second. A face-up card is named by its colour, as its
    button is, never by a slot number."""
    async with running_table(tmp_path) as t:
        g = await started_game(t, rated=False)
        mover, idle = await t.active(g), await t.idle(g)
        first = await mover.slash("hint")
        assert "**Hint** (1 hint taken in this game):" in first.content, first.content
        mover.user.locale = "de"
        again = await mover.slash("hint")
        assert "**Tipp** (dein 1. Tipp in diesem Spiel):" in again.content, again.content
        for reply in (first, again):
            assert "slot" not in reply.content and "Platz" not in reply.content
        counted = {s.user_id: s.hints_used for s in await t.service.storage.seats.seats(g)}
        assert counted[mover.user.id] == 1
        await mover.slash("draw", {"source": "deck"})
        await mover.slash("draw", {"source": "deck"})
        assert await t.active(g) is idle
        await idle.slash("draw", {"source": "deck"})
        await idle.slash("draw", {"source": "deck"})
        assert await t.active(g) is mover
        mover.user.locale = "en-US"
        later = await mover.slash("hint")
        assert "**Hint** (2 hints taken in this game):" in later.content, later.content


async def test_the_host_can_turn_hints_off(tmp_path: Path) -> None:
    """/ttr new hints:False: the lobby says so and /ttr hint is refused, counting nothing."""
    async with running_table(tmp_path) as t:
        alice, bob = t.players["alice"], t.players["bob"]
        await alice.slash("new", {"map": "usa", "rated": False, "hints": False})
        g = await t.game_id()
        lobby = next(m for m in t.fake.messages_in("games") if f"ttr:{g}:join" in m.custom_ids)
        assert "Hints: off in this game." in lobby.content
        await bob.slash("join")
        await alice.slash("start")
        for p in (alice, bob):
            await _keep_offered(p, await p.slash("hand"))
        mover = await t.active(g)
        refused = await mover.slash("hint")
        assert refused.ephemeral and "Hints are off in this game" in refused.content
        assert all(s.hints_used == 0 for s in await t.service.storage.seats.seats(g))


async def test_a_rated_game_has_no_hints(tmp_path: Path) -> None:
    """The server's default is rated: the lobby says rated and hints off, and /ttr hint is
    refused. Asking for hints in a rated game is refused privately and opens nothing."""
    async with running_table(tmp_path) as t:
        alice = t.players["alice"]
        refused = await alice.slash("new", {"map": "usa", "rated": True, "hints": True})
        assert refused.ephemeral and "A rated game has no hints" in refused.content
        assert await t.service.lobby.game_in_channel(t.fake.channel("games").id) is None
        g = await started_game(t)
        lobby = next(m for m in t.fake.messages_in("games") if f"ttr:{g}:join" in m.custom_ids)
        assert "Rated:" in lobby.content and "Hints: off in this game." in lobby.content
        mover = await t.active(g)
        hint = await mover.slash("hint")
        assert hint.ephemeral and "Hints are off in this game" in hint.content
        assert all(s.hints_used == 0 for s in await t.service.storage.seats.seats(g))


async def test_a_german_player_gets_the_hint_in_german(tmp_path: Path) -> None:
    """The hint speaks the asking player's language (the table's is English here)."""
    async with running_table(tmp_path) as t:
        g = await started_game(t, rated=False, language="en")
        mover = await t.active(g)
        mover.user.locale = "de"
        reply = await mover.slash("hint")
        assert reply.ephemeral and "**Tipp** (dein 1. Tipp in diesem Spiel):" in reply.content
        assert "Hint" not in reply.content
        assert [b["label"] for b in reply.buttons] == ["Ausführen"]
        _do_it(reply)


async def _finish(t: RunningTable) -> tuple[int, SentMessage]:
    """alice takes a hint, then alice and bob resign: the computer ends the game."""
    alice, bob = t.players["alice"], t.players["bob"]
    await alice.slash("new", {"map": "paris", "rated": False})
    await bob.slash("join")
    await alice.slash("add_ai")
    await alice.slash("start")
    for p in (alice, bob):
        await _keep_offered(p, await p.slash("hand"))
    g = await t.game_id()
    await (await t.active(g)).slash("hint")
    await alice.slash("game resign")
    await bob.slash("game resign")
    final = await t.fake.wait_for_message(
        lambda m: m.kind == "channel" and f"ttr:{g}:rematch" in m.custom_ids, timeout=20
    )
    return g, final


async def test_the_analysis_follows_the_game_over_message_and_stays(tmp_path: Path) -> None:
    """The game-over message shows the hints each player took and says the analysis follows
    (unless it was made before the message went out); then the chart and the turning points (at most three) come as a reply to it; /ttr game show
    id: shows them."""
    async with running_table(tmp_path) as t:
        charts = metrics.sample("ttr_render_seconds_count", kind="analysis") or 0.0
        g, final = await _finish(t)
        hints = re.findall(r"· (\d+) hints?", final.content)
        assert sorted(hints) == ["0", "0", "1"], final.content
        if f"The analysis of game {g} is" not in final.content:
            # the queue made it before the message went out (a fast machine, 8 rollouts a
            # turn): the message then says nothing of it, and the analysis still follows
            made = await t.service.analyses.analysis(g, queue=False)
            assert made.status == "done", final.content
        follow = await t.fake.wait_for_message(
            lambda m: (
                m.kind == "channel" and any(a.filename == "analysis.png" for a in m.attachments)
            ),
            timeout=60,
        )
        reference = follow.payload.get("message_reference") or {}
        assert int(reference.get("message_id", 0)) == final.message_id
        assert f"**Analysis of game {g}**" in follow.content
        assert "A turning point is a move" in follow.content
        told = len(re.findall(r"^\d\. Turn \d+: ", follow.content, re.M))
        assert told <= 3 and ("Turning points:" in follow.content) == (told > 0)
        assert follow.attachments[0].is_png
        assert not (follow.payload.get("allowed_mentions") or {}).get("users")  # pings no one
        shown = await t.players["bob"].slash("game show", {"id": g})
        assert shown.ephemeral
        again = await t.fake.wait_for_message(
            lambda m: m.ephemeral and any(a.filename == "analysis.png" for a in m.attachments),
            timeout=20,
        )
        assert "A turning point is a move" in again.content
        assert metrics.sample("ttr_render_seconds_count", kind="analysis") == charts + 2


async def test_a_risky_hinted_move_asks_first_and_yes_plays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the hinted move is risky (``risky_confirm_words`` has a question: a tunnel with no
    spare card, ``test_tunnel_table.py``), Do it plays nothing and asks; Yes plays exactly the
    hinted action. The question is the sentences' own, shown as they make it."""
    asked_for: list[object] = []

    def risky(action: object, *args: object, **kw: object) -> str:
        asked_for.append(action)
        return "Play this move now: the risky one?"

    async with running_table(tmp_path) as t:
        # the cogs are loaded afresh with the table: patch the module the bot runs now
        monkeypatch.setattr(sys.modules["cogs.ttr._coach"], "risky_confirm_words", risky)
        g = await started_game(t, rated=False)
        mover = await t.active(g)
        reply = await mover.slash("hint")
        custom_id, version, index = _do_it(reply)
        hinted = await t.service.coach.hinted(g, mover.user.id, version=version, index=index)
        ask = await mover.click(reply, custom_id, private=True)
        assert ask.ephemeral and ask.content == "Play this move now: the risky one?"
        assert asked_for == [hinted] and await t.version(g) == version  # nothing played yet
        done = await mover.click(ask, _button(ask, "Yes, play it"), private=True)
        assert "Playing the hinted move" in done.content
        await _moved(t, g, version)
        (stored,) = await t.service.storage.actions.actions(g, after_seq=version, limit=1)
        assert decode_action(stored.action) == hinted
