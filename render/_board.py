"""The public board image: map, routes, claimed routes, and a side panel with the table's facts.

The static part (background, unclaimed routes, city dots and names) is drawn
once per map at twice the size, scaled down for smooth edges and cached; each
render copies it, draws the claimed routes and the panel, and encodes the PNG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine import ClassicRules, PublicView
from engine.planner import stations_left
from engine.views import PublicPlayer
from words import Words

from . import _draw as dr
from . import _theme as th
from ._labels import leader, place_labels
from ._layout import Layout, Point

#: Width of the side panel in pixels.
PANEL_WIDTH = 380
#: Supersampling factor of the cached base layer. It is scaled down by averaging each
#: SUPER x SUPER block (``Image.reduce``): smooth edges without the halo colours a Lanczos
#: filter rings around every line, which cost a third of each PNG's bytes.
SUPER = 2


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


def label_boxes(layout: Layout) -> dict[str, tuple[float, float, float, float]]:
    """Place id -> the box ``(x0, y0, x1, y1)`` of its name on the board (see :mod:`render._labels`):
    off every car space, dot and other name where the search finds room (tested on every map)."""
    return {cid: lab.box for cid, lab in place_labels(layout).items()}


def _countries(draw: ImageDraw.ImageDraw, layout: Layout, k: float) -> None:
    """Germany's neighbouring countries: a small hatched marker where their routes end (the name is a
    label placed like a city's, so it never covers a route end)."""
    for cid, city in layout.rules.board.cities.items():
        if city.kind != "country":
            continue
        x, y = layout.cities[cid]
        r = 8 * k
        draw.rounded_rectangle(
            (x * k - r, y * k - r, x * k + r, y * k + r),
            radius=round(3 * k),
            fill=(214, 208, 196),
            outline=th.INK,
            width=round(2 * k),
        )
        draw.line((x * k - r, y * k + r, x * k + r, y * k - r), fill=th.BORDER, width=round(2 * k))


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
    draw = dr.canvas(img)
    _background(draw, layout, k)
    _routes(draw, layout, k)
    _countries(
        draw, layout, k
    )  # the neighbouring countries' areas sit over the ends of their routes
    _cities(draw, layout, k)
    return img.reduce(SUPER)


def name_layer(layout: Layout) -> Image.Image:
    """City names with their halo (and leader lines) on a transparent layer (RGBA) of the board's
    size; :func:`name_pieces` keeps the parts of it that hold a name."""
    w, h = layout.size
    k = SUPER
    img = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    draw = dr.canvas(img)
    for cid, lab in place_labels(layout).items():
        line = leader(lab, layout.cities[cid])
        if line is not None:
            draw.line(dr.scaled(line, k), fill=th.INK, width=round(1.2 * k))
    for lab in place_labels(layout).values():
        font = th.font(lab.size * k, True)
        x0, y0, x1, _ = lab.box
        for i, text in enumerate(lab.lines):
            draw.text(
                (((x0 + x1) / 2) * k, (y0 + i * (lab.size + 3)) * k),
                text,
                font=font,
                fill=(90, 84, 74) if lab.country else th.INK,
                stroke_width=round(3 * k),
                stroke_fill=th.PAPER,
                anchor="ma",
            )
    return img.reduce(SUPER)


@lru_cache(maxsize=16)
def name_pieces(layout: Layout) -> tuple[tuple[tuple[int, int], Image.Image], ...]:
    """The parts of :func:`name_layer` around each name and its leader line, with where they go
    (cached: a tenth of the whole layer's memory, which is mostly empty)."""
    names = name_layer(layout)
    w, h = layout.size
    pieces = []
    for cid, lab in place_labels(layout).items():
        x0, y0, x1, y1 = lab.box
        line = leader(lab, layout.cities[cid])
        if line is not None:  # the leader line lies between the dot and the box
            (ax, ay), (bx, by) = line
            x0, y0, x1, y1 = min(x0, ax, bx), min(y0, ay, by), max(x1, ax, bx), max(y1, ay, by)
        box = (max(0, int(x0) - 4), max(0, int(y0) - 4), min(w, int(x1) + 5), min(h, int(y1) + 6))
        pieces.append((box[:2], names.crop(box)))
    return tuple(pieces)


def paste_names(img: Image.Image, layout: Layout) -> None:
    """Put the city names on ``img`` (only their boxes are touched, so this is cheap)."""
    for corner, piece in name_pieces(layout):
        img.paste(piece, corner, piece)


