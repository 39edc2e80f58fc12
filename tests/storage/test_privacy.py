"""Privacy in the storage, on both backends: forgetting a user, servers that remove the bot.

Every test takes the ``storage`` fixture and so runs on SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

import sqlite3

import pytest

from bot.host.storage import (
    GameRow,
    GameStatusError,
    NewSeat,
    PlayerResult,
    Storage,
    UserInOpenGames,
    open_storage,
)
from bot.host.storage._sqlite import SqliteStorage

from .conftest import FakeClock, raw_execute
from .test_storage import GUILD, finish, move, new_game, started_game

ALICE, BOB, CAROL = 1, 2, 3
OTHER_GUILD = 222


def seat_name(language: str, seat: int) -> str:
    """The anonymous seat name, as the service gives it (per table language)."""
    return f"{'Ehemaliger Spieler' if language == 'de' else 'Former player'} {seat + 1}"


async def everything_of(storage: Storage, game_id: int) -> tuple[object, ...]:
    """A game's rows as the storage reads them (for before/after comparisons)."""
    return (
        await storage.games.get_game(game_id),
        await storage.seats.seats(game_id),
        await storage.actions.actions(game_id),
        await storage.results.results(game_id),
    )


async def played(
    storage: Storage, clock: FakeClock, channel_id: int, scores: dict[int, tuple[int, int, int]]
) -> GameRow:
    """A finished game of ``scores``' users (the first hosts) in which each user made one move."""
    game = await started_game(storage, channel_id, tuple(scores))
    for seat, user in enumerate(scores):
        game = await move(storage, game, seat=seat, actor_user_id=user)
    await storage.games.set_status(game.id, "finished")
    ranked = sorted(scores.values(), key=lambda v: -v[0])
    await storage.results.record_results(
        game.id,
        [
            PlayerResult(
                seat, user, s, 1 + ranked.index((s, done, failed)), s == ranked[0][0], done, failed
            )
            for seat, (user, (s, done, failed)) in enumerate(scores.items())
        ],
    )
    clock.now += 100
    return game


async def test_forgetting_a_user_leaves_the_others_and_the_games_whole(
    storage: Storage, clock: FakeClock
) -> None:
    """ALICE played two finished games with BOB and CAROL and hosted one: afterwards nothing
    names her (seats, log, results, host), her settings are gone, and every row of the others
    (seats, results, the leaderboard, the moves) is as it was."""
    g1 = await played(storage, clock, 1, {ALICE: (100, 3, 1), BOB: (80, 2, 0)})
    g2 = await played(storage, clock, 2, {BOB: (60, 1, 2), ALICE: (90, 4, 0), CAROL: (30, 0, 3)})
    g3 = await played(storage, clock, 3, {BOB: (70, 2, 1), CAROL: (75, 3, 0)})
    await storage.settings.set_user_settings(ALICE, dm_turns=True)
    await storage.settings.set_user_settings(BOB, high_contrast=True)
    before = {g.id: await everything_of(storage, g.id) for g in (g1, g2, g3)}
    board_before = [r for r in await storage.results.leaderboard(GUILD) if r.user_id != ALICE]

    data = await storage.privacy.user_data(ALICE)
    assert (data.games, data.finished, data.results, data.settings) == (2, 2, 2, True)
    assert data.open_games == () and data.anything

    report = await storage.privacy.forget_user(ALICE, seat_name)
    assert (report.games, report.results, report.settings, report.hosted) == (2, 2, 1, 1)
    assert report.actions == 2  # one move in each of her games
    assert report.handed_to_ai == 0

    for game in (g1, g2):
        seats = await storage.seats.seats(game.id)
        mine = [s for s in seats if s.display_name.startswith("Former player")]
        assert len(mine) == 1 and mine[0].user_id is None
        assert mine[0].display_name == f"Former player {mine[0].seat + 1}"
        others = [s for s in seats if s is not mine[0]]
        assert others == [s for s in before[game.id][1] if s.seat != mine[0].seat]  # type: ignore[attr-defined]
        results = await storage.results.results(game.id)
        assert [r.user_id for r in results if r.seat == mine[0].seat] == [None]
        assert [r for r in results if r.seat != mine[0].seat] == [
            r
            for r in before[game.id][3]  # type: ignore[attr-defined]
            if r.seat != mine[0].seat
        ]
        # the moves themselves and their order are untouched; only her id left the log
        assert [(a.seq, a.seat, a.action) for a in await storage.actions.actions(game.id)] == [
            (a.seq, a.seat, a.action)
            for a in before[game.id][2]  # type: ignore[attr-defined]
        ]
        assert ALICE not in {a.actor_user_id for a in await storage.actions.actions(game.id)}
    assert await everything_of(storage, g3.id) == before[g3.id]
    first = await storage.games.get_game(g1.id)
    assert first is not None and first.host_user_id == 0
    assert [r for r in await storage.results.leaderboard(GUILD)] == board_before
    assert await storage.results.user_history(ALICE) == []
    assert (await storage.settings.get_user_settings(ALICE)).updated_at is None
    assert (await storage.settings.get_user_settings(BOB)).high_contrast
    assert not (await storage.privacy.user_data(ALICE)).anything

    again = await storage.privacy.forget_user(ALICE, seat_name)
    assert not again.anything and again.games == 0
    assert not (await storage.privacy.forget_user(4242, seat_name)).anything


