"""The renderer on every map: empty, mid-game and finished boards, hands and final images."""

from __future__ import annotations

import io
import json
import math
from functools import lru_cache

import pytest
from PIL import Image

from engine import apply, new_game, player_view, public_view
from engine.ai import choose_action
from maps import available_maps, load_ruleset
from maps.loader import map_dirs
from render import (
    base_layer,
    blocked_routes,
    card_color,
    label_boxes,
    load_layout,
    longest_routes,
    render_board_png,
    render_final_png,
    render_hand_png,
    seat_color,
)
from render._board import PANEL_WIDTH
from render._layout import room_needed
from render._theme import BLOCKED

#: Every shipped map.
MAPS = ["usa", "germany", "nordic", "amsterdam", "paris", "europe"]
NAMES = ["Åsa", "Björn", "Zoë", "Øystein", "Ülkü"]


@lru_cache(maxsize=8)
def _game(map_id: str):
    """A seeded heuristic game: (rules, states from start to end)."""
    rules = load_ruleset(map_id)
    st = new_game(rules, seats=min(3, rules.params.max_players), seed=21)
    states = [st]
    while not st.finished:
        st = apply(rules, st, choose_action(rules, st, st.seats_to_act()[0])).state
        states.append(st)
    return rules, states


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _close(a, b, tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _sample(car, side: float = 1.0) -> tuple[float, float]:
    """A point inside a car space, a fifth of its length from the centre (where the owner's letter is)."""
    (cx, cy), a = car.centre, car.angle
    return cx + side * math.cos(a) * 0.22 * _length(car), cy + side * math.sin(a) * 0.22 * _length(
        car
    )


def _shows(img, car, color, tol: int = 12) -> bool:
    """Either half of the car space shows ``color`` (near a busy city the ends of routes may overlap)."""
    return any(_close(img.getpixel(_sample(car, side)), color, tol) for side in (1.0, -1.0))


def _length(car) -> float:
    return math.dist(car.corners[0], car.corners[1])


@pytest.mark.parametrize("map_id", MAPS)
def test_layout_covers_every_city_and_route(map_id: str) -> None:
    """layout.json names every city and route of the map, nothing else, inside its size, with room."""
    rules = load_ruleset(map_id)
    data = json.loads((map_dirs()[map_id] / "layout.json").read_text(encoding="utf-8"))
    assert set(data["cities"]) == set(rules.board.cities)
    assert set(data["routes"]) == set(rules.board.routes)
    w, h = data["size"]
    for c in data["cities"].values():
        assert 0 <= c["x"] <= w and 0 <= c["y"] <= h
    layout = load_layout(map_id)
    assert layout.source == "layout.json"
    for r in rules.board.routes.values():
        gap = math.dist(layout.cities[r.a], layout.cities[r.b])
        assert gap >= room_needed(r.length) * 0.99, (r.id, gap)
        assert len(layout.routes[r.id].cars) == r.length


@pytest.mark.parametrize("map_id", MAPS)
def test_background_points_lie_on_the_board(map_id: str) -> None:
    """background.json (Natural Earth or the stylised city water) stays within the board."""
    path = map_dirs()[map_id] / "background.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["source"] and data["style"] in ("geo", "city")
    w, h = load_layout(map_id).size
    for key in ("land", "foreign", "lakes", "rivers", "borders"):
        for item in data.get(key, []):
            pts = item["points"] if isinstance(item, dict) else item
            if data["style"] == "geo":
                assert all(-5 <= x <= w + 5 and -5 <= y <= h + 5 for x, y in pts), key
    if map_id in ("usa", "germany", "nordic", "europe"):
        assert data["style"] == "geo" and data["land"] and data["borders"]
    assert path.stat().st_size < 300_000


@pytest.mark.parametrize("map_id", MAPS)
def test_boards_render_at_every_stage(map_id: str) -> None:
    """Empty, mid-game and finished boards are PNGs of the layout's size plus the panel."""
    rules, states = _game(map_id)
    layout = load_layout(map_id)
    for st in (states[0], states[len(states) // 2], states[-1]):
        img = _png(render_board_png(layout, public_view(rules, st), NAMES))
        assert img.width == layout.size[0] + PANEL_WIDTH and img.height >= layout.size[1]


@pytest.mark.parametrize("map_id", MAPS)
def test_claimed_routes_carry_the_owner_colour(map_id: str) -> None:
    """Every claimed route's car spaces show its owner's seat colour; an unclaimed one its route colour."""
    rules, states = _game(map_id)
    layout = load_layout(map_id)
    st = states[len(states) * 2 // 3]
    img = _png(render_board_png(layout, public_view(rules, st), NAMES))
    assert st.owners
    names = list(label_boxes(layout).values())

    def under_name(p) -> bool:  # city names are drawn above the routes
        return any(
            x0 - 5 <= p[0] <= x1 + 5 and y0 - 5 <= p[1] <= y1 + 5 for x0, y0, x1, y1 in names
        )

    # every claimed route shows its owner's colour; where two routes cross, one covers a space of the other
    seen = right = 0
    for rid, seat in st.owners.items():
        samples = [_sample(car) for car in layout.routes[rid].cars if not under_name(_sample(car))]
        ok = sum(
            _shows(img, car, seat_color(seat))
            for car in layout.routes[rid].cars
            if not under_name(_sample(car))
        )
        assert ok >= 1 or not samples, (rid, seat)
        seen, right = seen + len(samples), right + ok
    assert seen >= 10 and right >= 0.95 * seen
    # unclaimed routes keep their colour; a city name or a crossing route may cover a few spaces
    shown = total = 0
    blocked = set(blocked_routes(layout, public_view(rules, st)))
    for rid in blocked:  # a double route's free track that can no longer be claimed is greyed
        assert any(_shows(img, car, BLOCKED) for car in layout.routes[rid].cars), rid
    for rid, route in rules.board.routes.items():
        if rid in st.owners or rid in blocked or route.locomotives or route.carts:
            continue  # symbols sit on some spaces
        cars = layout.routes[rid].cars
        ok = sum(
            _shows(img, car, card_color(route.color), tol=20) or under_name(_sample(car))
            for car in cars
        )
        assert ok >= 1, rid
        shown, total = shown + ok, total + len(cars)
    assert total > 20 and shown >= 0.9 * total


@pytest.mark.parametrize("map_id", MAPS)
def test_city_names_stay_inside_the_board(map_id: str) -> None:
    """Every name box lies inside the board area (text never leaves the image), one per place (cities
    and Germany's neighbouring countries)."""
    layout = load_layout(map_id)
    w, h = layout.size
    boxes = label_boxes(layout)
    assert set(boxes) == set(layout.rules.board.cities)
    for x0, y0, x1, y1 in boxes.values():
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h


@pytest.mark.parametrize("map_id", MAPS)
def test_hand_and_final_images(map_id: str) -> None:
    """The hand image renders for a seat mid-game; the final image adds the score table below the board."""
    rules, states = _game(map_id)
    layout = load_layout(map_id)
    mid = states[len(states) // 2]
    hand = _png(render_hand_png(player_view(rules, mid, 0), NAMES, lang="de"))
    assert hand.width == 1000 and hand.height > 200
    final_view = public_view(rules, states[-1])
    board = _png(render_board_png(layout, final_view, NAMES))
    final = _png(render_final_png(layout, final_view, NAMES))
    assert final.width == board.width and final.height > board.height + 100


def test_final_frames_the_longest_path() -> None:
    """The longest-path winner's routes are framed in gold on the final image (USA)."""
    rules, states = _game("usa")
    layout = load_layout("usa")
    view = public_view(rules, states[-1])
    paths = longest_routes(layout, view)
    assert paths and all(paths.values())
    seat, routes = next(iter(paths.items()))
    assert len(routes) == len(set(routes))
    assert sum(rules.board.routes[r].length for r in routes) == view.result.seats[seat].longest_path
    img = _png(render_final_png(layout, view, NAMES))
    car = layout.routes[routes[0]].cars[0]
    assert any(_close(img.getpixel(p), (255, 210, 40), tol=30) for p in car.corners)


def test_every_map_is_covered() -> None:
    """The tests above run on every shipped map."""
    assert set(MAPS) == set(available_maps())


def test_base_layer_is_cached() -> None:
    """The static layer is drawn once per map."""
    layout = load_layout("usa")
    assert base_layer(layout) is base_layer(layout)
