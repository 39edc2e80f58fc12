"""The final image: the board with the longest path(s) highlighted and a score table with every ticket.

Two sizes: :func:`final_image` under the full board (its breakdown in columns), and
:func:`phone_final_image` for a phone, 500 px wide, where columns would not fit: each seat's
breakdown, facts, tickets and stations are written out as lines of text of at least
:data:`PHONE_TEXT` px.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from engine import PublicView, SeatScore
from words import Words

from . import _draw as dr
from . import _theme as th
from ._board import board_image, draw_stations, highlight, seat_names, station_house
from ._layout import Layout
from ._zoom import PHONE_WIDTH, phone_image, phone_map

ROW = 34
#: The smallest text of the phone's final table, in pixels of the 500 px image (11 px is what a
#: phone still reads).
PHONE_TEXT = 12
#: The phone table's left and right margin, and the indent of a seat's lines under its name.
PHONE_MARGIN, PHONE_INDENT = 10, 34


def longest_routes(layout: Layout, public: PublicView) -> dict[int, tuple[str, ...]]:
    """Seat -> route ids of its longest path, for the seats that scored the longest-path bonus (on a
    map without that bonus: the seats with the longest path, so the final board always shows it)."""
    result = public.result
    if result is None:
        return {}
    board = layout.rules.board
    seats = [s.seat for s in result.seats if s.breakdown.get("longest_path", 0) > 0]
    if not seats:
        best = max((s.longest_path for s in result.seats), default=0)
        seats = [s.seat for s in result.seats if best > 0 and s.longest_path == best]
    out = {}
    for seat in seats:
        mine = [rid for rid, owner in public.owners.items() if owner == seat]
        out[seat] = board.longest_trail(mine)[1]
    return out


def _ticket_text(layout: Layout, tid: str, ok: bool) -> str:
    """``+12 Boston – Miami`` for a completed ticket, ``−12 ...`` for a failed one."""
    board = layout.rules.board
    t = board.tickets[tid]
    sign = "+" if ok else "−"
    return f"{sign}{t.points} {board.cities[t.a].name} – {board.cities[t.b].name}"


def station_lines(layout: Layout, seat: SeatScore, w: Words) -> list[str]:
    """Europe: one line per train station ``seat`` built, in build order: the other player's route
    it used and the tickets that route completed (``Station Madrid: Barcelona – Madrid for
    Madrid – Zürich``), or that it used none."""
    board = layout.rules.board
    out = []
    for use in seat.stations:
        where = board.cities[use.city].name if use.city in board.cities else use.city
        if use.route is None:
            out.append(th.word("station_unused", w, city=where))
            continue
        tickets = ", ".join(
            f"{board.cities[board.tickets[t].a].name} – {board.cities[board.tickets[t].b].name}"
            for t in use.tickets
        )
        out.append(
            th.word(
                "station_used",
                w,
                city=where,
                route=board.route_name(use.route),
                tickets_done=tickets or "–",
            )
        )
    return out


def _header(d: ImageDraw.ImageDraw, text: str, width: float) -> str:
    """A column header cut to ``width`` pixels (the map's nouns are long: "Handelsgüter-Bonuskarten"
    fits the narrowest column, 234 px on Germany's board)."""
    return dr.fit_text(d, text, th.font(13, True), width)


def _wrapped_tickets(
    layout: Layout, seat: SeatScore, width: int, probe: ImageDraw.ImageDraw
) -> list[list[tuple[str, bool]]]:
    """A seat's tickets (completed, then failed) as lines of ``(text, completed)`` that fit
    ``width``."""
    font = th.font(15)
    items = [(_ticket_text(layout, t, True), True) for t in seat.completed] + [
        (_ticket_text(layout, t, False), False) for t in seat.failed
    ]
    lines: list[list[tuple[str, bool]]] = [[]]
    used = 60.0
    for text, ok in items:
        room = probe.textlength(f"✓ {text}", font=font) + 24
        if used + room > width - 30 and lines[-1]:
            lines.append([])
            used = 60.0
        lines[-1].append((text, ok))
        used += room
    return lines


class _Columns:
    """Where the score table's breakdown columns are: ``keys`` from x ``first``, ``step`` apart,
    in a table ``width`` wide."""

    def __init__(self, keys: list[str], first: int, step: int, width: int) -> None:
        self.keys, self.first, self.step, self.width = keys, first, step, width

    def center(self, i: int) -> float:
        """The x of the middle of column ``i``."""
        return self.first + i * self.step + self.step / 2


def _table(
    layout: Layout, public: PublicView, names: list[str], lang: str, width: int
) -> Image.Image:
    result = public.result
    assert result is not None
    w = th.words(layout.rules, lang)
    keys = list(layout.rules.breakdown_keys())
    probe = dr.canvas(Image.new("RGB", (1, 1)))
    wrapped = {s.seat: _wrapped_tickets(layout, s, width, probe) for s in result.seats}
    stations = {s.seat: station_lines(layout, s, w) for s in result.seats}
    height = 70 + 20
    height += sum(
        ROW + 8 + 22 + 24 * len(wrapped[s.seat]) + 24 * len(stations[s.seat]) for s in result.seats
    )
    img = Image.new("RGB", (width, height), th.PAPER)
    d = dr.canvas(img)
    d.text((24, 16), th.word("finished", w), font=th.font(24, True), fill=th.INK)
    columns = _Columns(keys, 330, max(90, (width - 330 - 120) // max(1, len(keys))), width)
    y = 56
    for i, key in enumerate(keys):
        d.text(
            (columns.center(i), y),
            _header(d, th.word(key, w), columns.step - 8),
            font=th.font(13, True),
            fill=th.MUTED,
            anchor="mm",
        )
    d.text((width - 60, y), th.word("total", w), font=th.font(13, True), fill=th.MUTED, anchor="mm")
    y += 16
    for rank, seat in enumerate(result.ranking, 1):
        y = _score_row(d, public, names[seat], seat, rank, w, columns, y)
        y = _facts_row(d, result.seats[seat], keys, w, y)
        y = _ticket_rows(d, wrapped[seat], probe, y)
        y = _station_rows(d, stations[seat], seat, width, y) + 4
    return img


def _score_row(
    d: ImageDraw.ImageDraw,
    public: PublicView,
    name: str,
    seat: int,
    rank: int,
    w: Words,
    columns: _Columns,
    y: int,
) -> int:
    """A seat's rank, badge, name (winner and resigned marks), breakdown and total; returns the
    y below."""
    result = public.result
    assert result is not None
    s = result.seats[seat]
    winner = seat in result.winners
    if winner:
        d.rounded_rectangle(
            (12, y - 2, columns.width - 12, y + ROW), radius=8, fill=(255, 243, 196)
        )
    d.text(
        (30, y + ROW / 2),
        f"{1 if winner else rank}.",
        font=th.font(18, True),
        fill=th.INK,
        anchor="lm",
    )
    dr.seat_badge(d, (76, y + ROW / 2), seat, r=13)
    resigned = public.players[seat].resigned
    label = name + (f"  ★ {th.word('winner', w)}" if winner else "")
    if resigned:
        label += f"  ⚑ {th.word('resigned', w)}"
    d.text(
        (98, y + ROW / 2),
        dr.fit_text(d, label, th.font(18, True), columns.first - 110),
        font=th.font(18, True),
        fill=th.MUTED if resigned else th.INK,
        anchor="lm",
    )
    for i, key in enumerate(columns.keys):
        d.text(
            (columns.center(i), y + ROW / 2),
            str(s.breakdown.get(key, 0)),
            font=th.font(17),
            fill=th.INK,
            anchor="mm",
        )
    d.text(
        (columns.width - 60, y + ROW / 2),
        str(s.score),
        font=th.font(20, True),
        fill=th.INK,
        anchor="mm",
    )
    return y + ROW + 2


def _facts_row(d: ImageDraw.ImageDraw, s: SeatScore, keys: list[str], w: Words, y: int) -> int:
    """Route points, tickets, the longest path and the map's bonuses in one line; returns the y
    below."""
    facts = [
        f"{th.word('routes_pts', w)} {s.breakdown.get('routes', 0):+d}",
        f"{th.word('tickets', w)} {s.tickets_completed}✓ {s.tickets_failed}✗ "
        f"({s.breakdown.get('tickets', 0):+d})",
        th.word("longest_len", w, n=s.longest_path)
        + (f" (+{s.breakdown['longest_path']})" if s.breakdown.get("longest_path") else ""),
    ]
    facts += [
        f"{th.word(key, w)} +{s.breakdown[key]}"
        for key in keys
        if key not in ("routes", "tickets", "longest_path") and s.breakdown.get(key)
    ]
    d.text((98, y), "  ·  ".join(facts), font=th.font(14), fill=th.MUTED)
    return y + 22


def _ticket_rows(
    d: ImageDraw.ImageDraw,
    lines: list[list[tuple[str, bool]]],
    probe: ImageDraw.ImageDraw,
    y: int,
) -> int:
    """A seat's tickets, ✓ completed and ✗ failed; returns the y below."""
    font = th.font(15)
    for line in lines:
        x = 98.0
        for text, ok in line:
            mark = "✓" if ok else "✗"
            d.text((x, y), mark, font=th.font(15, True), fill=th.GOOD if ok else th.BAD)
            d.text((x + 18, y), text, font=font, fill=th.INK if ok else th.BAD)
            x += probe.textlength(f"✓ {text}", font=font) + 24
        y += 24
    return y


def _station_rows(d: ImageDraw.ImageDraw, lines: list[str], seat: int, width: int, y: int) -> int:
    """A seat's train stations (a house in its colour and symbol, then what the station did);
    returns the y below."""
    font = th.font(15)
    for line in lines:
        station_house(d, (107, y + 10), seat, 0.7, 1)
        d.text((124, y), dr.fit_text(d, line, font, width - 150), font=font, fill=th.INK)
        y += 24
    return y


def render_final_png(
    layout: Layout, public_view: PublicView, names: Sequence[str] | None = None, *, lang: str = "en"
) -> bytes:
    """:func:`final_image` as PNG bytes (arguments the same)."""
    return dr.encode(final_image(layout, public_view, names, lang=lang))


def final_image(
    layout: Layout, public_view: PublicView, names: Sequence[str] | None = None, *, lang: str = "en"
) -> Image.Image:
    """The end of the game as an RGB image: the board with each longest-path winner's path framed in gold,
    then the ranking with every seat's breakdown (routes, tickets, the map's bonuses, total), a line
    of facts per seat (route points, tickets completed ✓ / failed ✗ with their net points, longest
    path length and bonus, Globetrotter and other bonuses), a ⚑ mark on seats that resigned,
    every ticket with its value as completed (✓ +n) or failed (✗ −n), and on Europe each train
    station (drawn on the board at its city in the owner's colour and symbol) with the route of
    another player it used and the tickets that completed (:func:`station_lines`). ``public_view.result`` must be
    set (the game is over); without it this is the plain board."""
    public = public_view
    board = board_image(layout, public, names, lang)
    if public.result is None:
        return board
    draw = dr.canvas(board)
    for routes in longest_routes(layout, public).values():
        highlight(draw, layout, routes, width=4)
    draw_stations(draw, layout, public.stations)  # again: over a gold frame through its city
    table = _table(layout, public, seat_names(public, names), lang, board.width)
    out = Image.new("RGB", (board.width, board.height + table.height), th.PAPER)
    out.paste(board, (0, 0))
    out.paste(table, (0, board.height))
    return out


def _packed(
    probe: ImageDraw.ImageDraw, items: list[str], font: ImageFont.FreeTypeFont, width: float
) -> list[list[int]]:
    """``items`` (indexes) packed into lines of at most ``width`` px, ``  ·  `` between two items
    of a line; an item wider than a line gets a line of its own."""
    lines: list[list[int]] = [[]]
    used = 0.0
    gap = probe.textlength("  ·  ", font=font)
    for i, text in enumerate(items):
        room = probe.textlength(text, font=font)
        if lines[-1] and used + gap + room > width:
            lines.append([])
            used = 0.0
        used += (gap if lines[-1] else 0.0) + room
        lines[-1].append(i)
    return [line for line in lines if line]


def _words_wrapped(
    probe: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float
) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` px (a word longer than a line
    is cut with an ellipsis)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and probe.textlength(lines[-1] + " " + word, font=font) <= width:
            lines[-1] += " " + word
        else:
            lines.append(dr.fit_text(probe, word, font, width))
    return lines


class _PhoneSeat:
    """What the phone table says of one seat, as lines of text ready to draw."""

    def __init__(
        self, layout: Layout, s: SeatScore, w: Words, probe: ImageDraw.ImageDraw, width: int
    ) -> None:
        self.width = width
        width -= PHONE_INDENT + PHONE_MARGIN
        font = th.font(PHONE_TEXT)
        keys = list(layout.rules.breakdown_keys())
        parts = [f"{th.word(key, w)} {s.breakdown.get(key, 0)}" for key in keys]
        self.parts = [
            " · ".join(parts[i] for i in line) for line in _packed(probe, parts, font, width)
        ]
        facts = [
            f"{th.word('tickets', w)} {s.tickets_completed}✓ {s.tickets_failed}✗",
            th.word("longest_len", w, n=s.longest_path),
        ]
        self.facts = [
            " · ".join(facts[i] for i in line) for line in _packed(probe, facts, font, width)
        ]
        tickets = [(_ticket_text(layout, t, True), True) for t in s.completed] + [
            (_ticket_text(layout, t, False), False) for t in s.failed
        ]
        marked = [f"✓ {text}" for text, _ in tickets]
        self.tickets = [[tickets[i] for i in line] for line in _packed(probe, marked, font, width)]
        self.stations = [
            _words_wrapped(probe, line, font, width - 18) for line in station_lines(layout, s, w)
        ]

    def height(self) -> int:
        """Pixels the seat takes: its name row, then one 17 px line per line of text."""
        lines = len(self.parts) + len(self.facts) + len(self.tickets)
        return 30 + 17 * (lines + sum(len(st) for st in self.stations)) + 8


def _phone_table(
    layout: Layout, public: PublicView, names: list[str], lang: str, width: int
) -> Image.Image:
    """The ranking for a phone: per seat its rank, badge, name and total, then its breakdown,
    facts, tickets and stations as lines of text (nothing under :data:`PHONE_TEXT` px)."""
    result = public.result
    assert result is not None
    w = th.words(layout.rules, lang)
    probe = dr.canvas(Image.new("RGB", (1, 1)))
    seats = {s.seat: _PhoneSeat(layout, s, w, probe, width) for s in result.seats}
    img = Image.new("RGB", (width, 40 + sum(p.height() for p in seats.values())), th.PAPER)
    d = dr.canvas(img)
    d.text((PHONE_MARGIN, 10), th.word("finished", w), font=th.font(18, True), fill=th.INK)
    y = 40
    for rank, seat in enumerate(result.ranking, 1):
        y = _phone_seat(d, public, names[seat], seat, rank, seats[seat], w, y)
    return img


def _phone_seat(
    d: ImageDraw.ImageDraw,
    public: PublicView,
    name: str,
    seat: int,
    rank: int,
    lines: _PhoneSeat,
    w: Words,
    y: int,
) -> int:
    """One seat of the phone table from ``y``; returns the y below."""
    result = public.result
    assert result is not None
    width = lines.width
    winner = seat in result.winners
    if winner:
        d.rounded_rectangle((4, y, width - 4, y + 26), radius=6, fill=(255, 243, 196))
    d.text(
        (PHONE_MARGIN, y + 13),
        f"{1 if winner else rank}.",
        font=th.font(15, True),
        fill=th.INK,
        anchor="lm",
    )
    dr.seat_badge(d, (PHONE_INDENT + 2, y + 13), seat, r=10)
    resigned = public.players[seat].resigned
    label = name + (f"  ★ {th.word('winner', w)}" if winner else "")
    if resigned:
        label += f"  ⚑ {th.word('resigned', w)}"
    bold = th.font(15, True)
    d.text(
        (PHONE_INDENT + 18, y + 13),
        dr.fit_text(d, label, bold, width - PHONE_INDENT - 90),
        font=bold,
        fill=th.MUTED if resigned else th.INK,
        anchor="lm",
    )
    total = f"{th.word('total', w)} {result.seats[seat].score}"
    d.text((width - PHONE_MARGIN, y + 13), total, font=th.font(15, True), fill=th.INK, anchor="rm")
    y += 30
    font = th.font(PHONE_TEXT)
    for text in lines.parts:
        d.text((PHONE_INDENT, y), text, font=font, fill=th.INK)
        y += 17
    for text in lines.facts:
        d.text((PHONE_INDENT, y), text, font=font, fill=th.MUTED)
        y += 17
    for line in lines.tickets:
        x = float(PHONE_INDENT)
        for text, ok in line:
            mark = "✓ " if ok else "✗ "
            d.text((x, y), mark, font=th.font(PHONE_TEXT, True), fill=th.GOOD if ok else th.BAD)
            x += d.textlength(mark, font=font)
            d.text((x, y), text, font=font, fill=th.INK if ok else th.BAD)
            x += d.textlength(text + "  ·  ", font=font)
        y += 17
    for station in lines.stations:
        station_house(d, (PHONE_INDENT + 7, y + 8), seat, 0.55, 1)
        for text in station:
            d.text((PHONE_INDENT + 18, y), text, font=font, fill=th.INK)
            y += 17
    return y + 8


def phone_final_image(
    layout: Layout,
    public_view: PublicView,
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    width: int = PHONE_WIDTH,
) -> Image.Image:
    """The end of the game for a phone (RGB, ``width`` px wide): the phone map with the longest
    path(s) marked, then the ranking as lines of text, no text under :data:`PHONE_TEXT` px: each
    seat's rank, badge, name (★ winner, ⚑ resigned) and total, its breakdown (``Routes 45 ·
    Tickets 20 · ...``), tickets completed ✓ and failed ✗ with the longest path's length, every
    ticket with its value, and on Europe its train stations (:func:`station_lines`). Without
    ``public_view.result`` (the game is not over) this is :func:`render.phone_image`."""
    public = public_view
    if public.result is None:
        return phone_image(layout, public, names, lang=lang, width=width)
    paths = [r for routes in longest_routes(layout, public).values() for r in routes]
    board = phone_map(layout, public, highlight=paths, width=width)
    table = _phone_table(layout, public, seat_names(public, names), lang, width)
    out = Image.new("RGB", (width, board.height + table.height), th.PAPER)
    out.paste(board, (0, 0))
    out.paste(table, (0, board.height))
    return out


def render_phone_final_png(
    layout: Layout, public_view: PublicView, names: Sequence[str] | None = None, *, lang: str = "en"
) -> bytes:
    """:func:`phone_final_image` (500 px wide) as PNG bytes (arguments as :func:`final_image`)."""
    return dr.encode(phone_final_image(layout, public_view, names, lang=lang))
