"""The public board image: map, routes, claimed routes, and a side panel with the table's facts.

The static part (background, unclaimed routes, city dots and names) is drawn
once per map at twice the size, scaled down for smooth edges and cached; each
render copies it, draws the claimed routes and the panel, and encodes the PNG.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine import PublicView

from . import _draw as dr
from . import _theme as th
from ._layout import Layout, Point

#: Width of the side panel in pixels.
PANEL_WIDTH = 380
#: Supersampling factor of the cached base layer.
SUPER = 2
LABEL_SIZE = 15
LABEL_SIDES = ("e", "w", "n", "s", "ne", "nw", "se", "sw")


# ---------------------------------------------------------------- the base layer
def _poly_list(value: Any) -> list[list[Point]]:
    out = []
    for item in value or []:
        pts = item.get("points") if isinstance(item, dict) else item
        if pts and len(pts) >= 2:
            out.append([(float(x), float(y)) for x, y in pts])
    return out


def _background(draw: ImageDraw.ImageDraw, layout: Layout, k: float) -> None:
    bg = layout.background if layout.source == "layout.json" else {}
    w, h = layout.size
    style = bg.get("style", "none")
    draw.rectangle(
        (0, 0, w * k, h * k),
        fill=th.SEA if style == "geo" else th.CITY_BG if style == "city" else th.LAND,
    )
    for poly in _poly_list(bg.get("land")):
        if len(poly) >= 3:
            draw.polygon(dr.scaled(poly, k), fill=th.LAND)
    for poly in _poly_list(bg.get("foreign")):
        if len(poly) >= 3:
            draw.polygon(dr.scaled(poly, k), fill=th.FOREIGN)
    for poly in _poly_list(bg.get("lakes")):
        if len(poly) >= 3:
            draw.polygon(dr.scaled(poly, k), fill=th.SEA)
    for item in bg.get("rivers") or []:
        width = float(item.get("width", 6)) if isinstance(item, dict) else 6.0
        for line in _poly_list([item]):
            draw.line(
                dr.scaled(line, k), fill=th.SEA, width=max(1, round(width * k)), joint="curve"
            )
    for line in _poly_list(bg.get("borders")):
        draw.line(dr.scaled(line, k), fill=th.BORDER, width=max(1, round(1.2 * k)))


def _label_box(
    draw: ImageDraw.ImageDraw,
    text: str,
    at: Point,
    side: str,
    size: tuple[int, int],
    far: float = 0,
) -> tuple[float, ...]:
    font = th.font(LABEL_SIZE, True)
    w = draw.textlength(text, font=font)
    h = LABEL_SIZE + 2
    x, y = at
    gap = 10 + far
    dx = {
        "e": gap,
        "ne": gap * 0.7,
        "se": gap * 0.7,
        "w": -gap - w,
        "nw": -gap * 0.7 - w,
        "sw": -gap * 0.7 - w,
    }
    dy = {
        "n": -gap - h,
        "ne": -gap * 0.7 - h,
        "nw": -gap * 0.7 - h,
        "s": gap,
        "se": gap * 0.7,
        "sw": gap * 0.7,
    }
    x0 = x + dx.get(side, -w / 2)
    y0 = y + dy.get(side, -h / 2)
    x0 = min(max(x0, 4), size[0] - w - 4)
    y0 = min(max(y0, 4), size[1] - h - 4)
    return (x0, y0, x0 + w, y0 + h)


@lru_cache(maxsize=16)
def label_boxes(layout: Layout) -> dict[str, tuple[float, float, float, float]]:
    """City id -> the box ``(x0, y0, x1, y1)`` of its name on the board (inside the board, placed on
    the side the layout names, or where it covers the fewest pixels of car spaces, dots and other names)."""
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))
    mask = Image.new("L", layout.size, 0)
    md = ImageDraw.Draw(mask)
    for shape in layout.routes.values():
        for c in shape.cars:
            md.polygon(list(c.corners), fill=255)
    for x, y in layout.cities.values():
        md.ellipse((x - 9, y - 9, x + 9, y + 9), fill=255)
    boxes: dict[str, tuple[float, float, float, float]] = {}
    board = layout.rules.board
    order = sorted(layout.cities, key=lambda cid: (layout.cities[cid][1], layout.cities[cid][0]))
    for cid in order:
        city = board.cities[cid]
        if city.kind == "country":
            continue
        side = layout.labels.get(cid) or ""
        sides = [side] if side in LABEL_SIDES else list(LABEL_SIDES)
        best, best_cost = None, math.inf
        for i, s in enumerate(sides):
            for far in (0, 8):
                box = _label_box(scratch, city.name, layout.cities[cid], s, layout.size, far)
                ibox = tuple(int(round(v)) for v in box)
                covered = sum(mask.crop(ibox).histogram()[1:])  # type: ignore[arg-type]
                cost = covered + i * 4 + far * 6
                if cost < best_cost:
                    best, best_cost = box, cost
        assert best is not None
        boxes[cid] = best  # type: ignore[assignment]
        md.rectangle(best, fill=255)
    return boxes


def _countries(draw: ImageDraw.ImageDraw, layout: Layout, k: float) -> None:
    """Germany's neighbouring countries: a labelled, hatched area where the routes end."""
    for cid, city in layout.rules.board.cities.items():
        if city.kind != "country":
            continue
        x, y = layout.cities[cid]
        font = th.font(round(15 * k), True)
        w = draw.textlength(city.name.upper(), font=font) / k + 24
        h = 34
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        draw.rounded_rectangle(
            dr.scaled([box[:2], box[2:]], k),
            radius=round(10 * k),
            fill=(214, 208, 196),
            outline=th.BORDER,
            width=round(2 * k),
        )
        draw.text((x * k, y * k), city.name.upper(), font=font, fill=(90, 84, 74), anchor="mm")


