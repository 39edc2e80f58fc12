"""/ttr add_ai offers the expert level, named in English and German, and stores and names it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
from discord import app_commands

from bot.discord_app.client import create_bot
from bot.discord_app.translator import Translator
from bot.host.services import GameService
from bot.host.storage import open_storage
from bot.process.config import Settings

from ._harness import running_table


def _level_choices(tmp_path: Path) -> list[app_commands.Choice[str]]:
    """The choices of /ttr add_ai's ``level`` as the bot builds its tree (no connection)."""

    async def build() -> list[app_commands.Choice[str]]:
        settings = Settings.from_env(
            {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db")}, env_file=None
        )
        storage = await open_storage(tmp_path / "ttr.sqlite3")
        try:
            bot = create_bot(settings, GameService(storage))
            await bot.load_extension("cogs.ttr")
            try:
                group = bot.tree.get_command("ttr")
                assert isinstance(group, app_commands.Group)
                command = group.get_command("add_ai")
                assert isinstance(command, app_commands.Command)
                return list(command._params["level"].choices)
            finally:
                await bot.unload_extension("cogs.ttr")
        finally:
            await storage.close()

    return asyncio.run(build())


def test_the_level_menu_offers_expert_in_both_languages(tmp_path: Path) -> None:
    """The menu lists the four levels, weakest first; German players read "experte"."""
    choices = _level_choices(tmp_path)
    assert [c.value for c in choices] == ["easy", "normal", "hard", "expert"]
    expert = choices[-1]
    assert expert.name == "expert"

    async def german(text: str) -> str | None:
        return await Translator().translate(
            app_commands.locale_str(text), discord.Locale.german, None
        )  # type: ignore[arg-type]

    assert asyncio.run(german(expert.name)) == "experte"
    assert asyncio.run(german("hard")) == "schwer"


async def test_an_expert_seat_is_stored_and_named_in_the_tables_language(tmp_path: Path) -> None:
    """level expert is stored as the seat's AI kind; the seat is "AI 1 (expert)", on a German
    server "KI 1 (Experte)"."""
    async with running_table(tmp_path, ("alice",)) as t:
        alice = t.players["alice"]
        await alice.slash("new", {"map": "usa"})
        reply = await alice.slash("add_ai", {"level": "expert"})
        assert "AI 1 (expert)" in reply.content, reply.summary()
        seats = await t.service.storage.seats.seats(await t.game_id())
        assert [(s.display_name, s.ai_kind) for s in seats if s.is_ai] == [
            ("AI 1 (expert)", "expert")
        ]
    async with running_table(tmp_path / "de", ("alice",)) as t:
        t.fake.guild_locale = "de"
        alice = t.players["alice"]
        await alice.slash("new", {"map": "usa"})
        await alice.slash("add_ai", {"level": "expert"})
        public = [m.content for m in t.fake.messages_in("games")]
        assert any("KI 1 (Experte)" in c for c in public), public
