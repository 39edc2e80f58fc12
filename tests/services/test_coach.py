"""The coach through GameService: hints for the player to act, Do it, fair play, the analysis queue."""

from __future__ import annotations

import asyncio

import pytest

from bot.host.services import GameService, ServiceError, ThreadJobs
from bot.host.storage import Storage, open_storage
from engine import player_view
from engine.codec import decode_action

from .conftest import BOB, HOST, STRANGER, FakeClock, lobby, state_of
from .test_play import _in_play


async def _casual(service: GameService, storage: Storage, **kw) -> int:
    """A casual two-player game in play (hints allowed by default)."""
    return await _in_play(service, storage, rated=False, **kw)


async def _mover(storage: Storage, gid: int) -> tuple[int, int]:
    """(user id, seat) of the player to act."""
    st = await state_of(storage, gid)
    seat = st.seats_to_act()[0]
    return (await storage.seats.seats(gid))[seat].user_id, seat


async def test_a_hint_is_for_the_player_to_act_and_is_counted(
    service: GameService, storage: Storage
) -> None:
    """The player to act gets a legal move with a reason naming their own tickets; each hint is
    counted for that seat only, once per turn (asking again on the same turn is free); others
    are refused and nothing is counted for them."""
    from bot.process import metrics

    gid = await _casual(service, storage)
    user, seat = await _mover(storage, gid)
    other = BOB if user == HOST else HOST
    timed = metrics.sample("ttr_hint_seconds_count") or 0.0
    answer = await service.coach.hint(gid, user)
    assert metrics.sample("ttr_hint_seconds_count") == timed + 1  # the operator sees hints' time
    st = await state_of(storage, gid)
    assert answer.seat == seat and answer.version == st.version and answer.used == 1
    view = player_view(service_rules(st), st, seat)
    assert set(answer.hint.tickets) <= {t.id for t in view.tickets}
    assert (await service.coach.hint(gid, user)).used == 1  # the same turn: not counted again
    for who, code in ((other, "not_your_turn"), (STRANGER, "not_in_game")):
        with pytest.raises(ServiceError) as err:
            await service.coach.hint(gid, who)
        assert err.value.code == code
    assert [s.hints_used for s in await storage.seats.seats(gid)][seat] == 1
    assert [s.hints_used for s in await storage.seats.seats(gid)][1 - seat] == 0


def service_rules(state):
    from maps import load_ruleset

    return load_ruleset(state.map_id)


async def test_do_it_plays_exactly_the_suggested_move(
    service: GameService, storage: Storage
) -> None:
    """Do it stores the hinted action itself, as the player's move, at the hint's version."""
    gid = await _casual(service, storage)
    user, seat = await _mover(storage, gid)
    answer = await service.coach.hint(gid, user)
    before = (await storage.games.get_game(gid)).version
    outcome = await service.coach.play_hint(gid, user, version=answer.version, index=answer.index)
    assert outcome.actions >= 1
    row = (await storage.actions.actions(gid, after_seq=before))[0]
    assert decode_action(row.action) == answer.hint.action
    assert row.source == "player" and row.actor_user_id == user and row.seq == before + 1


async def test_do_it_after_the_game_moved_on_plays_nothing(
    service: GameService, storage: Storage
) -> None:
    """A hint from an older version is refused as stale and nothing is stored; a bad index is
    refused too."""
    gid = await _casual(service, storage)
    user, _ = await _mover(storage, gid)
    answer = await service.coach.hint(gid, user)
    await service.coach.play_hint(gid, user, version=answer.version, index=answer.index)
    version = (await storage.games.get_game(gid)).version
    user2, _ = await _mover(storage, gid)
    for kw, code in (
        ({"version": answer.version, "index": answer.index}, "stale_version"),
        ({"version": version, "index": 10_000}, "malformed_action"),
    ):
        with pytest.raises(ServiceError) as err:
            await service.coach.play_hint(gid, user2, **kw)
        assert err.value.code == code
    assert (await storage.games.get_game(gid)).version == version


