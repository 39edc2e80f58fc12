"""A turn in two clicks (issue 31): whole turns played through the fake Discord, clicks and
private messages counted.

From the turn message: a draw is two clicks (a face-up card or the deck under the turn
message, then the second card on the private panel that opens), a claim two (Claim, then
the route: one payment fits) or three (a real choice of payment), tickets two (Tickets
draws at once, Keep); each turn leaves one private message, rewritten in place. A click
on an older panel of the same turn plays nothing and shows the current panel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.process import metrics
from cogs.ttr import _ids as ids

from ..e2e.fake_discord import SentMessage
from ._driver import Player
from ._harness import TIMEOUT, RunningTable, running_table, started_game

#: discord's interaction type of a button or select click
COMPONENT = 3


@dataclass
class Tally:
    """What one player did and got from a moment on: clicks (component interactions), commands,
    and the private messages made for them (a message rewritten in place counts once)."""

    t: RunningTable
    player: Player
    interactions: int = 0
    sent: int = 0

    def start(self) -> Tally:
        self.interactions = len(self.t.fake.interactions)
        self.sent = len(self.t.fake.sent)
        return self

    def clicks(self) -> int:
        handles = list(self.t.fake.interactions.values())[self.interactions :]
        return sum(1 for h in handles if h.user is self.player.user and h.type == COMPONENT)

    def commands(self) -> int:
        handles = list(self.t.fake.interactions.values())[self.interactions :]
        return sum(1 for h in handles if h.user is self.player.user and h.type != COMPONENT)

    def private_messages(self) -> int:
        mine = {
            m.message_id
            for m in self.t.fake.sent[self.sent :]
            if m.ephemeral and m.user is self.player.user
        }
        return len(mine)


def _card_buttons(message: SentMessage) -> list[dict[str, str]]:
    return [
        dict(b) for b in message.buttons if ":card:" in b["custom_id"] and not b.get("disabled")
    ]


def _not_a_locomotive(message: SentMessage) -> str:
    """A card button that does not end the turn at once (a face-up locomotive would)."""
    for b in _card_buttons(message):
        if "Locomotive" not in b.get("label", ""):
            return b["custom_id"]
    raise AssertionError(message.summary())


async def _claims(t: RunningTable, g: int, player: Player) -> tuple:  # type: ignore[type-arg]
    view = await t.service.table(g, player.user.id)
    return view.menu.claims if view.menu is not None and view.menu.step == "turn" else ()


async def _draw_turn(t: RunningTable, g: int) -> tuple[int, int]:
    """A draw from the turn message: (clicks, private messages)."""
    mover = await t.active(g)
    turn = t.turn_messages(g)[-1]
    before = await t.version(g)
    tally = Tally(t, mover).start()
    panel = await mover.click(turn, _not_a_locomotive(turn), private=True)
    assert panel.ephemeral and "You drew" in panel.content, panel.summary()
    assert "Take your second card" in panel.content and "Your train car cards:" in panel.content
    assert await t.version(g) == before + 1
    second = next(b for b in _card_buttons(panel) if b["label"].startswith("Deck"))
    done = await mover.click(panel, second["custom_id"], private=True)
    assert done.message_id == panel.message_id, "the panel moves on in place"
    assert "Your turn is over." in done.content and not done.custom_ids, done.summary()
    assert await t.version(g) == before + 2
    assert await t.active(g) is not mover
    return tally.clicks(), tally.private_messages()


async def _claim_turn(t: RunningTable, g: int, *, choice: bool) -> tuple[int, int]:
    """A claim from the turn message, of a route with one payment (``choice`` False) or with
    several: (clicks, private messages)."""
    mover = await t.active(g)
    claims = await _claims(t, g, mover)
    route = next(c for c in claims[:25] if c.single != choice)
    turn = t.turn_messages(g)[-1]
    before = await t.version(g)
    tally = Tally(t, mover).start()
    menu = await mover.click(turn, f"ttr:{g}:claim", private=True)
    [select] = menu.selects
    values = [o["value"] for o in select["options"]]
    assert values == [str(c.index) for c in claims[:25]], "the list in the menu's order"
    handle = await t.fake.select(
        mover.user, menu, select["custom_id"], [str(route.index)], private=True
    )
    answer = await handle.message(timeout=TIMEOUT)
    assert answer.message_id == menu.message_id
    if choice:
        assert "choose how to pay" in answer.content and await t.version(g) == before
        first = answer.buttons[0]
        assert ids.parse(first["custom_id"]) == ids.ClaimConfirm(g, before, route.index, 0)
        assert first["style"] == 3, "the best payment is the highlighted one"
        answer = await mover.click(answer, first["custom_id"], private=True)
        assert answer.message_id == menu.message_id
    assert "You claimed" in answer.content and "paying" in answer.content, answer.summary()
    assert "Your turn is over." in answer.content
    assert await t.version(g) == before + 1
    return tally.clicks(), tally.private_messages()


async def _tickets_turn(t: RunningTable, g: int) -> tuple[int, int]:
    """Destination tickets from the turn message: (clicks, private messages)."""
    mover = await t.active(g)
    turn = t.turn_messages(g)[-1]
    before = await t.version(g)
    tally = Tally(t, mover).start()
    maps = metrics.sample("ttr_render_seconds_count", kind="offer") or 0.0
    offer = await mover.click(turn, f"ttr:{g}:tickets", private=True)
    assert metrics.sample("ttr_render_seconds_count", kind="offer") == maps + 1
    assert offer.content.startswith("Choose which destination tickets to keep (at least 1):")
    assert re.search(r"needs \d+ more trains?|already joined", offer.content), offer.content
    assert offer.attachment("tickets.png").is_png
    assert await t.version(g) == before + 1, "drawn at once"
    keep = next(b["custom_id"] for b in offer.buttons if b["label"].startswith("Keep"))
    done = await mover.click(offer, keep, private=True)
    assert done.message_id == offer.message_id and "You kept" in done.content, done.summary()
    assert not done.attachments, "the offer's map goes with the choice"
    assert await t.version(g) == before + 2
    return tally.clicks(), tally.private_messages()


async def _pass(t: RunningTable, g: int) -> None:
    mover = await t.active(g)
    await mover.slash("draw", {"source": "deck"})
    await mover.slash("draw", {"source": "deck"})


async def test_whole_turns_in_two_clicks_and_one_private_message(tmp_path: Path) -> None:
    """Draw 2 clicks, claim 2 (3 with a payment choice), tickets 2; one private message each."""
    counts: dict[str, tuple[int, int]] = {}
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        counts["draw"] = await _draw_turn(t, g)
        counts["tickets"] = await _tickets_turn(t, g)
        for _ in range(40):
            mover = await t.active(g)
            claims = await _claims(t, g, mover)
            if "claim" not in counts and any(c.single for c in claims[:25]):
                counts["claim"] = await _claim_turn(t, g, choice=False)
            elif "claim with a choice" not in counts and any(not c.single for c in claims[:25]):
                counts["claim with a choice"] = await _claim_turn(t, g, choice=True)
            else:
                await _pass(t, g)
            if len(counts) == 4:
                break
        assert not t.fake.take_violations()
    assert counts == {
        "draw": (2, 1),
        "tickets": (2, 1),
        "claim": (2, 1),
        "claim with a choice": (3, 1),
    }, counts


async def test_the_draw_button_opens_the_same_panel(tmp_path: Path) -> None:
    """Draw (or My hand) opens the panel: the hand with symbols, the face-up cards by name, the
    deck, Claim and Tickets as the turn message names them; two cards later the same message
    says the turn is over (three clicks, one private message)."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        tally = Tally(t, mover).start()
        turn = t.turn_messages(g)[-1]
        panel = await mover.click(turn, f"ttr:{g}:draw", private=True)
        assert "**Your turn.**" in panel.content and "×" in panel.content, panel.content
        labels = [b["label"] for b in panel.buttons]
        assert labels[-2:] == ["Claim", "Destination tickets"], labels
        turn_labels = [b["label"] for b in turn.buttons]
        assert {"Claim", "Destination tickets", "Draw", "My hand"} <= set(turn_labels)
        assert re.fullmatch(r"Deck \(\d+ cards\)", labels[-3]), labels
        for b in _card_buttons(panel)[:-1]:  # each face-up card reads without colour
            assert re.fullmatch(r"[♥✚☀♣♠♦✿○●★] \w+", b["label"]), b["label"]
        first = await mover.click(panel, _not_a_locomotive(panel), private=True)
        second = await mover.click(first, _card_buttons(first)[-1]["custom_id"], private=True)
        assert first.message_id == second.message_id == panel.message_id
        assert "Your turn is over." in second.content
        assert (tally.clicks(), tally.private_messages()) == (3, 1)


