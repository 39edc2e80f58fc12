"""Board geometry: city positions and every car space of every route, in image pixels.

A map's geometry comes from ``maps/<id>/layout.json`` (written by
``tools/make_layout.py``: real WGS84 positions projected, then nudged by hand)
and its optional ``background.json``. Without a layout file, :func:`auto_layout`
projects the map's own latitudes and longitudes and relaxes them until every
route has room for its car spaces, so a map added through ``TTR_MAPS_DIR``
still renders.

Shapes: points are ``(x, y)`` floats, y pointing down; a car space is a
:class:`Car` (centre, angle in radians, four polygon corners).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from maps.loader import load_ruleset, map_dirs, read_layout

Point = tuple[float, float]

#: Car space size in pixels at the default board size.
CAR_LENGTH = 30.0
#: Car spaces stretch up to this length to fill the distance between two cities.
CAR_LENGTH_MAX = 120.0
CAR_WIDTH = 12.0
CAR_GAP = 3.0
#: Free space kept around a city dot before the first car space.
CITY_MARGIN = 11.0
#: Board margin (pixels) around the projected cities.
MARGIN = 70.0
#: Board width the automatic layout aims at.
AUTO_WIDTH = 1400.0


@dataclass(frozen=True, slots=True)
class Car:
    """One car space: ``centre``, ``angle`` (radians, along the route) and its 4 ``corners``."""

    centre: Point
    angle: float
    corners: tuple[Point, Point, Point, Point]


@dataclass(frozen=True, slots=True)
class RouteShape:
    """A route's drawn form: its car spaces from city ``a`` to ``b`` and the path they follow."""

    route_id: str
    cars: tuple[Car, ...]
    path: tuple[Point, ...]


@dataclass(frozen=True)
class Layout:
    """Everything the renderer needs to know of a map's geometry.

    Attributes:
        map_id: the map.
        rules: the map's ruleset (board, words, params).
        size: ``(width, height)`` of the board area in pixels.
        cities: city id -> ``(x, y)``.
        labels: city id -> label side (``n``, ``ne``, ... ``nw``).
        routes: route id -> :class:`RouteShape`.
        background: the parsed ``background.json`` or an empty dict.
        source: ``"layout.json"`` or ``"auto"``.
    """

    map_id: str
    rules: Any
    size: tuple[int, int]
    cities: dict[str, Point]
    labels: dict[str, str]
    routes: dict[str, RouteShape]
    background: dict[str, Any] = field(default_factory=dict)
    source: str = "auto"

    def __hash__(self) -> int:
        return hash((self.map_id, self.size, self.source))

    def __eq__(self, other: object) -> bool:
        return self is other


