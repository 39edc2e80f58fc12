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
import ast
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from words import KEYWORDS, catalog_file  # noqa: E402

if TYPE_CHECKING:
    from discord import app_commands

#: Packages whose code says or draws words to players.
SOURCES = ("words", "sentences", "bot", "cogs", "render", "web")


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


def ttr_group() -> app_commands.Group:
    """The /ttr group (an ``app_commands.Group``) as the cog builds it, subgroups included (the
    cog makes them with itself), on a bot that never connects and has no game service."""
    import types

    from bot.discord_app.client import TtrBot
    from bot.process.config import Settings
    from cogs.ttr._commands import TtrCog

    bot = TtrBot(Settings(), service=types.SimpleNamespace())  # type: ignore[arg-type]
    group = TtrCog(bot).app_command
    assert group is not None  # a GroupCog's group
    return group


def command_strings() -> list[tuple[str, str]]:
    """``(text, context)`` for every name, description and choice name of the /ttr command tree
    (translated in the context "command", or the one a ``locale_str`` names in its extras)."""
    from discord import app_commands

    from cogs.ttr._lobby import TURN_TIMES

    def entry(text: object, fallback: str) -> tuple[str, str]:
        if isinstance(text, app_commands.locale_str):
            return text.message, str(text.extras.get("context") or "command")
        return str(text or fallback), "command"

    ttr = ttr_group()
    out = [("ttr", "command"), entry(ttr.description, "")]
    commands = list(ttr.commands)
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


#: Where a marker is called with a msgid that is not a literal (path -> the arguments' source):
#: each value is a sentence marked with ``N_``/``NP_`` in the table it is looked up in, so the
#: extractor has it already. A new entry names such a table lookup, never a computed text.
INDIRECT: dict[str, frozenset[str]] = {
    "words/_catalog.py": frozenset({"entry"}),  # Words.text: an N_ sentence of a table
    "words/_errors.py": frozenset({"_YES_NO[v]"}),  # the N_ yes/no of a refusal's fact
    "bot/discord_app/send.py": frozenset({"STILL_WORKS", "MENU_REFUSED"}),  # module constants, N_
    "bot/host/services/_lobby.py": frozenset({"'ai_level', AI_LEVEL_NAMES[chosen]"}),
    "sentences/stories.py": frozenset(
        {"names[key]", "'ai_level', AI_LEVEL_NAMES.get(level, level)"}
    ),
    "cogs/ttr/_announce.py": frozenset({"PERMISSION_NAMES.get(f, f)"}),
    "render/_chart.py": frozenset({"'image', CHART_WORDS[key]"}),
    "render/_theme.py": frozenset({"'image', msgid"}),
    "web/strings.py": frozenset({"'web', msgid"}),  # WEB_WORDS: NP_ sentences of the page
}

#: How many leading arguments of each marker are its msgid (with the context first for ``ctx``).
_MSGID_ARGS = {"t": 1, "n": 2, "ctx": 2, "nctx": 3, "N_": 1, "NP_": 2, "NN_": 2}
_CONTEXT_FIRST = {"ctx", "nctx", "NP_"}


def unextracted(
    sources: Mapping[str, str], found: set[tuple[str | tuple[str, str], str | None]]
) -> list[str]:
    """Every marker call in ``sources`` (path -> Python text) whose sentence the extractor missed.

    ``found`` holds the extracted ``(msgid or (singular, plural), context)``. A call whose msgid
    is literal must be among them (Babel does not see a ``w.t`` nested in another call's
    argument); a call on anything else (an f-string, a concatenation, another call, a variable)
    is a problem unless :data:`INDIRECT` names it. Each problem is ``"path:line: why"``.
    """
    out = []
    for path, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if name not in _MSGID_ARGS or (name == "t" and not node.args):
                continue
            args = node.args[: _MSGID_ARGS[name]]
            where = f"{path}:{node.lineno}"
            literal = [a.value for a in args if isinstance(a, ast.Constant)]
            if len(literal) != _MSGID_ARGS[name] or not all(isinstance(v, str) for v in literal):
                source = ", ".join(ast.unparse(a) for a in args)
                if source not in INDIRECT.get(path, frozenset()):
                    out.append(f"{where}: {name}({source}) is not a literal the extractor can read")
                continue
            context = literal[0] if name in _CONTEXT_FIRST else None
            ids = literal[1:] if name in _CONTEXT_FIRST else literal
            msgid: str | tuple[str, str] = ids[0] if len(ids) == 1 else (ids[0], ids[1])
            if (msgid, context) not in found:
                out.append(f"{where}: {msgid!r} is marked but not extracted (a nested call?)")
    return out


