"""The tournament tables on SQLite and PostgreSQL: a round is written whole or not at all,
sign-up rules, scoring a table once, forgetting a player and purging a server."""

from __future__ import annotations

import pytest

from bot.host.storage import NewTable, Storage, TournamentRefused

GUILD = 9_876_543_210_123


async def _tournament(storage: Storage) -> int:
    t = await storage.tournaments.create(
        guild_id=GUILD, channel_id=5, name="Cup", maps=["usa", "europe"], format="swiss",
        table_size=3, rounds=2, rated=True, turn_seconds=3600, language="de", created_by=11,
    )  # fmt: skip
    assert (t.status, t.round, t.maps, t.rated) == ("open", 0, ("usa", "europe"), True)
    for user in (11, 12, 13, 14):
        await storage.tournaments.join(t.id, user, f"u{user}")
    return t.id


async def test_a_round_is_whole_and_written_once(storage: Storage) -> None:
    """Round 1 with a table of three and a bye: both tables and all four seats at once, the bye
    done with place 1; writing round 1 again (or round 3) is refused and changes nothing."""
    tid = await _tournament(storage)
    tables = [NewTable("usa", (11, 12, 13)), NewTable("usa", (14,))]
    t = await storage.tournaments.start_round(tid, 1, tables)
    assert (t.status, t.round) == ("running", 1)
    for bad in (1, 3):
        with pytest.raises(TournamentRefused) as exc:
            await storage.tournaments.start_round(tid, bad, [NewTable("usa", (11, 14))])
        assert exc.value.reason == "round_moved"
    stored = await storage.tournaments.tables(tid)
    assert [(x.table_no, x.players, x.done) for x in stored] == [
        (1, (11, 12, 13), False),
        (2, (14,), True),
    ]
    assert stored[1].seats[0].place == 1
    with pytest.raises(TournamentRefused) as late:
        await storage.tournaments.join(tid, 15, "late")
    assert late.value.reason == "not_open"
    assert await storage.tournaments.record_table(tid, 1, 1, [2, 1, 3], [80, 95, 60])
    assert not await storage.tournaments.record_table(tid, 1, 1, [1, 2, 3], [0, 0, 0])
    [first, _] = await storage.tournaments.tables(tid)
    assert [(s.place, s.score) for s in first.seats] == [(2, 80), (1, 95), (3, 60)]
    await storage.tournaments.set_table_game(tid, 1, 1, thread_id=77, game_id=1234)
    assert await storage.tournaments.table_of_game(1234) == (tid, 1, 1)
    left = await storage.tournaments.leave(tid, 12)
    assert left.round == 1
    assert [p.left_round for p in await storage.tournaments.players(tid)] == [None, 1, None, None]


async def test_forgetting_and_purging_cover_the_tournament_tables(storage: Storage) -> None:
    """Forgetting 11 leaves one negative stand-in in their seats and sign-up, no name, and no
    opener; the others are untouched. Purging the server deletes the tournament and its rows."""
    tid = await _tournament(storage)
    await storage.tournaments.start_round(tid, 1, [NewTable("usa", (11, 12, 13, 14))])
    await storage.privacy.forget_user(11, lambda lang, seat: f"former {seat}")
    players = await storage.tournaments.players(tid)
    stand_in = players[0].user_id
    assert stand_in < 0 and players[0].display_name == ""
    assert [p.user_id for p in players[1:]] == [12, 13, 14]
    [table] = await storage.tournaments.tables(tid)
    assert table.players == (stand_in, 12, 13, 14)
    t = await storage.tournaments.get(tid)
    assert t is not None and t.created_by is None
    await storage.privacy.purge_guild(GUILD)
    assert await storage.tournaments.get(tid) is None
    assert await storage.tournaments.tables(tid) == []
    assert await storage.tournaments.players(tid) == []


async def test_a_copy_takes_the_tournaments_whole(storage: Storage, tmp_path: object) -> None:
    """``python -m bot migrate``'s server-wide copy holds every tournament row, and restored
    into an empty database it reads the same, a new tournament taking the next id."""
    from pathlib import Path

    from bot.host.storage import open_storage

    tid = await _tournament(storage)
    await storage.tournaments.start_round(
        tid, 1, [NewTable("usa", (11, 12)), NewTable("usa", (13, 14))]
    )
    await storage.tournaments.record_table(tid, 1, 2, [1, 2], [90, 80])
    dump = await storage.copies.dump_guild_tables()
    assert len(dump.tournament_seats) == 4 and dump.tournament_tables[1]["done"] is True
    assert isinstance(tmp_path, Path)
    async with await open_storage(tmp_path / "copy.sqlite3") as target:
        await target.copies.restore_guild_tables(dump)
        assert await target.copies.dump_guild_tables() == dump
        assert await target.tournaments.tables(tid) == await storage.tournaments.tables(tid)
        again = await target.tournaments.create(
            guild_id=GUILD, channel_id=5, name="Next", maps=["usa"], format="elimination",
            table_size=2, rounds=0, rated=False, turn_seconds=60, language="en", created_by=12,
        )  # fmt: skip
        assert again.id == tid + 1
