"""Legibility: names clear of routes and of each other, the phone board, zoom, last turn, contrast."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image, ImageDraw

from engine import player_view, public_view
from render import (
    label_boxes,
    load_layout,
    render_board_png,
    render_hand_png,
    render_phone_png,
    render_zoom_png,
    zoom_box,
)
from render._board import PANEL_WIDTH, panel_height
from render._labels import place_labels
from render._theme import GOLD

from .test_render import MAPS, NAMES, _game

Box = tuple[float, float, float, float]


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _car_mask(layout) -> Image.Image:
    mask = Image.new("1", layout.size, 0)
    draw = ImageDraw.Draw(mask)
    for shape in layout.routes.values():
        for car in shape.cars:
            draw.polygon(list(car.corners), fill=1)
    return mask


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("map_id", MAPS)
def test_no_name_covers_a_route_or_another_name(map_id: str) -> None:
    """No name box covers a pixel of any car space, a city dot or another name box."""
    layout = load_layout(map_id)
    boxes = label_boxes(layout)
    mask = _car_mask(layout)
    for cid, box in boxes.items():
        ibox = (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))
        assert mask.crop(ibox).getbbox() is None, (cid, box)
        for other, (x, y) in layout.cities.items():  # dots: radius 7
            nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
            assert math.hypot(nx - x, ny - y) > 7, (cid, other)
    for (a, ba), (b, bb) in itertools.combinations(boxes.items(), 2):
        assert not _overlap(ba, bb), (a, b)


def test_name_boxes_hold_their_text() -> None:
    """A name box is as wide as its widest line drawn at its size (the overlap test checks real text)."""
    from render import _theme as th

    for lab in place_labels(load_layout("amsterdam")).values():
        width = max(th.font(lab.size, True).getlength(line) for line in lab.lines)
        assert lab.box[2] - lab.box[0] == pytest.approx(width)
        assert lab.box[3] - lab.box[1] >= len(lab.lines) * lab.size


@pytest.mark.parametrize("map_id", MAPS)
def test_phone_board_is_500_px_wide_with_a_row_per_seat(map_id: str) -> None:
    """The phone board is 500 px wide: the map scaled, then one row per seat."""
    rules, states = _game(map_id)
    layout = load_layout(map_id)
    view = public_view(rules, states[len(states) // 2])
    img = _png(render_phone_png(layout, view, NAMES))
    assert img.width == 500
    map_h = round(layout.size[1] * 500 / layout.size[0])
    assert img.height == map_h + 8 + 26 * (view.num_seats + 1)


def test_zoom_crops_around_the_cities_at_full_resolution() -> None:
    """The zoom shows the asked cities' neighbourhood, not the whole board, at least at 1:1."""
    rules, states = _game("usa")
    layout = load_layout("usa")
    view = public_view(rules, states[len(states) // 2])
    box = zoom_box(layout, ["denver", "omaha"])
    for cid in ("denver", "omaha"):
        x, y = layout.cities[cid]
        assert box[0] < x < box[2] and box[1] < y < box[3]
    assert box[2] - box[0] < layout.size[0] / 2
    img = _png(render_zoom_png(layout, view, NAMES, cities=["denver", "omaha"]))
    assert img.width >= box[2] - box[0]
    with pytest.raises(ValueError):
        zoom_box(layout, ["atlantis"])
    # one pass over the cities: an iterator frames the same box (names included) as a list
    assert zoom_box(layout, iter(["denver", "omaha", "atlantis"])) == box


def test_last_turn_routes_are_highlighted() -> None:
    """``highlight`` draws a gold halo around the given claimed routes; nothing without it."""
    rules, states = _game("usa")
    layout = load_layout("usa")
    view = public_view(rules, states[len(states) // 2])
    rid = next(iter(view.owners))
    car = layout.routes[rid].cars[0]
    (cx, cy), a = car.centre, car.angle
    # a point just outside the car space, across the track
    px, py = cx - math.sin(a) * 9.5, cy + math.cos(a) * 9.5

    def gold_near(img: Image.Image) -> bool:
        return any(
            all(
                abs(c - g) <= 40
                for c, g in zip(img.getpixel((px + dx, py + dy)), GOLD, strict=True)
            )
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )

    assert gold_near(_png(render_board_png(layout, view, NAMES, highlight=[rid])))
    assert not gold_near(_png(render_board_png(layout, view, NAMES)))


def test_high_contrast_washes_out_the_free_routes() -> None:
    """High contrast: free route colours are paler, claimed cars keep their seat colour."""
    rules, states = _game("usa")
    layout = load_layout("usa")
    view = public_view(rules, states[len(states) // 2])
    plain = _png(render_board_png(layout, view, NAMES))
    bold = _png(render_board_png(layout, view, NAMES, high_contrast=True))
    free = next(
        r
        for r in layout.routes
        if r not in view.owners and layout.rules.board.routes[r].color == "blue"
    )
    p = layout.routes[free].cars[0].centre
    assert sum(bold.getpixel(p)) > sum(plain.getpixel(p)) + 60
    mine = _png(
        render_hand_png(player_view(rules, states[len(states) // 2], 0), NAMES, high_contrast=True)
    )
    assert mine.width == 1000


@pytest.mark.parametrize("map_id", MAPS)
def test_no_empty_band_under_short_boards(map_id: str) -> None:
    """The panel is only as tall as its content, so a wide board (Paris) has no empty band below."""
    rules, states = _game(map_id)
    layout = load_layout(map_id)
    view = public_view(rules, states[len(states) // 2])
    img = _png(render_board_png(layout, view, NAMES))
    assert img.height == max(layout.size[1], panel_height(layout, view))
    assert img.width == layout.size[0] + PANEL_WIDTH
    if map_id == "paris" and view.num_seats <= 3:
        assert img.height == layout.size[1]


@pytest.mark.parametrize("map_id", ["usa", "nordic"])
def test_recap_fills_the_board_turn_by_turn(map_id: str) -> None:
    """The recap GIF has the empty board and one frame per turn that claimed, loops, stays far under
    8 MB; its last frame shows every claimed route in its owner's colour."""
    from render import render_recap
    from render._recap import RECAP_WIDTH
    from render._theme import seat_color

    rules, states = _game(map_id)
    layout = load_layout(map_id)
    turns, prev = [], {}
    for st in states:
        turns.append({r: s for r, s in st.owners.items() if r not in prev})
        prev = dict(st.owners)
    data = render_recap(layout, turns, NAMES)
    assert data[:6] == b"GIF89a" and len(data) < 8_000_000
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 1 + sum(1 for t in turns if t)
    assert gif.width == RECAP_WIDTH and gif.info.get("loop") == 0
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    k = RECAP_WIDTH / layout.size[0]
    hits = 0
    for rid, seat in states[-1].owners.items():
        cars = layout.routes[rid].cars
        c = cars[len(cars) // 2].centre
        px = last.getpixel((round(c[0] * k), round(c[1] * k)))
        hits += all(abs(a - b) <= 40 for a, b in zip(px, seat_color(seat), strict=True))
    assert hits >= 0.8 * len(states[-1].owners)


@pytest.mark.parametrize("map_id", MAPS)
def test_phone_names_never_overlap(map_id: str) -> None:
    """The names placed for the 500 px board never overlap each other, and none is drawn below
    11 px there (what a phone reads)."""
    from render._zoom import PHONE_LABEL, PHONE_WIDTH

    layout = load_layout(map_id)
    k = PHONE_WIDTH / layout.size[0]
    sizes = tuple(round(s / k) for s in (PHONE_LABEL, PHONE_LABEL - 1, PHONE_LABEL - 2))
    labels = place_labels(layout, sizes)
    assert set(labels) == set(layout.cities)
    for a, b in itertools.combinations(labels.values(), 2):
        assert not _overlap(a.box, b.box), (a.city, b.city)
    assert min(max(8, round(lab.size * k)) for lab in labels.values()) >= 11


def test_final_marks_resigned_seats_and_frames_a_path_on_every_map() -> None:
    """A resigned seat changes the score table (the ⚑ mark); Germany (no longest-path bonus) still
    frames the longest path."""
    import dataclasses

    from render import longest_routes, render_final_png

    rules, states = _game("usa")
    layout = load_layout("usa")
    view = public_view(rules, states[-1])
    players = list(view.players)
    players[1] = dataclasses.replace(players[1], resigned=True)
    resigned = dataclasses.replace(view, players=tuple(players))
    a = _png(render_final_png(layout, view, NAMES))
    b = _png(render_final_png(layout, resigned, NAMES))
    board_h = layout.size[1]
    assert a.size == b.size
    assert (
        a.crop((0, board_h, a.width, a.height)).tobytes()
        != b.crop((0, board_h, b.width, b.height)).tobytes()
    )
    g_rules, g_states = _game("germany")
    g_view = public_view(g_rules, g_states[-1])
    paths = longest_routes(load_layout("germany"), g_view)
    assert paths
    for seat, routes in paths.items():
        length = sum(g_rules.board.routes[r].length for r in routes)
        assert length == g_view.result.seats[seat].longest_path


def test_phone_board_shows_long_route_lengths() -> None:
    """On the 500 px board, long free routes carry their length in a white disc (their spaces are too
    small to count); short ones do not."""
    from render._theme import PAPER
    from render._zoom import LENGTH_FROM

    rules, states = _game("usa")
    layout = load_layout("usa")
    view = public_view(rules, states[len(states) // 3])
    img = _png(render_phone_png(layout, view, NAMES))
    k = 500 / layout.size[0]
    board = rules.board

    def disc(rid: str) -> bool:
        cars = layout.routes[rid].cars
        x, y = cars[len(cars) // 2].centre
        px = img.getpixel((round(x * k - 4), round(y * k)))
        return all(abs(a - b) <= 30 for a, b in zip(px, PAPER, strict=True))

    long_free = [
        r
        for r, route in board.routes.items()
        if route.length >= LENGTH_FROM
        and r not in view.owners
        and not route.tunnel
        and not route.locomotives
        and route.color not in ("white", "gray")
        and not board.siblings(r)
    ]
    short_free = [
        r
        for r, route in board.routes.items()
        if route.length <= 2 and r not in view.owners and route.color != "white"
    ]
    assert len(long_free) >= 5 and short_free
    assert sum(map(disc, long_free)) >= 0.8 * len(long_free)
    # near cities a short route's middle may lie under a name's white halo or a dot
    assert sum(map(disc, short_free)) <= 0.4 * len(short_free)


@pytest.mark.parametrize("map_id", MAPS)
def test_phone_final_is_500_px_wide_and_no_text_under_11_px(map_id: str) -> None:
    """The phone's final image is 500 px wide (shown 1:1 on a phone) and every text on it, the
    place names included, is drawn at 11 px or more; it writes out each seat's breakdown and
    tickets, which the full table shows in columns a phone shrinks to 3 px."""
    from render import recorded_sizes, render_phone_final_png
    from render._zoom import phone_names

    rules, states = _game(map_id)
    layout = load_layout(map_id)
    view = public_view(rules, states[-1])
    assert view.result is not None
    phone_names.cache_clear()  # the names are drawn once per layout: draw them here
    with recorded_sizes() as drawn:
        img = _png(render_phone_final_png(layout, view, NAMES, lang="de"))
    assert img.width == 500
    shown = 500 / img.width
    assert drawn
    assert {width for _, _, width in drawn} == {500}  # the map, the names, the table
    assert min(size for _, size, _ in drawn) * shown >= 11, min(drawn, key=lambda d: d[1])
    texts = [t for t, _, _ in drawn]
    names = {line for c in layout.cities for line in place_labels(layout)[c].lines}
    assert any(t in names for t in texts)
    assert any("Strecken" in t for t in texts)  # the breakdown, in German
    board = rules.board
    for seat in view.result.seats:
        assert any(NAMES[seat.seat] in t for t in texts)
        for tid in seat.completed:
            t = board.tickets[tid]
            assert f"+{t.points} {board.cities[t.a].name} – {board.cities[t.b].name}" in texts
