"""Substitutes through the fake Discord, in both languages: a player hands their seat to a
member mid-game (``/ttr seat give member:``), the member accepts with the button of the public
offer, and from then on the hand and tickets are the member's (``/ttr hand``) and no longer the
old player's; the table is told and the game's log keeps it. Only the member named may accept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ._driver import _keep_offered
from ._harness import TIMEOUT, RunningTable, running_table

LOCALE = {"en": "en-US", "de": "de"}
HANDED = {"en": "handed their seat to", "de": "hat den Platz an"}
NOT_IN_GAME = {"en": "You are not in this game.", "de": "Du spielst in diesem Spiel nicht mit."}
NOT_YOURS = {
    "en": "This button belongs to someone else.",
    "de": "Dieser Button gehört jemand anderem.",
}
ACCEPT = {"en": "Accept", "de": "Annehmen"}


async def _game_of_two(t: RunningTable) -> int:
    """alice hosts, bob joins, both keep their tickets; carol watches."""
    alice, bob = t.players["alice"], t.players["bob"]
    await alice.slash("new", {"map": "usa"})
    await bob.slash("join")
    await alice.slash("start")
    for p in (alice, bob):
        await _keep_offered(p, await p.slash("hand"))
    return await t.game_id()


def _speak(t: RunningTable, lang: str) -> None:
    t.fake.guild_locale = lang
    for p in t.players.values():
        p.user.locale = LOCALE[lang]


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_substitute_takes_a_seat_mid_game(tmp_path: Path, lang: str) -> None:
    """bob gives his seat to carol mid-game: alice cannot accept it for her; carol accepts and
    reads bob's hand and tickets with /ttr hand; bob no longer can; the table and the log say
    who handed the seat to whom; carol plays the seat on."""
    async with running_table(tmp_path, ("alice", "bob", "carol")) as t:
        t.fake.guild_locale = lang  # the table's language is chosen when the game opens
        g = await _game_of_two(t)
        alice, bob, carol = t.players["alice"], t.players["bob"], t.players["carol"]
        mover = await t.active(g)
        await mover.slash("draw", {"source": "deck"})
        await mover.slash("draw", {"source": "deck"})
        _speak(t, lang)
        seat_before = await t.service.queries.table(g, bob.user.id)
        assert seat_before.mine is not None
        since = len(t.fake.sent)
        sent = await bob.slash("seat give", {"member": carol.user})
        assert sent.ephemeral and f"<@{carol.user.id}>" in sent.content
        offer = await t.fake.wait_for_message(
            lambda m: m.kind == "channel" and any(":sit:" in c for c in m.custom_ids),
            since=since,
            timeout=TIMEOUT,
        )
        assert f"<@{carol.user.id}>" in offer.content
        accept = next(b for b in offer.buttons if ":sit:" in b["custom_id"])
        assert accept["label"] == ACCEPT[lang]

        refused = await alice.click(offer, accept["custom_id"], private=True)
        assert NOT_YOURS[lang] in refused.content
        assert (await t.service.queries.table(g, carol.user.id)).mine is None

        since = len(t.fake.sent)
        taken = await carol.click(offer, accept["custom_id"], private=True)
        assert taken.ephemeral and "/ttr hand" in taken.content
        told = await t.fake.wait_for_message(
            lambda m: m.kind == "channel" and HANDED[lang] in m.content,
            since=since,
            timeout=TIMEOUT,
        )
        assert f"<@{bob.user.id}>" in told.content and f"<@{carol.user.id}>" in told.content

        hand = await carol.slash("hand")
        assert hand.ephemeral and hand.attachments, hand.summary()
        mine = await t.service.queries.table(g, carol.user.id)
        assert mine.mine is not None and mine.seat == seat_before.seat
        assert mine.mine.hand == seat_before.mine.hand
        assert mine.mine.tickets == seat_before.mine.tickets
        gone = await bob.slash("hand")
        assert gone.ephemeral and NOT_IN_GAME[lang] in gone.content

        log = await alice.slash("game log", {"count": 50})
        assert HANDED[lang] in log.content, log.summary()

        for _ in range(4):  # carol plays the seat on when its turn comes
            mover = await t.active(g)
            before = await t.version(g)
            await mover.slash("draw", {"source": "deck"})
            await mover.slash("draw", {"source": "deck"})
            assert await t.version(g) > before
            if mover is carol:
                break
        else:
            raise AssertionError("carol never moved")
        assert not t.fake.take_violations()


async def test_decline_leaves_the_seat(tmp_path: Path) -> None:
    """carol declines: the seat stays bob's, the table is told, nothing is recorded."""
    async with running_table(tmp_path, ("alice", "bob", "carol")) as t:
        g = await _game_of_two(t)
        bob, carol = t.players["bob"], t.players["carol"]
        since = len(t.fake.sent)
        await bob.slash("seat give", {"member": carol.user})
        offer = await t.fake.wait_for_message(
            lambda m: m.kind == "channel" and any(":sit-no:" in c for c in m.custom_ids),
            since=since,
            timeout=TIMEOUT,
        )
        decline = next(c for c in offer.custom_ids if ":sit-no:" in c)
        answer = await carol.click(offer, decline, private=True)
        assert "Nothing changed" in answer.content
        assert (await t.service.queries.table(g, bob.user.id)).mine is not None
        assert await t.service.seats.handovers(g) == []
        assert not t.fake.take_violations()
