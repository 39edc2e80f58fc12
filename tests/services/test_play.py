"""Playing through GameService: typed refusals that change nothing, AI seats, the end and its statistics."""

from __future__ import annotations

import json

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.storage import Storage
from engine import (
    BuildStation,
    Cards,
    DrawBlind,
    IllegalAction,
    KeepTickets,
    legal_actions,
)
from engine.ai import choose_action
from engine.codec import encode_action, encode_state
from maps import load_ruleset

from .conftest import BOB, HOST, STRANGER, lobby, play_for, state_of


async def _dump(storage: Storage, gid: int) -> tuple:
    game = await storage.get_game(gid)
    return (
        game.version,
        json.dumps(encode_state(await state_of(storage, gid)), sort_keys=True),
        len(await storage.actions(gid)),
        game.deadline_at,
        [s for s in await storage.seats(gid)],
    )


async def _in_play(service: GameService, storage: Storage, **kw) -> int:
    gid = await lobby(service, **kw)
    await service.start(gid, HOST)
    while (await state_of(storage, gid)).phase == "setup":
        st = await state_of(storage, gid)
        seat = st.seats_to_act()[0]
        user = (await storage.seats(gid))[seat].user_id
        await service.act(
            gid, user, KeepTickets(seat, tuple(st.players[seat].offer)), expected_version=None
        )
    return gid


async def test_bad_input_gets_a_typed_error_and_changes_nothing(
    service: GameService, storage: Storage
) -> None:
    """Unknown game, not a player, not your turn, stale version, malformed action, illegal move."""
    gid = await _in_play(service, storage)
    st = await state_of(storage, gid)
    active = st.active
    users = [s.user_id for s in await storage.seats(gid)]
    mover, idle = users[active], users[1 - active]
    before = await _dump(storage, gid)
    cases = [
        (service.act(4242, mover, DrawBlind(active), expected_version=None), "game_not_found"),
        (service.act(gid, STRANGER, DrawBlind(active), expected_version=None), "not_in_game"),
        (service.act(gid, idle, DrawBlind(1 - active), expected_version=None), "not_your_turn"),
        (
            service.act(gid, mover, DrawBlind(active), expected_version=st.version - 1),
            "stale_version",
        ),
        (
            service.act(
                gid, mover, {"type": "fly_to_the_moon", "seat": active}, expected_version=None
            ),
            "malformed_action",
        ),
        (
            service.act(
                gid,
                mover,
                {"type": "draw_face_up", "seat": active, "slot": "x"},
                expected_version=None,
            ),
            "malformed_action",
        ),
        (service.act(gid, mover, DrawBlind(1 - active), expected_version=None), "malformed_action"),
        (
            service.act(gid, mover, KeepTickets(active, ("nope",)), expected_version=None),
            "wrong_step",
        ),
    ]
    for call, code in cases:
        with pytest.raises((ServiceError, IllegalAction)) as err:
            await call
        assert err.value.code == code, (code, err.value)
        assert await _dump(storage, gid) == before


async def test_bad_station_input_gets_a_typed_error_and_changes_nothing(
    service: GameService, storage: Storage
) -> None:
    """Europe's BuildStation with hostile input through the service: an unknown city, a city whose
    station stands already, a payment the hand does not hold, the wrong number of cards, another
    seat's station, a malformed city, and a fourth station: each gets its own code and the
    stored game (version, state, log, clock, seats) is unchanged."""
    rules = load_ruleset("europe")
    gid = await _in_play(service, storage, map_id="europe")
    users = [s.user_id for s in await storage.seats(gid)]

    async def refused(user: int, action: object, code: str) -> None:
        before = await _dump(storage, gid)
        with pytest.raises((ServiceError, IllegalAction)) as err:
            await service.act(gid, user, action, expected_version=None)
        assert err.value.code == code, (code, err.value)
        assert await _dump(storage, gid) == before

    st = await state_of(storage, gid)
    a = st.active
    hand = st.players[a].hand
    color = next(c for c in hand if c != "locomotive" and hand[c])
    missing = next(c for c in rules.params.colors if not hand.get(c))
    one = Cards({color: 1})
    await refused(users[a], BuildStation(a, "atlantis", one), "unknown_city")
    await refused(users[a], BuildStation(a, "madrid", Cards({missing: 1})), "cards_not_in_hand")
    await refused(users[1 - a], BuildStation(1 - a, "madrid", one), "not_your_turn")
    await refused(users[a], BuildStation(1 - a, "madrid", one), "malformed_action")
    await refused(
        users[a],
        {"type": "build_station", "seat": a, "city": 7, "payment": {color: 1}},
        "malformed_action",
    )
    cards = [c for c, n in sorted(hand.items()) for _ in range(n)]
    two = Cards({c: cards[:2].count(c) for c in set(cards[:2])})  # in hand, one card too many
    await refused(users[a], BuildStation(a, "madrid", two), "cannot_pay_station")
    await service.act(gid, users[a], BuildStation(a, "madrid", one), expected_version=None)
    await refused(users[1 - a], BuildStation(1 - a, "madrid", one), "station_taken")
    # seat a builds whenever it can (the others play as the heuristic AI) until all three stand
    for _ in range(300):
        st = await state_of(storage, gid)
        if sum(1 for s in st.stations.values() if s == a) == 3 and st.active == a:
            break
        seat = st.seats_to_act()[0]
        builds = [x for x in legal_actions(rules, st, seat) if isinstance(x, BuildStation)]
        action = builds[0] if seat == a and builds else choose_action(rules, st, seat)
        await service.act(gid, users[seat], action, expected_version=None)
    st = await state_of(storage, gid)
    assert st.active == a and st.step == "turn" and not st.finished
    free = next(c for c in rules.board.cities if c not in st.stations)
    await refused(users[a], BuildStation(a, free, one), "no_stations_left")