async def test_hints_follow_the_host_the_server_and_never_a_rated_game(
    service: GameService, storage: Storage
) -> None:
    """Fair play: by default hints are allowed in casual games and never in
    rated ones (the server's default is rated); a host may turn them off; asking for hints in a
    rated game, or where the server turned hints off, is refused and opens nothing; a game
    without hints refuses /ttr hint and counts nothing; a rematch keeps the choice."""
    rated = await lobby(service, channel=7001)
    casual = await lobby(service, channel=7002, rated=False)
    off = await lobby(service, channel=7003, rated=False, hints=False)
    allowed = {g: (await storage.games.get_game(g)).hints_allowed for g in (rated, casual, off)}
    assert allowed == {rated: False, casual: True, off: False}
    assert (await storage.games.get_game(rated)).rated
    for kw, code in (({"rated": True}, "hints_rated"), ({}, "hints_rated")):
        with pytest.raises(ServiceError) as err:
            await lobby(service, channel=7004, hints=True, **kw)
        assert err.value.code == code
    await service.ladder.set_server_settings(1, HOST, manage_server=True, hints=False)
    assert not (
        await storage.games.get_game(await lobby(service, channel=7005, rated=False))
    ).hints_allowed
    with pytest.raises(ServiceError) as err:
        await lobby(service, channel=7004, rated=False, hints=True)
    assert err.value.code == "hints_off_here"
    assert await storage.games.active_game_in_channel(7004) is None
    for gid in (rated, off):
        await service.lobby.start(gid, HOST)
        user, _ = await _mover(storage, gid)
        with pytest.raises(ServiceError) as err:
            await service.coach.hint(gid, user)
        assert err.value.code == "hints_off"
        assert all(s.hints_used == 0 for s in await storage.seats.seats(gid))
    await service.lobby.cancel(off, HOST)
    assert not (
        await storage.games.get_game((await service.lobby.rematch(off, BOB, "bob")).id)
    ).hints_allowed


async def _finished_ai_game(service: GameService, channel: int = 8000, *, play: bool = True) -> int:
    """A two-AI game played to its end through the service (no analysis made yet); with
    ``play`` False only started (the timer loop plays it)."""
    game = await service.lobby.create(
        guild_id=1,
        channel_id=channel,
        host_id=HOST,
        host_name="h",
        map_id="paris",
        host_plays=False,
    )
    for _ in range(2):
        await service.lobby.add_ai(game.id, HOST)
    await service.lobby.start(game.id, HOST)
    while play and (await service.play.play_ai(game.id, max_actions=50)).game.status != "finished":
        pass
    return game.id


@pytest.fixture
def quiet(storage: Storage, clock: FakeClock) -> GameService:
    """A service that does not play AI seats on its own, with a small analysis budget."""
    return GameService(
        storage,
        clock=clock,
        seed_source=lambda: 11,
        auto_ai=False,
        analysis_budget_s=0.0,
        analysis_jobs=ThreadJobs(),
    )


async def test_a_finished_game_is_analysed_once_and_told(
    quiet: GameService, storage: Storage
) -> None:
    """The end queues the analysis; the queue makes it, stores it and awaits on_analysis;
    the stored analysis has one chance per seat per turn summing to 1 and at most three
    turning points."""
    told = []

    async def on_analysis(view) -> None:
        told.append(view)

    from bot.process import metrics

    quiet.on_analysis = on_analysis
    gid = await _finished_ai_game(quiet)
    view = await quiet.analyses.analysis(gid)
    assert view.status == "queued" and view.ahead == 0
    analysed = metrics.sample("ttr_analysis_cpu_seconds_count") or 0.0
    made = await quiet.analyses.analyse_next()
    assert made is not None and made.status == "done" and told == [made]
    assert metrics.sample("ttr_analysis_cpu_seconds_count") == analysed + 1
    assert await quiet.analyses.analyse_next() is None  # nothing left
    stored = await quiet.analyses.analysis(gid)
    analysis = stored.analysis
    assert stored.status == "done" and analysis is not None and analysis.seats == 2
    assert analysis.rollouts >= 8 and len(analysis.turning_points) <= 3
    for point in analysis.turning_points:  # each a change of ten points or more, beyond noise
        assert abs(point.change) >= 0.1 - 1e-4 and point.se is not None
    for t in analysis.turns:
        assert sum(t.chances) == pytest.approx(1.0, abs=1e-3)
    from bot.host.services.ops import export_game

    exported = await export_game(storage, gid)  # a finished game's record carries it
    assert exported is not None and exported["analysis"] == analysis.to_json()
    final = (await state_of(storage, gid)).result
    shared = 1 / len(final.winners)  # a tie splits the win
    assert list(analysis.turns[-1].chances) == [
        shared if s in final.winners else 0.0 for s in range(2)
    ]