def source_texts() -> dict[str, str]:
    """Every Python file of :data:`SOURCES` (repository path -> text)."""
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for package in SOURCES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def command_paths() -> list[tuple[str, ...]]:
    """Every command of the /ttr tree as its English path (``("status",)``, ``("admin",
    "config")``), groups included."""
    from discord import app_commands

    out: list[tuple[str, ...]] = []
    todo: list[tuple[tuple[str, ...], object]] = [((), c) for c in ttr_group().commands]
    while todo:
        parent, command = todo.pop(0)
        if isinstance(command, app_commands.Group | app_commands.Command):
            out.append((*parent, command.name))
        if isinstance(command, app_commands.Group):
            todo += [(out[-1], c) for c in command.commands]
    return out


#: ``/ttr`` and the words after it (a word before ``:`` is an option, not a command).
_MENTION = re.compile(r"/ttr((?: [\w-]+\b(?!:))*)")


def mentions(text: str, names: Mapping[tuple[str, ...], object]) -> list[tuple[str, ...]]:
    """The command paths ``text`` names after ``/ttr`` (the longest known prefix of the words;
    ``()`` when the first word names no command of ``names``)."""
    out = []
    for m in _MENTION.finditer(text):
        words = tuple(m.group(1).split())
        known = [words[:k] for k in range(len(words), 0, -1) if words[:k] in names]
        out.append(known[0] if known else words[:1])
    return out


def command_name_problems(
    entries: Iterable[tuple[str, str]],
    paths: Iterable[tuple[str, ...]],
    german: Mapping[str, str],
) -> list[str]:
    """Every ``/ttr ...`` of a German text that is not the German name of the command its English
    text names (``/ttr status`` where a German player sees ``/ttr stand``).

    ``entries``: ``(English msgid, German msgstr)``; ``paths``: :func:`command_paths`;
    ``german``: English command name -> German (the catalog's ``command`` context).
    """
    english = {p: p for p in paths}
    to_german = {p: tuple(german.get(w, w) for w in p) for p in english}
    german_paths = {g: p for p, g in to_german.items()}
    out = []
    for msgid, msgstr in entries:
        said = mentions(msgstr, german_paths)
        for path in said:
            if path not in german_paths and path in english:
                out.append(
                    f"/ttr {' '.join(path)} in {msgstr!r}: a German player sees "
                    f"/ttr {' '.join(to_german[path])}"
                )
        for path in mentions(msgid, english):
            if path in to_german and to_german[path] not in said:
                out.append(
                    f"{msgstr!r} must name /ttr {' '.join(to_german[path])} "
                    f"as its English text names /ttr {' '.join(path)}"
                )
    return out


#: German prepositions that govern the dative or the accusative.
PREPOSITIONS = (
    "mit|von|vom|aus|zu|zum|zur|bei|beim|nach|seit|gegenüber|außer|samt|"
    "für|ohne|gegen|durch|um|wegen|statt|trotz"
)
#: Placeholders filled with a list of cards, in the nominative only (``1× bunte Joker-Karte``).
NOMINATIVE_LISTS = ("cards", "payment", "extra", "committed")
#: Map nouns that may carry an adjective (Amsterdam's "bunte Joker-Karte"): after an inflected
#: determiner ("die wenigsten", "keine") the adjective would need the weak ending.
_CASE_RULES = (
    (
        re.compile(rf"(?<![\w-])({PREPOSITIONS}) \{{({'|'.join(NOMINATIVE_LISTS)})\}}"),
        "a list placeholder is only ever nominative: write '{cards} ausspielen', "
        "'Kosten: {cards}' instead of a preposition before it",
    ),
    (
        re.compile(r"(?<![\w-])(mit|von|vom|aus|zu|zum|zur|bei|beim|nach|seit) \{(wilds?|card)\}"),
        "a noun after a dative preposition takes the dative: '{wilds:dat}'",
    ),
    (
        re.compile(r"\w+sten \{wilds?(:\w+)?\}"),
        "a superlative before a noun with an adjective ('die wenigsten bunte Joker-Karten')",
    ),
)


def case_problems(texts: Iterable[str]) -> list[str]:
    """Every German text that puts a nominative-only placeholder where German inflects it
    ("mit {cards}" prints "mit 1× bunte Joker-Karte" on Amsterdam)."""
    return [
        f"{m.group(0)!r} in {text!r}: {why}"
        for text in texts
        for rule, why in _CASE_RULES
        for m in rule.finditer(text)
    ]


def catalog_problems(catalog: Catalog) -> list[str]:
    """What :func:`unextracted`, :func:`command_name_problems` and :func:`case_problems` find
    in the code and in ``catalog`` (German)."""
    found = {(m.id, m.context) for m in template() if m.id}
    out = unextracted(source_texts(), found)
    names = {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and m.context == "command" and isinstance(m.id, str) and m.string
    }
    pairs = []
    for m in catalog:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        pairs += [(str(ids[min(i, len(ids) - 1)]), str(s)) for i, s in enumerate(strings)]
    out += command_name_problems(pairs, command_paths(), names)
    out += case_problems(s for _, s in pairs)
    return out


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
        problems = catalog_problems(catalog)
        for problem in problems:
            print(problem)
        return 1 if missing or unused or problems else 0
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
