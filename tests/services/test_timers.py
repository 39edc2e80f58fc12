"""The turn clock: reminders at half time, the AI plays a late turn, 3 in a row lose the seat, vacation."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.services import GameService, Outcome, Reminder, ServiceError
from bot.host.storage import Storage, open_storage
from engine import KeepTickets

from .conftest import BOB, HOST, FakeClock, lobby, play_for, state_of

HOUR = 3600


async def _two_humans_in_play(service: GameService, storage: Storage) -> int:
    gid = await lobby(service, turn_seconds=HOUR)
    await service.start(gid, HOST)
    for user in (HOST, BOB):
        st = await state_of(storage, gid)
        seat = next(s.seat for s in await storage.seats(gid) if s.user_id == user)
        await service.act(
            gid, user, KeepTickets(seat, tuple(st.players[seat].offer)), expected_version=None
        )
    return gid


async def test_turn_gets_deadline_and_reminder_at_half_time(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """A human turn: deadline now + turn time, reminder at half; the reminder fires once, to the active player."""
    gid = await _two_humans_in_play(service, storage)
    game = await storage.get_game(gid)
    assert game.deadline_at == clock.now + HOUR and game.reminder_at == clock.now + HOUR / 2
    reminders: list[Reminder] = []

    async def on_reminder(r: Reminder) -> None:
        reminders.append(r)

    service.on_reminder = on_reminder
    clock.advance(HOUR / 2 - 1)
    assert await service.run_due() == []
    clock.advance(2)
    done = await service.run_due()
    st = await state_of(storage, gid)
    assert len(done) == 1 and reminders == done
    assert [s.seat for s in reminders[0].seats] == [st.active]
    assert (await storage.get_game(gid)).reminder_at is None
    assert await service.run_due() == []


async def test_timeout_plays_the_turn_and_the_player_keeps_the_seat(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """At expiry the AI plays the late seat's whole turn (source timeout); the player may act next turn."""
    gid = await _two_humans_in_play(service, storage)
    st = await state_of(storage, gid)
    late = st.active
    turns: list[Outcome] = []

    async def on_turn(game_id: int, outcome: Outcome) -> None:
        turns.append(outcome)

    service.on_turn = on_turn
    clock.advance(HOUR + 1)
    done = await service.run_due()
    after = await state_of(storage, gid)
    assert len(done) == 1 and turns == done and done[0].turn_ended
    assert after.turn == st.turn + 1 and after.active != late
    rows = await storage.actions(gid, after_seq=st.version)
    assert rows and {(r.seat, r.source) for r in rows} == {(late, "timeout")}
    seat = (await storage.seats(gid))[late]
    assert seat.expiries_in_row == 1 and not seat.ai_permanent
    game = await storage.get_game(gid)
    assert game.deadline_at == clock.now + HOUR


