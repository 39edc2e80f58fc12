"""Small maps for private images: the part of the board a player's network and plans span,
with only the names that matter, placed for the small size so that they read on a phone.

The full board's names are placed for the full board; shrunk into a 440 px map they
become 5 px smudges and neighbours such as Omaha and Kansas City run into each other.
Here the frame is fitted to the places asked for (a margin kept, never a fixed crop),
the map is scaled, and then the names of those places alone are placed at
:data:`LABEL_PX` pixels of the final image: beside their dot in the first of eight
directions where they overlap no other name, dot or the frame's edge.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import _theme as th
from ._layout import Layout

#: Name size in the final image (pixels): on a 1000 px image shown about 400 px wide on a
#: phone this is the phone board's 11 px at 500 px.
LABEL_PX = 20
#: Board pixels kept around the framed places (room for their names).
MARGIN = 70
#: The smallest frame (board pixels), so that one short route is not blown up.
LEAST = (320, 220)
#: The map is never enlarged more than this.
MAX_ZOOM = 1.6
#: Radius (final pixels) of the ring around a marked place.
RING = 11

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Framed:
    """A small map and where the board's places landed on it.

    Attributes:
        image: the map, ``width`` wide at most ``height`` high.
        box: the board pixels it shows ``(x0, y0, x1, y1)``.
        scale: final pixels per board pixel.
    """

    image: Image.Image
    box: tuple[int, int, int, int]
    scale: float

    def at(self, layout: Layout, cid: str) -> tuple[float, float]:
        """Where place ``cid`` lies on the small map."""
        x, y = layout.cities[cid]
        return (x - self.box[0]) * self.scale, (y - self.box[1]) * self.scale


def frame(
    layout: Layout, cities: Iterable[str], aspect: float | None = None
) -> tuple[int, int, int, int]:
    """The board pixels ``(x0, y0, x1, y1)`` around ``cities`` (ids; unknown ones skipped)
    with :data:`MARGIN`, at least :data:`LEAST`, widened or heightened towards ``aspect``
    (width / height of the picture it goes into, so that it fills it and names find room),
    inside the board; the whole board when none is known."""
    pts = [layout.cities[c] for c in cities if c in layout.cities]
    w, h = layout.size
    if not pts:
        return 0, 0, w, h
    x0 = min(p[0] for p in pts) - MARGIN
    x1 = max(p[0] for p in pts) + MARGIN
    y0 = min(p[1] for p in pts) - MARGIN
    y1 = max(p[1] for p in pts) + MARGIN
    least_w, least_h = float(LEAST[0]), float(LEAST[1])
    if aspect:
        least_w = max(least_w, (y1 - y0) * aspect)
        least_h = max(least_h, (x1 - x0) / aspect)
    for lo, hi, least, size, axis in ((x0, x1, least_w, w, 0), (y0, y1, least_h, h, 1)):
        if hi - lo < least:
            mid = (lo + hi) / 2
            lo, hi = mid - least / 2, mid + least / 2
        if lo < 0:
            lo, hi = 0, min(size, hi - lo)
        if hi > size:
            lo, hi = max(0, lo - (hi - size)), size
        if axis == 0:
            x0, x1 = lo, hi
        else:
            y0, y1 = lo, hi
    return round(x0), round(y0), round(x1), round(y1)


def fit(img: Image.Image, box: tuple[int, int, int, int], width: int, height: int) -> Framed:
    """``img`` (a board-sized picture) cropped to ``box`` and scaled to fit ``width`` x
    ``height`` (enlarged at most :data:`MAX_ZOOM` times)."""
    crop = img.crop(box)
    f = min(width / crop.width, height / crop.height, MAX_ZOOM)
    size = (max(1, round(crop.width * f)), max(1, round(crop.height * f)))
    method = Image.Resampling.BOX if f < 1 else Image.Resampling.BICUBIC
    return Framed(crop.resize(size, method), box, f)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Box, size: tuple[int, int]) -> bool:
    return a[0] >= 2 and a[1] >= 2 and a[2] <= size[0] - 2 and a[3] <= size[1] - 2


#: Directions tried for a name, beside its dot first: (dx, dy) unit steps.
DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1))


def place_names(
    layout: Layout, framed: Framed, cities: Sequence[str], size: int = LABEL_PX
) -> dict[str, Box]:
    """City id -> the box (final pixels) of its name on the small map, for ``cities`` in
    order of importance: beside its dot, clear of names placed before, of the others' dots and
    of the edge; a name that fits nowhere at two distances is left out."""
    font = th.font(size, True)
    dots = {c: framed.at(layout, c) for c in cities if c in layout.cities}
    taken: list[Box] = [(x - RING, y - RING, x + RING, y + RING) for x, y in dots.values()]
    out: dict[str, Box] = {}
    for cid in cities:
        if cid not in dots or cid in out:
            continue
        x, y = dots[cid]
        text = layout.rules.board.cities[cid].name
        w, h = font.getlength(text), size + 2
        own = (x - RING, y - RING, x + RING, y + RING)
        for gap in (RING + 3, RING + 14):
            found = None
            for dx, dy in DIRECTIONS:
                cx = x + dx * (gap + w / 2)
                cy = y + dy * (gap + h / 2)
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                if _inside(box, framed.image.size) and not any(
                    _overlaps(box, t) for t in taken if t != own
                ):
                    found = box
                    break
            if found is not None:
                out[cid] = found
                taken.append((found[0] - 3, found[1] - 2, found[2] + 3, found[3] + 2))
                break
    return out


def draw_names(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    framed: Framed,
    boxes: Mapping[str, Box],
    size: int = LABEL_PX,
) -> None:
    """The names at their boxes, dark on a light halo; a name set off from its dot gets a thin
    line to it, so that it is never taken for a neighbour's."""
    font = th.font(size, True)
    for cid, (x0, y0, x1, y1) in boxes.items():
        x, y = framed.at(layout, cid)
        nx, ny = min(max(x, x0), x1), min(max(y, y0), y1)
        dist = math.hypot(nx - x, ny - y)
        if dist > RING + 6:
            ux, uy = (nx - x) / dist, (ny - y) / dist
            draw.line(
                (x + ux * (RING + 2), y + uy * (RING + 2), nx - ux * 2, ny - uy * 2),
                fill=th.INK,
                width=2,
            )
        draw.text(
            ((x0 + x1) / 2, y0),
            layout.rules.board.cities[cid].name,
            font=font,
            fill=th.INK,
            stroke_width=3,
            stroke_fill=th.PAPER,
            anchor="ma",
        )


def ring(draw: ImageDraw.ImageDraw, at: tuple[float, float], color: th.RGB) -> None:
    """A thick ring around a place (a ticket's city), dark-edged so it shows on any ground."""
    x, y = at
    draw.ellipse((x - RING - 1, y - RING - 1, x + RING + 1, y + RING + 1), outline=th.INK, width=7)
    draw.ellipse((x - RING, y - RING, x + RING, y + RING), outline=color, width=4)


def badge(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str) -> None:
    """A small numbered disc beside a place (the offered ticket's number)."""
    x, y = at[0] + RING, at[1] - RING
    draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=th.GOLD, outline=th.INK, width=2)
    draw.text((x, y), text, font=th.font(13, True), fill=th.INK, anchor="mm")
