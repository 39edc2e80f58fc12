"""Substitutes through the service: a seat given to a member or offered by the host after
timeouts changes its Discord user in one write, the engine's seat (hand, tickets) moves with
it, the offer is checked again on acceptance (who, until when, the seat unchanged), the log
keeps the change, the game replays, and the result goes to whoever holds the seat at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.services import OFFER_SECONDS, GameService, ServiceError, replay_game
from bot.host.services._clock import MAX_EXPIRIES
from bot.host.services.ops import verify_storage
from bot.host.storage import Storage, open_storage

from .conftest import BOB, CAROL, HOST, STRANGER, FakeClock, lobby, play_for


async def _started(service: GameService, storage: Storage) -> int:
    """A USA game of HOST and BOB, tickets kept and a few moves made."""
    gid = await lobby(service)
    await service.lobby.start(gid, HOST)
    for _ in range(4):
        seat = (await service.loader.game_state(gid)).seats_to_act()[0]
        user = (await storage.seats.seats(gid))[seat].user_id
        assert user is not None
        await play_for(service, storage, gid, user)
    return gid


async def test_a_given_seat_moves_with_its_hand_and_tickets(
    service: GameService, storage: Storage
) -> None:
    """BOB gives his seat to CAROL: nothing changes until she accepts; then the seat (its hand
    and tickets) is hers, BOB reads no hand and may not move, the game version is unchanged
    and the handover is recorded at it; the game still replays and verifies."""
    gid = await _started(service, storage)
    before = await service.queries.table(gid, BOB)
    assert before.mine is not None and before.seat is not None
    offer = await service.seats.give(gid, BOB, CAROL)
    assert (offer.seat, offer.from_user_id, offer.to_user_id) == (before.seat, BOB, CAROL)
    assert (await service.queries.table(gid, CAROL)).mine is None  # not hers yet

    game, handover = await service.seats.accept(offer, CAROL, "Carol")
    after = await service.queries.table(gid, CAROL)
    assert after.seat == before.seat and after.mine is not None
    assert after.mine.hand == before.mine.hand and after.mine.tickets == before.mine.tickets
    assert (await service.queries.table(gid, BOB)).mine is None
    assert after.game.version == game.version == before.game.version
    assert (handover.version, handover.reason) == (game.version, "handed")
    assert await service.seats.handovers(gid) == [handover]
    seat = (await storage.seats.seats(gid))[before.seat]
    assert (seat.user_id, seat.display_name) == (CAROL, "Carol")
    with pytest.raises(ServiceError) as refused:
        await service.seats.give(gid, BOB, STRANGER)
    assert refused.value.code == "not_in_game"
    state = await service.loader.game_state(gid)
    game_row = await storage.games.get_game(gid)
    assert game_row is not None
    assert await replay_game(storage, game_row) == state
    assert (await verify_storage(storage))[1] == []


@pytest.mark.parametrize(
    ("who", "code"),
    [(HOST, "not_your_button"), (CAROL, "seat_offer_expired")],
)
async def test_an_offer_is_for_its_member_and_expires(
    service: GameService, storage: Storage, clock: FakeClock, who: int, code: str
) -> None:
    """Only the member named may accept, and only in time; a refused acceptance changes nothing."""
    gid = await _started(service, storage)
    offer = await service.seats.give(gid, BOB, CAROL)
    clock.advance(OFFER_SECONDS + 1)
    with pytest.raises(ServiceError) as refused:
        await service.seats.accept(offer, who, "x")
    assert refused.value.code == code
    assert {s.user_id for s in await storage.seats.seats(gid)} == {HOST, BOB}
    assert await service.seats.handovers(gid) == []


async def test_an_offer_is_checked_again_when_accepted(
    service: GameService, storage: Storage
) -> None:
    """The seat was given to someone else meanwhile: the older offer is stale. A member who
    already plays, or the holder, cannot be offered the seat."""
    gid = await _started(service, storage)
    first = await service.seats.give(gid, BOB, CAROL)
    second = await service.seats.give(gid, BOB, STRANGER)
    await service.seats.accept(second, STRANGER, "S")
    with pytest.raises(ServiceError) as refused:
        await service.seats.accept(first, CAROL, "C")
    assert refused.value.code == "seat_offer_stale"
    for member, code in ((HOST, "substitute_seated"), (STRANGER, "substitute_self")):
        with pytest.raises(ServiceError) as refused:
            await service.seats.give(gid, STRANGER, member)
        assert refused.value.code == code


async def test_the_host_offers_a_seat_lost_to_timeouts(
    service: GameService, storage: Storage
) -> None:
    """A seat the computer plays after MAX_EXPIRIES timeouts: only the host may offer it, only
    such a seat; the member who takes it plays it as a human again (no streak, no computer)."""
    gid = await _started(service, storage)
    bob_seat = next(s.seat for s in await storage.seats.seats(gid) if s.user_id == BOB)
    with pytest.raises(ServiceError) as refused:
        await service.seats.offer_timed_out(gid, HOST, bob_seat, CAROL)
    assert refused.value.code == "seat_not_timed_out"
    await storage.seats.update_seat(gid, bob_seat, expiries_in_row=MAX_EXPIRIES, ai_permanent=True)
    with pytest.raises(ServiceError) as refused:
        await service.seats.offer_timed_out(gid, BOB, bob_seat, CAROL)
    assert refused.value.code == "not_host"
    with pytest.raises(ServiceError) as refused:
        await service.seats.offer_timed_out(gid, HOST, 7, CAROL)
    assert refused.value.code == "no_such_seat"
    offer = await service.seats.offer_timed_out(gid, HOST, bob_seat, CAROL)
    assert (offer.from_user_id, offer.reason) == (BOB, "timeout")
    _, handover = await service.seats.accept(offer, CAROL, "Carol")
    seat = (await storage.seats.seats(gid))[bob_seat]
    assert (seat.user_id, seat.ai_permanent, seat.expiries_in_row) == (CAROL, False, 0)
    assert handover.reason == "timeout" and handover.from_user_id == BOB


async def test_the_result_goes_to_whoever_holds_the_seat_at_the_end(
    service: GameService, storage: Storage
) -> None:
    """BOB hands over to CAROL, who plays to the end: the results name CAROL, not BOB."""
    gid = await _started(service, storage)
    offer = await service.seats.give(gid, BOB, CAROL)
    await service.seats.accept(offer, CAROL, "Carol")
    while (await service.loader.game_state(gid)).result is None:
        seat = (await service.loader.game_state(gid)).seats_to_act()[0]
        user = (await storage.seats.seats(gid))[seat].user_id
        assert user is not None
        await play_for(service, storage, gid, user)
    results = await storage.results.results(gid)
    assert {r.user_id for r in results} == {HOST, CAROL}


async def test_a_copy_of_the_game_keeps_its_handovers(
    service: GameService, storage: Storage, tmp_path: Path
) -> None:
    """``python -m bot migrate`` copies a game whole: its handovers come along, in order."""
    gid = await _started(service, storage)
    await service.seats.accept(await service.seats.give(gid, BOB, CAROL), CAROL, "Carol")
    await service.seats.accept(await service.seats.give(gid, CAROL, STRANGER), STRANGER, "S")
    dump = await storage.copies.dump_game(gid)
    assert dump is not None and len(dump.handovers) == 2
    async with await open_storage(tmp_path / "copy.sqlite3") as copy:
        await copy.copies.restore_game(dump)
        assert await copy.handovers.handovers(gid) == await storage.handovers.handovers(gid)
