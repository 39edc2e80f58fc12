"""The live board's words: every word the page's modules look up is in ``web.strings``, each is
translated in German with the page's placeholders intact, and the page shows them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import maps
from web.strings import PAGE_FACTS, WEB_WORDS, page_strings

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
#: Bundled third-party modules (Discord's Embedded App SDK, minified): not the page's own code.
VENDORED = {"discord-sdk.js"}
#: How the page's modules read a word: ``s.key``, ``this.s.key`` or ``s[key]`` is not used.
LOOKUP = re.compile(r"\b(?:this\.)?s\.([a-z_]+)\b")


def page_keys() -> set[str]:
    keys: set[str] = set()
    for path in STATIC.glob("*.js"):
        if path.name in VENDORED:
            continue
        keys |= set(LOOKUP.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_word_the_page_reads_is_in_the_catalog_table():
    keys = page_keys()
    assert {"deck", "to_move", "reconnecting", "next_step"} <= keys
    assert keys - set(WEB_WORDS) == set()
    assert set(WEB_WORDS) - keys == set(), "a page word nobody reads"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_word_keeps_the_placeholders_the_page_fills(lang):
    strings = page_strings(lang)
    assert set(strings) == set(WEB_WORDS)
    for key, msgid in WEB_WORDS.items():
        wanted = {p for p in re.findall(r"\{(\w+)\}", msgid) if p in PAGE_FACTS}
        assert set(re.findall(r"\{(\w+)\}", strings[key])) == wanted, (lang, key, strings[key])


def test_german_words_are_translated_with_the_maps_nouns():
    en, de = page_strings("en"), page_strings("de")
    same = {k for k in WEB_WORDS if en[k] == de[k]}
    assert same <= {"tunnel", "stations"}, same  # "Tunnel" in both; no stations on the USA map
    assert de["to_move"] == "{name} ist am Zug"
    assert de["tickets"] == "Zielkarten"
    assert page_strings("fr") == en


def test_the_maps_own_nouns_stand_in_the_words():
    meta = maps.load_ruleset("amsterdam").meta
    assert page_strings("de", meta)["tickets"] == "Vertragskarten"
    assert page_strings("de", meta)["pieces"] == "Fuhrwerke"
    assert page_strings("en", meta)["tickets"] != page_strings("en")["tickets"]
