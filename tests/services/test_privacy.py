"""Privacy through the game service, on both backends.

Forgetting a player who finished real games with others leaves the others' results,
statistics and every replay whole (``verify`` finds nothing); a server that removes the bot
has its lobbies cancelled and its games paused (no timer fires), invited back within the
retention period its games resume with their clocks moved, and after it everything of the
server is deleted while another server's games go on.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.services import GameService, ServiceError, former_player, replay_game, stored_state
from bot.host.services.ops import export_game, verify_storage
from bot.host.storage import ShardFilter, Storage, UserInOpenGames, open_storage

from .conftest import FakeClock, lobby, play_for

ALICE, BOB, CAROL = 711_111_111_111_111_111, 722_222_222_222_222_222, 733_333_333_333_333_333
#: A server id that is not a small number, so a scan of every cell finds it only where it is.
SERVER = 744_444_444_444_444_444
DAVE = 755_555_555_555_555_555
DAY = 86_400.0
HOUR = 3600


@pytest.fixture
async def store(any_url: str, clock: FakeClock) -> AsyncIterator[Storage]:
    """The storage on each backend."""
    storage = await open_storage(any_url, clock=clock)
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture
def svc(store: Storage, clock: FakeClock) -> GameService:
    return GameService(store, clock=clock, seed_source=lambda: 5, retention_days=30)


async def _next(service: GameService, storage: Storage, gid: int) -> None:
    """The human seat that must act plays the heuristic AI's choice."""
    seat = (await service.loader.game_state(gid)).seats_to_act()[0]
    user = (await storage.seats.seats(gid))[seat].user_id
    assert user is not None
    await play_for(service, storage, gid, user)


async def _finished(
    service: GameService, storage: Storage, users: tuple[int, ...], channel: int, guild: int = 1
) -> int:
    """A whole Amsterdam game between ``users`` (the first hosts), every move theirs."""
    gid = await service.lobby.create(
        guild_id=guild, channel_id=channel, host_id=users[0], host_name=f"name{users[0]}",
        map_id="amsterdam",
    )  # fmt: skip
    for user in users[1:]:
        await service.lobby.join(gid.id, user, f"name{user}")
    await service.lobby.start(gid.id, users[0])
    while (await service.loader.game_state(gid.id)).result is None:
        await _next(service, storage, gid.id)
    return gid.id


async def _running(service: GameService, guild: int, channel: int) -> int:
    """A started USA game of ALICE (host) and BOB with a 1-hour turn, both tickets kept."""
    game = await service.lobby.create(
        guild_id=guild, channel_id=channel, host_id=ALICE, host_name="a", map_id="usa",
        turn_seconds=HOUR,
    )  # fmt: skip
    await service.lobby.join(game.id, BOB, "b")
    await service.lobby.start(game.id, ALICE)
    for _ in range(2):
        await _next(service, service.storage, game.id)
    return game.id


