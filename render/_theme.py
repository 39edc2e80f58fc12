"""Colours, fonts and words of the images.

Seat colours are disjoint from the route colours: chosen (by a search over an
sRGB grid, CIEDE2000 in colorspacious) so that, for normal vision and simulated
protanopia, deuteranopia and tritanopia, every two seats differ by at least 30
and every seat differs from every route colour, the map's ground colours and
pure black by at least 13 (``tests/render/test_colors.py`` holds these
minima). Colour is never the only cue: every seat has a symbol (● ▲ ■ ◆ ★) drawn
on its claimed car spaces and beside its name in every image.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

RGB = tuple[int, int, int]

FONT_DIR = Path(__file__).with_name("fonts")

#: Route and card colours (train car cards; gray routes take any one colour).
CARD_COLORS: dict[str, RGB] = {
    "red": (214, 40, 40),
    "blue": (32, 104, 204),
    "green": (46, 150, 66),
    "yellow": (240, 196, 0),
    "orange": (238, 128, 20),
    "black": (40, 40, 44),
    "white": (246, 246, 240),
    "pink": (232, 120, 176),
    "purple": (134, 72, 170),
    "gray": (168, 168, 168),
    "locomotive": (120, 120, 120),
}
#: Seat colours (see the module docstring for how they were chosen).
SEAT_COLORS: tuple[RGB, ...] = (
    (0, 255, 136),  # spring green
    (221, 153, 255),  # lilac
    (85, 34, 0),  # dark brown
    (0, 0, 51),  # midnight
    (102, 102, 119),  # slate
)
#: Seat symbols, the second cue beside colour (drawn as shapes on car spaces, as text beside names).
SEAT_SYMBOLS = "●▲■◆★"
SEAT_SHAPES = ("circle", "triangle", "square", "diamond", "star")
#: Card symbols so that a hand reads without colour.
CARD_SYMBOLS: dict[str, str] = {
    "red": "♥",
    "orange": "✚",
    "yellow": "☀",
    "green": "♣",
    "blue": "♠",
    "purple": "♦",
    "pink": "✿",
    "white": "○",
    "black": "●",
    "locomotive": "★",
}
RAINBOW: tuple[RGB, ...] = (
    (214, 40, 40),
    (238, 128, 20),
    (240, 196, 0),
    (46, 150, 66),
    (32, 104, 204),
    (134, 72, 170),
)

SEA: RGB = (178, 208, 226)
LAND: RGB = (238, 232, 214)
FOREIGN: RGB = (222, 219, 210)
BORDER: RGB = (170, 160, 140)
WATER_LINE: RGB = (140, 180, 210)
CITY_BG: RGB = (236, 231, 220)
PANEL: RGB = (34, 38, 46)
PANEL_ROW: RGB = (46, 52, 62)
PANEL_ACTIVE: RGB = (70, 82, 100)
INK: RGB = (28, 28, 30)
PAPER: RGB = (250, 248, 242)
MUTED: RGB = (150, 156, 166)
OUTLINE: RGB = (60, 60, 60)
GOOD: RGB = (40, 160, 70)
BAD: RGB = (205, 50, 50)
GOLD: RGB = (255, 210, 40)
BLOCKED: RGB = (205, 202, 196)


def seat_color(seat: int) -> RGB:
    """The colour of seat ``seat`` (0-based)."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def seat_symbol(seat: int) -> str:
    """The symbol character of seat ``seat`` (0 -> ●), for text beside names."""
    return SEAT_SYMBOLS[seat % len(SEAT_SYMBOLS)]


def seat_shape(seat: int) -> str:
    """The shape name of seat ``seat`` (``circle``, ``triangle``, ``square``, ``diamond``, ``star``)."""
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def card_color(color: str | None) -> RGB:
    """The RGB of a card or route colour (unknown colours: gray)."""
    return CARD_COLORS.get(color or "gray", CARD_COLORS["gray"])


def text_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else PAPER


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans (umlauts, Nordic letters, ✓ and ✗) at ``size`` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