# ---------------------------------------------------------------- projection
def mercator(lat: float, lon: float) -> Point:
    """Web-Mercator-like projection (unit sphere, y down): ``(x, y)``."""
    lat = max(-85.0, min(85.0, lat))
    return math.radians(lon), -math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def fit(
    points: dict[str, Point], width: float, margin: float = MARGIN
) -> tuple[dict[str, Point], tuple[int, int]]:
    """Scale ``points`` so their extent fills ``width`` minus margins; returns the points and the size."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    span_x = max(xs) - min(xs) or 1.0
    span_y = max(ys) - min(ys) or 1.0
    scale = (width - 2 * margin) / max(span_x, span_y * 0.8)
    out = {
        k: (margin + (x - min(xs)) * scale, margin + (y - min(ys)) * scale)
        for k, (x, y) in points.items()
    }
    w = int(math.ceil(span_x * scale + 2 * margin))
    h = int(math.ceil(span_y * scale + 2 * margin))
    return out, (w, h)


def room_needed(length: int, lanes: int = 1) -> float:
    """Centre distance two cities need for a route of ``length`` spaces (pixels)."""
    return length * CAR_LENGTH + (length - 1) * CAR_GAP + 2 * CITY_MARGIN + 4.0 * (lanes > 1)


def relax(rules: Any, points: dict[str, Point], *, iterations: int = 400) -> dict[str, Point]:
    """Push cities apart until every route has room for its cars and no two dots crowd each other.

    Deterministic. Keeps the geography's arrangement: cities only move along the
    lines joining them to their neighbours.
    """
    pts = {k: list(v) for k, v in points.items()}
    board = rules.board
    pairs: dict[tuple[str, str], int] = {}
    for r in board.routes.values():
        key = (min(r.a, r.b), max(r.a, r.b))
        pairs[key] = max(pairs.get(key, 0), r.length)
    ids = sorted(pts)
    for _ in range(iterations):
        moved = 0.0
        for (a, b), length in pairs.items():
            need = room_needed(length)
            moved += _push(pts[a], pts[b], need, 0.5)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                moved += _push(pts[a], pts[b], 56.0, 0.5)
        if moved < 0.5:
            break
    return {k: (v[0], v[1]) for k, v in pts.items()}


def _push(p: list[float], q: list[float], need: float, share: float) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy)
    if d >= need:
        return 0.0
    if d < 1e-6:
        dx, dy, d = 1.0, 0.0, 1.0
    gap = (need - d) * share
    ux, uy = dx / d, dy / d
    p[0] -= ux * gap
    p[1] -= uy * gap
    q[0] += ux * gap
    q[1] += uy * gap
    return gap * 2


def auto_positions(
    rules: Any, width: float = AUTO_WIDTH
) -> tuple[dict[str, Point], tuple[int, int]]:
    """Project the map's cities (Mercator), fit them to ``width`` and relax them (see :func:`relax`)."""
    raw = {cid: mercator(c.lat, c.lon) for cid, c in rules.board.cities.items()}
    pts, _ = fit(raw, width)
    pts = relax(rules, pts)
    return fit(pts, width)  # the relaxation may have spread the extent


# ---------------------------------------------------------------- route geometry
def lanes_of(rules: Any) -> dict[str, float]:
    """Route id -> lane offset in track widths: parallel tracks of a group sit side by side."""
    groups: dict[str, list[str]] = {}
    for rid, r in rules.board.routes.items():
        groups.setdefault(r.group or rid, []).append(rid)
    out = {}
    for members in groups.values():
        members.sort()
        n = len(members)
        for i, rid in enumerate(members):
            out[rid] = i - (n - 1) / 2
    return out


def auto_bends(rules: Any, cities: dict[str, Point], lanes: dict[str, float]) -> dict[str, float]:
    """Route id -> perpendicular offset (pixels) of its midpoint, where a straight line would cross
    another city's dot or run on top of a different route between nearby cities."""
    bends: dict[str, float] = {}
    for rid, r in rules.board.routes.items():
        a, b = cities[r.a], cities[r.b]
        for cid, c in cities.items():
            if cid in (r.a, r.b):
                continue
            d, t, side = _distance_to_segment(c, a, b)
            if 0.08 < t < 0.92 and d < 20.0:
                bends[rid] = -math.copysign(26.0 - d, side or 1.0)
                break
    return bends


def _distance_to_segment(c: Point, a: Point, b: Point) -> tuple[float, float, float]:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy or 1.0
    t = ((c[0] - ax) * dx + (c[1] - ay) * dy) / L2
    t = max(0.0, min(1.0, t))
    px, py = ax + t * dx, ay + t * dy
    side = dx * (c[1] - ay) - dy * (c[0] - ax)
    return math.hypot(c[0] - px, c[1] - py), t, side