async def test_the_anonymous_name_follows_the_tables_language(storage: Storage) -> None:
    """A German table's seat becomes 'Ehemaliger Spieler 2'."""
    game = await storage.games.create_game(
        guild_id=GUILD, channel_id=9, host_user_id=BOB, map_id="usa", language="de",
        seats=[NewSeat("bob", user_id=BOB), NewSeat("alice", user_id=ALICE)],
    )  # fmt: skip
    await storage.games.set_status(game.id, "cancelled")
    await storage.privacy.forget_user(ALICE, seat_name)
    assert [s.display_name for s in await storage.seats.seats(game.id)] == [
        "bob",
        "Ehemaliger Spieler 2",
    ]


async def test_a_player_in_a_lobby_or_a_running_game_is_refused(storage: Storage) -> None:
    """ALICE in a lobby (or hosting one), or holding her seat in a running game, cannot be
    forgotten; nothing changes. Once she resigned there, the seat is anonymised."""
    lobby = await new_game(storage, channel_id=1, users=(BOB, ALICE))
    running = await started_game(storage, channel_id=2, users=(ALICE, CAROL))
    hosted = await storage.games.create_game(
        guild_id=GUILD, channel_id=3, host_user_id=ALICE, map_id="usa"
    )  # a lobby she hosts without a seat
    await storage.settings.set_user_settings(ALICE, dm_turns=True)
    data = await storage.privacy.user_data(ALICE)
    assert [(g.game_id, g.status, g.host) for g in data.open_games] == [
        (lobby.id, "lobby", False),
        (running.id, "active", True),
    ]
    with pytest.raises(UserInOpenGames) as refused:
        await storage.privacy.forget_user(ALICE, seat_name)
    assert refused.value.game_ids == (lobby.id, running.id, hosted.id)
    assert refused.value.code == "forget_open_games"
    assert (await storage.settings.get_user_settings(ALICE)).dm_turns
    assert ALICE in [s.user_id for s in await storage.seats.seats(running.id)]

    await storage.seats.remove_seat(lobby.id, 1)
    await storage.games.set_status(hosted.id, "cancelled")
    await storage.seats.update_seat(running.id, 0, resigned=True, ai_permanent=True)
    report = await storage.privacy.forget_user(ALICE, seat_name)
    assert report.games == 1 and report.handed_to_ai == 0
    [seat, carol] = await storage.seats.seats(running.id)
    assert (seat.user_id, seat.display_name, seat.resigned) == (None, "Former player 1", True)
    assert carol.user_id == CAROL


async def test_a_result_stored_after_the_seat_was_forgotten_has_no_user(
    storage: Storage,
) -> None:
    """A game finishing after ALICE (resigned there) was forgotten cannot bring her id back
    into the results, even if the results were computed from seats read before."""
    game = await started_game(storage, channel_id=2, users=(ALICE, BOB))
    await storage.seats.update_seat(game.id, 0, resigned=True, ai_permanent=True)
    await storage.privacy.forget_user(ALICE, seat_name)
    stale = [PlayerResult(0, ALICE, 10, 2, False), PlayerResult(1, BOB, 20, 1, True)]
    await move(storage, game, new_status="finished", results=stale)
    assert [r.user_id for r in await storage.results.results(game.id)] == [None, BOB]


