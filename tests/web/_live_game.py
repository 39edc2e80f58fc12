"""Playing through the live board's move API: the first legal move of a kind, chosen from the
state's ``me.moves`` as a page offers it, and the request that sends it."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient

#: The move a player makes when it has no better idea (the page's own order of kinds).


def first_move(moves: dict[str, Any], *, tickets: bool = False) -> dict[str, Any]:
    """The first legal move of ``moves`` (a state's ``me.moves``): keep every offered ticket,
    pay a tunnel the first way (or give it up), keep no flag card, claim the first claimable
    route paying the first way, else draw tickets when ``tickets``, else a card (deck first)."""
    step = moves["step"]
    if moves["keep"] is not None:
        return {"kind": "keep", "tickets": list(range(len(moves["keep"]["offer"])))}
    if step == "tunnel":
        pays = moves["tunnel"]["payments"]
        return {"kind": "tunnel", "payment": 0 if pays else None}
    if step == "flag":
        return {"kind": "flag", "colour": None}
    if step == "announce_mix" or (tickets and moves["tickets"]):
        return {"kind": "tickets", "draw": 0}
    if moves["claims"]:
        return {"kind": "claim", "route": moves["claims"][0]["index"], "payment": 0}
    if moves["deck"] or not moves["slots"]:
        return {"kind": "draw", "slot": None}
    return {"kind": "draw", "slot": moves["slots"][0]}


async def state(client: TestClient[Any, Any], token: str) -> dict[str, Any]:
    """The state payload of ``token``."""
    response = await client.get(f"/api/b/{token}/state")
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    return body


async def send(
    client: TestClient[Any, Any], token: str, version: int, action: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """POST one move; its status and JSON body."""
    response = await client.post(f"/api/b/{token}/act", json={"version": version, "action": action})
    body: dict[str, Any] = await response.json()
    return response.status, body


async def play_to_end(
    client: TestClient[Any, Any], tokens: list[str], *, limit: int = 600
) -> dict[str, int]:
    """Play the game of ``tokens`` (one private token per seat) to its end from the pages
    alone, each seat making the first legal move of a kind (one ticket draw each early on);
    returns how many moves of each kind landed."""
    made: dict[str, int] = {}
    drew_tickets: set[str] = set()
    for _ in range(limit):
        acted = False
        for token in tokens:
            now = await state(client, token)
            if now["game"]["status"] == "finished":
                return made
            moves = now["me"]["moves"]
            if moves is None:
                continue
            wants = (
                token not in drew_tickets and moves["step"] == "turn" and now["turn"]["round"] > 1
            )
            action = first_move(moves, tickets=wants)
            if action["kind"] == "tickets":
                drew_tickets.add(token)
            status, body = await send(client, token, now["version"], action)
            assert status == 200, (action, body)
            assert body["version"] > now["version"]
            made[action["kind"]] = made.get(action["kind"], 0) + 1
            acted = True
            break
        assert acted, "nobody could move"
    raise AssertionError(f"the game did not end in {limit} moves: {made}")
