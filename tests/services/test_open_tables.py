"""Open tables and followers in the service: the list of lobbies, the rate-limited role ping,
lobbies nobody joins expiring, and following a game; on SQLite and on PostgreSQL for the SQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.services import GameService, ServiceError
from bot.host.storage import GameRow, Storage, open_storage

from .conftest import BOB, CAROL, HOST, STRANGER, FakeClock, lobby


async def test_the_list_shows_the_servers_lobbies_with_free_seats(
    service: GameService, clock: FakeClock
) -> None:
    """Lobbies of this server with a free seat, oldest first, with their age; a running game, a
    full lobby and another server's lobby are left out."""
    first = await lobby(service, users=(HOST,), channel=1)
    clock.advance(600)
    second = await lobby(service, users=(BOB, CAROL), channel=2)
    full = await lobby(service, map_id="amsterdam", users=(CAROL, HOST), channel=3)
    await service.lobby.add_ai(full, CAROL)
    await service.lobby.add_ai(full, CAROL)  # Amsterdam seats four at most
    running = await lobby(service, users=(STRANGER, 404), channel=4)
    await service.lobby.start(running, STRANGER)
    await service.lobby.create(guild_id=2, channel_id=9, host_id=HOST, host_name="h", map_id="usa")
    clock.advance(60)
    tables = await service.tables.open_tables(1)
    assert [t.game.id for t in tables] == [first, second]
    assert [(t.taken, t.free) for t in tables] == [(1, 4), (2, 3)]
    assert [t.age_s for t in tables] == [660, 60]
    assert full and running


async def test_the_role_is_pinged_at_most_once_per_interval(
    service: GameService, clock: FakeClock
) -> None:
    """No role, no ping; with a role, the first lobby pings it and the next ones within ten
    minutes do not; after ten minutes it is pinged again; the interval is a setting."""
    assert await service.tables.ping_role(1) is None
    with pytest.raises(ServiceError) as refused:
        await service.tables.configure(1, BOB, manage_server=False, role_id=77)
    assert refused.value.code == "not_manager"
    await service.tables.configure(1, HOST, manage_server=True, role_id=77)
    assert await service.tables.ping_role(1) == 77
    clock.advance(300)
    assert await service.tables.ping_role(1) is None
    clock.advance(299)
    assert await service.tables.ping_role(1) is None
    clock.advance(1)
    assert await service.tables.ping_role(1) == 77
    assert await service.tables.ping_role(2) is None  # another server names no role
    await service.tables.configure(1, HOST, manage_server=True, ping_minutes=1)
    clock.advance(60)
    assert await service.tables.ping_role(1) == 77
    settings = await service.tables.configure(1, HOST, manage_server=True, clear_role=True)
    assert settings.role_id is None and settings.ping_seconds == 60
    clock.advance(3600)
    assert await service.tables.ping_role(1) is None


async def test_a_lobby_nobody_joins_expires_after_the_servers_time(
    service: GameService, clock: FakeClock
) -> None:
    """After a day a lobby with only its host (and a computer player) is cancelled and reported
    once; a lobby someone joined stays; a server may set a shorter time."""
    lonely = await lobby(service, users=(HOST,), ais=1, channel=1)
    joined = await lobby(service, users=(BOB, CAROL), channel=2)
    told: list[int] = []

    async def note(game: GameRow) -> None:
        told.append(game.id)

    service.tables.on_expired = note
    clock.advance(86_399)
    assert await service.tables.expire_due() == []
    clock.advance(1)
    expired = await service.tables.expire_due()
    assert [g.id for g in expired] == [lonely] and told == [lonely]
    assert expired[0].status == "cancelled"
    assert await service.tables.expire_due() == []  # once
    assert (await service.storage.games.get_game(joined)).status == "lobby"  # type: ignore[union-attr]
    await service.tables.configure(2, HOST, manage_server=True, expiry_hours=1)
    other = await service.lobby.create(
        guild_id=2, channel_id=9, host_id=HOST, host_name="h", map_id="usa"
    )
    clock.advance(3600)
    assert [g.id for g in await service.tables.expire_due()] == [other.id]


async def test_the_timer_loop_runs_the_expiry(service: GameService) -> None:
    """The expiry is one of the timer loop's chores."""
    assert service.tables.expire_due in service.timers.chores


async def test_follow_and_unfollow(service: GameService) -> None:
    """Anyone but a player may follow an open game (again: the choice is replaced); unfollowing
    twice is refused, as is following a finished game."""
    gid = await lobby(service, users=(HOST, BOB))
    await service.tables.follow(gid, CAROL, each_turn=False, language="en")
    await service.tables.follow(gid, CAROL, each_turn=True, language="de")
    await service.tables.follow(gid, STRANGER, each_turn=False, language="en")
    assert [(f.user_id, f.each_turn, f.language) for f in await service.tables.followers(gid)] == [
        (CAROL, True, "de"),
        (STRANGER, False, "en"),
    ]
    with pytest.raises(ServiceError) as own:
        await service.tables.follow(gid, BOB, each_turn=False, language="en")
    assert own.value.code == "follow_own_game"
    await service.tables.unfollow(gid, STRANGER)
    with pytest.raises(ServiceError) as again:
        await service.tables.unfollow(gid, STRANGER)
    assert again.value.code == "not_following"
    await service.lobby.cancel(gid, HOST)
    with pytest.raises(ServiceError) as over:
        await service.tables.follow(gid, STRANGER, each_turn=False, language="en")
    assert over.value.code == "game_over"


async def test_the_sql_runs_on_both_backends(any_url: str, clock: FakeClock) -> None:
    """The open-table store on SQLite and PostgreSQL: settings, the ping claim, the lobby list,
    the expiry and the followers."""
    storage: Storage = await open_storage(any_url, clock=clock)
    try:
        service = GameService(storage, clock=clock, seed_source=lambda: 3)
        await service.tables.configure(1, HOST, manage_server=True, role_id=5, expiry_hours=2)
        assert await service.tables.ping_role(1) == 5
        assert await service.tables.ping_role(1) is None
        gid = await lobby(service, users=(HOST,))
        await service.tables.follow(gid, CAROL, each_turn=True, language="de")
        assert [t.free for t in await service.tables.open_tables(1)] == [4]
        clock.advance(7200)
        assert [g.id for g in await service.tables.expire_due()] == [gid]
        assert [f.user_id for f in await service.tables.followers(gid)] == [CAROL]
    finally:
        await storage.close()


async def test_a_copy_of_the_database_keeps_the_settings_and_the_followers(
    tmp_path: Path, service: GameService
) -> None:
    """``python -m bot migrate`` copies the open tables' settings with the server-wide tables and
    a game's followers with the game."""
    await service.tables.configure(1, HOST, manage_server=True, role_id=8, ping_minutes=3)
    assert await service.tables.ping_role(1) == 8
    gid = await lobby(service, users=(HOST,))
    await service.tables.follow(gid, CAROL, each_turn=True, language="de")
    dump = await service.storage.copies.dump_game(gid)
    servers = await service.storage.copies.dump_guild_tables()
    assert dump is not None and len(dump.followers) == 1 and len(servers.tables) == 1
    async with await open_storage(tmp_path / "copy.sqlite3") as target:
        await target.copies.restore_game(dump)
        await target.copies.restore_guild_tables(servers)
        assert await target.copies.dump_game(gid) == dump
        assert await target.copies.dump_guild_tables() == servers
        assert await target.tables.followers(gid) == await service.tables.followers(gid)
        assert await target.tables.settings(1) == await service.tables.settings(1)
