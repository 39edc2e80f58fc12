"""The storage interface on both backends (SQLite file, real PostgreSQL server).

Every test here takes the ``storage`` fixture and so runs once per backend.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.host.storage import (
    LANGUAGES,
    ChannelBusy,
    ConstraintError,
    CorruptGame,
    GameNotFound,
    GameRow,
    GameStatusError,
    NewAction,
    NewSeat,
    NextTimer,
    PlayerResult,
    SeatNotFound,
    SeatTaken,
    ShardFilter,
    Storage,
    StorageError,
    UserSettings,
    VersionConflict,
    latest_version,
    open_storage,
)

from .conftest import FakeClock, raw_execute

GUILD = 111
HOST = 1001


async def new_game(
    storage: Storage,
    channel_id: int = 500,
    users: tuple[int, ...] = (HOST,),
    *,
    guild_id: int = GUILD,
    map_id: str = "usa",
) -> GameRow:
    """A lobby game with one seat per user (seat numbers from 0)."""
    return await storage.games.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        host_user_id=users[0],
        map_id=map_id,
        options={"turn": "async"},
        seats=[NewSeat(display_name=f"user{u}", user_id=u) for u in users],
    )


async def started_game(
    storage: Storage, channel_id: int = 500, users: tuple[int, ...] = (HOST, 1002), **kw: object
) -> GameRow:
    """An active game at version 0 whose snapshot records seq 0."""
    game = await new_game(storage, channel_id, users, **kw)  # type: ignore[arg-type]
    return await storage.games.start_game(
        game.id, seed=42, snapshot={"seq": 0}, engine_version="test-1"
    )


async def move(storage: Storage, game: GameRow, **kw: object) -> GameRow:
    """Append one action on top of ``game``'s version; the snapshot carries the seq."""
    seq = game.version + 1
    args: dict[str, object] = {
        "action": {"kind": "draw_blind", "n": seq},
        "new_snapshot": {"seq": seq},
        "seat": 0,
        "actor_user_id": HOST,
        "deadline_at": None,
        "reminder_at": None,
    }
    args.update(kw)
    return await storage.actions.append_action(game.id, game.version, **args)  # type: ignore[arg-type]


# -- opening ------------------------------------------------------------------


async def test_new_database_is_at_the_latest_schema(storage: Storage) -> None:
    """A fresh database of either backend ends at the same latest schema version."""
    assert await storage.schema_version() == latest_version() == 11
    assert await storage.integrity_check() == ["ok"]
    assert storage.backend in ("sqlite", "postgres")


async def test_close_is_idempotent_and_reopen_sees_data(database_url: str) -> None:
    """Closing twice is harmless and a reopened database has the committed game."""
    storage = await open_storage(database_url)
    game = await new_game(storage)
    await storage.close()
    await storage.close()
    async with await open_storage(database_url) as again:
        assert await again.games.get_game(game.id) == game
        assert await again.schema_version() == latest_version()


# -- games ------------------------------------------------------------------


async def test_create_game_returns_lobby_row(storage: Storage, clock: FakeClock) -> None:
    """A new game is a lobby at version 0 without snapshot, with the host seated."""
    game = await new_game(storage, channel_id=77)
    assert game.status == "lobby" and game.version == 0 and game.snapshot_version is None
    assert not game.started
    assert (game.guild_id, game.channel_id, game.host_user_id) == (GUILD, 77, HOST)
    assert game.options == {"turn": "async"}
    assert (game.language, game.rematch_of) == ("en", None)
    assert game.created_at == game.updated_at == clock.now
    assert [s.user_id for s in await storage.seats.seats(game.id)] == [HOST]
    assert await storage.games.get_game(game.id) == game
    assert await storage.games.active_game_in_channel(77) == game
    assert await storage.games.get_game(999) is None
    assert await storage.actions.load_checkpoint(game.id) is None


async def test_language_and_rematch_are_stored(storage: Storage) -> None:
    """A lobby remembers the table's language and the game it is a rematch of."""
    first = await started_game(storage, channel_id=1)
    await move(storage, first, new_status="finished")
    rematch = await storage.games.create_game(
        guild_id=GUILD, channel_id=1, host_user_id=HOST, map_id="usa", language="de",
        rematch_of=first.id,
    )  # fmt: skip
    assert (rematch.language, rematch.rematch_of) == ("de", first.id)
    assert await storage.games.get_game(rematch.id) == rematch
    assert set(LANGUAGES) == {"en", "de"}
    with pytest.raises(ValueError, match="language"):
        await storage.games.create_game(
            guild_id=GUILD, channel_id=2, host_user_id=HOST, map_id="usa", language="fr"
        )
    with pytest.raises(ValueError, match="turn_seconds"):
        await storage.games.create_game(
            guild_id=GUILD, channel_id=2, host_user_id=HOST, map_id="usa", turn_seconds=0
        )


async def test_one_open_game_per_channel(storage: Storage) -> None:
    """A channel holds one lobby/active game; cancelling or finishing frees it."""
    lobby = await new_game(storage, channel_id=9)
    with pytest.raises(ChannelBusy) as busy:
        await new_game(storage, channel_id=9)
    assert busy.value.game_id == lobby.id
    await new_game(storage, channel_id=10)  # other channels are free

    await storage.games.set_status(lobby.id, "cancelled")
    assert await storage.games.active_game_in_channel(9) is None
    second = await started_game(storage, channel_id=9)
    with pytest.raises(ChannelBusy):
        await new_game(storage, channel_id=9)

    await move(storage, second, new_status="finished")
    third = await new_game(storage, channel_id=9)
    assert await storage.games.active_game_in_channel(9) == third
    assert len(await storage.games.list_games()) == 4
    assert [g.id for g in await storage.games.list_games("lobby")] == [2, third.id]
    assert await storage.games.game_ids("lobby") == [2, third.id]
    assert await storage.games.game_ids() == [g.id for g in await storage.games.list_games()]