async def test_the_log_stays_append_only_but_a_forgotten_id_may_leave_it(
    storage: Storage, database_url: str
) -> None:
    """The one change the action log allows is clearing an actor id; any other raw change is
    refused by the database itself."""
    game = await move(storage, await started_game(storage))
    with pytest.raises(Exception, match="append-only"):
        await raw_execute(database_url, "UPDATE actions SET seat = 1 WHERE game_id = ?", game.id)
    with pytest.raises(Exception, match="append-only"):
        await raw_execute(
            database_url,
            "UPDATE actions SET actor_user_id = NULL, action = '{}' WHERE game_id = ?",
            game.id,
        )
    with pytest.raises(Exception, match="append-only"):
        await raw_execute(
            database_url, "UPDATE actions SET actor_user_id = 5 WHERE game_id = ?", game.id
        )
    await raw_execute(
        database_url, "UPDATE actions SET actor_user_id = NULL WHERE game_id = ?", game.id
    )
    [action] = await storage.actions.actions(game.id)
    assert action.actor_user_id is None and action.action == {"kind": "draw_blind", "n": 1}


# -- servers that remove the bot -------------------------------------------------------


async def _guild_with_games(storage: Storage, clock: FakeClock, guild: int) -> dict[str, GameRow]:
    finished = await finish(storage, clock, guild * 10 + 1, {ALICE: (10, 1, 0)}, guild_id=guild)
    running = await started_game(storage, guild * 10 + 2, (ALICE, BOB), guild_id=guild)
    await storage.timers.set_deadline(running.id, clock.now + 3600, clock.now + 1800)
    lobby = await new_game(storage, guild * 10 + 3, (CAROL,), guild_id=guild)
    fresh = {
        k: await storage.games.get_game(g.id)
        for k, g in (("finished", finished), ("running", running), ("lobby", lobby))
    }
    return {k: g for k, g in fresh.items() if g is not None}


async def test_a_departed_server_is_cancelled_and_paused_and_resumed_on_return(
    storage: Storage, clock: FakeClock
) -> None:
    """Removal: lobbies cancelled, running games paused (no timer, no move), the other
    server's games untouched. Return 5 hours later: the clocks moved by 5 hours."""
    mine = await _guild_with_games(storage, clock, GUILD)
    other = await _guild_with_games(storage, clock, OTHER_GUILD)
    running = mine["running"]
    vacation = clock.now + 600
    await storage.seats.update_seat(running.id, 1, vacation_until=vacation)
    kept = {g.id: await everything_of(storage, g.id) for g in other.values()}
    clock.now += 60
    departure = await storage.privacy.depart_guild(GUILD)
    assert (departure.left_at, departure.cancelled, departure.paused) == (
        clock.now,
        (mine["lobby"].id,),
        (running.id,),
    )
    paused = await storage.games.get_game(running.id)
    assert paused is not None and paused.paused_at == clock.now and paused.status == "active"
    assert (paused.deadline_at, paused.reminder_at) == (running.deadline_at, running.reminder_at)
    lobby = await storage.games.get_game(mine["lobby"].id)
    assert lobby is not None and lobby.status == "cancelled"
    # the soonest timer is the other server's, even when the paused one is long due
    nxt = await storage.timers.next_deadline()
    assert nxt is not None and nxt.game_id == other["running"].id
    with pytest.raises(GameStatusError) as refused:
        await move(storage, paused)
    assert refused.value.status == "paused"
    assert {g.id: await everything_of(storage, g.id) for g in other.values()} == kept
    assert await storage.privacy.departures() == {GUILD: clock.now}

    clock.now += 5 * 3600
    again = await storage.privacy.depart_guild(GUILD)  # a repeated event keeps the first time
    assert again.left_at == departure.left_at and again.paused == again.cancelled == ()
    [resumed] = await storage.privacy.return_guild(GUILD)
    assert resumed.id == running.id and resumed.paused_at is None
    assert resumed.deadline_at == running.deadline_at + 5 * 3600  # type: ignore[operator]
    assert resumed.reminder_at == running.reminder_at + 5 * 3600  # type: ignore[operator]
    seat = (await storage.seats.seats(running.id))[1]
    assert seat.vacation_until == vacation + 5 * 3600
    assert await storage.privacy.departures() == {}
    assert await storage.privacy.return_guild(GUILD) == []
    assert await storage.privacy.return_guild(OTHER_GUILD) == []
    await move(storage, resumed)  # plays on


