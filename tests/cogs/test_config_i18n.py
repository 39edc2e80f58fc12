"""Settings from the environment and the message catalogue."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.process.config import Settings
from bot.process.run import build_service
from words import error_text, lang_of, words_for


def test_token_is_masked_and_defaults_apply(tmp_path: Path) -> None:
    """The token never shows in repr; defaults fill the rest."""
    s = Settings.from_env({"DISCORD_TOKEN": "abc.def.hunter2"}, env_file=tmp_path / "none")
    assert "hunter2" not in repr(s) and "hunter2" not in str(s)
    assert s.token.get() == "abc.def.hunter2"
    assert s.database_path == Path("data/ttr.sqlite3")
    assert s.dev_guild_id is None and s.log_level == "INFO" and not s.points_at_fake


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    """A .env file supplies values; real environment variables override it."""
    env = tmp_path / ".env"
    env.write_text(
        '# comment\nexport DISCORD_TOKEN="file-token"\nTTR_DEV_GUILD_ID=42\nTTR_LOG_LEVEL=debug\n'
    )
    s = Settings.from_env({"TTR_LOG_LEVEL": "WARNING"}, env_file=env)
    assert s.token.get() == "file-token" and s.dev_guild_id == 42 and s.log_level == "WARNING"


def test_the_retention_period_of_removed_servers_is_a_setting(tmp_path: Path) -> None:
    """TTR_GUILD_RETENTION_DAYS: 30 by default, any whole number of days from 0; anything else
    stops the bot with one line (a ValueError naming the setting)."""
    none = tmp_path / "none"
    assert Settings.from_env({}, env_file=none).guild_retention_days == 30
    assert (
        Settings.from_env({"TTR_GUILD_RETENTION_DAYS": "7"}, env_file=none).guild_retention_days
        == 7
    )
    assert (
        Settings.from_env({"TTR_GUILD_RETENTION_DAYS": "0"}, env_file=none).guild_retention_days
        == 0
    )

    async def retention_s() -> float:
        settings = Settings.from_env({"TTR_GUILD_RETENTION_DAYS": "7"}, env_file=none)
        service = await build_service(object(), settings)
        try:
            return float(service.privacy.retention_s)
        finally:
            await service.close()  # its worker processes must not outlive the test

    assert asyncio.run(retention_s()) == 7 * 86_400  # the bot's service keeps servers that long
    for bad in ("-1", "two", "1.5"):
        with pytest.raises(ValueError, match="TTR_GUILD_RETENTION_DAYS"):
            Settings.from_env({"TTR_GUILD_RETENTION_DAYS": bad}, env_file=none)


def test_map_words_are_used() -> None:
    """German messages use the map's own words."""
    contract = {"forms": ["Vertragskarte", "Vertragskarten"], "gender": "f"}
    meta = {"words": {"de": {"ticket": contract}}}
    w = words_for("de", meta)
    assert error_text("must_keep_at_least", w, {"min": 1}) == "Behalte mindestens 1 Vertragskarte."
    assert error_text("must_keep_at_least", w, {"min": 2}) == "Behalte mindestens 2 Vertragskarten."
    assert lang_of("de") == "de" and lang_of("en-GB") == "en"
