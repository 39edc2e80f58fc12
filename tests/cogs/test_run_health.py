"""bot.process.run: the missing-token exit, the health check, and the German command names."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.host.storage import open_storage
from bot.process.config import Settings
from bot.process.run import health, run


def _settings(tmp_path: Path, **env: str) -> Settings:
    return Settings.from_env(
        {"TTR_DATABASE_PATH": str(tmp_path / "ttr.sqlite3"), **env}, env_file=None
    )


def test_run_without_token_names_the_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without DISCORD_TOKEN run() says so and returns 2."""
    assert run(_settings(tmp_path)) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_health_needs_the_database_and_a_fresh_heartbeat(tmp_path: Path) -> None:
    """Unhealthy without a database or heartbeat or with a stale one; healthy with both fresh."""
    s = _settings(tmp_path)
    assert health(s) == 1

    async def make() -> None:
        await (await open_storage(s.database_path)).close()

    asyncio.run(make())
    assert health(s) == 1
    s.heartbeat_file.write_text("1\n")
    assert health(s) == 0
    old = time.time() - 3600
    os.utime(s.heartbeat_file, (old, old))
    assert health(s) == 1


def test_german_command_names_are_valid() -> None:
    """Every German command/option name is valid for Discord; descriptions fit Discord's limit."""
    from babel.messages.pofile import read_po

    from bot.discord_app.translator import Translator
    from words import catalog_file

    with catalog_file("de").open("rb") as src:
        entries = [
            m for m in read_po(src, locale="de") if m.id and str(m.context).startswith("command")
        ]
    assert len(entries) > 30
    for m in entries:
        english, german = str(m.id), str(m.string)
        if english.islower() and " " not in english:
            assert re.fullmatch(r"[-_a-zäöüß0-9]{1,32}", german), german
        else:
            assert 1 <= len(german) <= 100, german

    async def ask() -> str | None:
        return await Translator().translate(
            app_commands.locale_str("Draw one card"), discord.Locale.german, None
        )  # type: ignore[arg-type]

    assert asyncio.run(ask()) == "Ziehe eine Karte"
