"""The rating chart of ``/ttr stats``: a player's rating after each rated game of a season.

Pure: drawn from plain numbers (the game count and the rating shown after each game). One
series in ink (no seat colour: the chart is about one player wherever they sat); whether a
point is provisional is told by its shape, never by colour alone: a hollow ring during the
first games, a filled square after, both named in the legend. Every size is proportional so
the smallest text is 12 px when the image is shown 500 px wide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from . import _draw as dr
from . import _theme as th

#: Width and height of the chart in pixels.
WIDTH, HEIGHT = 600, 320
#: Text size in pixels (600 px shown at 500 px: 15 * 5/6 = 12.5 px).
TEXT = 15
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 24, 48, 66
_LINE: th.RGB = (36, 70, 140)
_GRID: th.RGB = (222, 218, 208)


def _ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values from below ``low`` to above ``high``, at most about ``most`` of them."""
    span = max(high - low, 1.0)
    raw = span / most
    step = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= step * factor:
            step *= factor
            break
    first = math.floor(low / step) * step
    out = []
    value = first
    while value < high + step:
        out.append(round(value, 6))
        value += step
    return out


def _marker(draw: ImageDraw.ImageDraw, x: float, y: float, provisional: bool) -> None:
    r = 6
    if provisional:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=th.PAPER, outline=_LINE, width=3)
    else:
        draw.rectangle((x - r, y - r, x + r, y + r), fill=_LINE, outline=_LINE)


def _legend(draw: ImageDraw.ImageDraw, labels: tuple[str, str]) -> None:
    font = _font()
    x, y = _LEFT, HEIGHT - 24
    for provisional, label in zip((True, False), labels, strict=True):
        _marker(draw, x + 6, y + 8, provisional)
        draw.text((x + 18, y), label, fill=th.INK, font=font)
        x += 30 + int(draw.textlength(label, font=font)) + 24


def _font(bold: bool = False) -> ImageFont.FreeTypeFont:
    return th.font(TEXT, bold)


def render_rating_png(
    points: Sequence[tuple[int, float, bool]],
    *,
    title: str,
    axis: str,
    legend: tuple[str, str],
    lang: str = "en",
) -> bytes:
    """The chart as PNG bytes.

    ``points``: ``(games played, rating shown, provisional)`` after each rated game, in order
    (at least one); ``title`` above, ``axis`` under the x axis (what the numbers count),
    ``legend``: the names of the provisional and the established marker, all already in the
    reader's language; ``lang`` writes the numbers (``12.5``, German ``12,5``).

    Raises:
        ValueError: no points.
    """
    if not points:
        raise ValueError("a rating chart needs at least one point")
    w = th.words(None, lang)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.PAPER)
    draw = dr.canvas(img)
    draw.text((_LEFT, 14), title, fill=th.INK, font=_font(bold=True))
    values = [v for _, v, _ in points] + [0.0]
    ticks = _ticks(min(values), max(values))
    pad = (ticks[-1] - ticks[0]) * 0.04
    low, high = ticks[0] - pad, ticks[-1] + pad
    games = [g for g, _, _ in points]
    first, last = min(games), max(games)
    plot = (_LEFT, _TOP, WIDTH - _RIGHT, HEIGHT - _BOTTOM)

    def at(game: float, value: float) -> tuple[float, float]:
        x = plot[0] + (game - first + 0.5) / (last - first + 1) * (plot[2] - plot[0])
        y = plot[3] - (value - low) / (high - low) * (plot[3] - plot[1])
        return x, y

    font = _font()
    for value in ticks:
        _, y = at(first, value)
        draw.line((plot[0], y, plot[2], y), fill=th.MUTED if value == 0 else _GRID, width=1)
        label = w.decimal(value, 0 if float(value).is_integer() else 1)
        draw.text((plot[0] - 8, y), label, fill=th.INK, font=font, anchor="rm")
    draw.rectangle(plot, outline=_GRID)
    step = max(1, math.ceil((last - first) / 8))
    for game in range(first, last + 1, step):
        x, _ = at(game, low)
        draw.text((x, plot[3] + 6), str(game), fill=th.INK, font=font, anchor="mt")
    draw.text(((plot[0] + plot[2]) / 2, plot[3] + 6 + TEXT + 2), axis, fill=th.INK, font=font,
              anchor="mt")  # fmt: skip
    xy = [at(g, v) for g, v, _ in points]
    if len(xy) > 1:
        draw.line(xy, fill=_LINE, width=3, joint="curve")
    for (x, y), (_, _, provisional) in zip(xy, points, strict=True):
        _marker(draw, x, y, provisional)
    x, y = xy[-1]
    draw.text((min(x + 10, WIDTH - 4), y - 10), w.decimal(points[-1][1]), fill=th.INK,
              font=_font(bold=True), anchor="rb" if x + 60 > WIDTH else "lb")  # fmt: skip
    _legend(draw, legend)
    return dr.encode(img)
