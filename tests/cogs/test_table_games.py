"""Games that stay, in the table's language: a German table, the end, rematch, settings, threads."""

from __future__ import annotations

import re
from pathlib import Path

from ..e2e.fake_discord import SentMessage
from ._driver import _keep_offered, _play_turn
from ._harness import RunningTable, my_turn_or_end, running_table, started_game

#: English words of our public sentences that no German sentence of ours contains.
ENGLISH = re.compile(
    r"\b(the|drew|from|deck|turn|claimed|points?|game|over|winner|kept|tickets?|your|and|with|"
    r"route|players?|opened|join|button|draw|claim|board|moves|rematch|resigned|round|cards?|"
    r"paid|face-up|locomotives?|trains?|longest|path|completed|failed|AI)\b",
    re.IGNORECASE,
)


def _public_text(message: SentMessage) -> str:
    labels = " ".join(str(b.get("label", "")) for b in message.buttons)
    return f"{message.content} {labels}"


def _pinged(t: RunningTable, message: SentMessage) -> set[int]:
    """Who a message notifies: the users the allowed mentions of its post name."""
    post = next(
        m for m in t.fake.sent if m.message_id == message.message_id and m.kind == "channel"
    )
    allowed = post.payload.get("allowed_mentions") or {}
    return {int(u) for u in allowed.get("users") or ()}


def _final(t: RunningTable, game_id: int) -> SentMessage | None:
    return next(
        (m for m in t.fake.messages_in("games") if f"ttr:{game_id}:rematch" in m.custom_ids), None
    )


async def test_a_german_table_plays_a_whole_game_with_no_english_in_public(
    tmp_path: Path,
) -> None:
    """The server prefers German: lobby, turn messages, buttons, announcements and the score
    table are German from the first to the last message, while the player's private replies
    follow the player's own (English) locale."""
    async with running_table(tmp_path, ("alice",)) as t:
        t.fake.guild_locale = "de"
        alice = t.players["alice"]
        opened = await alice.slash("new", {"map": "usa"})
        assert opened.ephemeral and "You opened game" in opened.content  # alice's own locale
        await alice.slash("add_ai")
        await alice.slash("start")
        await _keep_offered(alice, await alice.slash("hand"))
        g = await t.game_id()
        seen = 0
        for turn in range(200):
            message = await my_turn_or_end(t, g, alice, seen)
            seen = len(t.fake.sent)
            if f"ttr:{g}:rematch" in message.custom_ids:
                break
            await _play_turn(alice, message, turn)
        final = _final(t, g)
        assert final is not None and turn > 10
        assert (
            "Spielende" in final.content
            and "KI 1" in final.content
            and "Revanche" in _public_text(final)
        )
        public = t.fake.messages_in("games")
        assert len(public) > 20
        for m in public:
            english = ENGLISH.findall(_public_text(m))
            assert not english, (english, m.content)
        # the German words of the map are used in public
        assert any("Zielkarte" in m.content for m in public)


async def _finish_by_resigning(t: RunningTable) -> int:
    """alice and bob start a game with a computer player and both resign: the computer ends it."""
    alice, bob = t.players["alice"], t.players["bob"]
    await alice.slash("new", {"map": "usa"})
    await bob.slash("join")
    await alice.slash("add_ai")
    await alice.slash("start")
    for p in (alice, bob):
        await _keep_offered(p, await p.slash("hand"))
    g = await t.game_id()
    first = await alice.slash("game resign")
    assert first.ephemeral and "you cannot win" in first.content
    await bob.slash("game resign")
    await t.fake.wait_for_message(lambda m: f"ttr:{g}:rematch" in m.custom_ids, timeout=20)
    return g


