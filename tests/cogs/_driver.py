"""Drive a human seat of a /ttr game through the fake Discord (shared by the in-process and E2E tests)."""

from __future__ import annotations

import re
from typing import Any

from ..e2e.fake_discord import FakeDiscord, SentMessage

PRIVATE_BUTTONS = r"ttr:[0-9]+:(hand|draw|claim|tickets|board)"
TIMEOUT = 20.0


def _turn_messages(fake: FakeDiscord, channel: str) -> list[SentMessage]:
    return [
        m
        for m in fake.messages_in(channel)
        if m.custom_ids and any(re.fullmatch(PRIVATE_BUTTONS, c) for c in m.custom_ids)
    ]


def _is_final(m: SentMessage) -> bool:
    return m.kind == "channel" and "Game over" in m.content


class Player:
    """Drives one human seat through the fake Discord."""

    def __init__(self, fake: FakeDiscord, name: str, channel: str) -> None:
        self.fake = fake
        self.user = fake.user(name)
        self.channel = channel

    async def slash(self, sub: str, options: dict[str, Any] | None = None) -> SentMessage:
        handle = await self.fake.slash(self.user, "ttr", sub, options or {}, channel=self.channel)
        return await handle.message(timeout=TIMEOUT)

    async def click(self, message: SentMessage, custom_id: str, **kw: Any) -> SentMessage:
        handle = await self.fake.click(self.user, message, custom_id, **kw)
        return await handle.message(timeout=TIMEOUT)

    async def pick(self, message: SentMessage, custom_id: str, values: list[str]) -> None:
        handle = await self.fake.select(self.user, message, custom_id, values, private=True)
        await handle.wait_ack(timeout=TIMEOUT)


def _button(message: SentMessage, label_start: str | None = None, *, index: int = 0) -> str:
    buttons = [
        b
        for b in message.buttons
        if label_start is None or str(b.get("label", "")).startswith(label_start)
    ]
    assert buttons, f"no button {label_start!r} in {message.summary()}"
    return buttons[index]["custom_id"]


async def _keep_offered(player: Player, reply: SentMessage) -> SentMessage:
    """Confirm the ticket choice of a private reply (all offered tickets are preselected)."""
    assert reply.ephemeral and reply.selects, reply.summary()
    return await player.click(reply, _button(reply, "Keep"), private=True)


async def _play_turn(player: Player, turn_message: SentMessage, n: int) -> None:
    """One human turn: claim the first claimable route if any, else draw two cards (commands and buttons)."""
    fake = player.fake
    choices = await (
        await fake.autocomplete(
            player.user, "ttr", "claim", {"route": ""}, focused="route", channel=player.channel
        )
    )
    if choices:
        reply = await player.slash("claim", {"route": choices[0]["value"]})
        assert reply.ephemeral, reply.summary()
        done = reply
        # several ways to pay: the first button is the best (a claim made at once may offer
        # Take back, which is no payment)
        pay = [b for b in reply.buttons if ":undo-ask:" not in b["custom_id"]]
        if pay:
            done = await player.click(reply, pay[0]["custom_id"], private=True)
        assert done.ephemeral and "You claimed" in done.content, done.summary()
        if (
            done.selects
        ):  # the claim asks nothing more on the USA map, but a ticket draw could follow
            await _keep_offered(player, done)
        return
    first = None
    if n % 2:
        first = await player.slash("draw", {"source": "deck"})
        if not first.buttons and "deck is empty" in first.content.lower():
            first = None  # late in a game the deck can run out: take a face-up card instead
    if first is None:
        draw = next(c for c in turn_message.custom_ids if c.endswith(":draw"))
        menu = await player.click(turn_message, draw)
        assert menu.ephemeral
        usable = [b for b in menu.buttons if not b.get("disabled")]
        assert usable, menu.summary()
        deck = [b for b in usable if str(b.get("label", "")).startswith("Deck")]
        first = await player.click(menu, (deck or usable)[0]["custom_id"], private=True)
    assert first.ephemeral, first.summary()
    if first.buttons:  # the second draw is offered
        usable = [b for b in first.buttons if not b.get("disabled")]
        second = await player.click(first, (usable or first.buttons)[0]["custom_id"], private=True)
        assert second.ephemeral
