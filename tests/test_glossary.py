"""The German catalog against the rulebooks' glossary, the map's nouns, and every plural at 0, 1 and 2.

The glossary itself (forbidden and required terms, each with its rulebook) is
``tests/glossary.py``; ``tests/cogs/test_german_games.py`` holds every message
and image of a German game on every map to the same table.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from words import ERRORS, LANGS, NOUN_DEFAULTS, Plural, catalog_file, plural_name, words_for

from . import glossary


def _catalog() -> list[Any]:
    with catalog_file("de").open("rb") as src:
        return [m for m in read_po(src, locale="de") if m.id]


def _forms(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, tuple | list) else [str(value)]


def _singular(m: Any) -> str:
    return _forms(m.id)[0]


def test_the_catalog_uses_no_word_the_rulebooks_do_not() -> None:
    """No German sentence, label or command says 'bauen', 'Gleis', 'Ziele', 'Waren', 'Plan',
    'stornieren', 'Knopf'... (each term in tests/glossary.py names the rulebooks' word)."""
    texts = [s for m in _catalog() for s in _forms(m.string)]
    found = list(glossary.problems(texts))
    assert not found, "\n".join(found)


def test_the_catalog_uses_the_rulebooks_words_where_it_matters() -> None:
    """Claim is 'nutzen', the board is the 'Spielplan' (commands too), discard is the
    'Ablagestapel', a double route 'Doppel- oder Dreifachstrecke', colours are nouns..."""
    entries = {(m.context, _singular(m)): _forms(m.string) for m in _catalog()}
    for key, (pattern, source) in glossary.REQUIRED.items():
        assert key in entries, f"{key} is not in the catalog"
        for form in entries[key]:
            assert re.search(pattern, form), f"{key} -> {form!r} must match {pattern!r} ({source})"


def test_every_german_command_name_is_one_a_german_player_types() -> None:
    """No command or option is called 'karte', 'karten', 'bauen' or 'ziele'; none is left in English
    except the ones German uses as they are ('hand', 'thread')."""
    english_ok = {"hand", "thread", "normal", "English", "Deutsch"}
    for m in _catalog():
        if not str(m.context).startswith("command"):
            continue
        name, german = str(m.id), str(m.string)
        if name.islower() and " " not in name:
            assert german not in {"karte", "karten", "bauen", "ziele"}, (name, german)
            assert german != name or name in english_ok, f"/ttr {name} has no German name"


@pytest.mark.parametrize("map_id", glossary.map_ids())
def test_each_map_names_its_colours_as_its_rulebook_prints_them(map_id: str) -> None:
    """USA and Germany: Lila; Nordic: Purpur and Braun; Amsterdam: Pink; Paris: Lila."""
    w = words_for("de", glossary.map_data(map_id))
    for color, name in glossary.MAP_COLOURS[map_id].items():
        assert w.color(color) == name, (map_id, color, w.color(color))


@pytest.mark.parametrize("map_id", glossary.map_ids())
def test_each_maps_rules_text_keeps_the_glossary(map_id: str) -> None:
    """The German rules text of a map (shown by /ttr rules) uses only the rulebooks' words."""
    text = glossary.map_data(map_id)["rules_text"]["de"]
    found = list(glossary.problems([text], map_id))
    assert not found, "\n".join(found)


def _map_nouns() -> set[str]:
    return {
        n for map_id in glossary.map_ids() for lang in LANGS for n in glossary.nouns(map_id, lang)
    }


def test_every_map_noun_in_a_sentence_comes_from_the_maps_block() -> None:
    """No sentence or label says a map's noun itself (Zielkarten, Waggons, Fuhrwerke, contracts,
    buses, Handelsgüter-Bonuskarten...): it is a placeholder filled from the map's words block.
    Only the catalog's defaults of those placeholders hold nouns, and the command descriptions
    (Discord's command list is the same on every map)."""
    defaults = {msgid for pair in NOUN_DEFAULTS.values() for msgid in pair}
    patterns = [
        re.compile(glossary.word_pattern(n), re.IGNORECASE)
        for n in sorted(_map_nouns(), key=len, reverse=True)
    ]
    bad = []
    for m in _catalog():
        if str(m.context).startswith("command") or _singular(m) in defaults:
            continue
        for text in _forms(m.id) + _forms(m.string):
            text = re.sub(r"/ttr( [\w:]+)+", "/ttr", text)  # command names are not nouns
            hits = [p.pattern for p in patterns if p.search(text)]
            if hits:
                bad.append(f"{text!r}: {hits[0]}")
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------------------- plurals
#: Count nouns of the sentences themselves (not the map's), singular and plural.
COUNT_NOUNS = {
    "de": [
        ("Punkt", "Punkte"),
        ("Karte", "Karten"),
        ("Strecke", "Strecken"),
        ("Feld", "Felder"),
        ("Spiel", "Spiele"),
        ("Zug", "Züge"),
        ("Stunde", "Stunden"),
        ("Minute", "Minuten"),
        ("Tag", "Tage"),
        ("Sieg", "Siege"),
        ("Zahlweise", "Zahlweisen"),
        ("Kombination", "Kombinationen"),
    ],
    "en": [
        ("point", "points"),
        ("card", "cards"),
        ("route", "routes"),
        ("space", "spaces"),
        ("game", "games"),
        ("turn", "turns"),
        ("hour", "hours"),
        ("minute", "minutes"),
        ("day", "days"),
        ("win", "wins"),
        ("way", "ways"),
    ],
}

#: The fact that holds the count of a plural sentence kept in the error table (else ``count``).
_COUNT_KEYS = {(e.singular, e.plural): e.key for e in ERRORS.values() if isinstance(e, Plural)}


def _plural_entries() -> Iterator[tuple[str | None, str, str, str]]:
    for m in _catalog():
        if isinstance(m.id, tuple | list):
            singular, plural = str(m.id[0]), str(m.id[1])
            yield m.context, singular, plural, _COUNT_KEYS.get((singular, plural), "count")


def _render(lang: str, meta: dict[str, Any] | None, entry: tuple[Any, ...], n: int) -> str:
    context, singular, plural, key = entry
    w = words_for(lang, meta)
    fields = {
        name
        for text in (singular, plural)
        for _, name, _, _ in string.Formatter().parse(text)
        if name
    }
    facts: dict[str, Any] = {f: "X" for f in fields if f not in w.terms}
    facts[key] = n
    if context is None:
        return w.n(singular, plural, n, **facts)
    return w.nctx(context, singular, plural, n, **facts)


def _wrong_counts(text: str, n: int, pairs: list[tuple[str, str]]) -> list[str]:
    """``1 Punkte``, ``2 Fuhrwerk``, ``0 Karte``: a number before the other number's noun (one
    adjective may stand between)."""
    forms = [form for pair in pairs for form in pair]
    out = []
    for one, more in pairs:
        if one == more:
            continue
        wrong = more if n == 1 else one
        for hit in re.finditer(rf"(?<![\d.]){n} (\w+ )?({re.escape(wrong)})(?![\w-])", text):
            rest = text[hit.start(2) :]
            if not any(len(f) > len(wrong) and rest.startswith(f) for f in forms):
                out.append(hit.group(0))  # not the start of a longer noun ("train car cards")
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("map_id", [None, *glossary.map_ids()])
def test_every_plural_entry_reads_right_at_0_1_and_2(lang: str, map_id: str | None) -> None:
    """Each plural sentence of the catalog, filled with each map's nouns at counts 0, 1 and 2:
    every placeholder filled, and no number before the wrong form of a noun ('1 Fuhrwerke',
    '2 Punkt', '1 contracts'); German differs from English (it was translated)."""
    meta = glossary.map_data(map_id) if map_id else None
    w = words_for(lang, meta)
    noun_pairs = [  # every noun of the map ("train station" is not the word "train")
        (str(w.terms[k]), str(w.terms[plural_name(k)]))
        for k in w.terms
        if plural_name(k) in w.terms and plural_name(k) != k
    ]
    pairs = COUNT_NOUNS[lang] + noun_pairs
    entries = list(_plural_entries())
    assert len(entries) > 40
    bad = []
    for entry in entries:
        for n in (0, 1, 2):
            text = _render(lang, meta, entry, n)
            if re.search(r"\{\w+(:\w+)?\}", text):
                bad.append(f"unfilled placeholder at {n}: {text!r}")
            bad += [f"{hit!r} at {n}: {text!r}" for hit in _wrong_counts(text, n, pairs)]
            if lang == "de" and text == _render("en", meta, entry, n):
                bad.append(f"not translated at {n}: {text!r}")
    assert not bad, "\n".join(bad)


def test_the_plural_test_sees_a_wrong_form() -> None:
    """The check above is not blind: '1 Fuhrwerke' and '2 Punkt' are caught, '1 Fuhrwerk' is not."""
    pairs = [("Fuhrwerk", "Fuhrwerke"), ("Punkt", "Punkte")]
    assert _wrong_counts("hat noch 1 Fuhrwerke", 1, pairs) == ["1 Fuhrwerke"]
    assert _wrong_counts("für 2 Punkt", 2, pairs) == ["2 Punkt"]
    assert _wrong_counts("1 Fuhrwerk · 2 Punkte", 1, pairs) == []
    trains = [("train", "trains"), ("train car card", "train car cards")]
    assert _wrong_counts("2 train car cards", 2, trains) == []
    assert _wrong_counts("2 train car card", 2, trains) == ["2 train car card"]
    assert list(glossary.problems(["Du hast Atlanta – Miami gebaut."]))


@pytest.mark.parametrize(
    "text",
    [
        "Du hast A – B genutzt und mit 1× bunte Joker-Karte bezahlt.",
        "die erste Zahlweise braucht die wenigsten bunte Joker-Karten",
        "• Sprache neuer Spiele: the server's language",
        "Der Spielplan um die Städte deiner Vertragskarten (goldene Ringe).",
        "Schließ den Tunnel ab: Es ist nichts mehr zu zahlen",
        "Leg eine Karte (Rot) für eine französische Flagge beiseite",
        "alice hat ausgesetzt",
        "- deine 1 Wertungszahl und ihr Verlauf (deine Plätze …);",
        "Warum: Sie liegt auf dem Weg deiner Zielkarte Berlin – Roma.",
        "Der Bot ist zurück in diesem Server: Spiel 3 geht weiter.",
    ],
)
def test_the_glossary_sees_what_the_fourth_review_flagged(text: str) -> None:
    """Planted texts with each high finding of the review (as a German game shows it, the
    placeholders filled) are caught."""
    assert list(glossary.problems([text]))


def test_the_glossary_sees_an_english_command_name_in_german_text() -> None:
    """'/ttr status' in German text is caught (German players see /ttr stand); German names,
    a bare /ttr and names the same in both languages are not."""
    found = list(glossary.english_command_names(["Punkte und Zugzeit: /ttr status."]))
    assert found and "/ttr status" in found[0]
    fine = ["Punkte und Zugzeit: /ttr stand.", "Wer /ttr in welchen Kanälen nutzt", "/ttr hand"]
    assert list(glossary.english_command_names(fine)) == []
    assert list(glossary.english_command_names(["mit /ttr admin config"]))


#: The imperatives the German command descriptions start with (CONTRIBUTING.md, "Style of
#: command descriptions"): a new verb is added here.
IMPERATIVES = frozenset(
    "Baue Beginne Biete Bitte Brich Entferne Eröffne Erlaube Füge Gib Hol Lass Lege Lies Mach Melde Nutze Prüfe "
    "Sieh Spiele Starte Stelle Tritt Vergrößere Verlasse Verwalte Wähle Zeige Ziehe".split()
)


def _descriptions() -> set[str]:
    """The English description of every group, command and option of the /ttr tree."""
    import sys

    from discord import app_commands

    sys.path.insert(0, str(glossary.ROOT / "tools"))
    import update_catalogs

    ttr = update_catalogs.ttr_group()
    out = {str(ttr.description)}
    todo = list(ttr.commands)
    while todo:
        command = todo.pop()
        out.add(str(command.description))
        if isinstance(command, app_commands.Group):
            todo += command.commands
        elif isinstance(command, app_commands.Command):
            out |= {str(p.description) for p in command.parameters}
    return out


def test_german_command_descriptions_are_du_imperatives() -> None:
    """Every German command and option description starts with a du-imperative ('Zeige …',
    'Wähle …'), optionally after 'Nur <Spielplan>:' or 'Oder': no third person ('Zeigt'), no
    infinitive ('Einen Bahnhof bauen'), no noun phrase, no question."""
    bad = []
    for m in _catalog():
        if m.context != "command" or str(m.id) not in _descriptions():
            continue
        text = re.sub(r"^(Nur [^:]+: |Oder )", "", str(m.string))
        first = re.split(r"[\s,:]", text)[0].capitalize()
        if first not in IMPERATIVES or text.rstrip().endswith("?"):
            bad.append(f"{m.id!r} -> {m.string!r}")
    assert not bad, "\n".join(bad)