async def test_act_persists_one_row_per_action_and_lets_ai_move(
    service: GameService, storage: Storage
) -> None:
    """A human move against two AI seats: the log gets the move, then the AI turns, each its own row."""
    gid = await lobby(service, users=(HOST,), ais=2)
    await service.start(gid, HOST)
    st = await state_of(storage, gid)
    await service.act(gid, HOST, KeepTickets(0, tuple(st.players[0].offer)), expected_version=None)
    st = await state_of(storage, gid)
    if st.active != 0:  # the AI seats that play before the human have already moved
        assert (
            any(r.source == "ai" and r.seat == st.active for r in await storage.actions(gid))
            is False
        )
    assert st.phase == "play" and st.seats_to_act() == [0]
    version = st.version
    outcome = await play_for(service, storage, gid, HOST)
    while 0 not in outcome.to_act and not outcome.finished:
        outcome = await play_for(service, storage, gid, HOST)
    rows = await storage.actions(gid)
    assert len(rows) == (await storage.get_game(gid)).version
    assert {r.source for r in rows[version:]} <= {"player", "ai"}
    assert any(r.source == "ai" for r in rows[version:])
    assert outcome.turn_ended and outcome.to_act == (0,)


async def test_outcome_keeps_secrets_out_of_public_events(
    service: GameService, storage: Storage
) -> None:
    """A blind draw's colour is in the drawing seat's private events only."""
    gid = await _in_play(service, storage)
    st = await state_of(storage, gid)
    user = (await storage.seats(gid))[st.active].user_id
    outcome = await service.act(gid, user, DrawBlind(st.active), expected_version=None)
    drawn = [e for e in outcome.public_events if e.kind == "card_drawn"]
    assert drawn and all(e.secret is None and "color" not in e.public for e in drawn)
    assert any("color" in e for e in outcome.private_events[st.active])
    log = await service.public_log(gid, 5)
    assert log and all(e.secret is None for e in log)


async def test_views_cut_out_other_hands(service: GameService, storage: Storage) -> None:
    """A player sees their own hand; a spectator gets no PlayerView at all."""
    gid = await _in_play(service, storage)
    mine = await service.table(gid, BOB)
    assert (
        mine.seat == 1
        and mine.mine is not None
        and sum(mine.mine.hand.values()) == mine.public.players[1].cards
    )
    spectator = await service.table(gid, STRANGER)
    assert spectator.mine is None and spectator.seat is None and spectator.public == mine.public


async def test_whole_game_with_resign_records_results(
    service: GameService, storage: Storage
) -> None:
    """Two humans and an AI; BOB resigns, the host plays on to the end: results, stats, leaderboard."""
    gid = await _in_play(service, storage, users=(HOST, BOB), ais=1)
    await service.resign(gid, BOB)
    with pytest.raises(ServiceError, match="is_ai"):
        await service.act(gid, BOB, DrawBlind(1), expected_version=None)
    outcome = None
    for _ in range(2000):
        game = await storage.get_game(gid)
        if game.status == "finished":
            break
        outcome = await play_for(service, storage, gid, HOST)
    assert outcome is not None and outcome.finished and outcome.result is not None
    results = await storage.results(gid)
    assert [r.user_id for r in results] == [HOST, BOB, None]
    assert sum(r.won for r in results) >= 1
    stats = await service.stats(1, HOST)
    assert (
        stats.games == 1
        and stats.wins == int(results[0].won)
        and stats.best_score == results[0].score
    )
    board = await service.ladder(1)
    assert {line.player for line in board.lines} == {f"user:{HOST}", f"user:{BOB}", "ai:normal"}
    with pytest.raises(ServiceError, match="game_over"):
        await service.act(gid, HOST, DrawBlind(0), expected_version=None)
    assert (await storage.get_game(gid)).deadline_at is None


async def test_games_for_user_puts_waiting_games_first(
    service: GameService, storage: Storage
) -> None:
    """mygames: every open game of the user, with your_turn true where the user must act."""
    a = await _in_play(service, storage, channel=1)
    b = await lobby(service, channel=2)
    games = await service.games_for_user(HOST)
    assert {g.id for g in games} == {a, b}
    st = await state_of(storage, a)
    assert [g.your_turn for g in games if g.id == a] == [st.active == 0]
    assert not [g for g in games if g.id == b][0].your_turn
    assert games[0].url.startswith("https://discord.com/channels/1/")


async def test_act_accepts_the_json_form(service: GameService, storage: Storage) -> None:
    """An encoded action dict is decoded and applied like the object."""
    gid = await _in_play(service, storage)
    st = await state_of(storage, gid)
    user = (await storage.seats(gid))[st.active].user_id
    out = await service.act(
        gid, user, encode_action(DrawBlind(st.active)), expected_version=st.version
    )
    assert out.game.version == st.version + 1