async def test_forgetting_a_player_keeps_the_others_results_stats_and_every_replay(
    svc: GameService, store: Storage
) -> None:
    """ALICE finished two games with BOB and CAROL; after forget_user the others' results,
    statistics and leaderboard are unchanged, every game replays from its seed to its stored
    state, verify finds nothing, and the export names her only as 'Former player N'."""
    g1 = await _finished(svc, store, (ALICE, BOB, CAROL), channel=1)
    g2 = await _finished(svc, store, (BOB, ALICE), channel=2)
    g3 = await _finished(svc, store, (BOB, CAROL), channel=3)
    await svc.queries.set_user_settings(ALICE, dm_turns=True)
    await svc.ladder.set_server_settings(1, ALICE, manage_server=True, turn_seconds=HOUR)
    others = {u: await svc.ladder.stats(1, u) for u in (BOB, CAROL)}
    board = [r for r in await store.results.leaderboard(1) if r.user_id != ALICE]
    ratings = {m: await store.ratings.ratings(1, scope=m) for m in ("*", "amsterdam")}
    results = {g: await store.results.results(g) for g in (g1, g2, g3)}
    changes = {g: await store.ratings.game_rating_changes(g) for g in (g1, g2, g3)}
    assert all(len(c) > 0 for c in changes.values())  # every game was rated
    mine = await store.privacy.user_data(ALICE)
    assert mine.ratings == 2 and mine.named == 1  # overall and Amsterdam; the server setting
    checked, problems = await verify_storage(store)
    assert (checked, problems) == (3, [])
    exported = json.dumps(await export_game(store, g1))
    assert f"name{ALICE}" in exported and str(ALICE) in exported

    report = await svc.privacy.forget_user(ALICE)
    assert (report.games, report.results, report.settings, report.hosted) == (2, 2, 1, 1)
    assert report.actions > 10  # every move she made
    # her rating overall and on Amsterdam, and their change in each of her two games
    assert (report.ratings, report.rating_changes, report.named) == (2, 4, 1)

    assert {u: await svc.ladder.stats(1, u) for u in (BOB, CAROL)} == others
    assert [r for r in await store.results.leaderboard(1)] == board
    # the others' ratings and every change of theirs are as they were; hers are gone
    for scope, rows in ratings.items():
        assert await store.ratings.ratings(1, scope=scope) == [
            r for r in rows if r.user_id != ALICE
        ]
        assert {r.user_id for r in rows} == {ALICE, BOB, CAROL}
    for gid in (g1, g2, g3):
        kept = [c for c in changes[gid] if c.user_id != ALICE]
        assert await store.ratings.game_rating_changes(gid) == kept
    assert [line.user_id for line in (await svc.ladder.ladder(1)).lines] == [
        r.user_id for r in ratings["*"] if r.user_id != ALICE
    ]
    assert (await svc.ladder.server_settings(1)).updated_by is None
    formers = {
        r.player for g in (g1, g2) for r in await store.results.results(g) if r.user_id is None
    }
    assert len(formers) == 1 and formers.pop().startswith("former:")  # one key, naming no one
    assert (await svc.ladder.stats(1, ALICE)).games == 0
    for gid in (g1, g2, g3):
        after = await store.results.results(gid)
        assert [(r.seat, r.score, r.rank, r.won) for r in after] == [
            (r.seat, r.score, r.rank, r.won) for r in results[gid]
        ]
        assert ALICE not in {r.user_id for r in after}
        game = await store.games.get_game(gid)
        assert game is not None
        assert await replay_game(store, game) == await stored_state(store, game)
    assert await verify_storage(store) == (3, [])
    seat = next(s for s in await store.seats.seats(g1) if s.user_id is None)
    assert seat.display_name == former_player("en", seat.seat) == f"Former player {seat.seat + 1}"
    exported = json.dumps(await export_game(store, g1))
    assert f"name{ALICE}" not in exported and str(ALICE) not in exported
    assert f"Former player {seat.seat + 1}" in exported
    assert not (await svc.privacy.forget_user(ALICE)).anything


async def test_a_seat_forgotten_while_paused_is_rated_as_no_one_when_its_game_ends(
    svc: GameService, store: Storage
) -> None:
    """ALICE is forgotten while her rated game is paused (its server removed the bot): the
    computer plays her seat on after the return, the game is rated with that seat as an
    anonymous 'former:' identity whose rating is not stored, and verify passes."""
    gid = await _running(svc, 1, channel=10)
    await svc.privacy.guild_removed(1)
    report = await svc.privacy.forget_user(ALICE)
    assert report.handed_to_ai == 1
    await svc.privacy.guild_returned(1)
    while (state := await svc.loader.game_state(gid)).result is None:
        if (await store.seats.seats(gid))[state.seats_to_act()[0]].user_id is None:
            await svc.play.play_ai(gid)  # her seat, the computer's now (the timer would do it too)
        else:
            await _next(svc, store, gid)
    [former] = [r for r in await store.results.results(gid) if r.user_id is None]
    assert former.player == f"former:{gid}.{former.seat}" and former.place is not None
    assert {r.player for r in await store.ratings.ratings(1)} == {f"user:{BOB}"}
    assert {c.player for c in await store.ratings.game_rating_changes(gid)} == {f"user:{BOB}"}
    assert await verify_storage(store) == (1, [])


async def test_a_player_who_still_plays_is_told_first_and_forgotten_after_resigning(
    svc: GameService, store: Storage, clock: FakeClock
) -> None:
    """Forgetting ALICE while she plays is refused, naming the game; after she resigns, her
    seat is the computer's and anonymous, and the game plays on to a result without her id."""
    gid = await _running(svc, 1, channel=10)
    with pytest.raises(UserInOpenGames) as refused:
        await svc.privacy.forget_user(ALICE)
    assert refused.value.game_ids == (gid,)
    assert [g.game_id for g in (await svc.privacy.user_data(ALICE)).open_games] == [gid]
    await svc.play.resign(gid, ALICE)
    assert (await svc.privacy.user_data(ALICE)).open_games == ()
    report = await svc.privacy.forget_user(ALICE)
    assert report.games == 1 and report.handed_to_ai == 0
    while (await svc.loader.game_state(gid)).result is None:
        await _next(svc, store, gid)
    assert {r.user_id for r in await store.results.results(gid)} == {None, BOB}
    assert await verify_storage(store) == (1, [])