async def test_an_older_panel_of_the_same_turn_plays_nothing(tmp_path: Path) -> None:
    """Two panels open; a card taken on one; a card clicked on the other is not a second move:
    that panel becomes the current one (the second card's choice)."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        turn = t.turn_messages(g)[-1]
        one = await mover.click(turn, f"ttr:{g}:draw", private=True)
        two = await mover.click(turn, f"ttr:{g}:draw", private=True)
        assert one.message_id != two.message_id
        before = await t.version(g)
        await mover.click(one, _not_a_locomotive(one), private=True)
        assert await t.version(g) == before + 1
        stale = await mover.click(two, _card_buttons(two)[0]["custom_id"], private=True)
        assert stale.message_id == two.message_id, "the older panel is rewritten in place"
        assert "out of date; nothing was done" in stale.content, stale.summary()
        assert "Take your second card" in stale.content
        assert await t.version(g) == before + 1, "no second move"
        current = {ids.parse(c) for c in stale.custom_ids if ":card:" in c}
        assert current and all(getattr(c, "version", None) == before + 1 for c in current)
        # the turn message's own card buttons are of the version before: the same answer,
        # as a new private message (a public message cannot be rewritten for one player)
        old = await mover.click(turn, _not_a_locomotive(turn), private=True)
        assert old.ephemeral and "out of date" in old.content and await t.version(g) == before + 1


async def test_the_turn_messages_cards_are_the_active_players(tmp_path: Path) -> None:
    """Another player clicking a face-up card under the turn message is told it is not their
    turn (privately); nothing is taken."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        idle = await t.idle(g)
        turn = t.turn_messages(g)[-1]
        before = await t.version(g)
        answer = await idle.click(turn, _card_buttons(turn)[0]["custom_id"], private=True)
        assert answer.ephemeral and "It is not your turn." in answer.content, answer.summary()
        assert await t.version(g) == before