def route_shape(route: Any, a: Point, b: Point, lane: float, bend: float) -> RouteShape:
    """Car spaces of ``route`` between the points ``a`` and ``b`` (see module docstring)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d, dx / d
    off = lane * (CAR_WIDTH + 3.0)
    a2 = (a[0] + nx * off, a[1] + ny * off)
    b2 = (b[0] + nx * off, b[1] + ny * off)
    mid = ((a2[0] + b2[0]) / 2 + nx * bend, (a2[1] + b2[1]) / 2 + ny * bend)
    path = [_quad(a2, mid, b2, i / 48) for i in range(49)]
    cum = [0.0]
    for p, q in zip(path, path[1:], strict=False):
        cum.append(cum[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))
    total = cum[-1]
    n = route.length
    usable = max(total - 2 * CITY_MARGIN, n * 6.0)
    car = min(CAR_LENGTH_MAX, (usable - CAR_GAP * (n - 1)) / n)  # stretch to meet both cities
    run = n * car + (n - 1) * CAR_GAP
    start = (total - run) / 2
    cars = []
    for i in range(n):
        s = start + i * (car + CAR_GAP) + car / 2
        (cx, cy), angle = _at(path, cum, s)
        cars.append(_car((cx, cy), angle, car, CAR_WIDTH))
    return RouteShape(route.id, tuple(cars), tuple(path))


def _quad(p0: Point, p1: Point, p2: Point, t: float) -> Point:
    u = 1 - t
    # p1 is the curve's midpoint; the control point that passes through it is 2*p1 - (p0+p2)/2
    cx, cy = 2 * p1[0] - (p0[0] + p2[0]) / 2, 2 * p1[1] - (p0[1] + p2[1]) / 2
    return (
        u * u * p0[0] + 2 * u * t * cx + t * t * p2[0],
        u * u * p0[1] + 2 * u * t * cy + t * t * p2[1],
    )


def _at(path: list[Point], cum: list[float], s: float) -> tuple[Point, float]:
    for i in range(1, len(cum)):
        if cum[i] >= s or i == len(cum) - 1:
            seg = cum[i] - cum[i - 1] or 1.0
            f = (s - cum[i - 1]) / seg
            p, q = path[i - 1], path[i]
            return (p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f), math.atan2(
                q[1] - p[1], q[0] - p[0]
            )
    return path[-1], 0.0


def _car(c: Point, angle: float, length: float, width: float) -> Car:
    ca, sa = math.cos(angle), math.sin(angle)
    hl, hw = length / 2, width / 2
    corners = tuple(
        (c[0] + ca * x - sa * y, c[1] + sa * x + ca * y)
        for x, y in ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))
    )
    return Car(c, angle, corners)  # type: ignore[arg-type]


# ---------------------------------------------------------------- loading
def build_layout(
    rules: Any, data: dict[str, Any] | None, background: dict[str, Any] | None
) -> Layout:
    """A :class:`Layout` from parsed ``layout.json`` data (None: automatic) and background data."""
    lanes = lanes_of(rules)
    if data is not None:
        cities = {cid: (float(v["x"]), float(v["y"])) for cid, v in data["cities"].items()}
        size = (int(data["size"][0]), int(data["size"][1]))
        labels = {cid: str(v.get("label", "")) for cid, v in data["cities"].items()}
        route_data = data.get("routes", {})
        lanes = {rid: float(route_data.get(rid, {}).get("lane", lanes[rid])) for rid in lanes}
        bends = {rid: float(route_data.get(rid, {}).get("bend", 0.0)) for rid in lanes}
        source = "layout.json"
    else:
        cities, size = auto_positions(rules)
        labels = {}
        bends = auto_bends(rules, cities, lanes)
        source = "auto"
    routes = {
        rid: route_shape(r, cities[r.a], cities[r.b], lanes.get(rid, 0.0), bends.get(rid, 0.0))
        for rid, r in rules.board.routes.items()
    }
    return Layout(rules.map_id, rules, size, cities, labels, routes, background or {}, source)


@lru_cache(maxsize=32)
def load_layout(map_id: str) -> Layout:
    """The :class:`Layout` of ``map_id`` (cached): ``layout.json`` and ``background.json`` of its folder,
    or the automatic layout when there is no layout file. Raises ``maps.UnknownMap``."""
    rules = load_ruleset(map_id)
    data = read_layout(map_id)
    folder = map_dirs().get(map_id)
    background = None
    if folder is not None and (folder / "background.json").is_file():
        background = json.loads((folder / "background.json").read_text(encoding="utf-8"))
    return build_layout(rules, data, background)
