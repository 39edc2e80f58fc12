"""The recap: an animated GIF of the board filling in, turn by turn.

Pure: made from the routes each turn claimed (route id -> seat) and the train
stations it built (city id -> seat, Europe), which the table's public turn log
holds, so no replay of the game is needed. Frames are drawn at the GIF's size
directly (the car spaces scaled, names placed for that size), one per turn that
claimed or built something, each turn's new routes framed and new stations
ringed in gold; one shared palette keeps the encoding fast and the file small.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from . import _draw as dr
from . import _theme as th
from ._board import base_layer, draw_stations
from ._layout import Layout
from ._zoom import phone_names

#: Width of the recap in pixels.
RECAP_WIDTH = 640
#: Milliseconds per frame, and for the last one.
FRAME_MS = 450
LAST_MS = 4000
CAPTION = 30
#: A train station's house on the recap, relative to the full board's (as on the phone board).
STATION_SIZE = 0.7


def _claim(draw: ImageDraw.ImageDraw, layout: Layout, rid: str, seat: int, k: float) -> None:
    shape = layout.routes.get(rid)
    if shape is None:
        return
    fill = th.seat_color(seat)
    for c in shape.cars:
        draw.polygon(dr.scaled(c.corners, k), fill=fill, outline=th.INK, width=1)


def _frame_gold(draw: ImageDraw.ImageDraw, layout: Layout, rids: Sequence[str], k: float) -> None:
    for rid in rids:
        shape = layout.routes.get(rid)
        if shape is None:
            continue
        for c in shape.cars:
            draw.polygon(dr.scaled(c.corners, k), outline=th.GOLD, width=2)


def _ring_gold(draw: ImageDraw.ImageDraw, layout: Layout, cities: Sequence[str], k: float) -> None:
    for cid in cities:
        at = layout.cities.get(cid)
        if at is None:
            continue
        x, y = at[0] * k, at[1] * k
        draw.ellipse((x - 11, y - 11, x + 11, y + 11), outline=th.GOLD, width=2)


def _caption(img: Image.Image, text: str, names: Sequence[str], seats: Sequence[int]) -> None:
    d = dr.canvas(img)
    h = img.height - CAPTION
    d.rectangle((0, h, img.width, img.height), fill=th.PANEL)
    d.text((10, h + 7), text, font=th.font(14, True), fill=th.PAPER)
    x = 10 + d.textlength(text, font=th.font(14, True)) + 16
    for seat in seats:
        dr.seat_badge(d, (x + 9, h + CAPTION / 2), seat, r=9)
        name = dr.fit_text(d, names[seat] if seat < len(names) else "", th.font(13), 120)
        d.text((x + 22, h + 8), name, font=th.font(13), fill=th.PAPER)
        x += 22 + d.textlength(name, font=th.font(13)) + 14


def recap_frames(
    layout: Layout,
    turns: Sequence[Mapping[str, int]],
    names: Sequence[str] = (),
    *,
    lang: str = "en",
    width: int = RECAP_WIDTH,
    stations: Sequence[Mapping[str, int]] = (),
) -> list[Image.Image]:
    """RGB frames: the empty board, then one per turn that claimed routes or built a train station
    (``turns[i]``: route id -> seat claimed in turn ``i``; ``stations[i]``: city id -> seat whose
    station was built in turn ``i``, Europe; turns with neither are skipped)."""
    k = width / layout.size[0]
    h = round(layout.size[1] * k)
    board = base_layer(layout).resize((width, h), Image.Resampling.BOX)
    labels = phone_names(layout, width)
    running = Image.new("RGB", (width, h + CAPTION), th.PANEL)
    running.paste(board, (0, 0))
    draw = dr.canvas(running)
    frames = []
    first = running.copy()
    first.paste(labels, (0, 0), labels)
    w = th.words(layout.rules, lang)
    _caption(first, th.word("setup", w), names, [])
    frames.append(first)
    built: dict[str, int] = {}
    for number in range(max(len(turns), len(stations))):
        claims = turns[number] if number < len(turns) else {}
        new = stations[number] if number < len(stations) else {}
        if not claims and not new:
            continue
        for rid, seat in claims.items():
            _claim(draw, layout, rid, seat, k)
        built.update(new)
        frame = running.copy()
        fd = dr.canvas(frame)
        _frame_gold(fd, layout, list(claims), k)
        # stations last, over the routes into their city (a later claim must not cover them)
        draw_stations(fd, layout, built, k=k, size=STATION_SIZE)
        _ring_gold(fd, layout, list(new), k)
        frame.paste(labels, (0, 0), labels)
        seats = sorted({*claims.values(), *new.values()})
        _caption(frame, th.word("turn", w, n=number), names, seats)
        frames.append(frame)
    return frames


def render_recap(
    layout: Layout,
    turns: Sequence[Mapping[str, int]],
    names: Sequence[str] = (),
    *,
    lang: str = "en",
    width: int = RECAP_WIDTH,
    stations: Sequence[Mapping[str, int]] = (),
) -> bytes:
    """The recap as GIF bytes: the board ``width`` px wide filling in turn by turn (``turns[i]``: route
    id -> seat claimed in turn ``i``, e.g. from the table's turn log; ``stations[i]``: city id ->
    seat of the train station built in turn ``i``, drawn as on the board in the owner's colour
    and symbol), each turn's new routes framed and new stations ringed in gold and captioned with
    the turn and who played, the last frame held 4 s; 450 ms a frame.
    A whole game stays well under 8 MB and takes about a second on one core."""
    frames = recap_frames(layout, turns, names, lang=lang, width=width, stations=stations)
    palette = frames[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    gif = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    buf = io.BytesIO()
    gif[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=gif[1:],
        duration=[FRAME_MS] * (len(gif) - 1) + [LAST_MS],
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()
