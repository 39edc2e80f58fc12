"""Drawing primitives shared by the board, hand and final images."""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from . import _theme as th
from ._layout import Car, Point

#: Colours of every image sent: a 256-colour palette from Pillow's fast octree quantizer, which
#: keeps flat areas flat (no dithering) so they compress, at a colour difference too small to see
#: (CAM02-UCS: mean <= 1, see tests/render/test_light_images.py). A USA board: 130 KB instead
#: of 590 KB as full-colour PNG, in less time (quantizing costs less than the bytes it saves).
PALETTE_COLORS = 256
#: PNG settings of every image (and of the benchmark's bare encode): zlib's default level 6.
#: On the 256-colour images level 1 gives about 25 % more bytes for a few ms less, level 9 about
#: 5 % fewer for 4-6 times the encoding time (``python -m benchmarks render``).
PNG_OPTIONS: dict[str, int] = {"compress_level": 6}
#: What Discord is sent at most per image, bytes: every board, zoom, hand and final
#: image of every map stays under it (tests/render/test_light_images.py).
MAX_IMAGE_BYTES = 200 * 1024


def light(img: Image.Image) -> Image.Image:
    """``img`` reduced to :data:`PALETTE_COLORS` colours (mode ``P``): what :func:`encode` writes."""
    return img.quantize(PALETTE_COLORS, method=Image.Quantize.FASTOCTREE)


#: Lists that :func:`recorded_text` is filling (from any thread), and the lock guarding them.
_SINKS: list[list[str]] = []
#: Lists that :func:`recorded_sizes` is filling (under the same lock).
_SIZE_SINKS: list[list[tuple[str, float, int]]] = []
_SINKS_LOCK = threading.Lock()


