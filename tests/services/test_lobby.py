"""The lobby through GameService: one game per channel, seats, the host's rights, start."""

from __future__ import annotations

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.storage import Storage

from .conftest import BOB, CAROL, HOST, STRANGER, lobby, state_of


async def test_create_seats_the_host_and_stores_the_options(
    service: GameService, storage: Storage
) -> None:
    """The host holds seat 0; map options are resolved and stored; the turn time is kept."""
    game = await service.create(
        guild_id=1,
        channel_id=7,
        host_id=HOST,
        host_name="Host",
        map_id="germany",
        options={"tickets": "2017"},
        turn_seconds=600,
    )
    assert game.status == "lobby" and game.turn_seconds == 600 and game.options["tickets"] == "2017"
    seats = await storage.seats(game.id)
    assert [(s.seat, s.user_id, s.display_name) for s in seats] == [(0, HOST, "Host")]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"map_id": "atlantis"}, "unknown_map"),
        ({"map_id": "germany", "options": {"tickets": "1999"}}, "bad_option"),
        ({"map_id": "usa", "turn_seconds": 0}, "bad_turn_time"),
    ],
)
async def test_create_refusals(
    service: GameService, storage: Storage, kwargs: dict, code: str
) -> None:
    """Unknown maps, options and turn times are refused with their codes; no game is stored."""
    base = {"guild_id": 1, "channel_id": 7, "host_id": HOST, "host_name": "Host", "map_id": "usa"}
    with pytest.raises(ServiceError) as err:
        await service.create(**{**base, **kwargs})
    assert err.value.code == code
    assert await storage.list_games() == []


async def test_second_game_in_a_channel_is_refused(service: GameService) -> None:
    """One open game per channel; after a cancel the channel is free again."""
    gid = await lobby(service, channel=9)
    with pytest.raises(ServiceError) as err:
        await lobby(service, users=(CAROL,), channel=9)
    assert err.value.code == "channel_busy"
    assert (await service.game_in_channel(9)).id == gid
    await service.cancel(gid, HOST)
    assert await service.game_in_channel(9) is None
    assert await lobby(service, users=(CAROL,), channel=9) != gid


async def test_join_leave_and_their_refusals(service: GameService, storage: Storage) -> None:
    """Join twice, leave when not seated, the host leaving: each a typed refusal."""
    gid = await lobby(service, users=(HOST,))
    await service.join(gid, BOB, "Bob")
    with pytest.raises(ServiceError, match="already_joined"):
        await service.join(gid, BOB, "Bob")
    with pytest.raises(ServiceError, match="not_in_game"):
        await service.leave(gid, CAROL)
    with pytest.raises(ServiceError, match="host_cannot_leave"):
        await service.leave(gid, HOST)
    await service.leave(gid, BOB)
    assert [s.user_id for s in await storage.seats(gid)] == [HOST]
    with pytest.raises(ServiceError, match="game_not_found"):
        await service.join(4242, BOB, "Bob")


async def test_lobby_is_full_at_the_maps_maximum(service: GameService) -> None:
    """Nordic seats at most 3: a fourth player or AI is refused."""
    gid = await lobby(service, map_id="nordic", users=(HOST, BOB), ais=1)
    with pytest.raises(ServiceError) as err:
        await service.join(gid, CAROL, "Carol")
    assert (err.value.code, err.value.detail) == ("game_full", {"max": 3})
    with pytest.raises(ServiceError, match="game_full"):
        await service.add_ai(gid, HOST)


async def test_only_the_host_adds_ai_and_starts(service: GameService) -> None:
    """Other players get not_host."""
    gid = await lobby(service)
    for call in (service.add_ai(gid, BOB), service.start(gid, BOB)):
        with pytest.raises(ServiceError, match="not_host"):
            await call


async def test_start_needs_enough_players(service: GameService, storage: Storage) -> None:
    """A host alone cannot start (min 2); the game stays in the lobby."""
    gid = await lobby(service, users=(HOST,))
    with pytest.raises(ServiceError) as err:
        await service.start(gid, HOST)
    assert err.value.code == "not_enough_players" and err.value.detail["min"] == 2
    assert (await storage.get_game(gid)).status == "lobby"


async def test_start_renumbers_seats_after_a_leave(service: GameService, storage: Storage) -> None:
    """Seats with a gap (seat 1 left) become 0..n-1 in seat order, and the engine deals to each."""
    gid = await lobby(service, users=(HOST, BOB, CAROL, 404))
    await service.leave(gid, BOB)
    assert [s.seat for s in await storage.seats(gid)] == [0, 2, 3]
    outcome = await service.start(gid, HOST)
    seats = await storage.seats(gid)
    assert [(s.seat, s.user_id) for s in seats] == [(0, HOST), (1, CAROL), (2, 404)]
    st = await state_of(storage, gid)
    assert st.num_seats == 3 and set(outcome.to_act) == {0, 1, 2}


async def test_ai_seats_choose_their_tickets_at_start(
    service: GameService, storage: Storage
) -> None:
    """At start the AI seat keeps its tickets at once; the humans are still choosing."""
    gid = await lobby(service, users=(HOST, BOB), ais=1)
    outcome = await service.start(gid, HOST)
    st = await state_of(storage, gid)
    assert set(outcome.to_act) == {0, 1} and outcome.actions == 1
    assert st.players[2].offer == [] and len(st.players[2].tickets) >= 2
    actions = await storage.actions(gid)
    assert [(a.seat, a.source) for a in actions] == [(2, "ai")]


async def test_start_twice_and_join_after_start(service: GameService) -> None:
    """A started game refuses start, join and add_ai with already_started."""
    gid = await lobby(service)
    await service.start(gid, HOST)
    for call in (
        service.start(gid, HOST),
        service.join(gid, CAROL, "C"),
        service.add_ai(gid, HOST),
    ):
        with pytest.raises(ServiceError, match="already_started"):
            await call


async def test_cancel_rights(service: GameService, storage: Storage) -> None:
    """A stranger cannot cancel; a moderator (Manage Channels) can; cancelling twice says game_over."""
    gid = await lobby(service)
    await service.start(gid, HOST)
    with pytest.raises(ServiceError, match="not_allowed"):
        await service.cancel(gid, STRANGER)
    game = await service.cancel(gid, STRANGER, moderator=True)
    assert game.status == "cancelled" and game.deadline_at is None
    with pytest.raises(ServiceError, match="game_over"):
        await service.cancel(gid, HOST)