async def test_a_finished_game_stays_and_resigned_players_never_win(tmp_path: Path) -> None:
    """After the end the channel still shows the game; resigned players are marked and lose;
    /ttr game history (the list) and /ttr game show id: show it with the final image and every ticket's result."""
    async with running_table(tmp_path) as t:
        alice, bob = t.players["alice"], t.players["bob"]
        g = await _finish_by_resigning(t)
        final = _final(t, g)
        assert final is not None and final.attachments
        # the final image and the recap of the board filling in
        assert [a.filename for a in final.attachments] == ["final.png", "recap.gif"]
        assert final.attachments[1].data[:6] == b"GIF89a"
        for p in (alice, bob):  # game end pings every player
            assert p.user.id in _pinged(t, final)
            assert re.search(rf"<@{p.user.id}> \(resigned\): ", final.content), final.content
        winners = re.search(r"Winner: (.*)", final.content)
        assert winners and "<@" not in winners.group(1), final.content
        status = await alice.slash("status")
        assert f"Game {g} on **USA** is over." in status.content and "Winner:" in status.content
        assert "(resigned)" in status.content
        log = await alice.slash("game log", {"count": 3})
        assert "**Turn" in log.content
        history = await alice.slash("game history")
        assert (
            f"Game {g} · **USA**" in history.content and f"/ttr game show id:{g}" in history.content
        )
        shown = await bob.slash("game show", {"id": g})
        assert shown.attachments and "✅" in shown.content and "❌" in shown.content
        assert [a.filename for a in shown.attachments] == ["final.png", "recap.gif"]
        stats = await alice.slash("player stats")
        assert "1 game, 0 won" in stats.content, stats.content


async def test_rematch_opens_a_lobby_the_others_join_with_one_click(tmp_path: Path) -> None:
    """Rematch: same channel, map and computer players; the others are pinged and join with a click."""
    async with running_table(tmp_path) as t:
        alice, bob = t.players["alice"], t.players["bob"]
        g = await _finish_by_resigning(t)
        final = _final(t, g)
        assert final is not None
        reply = await bob.click(final, f"ttr:{g}:rematch")
        assert reply.ephemeral and "a rematch" in reply.content
        new_id = await t.game_id()
        assert new_id != g
        lobby = next(m for m in t.fake.messages_in("games") if f"ttr:{new_id}:join" in m.custom_ids)
        assert f"<@{alice.user.id}>" in lobby.content and "Rematch!" in lobby.content
        joined = await alice.click(lobby, f"ttr:{new_id}:join")
        assert joined.ephemeral
        table = await t.service.queries.table(new_id, 0)
        assert table.rules.map_id == "usa" and table.game.language == "en"
        assert sorted((s.is_ai, s.user_id) for s in table.seats) == sorted(
            [(False, bob.user.id), (False, alice.user.id), (True, None)]
        )
        again = await alice.click(final, f"ttr:{g}:rematch")  # the channel is busy now
        assert again.ephemeral and "already has a game" in again.content


async def test_turn_pings_can_be_turned_off_and_a_dm_turned_on(tmp_path: Path) -> None:
    """/ttr player settings: no mention in the turn message, a direct message instead."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        first = await t.active(g)
        second = await t.idle(g)
        reply = await second.slash("player settings", {"turn_pings": False, "dm_turns": True})
        assert "Your settings were saved." in reply.content and "Turn pings: off" in reply.content
        await first.slash("draw", {"source": "deck"})
        await first.slash("draw", {"source": "deck"})
        told = t.turn_messages(g)[-1]
        assert f"<@{second.user.id}>" not in told.content.split("\n")[0], told.content
        assert second.user.id not in _pinged(t, told)
        dm = t.fake.dm_channel(second.user)
        assert dm is not None
        assert any("It is your turn" in m.content for m in t.fake.messages_in(dm))
        # and back on: the next turn pings again
        await second.slash("player settings", {"turn_pings": True, "dm_turns": False})
        await second.slash("draw", {"source": "deck"})
        await second.slash("draw", {"source": "deck"})
        await first.slash("draw", {"source": "deck"})
        await first.slash("draw", {"source": "deck"})
        assert second.user.id in _pinged(t, t.turn_messages(g)[-1])


async def test_a_game_in_its_own_thread(tmp_path: Path) -> None:
    """/ttr new thread:true opens a public thread named after the map and the host; play happens there."""
    async with running_table(tmp_path) as t:
        alice, bob = t.players["alice"], t.players["bob"]
        reply = await alice.slash("new", {"map": "usa", "thread": True})
        thread = next(c for c in t.fake.channels.values() if c.type == 11)
        assert thread.name == "USA: alice" and thread.parent_id == t.fake.channel("games").id
        assert f"<#{thread.id}>" in reply.content
        lobby = t.fake.messages_in(thread)
        assert lobby and any(c.endswith(":join") for c in lobby[-1].custom_ids)
        bob.channel = alice.channel = thread.name
        await bob.slash("join")
        await alice.slash("start")
        status = await bob.slash("status")
        assert "still choosing" in status.content
