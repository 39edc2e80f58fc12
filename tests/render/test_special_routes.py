"""Tunnels, ferries, double routes and the long routes on the boards that have them (Nordic,
Europe), and a hand that holds every kind of card.

Read on the static board (``base_layer``: background, free routes, dots; no names), so every
mark checked here is what a player sees before anything is claimed.
"""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image, ImageDraw

from engine import Cards, player_view
from engine.testing import build_state
from maps import load_ruleset
from render import _theme as th
from render import base_layer, load_layout, render_hand_png
from render._layout import Car
from render._theme import card_color

from .test_render import NAMES, _png


def _edge_dark(img: Image.Image, car: Car) -> float:
    """The share of 40 points along the car space's outline that are nearly black (the dashes)."""
    dark = 0
    for p, q in zip(car.corners, car.corners[1:] + car.corners[:1], strict=True):
        for s in range(10):
            t = (s + 0.5) / 10
            px = img.getpixel((round(p[0] + (q[0] - p[0]) * t), round(p[1] + (q[1] - p[1]) * t)))
            dark += sum(px) < 130
    return dark / 40


def _rainbow_near(img: Image.Image, car: Car) -> bool:
    x, y = car.centre
    return any(
        all(abs(a - b) <= 40 for a, b in zip(img.getpixel((x + dx, y + dy)), col, strict=True))
        for col in th.RAINBOW
        for dx in range(-4, 5)
        for dy in range(-4, 5)
    )


@pytest.mark.parametrize("map_id", ["nordic", "europe"])
def test_tunnels_and_ferries_are_marked(map_id: str) -> None:
    """Every tunnel car space has a dashed dark outline (other spaces almost never); every ferry
    shows one locomotive symbol per locomotive it needs, and other gray spaces (almost) none."""
    layout = load_layout(map_id)
    img = base_layer(layout)
    board = layout.rules.board
    plain = []
    for rid, route in board.routes.items():
        cars = layout.routes[rid].cars
        if route.color == "black":
            continue  # dark on dark: the dashes cannot be told from the fill
        if route.tunnel:
            assert min(_edge_dark(img, car) for car in cars) >= 0.12, rid
        else:
            plain += [_edge_dark(img, car) for car in cars]
    assert sum(plain) / len(plain) < 0.03
    extra = 0
    for rid, route in board.routes.items():
        cars = layout.routes[rid].cars
        marked = [_rainbow_near(img, car) for car in cars]
        assert marked[: route.locomotives] == [True] * route.locomotives, rid
        if route.color == "gray":
            extra += sum(marked[route.locomotives :])
    assert extra <= 2  # where ferries cross near a port, a neighbour's symbol may come close


def test_europe_ferries_cross_water() -> None:
    """Every ferry of Europe has car spaces on the sea (Natural Earth's land as drawn), 11 of the
    13 at least half of them (not the two tracks from inland Essen to København)."""
    layout = load_layout("europe")
    land = Image.new("1", layout.size, 0)
    draw = ImageDraw.Draw(land)
    for poly in layout.background["land"]:
        draw.polygon([tuple(p) for p in poly], fill=1)
    wet = {
        rid: sum(1 for car in layout.routes[rid].cars if not land.getpixel(car.centre))
        / route.length
        for rid, route in layout.rules.board.routes.items()
        if route.locomotives
    }
    assert len(wet) == 13 and min(wet.values()) > 0
    assert sorted(rid for rid, share in wet.items() if share < 0.5) == [
        "essen__kobenhavn__1",
        "essen__kobenhavn__2",
    ]


def test_europe_double_routes_run_side_by_side() -> None:
    """The two tracks of each of Europe's 11 double routes run parallel, one track width apart,
    and never overlap."""
    layout = load_layout("europe")
    board = layout.rules.board
    groups: dict[str, list[str]] = {}
    for rid, route in board.routes.items():
        groups.setdefault(route.group or rid, []).append(rid)
    doubles = [sorted(rids) for rids in groups.values() if len(rids) == 2]
    assert len(doubles) == 11
    for a, b in doubles:
        for ca, cb in zip(layout.routes[a].cars, layout.routes[b].cars, strict=True):
            gap = math.dist(ca.centre, cb.centre)
            assert 12 <= gap <= 20, (a, b, gap)
            assert abs(math.sin(ca.angle - cb.angle)) < 0.1, (a, b)


def test_europe_long_routes_fill_their_distance() -> None:
    """The 6- and 8-space routes (Budapest-Kyïv, Palermo-Smyrna, Petrograd-Stockholm) have every
    space, none squeezed below the standard car length, in the route's colour."""
    layout = load_layout("europe")
    img = base_layer(layout)
    board = layout.rules.board
    long_routes = {rid: r for rid, r in board.routes.items() if r.length >= 6}
    assert sorted(long_routes) == [
        "budapest__kyiv__1",
        "palermo__smyrna__1",
        "petrograd__stockholm__1",
    ]
    for rid, route in long_routes.items():
        cars = layout.routes[rid].cars
        assert len(cars) == route.length
        assert min(math.dist(c.corners[0], c.corners[1]) for c in cars) >= 30
        for car in cars[route.locomotives :]:
            x, y = car.centre
            side = (x + math.cos(car.angle) * 8, y + math.sin(car.angle) * 8)
            px = img.getpixel(side)
            assert all(abs(p - c) <= 20 for p, c in zip(px, card_color(route.color), strict=True))
    for a, b in itertools.combinations(long_routes, 2):
        assert not set(layout.routes[a].path) & set(layout.routes[b].path)


def test_a_hand_of_all_nine_kinds_keeps_its_cards_in_one_row() -> None:
    """Eight colours and locomotives side by side; the ticket list starts below them (before,
    the ninth card wrapped under the list's heading)."""
    rules = load_ruleset("europe")
    hand = {c: 1 for c in rules.params.colors} | {"locomotive": 2}
    state = build_state(rules, seats=2, seed=3, hands={0: hand}, active=0)
    view = player_view(rules, state, 0)
    assert view.hand == Cards(hand)
    img = _png(render_hand_png(view, NAMES, layout=load_layout("europe")))
    # the ninth card (black, last in the row) ends the first row...
    black = img.getpixel((495, 75))
    assert all(abs(p - c) <= 30 for p, c in zip(black, card_color("black"), strict=True)), black
    # ...and nothing wrapped to a second row, where the ninth card used to cover the heading
    # (the panel's ground, within the 256-colour palette's rounding)
    ground = img.getpixel((45, 185))
    assert all(abs(p - c) <= 3 for p, c in zip(ground, th.PANEL, strict=True)), ground