# ---------------------------------------------------------------- claimed routes
def draw_claims(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    owners: dict[str, int],
    *,
    high_contrast: bool = False,
) -> None:
    """Claimed routes: car spaces in the owner's colour with a dark border and the owner's symbol
    (● ▲ ■ ◆ ★); ``high_contrast`` draws thicker borders and bigger symbols."""
    for rid, seat in owners.items():
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        fill = th.seat_color(seat)
        ink = th.text_on(fill)
        for c in shape.cars:
            dr.car(draw, c, fill, outline=th.INK, width=3 if high_contrast else 2)
            dr.symbol(draw, c.centre, seat, 4.6 if high_contrast else 3.6, ink)


def station_house(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], seat: int, size: float, border: int
) -> None:
    """One train station: a house ``20 * size`` px wide centred on ``at`` in seat ``seat``'s colour
    with a ``border`` px dark outline and the seat's symbol inside."""
    x, y = at
    w, roof, base = 10.0 * size, 13.5 * size, 9.0 * size
    eaves = 2 * min(size, 1.0)
    house = [
        (x - w, y + base),
        (x + w, y + base),
        (x + w, y - eaves),
        (x, y - roof),
        (x - w, y - eaves),
    ]
    fill = th.seat_color(seat)
    draw.polygon(house, fill=fill, outline=th.INK, width=border)
    dr.symbol(draw, (x, y + 2.0 * size), seat, 4.6 * size, th.text_on(fill))


def draw_stations(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    stations: Mapping[str, int],
    *,
    high_contrast: bool = False,
    k: float = 1.0,
    size: float = 1.0,
) -> None:
    """Train stations (Europe): a small house on the station's city in the owner's colour, with a
    dark border and the owner's symbol (● ▲ ■ ◆ ★) inside, so it reads without colour too.

    ``k``: image pixels per board pixel (the phone board and the recap draw on a smaller image);
    ``size``: the house's size relative to the full board's (20 px wide there)."""
    scale = size * (1.25 if high_contrast else 1.0)
    border = (3 if high_contrast else 2) if size >= 1.0 else 1  # a thin edge on a small house
    for city, seat in stations.items():
        at = layout.cities.get(city)
        if at is not None:
            station_house(draw, (at[0] * k, at[1] * k), seat, scale, border)


def blocked_routes(layout: Layout, public: PublicView) -> list[str]:
    """Free tracks of double routes that nobody may claim any more: with fewer players than the map's
    ``double_routes_min_players`` a group closes once one of its tracks is taken."""
    rules = layout.rules
    if public.num_seats >= rules.params.double_routes_min_players:
        return []
    board = rules.board
    return [
        rid
        for rid in board.routes
        if rid not in public.owners and any(sib in public.owners for sib in board.siblings(rid))
    ]


def draw_blocked(draw: ImageDraw.ImageDraw, layout: Layout, route_ids: Sequence[str]) -> None:
    """Blocked tracks: car spaces greyed out and crossed."""
    for rid in route_ids:
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        for c in shape.cars:
            dr.car(draw, c, th.BLOCKED, outline=th.MUTED, width=1)
            (x0, y0), _, (x2, y2), _ = c.corners
            draw.line((x0, y0, x2, y2), fill=th.OUTLINE, width=1)


def highlight(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    route_ids: Sequence[str],
    color: th.RGB = th.GOLD,
    *,
    width: int = 3,
) -> None:
    """A bright frame around the car spaces of ``route_ids`` (last turn's claims; longest path)."""
    for rid in route_ids:
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        for c in shape.cars:
            draw.polygon(list(c.corners), outline=color, width=width)


def mark_new(draw: ImageDraw.ImageDraw, layout: Layout, route_ids: Sequence[str]) -> None:
    """Last turn's claims: a dark halo and a gold frame around every car space, so they show at a
    glance (also without colour vision: the frame is thick and doubled)."""
    for rid in route_ids:
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        for c in shape.cars:
            halo = [
                (c.centre[0] + (x - c.centre[0]) * 1.35, c.centre[1] + (y - c.centre[1]) * 1.7)
                for x, y in c.corners
            ]
            draw.polygon(halo, outline=th.INK, width=5)
            draw.polygon(halo, outline=th.GOLD, width=3)


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
    w = th.words(layout.rules, lang)
    img = Image.new("RGB", (PANEL_WIDTH, height), th.PANEL)
    d = dr.canvas(img)
    x = 20
    y = _panel_title(d, layout.rules, public, lang, w, (x, 18))
    waiting = set(public.waiting_for)
    for p in public.players:
        left = stations_left(layout.rules, public, p.seat)
        _panel_seat(d, public, p, names[p.seat], w, (x, y), waiting, left)
        y += 70
    y = _panel_cards(d, public, w, (x, y + 8))
    _panel_extras(d, layout.rules, public, w, (x, y))
    return img


