"""No private text in any log line, at DEBUG too (issue 28 point 1).

The real bot process (``python -m bot``, ``TTR_LOG_LEVEL=DEBUG``) plays the setup and two
whole turns through the fake Discord: both players open their hands, keep their tickets
and draw. Then every line it printed is searched, for every state the game went through,
for every seat's tickets (kept and offered, by id and as shown), hand (every colour with
its count on one line), the deck's order (its top six cards in a row) and the seed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bot.host.storage import open_storage
from engine import GameState, apply, new_game
from engine.codec import decode_action
from maps import load_ruleset
from words import words_for

from ..e2e.fake_discord import BotProcess, FakeDiscord
from ._driver import TIMEOUT, Player, _keep_offered

ROOT = Path(__file__).resolve().parents[2]


async def _states(db: Path) -> tuple[int, list[GameState]]:
    """The game's seed and every state from the deal to now (replayed from its log)."""
    storage = await open_storage(db)
    try:
        game = await storage.get_game(1)
        assert game is not None and game.seed is not None
        seats = len(await storage.seats(1))
        rules = load_ruleset(game.map_id)
        state = new_game(rules, seats=seats, seed=game.seed, options=game.options)
        states = [state]
        for row in await storage.actions(1):
            state = apply(rules, state, decode_action(row.action)).state
            states.append(state)
        return game.seed, states
    finally:
        await storage.close()


def _secrets(seed: int, states: list[GameState]) -> dict[str, re.Pattern[str]]:
    """What must never be logged -> a pattern that finds it in a line."""
    rules = load_ruleset("usa")
    names = {
        c: {c, words_for("de").color(c), words_for("en").color(c)} for c in rules.params.colors
    }
    names["locomotive"] = {"locomotive", "Lokomotive", "loco"}
    found: dict[str, re.Pattern[str]] = {"seed": re.compile(rf"(?<![0-9]){seed}(?![0-9])")}
    for state in states:
        for p in state.players:
            for tid in (*p.tickets, *p.offer):
                t = rules.board.tickets[tid]
                a, b = rules.board.cities[t.a].name, rules.board.cities[t.b].name
                found[f"ticket {tid}"] = re.compile(
                    rf"{re.escape(tid)}|{re.escape(a)}\W{{1,5}}{re.escape(b)}\W{{1,3}}\({t.points}\)"
                )
            held = [(c, n) for c, n in p.hand.items() if n]
            if len(held) >= 3:
                parts = []
                for c, n in held:
                    alt = "|".join(re.escape(x) for x in sorted(names.get(c, {c})))
                    parts.append(
                        rf"(?=.*(?:(?<![0-9]){n}\D{{0,4}}(?:{alt})|(?:{alt})\W{{0,4}}{n}(?![0-9])))"
                    )
                found[f"hand of seat {p.seat} {dict(held)}"] = re.compile("".join(parts), re.I)
        top = list(reversed(state.deck[-6:]))
        if len(top) == 6:
            order = r"\W{1,6}".join(re.escape(c) for c in top)
            found[f"deck order {top}"] = re.compile(order)
    return found


async def _active(fake: FakeDiscord, players: dict[int, Player]) -> Player:
    """The player the newest turn message names as the one to move."""
    turn = [m for m in fake.messages_in("games") if "it is your turn" in m.content][-1]
    mention = re.search(r"<@!?([0-9]+)>, it is your turn", turn.content)
    assert mention is not None, turn.content
    return players[int(mention.group(1))]


async def test_no_private_text_in_any_log_line_at_debug(tmp_path: Path) -> None:
    db = tmp_path / "ttr.sqlite3"
    async with FakeDiscord(member_names=("alice", "bob")) as fake:
        env = {"TTR_DATABASE_PATH": str(db), "TTR_LOG_LEVEL": "DEBUG"}
        bot = BotProcess(fake, [sys.executable, "-m", "bot"], env=env, cwd=str(ROOT))
        try:
            await bot.start(timeout=TIMEOUT)
            await fake.wait_for_commands("ttr new", "ttr hand", timeout=TIMEOUT)
            alice, bob = Player(fake, "alice", "games"), Player(fake, "bob", "games")
            players = {alice.user.id: alice, bob.user.id: bob}
            await alice.slash("new", {"map": "usa"})
            await bob.slash("join")
            await alice.slash("start")
            for p in (alice, bob):  # the setup: see the offered tickets, keep them
                await _keep_offered(p, await p.slash("hand"))
            for _ in range(2):  # two whole turns, each player looking at the hand first
                mover = await _active(fake, players)
                hand = await mover.slash("hand")
                assert hand.ephemeral and "Your hand" in hand.content
                first = await mover.slash("draw", {"source": "deck"})
                assert "You drew" in first.content, first.summary()
                await mover.slash("draw", {"source": "deck"})
            await bot.terminate()
            output = bot.output()
        finally:
            await bot.close()
    seed, states = await _states(db)
    assert len(states) >= 6, len(states)  # two keeps and four draws
    lines = output.splitlines()
    assert any(" DEBUG " in line and " discord." in line for line in lines), output[-2000:]
    assert any("INTERACTION_CREATE" in line for line in lines)  # gateway events are told, by type
    leaks = [
        f"{what}: {line[:200]}"
        for what, pattern in _secrets(seed, states).items()
        for line in lines
        if pattern.search(line)
    ]
    assert not leaks, "\n".join(leaks[:10])
