"""No seed, hand, ticket or deck order in any log line, and none in the export of a running game
(issue 12.1).

Whole games run through the service, the storage (both backends' code paths
share it; SQLite here), the clock (timeouts, reminders), resign, vacation,
a quarantined game and the operator tools, with every logger at DEBUG; then
every captured line (message, arguments and traceback text) is searched for
the secrets those games held.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from bot.host.services import GameService
from bot.host.services.ops import export_game, verify_storage
from bot.host.storage import Storage, open_storage
from engine import KeepTickets
from engine.ai import choose_action
from engine.codec import encode_state
from maps.loader import load_ruleset

from .conftest import BOB, CAROL, HOST, FakeClock, lobby

#: Seeds no other number in a log line looks like.
SEEDS = iter(range(7_307_459_260_911_000_001, 7_307_459_260_911_000_100))
CARD_WORDS = re.compile(
    r"\b(red|blue|green|yellow|black|white|orange|pink|purple|locomotive)\b", re.I
)


class Secrets:
    """Everything hidden the games held at any moment: seeds, RNG states, ticket ids, decks."""

    def __init__(self) -> None:
        self.numbers: set[str] = set()
        self.tickets: set[str] = set()
        self.decks: list[list[str]] = []

    def remember(self, state_json: dict[str, object]) -> None:
        for key in ("seed", "rng"):
            if state_json.get(key) is not None:
                self.numbers.add(str(state_json[key]))
        deck = state_json.get("deck")
        if isinstance(deck, list) and len(deck) >= 4:
            self.decks.append([str(c) for c in deck])

    def found_in(self, text: str, *, colours: bool = True) -> list[str]:
        leaks = [n for n in self.numbers if n in text]
        leaks += [t for t in self.tickets if t in text]
        if colours and len(CARD_WORDS.findall(text)) >= 3:
            leaks.append("three or more card colours (a hand or the deck)")
        return leaks


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    out = []
    for record in caplog.records:
        out.append(formatter.format(record))  # message, args and exception text
    return out


async def _play_out(
    service: GameService, storage: Storage, gid: int, secrets: Secrets, *, moves: int
) -> None:
    """Let the humans of ``gid`` play ``moves`` actions with the heuristic AI's choices."""
    rules = load_ruleset((await storage.get_game(gid)).map_id)  # type: ignore[union-attr]
    for _ in range(moves):
        state = await service.game_state(gid)
        secrets.remember(encode_state(state))
        if state.finished:
            return
        seats = await storage.seats(gid)
        humans = [s for s in state.seats_to_act() if not seats[s].is_ai and not seats[s].resigned]
        if not humans:
            await service.run_due(service.clock() + 1)
            continue
        seat = humans[0]
        user = seats[seat].user_id
        assert user is not None
        await service.act(gid, user, choose_action(rules, state, seat), expected_version=None)


async def test_no_secret_in_any_log_line_or_running_export(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("bot", "bot.host.storage", "bot.host.services", "aiosqlite", "asyncio"):
        logging.getLogger(name).setLevel(logging.NOTSET)  # every logger at the root's DEBUG
    secrets = Secrets()
    storage = await open_storage(tmp_path / "ttr.sqlite3", clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: next(SEEDS))
    try:
        for map_id in ("usa", "nordic"):
            secrets.tickets |= set(load_ruleset(map_id).board.tickets)
        # a human game with an AI seat: setup, moves, a timeout, a reminder, vacation, resign
        gid = await lobby(service, users=(HOST, BOB, CAROL), ais=1, channel=1)
        await service.start(gid, HOST)
        state = await service.game_state(gid)
        secrets.remember(encode_state(state))
        for seat in state.seats_to_act():
            user = (await storage.seats(gid))[seat].user_id
            if user is not None:
                offer = state.players[seat].offer
                await service.act(gid, user, KeepTickets(seat, tuple(offer)), expected_version=None)
        await _play_out(service, storage, gid, secrets, moves=12)
        clock.advance(1_900)  # half the turn: a reminder
        await service.run_due()
        clock.advance(3_700)  # the turn is over: the AI plays it
        await service.run_due()
        await service.vacation(gid, BOB, days=2)
        await service.resign(gid, CAROL)
        await _play_out(service, storage, gid, secrets, moves=30)
        running = await export_game(storage, gid)
        # an all-AI game on another map, played to its end
        other = await lobby(service, map_id="nordic", users=(HOST,), ais=2, channel=2)
        await service.start(other, HOST)
        await service.resign(other, HOST)
        secrets.remember(encode_state(await service.game_state(other)))
        # a damaged game is quarantined with one line that names only the problem
        broken = await lobby(service, users=(HOST, BOB), channel=3)
        await service.start(broken, HOST)
        conn = __import__("sqlite3").connect(tmp_path / "ttr.sqlite3")
        conn.execute("UPDATE snapshots SET data = x'00' WHERE game_id = ?", (broken,))
        conn.commit()
        conn.close()
        service._states.clear()
        clock.advance(10_000)
        await service.run_due()
        await verify_storage(storage)
        finished = await export_game(storage, other)
    finally:
        await service.close()
        await storage.close()

    assert finished is not None and finished["complete"] and "seed" in finished["game"]
    assert (await _final_status(tmp_path, other)) == "finished"
    lines = _lines(caplog)
    assert len(lines) > 50, "the games were logged"
    assert any("quarantined" in line for line in lines)
    leaks = {line: found for line in lines if (found := secrets.found_in(line))}
    assert not leaks, leaks
    assert running is not None and not running["complete"]
    text = json.dumps(running)
    assert "seed" not in running["game"] and "snapshot" not in running
    # public moves name colours (payments, face-up cards): only ids and numbers are secret here
    assert not secrets.found_in(text, colours=False), secrets.found_in(text, colours=False)[:5]
    assert any(a["action"].get("type") == "keep_tickets" for a in running["actions"])


async def _final_status(tmp_path: Path, game_id: int) -> str:
    async with await open_storage(tmp_path / "ttr.sqlite3") as storage:
        game = await storage.get_game(game_id)
        assert game is not None
        return game.status