def _panel_title(
    d: ImageDraw.ImageDraw,
    rules: ClassicRules,
    public: PublicView,
    lang: str,
    w: Words,
    at: tuple[int, int],
) -> int:
    """The map's name, the turn and the last-round banner; returns the y below them."""
    x, y = at
    names = rules.meta.get("name", {})
    title = names.get(lang) or names.get("en") or rules.map_id
    d.text((x, y), title, font=th.font(24, True), fill=th.PAPER)
    y += 36
    if public.phase == "setup":
        status = th.word("setup", w)
    elif public.phase == "finished":
        status = th.word("finished", w)
    else:
        status = th.word("round", w, n=public.turn // max(1, public.num_seats) + 1)
    d.text((x, y), status, font=th.font(16), fill=th.MUTED)
    y += 30
    if public.last_round and public.phase == "play":
        d.rounded_rectangle((x, y, PANEL_WIDTH - 20, y + 34), radius=8, fill=th.BAD)
        d.text(
            (PANEL_WIDTH / 2, y + 17),
            th.word("last_round", w),
            font=th.font(18, True),
            fill=th.PAPER,
            anchor="mm",
        )
        y += 44
    return y


def _panel_seat(
    d: ImageDraw.ImageDraw,
    public: PublicView,
    p: PublicPlayer,
    name: str,
    w: Words,
    at: tuple[int, int],
    waiting: set[int],
    stations: int | None = None,
) -> None:
    """One seat's row (70 px high at ``at``): badge, name, pieces, cards, tickets, (Europe)
    the ``stations`` left, score."""
    x, y = at
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
        dr.fit_text(d, name, th.font(17, True), name_w),
        font=th.font(17, True),
        fill=th.PAPER,
    )
    facts = (  # two lines: the map's nouns are long ("16 Fuhrwerke · 14 Transportkarten")
        w.n("{count} {piece}", "{count} {pieces}", p.pieces)
        + " · "
        + w.n("{count} {card}", "{count} {cards}", p.cards),
        w.n("{count} {ticket}", "{count} {tickets}", p.tickets)
        + (
            ""
            if stations is None
            else " · " + w.n("{count} {station} left", "{count} {stations} left", stations)
        ),
    )
    for i, line in enumerate(facts):
        d.text(
            (x + 44, y + 30 + 15 * i),
            dr.fit_text(d, line, th.font(13), PANEL_WIDTH - (130 if i == 0 else 70)),
            font=th.font(13),
            fill=th.MUTED,
        )
    score = public.result.seats[p.seat].score if public.result is not None else p.score
    d.text(
        (PANEL_WIDTH - 26, y + 20), str(score), font=th.font(24, True), fill=th.PAPER, anchor="ra"
    )
    if active:
        d.text(
            (PANEL_WIDTH - 26, y + 4),
            th.word("to_move", w),
            font=th.font(11, True),
            fill=th.seat_color(p.seat),
            anchor="ra",
        )


def _panel_cards(d: ImageDraw.ImageDraw, public: PublicView, w: Words, at: tuple[int, int]) -> int:
    """The face-up cards, the deck, the discard and the ticket decks; returns the y below."""
    x, y = at
    d.text((x, y), th.word("face_up", w), font=th.font(15, True), fill=th.PAPER)
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
    deck, discard = public.deck_size, public.discard_size
    if deck:
        d.text(
            (x, y),
            f"{th.word('deck', w, n=deck)}   {th.word('discard', w, n=discard)}",
            font=th.font(14),
            fill=th.MUTED,
        )
    else:  # what a draw does now: shuffle the discards, or nothing is left
        said = th.word("deck_shuffled" if discard else "deck_empty", w)
        d.text((x, y), said, font=th.font(14), fill=th.MUTED)
    y += 22
    decks = ", ".join(
        f"{n}" if len(public.ticket_decks) == 1 else f"{th.word(name, w)} {n}"
        for name, n in public.ticket_decks.items()
    )
    d.text((x, y), f"{th.word('ticket_decks', w)}: {decks}", font=th.font(14), fill=th.MUTED)
    return y + 26


