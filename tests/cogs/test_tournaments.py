"""Tournaments through the running bot and the fake Discord, as members and an admin do it,
in English and in German: sign up with the button, start, every table's game in its own
thread, the next round when the last game of a round ends, the standings as text and image,
a player who leaves forfeits."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from bot.host.storage import TournamentTable

from ._driver import TIMEOUT, Player
from ._harness import RunningTable, running_table

NINE = tuple(f"p{i}" for i in range(1, 10))


async def _open(t: RunningTable, **options: object) -> int:
    owner = Player(t.fake, "owner", "games")
    reply = await owner.slash("tournament open", {"map": "usa", **options})
    assert reply.ephemeral and "You opened the tournament" in reply.content, reply.summary()
    [found] = await t.service.tournaments.in_guild(t.fake.guild_id)
    return found.id


async def _sign_up(t: RunningTable, names: tuple[str, ...]) -> None:
    """Every second player clicks Join under the sign-up message, the others type the command."""
    signup = next(m for m in t.fake.messages_in("games") if any(":join" in c for c in m.custom_ids))
    join = next(c for c in signup.custom_ids if c.endswith(":join"))
    for i, name in enumerate(names):
        player = t.players[name]
        if i % 2:
            reply = await player.click(signup, join, private=True)
        else:
            reply = await player.slash("tournament join")
        assert reply.ephemeral and "**" in reply.content, reply.summary()


async def _round_tables(t: RunningTable, tid: int) -> list[TournamentTable]:
    view = await t.service.tournaments.view(tid)
    return view.round_tables(view.tournament.round)


async def _play_round(t: RunningTable, tid: int, *, round_no: int) -> None:
    """In every table's thread each player resigns with /ttr game resign (the computer then
    plays the seats to the end); waits for the next round's message or the final standings."""
    tables = await _round_tables(t, tid)
    assert {x.round for x in tables} == {round_no}
    by_id = {p.user.id: p for p in t.players.values()}
    since = len(t.fake.sent)
    for table in tables:
        if len(table.players) == 1:
            continue
        assert table.thread_id is not None and table.game_id is not None
        thread = t.fake.channels[table.thread_id]
        assert thread.type == 11 and thread.parent_id == t.fake.channel("games").id
        for user in table.players:
            handle = await t.fake.slash(by_id[user].user, "ttr", "game resign", {},
                                        channel=table.thread_id)  # fmt: skip
            reply = await handle.message(timeout=TIMEOUT)
            assert reply.ephemeral, reply.summary()
    await t.fake.wait_for_message(
        lambda m: (
            m.channel_id == t.fake.channel("games").id
            and bool(
                re.search(rf"round {round_no + 1}:|Runde {round_no + 1}:|over|vorbei", m.content)
            )
        ),
        since=since,
        timeout=TIMEOUT * 3,
    )


async def test_a_swiss_of_nine_at_tables_of_three_in_threads_to_the_standings(
    tmp_path: Path,
) -> None:
    """Nine members sign up (button and command), the owner starts three Swiss rounds at
    tables of three: every round three threads under the channel, each with its game of
    three, nobody meets anyone twice; after the last game the final standings are posted with
    their image, and /ttr tournament standings shows them privately, in German for a German
    reader."""
    async with running_table(tmp_path, NINE) as t:
        tid = await _open(t, name="Autumn Cup", format="swiss", table_size=3, rounds=3)
        await _sign_up(t, NINE)
        start = await Player(t.fake, "owner", "games").slash("tournament start")
        assert "Round 1 has begun at 3 tables." in start.content, start.summary()
        met: set[frozenset[int]] = set()
        for round_no in (1, 2, 3):
            tables = await _round_tables(t, tid)
            assert sorted(len(x.players) for x in tables) == [3, 3, 3]
            for x in tables:
                for pair in itertools.combinations(x.players, 2):
                    assert frozenset(pair) not in met, f"round {round_no} repeats a pair"
                    met.add(frozenset(pair))
            await _play_round(t, tid, round_no=round_no)
        final = t.fake.messages_in("games")[-1]
        assert "**Autumn Cup** is over. Final standings:" in final.content, final.summary()
        assert any(a.filename == "standings.png" for a in final.attachments)
        assert len(re.findall(r"^\d+\. ", final.content, re.M)) == 9
        threads = [c for c in t.fake.channels.values() if c.type == 11]
        assert len(threads) == 9
        t.fake.user("p1").locale = "de"
        mine = await t.players["p1"].slash("tournament standings")
        assert mine.ephemeral and "**Autumn Cup** ist vorbei. Endstand:" in mine.content
        assert "Punkte (Buchholz" in mine.content and mine.attachments


