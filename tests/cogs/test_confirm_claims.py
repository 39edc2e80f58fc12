"""Confirm before a claim: a player who sets ``/ttr player settings confirm_claims:True`` gets
exactly one more click (Claim it) before a route is claimed, in both languages; everyone else
claims as before, and the setting is shown with the others."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..e2e.fake_discord import SentMessage
from ._driver import Player
from ._harness import TIMEOUT, RunningTable, running_table, started_game

LOCALE = {"en": "en-US", "de": "de"}
SURE = {"en": "Claim it", "de": "Ja, nutzen"}


async def _claimable(t: RunningTable, game_id: int) -> Player:
    """Draw from the deck, turn after turn, until the player to move can claim a route."""
    for _ in range(20):
        mover = await t.active(game_id)
        view = await t.service.queries.table(game_id, mover.user.id)
        if view.menu is not None and view.menu.claims:
            return mover
        await mover.slash("draw", {"source": "deck"})
        await mover.slash("draw", {"source": "deck"})
    raise AssertionError("no one could claim a route")


async def _pick_first_route(t: RunningTable, player: Player, turn: SentMessage) -> SentMessage:
    """Claim button, then the first route of the picker: the message the pick leaves (a claim,
    the choice of payments, or Claim it)."""
    claim = next(c for c in turn.custom_ids if c.endswith(":claim"))
    menu = await player.click(turn, claim)
    pick = menu.selects[0]
    handle = await t.fake.select(
        player.user, menu, pick["custom_id"], [pick["options"][0]["value"]], private=True
    )
    return await handle.message(timeout=TIMEOUT)


async def _clicks_to_claim(t: RunningTable, game_id: int, lang: str, *, confirm: bool) -> int:
    """The clicks after the route pick until the route is claimed (the payment button when
    there are several ways to pay, Claim it when the mover confirms claims)."""
    mover = await _claimable(t, game_id)
    mover.user.locale = LOCALE[lang]
    shown = await mover.slash("player settings", {"confirm_claims": confirm})
    assert shown.ephemeral
    before = await t.version(game_id)
    message = await _pick_first_route(t, mover, t.turn_messages(game_id)[-1])
    clicks = 0
    while await t.version(game_id) == before:
        sure = [b for b in message.buttons if ":claim-sure:" in b["custom_id"]]
        if sure:  # the one more click: nothing was claimed before it
            assert confirm, message.summary()
            assert sure[0]["label"] == SURE[lang] and "?" in message.content, message.summary()
            assert len(sure) == 1
            message = await mover.click(message, sure[0]["custom_id"], private=True)
        else:  # several ways to pay: the first payment button
            pay = next(b for b in message.buttons if ":claim-confirm:" in b["custom_id"])
            message = await mover.click(message, pay["custom_id"], private=True)
        clicks += 1
        assert clicks <= 2, message.summary()
    assert await t.version(game_id) == before + 1
    return clicks


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_confirm_claims_adds_exactly_one_click(tmp_path: Path, lang: str) -> None:
    """The same claim (the same seed, the same first route) takes exactly one click more with
    the setting on than off, and that click is the Claim it button."""
    counts = {}
    for confirm in (False, True):
        async with running_table(tmp_path / str(confirm)) as t:
            t.fake.guild_locale = lang
            g = await started_game(t)
            counts[confirm] = await _clicks_to_claim(t, g, lang, confirm=confirm)
            assert not t.fake.take_violations()
    assert counts[True] == counts[False] + 1, counts


async def test_the_setting_is_listed_and_kept(tmp_path: Path) -> None:
    """/ttr player settings lists the setting; it is stored per player, off by default."""
    async with running_table(tmp_path) as t:
        alice = t.players["alice"]
        shown = await alice.slash("player settings")
        assert "Confirm each claim with one more click: off" in shown.content
        saved = await alice.slash("player settings", {"confirm_claims": True})
        assert "Confirm each claim with one more click: on" in saved.content
        assert (await t.service.queries.user_settings(alice.user.id)).confirm_claims
        assert not (await t.service.queries.user_settings(t.players["bob"].user.id)).confirm_claims
