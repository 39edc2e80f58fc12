"""The invite link of the README and of the server admins' page grants every permission the
bot checks for: a server invited with it never has ``/ttr new`` (with or without a thread)
refused for a permission the link left out."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import discord
import pytest

from cogs.ttr._announce import PERMISSION_NAMES, required_permissions

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "docs" / "admins" / "index.md"]
LINK = re.compile(
    r"https://discord\.com/oauth2/authorize\?client_id=APP_ID"
    r"&scope=bot\+applications\.commands&permissions=(\d+)"
)


def _invited(page: Path) -> discord.Permissions:
    text = page.read_text(encoding="utf-8")
    values = {int(v) for v in LINK.findall(text)}
    assert len(values) == 1, (page, values)
    value = values.pop()
    assert f"(= {value})" in " ".join(text.split()), "the page states the integer it explains"
    return discord.Permissions(value)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_link_grants_every_permission_the_bot_checks(page: Path) -> None:
    invited = _invited(page)
    needed = set(PERMISSION_NAMES)
    for thread, new_thread in itertools.product((False, True), repeat=2):
        needed |= set(required_permissions(thread=thread, new_thread=new_thread))
    assert [flag for flag in sorted(needed) if not getattr(invited, flag)] == []
    assert invited.create_public_threads and invited.send_messages_in_threads
    assert not invited.administrator


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_page_names_each_permission_of_the_link(page: Path) -> None:
    """The sentence under the link lists exactly the permissions the integer holds."""
    text = " ".join(page.read_text(encoding="utf-8").split())
    invited = _invited(page)
    named = {
        "view_channel": "View Channels",
        "send_messages": "Send Messages,",
        "create_public_threads": "Create Public Threads",
        "send_messages_in_threads": "Send Messages in Threads",
        "embed_links": "Embed Links",
        "attach_files": "Attach Files",
        "read_message_history": "Read Message History",
    }
    assert invited == discord.Permissions(**dict.fromkeys(named, True))
    for words in named.values():
        assert words in text, words