def _routes(draw: ImageDraw.ImageDraw, layout: Layout, k: float) -> None:
    board = layout.rules.board
    for rid, shape in layout.routes.items():
        route = board.routes[rid]
        fill = th.card_color(route.color)
        for i, c in enumerate(shape.cars):
            dr.car(draw, c, fill, k=k, outline=th.OUTLINE, width=1)
            if route.tunnel:
                dr.dashed_outline(draw, c, k=k)
            if i < route.locomotives:
                dr.locomotive_mark(draw, c, k=k)
        if route.carts and shape.cars:
            dr.cart_mark(draw, shape.cars[len(shape.cars) // 2], k=k)


def _cities(draw: ImageDraw.ImageDraw, layout: Layout, k: float) -> None:
    board = layout.rules.board
    for cid, (x, y) in layout.cities.items():
        if board.cities[cid].kind == "country":
            continue
        r = 7 * k
        draw.ellipse(
            (x * k - r, y * k - r, x * k + r, y * k + r),
            fill=th.PAPER,
            outline=th.INK,
            width=round(2 * k),
        )


@lru_cache(maxsize=16)
def base_layer(layout: Layout) -> Image.Image:
    """The static board (background, unclaimed routes, city dots) at the layout's size (cached)."""
    w, h = layout.size
    k = SUPER
    img = Image.new("RGB", (w * k, h * k), th.LAND)
    draw = ImageDraw.Draw(img)
    _background(draw, layout, k)
    _routes(draw, layout, k)
    _countries(
        draw, layout, k
    )  # the neighbouring countries' areas sit over the ends of their routes
    _cities(draw, layout, k)
    return img.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def name_layer(layout: Layout) -> Image.Image:
    """City names with their halo on a transparent layer (RGBA, cached); pasted over claimed routes."""
    w, h = layout.size
    k = SUPER
    img = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    font = th.font(LABEL_SIZE * k, True)
    board = layout.rules.board
    for cid, box in label_boxes(layout).items():
        draw.text(
            (box[0] * k, box[1] * k),
            board.cities[cid].name,
            font=font,
            fill=th.INK,
            stroke_width=round(3 * k),
            stroke_fill=th.PAPER,
        )
    return img.resize((w, h), Image.Resampling.LANCZOS)


def paste_names(img: Image.Image, layout: Layout) -> None:
    """Put the city names on ``img`` (only their boxes are touched, so this is cheap)."""
    names = name_layer(layout)
    w, h = layout.size
    for x0, y0, x1, y1 in label_boxes(layout).values():
        box = (max(0, int(x0) - 4), max(0, int(y0) - 4), min(w, int(x1) + 5), min(h, int(y1) + 6))
        piece = names.crop(box)
        img.paste(piece, box[:2], piece)


# ---------------------------------------------------------------- claimed routes
def draw_claims(draw: ImageDraw.ImageDraw, layout: Layout, owners: dict[str, int]) -> None:
    """Claimed routes: car spaces in the owner's colour with a dark border and the owner's letter."""
    letter_font = th.font(10, True)
    for rid, seat in owners.items():
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        fill = th.seat_color(seat)
        ink = th.text_on(fill)
        for c in shape.cars:
            dr.car(draw, c, fill, outline=th.INK, width=2)
            draw.text(c.centre, th.seat_letter(seat), font=letter_font, fill=ink, anchor="mm")


def highlight(
    draw: ImageDraw.ImageDraw, layout: Layout, route_ids: Sequence[str], color: th.RGB = th.GOLD
) -> None:
    """A bright frame around the car spaces of ``route_ids`` (longest path on the final board)."""
    for rid in route_ids:
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        for c in shape.cars:
            draw.polygon(list(c.corners), outline=color, width=3)


# ---------------------------------------------------------------- the panel
def seat_names(public: PublicView, names: Sequence[str] | None) -> list[str]:
    """Display names per seat (``Player 1`` ... where none are given)."""
    names = list(names or [])
    return [
        names[i] if i < len(names) and names[i] else f"Player {i + 1}"
        for i in range(public.num_seats)
    ]


def panel(
    layout: Layout, public: PublicView, names: Sequence[str], lang: str, height: int
) -> Image.Image:
    """The side panel: title, turn, players, face-up cards, decks and the map's extras."""
    rules = layout.rules
    img = Image.new("RGB", (PANEL_WIDTH, height), th.PANEL)
    d = ImageDraw.Draw(img)
    x, y = 20, 18
    title = (
        rules.meta.get("name", {}).get(lang) or rules.meta.get("name", {}).get("en") or rules.map_id
    )
    d.text((x, y), title, font=th.font(24, True), fill=th.PAPER)
    y += 36
    if public.phase == "setup":
        status = th.word("setup", lang)
    elif public.phase == "finished":
        status = th.word("finished", lang)
    else:
        status = th.word("turn", lang, n=public.turn + 1)
    d.text((x, y), status, font=th.font(16), fill=th.MUTED)
    y += 30
    if public.last_round and public.phase == "play":
        d.rounded_rectangle((x, y, PANEL_WIDTH - 20, y + 34), radius=8, fill=th.BAD)
        d.text(
            (PANEL_WIDTH / 2, y + 17),
            th.word("last_round", lang),
            font=th.font(18, True),
            fill=th.PAPER,
            anchor="mm",
        )
        y += 44
    pieces = th.map_word(rules, "pieces", lang, "trains")
    waiting = set(public.waiting_for)
    for p in public.players:
        active = p.seat in waiting and public.phase != "finished"
        d.rounded_rectangle(
            (x - 6, y, PANEL_WIDTH - 14, y + 62),
            radius=10,
            fill=th.PANEL_ACTIVE if active else th.PANEL_ROW,
            outline=th.seat_color(p.seat) if active else None,
            width=3,
        )
        dr.seat_badge(d, (x + 18, y + 31), p.seat, r=15)
        name_w = PANEL_WIDTH - 150
        d.text(
            (x + 44, y + 9),
            dr.fit_text(d, names[p.seat], th.font(17, True), name_w),
            font=th.font(17, True),
            fill=th.PAPER,
        )
        facts = f"{p.pieces} {pieces} · {p.cards} {th.word('cards', lang)} · {p.tickets} {th.word('tickets', lang)}"
        d.text(
            (x + 44, y + 35),
            dr.fit_text(d, facts, th.font(13), PANEL_WIDTH - 130),
            font=th.font(13),
            fill=th.MUTED,
        )
        score = public.result.seats[p.seat].score if public.result is not None else p.score
        d.text(
            (PANEL_WIDTH - 26, y + 20),
            str(score),
            font=th.font(24, True),
            fill=th.PAPER,
            anchor="ra",
        )
        if active:
            d.text(
                (PANEL_WIDTH - 26, y + 4),
                th.word("to_move", lang),
                font=th.font(11, True),
                fill=th.seat_color(p.seat),
                anchor="ra",
            )
        y += 70
    y += 8
    d.text((x, y), th.word("face_up", lang), font=th.font(15, True), fill=th.PAPER)
    y += 26
    cw, ch, gap = 58, 84, 10
    for i, color in enumerate(public.face_up):
        bx = x + i * (cw + gap)
        dr.card(d, (bx, y, bx + cw, y + ch), color)
        d.text(
            (bx + cw / 2, y + ch + 10),
            str(i + 1),
            font=th.font(12, True),
            fill=th.MUTED,
            anchor="mm",
        )
    y += ch + 24
    d.text(
        (x, y),
        f"{th.word('deck', lang, n=public.deck_size)}   {th.word('discard', lang, n=public.discard_size)}",
        font=th.font(14),
        fill=th.MUTED,
    )
    y += 22
    decks = ", ".join(
        f"{n}" if len(public.ticket_decks) == 1 else f"{name} {n}"
        for name, n in public.ticket_decks.items()
    )
    d.text((x, y), f"{th.word('ticket_decks', lang)}: {decks}", font=th.font(14), fill=th.MUTED)
    y += 26
    if public.tunnel is not None:
        t = public.tunnel
        d.text(
            (x, y),
            th.word("tunnel", lang, cards=len(t.revealed), extra=t.extra),
            font=th.font(14, True),
            fill=th.GOLD,
        )
        y += 22
        for i, c in enumerate(t.revealed):
            dr.card(d, (x + i * 34, y, x + i * 34 + 28, y + 40), c, radius=5)
        y += 50
    if rules.params.merchandise:
        d.text(
            (x, y),
            th.word("merch", lang, n=public.merchandise_left),
            font=th.font(14),
            fill=th.MUTED,
        )
        y += 24
    if public.flag_colors:
        d.text((x, y), th.word("flag_colors", lang), font=th.font(14), fill=th.MUTED)
        for i, c in enumerate(public.flag_colors):
            dr.card(d, (x + 110 + i * 30, y - 2, x + 134 + i * 30, y + 20), c, radius=4)
        y += 28
    return img


def panel_height(public: PublicView) -> int:
    """Pixels the panel needs for ``public`` (so it never cuts text)."""
    return 130 + 70 * public.num_seats + 44 + 34 + 84 + 24 + 48 + 80 + 60


def board_image(
    layout: Layout, public: PublicView, names: Sequence[str] | None, lang: str
) -> Image.Image:
    """The board with claimed routes and the side panel, as an RGB image."""
    w, h = layout.size
    height = max(h, panel_height(public))
    base = base_layer(layout)
    img = Image.new("RGB", (w + PANEL_WIDTH, height), th.PANEL)
    if height > h:  # a short board under a tall panel: continue the board's ground colour
        img.paste(base.getpixel((1, h - 1)), (0, h, w, height))
    img.paste(base, (0, 0))
    draw = ImageDraw.Draw(img)
    draw_claims(draw, layout, public.owners)
    paste_names(img, layout)
    img.paste(panel(layout, public, seat_names(public, names), lang, height), (w, 0))
    return img


def render_board_png(
    layout: Layout, public_view: PublicView, names: Sequence[str] | None = None, *, lang: str = "en"
) -> bytes:
    """The board image as PNG bytes (``layout`` from :func:`render.load_layout`).

    ``names``: display name per seat (default "Player 1" ...); ``lang``:
    ``en`` or ``de``. Pure: reads only its arguments (and the cached base layer).
    Size: the layout's board plus a 380 px panel (about 1800x1000 for USA).
    """
    return dr.encode(board_image(layout, public_view, names, lang))
