"""The private hand image for ephemeral replies: cards by colour, tickets with their state, a small map."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from engine import PlayerView
from engine.planner import TicketPlan, needed_routes, plan_tickets, stations_left
from words import Words

from . import _draw as dr
from . import _minimap as mm
from . import _theme as th
from ._board import base_layer, draw_claims, draw_stations, faded_layer, mark_new
from ._layout import Layout, load_layout

WIDTH = 1000
MAP_WIDTH = 440
MAP_MAX_HEIGHT = 560
CARD_ORDER = (
    "locomotive",
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "pink",
    "white",
    "black",
)


def _ticket_line(layout: Layout, tid: str) -> tuple[str, int]:
    board = layout.rules.board
    t = board.tickets[tid]
    return f"{board.cities[t.a].name} – {board.cities[t.b].name}", t.points


def _network_image(
    layout: Layout, mine: PlayerView, planned: Sequence[str], high_contrast: bool
) -> Image.Image:
    """The whole board (no names) with the reader's routes and train stations and ``planned``
    routes (gold frames)."""
    img = (faded_layer(layout) if high_contrast else base_layer(layout)).copy()
    draw = dr.canvas(img)
    draw_claims(
        draw,
        layout,
        {r: s for r, s in mine.public.owners.items() if s == mine.seat},
        high_contrast=high_contrast,
    )
    mark_new(draw, layout, planned)
    own = {c: s for c, s in mine.public.stations.items() if s == mine.seat}
    draw_stations(draw, layout, own, high_contrast=high_contrast)
    return img


def _ends(layout: Layout, routes: Sequence[str]) -> list[str]:
    board = layout.rules.board
    return [c for r in routes if r in board.routes for c in (board.routes[r].a, board.routes[r].b)]


def _rings(layout: Layout, mine: PlayerView) -> dict[str, th.RGB]:
    """Ticket city id -> its ring's colour: green done, red not yet, gold on offer."""
    board = layout.rules.board
    rings: dict[str, th.RGB] = {}
    for tid in mine.offer:
        for cid in (board.tickets[tid].a, board.tickets[tid].b):
            rings[cid] = th.GOLD
    for tv in sorted(mine.tickets, key=lambda t: t.done):
        for cid in (tv.a, tv.b):
            rings[cid] = th.GOOD if tv.done else th.BAD
    return rings


def network_places(layout: Layout, mine: PlayerView, plans: Sequence[TicketPlan]) -> list[str]:
    """The places the hand image's small map frames and names, most important first: the
    reader's ticket cities (kept and on offer), the ends of the planned routes (``plans``), the
    ends of the reader's own routes (city ids, each once; empty: the whole board is shown)."""
    own = [r for r, s in mine.public.owners.items() if s == mine.seat]
    planned = needed_routes(plans)
    ticket_cities = _rings(layout, mine)
    return list(dict.fromkeys([*ticket_cities, *_ends(layout, planned), *_ends(layout, own)]))


def _mini_map(
    layout: Layout,
    mine: PlayerView,
    plans: Sequence[TicketPlan],
    high_contrast: bool,
) -> Image.Image:
    """The reader's network, planned routes (gold frames) and ticket cities (rings: green done,
    red not yet, gold on offer), framed to fit them all (the whole board when there are none),
    at most ``MAP_WIDTH`` x ``MAP_MAX_HEIGHT``, with the names of those places placed for
    this size."""
    planned = needed_routes(plans)
    rings = _rings(layout, mine)
    places = network_places(layout, mine, plans)
    framed = mm.fit(
        _network_image(layout, mine, planned, high_contrast),
        mm.frame(layout, places, MAP_WIDTH / MAP_MAX_HEIGHT),
        MAP_WIDTH,
        MAP_MAX_HEIGHT,
    )
    img = framed.image
    draw = dr.canvas(img)
    for cid, color in rings.items():
        mm.ring(draw, framed.at(layout, cid), color)
    mm.draw_names(draw, layout, framed, mm.place_names(layout, framed, places))
    return img


