"""Room in /ttr: the command tree the bot builds keeps entries free for what comes next, and
every sentence that names a command names one that exists.

Discord allows 25 entries (subcommands and subcommand groups) in a slash-command group and
25 in each of its subgroups; a group within five of that has no room left for the next
command without folding one into another. These tests walk the tree exactly as the bot builds
it (the real extension loaded into a real :class:`~bot.discord_app.client.TtrBot`), not a list kept by hand.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from babel.messages.pofile import read_po
from discord import app_commands

from bot.discord_app.client import create_bot
from bot.host.services import GameService
from bot.host.storage import open_storage
from bot.process.config import Settings
from words import catalog_file, translations

#: Discord's limit of entries in one group (and in one subgroup).
DISCORD_LIMIT = 25
#: Entries that must stay free in every group.
ROOM = 5

Entry = app_commands.Command[object, ..., object] | app_commands.Group
#: Words that may follow a group's name in a sentence about the group (``who may use /ttr in
#: which channels``): they end the path instead of naming a missing command.
PROSE = {"in", "im", "and", "und", "or", "oder"}


@pytest.fixture(scope="module")
def ttr(tmp_path_factory: pytest.TempPathFactory) -> app_commands.Group:
    """The /ttr group of a bot that loaded its extension (as ``setup_hook`` does, without
    syncing: no connection is made)."""
    tmp_path = tmp_path_factory.mktemp("tree")

    async def build() -> app_commands.Group:
        settings = Settings.from_env(
            {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db")}, env_file=None
        )
        storage = await open_storage(tmp_path / "ttr.sqlite3")
        try:
            bot = create_bot(settings, GameService(storage))
            await bot.load_extension("cogs.ttr")
            try:
                group = bot.tree.get_command("ttr")
                assert isinstance(group, app_commands.Group), group
                return group
            finally:
                await bot.unload_extension("cogs.ttr")
        finally:
            await storage.close()

    return asyncio.run(build())


def entries(group: app_commands.Group) -> list[str]:
    """The names of a group's entries (its commands and its subgroups), sorted."""
    return sorted(c.name for c in group.commands)


def test_ttr_keeps_room_for_new_commands(ttr: app_commands.Group) -> None:
    """/ttr holds at most 20 entries, and each subgroup at most 20, so five more fit in each."""
    top = entries(ttr)
    assert len(top) <= DISCORD_LIMIT - ROOM, f"/ttr has {len(top)} entries: {top}"
    subgroups = [c for c in ttr.commands if isinstance(c, app_commands.Group)]
    assert subgroups, "the rarely used commands sit in subgroups"
    for sub in subgroups:
        names = entries(sub)
        assert 0 < len(names) <= DISCORD_LIMIT - ROOM, f"/ttr {sub.name}: {names}"
        # Discord nests groups one level deep only: a subgroup holds commands
        assert not [c for c in sub.commands if isinstance(c, app_commands.Group)], sub.name


def test_common_actions_have_their_own_commands(ttr: app_commands.Group) -> None:
    """The lobby, the moves and the table are plain commands at the top; the rarely used ones
    are in their groups."""
    top = set(entries(ttr))
    common = {"new", "join", "leave", "add_ai", "start", "hand", "draw", "claim", "station"}
    common |= {"tickets", "hint", "board", "status", "help"}
    assert common <= top, sorted(common - top)
    paths = {
        f"{c.name} {s.name}"
        for c in ttr.commands
        if isinstance(c, app_commands.Group)
        for s in c.commands
    }
    assert {"game log", "game rules", "game history", "game show", "player settings"} <= paths
    assert {"player privacy", "player forget_me", "admin config", "admin season"} <= paths
    join = ttr.get_command("join")
    assert isinstance(join, app_commands.Command) and not join.parameters, "no leave: option"


