"""Images sized for people: the board for a phone (500 px wide) and a zoomed crop around some places.

Both are pure functions of a :class:`engine.PublicView` and the layout, like the
board. The phone board places its names again for its own scale (11-13 px text
on the 500 px image, never the full board's names shrunk to 4 px) and shows the
seats in a compact strip under the map. The zoom crops the full-resolution map
around the named places and adds a legend of the seats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import PublicView

from . import _draw as dr
from . import _theme as th
from ._board import blocked_routes, draw_stations, map_image, seat_names
from ._labels import leader, place_labels
from ._layout import Car, Layout, Point

#: Width of the phone board in pixels.
PHONE_WIDTH = 500
#: Name size on the phone board (pixels of the 500 px image); a crowded name may shrink by two
#: pixels, never below 11 px: the size a phone still reads when Discord shows the image 500 px wide.
PHONE_LABEL = 13
#: Free pixels kept around the zoomed places.
ZOOM_MARGIN = 110
#: The zoom crop is enlarged to at least this width (at most 2x) ...
ZOOM_MIN_WIDTH = 900
#: ... but not beyond this height: Discord fits an image into the window's height, so a taller
#: enlargement (a Germany crop 800 px tall, doubled) is scaled down again on screen and only costs
#: bytes (every image <= 200 KB).
ZOOM_MAX_HEIGHT = 1200
ROW = 26
#: A train station's house on the phone board, relative to the full board's (14 px wide there:
#: the full board's house shrunk to 500 px would be a 5 px blot).
PHONE_STATION = 0.7
#: Free routes of at least this many spaces show their length on the phone board (their car
#: spaces are too small to count there).
LENGTH_FROM = 4
#: The white casing of a claimed route on the phone board, in pixels each side across the track.
CASING = 1.0


@lru_cache(maxsize=16)
def phone_names(layout: Layout, width: int = PHONE_WIDTH) -> Image.Image:
    """The place names for a ``width`` px board on a transparent layer (RGBA, cached)."""
    k = width / layout.size[0]
    sizes = tuple(round(s / k) for s in (PHONE_LABEL, PHONE_LABEL - 1, PHONE_LABEL - 2))
    labels = place_labels(layout, sizes)
    h = round(layout.size[1] * k)
    img = Image.new("RGBA", (width, h), (0, 0, 0, 0))
    draw = dr.canvas(img)
    for cid, lab in labels.items():
        line = leader(lab, layout.cities[cid])
        if line is not None:
            draw.line(dr.scaled(line, k), fill=th.INK, width=1)
    for lab in labels.values():
        size = max(8, round(lab.size * k))
        x0, y0, x1, _ = lab.box
        for i, text in enumerate(lab.lines):
            draw.text(
                ((x0 + x1) / 2 * k, (y0 + i * (lab.size + 3)) * k),
                text,
                font=th.font(size, True),
                fill=(90, 84, 74) if lab.country else th.INK,
                stroke_width=2,
                stroke_fill=th.PAPER,
                anchor="ma",
            )
    return img


def _strip(
    public: PublicView, names: list[str], lang: str, width: int, rules: object
) -> Image.Image:
    """Turn and seats (symbol, name, score, pieces left) in rows of ``ROW`` px."""
    w = th.words(rules, lang)
    img = Image.new("RGB", (width, 8 + ROW * (public.num_seats + 1)), th.PANEL)
    d = dr.canvas(img)
    if public.phase == "finished":
        status = th.word("finished", w)
    elif public.phase == "setup":
        status = th.word("setup", w)
    else:
        status = th.word("round", w, n=public.turn // max(1, public.num_seats) + 1)
        if public.last_round:
            status += " · " + th.word("last_round", w)
    d.text((10, 6), status, font=th.font(14, True), fill=th.PAPER)
    waiting = set(public.waiting_for)
    for i, p in enumerate(public.players):
        y = 8 + ROW * (i + 1)
        dr.seat_badge(d, (20, y + ROW / 2 - 2), p.seat, r=10)
        active = p.seat in waiting and public.phase != "finished"
        label = ("▶ " if active else "") + names[p.seat]
        d.text(
            (38, y + 2),
            dr.fit_text(d, label, th.font(14, True), width - 190),
            font=th.font(14, True),
            fill=th.GOLD if active else th.PAPER,
        )
        score = public.result.seats[p.seat].score if public.result is not None else p.score
        pieces = w.n("{count} {piece}", "{count} {pieces}", p.pieces)
        d.text(
            (width - 48, y + 3),
            dr.fit_text(d, pieces, th.font(12), 100),
            font=th.font(12),
            fill=th.MUTED,
            anchor="ra",
        )
        d.text((width - 10, y + 1), str(score), font=th.font(16, True), fill=th.PAPER, anchor="ra")
    return img


def _claim_casing(draw: ImageDraw.ImageDraw, cars: Sequence[Car], seat: int, k: float) -> None:
    """A claimed route drawn again at the phone's scale: each car space cased in white
    (:data:`CASING` px each side across the track) and filled in the seat's own colour.

    Shrunk from the full board, a claimed car space blends with its dark border and its symbol
    into a colour close to a free route's: mint next to green, lilac next to pink, dark brown
    next to black (``tests/render/test_phone_colors.py`` measures them as drawn). No free route
    has a white casing, so a claim reads as one, and the seat's colour stays pure."""
    fill = th.seat_color(seat)
    for c in cars:
        draw.polygon(_widened(c, k, CASING), fill=th.PAPER)
        draw.polygon(_widened(c, k, 0.0), fill=fill, outline=th.INK, width=1)