def render_offer_png(
    player_view: PlayerView,
    plans: Sequence[TicketPlan],
    *,
    lang: str = "en",
    layout: Layout | None = None,
    high_contrast: bool = False,
    width: int = 640,
    height: int = 420,
) -> bytes:
    """A small map of the tickets on offer to the reader of ``player_view`` as PNG bytes: each
    offered ticket's two cities ringed in gold with its number (1, 2, 3 in offer order, as the
    private message lists them), the planned path of each (``plans``:
    :func:`engine.planner.plan_offer`) in gold frames, the reader's own routes, and the names
    of those places placed for this size; framed to fit them, at most ``width`` x ``height``.
    ``lang`` is accepted for symmetry with the other images (only place names are drawn).
    Only for ephemeral replies: it shows hidden information."""
    mine = player_view
    layout = layout or load_layout(mine.public.map_id)
    board = layout.rules.board
    planned = needed_routes(plans)
    offered = [c for tid in mine.offer for c in (board.tickets[tid].a, board.tickets[tid].b)]
    places = list(dict.fromkeys([*offered, *_ends(layout, planned)]))
    framed = mm.fit(
        _network_image(layout, mine, planned, high_contrast),
        mm.frame(layout, places, width / height),
        width,
        height,
    )
    img = framed.image
    draw = dr.canvas(img)
    for cid in offered:
        mm.ring(draw, framed.at(layout, cid), th.GOLD)
    for number, tid in enumerate(mine.offer, start=1):
        for cid in (board.tickets[tid].a, board.tickets[tid].b):
            mm.badge(draw, framed.at(layout, cid), str(number))
    mm.draw_names(draw, layout, framed, mm.place_names(layout, framed, places))
    return dr.encode(img)


def _plan_line(layout: Layout, plan: TicketPlan, w: Words) -> tuple[str, th.RGB]:
    """The planner's line under an open ticket, and its colour."""
    board = layout.rules.board
    if not plan.possible:
        return th.word("plan_impossible", w, points=plan.points), th.BAD
    parts = [w.nctx("image", "{count} space to go", "{count} spaces to go", plan.cars)]
    parts += [
        f"{n}{th.CARD_SYMBOLS.get(c, '')} {th.word('color_' + c, w)}"
        for c, n in plan.colors.items()
    ]
    for where, rid in plan.borrowed:  # train stations (Europe): the one to build first
        key = "plan_station" if where == plan.station else "plan_via"
        city = board.cities[where].name
        parts.insert(1, th.word(key, w, city=city, route=board.route_name(rid)))
    if plan.lost:
        names = ", ".join(board.route_name(r) for r in plan.lost)
        parts.append(th.word("plan_lost", w, routes=names))
        if plan.detour:
            parts.append(th.word("plan_detour", w, n=plan.detour))
    if not plan.enough_pieces:
        parts.append(th.word("plan_pieces", w))
    return " · ".join(parts), th.GOLD if plan.lost or not plan.enough_pieces else th.MUTED


def _wrap(
    d: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float, rows: int
) -> list[str]:
    """``text`` split at " · " into at most ``rows`` lines of ``width`` px (the last one cut with …)."""
    out: list[str] = []
    for part in text.split(" · "):
        if out and d.textlength(out[-1] + " · " + part, font=font) <= width:
            out[-1] += " · " + part
        elif len(out) < rows:
            out.append(part)
        else:
            out[-1] += " · " + part
    return [dr.fit_text(d, line, font, width) for line in out]