async def test_last_game_in_channel_whatever_its_status(storage: Storage) -> None:
    """The newest game of a channel is found after it ended, and a new one takes over."""
    assert await storage.games.last_game_in_channel(4) is None
    game = await started_game(storage, channel_id=4)
    finished = await move(storage, game, new_status="finished")
    assert await storage.games.active_game_in_channel(4) is None
    assert await storage.games.last_game_in_channel(4) == finished
    lobby = await new_game(storage, channel_id=4)
    assert await storage.games.last_game_in_channel(4) == lobby


async def test_finished_games_of_a_guild_newest_first_in_pages(
    storage: Storage, clock: FakeClock
) -> None:
    """/ttr game without id: a guild's finished games, newest first, paged; others left out."""
    ids = []
    for i in range(5):
        clock.now += 10
        game = await started_game(storage, channel_id=100 + i)
        ids.append((await move(storage, game, new_status="finished")).id)
    await started_game(storage, channel_id=200)  # still running
    cancelled = await new_game(storage, channel_id=201)
    await storage.games.set_status(cancelled.id, "cancelled")
    other = await started_game(storage, channel_id=202, guild_id=999)
    await move(storage, other, new_status="finished")

    newest_first = list(reversed(ids))
    assert [g.id for g in await storage.games.finished_games(GUILD, limit=2)] == newest_first[:2]
    assert [g.id for g in await storage.games.finished_games(GUILD, limit=2, offset=2)] == (
        newest_first[2:4]
    )
    assert [g.id for g in await storage.games.finished_games(GUILD, limit=10, offset=4)] == [ids[0]]
    assert await storage.games.finished_games(GUILD, offset=5) == []
    with pytest.raises(ValueError):
        await storage.games.finished_games(GUILD, limit=-1)


async def test_start_game_once(storage: Storage) -> None:
    """start_game turns a lobby active with seed, snapshot and timers; a second start fails."""
    game = await new_game(storage)
    started = await storage.games.start_game(
        game.id, seed=7, snapshot={"seq": 0}, engine_version="e2", deadline_at=5.0, reminder_at=4.0
    )
    assert (started.status, started.seed, started.engine_version, started.version) == (
        "active",
        7,
        "e2",
        0,
    )
    assert started.started and started.snapshot_version == 0
    assert (started.deadline_at, started.reminder_at) == (5.0, 4.0)
    checkpoint = await storage.actions.load_checkpoint(game.id)
    assert checkpoint is not None
    assert (checkpoint.version, checkpoint.snapshot, checkpoint.actions) == (0, {"seq": 0}, ())
    with pytest.raises(GameStatusError):
        await storage.games.start_game(game.id, seed=8, snapshot={}, engine_version="e2")
    with pytest.raises(GameNotFound):
        await storage.games.start_game(999, seed=8, snapshot={}, engine_version="e2")


async def test_start_renumbers_seats_in_the_same_transaction(storage: Storage) -> None:
    """Seats with gaps (players left) become 0..n-1 in joining order as the game starts."""
    game = await storage.games.create_game(
        guild_id=GUILD,
        channel_id=3,
        host_user_id=HOST,
        map_id="usa",
        seats=[
            NewSeat("host", user_id=HOST, seat=0),
            NewSeat("gone", user_id=7, seat=1),
            NewSeat("bob", user_id=8, seat=2),
            NewSeat("ai", is_ai=True, ai_kind="heuristic", seat=4),
        ],
    )
    await storage.seats.remove_seat(game.id, 1)
    before = await storage.seats.seats(game.id)
    await storage.games.start_game(game.id, seed=1, snapshot={"seq": 0}, engine_version="e")
    after = await storage.seats.seats(game.id)
    assert [s.seat for s in after] == [0, 1, 2]
    assert [(s.user_id, s.display_name, s.is_ai, s.joined_at) for s in after] == [
        (s.user_id, s.display_name, s.is_ai, s.joined_at) for s in before
    ]


async def test_status_transitions(storage: Storage, clock: FakeClock) -> None:
    """Only lobby->cancelled and active->finished/cancelled; final statuses stay final."""
    lobby = await new_game(storage, channel_id=1)
    with pytest.raises(GameStatusError):
        await storage.games.set_status(lobby.id, "finished")
    with pytest.raises(GameStatusError):
        await storage.games.set_status(lobby.id, "active")

    game = await started_game(storage, channel_id=2)
    await storage.timers.set_deadline(game.id, 100.0, 50.0)
    clock.now += 60
    finished = await storage.games.set_status(game.id, "finished", expected_version=0)
    assert (finished.status, finished.finished_at) == ("finished", clock.now)
    assert (finished.deadline_at, finished.reminder_at) == (None, None)
    assert await storage.games.set_status(game.id, "finished") == finished  # retry is a no-op
    with pytest.raises(GameStatusError):
        await storage.games.set_status(game.id, "cancelled")
    with pytest.raises(GameNotFound):
        await storage.games.set_status(999, "cancelled")