class Canvas(ImageDraw.ImageDraw):
    """Pillow's drawing interface, unchanged, except that every text it draws is also told to the
    lists of :func:`recorded_text` and :func:`recorded_sizes` (when there are any: one list check
    per text otherwise)."""

    def __init__(self, im: Image.Image, mode: str | None = None) -> None:
        super().__init__(im, mode)
        self.width = im.width

    def text(self, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        """Draw ``text`` at ``xy`` as :meth:`PIL.ImageDraw.ImageDraw.text` does, and record it."""
        if _SINKS or _SIZE_SINKS:
            size = float(getattr(kwargs.get("font"), "size", 10))  # Pillow's default font: 10 px
            with _SINKS_LOCK:
                for sink in _SINKS:
                    sink.append(str(text))
                for sized in _SIZE_SINKS:
                    sized.append((str(text), size, self.width))
        super().text(xy, text, *args, **kwargs)


def canvas(img: Image.Image) -> ImageDraw.ImageDraw:
    """A :class:`Canvas` on ``img`` (what ``ImageDraw.Draw(img)`` gives, with text recording)."""
    return Canvas(img)


@contextmanager
def recorded_text() -> Iterator[list[str]]:
    """Every text the renderer draws while the block runs, in any thread, in drawing order:
    labels, numbers and names as drawn (after any cut to fit). For tests that read what the
    images say (``tests/cogs/test_german_games.py``); drawing is unchanged. Cached layers drawn
    before the block (the board's place names) are not drawn again, so not recorded."""
    sink: list[str] = []
    with _SINKS_LOCK:
        _SINKS.append(sink)
    try:
        yield sink
    finally:
        with _SINKS_LOCK:
            _SINKS.remove(sink)


@contextmanager
def recorded_sizes() -> Iterator[list[tuple[str, float, int]]]:
    """As :func:`recorded_text`, each text with its font size in pixels and the width of the image
    it is drawn on (``(text, size, width)``): for tests that measure how large a text shows (a
    13 px name on a 500 px wide image shown 500 px wide is 13 px high on the screen)."""
    sink: list[tuple[str, float, int]] = []
    with _SINKS_LOCK:
        _SIZE_SINKS.append(sink)
    try:
        yield sink
    finally:
        with _SINKS_LOCK:
            _SIZE_SINKS.remove(sink)


def encode(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` with a 256-colour palette (see :data:`PALETTE_COLORS`)."""
    buf = io.BytesIO()
    light(img).save(buf, "PNG", **PNG_OPTIONS)
    return buf.getvalue()


def scaled(points: Sequence[Point], k: float) -> list[Point]:
    """``points`` multiplied by ``k``."""
    return [(x * k, y * k) for x, y in points]


def car(
    draw: ImageDraw.ImageDraw,
    c: Car,
    fill: th.RGB,
    *,
    k: float = 1.0,
    outline: th.RGB = th.OUTLINE,
    width: int = 1,
) -> None:
    """One car space, filled, with an outline ``width`` pixels wide."""
    draw.polygon(scaled(c.corners, k), fill=fill, outline=outline, width=max(1, round(width * k)))


def dashed_outline(
    draw: ImageDraw.ImageDraw, c: Car, *, k: float, color: th.RGB = th.INK, dash: float = 4.0
) -> None:
    """A dashed outline around a car space (tunnels)."""
    pts = scaled(c.corners, k)
    for p, q in zip(pts, pts[1:] + pts[:1], strict=True):
        length = math.dist(p, q)
        steps = max(1, int(length // (dash * k)))
        for i in range(0, steps, 2):
            t0, t1 = i / steps, min(1.0, (i + 1) / steps)
            draw.line(
                [
                    (p[0] + (q[0] - p[0]) * t0, p[1] + (q[1] - p[1]) * t0),
                    (p[0] + (q[0] - p[0]) * t1, p[1] + (q[1] - p[1]) * t1),
                ],
                fill=color,
                width=max(1, round(2 * k)),
            )


def locomotive_mark(draw: ImageDraw.ImageDraw, c: Car, *, k: float) -> None:
    """The ferry symbol on a car space: a small rainbow-ringed dot (a locomotive is needed here)."""
    x, y = c.centre[0] * k, c.centre[1] * k
    r = 4.2 * k
    for i, col in enumerate(th.RAINBOW):
        a0 = i * 60
        draw.pieslice((x - r, y - r, x + r, y + r), a0, a0 + 60, fill=col)
    draw.ellipse((x - r * 0.45, y - r * 0.45, x + r * 0.45, y + r * 0.45), fill=th.PAPER)


def cart_mark(draw: ImageDraw.ImageDraw, c: Car, *, k: float) -> None:
    """Amsterdam's cart symbol on a car space: a wheel."""
    x, y = c.centre[0] * k, c.centre[1] * k
    r = 4.5 * k
    draw.ellipse(
        (x - r, y - r, x + r, y + r), fill=(120, 80, 40), outline=th.PAPER, width=max(1, round(k))
    )
    for a in (0, 60, 120):
        dx, dy = math.cos(math.radians(a)) * r, math.sin(math.radians(a)) * r
        draw.line([(x - dx, y - dy), (x + dx, y + dy)], fill=th.PAPER, width=max(1, round(0.8 * k)))


def card(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    color: str | None,
    *,
    radius: int = 8,
    outline: th.RGB = th.PAPER,
    symbol: bool = True,
) -> None:
    """A train car card shape in ``color`` (locomotive: rainbow stripes; None: an empty slot), with
    the colour's symbol in the middle (``symbol``; see ``_theme.CARD_SYMBOLS``) so that it reads
    without colour vision."""
    x0, y0, x1, y1 = box
    if color is None:
        draw.rounded_rectangle(box, radius=radius, outline=th.MUTED, width=2)
        return
    if color == "locomotive":
        h = (y1 - y0) / len(th.RAINBOW)
        draw.rounded_rectangle(box, radius=radius, fill=th.RAINBOW[0])
        for i, col in enumerate(th.RAINBOW):
            top = y0 + i * h
            if i == 0:
                continue
            bottom = y1 - radius if i == len(th.RAINBOW) - 1 else top + h
            draw.rectangle((x0, top, x1, bottom), fill=col)
        draw.rounded_rectangle((x0, y1 - 2 * radius, x1, y1), radius=radius, fill=th.RAINBOW[-1])
        draw.rounded_rectangle(box, radius=radius, outline=outline, width=2)
    else:
        draw.rounded_rectangle(
            box, radius=radius, fill=th.card_color(color), outline=outline, width=2
        )
    glyph = th.CARD_SYMBOLS.get(color)
    if symbol and glyph:
        fill = th.RAINBOW[2] if color == "locomotive" else th.card_color(color)
        ink = th.text_on(fill)
        size = max(10, round(min(x1 - x0, y1 - y0) * 0.5))
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2),
            glyph,
            font=th.font(size, True),
            fill=ink,
            anchor="mm",
            stroke_width=1,
            stroke_fill=th.INK if ink == th.PAPER else th.PAPER,
        )


def fit_text(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float
) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def symbol(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    seat: int,
    r: float,
    fill: th.RGB,
    outline: th.RGB | None = None,
) -> None:
    """Seat ``seat``'s symbol (● ▲ ■ ◆ ★) as a shape of radius ``r`` pixels around ``centre``."""
    x, y = centre
    shape = th.seat_shape(seat)
    width = max(1, round(r / 4))
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
        return
    if shape == "square":
        q = r * 0.85
        draw.rectangle((x - q, y - q, x + q, y + q), fill=fill, outline=outline, width=width)
        return
    if shape == "triangle":
        pts = [(x + r * math.cos(a), y + r * 1.1 * math.sin(a) + r * 0.15) for a in _ANGLES[3]]
    elif shape == "diamond":
        pts = [(x + r * math.cos(a), y + r * 1.1 * math.sin(a)) for a in _ANGLES[4]]
    else:
        pts = [
            (x + rr * math.cos(a), y + rr * math.sin(a))
            for i, a in enumerate(_ANGLES[10])
            for rr in ((r * 1.15 if i % 2 == 0 else r * 0.5),)
        ]
    draw.polygon(pts, fill=fill, outline=outline, width=width)


_ANGLES = {n: [math.radians(-90 + i * 360 / n) for i in range(n)] for n in (3, 4, 10)}


def seat_badge(draw: ImageDraw.ImageDraw, centre: Point, seat: int, r: float = 13) -> None:
    """A round seat swatch with the seat's symbol (colour and shape: two cues)."""
    x, y = centre
    fill = th.seat_color(seat)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=th.PAPER, width=2)
    symbol(draw, centre, seat, r * 0.55, th.text_on(fill))