def _named(lang: str, text: app_commands.locale_str | str) -> str:
    """A command's or option's name as a reader of ``lang`` sees it (``bot.discord_app.translator``)."""
    message = text.message if isinstance(text, app_commands.locale_str) else text
    if lang == "en":
        return message
    extras = text.extras if isinstance(text, app_commands.locale_str) else {}
    return translations(lang).pgettext(str(extras.get("context") or "command"), message)


def _children(lang: str, node: Entry) -> dict[str, Entry]:
    if not isinstance(node, app_commands.Group):
        return {}
    return {_named(lang, c.name): c for c in node.commands}


def _options(lang: str, node: Entry) -> set[str]:
    if isinstance(node, app_commands.Group):
        return set()
    return {_named(lang, p.locale_name) for p in node.parameters}


def unknown_paths(ttr: app_commands.Group, lang: str, text: str) -> list[str]:
    """Every ``/ttr ...`` in ``text`` whose command (and ``option:``) does not exist in ``lang``.

    After ``/ttr`` each word must name an entry of the group reached so far; after a command,
    words ending in ``:`` must be its options; any other word ends the path (``/ttr board and
    /ttr status``), as does anything after a group that does not start with a letter
    (``/ttr game (the log, ...)``) or a word of :data:`PROSE`."""
    bad = []
    for match in re.finditer(r"/ttr((?:\s+[^\s/]\S*)*)", text):
        node: Entry = ttr
        path = "/ttr"
        for token in match.group(1).split():
            word = re.match(r"[a-zäöüß_]*", token)
            assert word is not None
            name, rest = word.group(), token[word.end() :]
            if isinstance(node, app_commands.Group):
                if not name or name in PROSE:
                    break
                found = _children(lang, node).get(name)
                if found is None:
                    bad.append(f"{path} {name}")
                    break
                node, path = found, f"{path} {name}"
            elif name and rest.startswith(":"):
                if name not in _options(lang, node):
                    bad.append(f"{path} {name}:")
            else:
                break
    return bad


def test_every_sentence_names_a_command_that_exists(ttr: app_commands.Group) -> None:
    """Every /ttr path a player reads (the English sentences and their German translations)
    names a command of the tree, in that language, with options it has."""
    with catalog_file("de").open("rb") as src:
        catalog = [m for m in read_po(src, locale="de") if m.id]
    checked = 0
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for lang, texts in (("en", ids), ("de", strings)):
            for text in texts:
                checked += text.count("/ttr")
                assert not unknown_paths(ttr, lang, str(text)), (lang, text)
    assert checked > 40


def test_the_text_check_finds_a_wrong_path(ttr: app_commands.Group) -> None:
    """The check above fails on a moved command, a wrong option and a German English mix."""
    assert unknown_paths(ttr, "en", "use /ttr log, /ttr game log count: or /ttr board and") == [
        "/ttr log"
    ]
    assert unknown_paths(ttr, "en", "/ttr game show page:2") == ["/ttr game show page:"]
    assert unknown_paths(ttr, "de", "/ttr spiel (Verlauf), /ttr spiel log") == ["/ttr spiel log"]
    assert not unknown_paths(ttr, "de", "/ttr spieler bestenliste seite:2.")
    assert not unknown_paths(ttr, "en", "who may use /ttr in which channels")


def test_the_cog_walks_the_commands_of_its_groups(ttr: app_commands.Group) -> None:
    """The subgroups are made with the cog, not declared on its class: its own walk
    (``walk_app_commands``, what a tool reading the cog sees) still names every command of the
    tree the bot syncs, and nothing else."""
    import types

    from bot.discord_app.client import TtrBot
    from cogs.ttr import TtrCog

    cog = TtrCog(TtrBot(Settings(), service=types.SimpleNamespace()))  # type: ignore[arg-type]
    walked = sorted(c.qualified_name for c in cog.walk_app_commands())
    synced = sorted(c.qualified_name for c in ttr.walk_commands())
    assert walked == synced
    assert {"ttr game log", "ttr player stats", "ttr admin season"} <= set(walked)