async def test_message_ids(storage: Storage) -> None:
    """set_message_ids changes only the given ids; None clears one."""
    game = await new_game(storage)
    await storage.games.set_message_ids(game.id, lobby_message_id=5)
    await storage.games.set_message_ids(game.id, board_message_id=6)
    game = await storage.games.get_game(game.id)  # type: ignore[assignment]
    assert game is not None and (game.lobby_message_id, game.board_message_id) == (5, 6)
    await storage.games.set_message_ids(game.id, lobby_message_id=None)
    game = await storage.games.get_game(game.id)  # type: ignore[assignment]
    assert game is not None and (game.lobby_message_id, game.board_message_id) == (None, 6)
    with pytest.raises(GameNotFound):
        await storage.games.set_message_ids(999, board_message_id=1)


async def test_discord_snowflakes_and_big_seeds_round_trip(storage: Storage) -> None:
    """64-bit ids and 63-bit seeds come back exactly."""
    big = 1_234_567_890_123_456_789
    game = await storage.games.create_game(
        guild_id=big, channel_id=big + 1, host_user_id=big + 2, map_id="usa",
        seats=[NewSeat("x", user_id=big + 2)],
    )  # fmt: skip
    started = await storage.games.start_game(
        game.id, seed=2**63 - 1, snapshot={"s": 1}, engine_version="e"
    )
    assert (started.guild_id, started.channel_id, started.seed) == (big, big + 1, 2**63 - 1)
    assert (await storage.seats.seats(game.id))[0].user_id == big + 2


# -- actions, versions and checkpoints ------------------------------------------


async def test_append_action_advances_version(storage: Storage, clock: FakeClock) -> None:
    """Each action gets seq = old version + 1, and the game takes the new timers."""
    game = await started_game(storage)
    clock.now += 1
    game = await move(storage, game, deadline_at=clock.now + 100, reminder_at=clock.now + 50)
    assert (game.deadline_at, game.reminder_at) == (clock.now + 100, clock.now + 50)
    game = await move(storage, game, seat=1, actor_user_id=None, source="ai")
    assert game.version == 2 and game.snapshot_version == 2
    assert (game.deadline_at, game.reminder_at) == (None, None)
    log = await storage.actions.actions(game.id)
    assert [(a.seq, a.seat, a.source, a.actor_user_id) for a in log] == [
        (1, 0, "player", HOST),
        (2, 1, "ai", None),
    ]
    assert log[0].action == {"kind": "draw_blind", "n": 1}
    assert [a.seq for a in await storage.actions.actions(game.id, after_seq=1)] == [2]
    assert [a.seq for a in await storage.actions.actions(game.id, limit=1)] == [1]


async def test_checkpoint_is_the_newest_snapshot_plus_the_log_after_it(storage: Storage) -> None:
    """Actions without a snapshot extend the tail; a snapshot resets it."""
    game = await started_game(storage)
    for _ in range(3):
        game = await move(storage, game, new_snapshot=None)
    checkpoint = await storage.actions.load_checkpoint(game.id)
    assert checkpoint is not None
    assert (checkpoint.version, checkpoint.snapshot, checkpoint.game_version) == (0, {"seq": 0}, 3)
    assert [a.seq for a in checkpoint.actions] == [1, 2, 3]
    assert game.snapshot_version == 0
    game = await move(storage, game)  # with a snapshot
    game = await move(storage, game, new_snapshot=None)
    checkpoint = await storage.actions.load_checkpoint(game.id)
    assert checkpoint is not None
    assert (checkpoint.version, checkpoint.snapshot) == (4, {"seq": 4})
    assert [a.seq for a in checkpoint.actions] == [5]
    assert game.snapshot_version == 4 and game.version == 5
    assert "'seq': 4" not in repr(checkpoint)  # the snapshot is a secret: not in repr


async def test_a_move_and_its_replies_are_one_transaction(storage: Storage) -> None:
    """append_actions stores several actions with consecutive seqs, the timers after the last,
    the seat changes and the snapshot together; a conflict stores none of them."""
    game = await started_game(storage)
    moves = [
        NewAction({"type": "draw_blind", "seat": 0}, 0, "player", HOST),
        NewAction({"type": "draw_blind", "seat": 0}, 0, "player", HOST),
        NewAction({"type": "draw_blind", "seat": 1}, 1, "ai"),
    ]
    game = await storage.actions.append_actions(
        game.id, 0, moves, deadline_at=90.0, reminder_at=45.0, new_snapshot={"seq": 3},
        seat_changes={0: {"expiries_in_row": 0}},
    )  # fmt: skip
    assert (game.version, game.snapshot_version, game.deadline_at, game.reminder_at) == (
        3,
        3,
        90.0,
        45.0,
    )
    log = await storage.actions.actions(game.id)
    assert [(a.seq, a.seat, a.source, a.actor_user_id) for a in log] == [
        (1, 0, "player", HOST),
        (2, 0, "player", HOST),
        (3, 1, "ai", None),
    ]
    assert await storage.timers.next_deadline() == NextTimer(game.id, 45.0, "reminder")
    with pytest.raises(VersionConflict):
        await storage.actions.append_actions(game.id, 1, moves, deadline_at=None, reminder_at=None)
    with pytest.raises(ValueError):
        await storage.actions.append_actions(game.id, 3, [], deadline_at=None, reminder_at=None)
    assert (
        await storage.games.get_game(game.id) == game
        and len(await storage.actions.actions(game.id)) == 3
    )


