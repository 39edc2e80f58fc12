"""End to end: the real bot process (``python -m bot``) against the fake Discord on loopback.

One test plays a whole two-seat USA game (a human and a computer seat) with
slash commands and button clicks to the final score, kills and restarts the
bot mid-game, and checks privacy (hands, tickets and private choices only in
ephemeral replies; no public message before the end names a ticket), that the
public turn messages carry a PNG, and that intruders are refused privately.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from maps.loader import load_ruleset

from ..cogs._driver import (
    PRIVATE_BUTTONS,
    TIMEOUT,
    Player,
    _button,
    _is_final,
    _keep_offered,
    _play_turn,
)
from .fake_discord import BotProcess, FakeDiscord, SentMessage

ROOT = Path(__file__).resolve().parents[2]
MAX_TURNS = 120


@pytest.mark.asyncio
async def test_whole_game_with_restart(tmp_path: Path) -> None:
    """A human plays a USA game against a computer seat to the end, across a bot restart."""
    started = time.monotonic()
    rules = load_ruleset("usa")
    ticket_names = [
        f"{rules.board.cities[t.a].name} – {rules.board.cities[t.b].name} ({t.points})"
        for t in rules.board.tickets.values()
    ]
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        fake.require_private_command("ttr hand", "ttr draw", "ttr claim", "ttr tickets")
        fake.require_private_component(re.compile(PRIVATE_BUTTONS))
        env = {"TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"), "TTR_LOG_LEVEL": "INFO"}
        bot = BotProcess(fake, [sys.executable, "-m", "bot"], env=env, cwd=str(ROOT))
        try:
            await bot.start(timeout=TIMEOUT)
            await fake.wait_for_commands("ttr new", "ttr hand", timeout=TIMEOUT)
            alice = Player(fake, "alice", "games")
            bob = Player(fake, "bob", "games")

            opened = await alice.slash("new", {"map": "usa", "turn_time": "24h"})
            assert opened.ephemeral
            added = await alice.slash("add_ai")
            assert added.ephemeral
            refused = await bob.slash("start")  # only the host starts
            assert refused.ephemeral and "host" in refused.content.lower()
            first_board = fake.expect_message(
                lambda m: m.kind == "channel" and bool(m.attachments), timeout=TIMEOUT
            )
            await alice.slash("start")
            await first_board

            # a non-player gets a private refusal
            intruder = await bob.slash("hand")
            assert intruder.ephemeral and "not in this game" in intruder.content

            # setup: keep the initial tickets from the private hand reply
            hand = await alice.slash("hand")
            assert hand.ephemeral and hand.attachments and hand.attachments[0].is_png
            seen = len(fake.sent)  # the turn message may be posted before the private confirmation
            await _keep_offered(alice, hand)

            turns = 0
            restarted = False
            final: SentMessage | None = None
            mine = re.compile(rf"<@!?{alice.user.id}>")
            while turns < MAX_TURNS:
                message = await fake.wait_for_message(
                    lambda m: (
                        _is_final(m)
                        or (
                            m.kind == "channel"
                            and bool(mine.search(m.content))
                            and bool(m.custom_ids)
                        )
                    ),
                    since=seen,
                    timeout=TIMEOUT,
                )
                seen = len(fake.sent)
                if _is_final(message):
                    final = message
                    break
                assert message.attachments and message.attachments[0].is_png, message.summary()
                turns += 1
                if turns == 2:
                    # intruders: a non-player's click and command change nothing
                    before = len(fake.messages_in("games"))
                    no = await bob.click(message, _button(message, "Draw"))
                    assert no.ephemeral and "not in this game" in no.content
                    no = await bob.slash("draw", {"source": "deck"})
                    assert no.ephemeral and "not in this game" in no.content
                    assert len(fake.messages_in("games")) == before
                if turns == 3 and not restarted:
                    await bot.restart(kill=True, timeout=TIMEOUT)
                    restarted = True
                    again = await alice.click(
                        message, _button(message, "My hand")
                    )  # an old message's button
                    assert again.ephemeral and again.attachments
                    seen = len(fake.sent)
                await _play_turn(alice, message, turns)
            assert final is not None, (
                f"no final message after {turns} turns\n{bot.output()[-3000:]}"
            )
            assert restarted and turns >= 3
            assert final.attachments and final.attachments[0].is_png
            public_before_end = [
                m for m in fake.sent if not m.ephemeral and m.at <= final.at and m is not final
            ]
            for m in public_before_end:
                for name in ticket_names:
                    assert name not in m.text, f"a public message names a ticket: {m.summary()}"
            status = await alice.slash("status")
            assert status.ephemeral
        except BaseException:
            print(bot.output()[-6000:])
            raise
        finally:
            await bot.close()
        print(f"E2E: {turns} human turns, {time.monotonic() - started:.1f} s")
