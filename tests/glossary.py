"""The German glossary: the terms of the five German rulebooks, as tables that tests check text against.

Sources (``../shared/rules/``, numbered as in the German review):
000 Amsterdam, 001 Deutschland (OCR), 002 Board Game Arena's help for the USA game,
003 Skandinavien, 004 Paris.

Used by ``tests/test_glossary.py`` (the German catalog) and
``tests/cogs/test_german_games.py`` (every message, button and image label of a
German game on every map).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Term:
    """A pattern German text must not contain, and why (the rulebook's word and where it is);
    ``unless``: a pattern that makes it right within the same clause (a station is built)."""

    pattern: str
    why: str
    unless: str | None = None

    def find(self, text: str) -> list[str]:
        """The matches of the pattern in ``text`` (clauses that match ``unless`` left out)."""
        clauses = re.split(r"[.;:!?\n]", text) if self.unless else [text]
        return [
            m.group(0)
            for clause in clauses
            if not (self.unless and re.search(self.unless, clause))
            for m in re.finditer(self.pattern, clause)
        ]


#: A word boundary that treats a hyphenated compound as one word ("Handelsgüter-Bonuskarte"
#: is not the word "Bonuskarte").
_L, _R = r"(?<![\w-])", r"(?![\w-])"

#: Words no German edition uses for what we mean, with the rulebooks' words.
FORBIDDEN: tuple[Term, ...] = (
    Term(
        rf"{_L}(ge)?[Bb]au(en|e|st|t|te|test|ten)?{_R}",
        "claiming a route is 'eine Strecke nutzen' (000, 001, 003, 004) or 'in Anspruch nehmen' "
        "(001, 003); no rulebook says 'bauen' (only a Europe station is built)",
        unless=r"Bahnh[oö]f|\{stations?(:\w+)?\}",
    ),
    Term(
        rf"{_L}Gleis(e|es)?{_R}",
        "one track of a double route is 'eine der beiden Strecken' of a 'Doppelstrecke' "
        "(000, 003, 004; 001 also 'Dreifachstrecke')",
    ),
    Term(rf"{_L}Plan{_R}", "the board is the 'Spielplan' (all five)"),
    Term(
        rf"{_L}(USA-Karte|Landkarte|Karten:)|(diese|jede)[rnms]? Karte (ist|gibt|hat)",
        "the board is the 'Spielplan'; 'Karte' is a card in every rulebook",
    ),
    Term(
        rf"{_L}Ziel(?!karte)\w*{_R}",
        "tickets are 'Zielkarten' (001-004) or, on Amsterdam, 'Vertragskarten' (000)",
    ),
    Term(
        rf"{_L}Auftragskarte", "tickets are 'Zielkarten' / 'Vertragskarten'; no rulebook has this"
    ),
    Term(
        rf"{_L}Ware(n|nkarten?)?{_R}|{_L}Händlerkarte",
        "merchandise is 'Handelsgüter-Bonuskarten' (000)",
    ),
    Term(rf"{_L}Fahne", "flags are 'französische Flaggen' (004)"),
    Term(rf"{_L}Fähren-", "the compound joint is 'Fähr-' (003: 'Fährstrecke')"),
    Term(
        rf"{_L}Wagen{_R}",
        "pieces are 'Waggons' (001-003), 'Fuhrwerke' (000), 'Busse' (004); a route's length "
        "is counted in 'Felder' (all five)",
    ),
    Term(rf"{_L}Mischung", "a Germany ticket mix is a 'Kombination' (001: 'welche Kombination')"),
    Term(rf"{_L}Aufgeben{_R}", "the tunnel button must not read like resigning the game"),
    # one English term, one German word (the review's table 1.2)
    Term(rf"{_L}stornier\w*", "cancel is 'abbrechen' (the command and the button)"),
    Term(rf"{_L}(Knopf|Knöpfe|Knopfes){_R}", "a Discord button is a 'Button' everywhere"),
    Term(rf"{_L}Sieger{_R}|(?<!beim ){_L}Sieg:", "the winner is the 'Gewinner' everywhere"),
    Term(rf"{_L}belegt{_R}", "a taken route is 'besetzt' everywhere"),
    Term(rf"{_L}Bezahlung{_R}|{_L}Bezahlweisen?{_R}", "a way to pay is a 'Zahlweise' everywhere"),
    Term(rf"{_L}(Ihnen|Ihre[mnrs]?){_R}", "players are addressed with 'du' everywhere"),
    Term(
        r": (ihm|ihr|mit /ttr|deine?|gib|triff|nenne|grenze|warte|wähle|ziehe|nutze|verzichte|"
        r"dem Bot|der nächste|die Hälfte|die Strecke ist|wer als)\b",
        "a full sentence after a colon starts with a capital letter (fragments stay lower case)",
    ),
)

#: What the fourth German review flagged by hand (``docs/contributors/german-review-4.md``), as
#: patterns on the catalog and on every text a German game shows (placeholders filled).
REVIEWED: tuple[Term, ...] = (
    Term(
        r"(?<![\w-])(mit|für|von|aus|ohne|zu|bei|nach) \d+× ",
        "a card list is nominative only: 'mit 1× bunte Joker-Karte' (row 3-5); say "
        "'… ausspielen' or 'Kosten: …'",
    ),
    Term(
        r"(?<![\w-])wenigsten [a-zäöüß]+e(?![\w-])",
        "after 'die wenigsten' an adjective is weak: 'bunten' (row 6)",
    ),
    Term(r"the server's language", "an English leftover (row 1)"),
    Term(r"um die Städte deiner", "Amsterdam and Paris have 'Orte' (row 7)"),
    Term(r"(^|: )Zahl (die|eine|\d)", "the tunnel's extra cards are 'ausgespielt' (row 9)"),
    Term(r"Schließ(e)? den Tunnel", "a tunnel is 'genutzt', not locked (row 10)"),
    Term(r"(?<![\w-])beiseite", "a flag's card lies 'vor dir' (004:26, row 11)"),
    Term(r"(?<![\w-])(Setz(e)? aus|hat ausgesetzt)", "to pass is 'passen' (row 12)"),
    Term(r"(?<![\w-])Coach(?![\w-])", "the feature is called 'Tipp' (row 18)"),
    Term(r"(?<![\w-])Wendepunkte", "'Entscheidende Züge' (row 17)"),
    Term(r"und ihr Verlauf \(", "the forget-me item is an accusative: 'ihren Verlauf' (row 8)"),
    Term(
        r"(^|: )(Sie (versperrt|liegt)|Er schnitt)", "reads as the formal 'Sie' (rows 14, 15, 59)"
    ),
    Term(
        r"(?<![\w-])(in|im) (diesem|ihrem|deinem|einem) Server(?![\w-])",
        "'auf dem Server' (22, 23)",
    ),
    Term(r"(?<![\w-])Wiederholungen", "stored games are 'Spielverläufe' (row 24)"),
    Term(r"(?<![\w-])Festgefahren", "'Nicht weiter?' (row 65)"),
    Term(r"(?<![\w-])verfehlt", "a ticket is 'nicht erfüllt' (000:40, 004:53, row 54)"),
    Term(r"(?<![\w-])gefestigt", "a rating is 'etabliert' (row 66)"),
    Term(r"(?<![\w-])Lieblingsspielplan", "it is the most played map (row 67)"),
    Term(r"(?<![\w-])an Platz \d", "'auf Platz' (row 63)"),
    Term(r"Abschnitt des Spiels", "'Spielphase' (row 83)"),
    Term(r"vierte Art von Zug", "a station is a fourth 'Aktion' (000:114, row 21)"),
    Term(r"(?<![\w-])Lok-Symbol", "'Lokomotivsymbol' (003:106, row 26)"),
    Term(r"zählen als jede", "'ersetzen jede Farbe' (row 56)"),
    Term(r"wartet hinter", "'steht … in der Warteschlange' (row 61)"),
    Term(r"Zug (jetzt machen|wird gemacht)", "the buttons say 'ausführen' (row 62)"),
    Term(r"fangen von vorn an", "'starten neu' (rows 36, 69)"),
    Term(r"eine Karte \(\w+\) für", "'eine Karte in {color}' (row 11)"),
)

#: Catalog entries that must use the rulebooks' word: (context, msgid) -> (pattern, source).
#: A plural entry is named by its singular msgid; every form must match.
REQUIRED: dict[tuple[str | None, str], tuple[str, str]] = {
    (None, "Claim"): (r"^Nutzen$", "000, 001, 003, 004: 'Eine Strecke nutzen'"),
    ("command", "claim"): (r"^nutzen$", "000, 001, 003, 004"),
    ("command", "Claim a route"): (r"Strecke", "000, 001, 003, 004"),
    (None, "Board"): (r"^Spielplan$", "all five: 'Spielplan'"),
    ("command", "board"): (r"^spielplan$", "all five"),
    ("command", "map"): (r"^spielplan$", "all five"),
    ("command", "tickets"): (r"^zielkarten$", "001-004: 'Zielkarten ziehen'"),
    ("command edition", "tickets"): (r"^ausgabe$", "the Germany ticket edition, not the command"),
    (None, "With fewer than {min_players} players only one track of a double route may be used."): (
        r"Doppel- oder Dreifachstrecke nur eine Strecke",
        "001: 'nur eine der beiden Doppel- oder Dreifachstrecken'",
    ),
    ("image", "Discard {n}"): (r"^Ablagestapel ", "000, 001, 003, 004: 'Ablagestapel'"),
    ("image", "Deck {n}"): (r"^Stapel ", "001, 002, 003: 'Stapel'"),
    ("image", "Face-up cards"): (r"^Offene Karten$", "002: 'offenen Karten'"),
    (None, "a face-up {color} card"): (r"offene Karte", "002: 'offenen Karten'"),
    (None, "tunnel"): (r"^Tunnel$", "003: 'Tunnel'"),
    (None, "{count} ferry {wild}"): (r"Fähre", "003: 'Fähre'"),
    (None, "Give up the tunnel"): (r"Tunnel", "the tunnel button names the tunnel"),
    (None, "That mix of {tickets} is not allowed."): (r"Kombination", "001: 'Kombination'"),
    (None, "**Game over.** Winner: {winners}"): (r"Gewinner", "one word for the winner"),
    ("image", "winner"): (r"^Gewinner$", "one word for the winner"),
    (None, "longest path"): (r"^längste Strecke$", "002: 'die längste Strecke'"),
    ("color", "red"): (r"^Rot$", "all five: 'Rot'"),
    ("color", "blue"): (r"^Blau$", "all five: 'Blau'"),
    ("color", "green"): (r"^Grün$", "all five: 'Grün'"),
    ("color", "yellow"): (r"^Gelb$", "001-004: 'Gelb'"),
    ("color", "orange"): (r"^Orange$", "000, 001: 'Orange'"),
    ("color", "black"): (r"^Schwarz$", "000, 001, 003: 'Schwarz'"),
    ("color", "white"): (r"^Weiß$", "001, 003, 004: 'Weiß'"),
    ("color", "pink"): (r"^Pink$", "000: 'Pink' (maps name it their own way)"),
    ("color", "purple"): (r"^Lila$", "004: 'Lila'"),
    ("color", "gray"): (r"^Grau$", "the route colour as a noun, like the others"),
    (None, "gray"): (r"^Grau$", "the route colour as a noun, like the others"),
}

#: Each map's colour names as its rulebook prints them (colour -> German name).
MAP_COLOURS: dict[str, dict[str, str]] = {
    "usa": {"pink": "Lila", "orange": "Orange", "white": "Weiß"},  # 002 (lower case in a list)
    "germany": {"pink": "Lila", "orange": "Orange", "white": "Weiß"},  # 001
    "nordic": {"pink": "Purpur", "orange": "Braun", "white": "Weiß"},  # 003
    "amsterdam": {"pink": "Pink", "orange": "Orange", "black": "Schwarz"},  # 000
    "paris": {"purple": "Lila", "white": "Weiß", "yellow": "Gelb"},  # 004
    # no German Europe rulebook is at hand: its cards are the USA's (europe-rules-en.md), so its
    # colours are named as 001 and 002 name them
    "europe": {"pink": "Lila", "orange": "Orange", "white": "Weiß"},
}

#: Colour words a map's German text must not use (the colour has another name there).
FOREIGN_COLOURS: dict[str, tuple[str, ...]] = {
    "usa": ("Pink", "Purpur", "Braun"),
    "germany": ("Pink", "Purpur", "Braun"),
    "nordic": ("Pink", "Orange", "Lila"),
    "amsterdam": ("Lila", "Purpur", "Braun"),
    "paris": ("Pink", "Purpur", "Braun"),
    "europe": ("Pink", "Purpur", "Braun"),
}

#: English words of our sentences that no German sentence of ours contains.
ENGLISH = re.compile(
    r"\b(the|drew|from|deck|turn|claimed|points?|game|over|winner|kept|tickets?|your|and|with|"
    r"route|players?|opened|join|draw|claim|board|moves|rematch|resigned|round|cards?|"
    r"paid|face-up|locomotives?|trains?|longest|path|completed|failed|AI|left|choose)\b",
    re.IGNORECASE,
)


def map_data(map_id: str) -> dict[str, Any]:
    """A shipped map's ``map.json``."""
    return dict(json.loads((ROOT / "maps" / map_id / "map.json").read_text(encoding="utf-8")))


def map_ids() -> list[str]:
    """Every shipped map (the pending ones too: their words and rules text are shown already)."""
    return sorted(p.name for p in (ROOT / "maps").iterdir() if (p / "map.json").is_file())


def playable_ids() -> list[str]:
    """The shipped maps a game can be played on (not the pending ones, such as Europe)."""
    from maps import available_maps

    return sorted(set(available_maps()) & set(map_ids()))


def nouns(map_id: str, lang: str) -> set[str]:
    """Every form of every noun in a map's ``words`` block in ``lang`` (both numbers, dative)."""
    block = map_data(map_id)["words"][lang]
    out: set[str] = set()
    for key, noun in block.items():
        if key != "colors":
            out |= set(noun["forms"]) | set(noun.get("dative") or ())
    return out


def foreign_nouns(map_id: str, lang: str = "de") -> set[str]:
    """The nouns of the other maps that this map's block does not have (on Amsterdam:
    Zielkarte, Waggon, Lokomotive, Bus...): its text must never say them. A phrase whose head
    noun is this map's own is not foreign (Europe's "lange Zielkarten" on Germany, whose
    rulebook has short and long Zielkarten)."""
    own = nouns(map_id, lang)
    heads = {n.split()[-1] for n in own}
    others = {n for other in map_ids() if other != map_id for n in nouns(other, lang)}
    return {n for n in others - own if n.split()[-1] not in heads}


def word_pattern(word: str) -> str:
    """``word`` as a whole word (a hyphenated compound counts as one word)."""
    return _L + re.escape(word) + _R


def problems(texts: Iterable[str], map_id: str | None = None) -> Iterator[str]:
    """Every breach of the glossary in ``texts`` (German), each naming the text and the reason;
    with ``map_id`` also other maps' nouns and colour names."""
    terms = list(FORBIDDEN) + list(REVIEWED)
    if map_id is not None:
        terms += [
            Term(word_pattern(n), f"{map_id}: '{n}' is another map's word")
            for n in sorted(foreign_nouns(map_id))
        ]
        terms += [
            Term(word_pattern(c), f"{map_id}: the colour is not called '{c}' on this map")
            for c in FOREIGN_COLOURS.get(map_id, ())
        ]
    for text in texts:
        for term in terms:
            found = term.find(text)
            if found:
                yield f"{found[0]!r} in {text!r}: {term.why}"


def english_command_names(texts: Iterable[str]) -> Iterator[str]:
    """Every ``/ttr …`` in German ``texts`` that names a command by its English name where a
    German player sees another (``/ttr status`` for ``/ttr stand``; row 2 of the review)."""
    import sys

    from babel.messages.pofile import read_po

    from words import catalog_file

    sys.path.insert(0, str(ROOT / "tools"))
    import update_catalogs

    with catalog_file("de").open("rb") as src:
        names = {
            str(m.id): str(m.string)
            for m in read_po(src, locale="de")
            if m.id and m.context == "command" and isinstance(m.id, str)
        }
    english = {p: p for p in update_catalogs.command_paths()}
    german = {tuple(names.get(w, w) for w in p): p for p in english}
    for text in texts:
        for path in update_catalogs.mentions(text, english):
            if path in english and path not in german:
                yield f"/ttr {' '.join(path)} in {text!r}: an English command name"