async def test_a_claim_says_what_was_paid_and_the_list_starts_on_the_plan(tmp_path: Path) -> None:
    """The route list and /ttr claim's autocomplete with nothing typed start with the routes on
    the player's ticket paths (★), then the longest; a route with one payment is claimed by
    /ttr claim route: at once."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        for _ in range(30):
            mover = await t.active(g)
            claims = await _claims(t, g, mover)
            if any(c.planned for c in claims) and any(c.single for c in claims):
                break
            await _pass(t, g)
        assert any(c.planned for c in claims), "seed 7 reaches a claimable planned route"
        planned = [c.planned for c in claims]
        assert planned == sorted(planned, reverse=True), "planned routes first"
        choices = await (
            await t.fake.autocomplete(
                mover.user, "ttr", "claim", {"route": ""}, focused="route", channel="games"
            )
        )
        assert [c["value"] for c in choices] == [c.route for c in claims[:25]]
        assert choices[0]["name"].startswith("★ ") or not claims[0].planned
        single = next(c for c in claims if c.single)
        before = await t.version(g)
        done = await mover.slash("claim", {"route": single.route})
        assert "You claimed" in done.content and "paying" in done.content, done.summary()
        assert await t.version(g) == before + 1


async def test_board_zoom_and_status_each_say_their_own_thing(tmp_path: Path) -> None:
    """Board: the image and a one-line caption (no player list, no clock); the ticket zoom: a
    caption saying what it shows; /ttr status: round and move, each seat's counts and the
    clock. The turn message and the panel call the actions alike."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        board = await mover.slash("board")
        assert board.attachments and "\n" not in board.content.strip(), board.content
        assert "round 1" in board.content and "/ttr status" in board.content
        assert "<@" not in board.content and "<t:" not in board.content, "status's, not board's"
        zoom = await mover.slash("board", {"region": "tickets"})
        assert zoom.attachments and "your destination tickets" in zoom.content, zoom.content
        status = await mover.slash("status")
        assert "round 1 (move 1)" in status.content and "<t:" in status.content, status.content
        assert status.content.count("• ") == 2 and not status.attachments
        turn = t.turn_messages(g)[-1]
        panel = await mover.click(turn, f"ttr:{g}:draw", private=True)
        shared = {"Claim", "Destination tickets"}
        assert shared <= {b["label"] for b in turn.buttons}
        assert shared <= {b["label"] for b in panel.buttons}