async def test_forgetting_a_player_of_a_paused_game_hands_the_seat_to_the_computer(
    storage: Storage, clock: FakeClock
) -> None:
    """The server removed the bot, so ALICE cannot resign there: forgetting her gives the
    computer her seat (for when the game resumes) and an anonymous name."""
    game = await started_game(storage, channel_id=2, users=(ALICE, BOB))
    await storage.privacy.depart_guild(GUILD)
    assert (await storage.privacy.user_data(ALICE)).open_games == ()
    report = await storage.privacy.forget_user(ALICE, seat_name)
    assert (report.games, report.handed_to_ai) == (1, 1)
    seat = (await storage.seats.seats(game.id))[0]
    assert (seat.user_id, seat.ai_permanent, seat.resigned) == (None, True, False)


async def test_purging_a_server_deletes_all_of_it_and_nothing_else(
    storage: Storage, clock: FakeClock
) -> None:
    """Everything of GUILD goes in one transaction; OTHER_GUILD plays on; twice is harmless."""
    mine = await _guild_with_games(storage, clock, GUILD)
    other = await _guild_with_games(storage, clock, OTHER_GUILD)
    await move(storage, mine["running"])
    await storage.privacy.depart_guild(GUILD)
    kept = {g.id: await everything_of(storage, g.id) for g in other.values()}

    report = await storage.privacy.purge_guild(GUILD)
    assert (report.games, report.running, report.seats, report.results) == (3, 1, 4, 1)
    assert report.actions == 2 and report.departure and report.anything
    for game in mine.values():
        assert await storage.games.get_game(game.id) is None
        assert (
            await storage.seats.seats(game.id) == []
            and await storage.actions.actions(game.id) == []
        )
        assert await storage.actions.load_checkpoint(game.id) is None
    assert await storage.results.user_history(ALICE, guild_id=GUILD) == []
    assert await storage.privacy.departures() == {}
    assert {g.id: await everything_of(storage, g.id) for g in other.values()} == kept
    assert await storage.privacy.guild_ids() == [OTHER_GUILD]
    await move(storage, other["running"])
    assert not (await storage.privacy.purge_guild(GUILD)).anything
    assert await storage.integrity_check() == ["ok"]


async def test_departures_copy_into_another_database(
    storage: Storage, clock: FakeClock, tmp_path: object
) -> None:
    """departures() and restore_departures() carry the retention clock over a copy."""
    await storage.privacy.depart_guild(GUILD)
    await storage.privacy.depart_guild(OTHER_GUILD)
    rows = await storage.privacy.departures()
    async with await open_storage(f"{tmp_path}/copy.sqlite3", clock=clock) as target:
        await target.privacy.restore_departures(rows)
        assert (
            await target.privacy.departures() == rows == {GUILD: clock.now, OTHER_GUILD: clock.now}
        )


# -- every table that holds a user's or a server's data is covered ---------------------

#: Columns holding a user id, and what forgetting does with each (bot/host/storage/_privacy.py).
FORGOTTEN_COLUMNS = {
    ("seats", "user_id"): "the seat keeps its place under an anonymous name, without the id",
    ("results", "user_id"): "cleared",
    ("actions", "actor_user_id"): "cleared (the one change the log allows)",
    ("games", "host_user_id"): "set to 0",
    ("results", "player"): "'user:<id>' becomes one random 'former:<key>' for all their results",
    ("tournament_players", "user_id"): "one negative stand-in id for all their tournaments",
    ("tournament_seats", "user_id"): "the same stand-in id: their places stay in the standings",
}


