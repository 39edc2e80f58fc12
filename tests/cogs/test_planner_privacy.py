"""The ticket planner and zoom are private: only in the owner's ephemeral replies."""

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
        table = {name: await t.service.queries.table(g, p.user.id) for name, p in t.players.items()}
        replies = {}
        for name, player in t.players.items():
            reply = await player.slash("hand")
            assert reply.ephemeral
            assert "Planner for your destination tickets" in reply.content
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
                assert "Planner for your" not in m.content
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
        assert nowhere.ephemeral and "no place called Atlantis" in nowhere.content
        assert f"ttr:{g}:zoom" in hand.custom_ids
        choices = await (
            await t.fake.autocomplete(
                alice.user, "ttr", "board", {"region": "kan"}, focused="region", channel="games"
            )
        )
        assert [c["value"] for c in choices] == ["tickets", "Kansas City"]


async def test_turn_boards_highlight_the_last_claims_and_contrast_follows_settings(
    tmp_path: Path, monkeypatch
) -> None:
    """The turn message's board highlights exactly the routes the turn claimed; the high-contrast
    setting changes the reader's private hand image (and only it)."""
    from cogs.ttr import _images

    seen: list[tuple[str, ...]] = []
    real = _images._board

    def spy(map_id, public, names, lang, highlight, high_contrast=False):  # noqa: ANN001, ANN202
        if not high_contrast:  # the turn messages' boards (never in high contrast)
            seen.append(tuple(highlight))
        return real(map_id, public, names, lang, highlight, high_contrast)

    monkeypatch.setattr(_images, "_board", spy)
    async with running_table(tmp_path, ("alice", "bob")) as t:
        g = await started_game(t)
        checked = 0
        for n in range(6):
            player = await t.active(g)
            before = dict((await t.service.queries.table(g, 0)).public.owners)
            seen.clear()
            await _play_turn(player, t.fake.messages_in("games")[-1], n)
            await t.fake.wait_for_message(lambda m: m.kind == "channel", since=0, timeout=5)
            after = (await t.service.queries.table(g, 0)).public.owners
            claimed = {r for r in after if r not in before}
            if seen:
                assert set(seen[-1]) == claimed, (seen, claimed)
                checked += bool(claimed)
        assert checked >= 1, "some turn should have claimed a route"
        alice = t.players["alice"]
        plain = (await alice.slash("hand")).attachments[0].data
        await alice.slash("player settings", {"high_contrast": True})
        bold = (await alice.slash("hand")).attachments[0].data
        assert plain != bold
        board_bold = (await alice.slash("board")).attachments[0].data
        await alice.slash("player settings", {"high_contrast": False})
        assert (await alice.slash("hand")).attachments[0].data == plain
        assert (await alice.slash("board")).attachments[0].data != board_bold


async def test_a_hand_reply_plans_the_tickets_once(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """/ttr hand plans the reader's tickets once, in the service's view model: the text and the
    image both show that plan (the renderer does not plan again)."""
    import sys

    from engine.planner import plan_tickets as real

    calls: list[str] = []

    def counted(rules, view, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        calls.append(view.public.map_id)
        return real(rules, view, *args, **kwargs)

    for module in list(sys.modules.values()):  # every module that holds the function
        if getattr(module, "plan_tickets", None) is real:
            monkeypatch.setattr(module, "plan_tickets", counted)
    async with running_table(tmp_path, ("alice", "bob")) as t:
        await started_game(t)
        calls.clear()
        reply = await t.players["alice"].slash("hand")
        assert "Planner for your destination tickets" in reply.content and reply.attachments
        assert calls == ["usa"]
