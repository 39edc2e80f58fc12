"""Undo by consent through the fake Discord, in both languages: after a claim the mover's answer
offers Take back; the others are asked in public; all approve -> the claim is taken back (a new
action: the log keeps both) and the mover is to move again; one refuses -> the claim stands.
A tunnel's claim (three cards turned up) is refused by the engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.services.ops import verify_storage
from engine import ClaimRoute, legal_actions
from maps import load_ruleset

from ..e2e.fake_discord import SentMessage
from ._driver import Player
from ._harness import TIMEOUT, RunningTable, running_table, started_game

LOCALE = {"en": "en-US", "de": "de"}
TAKE_BACK = {"en": "Take back", "de": "Zurücknehmen"}
TAKEN = {"en": "took their last move back", "de": "hat den letzten Zug zurückgenommen"}
STANDS = {"en": "it stands", "de": "Er bleibt"}
CANNOT = {
    "en": "That move cannot be taken back",
    "de": "Dieser Zug kann nicht zurückgenommen werden",
}


def _speak(t: RunningTable, lang: str) -> None:
    for p in t.players.values():
        p.user.locale = LOCALE[lang]


async def _claim(t: RunningTable, g: int) -> tuple[Player, SentMessage, str]:
    """Draw until the player to move can claim; they claim the first route with the Claim
    button: the mover, the answer to the claim, the route."""
    for _ in range(20):
        mover = await t.active(g)
        view = await t.service.queries.table(g, mover.user.id)
        if view.menu is not None and view.menu.claims:
            break
        await mover.slash("draw", {"source": "deck"})
        await mover.slash("draw", {"source": "deck"})
    turn = t.turn_messages(g)[-1]
    menu = await mover.click(turn, next(c for c in turn.custom_ids if c.endswith(":claim")))
    pick = menu.selects[0]
    handle = await t.fake.select(
        mover.user, menu, pick["custom_id"], [pick["options"][0]["value"]], private=True
    )
    done = await handle.message(timeout=TIMEOUT)
    if not any(":undo-ask:" in c for c in done.custom_ids):  # several ways to pay: the first
        pay = next(b for b in done.buttons if ":claim-confirm:" in b["custom_id"])
        done = await mover.click(done, pay["custom_id"], private=True)
    state = await t.service.loader.game_state(g)
    route = next(r for r, s in state.owners.items() if s is not None)
    return mover, done, route


async def _ask(t: RunningTable, mover: Player, done: SentMessage, lang: str) -> SentMessage:
    """Click Take back under the claim's answer: the public request."""
    ask = next(b for b in done.buttons if ":undo-ask:" in b["custom_id"])
    assert ask["label"] == TAKE_BACK[lang]
    since = len(t.fake.sent)
    answer = await mover.click(done, ask["custom_id"], private=True)
    assert answer.ephemeral
    return await t.fake.wait_for_message(
        lambda m: m.kind == "channel" and any(":undo-yes:" in c for c in m.custom_ids),
        since=since,
        timeout=TIMEOUT,
    )


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_claim_taken_back_when_everyone_approves(tmp_path: Path, lang: str) -> None:
    """The other player approves: the route is free again, the mover is to move, the version
    went one on (the log keeps the claim and the undo) and the game verifies."""
    async with running_table(tmp_path) as t:
        t.fake.guild_locale = lang
        g = await started_game(t)
        _speak(t, lang)
        mover, done, route = await _claim(t, g)
        other = next(p for p in t.players.values() if p is not mover)
        request = await _ask(t, mover, done, lang)
        assert f"<@{other.user.id}>" in request.content
        claimed = await t.version(g)
        refused = await mover.click(request, request.custom_ids[0], private=True)
        assert refused.ephemeral and await t.version(g) == claimed  # the mover cannot vote
        since = len(t.fake.sent)
        yes = next(c for c in request.custom_ids if ":undo-yes:" in c)
        handle = await t.fake.click(other.user, request, yes)
        await handle.wait_ack(timeout=TIMEOUT)
        await t.fake.wait_for_message(
            lambda m: m.kind == "channel" and f"ttr:{g}:draw" in m.custom_ids,
            since=since,
            timeout=TIMEOUT,
        )
        state = await t.service.loader.game_state(g)
        assert route not in state.owners and await t.active(g) is mover
        assert await t.version(g) == claimed + 1
        edited = t.fake.message_api.message(request.message_id)
        assert TAKEN[lang] in edited.content and not edited.custom_ids
        assert (await verify_storage(t.service.storage))[1] == []
        assert not t.fake.take_violations()


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_one_refusal_keeps_the_claim(tmp_path: Path, lang: str) -> None:
    """The other player refuses: the claim stands and nothing is stored."""
    async with running_table(tmp_path) as t:
        t.fake.guild_locale = lang
        g = await started_game(t)
        _speak(t, lang)
        mover, done, route = await _claim(t, g)
        other = next(p for p in t.players.values() if p is not mover)
        request = await _ask(t, mover, done, lang)
        claimed = await t.version(g)
        no = next(c for c in request.custom_ids if ":undo-no:" in c)
        handle = await t.fake.click(other.user, request, no)
        await handle.wait_ack(timeout=TIMEOUT)
        assert await t.version(g) == claimed
        assert route in (await t.service.loader.game_state(g)).owners
        edited = t.fake.message_api.message(request.message_id)
        assert STANDS[lang] in edited.content and not edited.custom_ids
        assert not t.fake.take_violations()


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_tunnel_cannot_be_taken_back(tmp_path: Path, lang: str) -> None:
    """Nordic: after a tunnel's claim (three cards turned up) /ttr seat take_back is refused by
    the engine, privately, and nothing changes."""
    async with running_table(tmp_path) as t:
        t.fake.guild_locale = lang
        g = await started_game(t, "nordic")
        _speak(t, lang)
        rules = load_ruleset("nordic")
        for _ in range(200):
            state = await t.service.loader.game_state(g)
            seat = state.seats_to_act()[0]
            user = (await t.service.storage.seats.seats(g))[seat].user_id
            assert user is not None
            actions = legal_actions(rules, state, seat)
            tunnels = [
                a
                for a in actions
                if isinstance(a, ClaimRoute) and rules.board.routes[a.route].tunnel
            ]
            action = tunnels[0] if tunnels else actions[0]
            await t.service.play.act(g, user, action, expected_version=None)
            while (state := await t.service.loader.game_state(g)).tunnel is not None:
                answer = legal_actions(rules, state, seat)[0]  # pay (or give up) the tunnel
                await t.service.play.act(g, user, answer, expected_version=None)
            if tunnels:
                break
        else:
            raise AssertionError("no tunnel was claimed")
        mover = next(p for p in t.players.values() if p.user.id == user)
        before = await t.version(g)
        reply = await mover.slash("seat take_back")
        assert reply.ephemeral and CANNOT[lang] in reply.content, reply.summary()
        assert await t.version(g) == before
        assert not t.fake.take_violations()
