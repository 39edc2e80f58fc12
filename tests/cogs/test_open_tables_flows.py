"""Open tables and following a game, through the fake Discord with the real bot, service and
SQLite storage, in English and German: the server's list with its Join buttons used from
another channel, the looking-for-players role (opt-in, its ping at most once in ten minutes),
a lobby nobody joins expiring with a note to its host, and followers' direct messages."""

from __future__ import annotations

import time
from pathlib import Path

from cogs.ttr import _ids as ids

from ..e2e.fake_discord import SentMessage
from ..e2e.fake_discord.protocol import Perm
from ._driver import Player
from ._harness import RunningTable, running_table


class Clock:
    """Unix seconds that move only when the test says so (the service's clock injection)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _in(table: RunningTable, channel: str, since: int = 0) -> list[SentMessage]:
    wanted = table.fake.channel(channel).id
    return [m for m in table.fake.sent[since:] if m.kind == "channel" and m.channel_id == wanted]


async def _role_named(table: RunningTable, admin: Player, name: str = "Looking for players") -> int:
    """A role of the server that ``admin`` (given Manage Server) names as the looking-for-players
    role with /ttr admin config."""
    role = table.fake.guild_api.add_role(name)
    table.fake.set_permissions(admin.user, Perm.DEFAULT_MEMBER | Perm.MANAGE_GUILD)
    reply = await admin.slash("admin config", {"table_role": role})
    assert reply.ephemeral and "The server settings were saved." in reply.content, reply.summary()
    assert f"<@&{role}>" in reply.content and "at most once per 10 minutes" in reply.content
    return role


async def test_a_table_opened_in_one_channel_is_listed_and_joined_from_another(
    tmp_path: Path,
) -> None:
    """Alice opens a lobby in #games; Bob (German) lists the open tables in #general and joins with
    the list's button: he is seated, #games is told as when someone joins there, and the list
    then shows the table with one seat less; an English reader sees the same list in English."""
    async with running_table(tmp_path, ("alice", "bob", "carol")) as t:
        alice, carol = t.players["alice"], t.players["carol"]
        bob = Player(t.fake, "bob", "general")
        bob.user.locale = "de"
        carol.channel = "general"
        assert "No table is waiting for players" in (await carol.slash("tables list")).content
        await alice.slash("new", {"map": "usa", "turn_time": "1h"})
        gid = await t.game_id()
        listed = await bob.slash("tables list")
        assert listed.ephemeral and "**Offene Tische** (Seite 1 von 1)" in listed.content
        assert "4 freie Plätze, Zugzeit 1 Stunde, English, gewertet" in listed.content
        assert f"Gastgeber <@{alice.user.id}>" in listed.content
        assert f"in <#{t.fake.channel('games').id}>" in listed.content
        assert listed.custom_ids == [ids.TakeSeat(gid).custom_id]
        assert [b["label"] for b in listed.buttons] == ["Mitspielen 1"]
        since = len(t.fake.sent)
        joined = await bob.click(listed, ids.TakeSeat(gid).custom_id, private=True)
        assert joined.ephemeral and joined.content == (
            f"Du spielst in Spiel {gid} in <#{t.fake.channel('games').id}> mit."
        )
        told = _in(t, "games", since)
        assert [m.content.split(".")[0] for m in told] == [f"<@{bob.user.id}> joined"]
        assert bob.user.id in [s.user_id for s in await t.service.storage.seats.seats(gid)]
        english = await carol.slash("tables list")
        assert "**Open tables** (page 1 of 1)" in english.content
        assert "3 free seats, turn time 1 hour, English, rated" in english.content
        again = await bob.click(listed, ids.TakeSeat(gid).custom_id, private=True)
        assert again.ephemeral and again.content == "Du bist schon dabei."  # nothing changed
        assert len(await t.service.storage.seats.seats(gid)) == 2


async def test_the_role_is_pinged_once_in_ten_minutes_for_three_lobbies(tmp_path: Path) -> None:
    """Three lobbies open within ten minutes: the role is pinged for the first only, in its
    channel, with a Join button, and nobody else is pinged; ten minutes after the ping a German
    lobby pings it again, in German."""
    async with running_table(tmp_path, ("alice", "bob", "carol")) as t:
        clock = Clock()
        t.service.tables.clock = clock
        alice, bob, carol = t.players["alice"], t.players["bob"], t.players["carol"]
        t.fake.add_channel("more")
        role = await _role_named(t, alice)
        since = len(t.fake.sent)
        await alice.slash("new", {"map": "usa"})
        clock.now += 300
        bob.channel = "general"
        await bob.slash("new", {"map": "usa"})
        clock.now += 299
        carol.channel = "more"
        await carol.slash("new", {"map": "usa"})
        pings = [m for m in t.fake.sent[since:] if f"<@&{role}>" in m.content]
        assert len(pings) == 1, [m.summary() for m in pings]
        ping = pings[0]
        assert ping.kind == "channel" and ping.channel_id == t.fake.channel("games").id
        assert ping.pings == frozenset({f"role:{role}"})
        assert "A table of **USA** is open" in ping.content and "4 free seats" in ping.content
        gid = await t.game_id("games")
        assert ping.custom_ids == [ids.TakeSeat(gid).custom_id]
        assert all(
            not any(p.startswith("role:") for p in m.pings)
            for m in t.fake.sent[since:]
            if m != ping
        )
        # ten minutes after the ping: pinged again, in the table's language
        clock.now += 1
        await alice.slash("game cancel")
        since = len(t.fake.sent)
        await alice.slash("new", {"map": "usa", "language": "de"})
        again = [m for m in t.fake.sent[since:] if f"<@&{role}>" in m.content]
        assert len(again) == 1 and again[0].pings == frozenset({f"role:{role}"})
        assert "Ein Tisch auf dem Spielplan **USA** ist in" in again[0].content


async def test_members_take_and_drop_the_role_themselves(tmp_path: Path) -> None:
    """/ttr tables notify: refused clearly while the server names no role and while the bot may
    not manage roles; then the bot gives the role and takes it away, in the member's language."""
    async with running_table(tmp_path, ("alice", "bob")) as t:
        alice, bob = t.players["alice"], t.players["bob"]
        bob.user.locale = "de"
        none = await alice.slash("tables notify", {"on": True})
        assert none.ephemeral and "no role for players looking for a game" in none.content
        assert "/ttr admin config table_role:" in none.content
        role = await _role_named(t, alice)
        refused = await alice.slash("tables notify", {"on": True})
        assert refused.ephemeral and "Manage Roles" in refused.content, refused.summary()
        assert t.fake.guild_api.roles_of(alice.user) == set()
        t.fake.bot_user.permissions |= Perm.MANAGE_ROLES
        t.fake.channel_api.set_bot_permissions("games", Perm.BOT | Perm.MANAGE_ROLES)
        on = await bob.slash("tables notify", {"on": True})
        assert on.ephemeral and on.content.startswith(f"Du hast jetzt die Rolle <@&{role}>")
        assert t.fake.guild_api.roles_of(bob.user) == {role}
        off = await alice.slash("tables notify", {"on": True})
        assert t.fake.guild_api.roles_of(alice.user) == {role} and off.ephemeral
        off = await bob.slash("tables notify", {"on": False})
        assert off.content.startswith(f"Du hast die Rolle <@&{role}> nicht mehr")
        assert t.fake.guild_api.roles_of(bob.user) == set()
        # the role may stand above the bot's: Discord refuses, the member is told the same way
        t.fake.bot_user.permissions &= ~Perm.MANAGE_ROLES
        above = await alice.slash("tables notify", {"on": False})
        assert "Manage Roles" in above.content and t.fake.guild_api.roles_of(alice.user) == {role}