async def test_removed_then_invited_back_within_the_period_the_game_resumes(
    svc: GameService, store: Storage, clock: FakeClock
) -> None:
    """The server removes the bot: the lobby is cancelled, the running game paused; its
    deadline passes and no timer fires, no move is taken. Invited back two days later, the
    game resumes with its clock moved by the pause, and plays on."""
    gid = await _running(svc, 1, channel=10)
    open_lobby = await lobby(svc, users=(CAROL,), channel=20)
    before = await store.games.get_game(gid)
    assert before is not None and before.deadline_at is not None
    fired: list[object] = []

    async def on_turn(game_id: int, outcome: object) -> None:
        fired.append(outcome)

    svc.on_turn = on_turn
    clock.advance(60)
    departure = await svc.privacy.guild_removed(1)
    assert (departure.cancelled, departure.paused) == ((open_lobby,), (gid,))
    clock.advance(2 * DAY)  # far past the turn's deadline
    assert await svc.timers.run_due() == [] and fired == []
    with pytest.raises(ServiceError) as refused:
        await _next(svc, store, gid)
    assert refused.value.code == "game_paused"
    assert await svc.privacy.purge_due() == []  # within the 30 days
    paused = await store.games.get_game(gid)
    assert paused is not None and paused.version == before.version

    [resumed] = await svc.privacy.guild_returned(1)
    assert resumed.id == gid and resumed.paused_at is None
    assert resumed.deadline_at == before.deadline_at + 2 * DAY  # paused for exactly 2 days
    assert await svc.timers.run_due() == []  # the moved deadline is not due yet
    await _next(svc, store, gid)
    clock.advance(HOUR + 1)
    assert len(await svc.timers.run_due()) >= 1  # the clock runs again
    assert await svc.privacy.guild_returned(1) == []
    lobby_row = await store.games.get_game(open_lobby)
    assert lobby_row is not None and lobby_row.status == "cancelled"  # a lobby does not come back
    assert await verify_storage(store) == (1, [])


async def test_after_the_period_the_server_is_purged_while_another_plays_on(
    svc: GameService, store: Storage, clock: FakeClock
) -> None:
    """Server 1 removed the bot: 29 days later nothing is deleted; at 30 days everything of
    it is, in the timer loop, while server 2's game is played on and verifies."""
    done = await _finished(svc, store, (ALICE, BOB), channel=1, guild=1)
    paused = await _running(svc, 1, channel=10)
    other = await _running(svc, 2, channel=30)
    await svc.privacy.guild_removed(1)
    clock.advance(29 * DAY)
    assert await svc.privacy.purge_due() == []
    clock.advance(DAY)
    svc.start_timers()
    for _ in range(200):
        await asyncio.sleep(0.01)
        if await store.privacy.departures() == {}:
            break
    await svc.close()
    assert await store.privacy.departures() == {}
    assert await store.games.get_game(done) is None and await store.games.get_game(paused) is None
    assert await store.privacy.guild_ids() == [2]
    await _next(svc, store, other)
    assert await verify_storage(store) == (1, [])
    assert not (await svc.privacy.purge_guild(1)).anything


async def test_a_server_that_removed_the_bot_while_it_was_away_is_noticed(
    store: Storage, clock: FakeClock
) -> None:
    """At connect, servers with stored games that the bot is no longer in (of this process's
    shards) are treated as removed; the bot's own servers, direct-message games and servers
    of other shards are left alone."""
    mine, gone, elsewhere = 1 << 22, 3 << 22, 2 << 22  # shards 1, 1 and 0 of 2
    svc = GameService(store, clock=clock, shards=ShardFilter(2, frozenset({1})))
    ids = {}
    for n, guild in enumerate((mine, gone, elsewhere, 0)):
        game = await svc.lobby.create(
            guild_id=guild, channel_id=100 + n, host_id=ALICE, host_name="a", map_id="usa"
        )
        ids[guild] = game.id
    departed = await svc.privacy.guilds_present({mine})
    assert [d.guild_id for d in departed] == [gone]
    assert await store.privacy.departures() == {gone: clock.now}
    assert await svc.privacy.guilds_present({mine}) == []  # once


def _cells_naming(path: str, needle: int) -> list[str]:
    """Every cell of every table of the SQLite file at ``path`` that holds ``needle``: the
    number itself, or its digits inside a text or a (zlib-compressed) blob such as a snapshot
    or an identity 'user:<id>'. Returns 'table.column' for each."""
    found = []
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            cursor = conn.execute(f"SELECT * FROM {table}")
            names = [d[0] for d in cursor.description]
            for row in cursor:
                for name, value in zip(names, row, strict=True):
                    if isinstance(value, bytes):
                        try:
                            value = zlib.decompress(value)
                        except zlib.error:
                            pass
                        value = value.decode("utf-8", "replace")
                    if value == needle or (isinstance(value, str) and str(needle) in value):
                        found.append(f"{table}.{name}")
    finally:
        conn.close()
    return sorted(set(found))