async def test_a_german_round_robin_of_four(tmp_path: Path) -> None:
    """A German tournament: the sign-up, the round messages and the thread names are German;
    four players meet each other once in three rounds."""
    names = ("anna", "ben", "cora", "dirk")
    async with running_table(tmp_path, names) as t:
        tid = await _open(t, name="Liga", format="round_robin", table_size=2, language="de")
        signup = t.fake.messages_in("games")[-1]
        assert "jeder gegen jeden an Tischen für 2" in signup.content, signup.summary()
        await _sign_up(t, names)
        await Player(t.fake, "owner", "games").slash("tournament start")
        first = t.fake.messages_in("games")[-1]
        assert "**Liga**, Runde 1:" in first.content and "Tisch 1:" in first.content
        assert any(c.name.startswith("Liga: Runde 1, Tisch") for c in t.fake.channels.values())
        for round_no in (1, 2, 3):
            await _play_round(t, tid, round_no=round_no)
        view = await t.service.tournaments.view(tid)
        assert view.tournament.status == "finished"
        assert len({frozenset(x.players) for x in view.tables}) == 6
        assert "**Liga** ist vorbei. Endstand:" in t.fake.messages_in("games")[-1].content


async def test_an_elimination_of_eight_and_a_player_who_leaves(tmp_path: Path) -> None:
    """Eight players at tables of two; one clicks Leave in round one and forfeits: the winner
    of their table goes on only if it is not them; three rounds at most, one winner."""
    names = tuple(f"e{i}" for i in range(1, 9))
    async with running_table(tmp_path, names) as t:
        tid = await _open(t, name="Knockout", format="elimination", table_size=2)
        await _sign_up(t, names)
        await Player(t.fake, "owner", "games").slash("tournament start")
        assert [len(x.players) for x in await _round_tables(t, tid)] == [2, 2, 2, 2]
        signup = next(m for m in t.fake.messages_in("games") if m.custom_ids)
        leave = next(c for c in signup.custom_ids if c.endswith(":leave"))
        left = await t.players["e1"].click(signup, leave, private=True)
        assert "you forfeit every round after round 1" in left.content, left.summary()
        await _play_round(t, tid, round_no=1)
        second = await _round_tables(t, tid)
        e1 = t.fake.user("e1").id
        assert e1 not in {p for x in second for p in x.players}
        round_no = 2
        while (await t.service.tournaments.view(tid)).tournament.status == "running":
            await _play_round(t, tid, round_no=round_no)
            round_no += 1
        view = await t.service.tournaments.view(tid)
        assert [s.active for s in view.standings].count(True) == 1
        line = next(s for s in view.standings if s.player == e1)
        assert not line.active


async def test_refusals_are_private_and_specific(tmp_path: Path) -> None:
    """A member without Manage Server cannot open or start; a second sign-up and a command in
    a channel without a tournament are refused with their reason, privately."""
    async with running_table(tmp_path, ("alice", "bob")) as t:
        alice = t.players["alice"]
        none = await alice.slash("tournament standings")
        assert none.ephemeral and "There is no tournament in this channel" in none.content
        refused = await alice.slash("tournament open", {"name": "X", "map": "usa",
                                                        "format": "swiss", "table_size": 2})  # fmt: skip
        assert "Only members with the Manage Server permission" in refused.content
        await _open(t, name="Cup", format="swiss", table_size=2)
        await alice.slash("tournament join")
        again = await alice.slash("tournament join")
        assert "You have already signed up for this tournament." in again.content
        early = await alice.slash("tournament start")
        assert "Only members with the Manage Server permission" in early.content
        few = await Player(t.fake, "owner", "games").slash("tournament start")
        assert "A tournament needs at least 2 players." in few.content
        listed = await alice.slash("tournament list")
        assert "**Cup**: Swiss with tables, sign-up open" in listed.content