async def test_a_lobby_nobody_joins_expires_with_a_note_to_its_host(tmp_path: Path) -> None:
    """A day after it opened, a lobby nobody joined is closed by the timer loop's chore and its
    host is told in its channel (only the host is pinged), in the table's language; a lobby
    someone joined stays."""
    async with running_table(tmp_path, ("alice", "bob", "carol")) as t:
        alice, bob, carol = t.players["alice"], t.players["bob"], t.players["carol"]
        await alice.slash("new", {"map": "usa"})
        english = await t.game_id("games")
        bob.channel = carol.channel = "general"
        await bob.slash("new", {"map": "usa", "language": "de"})
        german = await t.game_id("general")
        t.fake.add_channel("more")
        carol.channel = "more"
        await carol.slash("new", {"map": "usa"})
        kept = await t.game_id("more")
        alice.channel = "more"
        await alice.slash("join")
        since = len(t.fake.sent)
        assert await t.service.tables.expire_due(time.time() + 3600) == []
        expired = await t.service.tables.expire_due(time.time() + 86_401)
        assert sorted(g.id for g in expired) == [english, german]
        note = _in(t, "games", since)[-1]
        assert note.content.startswith(f"<@{alice.user.id}>, nobody joined your table of **USA**")
        assert "within 1 day" not in note.content and "24 hours" in note.content
        assert note.pings == frozenset({f"user:{alice.user.id}"})
        german_note = _in(t, "general", since)[-1]
        assert german_note.content.startswith(f"<@{bob.user.id}>, niemand ist deinem Tisch")
        assert german_note.pings == frozenset({f"user:{bob.user.id}"})
        for gid, status in ((english, "cancelled"), (german, "cancelled"), (kept, "lobby")):
            game = await t.service.storage.games.get_game(gid)
            assert game is not None and game.status == status


def _dms(table: RunningTable, player: Player) -> list[str]:
    dm = table.fake.dm_channel(player.user)
    return [] if dm is None else [m.content for m in table.fake.messages_in(dm)]


