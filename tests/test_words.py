"""The message catalogs: every sentence in the code is translated, placeholders agree, plurals are real."""

from __future__ import annotations

import ast
import re
import string
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from words import LANGS, catalog_file, words_for

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import update_catalogs  # noqa: E402


def _catalog(lang: str = "de") -> list:  # type: ignore[type-arg]
    with catalog_file(lang).open("rb") as src:
        return [m for m in read_po(src, locale=lang) if m.id]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_sentence_in_the_code_is_in_the_catalog() -> None:
    """What the extractor finds in words/, bot/, cogs/ and render/ is exactly what the German catalog holds."""
    wanted = {(m.id, m.context) for m in update_catalogs.template() if m.id}
    have = {(m.id, m.context) for m in _catalog()}
    assert not wanted - have, f"untranslated: {sorted(wanted - have, key=str)[:10]}"
    assert not have - wanted, f"unused: {sorted(have - wanted, key=str)[:10]}"


def test_every_entry_is_translated_with_the_same_placeholders() -> None:
    """No empty or fuzzy German entry; each keeps the English placeholders (a missing {count} would lie)."""
    for m in _catalog():
        assert not m.fuzzy, m.id
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), f"untranslated: {m.id!r}"
        english = set().union(*(_fields(i) for i in ids))
        for s in strings:
            assert _fields(s) <= english | {"count"}, (m.id, s)
        if not isinstance(m.id, tuple):
            assert _fields(strings[0]) == _fields(ids[0]), (m.id, strings[0])


def test_plural_forms_follow_the_catalog_rule() -> None:
    """ngettext picks the form by the catalog's Plural-Forms (German: one for 1, other for 0 and 2+)."""
    meta = {"words": {"de": {"ticket": "Zielkarte", "tickets": "Zielkarten"}}}
    w = words_for("de", meta)
    one = w.n("You kept {count} {ticket}.", "You kept {count} {tickets}.", 1)
    many = w.n("You kept {count} {ticket}.", "You kept {count} {tickets}.", 2)
    none = w.n("You kept {count} {ticket}.", "You kept {count} {tickets}.", 0)
    assert (one, many, none) == (
        "Du hast 1 Zielkarte behalten.",
        "Du hast 2 Zielkarten behalten.",
        "Du hast 0 Zielkarten behalten.",
    )


@pytest.mark.parametrize("lang", LANGS)
def test_map_nouns_come_from_the_map(lang: str) -> None:
    """Paris says buses, Amsterdam carts and contracts, in both languages; USA trains by default."""
    import json

    def meta(map_id: str) -> dict:  # type: ignore[type-arg]
        return json.loads((ROOT / "maps" / map_id / "map.json").read_text(encoding="utf-8"))

    paris, amsterdam = words_for(lang, meta("paris")), words_for(lang, meta("amsterdam"))
    assert paris.terms["pieces"] == {"en": "buses", "de": "Busse"}[lang]
    assert amsterdam.terms["tickets"] == {"en": "contracts", "de": "Vertragskarten"}[lang]
    assert words_for(lang).terms["pieces"] == {"en": "trains", "de": "Waggons"}[lang]


def test_the_words_package_imports_no_discord() -> None:
    """words/ is shared by the cogs and the images: it must not depend on discord (or Pillow)."""
    for path in (ROOT / "words").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                assert not re.match(r"(discord|PIL|engine|bot|cogs|render)\b", name), (path, name)


def test_decimals_are_written_as_each_language_writes_them() -> None:
    """Ratings and their changes: a point in English, a comma in German, a sign on request,
    never a negative zero."""
    en, de = words_for("en"), words_for("de")
    assert (en.decimal(-3.46), de.decimal(-3.46)) == ("-3.5", "-3,5")
    assert (en.decimal(2.0, sign=True), de.decimal(-1.25, sign=True)) == ("+2.0", "-1,2")
    assert en.decimal(-0.04, sign=True) == "+0.0" and en.decimal(7.0, 0) == "7"