def _cards(d: ImageDraw.ImageDraw, mine: PlayerView, x: int, y: int, w: Words) -> int:
    """The hand grouped by colour: one card per colour with its symbol, and the count below.

    Nine kinds (8 colours and the locomotive) fit one row; returns the height used."""
    colors = [c for c in CARD_ORDER if mine.hand.get(c)] + sorted(
        c for c in mine.hand if c not in CARD_ORDER and mine.hand[c]
    )
    cw, ch = 50, 76
    if not colors:
        d.text((x, y + 30), th.word("none", w), font=th.font(16), fill=th.MUTED)
    per_row = (WIDTH - MAP_WIDTH - 40 + 8) // (cw + 8)  # no gap after the last card
    for i, c in enumerate(colors):
        bx = x + (i % per_row) * (cw + 8)
        by = y + (i // per_row) * (ch + 36)
        dr.card(d, (bx, by, bx + cw, by + ch), c)
        d.text(
            (bx + cw / 2, by + ch + 14),
            f"×{mine.hand[c]}",
            font=th.font(16, True),
            fill=th.PAPER,
            anchor="mm",
        )
    rows = max(1, -(-len(colors) // per_row))
    return rows * (ch + 36) + 38


def _tickets(
    d: ImageDraw.ImageDraw,
    layout: Layout,
    mine: PlayerView,
    by_ticket: dict[str, TicketPlan],
    w: Words,
    at: tuple[int, int],
) -> None:
    """The kept tickets (a done ✓ or open ○ mark, points, each open ticket's plan) and the tickets on
    offer, in the hand image's left column from ``at`` down."""
    x, y = at
    d.text((x, y), th.word("your_tickets", w), font=th.font(17, True), fill=th.PAPER)
    y += 30
    text_w = WIDTH - MAP_WIDTH - 60
    for tv in sorted(mine.tickets, key=lambda t: (t.done, -t.points)):
        label, points = _ticket_line(layout, tv.id)
        mark, color = ("✓", th.GOOD) if tv.done else ("○", th.GOLD)
        d.text((x, y), mark, font=th.font(18, True), fill=color)
        d.text(
            (x + 26, y + 1),
            dr.fit_text(d, label, th.font(16), text_w - 60),
            font=th.font(16),
            fill=th.PAPER,
        )
        d.text((x + text_w, y + 1), str(points), font=th.font(16, True), fill=th.PAPER, anchor="ra")
        y += 30
        plan = by_ticket.get(tv.id)
        if plan is not None and not plan.done:
            text, ink = _plan_line(layout, plan, w)
            for row in _wrap(d, text, th.font(13), text_w - 26, rows=2):
                d.text((x + 26, y - 6), row, font=th.font(13), fill=ink)
                y += 19
            y += 5
    if mine.offer:
        d.text((x, y), th.word("offer", w), font=th.font(15, True), fill=th.GOLD)
        y += 28
        for tid in mine.offer:
            label, points = _ticket_line(layout, tid)
            d.text(
                (x + 26, y),
                dr.fit_text(d, label, th.font(16), text_w - 60),
                font=th.font(16),
                fill=th.PAPER,
            )
            d.text((x + text_w, y), str(points), font=th.font(16, True), fill=th.PAPER, anchor="ra")
            y += 30


def render_hand_png(
    player_view: PlayerView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    layout: Layout | None = None,
    high_contrast: bool = False,
    planner: bool = True,
    plans: Sequence[TicketPlan] | None = None,
) -> bytes:
    """:func:`hand_image` as PNG bytes (arguments the same)."""
    return dr.encode(
        hand_image(
            player_view,
            names,
            lang=lang,
            layout=layout,
            high_contrast=high_contrast,
            planner=planner,
            plans=plans,
        )
    )


def hand_image(
    player_view: PlayerView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    layout: Layout | None = None,
    high_contrast: bool = False,
    planner: bool = True,
    plans: Sequence[TicketPlan] | None = None,
) -> Image.Image:
    """The reader's private hand as an RGB image (1000 px wide): cards grouped by colour with a symbol
    each (♥ red, ✚ orange, ☀ yellow, ♣ green, ♠ blue, ♦ purple, ✿ pink, ○ white, ● black,
    ★ locomotive) and counts, (Europe) the train stations left, kept tickets with points and a done (✓) / not yet (○) mark, under each
    open ticket the planner's line (cars and colours still needed, the train station to build or
    the reader's station it uses on Europe, routes lost to others and the detour; see
    :func:`engine.planner.plan_tickets`), tickets on offer, and a small map of the reader's
    network (routes and train stations), planned routes (gold frames) and ticket cities (green:
    done, red: not yet, gold: on offer). ``layout`` defaults to the map's; ``high_contrast`` washes out the free routes;
    ``plans``: the reader's ticket plans when the caller has them (the bot's hand view model
    plans once for the text and this image); None plans here, unless ``planner=False`` leaves
    the plans out. Only for ephemeral replies: it shows hidden information."""
    mine = player_view
    layout = layout or load_layout(mine.public.map_id)
    w = th.words(layout.rules, lang)
    if plans is None:
        plans = plan_tickets(layout.rules, mine) if planner else ()
    mini = _mini_map(layout, mine, plans, high_contrast)
    open_plans = sum(1 for p in plans if not p.done)
    lines = len(mine.tickets) + open_plans * 1.5 + (len(mine.offer) + 1 if mine.offer else 0)
    card_rows = max(1, -(-sum(1 for n in mine.hand.values() if n) // 9))
    left_h = 40 + 150 * card_rows + 40 + round(30 * max(1, lines)) + 40
    left_h += 28 if layout.rules.params.stations is not None else 0
    height = max(left_h, mini.height + 40)
    img = Image.new("RGB", (WIDTH, height), th.PANEL)
    d = dr.canvas(img)
    x, y = 20, 16
    name = (list(names or []) + [""] * 8)[mine.seat] or f"Player {mine.seat + 1}"
    dr.seat_badge(d, (x + 14, y + 14), mine.seat, r=14)
    d.text(
        (x + 38, y + 2),
        f"{th.word('your_hand', w)} – {name}",
        font=th.font(20, True),
        fill=th.PAPER,
    )
    y += 44
    y += max(150, _cards(d, mine, x, y, w))
    left = stations_left(layout.rules, mine.public, mine.seat)
    if left is not None:
        d.text(
            (x, y - 8),
            w.n("{count} {station} left", "{count} {stations} left", left),
            font=th.font(16),
            fill=th.PAPER,
        )
        y += 28
    _tickets(d, layout, mine, {p.ticket: p for p in plans}, w, (x, y))
    img.paste(mini, (WIDTH - MAP_WIDTH - 20, 20))
    return img