async def test_stale_version_conflicts_and_changes_nothing(storage: Storage) -> None:
    """A stale expected_version raises VersionConflict; version, snapshot and log stay."""
    game = await started_game(storage)
    moved = await move(storage, game)
    with pytest.raises(VersionConflict) as conflict:
        await move(storage, game, new_snapshot={"seq": "stale"})
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    with pytest.raises(VersionConflict):
        await storage.actions.append_action(
            game.id, 5, action={"x": 1}, new_snapshot={"seq": 6}, seat=0, deadline_at=None,
            reminder_at=None,
        )  # fmt: skip
    assert await storage.games.get_game(game.id) == moved
    assert [a.seq for a in await storage.actions.actions(game.id)] == [1]
    checkpoint = await storage.actions.load_checkpoint(game.id)
    assert checkpoint is not None and checkpoint.snapshot == {"seq": 1}


async def test_plain_moves_store_the_log_and_timers_in_one_go(
    storage: Storage, clock: FakeClock
) -> None:
    """A move and its replies without snapshot, seat changes or end (the hot path: one
    statement on PostgreSQL) store consecutive seqs and the timers, keep the snapshot, and a
    stale version, an ended or a missing game store nothing."""
    game = await started_game(storage)
    clock.now += 5
    moves = [
        NewAction({"type": "draw_blind", "seat": 0}, 0, "player", HOST),
        NewAction({"type": "draw_blind", "seat": 0}, 0, "player", HOST),
        NewAction({"type": "claim", "seat": 1, "route": "r'1\"; --"}, 1, "ai"),
    ]
    game = await storage.actions.append_actions(
        game.id, 0, moves, deadline_at=90.0, reminder_at=None
    )
    assert (game.version, game.snapshot_version, game.deadline_at, game.reminder_at) == (
        3,
        0,
        90.0,
        None,
    )
    assert game.updated_at == clock.now
    log = await storage.actions.actions(game.id)
    assert [(a.seq, a.seat, a.source, a.actor_user_id, a.created_at) for a in log] == [
        (1, 0, "player", HOST, clock.now),
        (2, 0, "player", HOST, clock.now),
        (3, 1, "ai", None, clock.now),
    ]
    assert log[2].action == {"type": "claim", "seat": 1, "route": "r'1\"; --"}
    assert await storage.timers.next_deadline() == NextTimer(game.id, 90.0, "deadline")
    with pytest.raises(VersionConflict) as conflict:
        await storage.actions.append_actions(
            game.id, 2, moves[:1], deadline_at=None, reminder_at=None
        )
    assert (conflict.value.expected, conflict.value.actual) == (2, 3)
    checkpoint = await storage.actions.load_checkpoint(game.id)
    assert checkpoint is not None and [a.seq for a in checkpoint.actions] == [1, 2, 3]
    ended = await move(storage, game, new_status="finished")
    with pytest.raises(GameStatusError):
        await storage.actions.append_actions(
            game.id, 4, moves[:1], deadline_at=None, reminder_at=None
        )
    with pytest.raises(GameNotFound):
        await storage.actions.append_actions(999, 0, moves[:1], deadline_at=None, reminder_at=None)
    assert await storage.games.get_game(game.id) == ended
    assert len(await storage.actions.actions(game.id)) == 4


async def test_game_with_seats_is_the_game_and_its_seats(storage: Storage) -> None:
    """game_with_seats reads what get_game and seats read, also for a game without seats."""
    game = await started_game(storage, users=(HOST, 1002, 1003))
    await storage.seats.update_seat(game.id, 2, expiries_in_row=2, vacation_until=50.0)
    assert await storage.seats.game_with_seats(game.id) == (
        game,
        await storage.seats.seats(game.id),
    )
    assert [s.seat for s in (await storage.seats.seats(game.id))] == [0, 1, 2]
    empty = await storage.games.create_game(
        guild_id=GUILD, channel_id=77, host_user_id=HOST, map_id="usa", options={}
    )
    assert await storage.seats.game_with_seats(empty.id) == (empty, [])
    assert await storage.seats.game_with_seats(999) is None


@pytest.mark.parametrize("snapshot", [True, False], ids=["with-snapshot", "plain"])
async def test_racing_appends_on_one_game_let_exactly_one_win(
    storage: Storage, snapshot: bool
) -> None:
    """Ten simultaneous moves from the same version: one lands, nine conflict (both write
    paths: with a snapshot, and the plain move that is one statement on PostgreSQL)."""
    game = await started_game(storage)
    extra = {} if snapshot else {"new_snapshot": None}
    outcomes = await asyncio.gather(
        *(move(storage, game, seat=i % 2, **extra) for i in range(10)), return_exceptions=True
    )
    assert sum(isinstance(o, GameRow) for o in outcomes) == 1
    assert sum(isinstance(o, VersionConflict) for o in outcomes) == 9
    assert [a.seq for a in await storage.actions.actions(game.id)] == [1]


async def test_actions_need_an_active_game(storage: Storage) -> None:
    """Appending to a lobby, a finished or a missing game fails."""
    lobby = await new_game(storage, channel_id=1)
    with pytest.raises(GameStatusError):
        await move(storage, lobby)
    game = await started_game(storage, channel_id=2)
    game = await move(storage, game, new_status="finished")
    assert game.status == "finished" and game.finished_at is not None
    with pytest.raises(GameStatusError):
        await move(storage, game)
    with pytest.raises(GameNotFound):
        await storage.actions.append_action(
            999, 0, action={}, new_snapshot={}, seat=0, deadline_at=None, reminder_at=None
        )
    with pytest.raises(ValueError):
        await move(storage, game, new_status="active")
    with pytest.raises(ValueError):
        await move(storage, game, results=[PlayerResult(0, HOST, 1, 1, True)])


