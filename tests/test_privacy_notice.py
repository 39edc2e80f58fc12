"""The privacy notice has one source: the catalogs.

``/ttr privacy`` shows :func:`words.privacy_notice` in the reader's language; the
documentation's privacy page (``docs/privacy.md``) between its two markers is the English text with the default retention
period, and ``python -m bot privacy`` prints the same. A change to either side without the
other fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.process.config import DEFAULT_GUILD_RETENTION_DAYS
from words import LANGS, privacy_notice, words_for

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- privacy notice: start -->\n", "\n<!-- privacy notice: end -->"


def docs_notice() -> str:
    text = (ROOT / "docs" / "privacy.md").read_text(encoding="utf-8")
    match = re.search(re.escape(START) + "(.*?)" + re.escape(END), text, re.DOTALL)
    assert match, "docs/privacy.md has no privacy notice between its markers"
    return match.group(1)


def test_the_privacy_page_is_the_english_notice() -> None:
    """Regenerate with: python -m bot privacy --days 30 (between the markers of docs/privacy.md)."""
    assert docs_notice() == privacy_notice(words_for("en"), DEFAULT_GUILD_RETENTION_DAYS)


def test_the_command_line_prints_the_notice(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot privacy --language de --days 7`` is the German notice for 7 days."""
    assert main(["privacy", "--language", "de", "--days", "7"]) == 0
    assert capsys.readouterr().out == privacy_notice(words_for("de"), 7) + "\n"
    assert main(["privacy", "--days", "30"]) == 0
    assert capsys.readouterr().out == docs_notice() + "\n"


@pytest.mark.parametrize("lang", LANGS)
def test_the_notice_fits_one_discord_message_and_says_the_period(lang: str) -> None:
    """Whole within 2,000 characters for any period, the days counted by the plural rule."""
    w = words_for(lang)
    for days in (0, 1, 30, 9999):
        text = privacy_notice(w, days)
        assert len(text) <= 2000, (lang, days, len(text))
        assert f" {days} " in text
        assert "{" not in text
    one, many = privacy_notice(w, 1), privacy_notice(w, 2)
    assert ("1 day later" in one and "2 days later" in many) or (
        "1 Tag später" in one and "2 Tage später" in many
    )