def _panel_extras(
    d: ImageDraw.ImageDraw,
    rules: ClassicRules,
    public: PublicView,
    w: Words,
    at: tuple[int, int],
) -> None:
    """What some maps add: a tunnel's revealed cards, merchandise left, the French flag colours."""
    x, y = at
    if public.tunnel is not None:
        t = public.tunnel
        d.text(
            (x, y),
            w.nctx(
                "image",
                "Tunnel: {cards} revealed, {count} more card",
                "Tunnel: {cards} revealed, {count} more cards",
                t.extra,
                cards=len(t.revealed),
            ),
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
            th.word("merch", w, n=public.merchandise_left),
            font=th.font(14),
            fill=th.MUTED,
        )
        y += 24
    if public.flag_colors:
        d.text((x, y), th.word("flag_colors", w), font=th.font(14), fill=th.MUTED)
        for i, c in enumerate(public.flag_colors):
            dr.card(d, (x + 110 + i * 30, y - 2, x + 134 + i * 30, y + 20), c, radius=4)


def panel_height(layout: Layout, public: PublicView) -> int:
    """Pixels the panel needs for ``public`` (so it never cuts text, and adds no empty band)."""
    rules = layout.rules
    height = 84 + 70 * public.num_seats + 8 + 134 + 48 + 16
    if public.last_round and public.phase == "play":
        height += 44
    if public.tunnel is not None:
        height += 72
    if rules.params.merchandise:
        height += 24
    if public.flag_colors:
        height += 28
    return height


def map_image(
    layout: Layout,
    public: PublicView,
    *,
    highlight: Sequence[str] = (),
    high_contrast: bool = False,
    names: bool = True,
) -> Image.Image:
    """The board area alone (no panel) at the layout's size: blocked tracks, last turn's claims
    (``highlight``: route ids), claimed routes and (``names``) the place names, as an RGB image."""
    img = (faded_layer(layout) if high_contrast else base_layer(layout)).copy()
    draw = dr.canvas(img)
    draw_blocked(draw, layout, blocked_routes(layout, public))
    mark_new(draw, layout, [r for r in highlight if r in public.owners])
    draw_claims(draw, layout, public.owners, high_contrast=high_contrast)
    draw_stations(draw, layout, public.stations, high_contrast=high_contrast)
    if names:
        paste_names(img, layout)
    return img


@lru_cache(maxsize=16)
def faded_layer(layout: Layout) -> Image.Image:
    """The base layer washed towards white, so claimed routes stand out (high-contrast mode; cached)."""
    base = base_layer(layout)
    return Image.blend(base, Image.new("RGB", base.size, th.PAPER), 0.45)


def board_image(
    layout: Layout,
    public: PublicView,
    names: Sequence[str] | None,
    lang: str,
    *,
    highlight: Sequence[str] = (),
    high_contrast: bool = False,
) -> Image.Image:
    """The board with claimed routes and the side panel, as an RGB image."""
    w, h = layout.size
    height = max(h, panel_height(layout, public))
    board = map_image(layout, public, highlight=highlight, high_contrast=high_contrast)
    img = Image.new("RGB", (w + PANEL_WIDTH, height), th.PANEL)
    if height > h:  # a short board beside a tall panel: continue the board's ground colour
        ground = board.getpixel((1, h - 1))
        assert isinstance(ground, tuple)
        img.paste(ground, (0, h, w, height))
    img.paste(board, (0, 0))
    img.paste(panel(layout, public, seat_names(public, names), lang, height), (w, 0))
    return img


def render_board_png(
    layout: Layout,
    public_view: PublicView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    highlight: Sequence[str] = (),
    high_contrast: bool = False,
) -> bytes:
    """The board image as PNG bytes (``layout`` from :func:`render.load_layout`).

    ``names``: display name per seat (default "Player 1" ...); ``lang``:
    ``en`` or ``de``; ``highlight``: route ids claimed in the last turn, drawn
    with a dark-and-gold halo (ids not claimed are ignored); ``high_contrast``:
    the unclaimed board washed out and claims drawn bolder. Pure: reads only
    its arguments (and the cached base layer). Size: the layout's board plus a
    380 px panel (about 1800x1000 for USA); see :func:`render.render_phone_png`
    for a 500 px wide version.
    """
    return dr.encode(
        board_image(
            layout, public_view, names, lang, highlight=highlight, high_contrast=high_contrast
        )
    )