async def test_unencodable_snapshot_writes_nothing(storage: Storage) -> None:
    """NaN is not JSON: the append fails before touching the database."""
    game = await started_game(storage)
    with pytest.raises(ValueError):
        await move(storage, game, new_snapshot={"seq": float("nan")})
    assert await storage.games.get_game(game.id) == game
    assert await storage.actions.actions(game.id) == []


async def test_seat_changes_commit_with_the_action_or_not_at_all(storage: Storage) -> None:
    """Seat updates handed to append_action land with it; a failing one takes the action back."""
    game = await started_game(storage)
    await storage.seats.update_seat(game.id, 0, expiries_in_row=2, vacation_until=50.0)
    game = await move(
        storage, game, seat_changes={0: {"expiries_in_row": 0, "vacation_until": None}}
    )
    seat = (await storage.seats.seats(game.id))[0]
    assert (seat.expiries_in_row, seat.vacation_until, game.version) == (0, None, 1)
    with pytest.raises(SeatNotFound):
        await move(storage, game, seat_changes={7: {"expiries_in_row": 1}})
    with pytest.raises(ConstraintError):
        await move(storage, game, seat_changes={1: {"expiries_in_row": -1}})
    with pytest.raises(ValueError, match="seat columns"):
        await move(storage, game, seat_changes={1: {"seat": 3}})  # type: ignore[typeddict-unknown-key]
    assert (await storage.games.get_game(game.id)) == game
    assert [a.seq for a in await storage.actions.actions(game.id)] == [1]
    assert [s.expiries_in_row for s in await storage.seats.seats(game.id)] == [0, 0]


async def test_two_hundred_concurrent_appends_on_different_games(storage: Storage) -> None:
    """200 append_action calls on 200 games via gather all land, each exactly once."""
    games = [await started_game(storage, channel_id=10_000 + i) for i in range(200)]
    moved = await asyncio.gather(*(move(storage, g) for g in games))
    assert [g.version for g in moved] == [1] * 200
    for game in moved:
        assert [a.seq for a in await storage.actions.actions(game.id)] == [1]
        checkpoint = await storage.actions.load_checkpoint(game.id)
        assert checkpoint is not None and checkpoint.snapshot == {"seq": 1}


# -- corrupt rows -----------------------------------------------------------------


async def test_unreadable_rows_raise_corrupt_game(storage: Storage, database_url: str) -> None:
    """Bad compressed data, bad JSON, a missing snapshot or bad options name the game."""
    a = await started_game(storage, channel_id=1)
    b = await started_game(storage, channel_id=2)
    c = await started_game(storage, channel_id=3)
    d = await started_game(storage, channel_id=4)
    await move(storage, d, new_snapshot=None)
    await raw_execute(database_url, "UPDATE snapshots SET data = ? WHERE game_id = ?", b"xx", a.id)
    await raw_execute(
        database_url,
        "UPDATE snapshots SET format = 'json', data = ? WHERE game_id = ?",
        b"{not json",
        b.id,
    )
    await raw_execute(database_url, "DELETE FROM snapshots WHERE game_id = ?", c.id)
    await raw_execute(database_url, "UPDATE games SET options = '{' WHERE id = ?", d.id)
    for game, words in [(a, "compressed"), (b, "bad JSON"), (c, "missing")]:
        with pytest.raises(CorruptGame, match=words) as caught:
            await storage.actions.load_checkpoint(game.id)
        assert caught.value.game_id == game.id
    with pytest.raises(CorruptGame, match="options"):
        await storage.games.get_game(d.id)
    assert await storage.games.game_ids() == [a.id, b.id, c.id, d.id]  # listing ids decodes nothing


async def test_quarantine_takes_a_game_out_once(storage: Storage, clock: FakeClock) -> None:
    """A quarantined game leaves the timers and frees its channel; a second call is a no-op."""
    game = await started_game(storage, channel_id=5, users=(HOST, 1002))
    await storage.timers.set_deadline(game.id, clock.now, clock.now)
    other = await started_game(storage, channel_id=6)
    await storage.timers.set_deadline(other.id, clock.now + 5, None)
    moved = await storage.games.quarantine(game.id, "the snapshot is not readable")
    assert moved is not None
    assert (moved.game_id, moved.channel_id, moved.user_ids) == (game.id, 5, (HOST, 1002))
    assert await storage.games.quarantine(game.id, "again") is None
    stored = await storage.games.get_game(game.id)
    assert stored is not None and stored.status == "quarantined"
    assert stored.status_note == "the snapshot is not readable"
    assert (stored.deadline_at, stored.reminder_at) == (None, None)
    assert await storage.timers.next_deadline() == NextTimer(other.id, clock.now + 5, "deadline")
    assert await storage.games.active_game_in_channel(5) is None
    with pytest.raises(GameStatusError):
        await move(storage, game)
    assert (await storage.games.set_status(game.id, "cancelled")).status == "cancelled"
    assert await storage.games.quarantine(999, "x") is None


# -- seats ------------------------------------------------------------------


