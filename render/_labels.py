"""Where city names go: a search that keeps every name off the car spaces, city dots and other names.

Each place (cities and Germany's neighbouring countries) gets a :class:`Label`:
its text lines, font size and box in board pixels. Candidates sit around the
place in 16 directions at growing distances, in one or two lines and at two font
sizes; the cheapest one wins, where the cost counts covered pixels of car spaces,
dots and names placed before (heavily), then distance, wrapping and a smaller
font. Busy places are placed first. A name placed away from its dot gets a thin
leader line (:func:`leader`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import _theme as th
from ._layout import Layout, Point

#: Font sizes (board pixels) tried for names, the first preferred.
SIZES = (15, 13, 12, 11)
#: Distances (pixels from the dot's edge) tried, nearest first.
DISTANCES = (4, 9, 15, 22, 30, 40, 52, 66, 82, 100, 120, 140)
DIRECTIONS = 16
#: Label side hints of layout.json -> preferred angle (degrees, y down).
SIDE_ANGLES = {"e": 0, "se": 45, "s": 90, "sw": 135, "w": 180, "nw": 225, "n": 270, "ne": 315}
DOT_RADIUS = 9.0
LINE_GAP = 1


@dataclass(frozen=True, slots=True)
class Label:
    """A place name on the board: ``lines`` of text at ``size`` px in ``box`` ``(x0, y0, x1, y1)``."""

    city: str
    lines: tuple[str, ...]
    size: int
    box: tuple[float, float, float, float]
    country: bool = False


def _text_of(layout: Layout, cid: str) -> str:
    city = layout.rules.board.cities[cid]
    return str(city.name.upper() if city.kind == "country" else city.name)


def _variants(text: str) -> list[tuple[str, ...]]:
    """One line, and the most even two-line split at a space or hyphen."""
    out: list[tuple[str, ...]] = [(text,)]
    cuts = [i for i, ch in enumerate(text) if ch in " -"]
    if cuts:
        i = min(cuts, key=lambda c: abs(len(text) / 2 - c))
        head = text[: i + 1].strip() if text[i] == "-" else text[:i]
        out.append((head, text[i + 1 :]))
    if len(cuts) >= 2:  # three lines at the cuts nearest a third and two thirds
        i = min(cuts, key=lambda c: abs(len(text) / 3 - c))
        j = min((c for c in cuts if c > i), key=lambda c: abs(2 * len(text) / 3 - c), default=None)
        if j is not None:
            parts = (text[: i + 1], text[i + 1 : j + 1], text[j + 1 :])
            out.append(tuple(p.strip(" ") for p in parts))
    return out


def _extent(lines: tuple[str, ...], size: int) -> tuple[float, float]:
    font = th.font(size, True)
    w = max(font.getlength(line) for line in lines)
    return w, len(lines) * (size + 2) + (len(lines) - 1) * LINE_GAP


def occupied_mask(layout: Layout) -> Image.Image:
    """A mode-L mask of the board with every car space (grown by 1 px) and place dot set to 255."""
    mask = Image.new("L", layout.size, 0)
    md = ImageDraw.Draw(mask)
    for shape in layout.routes.values():
        for c in shape.cars:
            md.polygon(list(c.corners), fill=255, outline=255, width=2)
    for x, y in layout.cities.values():
        md.ellipse((x - DOT_RADIUS, y - DOT_RADIUS, x + DOT_RADIUS, y + DOT_RADIUS), fill=255)
    return mask


def _covered(mask: Image.Image, box: tuple[float, float, float, float]) -> int:
    ibox = (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))
    return sum(mask.crop(ibox).histogram()[1:])


def _candidates(
    layout: Layout, cid: str, sizes: tuple[int, ...]
) -> list[tuple[float, tuple[str, ...], int, tuple[float, float, float, float]]]:
    """(cost before covering, lines, size, box) around ``cid``."""
    x, y = layout.cities[cid]
    bw, bh = layout.size
    hint = SIDE_ANGLES.get(layout.labels.get(cid, ""), None)
    reach = sizes[0] / SIZES[0]
    out = []
    for si, size in enumerate(sizes):
        for vi, lines in enumerate(_variants(_text_of(layout, cid))):
            w, h = _extent(lines, size)
            for k in range(DIRECTIONS):
                deg = k * 360 / DIRECTIONS
                ux, uy = math.cos(math.radians(deg)), math.sin(math.radians(deg))
                for di, d in enumerate(DISTANCES):
                    r = DOT_RADIUS + d * reach
                    cx = x + ux * (r + w / 2 * abs(ux) ** 0.5)
                    cy = y + uy * (r + h / 2 * abs(uy) ** 0.5)
                    x0 = min(max(cx - w / 2, 3), bw - w - 3)
                    y0 = min(max(cy - h / 2, 3), bh - h - 3)
                    turn = 0.0 if hint is None else min(abs(deg - hint), 360 - abs(deg - hint))
                    cost = (
                        di * 14
                        + si * 40
                        + vi * 30
                        + (turn / 45) * 3
                        + (0 if abs(uy) < 0.4 else 4)  # beside the dot reads best
                    )
                    out.append((cost, lines, size, (x0, y0, x0 + w, y0 + h)))
    out.sort(key=lambda c: c[0])
    return out


@lru_cache(maxsize=32)
def place_labels(layout: Layout, sizes: tuple[int, ...] = SIZES) -> dict[str, Label]:
    """Place id -> its :class:`Label` (cached per layout and sizes; a fraction of a second).

    ``sizes``: font sizes in board pixels to try, preferred first (larger ones
    for names shown on a smaller image)."""
    mask = occupied_mask(layout)
    md = ImageDraw.Draw(mask)
    board = layout.rules.board
    busy = {cid: 0 for cid in layout.cities}
    for r in board.routes.values():
        busy[r.a] = busy.get(r.a, 0) + 1
        busy[r.b] = busy.get(r.b, 0) + 1
    out: dict[str, Label] = {}
    for cid in sorted(layout.cities, key=lambda c: (-busy.get(c, 0), c)):
        best: tuple[float, tuple[str, ...], int, tuple[float, float, float, float]] | None = None
        for cost, lines, size, box in _candidates(layout, cid, sizes):
            if best is not None and cost >= best[0]:
                break
            total = cost + _covered(mask, box) * 400
            if best is None or total < best[0]:
                best = (total, lines, size, box)
        assert best is not None
        _, lines, size, box = best
        out[cid] = Label(cid, lines, size, box, board.cities[cid].kind == "country")
        md.rectangle((box[0] - 2, box[1] - 1, box[2] + 2, box[3] + 1), fill=255)
    return out


def leader(label: Label, at: Point) -> tuple[Point, Point] | None:
    """A line from the place's dot ``at`` to its name, when the name sits away from the dot."""
    x0, y0, x1, y1 = label.box
    x, y = at
    nx, ny = min(max(x, x0), x1), min(max(y, y0), y1)
    dist = math.hypot(nx - x, ny - y)
    if dist <= DOT_RADIUS + 12:
        return None
    ux, uy = (nx - x) / dist, (ny - y) / dist
    return (x + ux * DOT_RADIUS, y + uy * DOT_RADIUS), (nx - ux * 2, ny - uy * 2)
