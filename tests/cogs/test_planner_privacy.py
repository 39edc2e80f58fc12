"""The ticket planner and zoom are private: only in the owner's ephemeral replies (issue 15)."""

from __future__ import annotations

import re
from pathlib import Path

from ._driver import _button, _play_turn
from ._harness import running_table, started_game


async def test_the_planner_only_reaches_its_owner(tmp_path: Path) -> None:
    """Each player's hand reply carries their own ticket planner (text, and the planned hand image);
    no channel message and no other player's reply ever shows it."""
    async with running_table(tmp_path, ("alice", "bob")) as t:
        g = await started_game(t)
        for n in range(4):  # a few turns, so that routes are claimed
            player = await t.active(g)
            message = t.fake.messages_in("games")[-1]
            await _play_turn(player, message, n)
        table = {name: await t.service.table(g, p.user.id) for name, p in t.players.items()}
        replies = {}
        for name, player in t.players.items():
            reply = await player.slash("hand")
            assert reply.ephemeral
            assert "Ticket planner" in reply.content
            assert any(a.filename == "hand.png" for a in reply.attachments)
            replies[name] = reply
        board = table["alice"].rules.board
        lines = {
            name: [ln for ln in r.content.splitlines() if re.match(r"• .* \(\d+\): ", ln)]
            for name, r in replies.items()
        }
        for name, mine in lines.items():
            assert len(mine) == len(table[name].mine.tickets)
            for tv in table[name].mine.tickets:
                city = board.cities[tv.a].name
                assert any(line.startswith(f"• {city}") for line in mine), (name, tv)
        alice_only = set(lines["alice"]) - set(lines["bob"])
        assert alice_only, "the two players should hold different tickets"
        for line in alice_only:
            assert line not in replies["bob"].content
        for m in t.fake.sent:
            if not m.ephemeral:
                assert "Ticket planner" not in m.content
                assert not any(line[2:] in m.content for line in alice_only), m.summary()


async def test_zoom_button_and_region_are_private_images(tmp_path: Path) -> None:
    """The hand reply's Zoom button and /ttr board region: answer privately with a zoomed image;
    an unknown city is refused in words."""
    async with running_table(tmp_path, ("alice", "bob")) as t:
        g = await started_game(t)
        alice = t.players["alice"]
        hand = await alice.slash("hand")
        zoom = await alice.click(hand, _button(hand, "Zoom"))
        assert zoom.ephemeral and [a.filename for a in zoom.attachments] == ["zoom.png"]
        region = await alice.slash("board", {"region": "tickets"})
        assert region.ephemeral and [a.filename for a in region.attachments] == ["zoom.png"]
        city = await alice.slash("board", {"region": "kansas"})
        assert city.ephemeral and [a.filename for a in city.attachments] == ["zoom.png"]
        whole = await alice.slash("board")
        assert [a.filename for a in whole.attachments] == ["board.png"]
        nowhere = await alice.slash("board", {"region": "Atlantis"})
        assert nowhere.ephemeral and "no city called Atlantis" in nowhere.content
        assert f"ttr:{g}:zoom" in hand.custom_ids
        choices = await (
            await t.fake.autocomplete(
                alice.user, "ttr", "board", {"region": "kan"}, focused="region", channel="games"
            )
        )
        assert [c["value"] for c in choices] == ["tickets", "Kansas City"]
