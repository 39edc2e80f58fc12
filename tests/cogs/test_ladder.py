"""Ratings, seasons and server settings through the fake Discord (issue 32).

A rated game's game-over message lists each player's rating change; /ttr leaderboard ranks by
rating with the reader's own line; /ttr stats adds the rating chart; /ttr admin config shows the
server's settings to everyone and changes them for Manage Server only (new games take them, and
a server that names its game channels refuses others); /ttr admin season starts afresh.
"""

from __future__ import annotations

from pathlib import Path

from bot.host.services import Ladder, LadderLine
from bot.process import metrics
from cogs.ttr._ladder import PER_PAGE, ladder_text
from words import words_for

from ..e2e.fake_discord import SentMessage
from ._driver import Player
from ._harness import TIMEOUT, RunningTable, running_table


async def _finished_rated_game(t: RunningTable) -> int:
    """alice against an easy computer seat; she resigns, the computer plays to the end."""
    alice = t.players["alice"]
    lobby = await alice.slash("new", {"map": "usa"})
    assert "Rated" in lobby.content or lobby.ephemeral
    await alice.slash("add_ai", {"level": "easy"})
    await alice.slash("start")
    game_id = await t.game_id()
    await alice.slash("resign")
    await t.fake.wait_for_message(
        lambda m: m.kind == "channel" and "Game over" in m.content, timeout=TIMEOUT
    )
    return game_id


async def _last_game(t: RunningTable) -> int:
    game = await t.service.last_game_in_channel(t.fake.channel("games").id)
    assert game is not None
    return game.id


def _final(t: RunningTable) -> SentMessage:
    return next(m for m in t.fake.messages_in("games") if "Game over" in m.content)


async def test_a_rated_game_ends_with_every_rating_change_and_a_table(tmp_path: Path) -> None:
    async with running_table(tmp_path, ("alice", "bob")) as t:
        await _finished_rated_game(t)
        lobby = next(m for m in t.fake.messages_in("games") if "opened a game" in m.content)
        assert "Rated: the result changes every player's rating." in lobby.content
        final = _final(t).content
        alice = t.players["alice"].user.id
        assert "**Ratings**" in final
        assert f"<@{alice}>: 0.0 → -" in final and "AI (easy): 0.0 → " in final
        assert "), provisional" in final
        table = await t.players["bob"].slash("leaderboard")
        assert table.ephemeral and "**Ratings** – season 1, every map" in table.content
        assert "1. AI (easy):" in table.content and f"2. <@{alice}>:" in table.content
        assert "You have no rating in this table yet." in table.content
        usa = await t.players["alice"].slash("leaderboard", {"map": "usa"})
        assert "season 1, USA" in usa.content and "You:" not in usa.content
        shown = await t.players["bob"].slash("game", {"id": await _last_game(t)})
        assert "**Ratings**" in shown.content and "AI (easy): 0.0 → " in shown.content
        wrong = await t.players["alice"].slash("leaderboard", {"season": 4})
        assert "There is no season 4 on this server (seasons 1-1)." in wrong.content


async def test_stats_show_the_rating_and_its_chart(tmp_path: Path) -> None:
    async with running_table(tmp_path, ("alice",)) as t:
        game_id = await _finished_rated_game(t)
        charts = metrics.sample("ttr_render_seconds_count", kind="chart") or 0.0
        stats = await t.players["alice"].slash("stats")
        assert stats.ephemeral
        assert "1 game, 0 won (0%)" in stats.content
        bonus = int(bool((await t.service.storage.results(game_id))[0].longest_path_bonus))
        assert ("Longest-path bonus: 1 time\n" if bonus else "bonus: 0 times") in stats.content
        assert "Favourite map: USA" in stats.content
        assert (
            "Rating in season 1: -" in stats.content and "(provisional), place 2" in stats.content
        )
        assert [a.filename for a in stats.attachments] == ["rating.png"]
        assert metrics.sample("ttr_render_seconds_count", kind="chart") == charts + 1


