"""Undo by consent through the service: the request asks every other person (not computer
seats), the approvals are counted (two at the same moment too), the last one takes the move
back as a stored action, a
stale request is refused by the engine, and ``python -m bot verify`` passes on a database
with moves taken back."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.storage import Storage
from engine import ClaimRoute, DrawBlind, IllegalAction, legal_actions
from maps import load_ruleset

from .conftest import BOB, CAROL, HOST, lobby

ROOT = Path(__file__).resolve().parents[2]


async def _claimed(service: GameService, storage: Storage, users: tuple[int, ...]) -> int:
    """A USA game of ``users``: everyone draws from the deck until HOST can claim; HOST claims."""
    gid = await lobby(service, users=users)
    await service.lobby.start(gid, HOST)
    rules = load_ruleset("usa")
    for _ in range(300):
        state = await service.loader.game_state(gid)
        seat = state.seats_to_act()[0]
        user = (await storage.seats.seats(gid))[seat].user_id
        assert user is not None
        actions = legal_actions(rules, state, seat)
        claims = [a for a in actions if isinstance(a, ClaimRoute)] if user == HOST else []
        blind = [a for a in actions if isinstance(a, DrawBlind)]
        action = claims[0] if claims else blind[0] if blind else actions[0]
        await service.play.act(gid, user, action, expected_version=None)
        if claims:
            return gid
    raise AssertionError("HOST never claimed")


async def test_every_other_person_must_approve(service: GameService, storage: Storage) -> None:
    """Three people: HOST asks; BOB's approval alone changes nothing; CAROL's takes the move
    back (one action more, HOST to move again); the same request cannot be used twice."""
    gid = await _claimed(service, storage, (HOST, BOB, CAROL))
    claimed = (await service.loader.game_state(gid)).version
    assert await service.undo.may_ask(gid, HOST) and not await service.undo.may_ask(gid, BOB)
    request = await service.undo.ask(gid, HOST, expected_version=claimed)
    assert set(request.voter_users) == {BOB, CAROL} and not request.agreed
    with pytest.raises(ServiceError) as refused:
        await service.undo.approve(gid, claimed, request.seat, frozenset(), HOST)
    assert refused.value.code == "not_your_button"
    half, outcome = await service.undo.approve(gid, claimed, request.seat, frozenset(), BOB)
    assert outcome is None and not half.agreed
    assert (await service.loader.game_state(gid)).version == claimed
    done, outcome = await service.undo.approve(gid, claimed, request.seat, half.approved, CAROL)
    assert done.agreed and outcome is not None
    state = await service.loader.game_state(gid)
    assert state.version == claimed + 1 and state.active == request.seat
    assert not state.players[request.seat].routes
    with pytest.raises(IllegalAction) as stale:
        await service.undo.approve(gid, claimed, request.seat, half.approved, CAROL)
    assert stale.value.code == "cannot_undo"


async def test_two_approvals_at_the_same_moment_both_count(
    service: GameService, storage: Storage
) -> None:
    """BOB and CAROL click Approve at once on the same request message, whose buttons carry
    neither approval: the later click counts the earlier one, so the move is taken back
    once, by one of the two clicks."""
    gid = await _claimed(service, storage, (HOST, BOB, CAROL))
    claimed = (await service.loader.game_state(gid)).version
    request = await service.undo.ask(gid, HOST, expected_version=claimed)
    results = await asyncio.gather(
        service.undo.approve(gid, claimed, request.seat, frozenset(), BOB),
        service.undo.approve(gid, claimed, request.seat, frozenset(), CAROL),
    )
    outcomes = [outcome for _, outcome in results if outcome is not None]
    assert len(outcomes) == 1 and results[-1][0].agreed
    state = await service.loader.game_state(gid)
    assert state.version == claimed + 1 and not state.players[request.seat].routes


async def test_a_refusal_forgets_the_approvals(service: GameService, storage: Storage) -> None:
    """After CAROL refuses, her approving the same request again starts from what the button
    carries (nothing): BOB's earlier approval is not counted, the move stays."""
    gid = await _claimed(service, storage, (HOST, BOB, CAROL))
    claimed = (await service.loader.game_state(gid)).version
    request = await service.undo.ask(gid, HOST, expected_version=claimed)
    half, _ = await service.undo.approve(gid, claimed, request.seat, frozenset(), BOB)
    assert half.approved == {request.voters[request.voter_users.index(BOB)]}
    await service.undo.refuse(gid, claimed, request.seat, CAROL)
    again, outcome = await service.undo.approve(gid, claimed, request.seat, frozenset(), CAROL)
    assert outcome is None and not again.agreed
    assert (await service.loader.game_state(gid)).version == claimed


async def test_a_request_made_before_the_next_move_is_refused_after_it(
    service: GameService, storage: Storage
) -> None:
    """BOB moved on: the engine refuses the older request, and asking anew too."""
    gid = await _claimed(service, storage, (HOST, BOB))
    claimed = (await service.loader.game_state(gid)).version
    request = await service.undo.ask(gid, HOST, expected_version=claimed)
    state = await service.loader.game_state(gid)
    rules = load_ruleset("usa")
    await service.play.act(gid, BOB, legal_actions(rules, state, 1)[0], expected_version=None)
    for attempt in (
        service.undo.approve(gid, claimed, request.seat, frozenset(), BOB),
        service.undo.ask(gid, HOST, expected_version=claimed + 1),
    ):
        with pytest.raises(IllegalAction) as refused:
            await attempt
        assert refused.value.code == "cannot_undo"


async def test_verify_passes_on_a_database_with_moves_taken_back(tmp_path: Path) -> None:
    """``python -m bot verify`` replays the log with the claim and its undo."""
    from bot.host.storage import open_storage

    db = tmp_path / "ttr.sqlite3"
    storage = await open_storage(db)
    service = GameService(storage, seed_source=lambda: 11)
    try:
        gid = await _claimed(service, storage, (HOST, BOB))
        claimed = (await service.loader.game_state(gid)).version
        request = await service.undo.ask(gid, HOST, expected_version=claimed)
        await service.undo.approve(gid, claimed, request.seat, frozenset(), BOB)
        assert (await service.loader.game_state(gid)).version == claimed + 1
    finally:
        await service.close()
        await storage.close()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--db", str(db)],
        cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