WORDS: dict[str, dict[str, str]] = {
    "en": {
        "turn": "Turn {n}",
        "setup": "Setup: choosing tickets",
        "to_move": "to move",
        "score": "pts",
        "cards": "cards",
        "tickets": "tickets",
        "face_up": "Face-up cards",
        "deck": "Deck {n}",
        "discard": "Discard {n}",
        "last_round": "LAST ROUND",
        "tunnel": "Tunnel: {cards} revealed, {extra} more",
        "merch": "Merchandise left: {n}",
        "flag_colors": "Flag colours",
        "flags": "French flags",
        "finished": "Final score",
        "ticket_decks": "Tickets left",
        "your_hand": "Your hand",
        "your_tickets": "Your tickets",
        "offer": "Choose from",
        "none": "none",
        "routes": "routes",
        "longest_path": "longest path",
        "globetrotter": "Globetrotter",
        "merchandise": "merchandise",
        "total": "total",
        "winner": "winner",
        "completed": "completed",
        "failed": "failed",
        "waiting": "waiting for",
        "plan_cars": "{cars} cars to go",
        "plan_lost": "lost: {routes}",
        "plan_detour": "detour +{n}",
        "plan_impossible": "no longer possible (−{points})",
        "plan_pieces": "not enough pieces!",
        "planned": "Planned routes",
        "resigned": "resigned",
        "longest_len": "longest path: {n}",
        "routes_pts": "routes",
    },
    "de": {
        "turn": "Zug {n}",
        "setup": "Aufbau: Zielkarten wählen",
        "to_move": "am Zug",
        "score": "Pkt",
        "cards": "Karten",
        "tickets": "Ziele",
        "face_up": "Offene Karten",
        "deck": "Stapel {n}",
        "discard": "Ablage {n}",
        "last_round": "LETZTE RUNDE",
        "tunnel": "Tunnel: {cards} aufgedeckt, {extra} mehr",
        "merch": "Warenkarten übrig: {n}",
        "flag_colors": "Flaggenfarben",
        "flags": "Französische Flaggen",
        "finished": "Endwertung",
        "ticket_decks": "Ziele übrig",
        "your_hand": "Deine Karten",
        "your_tickets": "Deine Ziele",
        "offer": "Zur Auswahl",
        "none": "keine",
        "routes": "Strecken",
        "longest_path": "längste Strecke",
        "globetrotter": "Globetrotter",
        "merchandise": "Waren",
        "total": "Summe",
        "winner": "Sieger",
        "completed": "erfüllt",
        "failed": "nicht erfüllt",
        "waiting": "warten auf",
        "plan_cars": "noch {cars} Wagen",
        "plan_lost": "verloren: {routes}",
        "plan_detour": "Umweg +{n}",
        "plan_impossible": "nicht mehr möglich (−{points})",
        "plan_pieces": "zu wenig Wagen!",
        "planned": "Geplante Strecken",
        "resigned": "aufgegeben",
        "longest_len": "längste Strecke: {n}",
        "routes_pts": "Strecken",
    },
}


COLOR_WORDS = {
    "en": {
        "red": "red",
        "orange": "orange",
        "yellow": "yellow",
        "green": "green",
        "blue": "blue",
        "purple": "purple",
        "pink": "pink",
        "white": "white",
        "black": "black",
        "gray": "any colour",
        "locomotive": "locomotive",
    },
    "de": {
        "red": "rot",
        "orange": "orange",
        "yellow": "gelb",
        "green": "grün",
        "blue": "blau",
        "purple": "lila",
        "pink": "rosa",
        "white": "weiß",
        "black": "schwarz",
        "gray": "beliebige Farbe",
        "locomotive": "Lokomotive",
    },
}
for _lang, _colors in COLOR_WORDS.items():
    WORDS[_lang].update({f"color_{c}": w for c, w in _colors.items()})


def word(key: str, lang: str = "en", **facts: object) -> str:
    """An image word in ``lang`` (``en`` or ``de``), formatted with ``facts``."""
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"].get(key, key)).format(**facts)


def map_word(rules: object, key: str, lang: str, default: str) -> str:
    """A map's own word (``pieces``: trains, carts, buses ...) from its ``words`` block."""
    words = getattr(rules, "meta", {}).get("words", {})
    return str(words.get(lang, words.get("en", {})).get(key, default))
