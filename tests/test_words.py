"""The message catalogs: every sentence in the code is translated, placeholders agree, plurals are real."""

from __future__ import annotations

import ast
import io
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


# ---------------------------------------------------------------- the catalog check
def _extract(source: str) -> set[tuple[str | tuple[str, str], str | None]]:
    """What Babel's extractor (with the project's keywords) reads from ``source``."""
    from babel.messages.extract import extract

    from words import KEYWORDS

    found = extract("python", io.BytesIO(source.encode()), keywords=KEYWORDS, comment_tags=())
    return {(message, context) for _line, message, _comments, context in found}


def test_the_real_code_and_catalog_pass_the_catalog_check() -> None:
    """No sentence the extractor misses, no English command name in German text, no list
    placeholder after a German preposition (what ``update_catalogs.py --check`` also runs)."""
    with catalog_file("de").open("rb") as src:
        catalog = read_po(src, locale="de", domain="ttrbot")
    assert update_catalogs.catalog_problems(catalog) == []


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ('w.t("In: {x}", x=d.get(k, w.t("the server\'s language")))\n', "not extracted"),
        ('w.t(f"Game {game} is over.")\n', "not a literal"),
        ('w.t("Your turn, " + name)\n', "not a literal"),
        ("w.t(sentence)\n", "not a literal"),
        ('w.n(one, "{count} games", n)\n', "not a literal"),
        ('w.ctx("image", w.t("nested"))\n', "not a literal"),
    ],
)
def test_the_check_finds_a_sentence_the_extractor_cannot_read(source: str, why: str) -> None:
    """A planted sentence nested in another call's argument, an f-string, a concatenation or a
    variable handed to a marker: each is reported with its place."""
    found = update_catalogs.unextracted({"cogs/planted.py": source}, _extract(source))
    assert len(found) == 1 and found[0].startswith("cogs/planted.py:1:") and why in found[0]


def test_the_check_passes_a_sentence_the_extractor_reads() -> None:
    """Literal sentences (one per line, a context, a plural, a table's N_) and a table lookup the
    check knows are not reported."""
    source = (
        'lang = w.t("the server\'s language")\n'
        'w.t("In: {x}", x=lang)\n'
        'w.ctx("image", "Deck {n}", n=3)\n'
        'w.n("{count} game", "{count} games", n)\n'
        'NAMES = {"a": N_("Alpha")}\n'
    )
    assert update_catalogs.unextracted({"cogs/planted.py": source}, _extract(source)) == []
    known = {"render/_theme.py": "w.ctx('image', msgid)\n"}
    assert update_catalogs.unextracted(known, set()) == []


def _command_names() -> dict[str, str]:
    with catalog_file("de").open("rb") as src:
        return {
            str(m.id): str(m.string)
            for m in read_po(src, locale="de")
            if m.id and m.context == "command" and isinstance(m.id, str)
        }


@pytest.mark.parametrize(
    ("english", "german", "bad"),
    [
        ("Scores: /ttr status.", "Punkte: /ttr status.", True),  # the English name
        ("Scores: /ttr status.", "Punkte: /ttr stand.", False),
        ("Change it with /ttr admin config.", "Ändere es mit /ttr verwaltung config.", True),
        ("Change it with /ttr admin config.", "Ändere es mit /ttr verwaltung.", True),
        (
            "Change it with /ttr admin config.",
            "Ändere es mit /ttr verwaltung einstellungen.",
            False,
        ),
        ("See /ttr board.", "Siehe /ttr hand.", True),  # a German name, but of another command
        ("See /ttr game id:{game}.", "Siehe /ttr spiel nummer:{game}.", False),
        ("Finish or cancel it.", "Brich es mit /ttr abbrechen ab.", False),  # a German name more
        ("Who may use /ttr here.", "Wer /ttr hier nutzen darf.", False),
    ],
)
def test_the_check_finds_a_command_name_a_german_player_does_not_see(
    english: str, german: str, bad: bool
) -> None:
    """Planted catalog entries against the real command tree and the catalog's German names:
    every /ttr command an English text names is named in German by its German name."""
    found = update_catalogs.command_name_problems(
        [(english, german)], update_catalogs.command_paths(), _command_names()
    )
    assert bool(found) == bad, found


@pytest.mark.parametrize(
    ("german", "bad"),
    [
        ("Nutze die Strecke {route} mit {cards}", True),
        ("Du hast {route} genutzt und für {payment} bezahlt.", True),
        ("zahlbar mit {cards} oder anders", True),
        ("Baue mit {wilds} einen Bahnhof", True),  # the noun without its dative
        ("die erste Zahlweise braucht die wenigsten {wilds}", True),
        ("Nutze die Strecke {route} und spiele {cards} aus", False),
        ("Kosten: {cards}", False),
        ("Baue mit {wilds:dat} einen Bahnhof", False),
        ("mit 2 {cards:dat}", False),
    ],
)
def test_the_check_finds_a_case_a_list_placeholder_cannot_take(german: str, bad: bool) -> None:
    """A planted German preposition before a card list (always nominative: 'mit 1× bunte
    Joker-Karte' on Amsterdam), a dative preposition before a noun without ``:dat``, a
    superlative before a noun that may carry an adjective."""
    assert bool(update_catalogs.case_problems([german])) == bad
