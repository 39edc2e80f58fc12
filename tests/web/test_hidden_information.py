"""No payload of the live board tells what the rules hide: a whole 2-player game played through
the service, and at every version every payload a spectator and each player can read is
scanned for the seed, the order of the card deck and of the ticket decks, another seat's
ticket ids and another seat's hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine import GameState, player_view
from maps.loader import load_ruleset
from web import Limits

from ._helpers import (
    BOB,
    HOST,
    Clock,
    board,
    play_one,
    private_token,
    public_token,
    two_player_game,
)
from .test_events import next_event

SEED = 8_765_432_109_876_543
OPEN = Limits(address_rate=1e6, address_burst=1e6, token_rate=1e6, token_burst=1e6)


def secrets_of(state: GameState) -> dict[str, Any]:
    """What no reader may learn at this state: the seed, the decks' order, each seat's tickets
    (kept and offered) and hand."""
    rules = load_ruleset(state.map_id)
    views = [player_view(rules, state, seat) for seat in range(len(state.players))]
    return {
        "seed": str(state.seed),
        "deck": [
            json.dumps(state.deck[-k:], separators=(",", ":"))
            for k in (4, 8)
            if len(state.deck) >= k
        ],
        "ticket_decks": [
            json.dumps(deck[-3:], separators=(",", ":"))
            for deck in state.ticket_decks.values()
            if len(deck) >= 3
        ],
        "tickets": [{t.id for t in v.tickets} | set(v.offer) for v in views],
        "hands": [json.dumps(v.hand, separators=(",", ":")) for v in views],
    }


def leaks(text: str, secrets: dict[str, Any], seat: int | None) -> list[str]:
    """What of ``secrets`` ``text`` (a compact JSON payload) shows to the reader of ``seat``."""
    found = []
    if secrets["seed"] in text:
        found.append("seed")
    found += [f"deck order {d}" for d in secrets["deck"] + secrets["ticket_decks"] if d in text]
    for other, tickets in enumerate(secrets["tickets"]):
        if other == seat:
            continue
        found += [f"ticket {t} of seat {other}" for t in tickets if f'"{t}"' in text]
        hand = secrets["hands"][other]
        if seat is None or hand != secrets["hands"][seat]:
            if f'"hand":{hand}' in text:
                found.append(f"the hand of seat {other}")
    return found


def compact(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


async def test_no_payload_of_a_whole_game_shows_a_hidden_fact(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock, limits=OPEN, seed=SEED) as (service, client, _):
        game = await two_player_game(service)
        readers = {None: public_token(game), 0: private_token(game, HOST, clock.now)}
        readers[1] = private_token(game, BOB, clock.now)
        streams = {
            seat: await client.get(f"/api/b/{token}/events", headers={"Last-Event-ID": "0"})
            for seat, token in readers.items()
        }
        checked = 0
        history: list[dict[str, Any]] = []
        while True:
            row = await service.loader.game(game)
            state = await service.loader.state(row)
            secrets = secrets_of(state)
            history.append(secrets)
            for seat, token in readers.items():
                payload = await (await client.get(f"/api/b/{token}/state")).json()
                assert payload["version"] == state.version
                assert leaks(compact(payload), secrets, seat) == [], (seat, state.version)
                if seat is None:
                    assert payload["me"] is None
                else:
                    own = player_view(load_ruleset("usa"), state, seat)
                    assert payload["me"]["hand"] == own.hand
                    assert {t["id"] for t in payload["me"]["tickets"]} == {
                        t.id for t in own.tickets
                    }
                    # the scan finds what it looks for: this payload, read as the other seat's
                    if own.tickets and secrets["hands"][0] != secrets["hands"][1]:
                        shown = leaks(compact(payload), secrets, 1 - seat)
                        assert f"the hand of seat {seat}" in shown
                        assert f"ticket {own.tickets[0].id} of seat {seat}" in shown
                checked += 1
            if not await play_one(service, game):
                break
        assert state.finished and state.version > 100
        # every event each reader's stream carried, scanned against the secrets of its version
        for seat, stream in streams.items():
            version = 0
            while version < state.version:
                event = await next_event(stream)
                version = int(event["id"])
                secrets = history[min(version, len(history) - 1)]
                assert leaks(compact(event["data"]), secrets, seat) == [], (seat, version)
            stream.close()
        replay = compact(await (await client.get(f"/api/b/{readers[None]}/replay")).json())
        for version, secrets in enumerate(history):
            assert leaks(replay, secrets, None) == [], version
        final = json.loads(replay)["final"]
        assert final is not None and {s["kind"] for s in final["steps"]} >= {"routes", "total"}
        assert checked == 3 * len(history)
