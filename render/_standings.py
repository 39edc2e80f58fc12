"""The standings of a tournament as an image (``/ttr tournament standings``).

Pure: drawn from plain rows (place, name, points, Buchholz, score margin, games, still in)
and texts already in the reader's language; the same paper, ink and fonts as every other
image (:mod:`._theme`). Rows alternate a light band so a line is easy to follow; a player
who left or was knocked out is written in the muted colour and marked with a dagger in the
text (never by colour alone). Text is 16 px at 660 px wide (12.1 px shown 500 px wide).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from . import _draw as dr
from . import _theme as th

#: Width of the image in pixels.
WIDTH = 660
#: Text size and row height in pixels (the text 12 px or more when shown 500 px wide).
TEXT, ROW = 16, 26
_TOP, _SIDE, _BOTTOM = 56, 16, 34
_BAND: th.RGB = (240, 236, 226)
#: The most rows drawn (a bigger field's image ends with a line saying how many more).
MOST_ROWS = 128
#: Right edges of the number columns (points, Buchholz, margin, games).
_COLUMNS = (400, 490, 570, 644)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line: ``place``, ``name``, ``points``, ``buchholz``, ``margin``, ``games`` and
    whether the player is still ``active``."""

    place: int
    name: str
    points: float
    buchholz: float
    margin: float
    games: int
    active: bool = True


def render_standings_png(
    rows: Sequence[StandingRow],
    *,
    title: str,
    headers: tuple[str, str, str, str, str],
    footer: str,
    lang: str = "en",
) -> bytes:
    """The standings as PNG bytes: ``title`` above, ``headers`` (player, points, Buchholz,
    margin, games) over the columns, one line per row (at most :data:`MOST_ROWS`), ``footer``
    under them (what the dagger means, the tie-breaks); ``lang`` writes the numbers
    (German ``1,5``)."""
    w = th.words(None, lang)
    shown = list(rows[:MOST_ROWS])
    height = _TOP + ROW * max(len(shown), 1) + _BOTTOM + (ROW if len(rows) > MOST_ROWS else 0)
    img = Image.new("RGB", (WIDTH, height), th.PAPER)
    draw = dr.canvas(img)
    font, bold = th.font(TEXT), th.font(TEXT, True)
    draw.text((_SIDE, 10), title, fill=th.INK, font=bold)
    y = _TOP - ROW
    draw.text((_SIDE + 44, y + 4), headers[0], fill=th.INK, font=bold)
    for right, text in zip(_COLUMNS, headers[1:], strict=True):
        draw.text((right, y + 4), text, fill=th.INK, font=bold, anchor="ra")
    for i, row in enumerate(shown):
        y = _TOP + i * ROW
        if i % 2 == 0:
            draw.rectangle((0, y, WIDTH, y + ROW - 1), fill=_BAND)
        ink = th.INK if row.active else th.MUTED
        draw.text((_SIDE + 32, y + 4), f"{row.place}.", fill=ink, font=font, anchor="ra")
        name = row.name if row.active else f"{row.name} †"
        draw.text((_SIDE + 44, y + 4), _fit(draw, name, font, _COLUMNS[0] - 90), fill=ink,
                  font=font)  # fmt: skip
        numbers = (
            w.decimal(row.points, 1),
            w.decimal(row.buchholz, 1),
            w.decimal(row.margin, 1),
            str(row.games),
        )
        for right, text in zip(_COLUMNS, numbers, strict=True):
            draw.text((right, y + 4), text, fill=ink, font=font, anchor="ra")
    y = _TOP + ROW * max(len(shown), 1)
    if len(rows) > MOST_ROWS:
        draw.text((_SIDE, y + 4), f"… +{len(rows) - MOST_ROWS}", fill=th.INK, font=font)
        y += ROW
    draw.text((_SIDE, y + 8), footer, fill=th.INK, font=font)
    return dr.encode(img)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


__all__ = ["MOST_ROWS", "StandingRow", "render_standings_png"]
