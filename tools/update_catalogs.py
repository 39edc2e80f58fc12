"""Extract every player-facing sentence from the code and update the German catalog.

Run from the repository root after adding or changing a sentence::

    python tools/update_catalogs.py          # add new msgids (empty), drop unused ones
    python tools/update_catalogs.py --check  # exit 1 when the catalog is out of date

Then translate the new entries in ``words/locale/de/LC_MESSAGES/ttrbot.po``
(``tests/test_words.py`` fails while one is missing). Uses Babel's extractor
with the keywords of :data:`words.KEYWORDS`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from words import KEYWORDS, catalog_file  # noqa: E402

#: Packages whose code says or draws words to players.
SOURCES = ("words", "sentences", "bot", "cogs", "render")


def extracted() -> Iterator[tuple[str | tuple[str, str], str | None, str]]:
    """``(msgid or (singular, plural), context, "path:line")`` for every marked sentence."""
    for package in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / package,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=(),
        ):
            yield message, context, f"{package}/{filename}:{lineno}"


def command_strings() -> list[tuple[str, str]]:
    """``(text, context)`` for every name, description and choice name of the /ttr command tree
    (translated in the context "command", or the one a ``locale_str`` names in its extras)."""
    from discord import app_commands

    from cogs.ttr._commands import TtrCog
    from cogs.ttr._lobby import TURN_TIMES

    def entry(text: object, fallback: str) -> tuple[str, str]:
        if isinstance(text, app_commands.locale_str):
            return text.message, str(text.extras.get("context") or "command")
        return str(text or fallback), "command"

    out = [("ttr", "command"), entry(TtrCog.__cog_group_description__, "")]
    commands = list(TtrCog.__cog_app_commands__)
    while commands:
        command = commands.pop(0)
        if isinstance(command, app_commands.Group):  # /ttr admin ...: its name and its commands
            out += [(command.name, "command"), (command.description, "command")]
            commands += command.commands
            continue
        if not isinstance(command, app_commands.Command):
            continue
        out += [(command.name, "command"), (command.description, "command")]
        for param in command.parameters:
            out += [entry(param.locale_name, param.name), (param.description, "command")]
            out += [(choice.name, "command") for choice in param.choices]
    neutral = set(TURN_TIMES) | {"ttr"}  # the same in every language
    return [
        (text, context)
        for text, context in dict.fromkeys(out)
        if text and not text.isdigit() and text not in neutral
    ]


def template() -> Catalog:
    """A catalog template holding every extracted message and the command tree's strings."""
    pot = Catalog(domain="ttrbot", project="ttrbot")
    for message, context, where in extracted():
        path, line = where.rsplit(":", 1)
        pot.add(message, context=context, locations=[(path, int(line))])
    for text, context in command_strings():
        pot.add(text, context=context, locations=[("cogs/ttr/_commands.py", 0)])
    return pot


def main(argv: list[str]) -> int:
    """Update (or with ``--check`` only compare) the German catalog; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report; exit 1 if out of date")
    args = parser.parse_args(argv)
    path = catalog_file("de")
    with path.open("rb") as src:
        catalog = read_po(src, locale="de", domain="ttrbot")
    pot = template()
    pot.creation_date = catalog.creation_date  # no header churn (and merge conflicts) on every run
    wanted = {(m.id, m.context) for m in pot if m.id}
    have = {(m.id, m.context) for m in catalog if m.id}
    missing, unused = wanted - have, have - wanted
    if args.check:
        for m in sorted(missing, key=str):
            print(f"not in the catalog: {m}")
        for m in sorted(unused, key=str):
            print(f"in the catalog but unused: {m}")
        return 1 if missing or unused else 0
    catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    with path.open("wb") as dst:
        write_po(
            dst, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False
        )
    print(f"{path}: {len(missing)} added, {len(unused)} removed; translate the empty entries")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
