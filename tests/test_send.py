"""The send funnel (bot/discord_app/send.py): every limit of Discord's, echoed user text made harmless, and
no other module calling discord.py's send methods (issue 28 point 2)."""

from __future__ import annotations

import ast
import logging
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_app import send

from .e2e.fake_discord import check_components, check_embeds

ROOT = Path(__file__).resolve().parents[1]

#: discord.py methods that put a message on Discord.
SEND_METHODS = {"send", "send_message", "edit_message", "edit_original_response", "edit"}


def test_only_the_funnel_calls_discords_send_methods() -> None:
    """An AST scan of bot/ and cogs/: ``.send(...)``, ``.send_message(...)``, ``.edit_message``,
    ``.edit_original_response`` and ``.edit`` are called in bot/discord_app/send.py only."""
    found = []
    for package in ("bot", "cogs"):
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "bot" / "discord_app" / "send.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in SEND_METHODS
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.func.attr}(")
    assert not found, found


HOSTILE = (
    "**bold** __under__ `code` ~~gone~~ ||spoiler|| [link](https://evil.example) "
    "<@123456789012345678> <@&42> <#99> @everyone @here \u202eevil\u202c zero\u200bwidth "
    "\x00\x07ctrl\nnew line\r\n# heading"
)


def test_echo_makes_user_text_harmless() -> None:
    """Shortened, no control, zero-width or direction characters, one line, markdown escaped,
    mentions and links broken."""
    out = send.echo(HOSTILE, limit=1000)
    assert "\n" not in out and "\r" not in out
    for ch in ("\u202e", "\u202c", "\x00", "\x07"):
        assert ch not in out
    assert "\\*\\*bold\\*\\*" in out and "\\`code\\`" in out and "\\[link]" in out
    assert "@everyone" not in out and "@here" not in out
    assert "<@123456789012345678>" not in out and "<@&42>" not in out and "<#99>" not in out
    assert "https://" not in out
    assert "zerowidth" in out  # the zero-width space inside the word is gone
    long = send.echo("x" * 6000)
    assert len(long) == send.ECHO_LIMIT and long.endswith("…")
    assert send.echo("") == "…"
    assert send.echo("# title").startswith("\\#")
    assert send.echo("\u200b\u202e") == "…"


def test_mentions_ping_only_whom_they_name() -> None:
    """Never everyone, roles or the replied user; users only when named."""
    none = send.mentions().to_dict()
    assert none["parse"] == [] and not none.get("users") and not none.get("replied_user")
    some = send.mentions([5, 6, 5]).to_dict()
    assert some["parse"] == [] and some["users"] == [5, 6]


def test_content_thread_names_and_choices() -> None:
    assert send.content_of("x" * 5000) == "x" * 1999 + "…"
    assert send.content_of("") == "…"
    assert send.thread_name("a\nb" + "c" * 200) == "a b" + "c" * 96 + "…"
    made = send.choices(
        [("n" * 150, "v"), ("bad", "v" * 101), *((f"c{i}", str(i)) for i in range(30))]
    )
    assert len(made) == 25 and len(made[0].name) == 100
    assert all(c.value != "v" * 101 for c in made)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def test_fit_view_repairs_what_discord_would_refuse(caplog: pytest.LogCaptureFixture) -> None:
    """Labels clipped; a duplicate custom id left out and logged as an error; a select cut to
    25 options, duplicate or over-long values dropped, min/max values and defaults within
    the options; the result passes the fake Discord's checks."""
    options = [discord.SelectOption(label="o" * 150, value=str(i), default=True) for i in range(30)]
    options.append(discord.SelectOption(label="dup", value="3"))
    options.append(discord.SelectOption(label="long", value="v" * 101))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="pick", options=options[:25], min_values=1, max_values=25, placeholder="p" * 200
    )
    select.options = options  # past discord.py's own check, as a bug could
    view = _view(
        select,
        discord.ui.Button(label="b" * 100, custom_id="a", row=1),
        discord.ui.Button(label="again", custom_id="a", row=1),
        discord.ui.Button(label="", custom_id="c", row=1),
        discord.ui.Button(label="link", url="https://example.org", row=2),
    )
    raw = check_components(view.to_components())
    assert {p.code for p in raw} >= {"COMPONENT_CUSTOM_ID_DUPLICATED", "BASE_TYPE_BAD_LENGTH"}
    with caplog.at_level(logging.ERROR, logger="bot.discord_app.send"):
        fitted = send.fit_view(view)
    assert fitted is not None
    assert check_components(fitted.to_components()) == []
    ids = [getattr(c, "custom_id", None) for c in fitted.children]
    assert ids.count("a") == 1
    fitted_select = next(c for c in fitted.children if isinstance(c, discord.ui.Select))
    assert len(fitted_select.options) == 25 and fitted_select.max_values == 25
    assert any("left out" in r.getMessage() for r in caplog.records)


def test_fit_view_leaves_a_valid_view_alone() -> None:
    view = _view(discord.ui.Button(label="ok", custom_id="x"))
    before = view.to_components()
    fitted = send.fit_view(view)
    assert fitted is not None and fitted.to_components() == before
    assert send.fit_view(None) is None


def test_fit_embeds_keeps_every_limit() -> None:
    """Title 256, description 4,096, field 1,024, at most 25 fields and 10 embeds, 6,000 in all."""
    big = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        big.add_field(name=f"f{i}" * 100, value="v" * 2000)
    big.set_footer(text="f" * 3000)
    big.set_author(name="a" * 300)
    embeds = send.fit_embeds([big] * 12)
    payload = [e.to_dict() for e in embeds]
    assert check_embeds(payload) == []
    assert len(embeds) <= 10
    assert embeds[0].title is not None and len(embeds[0].title) == 256