async def test_server_settings_for_everyone_to_see_and_managers_to_change(tmp_path: Path) -> None:
    async with running_table(tmp_path, ("alice", "bob")) as t:
        owner = Player(t.fake, "owner", "games")
        shown = await t.players["bob"].slash("admin config")
        assert shown.ephemeral and "**Server settings**" in shown.content
        assert "• New games are rated: yes" in shown.content
        assert "• Games may be opened in: any channel" in shown.content
        refused = await t.players["bob"].slash("admin config", {"rated": False})
        assert "Only members with the Manage Server permission can do that." in refused.content
        general = t.fake.channel("general")
        saved = await owner.slash(
            "admin config",
            {"rated": False, "turn_time": "1h", "language": "de", "add_channel": general},
        )
        assert "The server settings were saved." in saved.content
        assert "• New games are rated: no" in saved.content
        assert f"• Games may be opened in: <#{general.id}>" in saved.content
        assert "• Table language of new games: German" in saved.content
        elsewhere = await t.players["alice"].slash("new", {"map": "usa"})
        assert f"Games on this server are opened in <#{general.id}>." in elsewhere.content
        assert await t.service.game_in_channel(t.fake.channel("games").id) is None
        await owner.slash("admin config", {"remove_channel": general})
        await t.players["alice"].slash("new", {"map": "usa"})
        game = await t.service.game_in_channel(t.fake.channel("games").id)
        assert game is not None and not game.rated
        assert (game.language, game.turn_seconds) == ("de", 3600)
        lobby = next(m for m in t.fake.messages_in("games") if "Ungewertet" in m.content)
        # a casual game by the server's setting: hints allowed (hints_by_default)
        assert lobby.content.endswith(
            "Ungewertet: Keine Wertungszahl ändert sich. Tipps: erlaubt (/ttr tipp)."
        )
        assert game.hints_allowed
        season = await owner.slash("admin season")
        assert "Season 1 has no rated game yet, so it goes on." in season.content


async def test_a_manager_starts_a_new_season(tmp_path: Path) -> None:
    async with running_table(tmp_path, ("alice",)) as t:
        await _finished_rated_game(t)
        refused = await t.players["alice"].slash("admin season")
        assert "Only members with the Manage Server permission" in refused.content
        started = await Player(t.fake, "owner", "games").slash("admin season")
        assert "Season 2 has begun: every rating starts afresh." in started.content
        now = await t.players["alice"].slash("leaderboard")
        assert "season 2" in now.content and "No rated game in this season yet." in now.content
        old = await t.players["alice"].slash("leaderboard", {"season": 1})
        assert "AI (easy)" in old.content and "The current season is 2." in old.content
        config = await t.players["alice"].slash("admin config")
        assert "• Season: 2 (<t:" in config.content


def test_the_table_is_paged_and_always_shows_the_readers_line() -> None:
    lines = tuple(
        LadderLine(n, f"user:{n}", n, None, 30.0 - n / 10, 2.0, 3 + n) for n in range(1, 41)
    )
    ladder = Ladder(1, 1, 1, "*", lines, ())
    w = words_for("en")
    first = ladder_text(ladder, 0, 33, w).splitlines()
    assert first[0] == "**Ratings** – season 1, every map"
    assert len([x for x in first if x[0].isdigit()]) == PER_PAGE
    assert first[1].startswith("1. <@1>: 23.9 (provisional) in 4 games")
    assert any(x.startswith("You: 33. <@33>: ") for x in first)
    assert first[-1] == "Page 1 of 3; the next with /ttr leaderboard page:2."
    last = ladder_text(ladder, 99, 33, w).splitlines()
    assert last[-1] == "Page 3 of 3." and "You:" not in "\n".join(last)
    assert any(x.startswith("33. <@33>: ") for x in last)
    de = ladder_text(ladder, 0, 33, words_for("de"))
    assert "1. <@1>: 23,9 (vorläufig) in 4 Spielen" in de
