"""MkDocs hook: the pages made from the code at build time, so they cannot drift from it.

Registered in ``mkdocs.yml`` (``hooks:``); MkDocs calls :func:`on_files` once per build, which
adds these pages to the site (none of them is committed):

- ``reference/commands.md``: every command of the bot's real discord.py tree, walked
  generically (groups nested at any depth), with its options and choices, in English and
  in German through the bot's own translator (:func:`commands_page`);
- ``reference/settings.md``: every field of :class:`bot.process.config.Settings` with its environment
  variable, its default and the field's documentation (:func:`settings_page`);
- ``reference/achievements.md``: every achievement of :data:`bot.host.achievements.ACHIEVEMENTS`
  with its name and rule in English and German and its rulebook source (:func:`achievements_page`);
- ``contributors/contributing.md`` and ``benchmarks/history.md``: ``CONTRIBUTING.md`` and
  ``benchmarks/HISTORY.md`` from the repository, their links into ``docs/`` made relative.

The repository (the folder of ``mkdocs.yml``) is put first on ``sys.path``, so the pages
describe the checkout being built, not an installed copy.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sys
import types
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

#: Discord's application command option types (its API's numbers) as the reference names them.
OPTION_TYPES = {
    3: "text",
    4: "whole number",
    5: "true/false",
    6: "user",
    7: "channel",
    8: "role",
    9: "user or role",
    10: "number",
    11: "file",
}
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2


def _cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _de(entry: dict[str, Any], key: str) -> str:
    """The German translation of ``entry[key]`` (``name`` or ``description``), or ''."""
    return str(entry.get(f"{key}_localizations", {}).get("de", ""))


async def command_payloads() -> list[dict[str, Any]]:
    """The bot's top-level commands as Discord receives them at sync, German included.

    The cogs are added to a :class:`bot.discord_app.client.TtrBot` as ``setup`` does (no service, no
    network), and each command's translated payload is asked of discord.py with the bot's
    :class:`bot.discord_app.translator.Translator`.
    """
    from bot.discord_app.client import TtrBot
    from bot.discord_app.translator import Translator
    from bot.process.config import Settings
    from cogs.ttr import TtrCog

    bot = TtrBot(Settings(), service=types.SimpleNamespace())  # type: ignore[arg-type]
    await bot.add_cog(TtrCog(bot))
    translator = Translator()
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


def _option_rows(options: list[dict[str, Any]]) -> list[str]:
    rows = [
        "| option | German | type | required | what | German description |",
        "|---|---|---|---|---|---|",
    ]
    for option in options:
        what = option.get("description", "")
        choices = option.get("choices") or []
        if choices:
            named = ", ".join(
                f"`{c['value']}`"
                if c["name"] == str(c["value"])
                else f"`{c['value']}` ({c['name']})"
                for c in choices
            )
            what = f"{what}: {named}"
        low, high = option.get("min_value"), option.get("max_value")
        if low is not None or high is not None:
            what += f" ({'' if low is None else low}-{'' if high is None else high})"
        if option.get("autocomplete"):
            what += " (suggested as you type)"
        rows.append(
            "| `{}` | `{}` | {} | {} | {} | {} |".format(
                option["name"],
                _de(option, "name") or option["name"],
                OPTION_TYPES.get(option["type"], str(option["type"])),
                "yes" if option.get("required") else "",
                _cell(what),
                _cell(_de(option, "description")),
            )
        )
    return rows


def _command_lines(
    entry: dict[str, Any], path: list[str], path_de: list[str], depth: int
) -> list[str]:
    """The reference of one command or group and, for a group, of everything under it."""
    path = [*path, entry["name"]]
    path_de = [*path_de, _de(entry, "name") or entry["name"]]
    options = entry.get("options") or []
    subs = [o for o in options if o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)]
    heading = "#" * min(depth, 6)
    lines = [f"{heading} `/{' '.join(path)}`", ""]
    if path_de != path:
        lines += [f"German: `/{' '.join(path_de)}`", ""]
    lines.append(entry.get("description", ""))
    if _de(entry, "description"):
        lines += ["", f"*{_de(entry, 'description')}*"]
    lines.append("")
    if subs:
        for sub in subs:
            lines += _command_lines(sub, path, path_de, depth + 1)
    elif options:
        lines += [*_option_rows(options), ""]
    else:
        lines += ["No options.", ""]
    return lines


def commands_page(payloads: list[dict[str, Any]] | None = None) -> str:
    """The command reference as Markdown, from ``payloads`` (default: the bot's own tree)."""
    if payloads is None:
        payloads = asyncio.run(command_payloads())
    lines = [
        "# Command reference",
        "",
        "Generated when the site is built, from the command tree the bot syncs to Discord",
        "(names, descriptions, options and choices; German through the bot's translator).",
        "Who may use each command and what it does in a game: [Commands](../players/commands.md).",
        "",
    ]
    for entry in payloads:
        lines += _command_lines(entry, [], [], 2)
    return "\n".join(lines)


def _attribute_docs(doc: str) -> dict[str, str]:
    """``name -> text`` from the ``Attributes:`` section of a Google-style docstring."""
    section = doc.split("Attributes:", 1)[1] if "Attributes:" in doc else ""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in section.splitlines():
        head = re.match(r"^ {4,8}(\w+): (.*)$", line)
        if head and len(line) - len(line.lstrip()) <= 8:
            current = found.setdefault(head.group(1), [])
            current.append(head.group(2))
        elif current is not None and line.strip():
            current.append(line.strip())
    return {name: " ".join(parts) for name, parts in found.items()}


def _default(field: dataclasses.Field[Any]) -> str:
    if field.default_factory is not dataclasses.MISSING:
        value = field.default_factory()
    else:
        value = field.default
    if value is None or not str(value) or "Secret" in repr(value) and not value:
        return "not set"
    return f"`{value}`"


def settings_page() -> str:
    """The settings reference as Markdown: one row per field of :class:`bot.process.config.Settings`."""
    from bot.process.config import Settings

    docs = _attribute_docs(Settings.__doc__ or "")
    lines = [
        "# Settings reference",
        "",
        "Generated when the site is built, from `bot.process.config.Settings`. Each setting is an",
        "environment variable, or a `KEY=value` line of `.env` (real environment variables win).",
        "A setting that does not parse stops the bot with one line and exit code 2.",
        "",
        "| variable | default | meaning |",
        "|---|---|---|",
    ]
    for field in dataclasses.fields(Settings):
        text = re.sub(r"``([^`]+)``", r"`\1`", docs.get(field.name, ""))
        env = re.match(r"`([A-Z][A-Z0-9_]+)`:? ?", text)
        name = f"`{env.group(1)}`" if env else f"({field.name})"
        text = text[env.end() :] if env else text
        lines.append(f"| {name} | {_default(field)} | {_cell(text)} |")
    return "\n".join(lines) + "\n"


def achievements_page() -> str:
    """The achievements as Markdown: one row per entry of the bot's table, its words in both
    languages as the players read them (the map's nouns of a map-only achievement)."""
    from bot.host.achievements import ACHIEVEMENTS
    from sentences.achievements import achievement_name, achievement_rule
    from words import words_for

    en, de = words_for("en"), words_for("de")
    lines = [
        "# Achievements reference",
        "",
        "Generated when the site is built, from `bot.host.achievements.ACHIEVEMENTS`. How they",
        "are earned, shown and recomputed: [Achievements](../players/achievements.md).",
        "",
        "| id | name | rule | German | source |",
        "|---|---|---|---|---|",
    ]
    for a in ACHIEVEMENTS:
        german = f"**{achievement_name(a.id, de)}**: {achievement_rule(a.id, de)}"
        cells = (
            f"`{a.id}`",
            achievement_name(a.id, en),
            achievement_rule(a.id, en),
            german,
            a.source,
        )
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def repository_page(path: Path, page: str) -> str:
    """A Markdown file of the repository as the page ``page``: its links into ``docs/`` made
    relative to that page, and a link to ``README.md`` made one to the site's home."""
    up = "../" * page.count("/")
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\]\(docs/", f"]({up}", text)
    return re.sub(r"\]\(README\.md", f"]({up}index.md", text)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages to the site."""
    root = Path(config.config_file_path).resolve().parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    pages = {
        "reference/commands.md": commands_page(),
        "reference/settings.md": settings_page(),
        "reference/achievements.md": achievements_page(),
        "contributors/contributing.md": repository_page(
            root / "CONTRIBUTING.md", "contributors/contributing.md"
        ),
        "benchmarks/history.md": repository_page(
            root / "benchmarks" / "HISTORY.md", "benchmarks/history.md"
        ),
    }
    for uri, content in pages.items():
        files.append(File.generated(config, uri, content=content))
    return files