async def test_seats_add_number_update_remove(storage: Storage) -> None:
    """Seats take the lowest free number, refuse duplicates, update and free cleanly."""
    game = await new_game(storage, users=(HOST,))
    ai = await storage.seats.add_seat(
        game.id, NewSeat(display_name="Bot", is_ai=True, ai_kind="heur")
    )
    assert (ai.seat, ai.is_ai, ai.ai_kind, ai.user_id) == (1, True, "heur", None)
    await storage.seats.add_seat(game.id, NewSeat(display_name="C", user_id=3, seat=4))
    with pytest.raises(SeatTaken):
        await storage.seats.add_seat(game.id, NewSeat(display_name="again", user_id=HOST))
    with pytest.raises(SeatTaken):
        await storage.seats.add_seat(game.id, NewSeat(display_name="D", user_id=4, seat=4))
    with pytest.raises(GameNotFound):
        await storage.seats.add_seat(999, NewSeat(display_name="E", user_id=5))
    assert await storage.seats.remove_seat(game.id, 1) is True
    assert await storage.seats.remove_seat(game.id, 1) is False
    refill = await storage.seats.add_seat(game.id, NewSeat(display_name="F", user_id=6))
    assert refill.seat == 1
    assert [s.seat for s in await storage.seats.seats(game.id)] == [0, 1, 4]

    updated = await storage.seats.update_seat(
        game.id,
        0,
        color="red",
        expiries_in_row=2,
        ai_permanent=True,
        vacation_used_s=3600.5,
        vacation_until=123.0,
    )
    assert (updated.color, updated.expiries_in_row, updated.ai_permanent) == ("red", 2, True)
    assert (updated.vacation_used_s, updated.vacation_until, updated.resigned) == (
        3600.5,
        123.0,
        False,
    )
    cleared = await storage.seats.update_seat(game.id, 0, vacation_until=None, resigned=True)
    assert (cleared.vacation_until, cleared.resigned, cleared.color) == (None, True, "red")
    assert await storage.seats.update_seat(game.id, 0) == cleared
    with pytest.raises(SeatTaken):
        await storage.seats.update_seat(game.id, 0, user_id=6)
    with pytest.raises(SeatNotFound):
        await storage.seats.update_seat(game.id, 9, color="blue")
    with pytest.raises(ConstraintError):
        await storage.seats.update_seat(game.id, 0, expiries_in_row=-1)
    assert (await storage.seats.seats(game.id))[0] == cleared


async def test_update_seats_with_timers_is_one_transaction(
    storage: Storage, clock: FakeClock
) -> None:
    """Several seats plus the timers change together, or (on any error) nothing does."""
    game = await started_game(storage)
    await storage.timers.set_deadline(game.id, 1000.0, 500.0)
    seats = await storage.seats.update_seats(
        game.id,
        {0: {"resigned": True, "ai_permanent": True}, 1: {"vacation_until": 99.0}},
        deadline_at=clock.now,
        reminder_at=None,
        expected_version=0,
    )
    assert [(s.resigned, s.ai_permanent, s.vacation_until) for s in seats] == [
        (True, True, None),
        (False, False, 99.0),
    ]
    stored = await storage.games.get_game(game.id)
    assert stored is not None and (stored.deadline_at, stored.reminder_at) == (clock.now, None)

    with pytest.raises(SeatNotFound):
        await storage.seats.update_seats(game.id, {1: {"vacation_until": 5.0}, 9: {"resigned": True}},
                                   deadline_at=1.0)  # fmt: skip
    with pytest.raises(VersionConflict):
        await storage.seats.update_seats(game.id, {1: {"vacation_until": 5.0}}, expected_version=3)
    assert await storage.seats.seats(game.id) == seats
    assert await storage.games.get_game(game.id) == stored
    only_timers = await storage.seats.update_seats(game.id, {}, deadline_at=None)
    assert only_timers == seats
    stored = await storage.games.get_game(game.id)
    assert stored is not None and (stored.deadline_at, stored.reminder_at) == (None, None)


async def test_games_for_user(storage: Storage) -> None:
    """games_for_user lists the games a user sits in, filtered by status."""
    a = await started_game(storage, channel_id=1, users=(HOST, 2))
    b = await new_game(storage, channel_id=2, users=(2, HOST))
    await started_game(storage, channel_id=3, users=(3, 4))
    assert [g.id for g in await storage.games.games_for_user(HOST)] == [a.id]
    assert [g.id for g in await storage.games.games_for_user(HOST, status="lobby")] == [b.id]
    assert [g.id for g in await storage.games.games_for_user(HOST, status=None)] == [a.id, b.id]
    assert await storage.games.games_for_user(999) == []


async def test_delete_cascades(storage: Storage) -> None:
    """Deleting a game removes its seats, actions, snapshot and results too."""
    game = await started_game(storage)
    game = await move(storage, game)
    await move(
        storage,
        game,
        new_status="finished",
        results=[PlayerResult(0, HOST, 50, 1, True), PlayerResult(1, 1002, 40, 2, False)],
    )
    other = await started_game(storage, channel_id=501)
    assert await storage.games.delete_game(game.id) is True
    assert await storage.games.delete_game(game.id) is False
    assert await storage.seats.seats(game.id) == []
    assert await storage.actions.actions(game.id) == []
    assert await storage.results.results(game.id) == []
    assert await storage.actions.load_checkpoint(game.id) is None
    assert await storage.copies.dump_game(game.id) is None
    assert len(await storage.seats.seats(other.id)) == 2
    assert await storage.integrity_check() == ["ok"]


