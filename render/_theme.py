"""Colours, fonts and words of the images.

Seat colours are disjoint from the route colours: chosen (by a search over an
sRGB grid, CIEDE2000 in colorspacious) so that, for normal vision and simulated
protanopia, deuteranopia and tritanopia, every two seats differ by at least 30
and every seat differs from every route colour, the map's ground colours and
pure black by at least 13 (``tests/render/test_colors.py`` holds these
minima). Colour is never the only cue: every seat has a symbol (● ▲ ■ ◆ ★) drawn
on its claimed car spaces and beside its name in every image. On the 500 px phone
board a claimed route is drawn again at that size, cased in white, so that a seat
does not blur into a free route of a near colour (``tests/render/test_phone_colors.py``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from words import LANGS, Words, words_for
from words._catalog import NP_

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


#: Image words: key -> English msgid, translated through the gettext catalog in the context
#: "image"; the map's nouns fill ``{tickets}``, ``{pieces}``... (see :mod:`words`).
WORDS: dict[str, str] = {
    "round": NP_("image", "Round {n}"),
    "turn": NP_("image", "Turn {n}"),
    "setup": NP_("image", "Setup: choosing {tickets}"),
    "to_move": NP_("image", "to move"),
    "face_up": NP_("image", "Face-up cards"),
    "deck": NP_("image", "Deck {n}"),
    "deck_shuffled": NP_("image", "Deck 0: the discards are shuffled"),
    "deck_empty": NP_("image", "Deck empty"),
    "discard": NP_("image", "Discard {n}"),
    "last_round": NP_("image", "LAST ROUND"),
    "merch": NP_("image", "{merchandise_cards:cap} left: {n}"),
    "flag_colors": NP_("image", "Flag colours"),
    "finished": NP_("image", "Final score"),
    "ticket_decks": NP_("image", "{tickets:cap} left"),
    "short": NP_("image", "short"),
    "long": NP_("image", "long"),
    "your_hand": NP_("image", "Your hand"),
    "your_tickets": NP_("image", "Your {tickets}"),
    "offer": NP_("image", "Choose from"),
    "none": NP_("image", "none"),
    "routes": NP_("image", "routes"),
    "tickets": NP_("image", "{tickets}"),
    "longest_path": NP_("image", "{longest_path}"),
    "globetrotter": NP_("image", "{globetrotter}"),
    "merchandise": NP_("image", "{merchandise_cards}"),
    "flags": NP_("image", "{flags}"),
    "stations": NP_("image", "unbuilt {stations}"),
    "total": NP_("image", "total"),
    "winner": NP_("image", "winner"),
    "plan_lost": NP_("image", "lost: {routes}"),
    "plan_detour": NP_("image", "detour +{n}"),
    "plan_station": NP_("image", "build a {station} in {city} for {route}"),
    "plan_via": NP_("image", "your {station} in {city}: {route}"),
    "plan_impossible": NP_("image", "no longer possible (−{points})"),
    "plan_pieces": NP_("image", "not enough {pieces}!"),
    "resigned": NP_("image", "resigned"),
    "longest_len": NP_("image", "{longest_path}: {n}"),
    "routes_pts": NP_("image", "routes"),
    "station_used": NP_("image", "{station:cap} {city}: {route} for {tickets_done}"),
    "station_unused": NP_("image", "{station:cap} {city}: no route used"),
}


def words(rules: object | None, lang: str) -> Words:
    """The words of an image in ``lang`` (``en`` or ``de``, others: English) at the map of
    ``rules`` (its ``meta``: nouns such as Fuhrwerke, Vertragskarten; colour names)."""
    meta = getattr(rules, "meta", None)
    return words_for(lang if lang in LANGS else "en", meta if isinstance(meta, dict) else None)


def word(key: str, w: Words, **facts: object) -> str:
    """An image word in ``w``'s language, formatted with ``facts`` and the map's nouns;
    ``color_<name>`` keys give the colour's name. Unknown keys come back as they are."""
    if key.startswith("color_"):
        return w.color(key.removeprefix("color_"))
    msgid = WORDS.get(key)
    if msgid is None:
        return key
    return w.ctx("image", msgid, **facts)
