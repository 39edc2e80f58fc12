"""An application with Activities enabled has Discord's entry point command ("Launch"); the
bot's global command sync keeps it, where a plain bulk overwrite is refused."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.discord_app.client import create_bot
from bot.host.services import GameService
from bot.host.storage import open_storage
from bot.process.config import Settings

from .fake_discord import FakeDiscord, pointed_at, running_client
from .fake_discord.commands import ENTRY_POINT

ACTIVITY = {"DISCORD_CLIENT_ID": "1", "DISCORD_CLIENT_SECRET": "s", "TTR_WEB_PORT": "8088"}


async def test_the_global_sync_keeps_the_entry_point_command(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "x", "TTR_DATABASE_PATH": str(tmp_path / "db"), **ACTIVITY},
        env_file=None,
    )
    assert settings.activity_enabled
    async with FakeDiscord() as fake:
        fake.command_api.add_entry_point()
        with pointed_at(fake):
            storage = await open_storage(tmp_path / "ttr.sqlite3")
            try:
                bot = create_bot(settings, GameService(storage), guild_ready_timeout=0.05)
                async with running_client(fake, bot):
                    await fake.wait_for_commands("ttr new", timeout=20)
            finally:
                await storage.close()
        kinds = {(name, kind) for name, kind in fake.store.commands[None]}
        assert ("launch", ENTRY_POINT) in kinds and ("ttr", 1) in kinds


async def test_a_bulk_overwrite_without_the_entry_point_is_refused() -> None:
    async with FakeDiscord() as fake:
        fake.command_api.add_entry_point()
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as http:
            async with http.put(url, json=[{"name": "ttr", "description": "d"}]) as refused:
                assert (refused.status, (await refused.json())["code"]) == (400, 50240)
        assert ("launch", ENTRY_POINT) in fake.store.commands[None]