# -- results and statistics --------------------------------------------------


async def finish(
    storage: Storage,
    clock: FakeClock,
    channel_id: int,
    scores: dict[int, tuple[int, int, int]],
    *,
    guild_id: int = GUILD,
    map_id: str = "usa",
) -> GameRow:
    """Play a game to its end with {user: (score, tickets_completed, tickets_failed)}."""
    users = tuple(scores)
    game = await started_game(storage, channel_id, users, guild_id=guild_id, map_id=map_id)
    clock.now += 100
    best = max(s for s, _, _ in scores.values())
    ordered = sorted(scores.values(), key=lambda v: -v[0])
    results = [
        PlayerResult(
            seat=i,
            user_id=u,
            score=s,
            rank=1 + [o[0] for o in ordered].index(s),
            won=s == best,
            tickets_completed=done,
            tickets_failed=failed,
        )
        for i, (u, (s, done, failed)) in enumerate(scores.items())
    ]
    return await move(storage, game, new_status="finished", results=results)


async def test_results_history_and_leaderboard(storage: Storage, clock: FakeClock) -> None:
    """Stats over three finished games give the right wins, averages and tickets."""
    g1 = await finish(storage, clock, 1, {1: (100, 3, 1), 2: (80, 2, 0)})
    g2 = await finish(storage, clock, 2, {1: (60, 1, 2), 2: (90, 4, 0), 3: (30, 0, 3)})
    g3 = await finish(storage, clock, 3, {2: (70, 2, 1), 3: (75, 3, 0)}, map_id="europe")
    await finish(storage, clock, 4, {1: (500, 9, 0)}, guild_id=999)  # other guild

    stored = await storage.results.results(g1.id)
    assert [(r.user_id, r.rank, r.won, r.guild_id, r.map_id) for r in stored] == [
        (1, 1, True, GUILD, "usa"),
        (2, 2, False, GUILD, "usa"),
    ]
    assert stored[0].finished_at == g1.finished_at

    history = await storage.results.user_history(2, limit=2)
    assert [(r.game_id, r.score, r.rank, r.won) for r in history] == [
        (g3.id, 70, 2, False),
        (g2.id, 90, 1, True),
    ]
    assert len(await storage.results.user_history(1)) == 3
    assert len(await storage.results.user_history(1, guild_id=GUILD)) == 2

    board = await storage.results.leaderboard(GUILD)
    assert [(r.user_id, r.games, r.wins, r.tickets_completed, r.tickets_failed) for r in board] == [
        (2, 3, 1, 8, 1),
        (1, 2, 1, 4, 3),
        (3, 2, 1, 3, 3),
    ]
    assert [r.avg_score for r in board] == [80.0, 80.0, 52.5]
    assert [r.user_id for r in await storage.results.leaderboard(GUILD, limit=1)] == [2]
    europe = await storage.results.leaderboard(GUILD, map_id="europe")
    assert [(r.user_id, r.wins) for r in europe] == [(3, 1), (2, 0)]


async def test_record_results_is_idempotent_per_game(storage: Storage) -> None:
    """Recording a game's results again replaces them instead of doubling the stats."""
    game = await started_game(storage, users=(1, 2))
    with pytest.raises(GameStatusError):
        await storage.results.record_results(game.id, [PlayerResult(0, 1, 10, 1, True)])
    await storage.games.set_status(game.id, "finished")
    rows = [PlayerResult(0, 1, 10, 1, True), PlayerResult(1, None, 5, 2, False)]
    first = await storage.results.record_results(game.id, rows)
    second = await storage.results.record_results(game.id, rows)
    assert first == second and len(second) == 2
    board = await storage.results.leaderboard(GUILD)
    assert [(r.user_id, r.games) for r in board] == [(1, 1)]  # the AI seat is left out
    with pytest.raises(ValueError):
        await storage.results.record_results(game.id, [rows[0], rows[0]])
    with pytest.raises(GameNotFound):
        await storage.results.record_results(999, rows)


# -- user settings -------------------------------------------------------------


async def test_user_settings_default_then_change_one_at_a_time(
    storage: Storage, clock: FakeClock
) -> None:
    """Absent settings are the defaults; a change keeps the other settings."""
    assert await storage.settings.get_user_settings(5) == UserSettings(5, True, False, False, None)
    clock.now += 1
    changed = await storage.settings.set_user_settings(5, dm_turns=True)
    assert changed == UserSettings(5, True, True, False, clock.now)
    clock.now += 1
    changed = await storage.settings.set_user_settings(5, turn_pings=False, high_contrast=True)
    assert changed == UserSettings(5, False, True, True, clock.now)
    assert await storage.settings.get_user_settings(5) == changed
    clock.now += 1
    phone = await storage.settings.set_user_settings(5, phone_board=True)
    assert phone == UserSettings(5, False, True, True, clock.now, phone_board=True)
    assert await storage.settings.get_user_settings(5) == phone
    changed = phone
    assert await storage.settings.get_user_settings(6) == UserSettings(6)
    with pytest.raises(ValueError, match="unknown"):
        await storage.settings.set_user_settings(5, colour=True)
    with pytest.raises(ValueError, match="True or False"):
        await storage.settings.set_user_settings(5, dm_turns=1)  # type: ignore[arg-type]
    assert await storage.settings.all_user_settings() == [changed]


# -- timers -----------------------------------------------------------------


