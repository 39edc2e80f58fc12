"""The analysis chart: every seat's chance to win after each turn, as lines.

Pure: made from the chances (one list per seat, one value 0..1 per turn), the
seats' names and the turns to mark; no engine state. Drawn at ``width`` pixels
(default 1000) with every size proportional to it, so that shown 500 px wide
(a phone, Discord's inline preview) the smallest text is still 12 px and every
line 2 px or more. Colour is never the only cue: each seat's line carries its
symbol (● ▲ ■ ◆ ★) every few turns and at its end, and the legend repeats
symbol, colour and name. The turning points are numbered on the chart (1, 2,
3); the message beside it tells them in words. Each estimate's uncertainty is a
light band in the seat's colour around its line (the analysis' 95% range, ``bands``),
drawn under every line so that the lines, their casings and symbols stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

from words import words_for
from words._catalog import NP_

from . import _draw as dr
from . import _theme as th

#: Default width in pixels; the height is 0.6 of it.
CHART_WIDTH = 1000
#: Text size in pixels at a width of 500 (scaled with the width); the smallest text.
SMALL_TEXT_AT_500 = 12
#: Symbols drawn along each line.
MARKS_PER_LINE = 8

#: A turning point's numbered disc: radius, and the least distance between two discs' centres
#: (pixels at a width of 500).
DISC_RADIUS = 9
DISC_GAP = 20

#: The chart's words, translated in the context "image".
CHART_WORDS: dict[str, str] = {
    "title": NP_("image", "Chance to win after each turn"),
    "turn": NP_("image", "turn"),
    "rollouts": NP_("image", "{n} simulated games per turn"),
    "percent": NP_("image", "{n}%"),
    "band": NP_("image", "shaded: each estimate's 95% band"),
}

#: How strongly a band tints the paper (0..255): light enough that three bands overlapping
#: still leave every line and the grid readable.
BAND_ALPHA = 64


def _word(lang: str, key: str, **facts: object) -> str:
    return words_for(lang).ctx("image", CHART_WORDS[key], **facts)


def render_chance_png(
    series: Sequence[Sequence[float]],
    names: Sequence[str],
    *,
    lang: str = "en",
    marks: Sequence[int] = (),
    turns: Sequence[int] | None = None,
    rollouts: int | None = None,
    bands: Sequence[Sequence[float]] | None = None,
    width: int = CHART_WIDTH,
) -> bytes:
    """The chart as PNG bytes.

    Args:
        series: per seat, its chance (0..1) after each turn; all of one length >= 1.
        names: seat names, same order.
        lang: ``en`` or ``de`` for the chart's words.
        marks: turn numbers to mark as turning points 1, 2, 3 ... (in this order).
        turns: the turn number of each point (default 0, 1, 2 ...).
        rollouts: shown in the caption (the method's budget) when given.
        bands: per seat, the half width of its chance's 95% range after each turn (0..1,
            the same shape as ``series``), drawn as a light band in the seat's colour and
            named in the title row; None: no bands.
        width: pixels; the height is 0.6 of it.
    Raises ValueError for no seats, series of different lengths or an empty series, or
    bands of another shape.
    """
    if not series or len({len(s) for s in series}) != 1 or not series[0]:
        raise ValueError("one non-empty series of the same length per seat is needed")
    if bands is not None and [len(b) for b in bands] != [len(s) for s in series]:
        raise ValueError("one band per seat, one value per turn, is needed")
    count = len(series[0])
    xs = list(turns) if turns is not None else list(range(count))
    k = width / 500
    height = round(width * 0.6)
    img = Image.new("RGB", (width, height), th.PAPER)
    draw = dr.canvas(img)
    small = th.font(round(SMALL_TEXT_AT_500 * k))
    bold = th.font(round(15 * k), bold=True)
    legend_h = round(26 * k) * ((len(series) + 2) // 3)
    left, right = round(42 * k), width - round(16 * k)
    top = round(54 * k)  # title row, then the band of turning-point numbers
    bottom = height - round(44 * k) - legend_h  # tick labels and the axis title below
    draw.text((left, round(6 * k)), _word(lang, "title"), font=bold, fill=th.INK)
    if rollouts:
        caption = _word(lang, "rollouts", n=rollouts)
        draw.text(
            (right - draw.textlength(caption, font=small), height - round(18 * k)),
            caption,
            font=small,
            fill=th.MUTED,
        )
    x0, x1 = xs[0], max(xs[-1], xs[0] + 1)

    def px(turn: float) -> float:
        return left + (turn - x0) / (x1 - x0) * (right - left)

    def py(chance: float) -> float:
        return bottom - max(0.0, min(1.0, chance)) * (bottom - top)

    _grid(draw, left, right, top, bottom, x0, x1, px, py, small, lang, k)
    if bands is not None:
        lines = [[(px(x), c) for x, c in zip(xs, seat, strict=True)] for seat in series]
        _bands(img, draw, lines, bands, py, (right, round(10 * k)), small, lang)
    xs_marked = [px(turn) for turn in marks]
    edge = (DISC_RADIUS + 2) * k  # a disc's centre from the image's side, outline included
    discs = disc_positions(xs_marked, edge, width - edge, DISC_GAP * k)
    for n, (x, disc) in enumerate(zip(xs_marked, discs, strict=True), start=1):
        _turning_mark(draw, x, disc, top, bottom, n, small, k)
    order = sorted(range(len(series)), key=lambda s: series[s][-1])  # the leader on top
    for seat in order:
        _line(draw, [(px(x), py(c)) for x, c in zip(xs, series[seat], strict=True)], seat, k)
    _legend(draw, names, series, left, bottom + round(42 * k), right, small, k, lang)
    return dr.encode(img)


def _bands(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    lines: Sequence[Sequence[tuple[float, float]]],
    bands: Sequence[Sequence[float]],
    py: Callable[[float], float],
    note_at: tuple[float, float],
    font: ImageFont.FreeTypeFont,
    lang: str,
) -> None:
    """Each seat's band: the area between its chance plus and minus its half width (``lines``:
    per seat, (x in pixels, chance) per turn), tinted with the seat's colour at
    :data:`BAND_ALPHA`, the later seats' over the earlier; and the note that names the bands,
    right-aligned at ``note_at`` (its right end and top)."""
    for seat, (line, band) in enumerate(zip(lines, bands, strict=True)):
        if len(line) < 2:
            continue
        upper = [(x, py(c + b)) for (x, c), b in zip(line, band, strict=True)]
        lower = [(x, py(c - b)) for (x, c), b in zip(line, band, strict=True)]
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).polygon(upper + lower[::-1], fill=BAND_ALPHA)
        img.paste(th.seat_color(seat), (0, 0, *img.size), mask)
    note = _word(lang, "band")
    x, y = note_at
    draw.text((x - draw.textlength(note, font=font), y), note, font=font, fill=th.MUTED)


def disc_positions(xs: Sequence[float], low: float, high: float, gap: float) -> list[float]:
    """Where the turning points' discs go (their centres, in ``xs``' order): each as near its
    mark's x as it can be while every two discs stay ``gap`` apart and all lie within
    ``low``..``high`` (a disc's centre range inside the image). Marks close together spread out,
    to the left when the right edge leaves no room (turning points at the end of a game).
    Discs that cannot fit at ``gap`` share the span evenly."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    if not order:
        return []
    gap = min(gap, (high - low) / max(1, len(order) - 1))
    placed: list[float] = []
    for i in order:  # left to right, each at least a gap right of the previous one
        x = max(low, xs[i])
        placed.append(x if not placed else max(x, placed[-1] + gap))
    placed[-1] = min(placed[-1], high)
    for j in range(len(placed) - 2, -1, -1):  # then back from the right edge
        placed[j] = min(placed[j], placed[j + 1] - gap)
    out = [0.0] * len(xs)
    for i, x in zip(order, placed, strict=True):
        out[i] = x
    return out


def _grid(
    draw: ImageDraw.ImageDraw,
    left: float,
    right: float,
    top: float,
    bottom: float,
    x0: int,
    x1: int,
    px: Callable[[float], float],
    py: Callable[[float], float],
    font: ImageFont.FreeTypeFont,
    lang: str,
    k: float,
) -> None:
    """Percent lines every 25 %, turn ticks every 10 (or 20, 50) turns, the axis labels."""
    grid = (222, 218, 208)
    for pct in (0, 25, 50, 75, 100):
        y = py(pct / 100)
        draw.line((left, y, right, y), fill=th.MUTED if pct == 50 else grid, width=max(1, round(k)))
        label = _word(lang, "percent", n=pct)
        w = draw.textlength(label, font=font)
        draw.text((left - w - 4 * k, y - 7 * k), label, font=font, fill=th.INK)
    span = x1 - x0
    step = next(s for s in (5, 10, 20, 50, 100, 200) if span / s <= 10)
    first = (x0 + step - 1) // step * step
    for turn in range(first, x1 + 1, step):
        x = px(turn)
        draw.line((x, bottom, x, bottom + 4 * k), fill=th.INK, width=max(1, round(k)))
        label = str(turn)
        w = draw.textlength(label, font=font)
        draw.text((x - w / 2, bottom + 5 * k), label, font=font, fill=th.INK)
    label = _word(lang, "turn")
    w = draw.textlength(label, font=font)
    draw.text(((left + right - w) / 2, bottom + 20 * k), label, font=font, fill=th.INK)


def _turning_mark(
    draw: ImageDraw.ImageDraw,
    x: float,
    disc: float,
    top: float,
    bottom: float,
    n: int,
    font: ImageFont.FreeTypeFont,
    k: float,
) -> None:
    """A dashed vertical line at ``x`` from a numbered disc at ``disc`` above the plot."""
    dash = 6 * k
    y = top
    while y < bottom:
        draw.line((x, y, x, min(bottom, y + dash)), fill=th.MUTED, width=max(1, round(k)))
        y += 2 * dash
    r = DISC_RADIUS * k
    cy = top - 14 * k
    draw.line((disc, cy, x, top), fill=th.MUTED, width=max(1, round(k)))
    draw.ellipse((disc - r, cy - r, disc + r, cy + r), fill=th.INK)
    label = str(n)
    w = draw.textlength(label, font=font)
    draw.text((disc - w / 2, cy - 7.5 * k), label, font=font, fill=th.PAPER)


def _line(
    draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], seat: int, k: float
) -> None:
    """The seat's line: dark casing, its colour on top, its symbol every few points and at the end."""
    fill = th.seat_color(seat)
    if len(points) > 1:
        draw.line(points, fill=th.INK, width=round(4 * k), joint="curve")
        draw.line(points, fill=fill, width=round(2.5 * k), joint="curve")
    every = max(1, len(points) // MARKS_PER_LINE)
    # seats start their symbols at different offsets, so symbols on one point do not hide each other
    offset = (seat * every) // 5
    picked = list(range(offset, len(points), every))
    if not picked or picked[-1] != len(points) - 1:
        picked.append(len(points) - 1)
    for i in picked:
        dr.symbol(draw, points[i], seat, 5.5 * k, fill, outline=th.INK)


def _legend(
    draw: ImageDraw.ImageDraw,
    names: Sequence[str],
    series: Sequence[Sequence[float]],
    left: float,
    top: float,
    right: float,
    font: ImageFont.FreeTypeFont,
    k: float,
    lang: str,
) -> None:
    """Up to three seats a row: symbol in the seat's colour, name and final chance."""
    cols = 3
    col_w = (right - left) / cols
    row_h = 26 * k
    for seat, name in enumerate(names):
        x = left + (seat % cols) * col_w
        y = top + (seat // cols) * row_h
        dr.symbol(draw, (x + 8 * k, y + 8 * k), seat, 7 * k, th.seat_color(seat), outline=th.INK)
        text = f"{name} {_word(lang, 'percent', n=round(100 * series[seat][-1]))}"
        text = dr.fit_text(draw, text, font, col_w - 24 * k)
        draw.text((x + 20 * k, y), text, font=font, fill=th.INK)


__all__ = [
    "BAND_ALPHA",
    "CHART_WIDTH",
    "CHART_WORDS",
    "DISC_GAP",
    "DISC_RADIUS",
    "SMALL_TEXT_AT_500",
    "disc_positions",
    "render_chance_png",
]