async def test_every_column_with_a_user_or_server_id_is_forgotten_or_purged(
    sqlite_storage: SqliteStorage,
) -> None:
    """A new table (or column) with a user id (``*user_id``, or ``*_by``: who did something)
    must be handled by forgetting, and one with a guild id by purging: deleted by the user's or
    server's id (USER_TABLES, GUILD_TABLES), cleared (NAMED_BY), rewritten (the columns above),
    or gone with its game (a foreign key to games). A user id inside a text column (an identity
    such as 'user:<id>') cannot be seen here: a column named ``player`` must be rewritten too,
    and tests/services/test_privacy.py scans every cell of a forgotten user's database."""
    from bot.host.storage._privacy import GUILD_TABLES, NAMED_BY, USER_TABLES

    covered = set(FORGOTTEN_COLUMNS) | set(NAMED_BY)

    conn = sqlite3.connect(sqlite_storage.path)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        parents = {r[2] for r in conn.execute(f"PRAGMA foreign_key_list({table})")}
        for column in columns:
            if column.endswith("user_id") or column.endswith("_by") or column == "player":
                assert table in USER_TABLES or (table, column) in covered, (
                    f"{table}.{column} holds a user id that forgetting leaves behind"
                )
            if column == "guild_id":
                assert table in GUILD_TABLES or table == "games" or "games" in parents, (
                    f"{table}.{column} holds a server's rows that a purge leaves behind"
                )
    conn.close()


async def test_forgetting_and_purging_cover_the_ratings_tables(
    storage: Storage, clock: FakeClock
) -> None:
    """Rated games in two servers: forgetting ALICE deletes her ratings and rating history,
    renames her identity in the results to one 'former:' key, and clears her name from the
    settings and seasons she changed; BOB's and the computer's rows stay. Purging GUILD then
    deletes its settings, ladder, seasons, ratings, rated games and rating history, and every
    server-wide row of OTHER_GUILD stays."""
    from .test_ratings_storage import finished

    alice, bob = f"user:{ALICE}", f"user:{BOB}"
    await storage.guild_settings.set_guild_settings(GUILD, updated_by=ALICE, rated=True)
    a = await finished(storage, clock, 10, {alice: 1, bob: 2, "ai:hard": 3}, guild_id=GUILD)
    await storage.ratings.start_season(GUILD, ALICE)
    b = await finished(storage, clock, 11, {bob: 1, alice: 2}, guild_id=GUILD)
    c = await finished(storage, clock, 12, {alice: 1, bob: 2}, guild_id=OTHER_GUILD)
    rows = await storage.ratings.all_ratings()
    kept = [r for r in rows if r.user_id != ALICE]
    history = {g.id: await storage.ratings.game_rating_changes(g.id) for g in (a, b, c)}
    assert {r.user_id for r in rows} == {ALICE, BOB, None}
    assert (
        await storage.privacy.user_data(ALICE)
    ).ratings == 6  # 3 seasons or servers, 2 scopes each

    report = await storage.privacy.forget_user(ALICE, seat_name)
    assert (report.ratings, report.rating_changes, report.named, report.results) == (6, 6, 2, 3)
    assert await storage.ratings.all_ratings() == kept
    for game in (a, b, c):
        assert await storage.ratings.game_rating_changes(game.id) == [
            h for h in history[game.id] if h.user_id != ALICE
        ]
    players = {r.player for g in (a, b, c) for r in await storage.results.results(g.id)}
    formers = {p for p in players if p is not None and p.startswith("former:")}
    assert players - formers == {bob, "ai:hard"}
    assert len(formers) == 1 and next(iter(formers)).startswith("former:")
    assert (await storage.guild_settings.get_guild_settings(GUILD)).updated_by is None
    assert [s.started_by for s in await storage.ratings.seasons(GUILD)] == [None, None]
    assert not (await storage.privacy.user_data(ALICE)).anything

    other_before = [r for r in await storage.ratings.all_ratings() if r.guild_id == OTHER_GUILD]
    dump = await storage.copies.dump_guild_tables()
    purged = await storage.privacy.purge_guild(GUILD)
    assert (purged.games, purged.server_rows, purged.ratings) == (2, 4, 6)  # 2 ladder+settings
    after = await storage.copies.dump_guild_tables()
    for table in ("settings", "ladders", "seasons", "ratings"):
        rows_after = getattr(after, table)
        assert all(r["guild_id"] != GUILD for r in rows_after), table
        assert rows_after == tuple(r for r in getattr(dump, table) if r["guild_id"] != GUILD)
    assert [g.game_id for g in await storage.ratings.rated_games()] == [c.id]
    assert await storage.ratings.game_rating_changes(a.id) == []
    assert [r for r in await storage.ratings.all_ratings()] == other_before
    assert not (await storage.privacy.purge_guild(GUILD)).anything