async def test_next_deadline_picks_the_soonest(storage: Storage) -> None:
    """next_deadline returns the earliest deadline or reminder of an active game."""
    assert await storage.timers.next_deadline() is None
    a = await started_game(storage, channel_id=1)
    b = await started_game(storage, channel_id=2)
    c = await started_game(storage, channel_id=3)
    lobby = await new_game(storage, channel_id=4)
    await storage.timers.set_deadline(a.id, 300.0, 250.0)
    await storage.timers.set_deadline(b.id, 200.0, None)
    await storage.timers.set_deadline(c.id, None, 220.0)
    await storage.timers.set_deadline(lobby.id, 1.0, 0.5)  # not active: ignored
    assert await storage.timers.next_deadline() == NextTimer(b.id, 200.0, "deadline")

    await storage.timers.set_deadline(c.id, None, 150.0)
    when = await storage.timers.next_deadline()
    assert when == (c.id, 150.0, "reminder")

    await storage.games.set_status(c.id, "cancelled")
    await storage.timers.set_deadline(b.id, 400.0, None)
    assert await storage.timers.next_deadline() == NextTimer(a.id, 250.0, "reminder")
    await storage.timers.set_deadline(a.id, 250.0, 250.0)  # a tie within a game: the deadline
    assert await storage.timers.next_deadline() == NextTimer(a.id, 250.0, "deadline")
    await storage.timers.claim_reminder(a.id, 250.0)
    assert await storage.timers.next_deadline() == NextTimer(a.id, 250.0, "deadline")

    with pytest.raises(VersionConflict):
        await storage.timers.set_deadline(a.id, 1.0, None, expected_version=5)
    with pytest.raises(GameNotFound):
        await storage.timers.set_deadline(999, 1.0, None)


async def test_next_deadline_of_some_shards_only(storage: Storage) -> None:
    """With a shard filter only games of guilds on those shards are due."""

    def guild(shard: int, count: int = 4) -> int:
        return (shard + count * 17) << 22  # a snowflake whose shard is ``shard``

    games = {}
    for shard in range(4):
        game = await started_game(storage, channel_id=shard + 1, guild_id=guild(shard))
        await storage.timers.set_deadline(game.id, 100.0 + shard, 50.0 + shard)
        games[shard] = game.id
    assert ShardFilter(4, frozenset({2})).owns(guild(2))
    assert await storage.timers.next_deadline() == NextTimer(games[0], 50.0, "reminder")
    upper = ShardFilter(4, frozenset({2, 3}))
    assert await storage.timers.next_deadline(upper) == NextTimer(games[2], 52.0, "reminder")
    await storage.timers.claim_reminder(games[2], 52.0)
    assert await storage.timers.next_deadline(upper) == NextTimer(games[3], 53.0, "reminder")
    await storage.timers.claim_reminder(games[3], 53.0)
    assert await storage.timers.next_deadline(upper) == NextTimer(games[2], 102.0, "deadline")
    assert await storage.timers.next_deadline(ShardFilter(4, frozenset(range(4)))) == NextTimer(
        games[0], 50.0, "reminder"
    )
    with pytest.raises(ValueError):
        ShardFilter(4, frozenset({4}))
    with pytest.raises(ValueError):
        ShardFilter(0, frozenset({0}))


async def test_a_reminder_is_claimed_once(storage: Storage) -> None:
    """Of several claims on the same reminder exactly one wins; a moved reminder is not claimed."""
    game = await started_game(storage)
    await storage.timers.set_deadline(game.id, 100.0, 50.0)
    claims = await asyncio.gather(*(storage.timers.claim_reminder(game.id, 50.0) for _ in range(5)))
    assert sorted(claims) == [False] * 4 + [True]
    stored = await storage.games.get_game(game.id)
    assert stored is not None and (stored.deadline_at, stored.reminder_at) == (100.0, None)
    await storage.timers.set_deadline(game.id, 100.0, 60.0)
    assert await storage.timers.claim_reminder(game.id, 50.0) is False


# -- copying games -------------------------------------------------------------


async def test_dump_and_restore_a_game_into_another_database(
    storage: Storage, clock: FakeClock, tmp_path: object
) -> None:
    """A dumped game restores with its id, seats, log, snapshot and results intact."""
    game = await finish(storage, clock, 7, {1: (50, 2, 1), 2: (40, 1, 0)})
    await storage.settings.set_user_settings(1, high_contrast=True, phone_board=True)
    dump = await storage.copies.dump_game(game.id)
    assert dump is not None and dump.game_id == game.id
    assert "42" not in repr(dump)  # the seed stays out of repr
    target = await open_storage(f"sqlite:///{tmp_path}/copy.sqlite3", clock=clock)
    try:
        await target.copies.restore_game(dump)
        await target.settings.restore_user_settings(await storage.settings.all_user_settings())
        assert await target.games.get_game(game.id) == await storage.games.get_game(game.id)
        assert await target.seats.seats(game.id) == await storage.seats.seats(game.id)
        assert await target.actions.actions(game.id) == await storage.actions.actions(game.id)
        assert await target.results.results(game.id) == await storage.results.results(game.id)
        assert await target.actions.load_checkpoint(
            game.id
        ) == await storage.actions.load_checkpoint(game.id)
        assert (
            await target.settings.all_user_settings() == await storage.settings.all_user_settings()
        )
        with pytest.raises(StorageError, match="already exists"):
            await target.copies.restore_game(dump)
        fresh = await new_game(target, channel_id=99)
        assert fresh.id > game.id
    finally:
        await target.close()