async def test_the_queue_says_how_many_are_ahead_and_survives_a_restart(
    quiet: GameService, storage: Storage, clock: FakeClock, tmp_path
) -> None:
    """Two finished games: the second waits behind the first. A process that dies while
    analysing leaves the row running; a new service takes it up once it is stale."""
    first = await _finished_ai_game(quiet, 8001)
    second = await _finished_ai_game(quiet, 8002)
    assert (await quiet.analyses.analysis(second)).ahead == 1
    assert (
        await storage.coach.start_analysis(first, stale_after=600) is not None
    )  # a worker that dies
    assert (await quiet.analyses.analysis(first)).status == "running"
    made = await quiet.analyses.analyse_next()  # the first is held: the second goes
    assert made is not None and made.game.id == second
    assert await quiet.analyses.analyse_next() is None
    clock.advance(601)
    again = GameService(storage, clock=clock, auto_ai=False, analysis_budget_s=0.0)
    made = await again.analyses.analyse_next()
    assert made is not None and made.game.id == first and made.status == "done"


async def test_an_older_finished_game_is_queued_when_asked_for(
    quiet: GameService, storage: Storage
) -> None:
    """A finished game without an analysis row (finished before analyses existed) is queued
    by the first look at it; a game still in the lobby has none; a failed one says so."""
    gid = await _finished_ai_game(quiet)
    async with storage._write(gid) as tx:  # as a game finished before the coach's migration
        await tx.execute("DELETE FROM analyses WHERE game_id = ?", gid)
    assert (await quiet.analyses.analysis(gid, queue=False)).status == "none"
    assert (await quiet.analyses.analysis(gid)).status == "queued"
    await storage.coach.fail_analysis(gid, "test")
    assert (await quiet.analyses.analysis(gid)).status == "failed"
    waiting = await lobby(quiet, channel=8100)
    assert (await quiet.analyses.analysis(waiting)).status == "none"


async def test_the_timer_loop_runs_the_queue_in_the_background(
    storage: Storage, clock: FakeClock
) -> None:
    """start_timers also starts the queue: a game that finishes is analysed without anyone
    asking, and on_analysis is awaited."""
    told: asyncio.Queue = asyncio.Queue()

    async def on_analysis(view) -> None:
        await told.put(view)

    service = GameService(
        storage, clock=clock, auto_ai=False, analysis_budget_s=0.0, on_analysis=on_analysis
    )
    service.start_timers()
    try:
        gid = await _finished_ai_game(service, play=False)  # the clock plays the AI seats
        view = await asyncio.wait_for(told.get(), timeout=60)
        assert view.game.id == gid and view.status == "done"
    finally:
        await service.close()


async def test_a_process_pool_runs_hints_and_analyses(tmp_path, clock: FakeClock) -> None:
    """The bot's worker processes give the same kinds of answers as a thread."""
    from bot.host.services import ProcessJobs

    storage = await open_storage(tmp_path / "pool.sqlite3", clock=clock)
    jobs = ProcessJobs(1)
    try:
        service = GameService(
            storage,
            clock=clock,
            auto_ai=False,
            hint_jobs=jobs,
            analysis_jobs=jobs,
            analysis_budget_s=0.0,
        )
        await _finished_ai_game(service)
        made = await service.analyses.analyse_next()
        assert made is not None and made.status == "done"
        gid = await _casual(service, storage, channel=8200)
        user, seat = await _mover(storage, gid)
        answer = await service.coach.hint(gid, user)
        assert answer.seat == seat and answer.used == 1
    finally:
        jobs.close()
        await storage.close()