async def test_a_follower_hears_each_turn_until_unfollowing(tmp_path: Path) -> None:
    """Carol follows a running game at each turn (German), Dave with the lobby's Follow button
    (at its end only): after a turn Carol has a direct message naming who is next, Dave none;
    after /ttr game unfollow no more; a player may not follow their own game."""
    async with running_table(tmp_path, ("alice", "bob", "carol", "dave")) as t:
        alice, bob, carol, dave = (t.players[n] for n in ("alice", "bob", "carol", "dave"))
        carol.user.locale = "de"
        await alice.slash("new", {"map": "usa"})
        gid = await t.game_id()
        lobby = next(
            m for m in t.fake.messages_in("games") if ids.Follow(gid).custom_id in m.custom_ids
        )
        followed = await dave.click(lobby, ids.Follow(gid).custom_id, private=True)
        assert followed.ephemeral and "when it ends" in followed.content
        await bob.slash("join")
        await alice.slash("start")
        from ._driver import _keep_offered

        for p in (alice, bob):
            await _keep_offered(p, await p.slash("hand"))
        own = await alice.slash("game follow")
        assert own.ephemeral and "You play in this game" in own.content
        reply = await carol.slash("game follow", {"each_turn": True})
        assert reply.ephemeral and "bei jedem Zug und am Ende" in reply.content
        assert "/ttr spiel entfolgen" in reply.content
        mover = await t.active(gid)
        other = await t.idle(gid)
        turn = t.turn_messages(gid)[-1]
        assert ids.Follow(gid).custom_id in turn.custom_ids  # the turn message offers it too
        await mover.slash("draw", {"source": "deck"})
        await mover.slash("draw", {"source": "deck"})
        notes = _dms(t, carol)
        assert len(notes) == 1 and f"{other.user.name} ist am Zug." in notes[0], notes
        assert notes[0].startswith(f"Spiel {gid} auf dem Spielplan **USA** in <#")
        assert _dms(t, dave) == []
        gone = await carol.slash("game unfollow")
        assert gone.content == f"Du folgst Spiel {gid} nicht mehr."
        await other.slash("draw", {"source": "deck"})
        await other.slash("draw", {"source": "deck"})
        assert len(_dms(t, carol)) == 1
        twice = await carol.slash("game unfollow")
        assert twice.ephemeral and twice.content == f"Du folgst Spiel {gid} nicht."


async def test_followers_hear_the_end_in_their_language(tmp_path: Path) -> None:
    """Alice plays a computer player and resigns, so the computer ends the game: Carol (German,
    end only) and Dave (English) each get one direct message naming the winner; a follower whose
    direct messages are closed is skipped without a trace in public."""
    # erin first: the smallest id, so hers is the first note sent (followers go by id)
    async with running_table(tmp_path, ("erin", "alice", "carol", "dave")) as t:
        alice, carol, dave, erin = (t.players[n] for n in ("alice", "carol", "dave", "erin"))
        carol.user.locale = "de"
        await alice.slash("new", {"map": "amsterdam"})
        await alice.slash("add_ai")
        await alice.slash("start")
        gid = await t.game_id()
        await carol.slash("game follow")
        await dave.slash("game follow")
        await erin.slash("game follow")
        from engine import KeepTickets

        state = await t.service.loader.game_state(gid)
        await t.service.play.act(
            gid, alice.user.id, KeepTickets(0, tuple(state.players[0].offer)), expected_version=None
        )
        t.fake.fail("POST", r"/users/@me/channels", 403, 50007, times=1)  # erin's DMs: closed
        await alice.slash("game resign")
        # the computer plays to the end; the game-over message, then the followers' notes
        await t.fake.wait_until(
            lambda: _dms(t, dave) and _dms(t, carol), timeout=60, what="the followers' notes"
        )
        dave_notes, carol_notes = _dms(t, dave), _dms(t, carol)
        assert len(dave_notes) == 1 and "on **Amsterdam**" in dave_notes[0], dave_notes
        assert "is over. Winner: " in dave_notes[0]
        assert len(carol_notes) == 1 and "ist zu Ende. Gewinner: " in carol_notes[0]
        assert _dms(t, erin) == []  # closed: skipped, nothing said in public about it
        assert not any("erin" in m.content for m in t.fake.messages_in("games"))


async def test_forget_me_takes_the_games_a_player_follows(tmp_path: Path) -> None:
    """Someone who only follows a game is asked about it by /ttr player forget_me (German), and
    forgetting ends the following: the game's end then sends them nothing."""
    async with running_table(tmp_path, ("alice", "bob", "carol")) as t:
        alice, carol = t.players["alice"], t.players["carol"]
        carol.user.locale = "de"
        await alice.slash("new", {"map": "usa"})
        gid = await t.game_id()
        await carol.slash("game follow", {"each_turn": True})
        ask = await carol.slash("player forget_me")
        assert ask.ephemeral and "- das 1 Spiel, dem du folgst;" in ask.content, ask.summary()
        confirm = ids.ForgetMe(0, carol.user.id, "confirm").custom_id
        done = await carol.click(ask, confirm, private=True)
        assert "Du folgst 1 Spiel nicht mehr." in done.content, done.summary()
        assert await t.service.tables.followers(gid) == []
        again = await carol.slash("player forget_me")
        assert again.custom_ids == []  # nothing stored any more
