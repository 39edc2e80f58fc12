"""The private hand image for ephemeral replies: cards by colour, tickets with their state, a small map."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import PlayerView

from . import _draw as dr
from . import _theme as th
from ._board import base_layer, draw_claims, paste_names
from ._layout import Layout, load_layout

WIDTH = 1000
MAP_WIDTH = 440
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


def _mini_map(layout: Layout, mine: PlayerView) -> Image.Image:
    """The board scaled to ``MAP_WIDTH`` with the reader's routes and ticket cities marked."""
    public = mine.public
    img = base_layer(layout).copy()
    draw = ImageDraw.Draw(img)
    draw_claims(draw, layout, {r: s for r, s in public.owners.items() if s == mine.seat})
    paste_names(img, layout)
    board = layout.rules.board
    for tv in mine.tickets:
        ring = th.GOOD if tv.done else th.BAD
        for cid in (tv.a, tv.b):
            x, y = layout.cities[cid]
            draw.ellipse((x - 16, y - 16, x + 16, y + 16), outline=ring, width=6)
    for tid in mine.offer:
        t = board.tickets[tid]
        for cid in (t.a, t.b):
            x, y = layout.cities[cid]
            draw.ellipse((x - 16, y - 16, x + 16, y + 16), outline=th.GOLD, width=6)
    w, h = img.size
    return img.resize((MAP_WIDTH, max(1, round(h * MAP_WIDTH / w))), Image.Resampling.BILINEAR)


def render_hand_png(
    player_view: PlayerView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    layout: Layout | None = None,
) -> bytes:
    """The reader's private hand as PNG bytes: cards grouped by colour with counts, kept tickets with
    points and a done (✓) / not yet (○) mark, tickets on offer, and a small map of the reader's network
    and ticket cities (green: done, red: not yet, gold: on offer). ``layout`` defaults to the map's.
    Only for ephemeral replies: it shows hidden information."""
    mine = player_view
    layout = layout or load_layout(mine.public.map_id)
    mini = _mini_map(layout, mine)
    lines = len(mine.tickets) + (len(mine.offer) + 1 if mine.offer else 0)
    left_h = 40 + 150 + 40 + 30 * max(1, lines) + 40
    height = max(left_h, mini.height + 40)
    img = Image.new("RGB", (WIDTH, height), th.PANEL)
    d = ImageDraw.Draw(img)
    x, y = 20, 16
    name = (list(names or []) + [""] * 8)[mine.seat] or f"Player {mine.seat + 1}"
    dr.seat_badge(d, (x + 14, y + 14), mine.seat, r=14)
    d.text(
        (x + 38, y + 2),
        f"{th.word('your_hand', lang)} – {name}",
        font=th.font(20, True),
        fill=th.PAPER,
    )
    y += 44
    colors = [c for c in CARD_ORDER if mine.hand.get(c)] + sorted(
        c for c in mine.hand if c not in CARD_ORDER and mine.hand[c]
    )
    cw, ch = 50, 76
    if not colors:
        d.text((x, y + 30), th.word("none", lang), font=th.font(16), fill=th.MUTED)
    per_row = (WIDTH - MAP_WIDTH - 40) // (cw + 8)
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
    y += 150
    d.text((x, y), th.word("your_tickets", lang), font=th.font(17, True), fill=th.PAPER)
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
    if mine.offer:
        d.text((x, y), th.word("offer", lang), font=th.font(15, True), fill=th.GOLD)
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
    img.paste(mini, (WIDTH - MAP_WIDTH - 20, 20))
    return dr.encode(img)