def _widened(c: Car, k: float, across: float) -> list[Point]:
    """Car space ``c``'s corners at scale ``k``, moved ``across`` px further out on each side
    across the track (along it they stay)."""
    ux, uy = math.cos(c.angle), math.sin(c.angle)
    cx, cy = c.centre[0] * k, c.centre[1] * k
    out: list[Point] = []
    for x, y in c.corners:
        dx, dy = x * k - cx, y * k - cy
        a, b = dx * ux + dy * uy, dy * ux - dx * uy  # along and across the track
        b = math.copysign(abs(b) + across, b)
        out.append((cx + a * ux - b * uy, cy + a * uy + b * ux))
    return out


def _phone_marks(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    public: PublicView,
    k: float,
    highlight: Sequence[str] = (),
) -> None:
    """Marks that would shrink to nothing: claimed routes cased in white and filled in the seat's
    colour (:func:`_claim_casing`; last turn's claims, ``highlight``, keep their gold frame
    instead) with the owner's symbol on the middle car space, the length of long free routes
    (while the game runs), a ferry's locomotive dots, a tunnel's dark edges and the train
    stations (a house in the owner's colour and symbol), drawn at the small size."""
    board = layout.rules.board
    blocked = set(blocked_routes(layout, public))
    for rid, shape in layout.routes.items():
        if not shape.cars:
            continue
        seat = public.owners.get(rid)
        if seat is not None:
            if rid not in highlight:
                _claim_casing(draw, shape.cars, seat, k)
            mid = shape.cars[len(shape.cars) // 2]
            fill = th.seat_color(seat)
            dr.symbol(draw, (mid.centre[0] * k, mid.centre[1] * k), seat, 3.2, th.text_on(fill))
            continue
        route = board.routes[rid]
        shown_twin = any(
            sib < rid and sib not in public.owners for sib in board.siblings(rid)
        )  # one number per double route
        if (
            public.phase != "finished"  # at the end nobody claims: the numbers would only crowd
            and route.length >= LENGTH_FROM
            and not (route.locomotives or route.tunnel or shown_twin)
            and rid not in blocked
        ):
            mid = shape.cars[len(shape.cars) // 2]
            x, y = mid.centre[0] * k, mid.centre[1] * k
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=th.PAPER, outline=th.INK)
            draw.text((x, y), str(route.length), font=th.font(9, True), fill=th.INK, anchor="mm")
        for i, c in enumerate(shape.cars):
            x, y = c.centre[0] * k, c.centre[1] * k
            if i < route.locomotives:
                draw.ellipse((x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=th.INK)
                draw.ellipse((x - 1.2, y - 1.2, x + 1.2, y + 1.2), fill=th.GOLD)
            if route.tunnel:
                draw.polygon(dr.scaled(c.corners, k), outline=th.INK, width=1)
    draw_stations(draw, layout, public.stations, k=k, size=PHONE_STATION)


def phone_map(
    layout: Layout, public: PublicView, *, highlight: Sequence[str] = (), width: int = PHONE_WIDTH
) -> Image.Image:
    """The map alone ``width`` px wide (RGB): claims, ``highlight`` (route ids) marked, the marks
    that would shrink to nothing drawn at that size, the names placed for it."""
    board = map_image(layout, public, highlight=highlight, names=False)
    k = width / layout.size[0]
    small = board.resize((width, round(layout.size[1] * k)), Image.Resampling.BOX)
    _phone_marks(dr.canvas(small), layout, public, k, highlight)
    names_layer = phone_names(layout, width)
    small.paste(names_layer, (0, 0), names_layer)
    return small


def phone_image(
    layout: Layout,
    public: PublicView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    highlight: Sequence[str] = (),
    width: int = PHONE_WIDTH,
) -> Image.Image:
    """The board ``width`` px wide: the map with names placed for that size, and a strip of seats."""
    small = phone_map(layout, public, highlight=highlight, width=width)
    strip = _strip(public, seat_names(public, names), lang, width, layout.rules)
    out = Image.new("RGB", (width, small.height + strip.height), th.PANEL)
    out.paste(small, (0, 0))
    out.paste(strip, (0, small.height))
    return out


def render_phone_png(
    layout: Layout,
    public_view: PublicView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    highlight: Sequence[str] = (),
) -> bytes:
    """The board 500 px wide as PNG bytes (map with names readable at that size, then one row per
    seat: symbol, name, pieces left, score). Arguments as :func:`render.render_board_png`."""
    return dr.encode(phone_image(layout, public_view, names, lang=lang, highlight=highlight))


def zoom_box(layout: Layout, cities: Iterable[str]) -> tuple[int, int, int, int]:
    """The crop ``(x0, y0, x1, y1)`` in board pixels around ``cities`` and their names, with a margin,
    at least 360x240 and inside the board. Raises ValueError when no city id is known."""
    known = [c for c in cities if c in layout.cities]  # one pass: ``cities`` may be an iterator
    if not known:
        raise ValueError("zoom needs at least one city of the map")
    labels = place_labels(layout)
    xs = [layout.cities[c][0] for c in known]
    ys = [layout.cities[c][1] for c in known]
    for c in known:
        if c in labels:
            bx0, by0, bx1, by1 = labels[c].box
            xs += [bx0, bx1]
            ys += [by0, by1]
    w, h = layout.size
    x0, x1 = min(xs) - ZOOM_MARGIN, max(xs) + ZOOM_MARGIN
    y0, y1 = min(ys) - ZOOM_MARGIN, max(ys) + ZOOM_MARGIN
    if x1 - x0 < 360:
        cx = (x0 + x1) / 2
        x0, x1 = cx - 180, cx + 180
    if y1 - y0 < 240:
        cy = (y0 + y1) / 2
        y0, y1 = cy - 120, cy + 120
    return (
        max(0, round(x0)),
        max(0, round(y0)),
        min(w, round(x1)),
        min(h, round(y1)),
    )


def zoom_image(
    layout: Layout,
    public: PublicView,
    names: Sequence[str] | None = None,
    *,
    cities: Iterable[str],
    lang: str = "en",
    highlight: Sequence[str] = (),
    high_contrast: bool = False,
    marks: Sequence[str] = (),
) -> Image.Image:
    """The map cropped around ``cities`` at full resolution (enlarged when the crop is narrow), with
    ``marks`` (city ids) ringed in gold and a legend of the seats on top."""
    cities = list(cities)
    board = map_image(layout, public, highlight=highlight, high_contrast=high_contrast)
    draw = dr.canvas(board)
    for cid in marks:
        if cid in layout.cities:
            x, y = layout.cities[cid]
            draw.ellipse((x - 15, y - 15, x + 15, y + 15), outline=th.INK, width=7)
            draw.ellipse((x - 14, y - 14, x + 14, y + 14), outline=th.GOLD, width=4)
    crop = board.crop(zoom_box(layout, cities))
    f = min(2.0, ZOOM_MIN_WIDTH / crop.width, ZOOM_MAX_HEIGHT / crop.height)
    if f > 1.0:
        crop = crop.resize(
            (round(crop.width * f), round(crop.height * f)), Image.Resampling.BICUBIC
        )
    legend = _legend(public, seat_names(public, names), crop.width)
    out = Image.new("RGB", (crop.width, crop.height + legend.height), th.PANEL)
    out.paste(legend, (0, 0))
    out.paste(crop, (0, legend.height))
    return out


def _legend(public: PublicView, names: list[str], width: int) -> Image.Image:
    """One badge and name per seat, in as many rows of 34 px as ``width`` needs (every seat shown)."""
    font = th.font(14, True)
    probe = dr.canvas(Image.new("RGB", (1, 1)))
    entries, row, x = [], 0, 10.0
    for p in public.players:
        text = dr.fit_text(probe, names[p.seat], font, 150)
        step = 27 + probe.textlength(text, font=font) + 18
        if x > 10 and x + step - 18 > width - 10:
            row, x = row + 1, 10.0
        entries.append((p.seat, text, x, row))
        x += step
    img = Image.new("RGB", (width, 34 * (row + 1)), th.PANEL)
    d = dr.canvas(img)
    for seat, text, x, r in entries:
        dr.seat_badge(d, (x + 11, 17 + 34 * r), seat, r=11)
        d.text((x + 27, 8 + 34 * r), text, font=font, fill=th.PAPER)
    return img


def render_zoom_png(
    layout: Layout,
    public_view: PublicView,
    names: Sequence[str] | None = None,
    *,
    cities: Iterable[str],
    lang: str = "en",
    highlight: Sequence[str] = (),
    high_contrast: bool = False,
    marks: Sequence[str] = (),
) -> bytes:
    """A zoomed board as PNG bytes: the full-resolution map around ``cities`` (city ids; unknown ids
    are skipped, none known raises ValueError), enlarged up to 2x to about 900 px wide (not beyond
    1200 px tall), a seat
    legend on top; ``marks``: city ids ringed in gold (the reader's ticket cities in private zooms);
    ``high_contrast`` as :func:`render.render_board_png`."""
    return dr.encode(
        zoom_image(
            layout,
            public_view,
            names,
            cities=cities,
            lang=lang,
            highlight=highlight,
            high_contrast=high_contrast,
            marks=marks,
        )
    )
