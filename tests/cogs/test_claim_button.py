"""The Claim button works when the player can pay for more than 25 routes.

Through the fake Discord, which refuses a message as Discord does (400, code
50035) when two components share a custom id: the route menu pages, every
page can be turned to, and a route chosen on the last page is claimed (at once
when one payment fits, else with its first payment button).
"""

from __future__ import annotations

from pathlib import Path

from ._driver import Player
from ._harness import TIMEOUT, RunningTable, running_table, started_game


async def _claims(t: RunningTable, game_id: int, player: Player) -> int:
    view = await t.service.queries.table(game_id, player.user.id)
    return len(view.menu.claims) if view.menu is not None else 0


async def test_claim_button_pages_past_25_routes(tmp_path: Path) -> None:
    """Both players draw until the one to move can pay for more than 25 routes; then the Claim
    button opens a paged menu, ▶ turns every page, and a route of the last page is claimed."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        for _ in range(30):
            mover = await t.active(g)
            if await _claims(t, g, mover) > 25:
                break
            await mover.slash("draw", {"source": "deck"})
            await mover.slash("draw", {"source": "deck"})
        mover = await t.active(g)
        count = await _claims(t, g, mover)
        assert count > 25, count
        turn = t.turn_messages(g)[-1]
        claim = next(c for c in turn.custom_ids if c.endswith(":claim"))
        menu = await mover.click(turn, claim)
        assert menu.ephemeral and len(menu.selects) == 1, menu.summary()
        pages = -(-count // 25)
        assert f"Page 1 of {pages}" in [b.get("label") for b in menu.buttons], menu.summary()
        values = [o["value"] for o in menu.selects[0]["options"]]
        for page in range(2, pages + 1):
            forward = next(b for b in menu.buttons if b.get("label") == "▶")
            handle = await t.fake.click(mover.user, menu, forward["custom_id"], private=True)
            menu = await handle.message(timeout=TIMEOUT)
            assert f"Page {page} of {pages}" in [b.get("label") for b in menu.buttons]
            values += [o["value"] for o in menu.selects[0]["options"]]
        assert len(values) == len(set(values)) == count
        pick = menu.selects[0]
        before = await t.version(g)
        handle = await t.fake.select(
            mover.user, menu, pick["custom_id"], [pick["options"][-1]["value"]], private=True
        )
        done = await handle.message(timeout=TIMEOUT)
        if "You claimed" not in done.content:  # several ways to pay: the first claims
            assert await t.version(g) == before, done.summary()
            done = await mover.click(done, done.buttons[0]["custom_id"], private=True)
        assert "You claimed" in done.content, done.summary()
        assert done.message_id == menu.message_id, "the menu itself tells the claim"
        assert await t.version(g) == before + 1
        assert not t.fake.take_violations()


async def test_a_refused_menu_says_what_still_works(tmp_path: Path) -> None:
    """When Discord refuses a private menu (400), the player still gets the text, told that
    the menu could not be shown and which commands still work; nothing was played."""
    async with running_table(tmp_path) as t:
        g = await started_game(t)
        mover = await t.active(g)
        before = await t.version(g)
        turn = t.turn_messages(g)[-1]
        claim = next(c for c in turn.custom_ids if c.endswith(":claim"))
        t.fake.fail("POST", r"/webhooks/\d+/[^/]+", 400, 50035, message="Invalid Form Body")
        reply = await mover.click(turn, claim)
        assert reply.ephemeral and not reply.custom_ids, reply.summary()
        assert "/ttr claim route:" in reply.content and "/ttr hand" in reply.content
        assert "Discord did not take this menu" in reply.content
        assert await t.version(g) == before