async def _tournament(svc: GameService, guild: int, users: tuple[int, ...]) -> None:
    """A tournament of ``users`` in ``guild`` (the first opens it), its first round seated."""
    t = await svc.tournaments.open(
        guild_id=guild, channel_id=9, user_id=users[0], manage_server=True,
        name="Cup", maps=["usa"], format="swiss", table_size=3, rated=False,
        turn_seconds=HOUR,
    )  # fmt: skip
    for user in users:
        await svc.tournaments.join(t.id, user, f"name{user}")
    await svc.tournaments.start(t.id, manage_server=True)


async def test_no_cell_of_any_table_names_a_forgotten_player_or_a_purged_server(
    tmp_path: Path, clock: FakeClock
) -> None:
    """The schema guard (tests/storage/test_privacy.py) looks at column names; this looks at the
    data: ALICE played rated games in two servers, changed server 1's settings and started its second season; after forgetting her no cell of any
    table holds her id, and verify passes. Server 1 (SERVER) is then purged: no cell holds its id,
    server 2's rows are all still there."""
    path = str(tmp_path / "ttr.sqlite3")
    async with await open_storage(path, clock=clock) as store:
        svc = GameService(store, clock=clock, seed_source=lambda: 5)
        await svc.ladder.set_server_settings(SERVER, ALICE, manage_server=True, turn_seconds=HOUR)
        await _finished(svc, store, (ALICE, BOB), channel=1, guild=SERVER)
        await svc.ladder.start_season(SERVER, ALICE, manage_server=True)
        await _finished(svc, store, (BOB, ALICE, CAROL), channel=2, guild=SERVER)
        await _finished(svc, store, (CAROL, ALICE), channel=3, guild=2)
        await svc.queries.set_user_settings(ALICE, dm_turns=True)
        # she names server 1's looking-for-players role and follows a lobby of server 2
        await svc.tables.configure(SERVER, ALICE, manage_server=True, role_id=77, ping_minutes=5)
        followed = await svc.lobby.create(
            guild_id=2, channel_id=4, host_id=CAROL, host_name="c", map_id="amsterdam"
        )
        await svc.tables.follow(followed.id, ALICE, each_turn=True, language="de")
        await _tournament(svc, SERVER, (BOB, ALICE, CAROL))
        assert "tournament_seats.user_id" in _cells_naming(path, ALICE)
        # a running game of server 2 whose seat ALICE handed to DAVE after moving in it
        handed = await _running(svc, 2, channel=6)
        await svc.seats.accept(await svc.seats.give(handed, ALICE, DAVE), DAVE, "Dave")
        assert "seat_handovers.from_user_id" in _cells_naming(path, ALICE)
        assert "actions.actor_user_id" in _cells_naming(path, ALICE)
        assert "ratings.player" in _cells_naming(path, ALICE)
        assert "seasons.started_by" in _cells_naming(path, ALICE)
        assert "followers.user_id" in _cells_naming(path, ALICE)
        assert "table_settings.updated_by" in _cells_naming(path, ALICE)
        assert "achievements.user_id" in _cells_naming(path, ALICE)  # what she earned

        report = await svc.privacy.forget_user(ALICE)
        # overall and Amsterdam in both seasons of SERVER and in server 2; a setting, a season,
        # the open-table settings and the handover
        assert (report.ratings, report.rating_changes, report.named) == (6, 6, 4)
        assert _cells_naming(path, ALICE) == []
        assert await verify_storage(store) == (4, [])  # the started games
        assert "seat_handovers.to_user_id" in _cells_naming(path, DAVE)
        assert _cells_naming(path, BOB) != []

        server2 = [await store.copies.dump_game(g) for g in await store.games.game_ids()]
        server2 = [d for d in server2 if d is not None and d.game["guild_id"] == 2]
        ratings2 = [r for r in await store.ratings.all_ratings() if r.guild_id == 2]
        assert "guild_settings.guild_id" in _cells_naming(path, SERVER)
        assert "table_settings.guild_id" in _cells_naming(path, SERVER)
        purged = await svc.privacy.purge_guild(SERVER)
        # its settings, its ladder and its two seasons; overall and Amsterdam in each season
        assert (purged.games, purged.server_rows) == (2, 4) and purged.ratings > 0
        assert _cells_naming(path, SERVER) == []
        assert [await store.copies.dump_game(d.game["id"]) for d in server2] == server2
        assert [r for r in await store.ratings.all_ratings()] == ratings2
        assert await verify_storage(store) == (2, [])  # the finished game and the handed one
        await svc.close()