async def test_three_timeouts_in_a_row_give_the_seat_to_the_ai(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """BOB never plays: after his third expiry in a row the AI keeps his seat and the clock waits only for HOST."""
    gid = await _two_humans_in_play(service, storage)
    bob = 1
    expiries = 0
    for _ in range(40):
        st = await state_of(storage, gid)
        if st.active == bob:
            clock.advance(HOUR + 1)
            await service.run_due()
            expiries += 1
        else:
            await play_for(service, storage, gid, HOST)
        seat = (await storage.seats(gid))[bob]
        if seat.ai_permanent:
            break
    assert expiries == 3 and seat.expiries_in_row == 3
    # from now on BOB's turns are played at once, inside HOST's act
    st = await state_of(storage, gid)
    assert st.active == 0
    out = await play_for(service, storage, gid, HOST)
    while 0 not in out.to_act:
        out = await play_for(service, storage, gid, HOST)
    assert (await state_of(storage, gid)).active == 0
    with pytest.raises(ServiceError, match="is_ai"):
        await service.vacation(gid, BOB, days=1)


async def test_acting_resets_the_timeout_streak(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """One expiry, then the player acts himself: the streak is back to 0."""
    gid = await _two_humans_in_play(service, storage)
    st = await state_of(storage, gid)
    late = st.active
    clock.advance(HOUR + 1)
    await service.run_due()
    users = {s.seat: s.user_id for s in await storage.seats(gid)}
    while (await state_of(storage, gid)).active != late:
        await play_for(service, storage, gid, users[(await state_of(storage, gid)).active])
    await play_for(service, storage, gid, users[late])
    assert (await storage.seats(gid))[late].expiries_in_row == 0


async def test_vacation_moves_the_deadline_and_has_a_limit(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """2 days of vacation push a running turn by 2 days; 6 more exceed the 7 per game; 0 or 8 is refused."""
    gid = await _two_humans_in_play(service, storage)
    st = await state_of(storage, gid)
    user = (await storage.seats(gid))[st.active].user_id
    deadline = (await storage.get_game(gid)).deadline_at
    await service.vacation(gid, user, days=2)
    assert (await storage.get_game(gid)).deadline_at == deadline + 2 * 86_400
    clock.advance(HOUR + 1)
    assert await service.run_due() == []
    for bad in (0, 8):
        with pytest.raises(ServiceError, match="bad_days"):
            await service.vacation(gid, user, days=bad)
    with pytest.raises(ServiceError) as err:
        await service.vacation(gid, user, days=6)
    assert err.value.code == "vacation_limit" and err.value.detail == {"left": 5}


async def test_acting_ends_a_vacation_and_refunds_unused_days(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """Vacation 3 days, act after 1 hour: almost 3 days are given back."""
    gid = await _two_humans_in_play(service, storage)
    st = await state_of(storage, gid)
    user = (await storage.seats(gid))[st.active].user_id
    await service.vacation(gid, user, days=3)
    clock.advance(HOUR)
    await play_for(service, storage, gid, user)
    seat = (await storage.seats(gid))[st.active]
    assert seat.vacation_until is None and seat.vacation_used_s == pytest.approx(HOUR)


async def test_timers_survive_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    """A deadline set by one service process is honoured by a new one over the same file."""
    path = tmp_path / "ttr.sqlite3"
    storage = await open_storage(path, clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 5)
    gid = await _two_humans_in_play(service, storage)
    before = await state_of(storage, gid)
    await storage.close()

    clock.advance(HOUR + 5)
    storage = await open_storage(path, clock=clock)
    try:
        fresh = GameService(storage, clock=clock)
        done = await fresh.run_due()
        assert len(done) == 1 and isinstance(done[0], Outcome)
        assert (await state_of(storage, gid)).turn == before.turn + 1
    finally:
        await storage.close()


async def test_ai_moves_interrupted_by_a_crash_are_resumed(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A service without auto AI stops where the AI must act: the stored timer is due now, and the
    timer loop of the next process plays the AI seats until the human must act."""
    path = tmp_path / "ttr.sqlite3"
    storage = await open_storage(path, clock=clock)
    halted = GameService(storage, clock=clock, seed_source=lambda: 3, auto_ai=False)
    gid = await lobby(halted, users=(HOST,), ais=3)
    await halted.start(gid, HOST)
    game = await storage.get_game(gid)
    assert game.version == 0 and game.deadline_at == clock.now
    await storage.close()

    storage = await open_storage(path, clock=clock)
    try:
        service = GameService(storage, clock=clock)
        done = await service.run_due()
        st = await state_of(storage, gid)
        assert done and st.seats_to_act() == [0] and all(not p.offer for p in st.players[1:])
        game = await storage.get_game(gid)
        assert game.deadline_at == clock.now + 3600
    finally:
        await storage.close()


async def test_timer_loop_runs_in_the_background(service: GameService, storage: Storage) -> None:
    """start_timers() wakes for a due timer on its own; close() stops it."""
    import asyncio

    halted = GameService(storage, clock=service.clock, seed_source=lambda: 3, auto_ai=False)
    gid = await lobby(halted, users=(HOST,), ais=2)
    await halted.start(gid, HOST)
    service.start_timers()
    try:
        for _ in range(200):
            await asyncio.sleep(0.02)
            st = await state_of(storage, gid)
            if st.seats_to_act() == [0] and all(not p.offer for p in st.players[1:]):
                break
        assert st.seats_to_act() == [0] and all(not p.offer for p in st.players[1:])
    finally:
        await service.close()
