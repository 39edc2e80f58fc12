"""Write ``maps/<id>/layout.json`` and ``maps/<id>/background.json`` for the shipped maps.

    python tools/make_layout.py [--atlas DIR] [ids...]

Geometry: each city's real WGS84 latitude/longitude (from ``map.json``) is
projected (Mercator) and scaled to the board; a map may have a fisheye lens
(``LENS``: Europe, whose Channel-to-Alps cluster needs the room its eastern
edge can spare); hand nudges (``NUDGES``, in pixels, each with its reason) are
applied; then the same relaxation the renderer uses for maps without a layout
(``render._layout.relax``) pushes apart cities whose routes would not have room
for their car spaces. ``BENDS`` curve single routes by hand (ferries over
water). No position is measured on any publisher's or website's board image. A
map whose rule set is pending (Europe) is laid out from its classic stand-in,
the same board (``maps.load_stand_in``).

Background: for USA, Germany, Nordic Countries and Europe the land, country borders
and (for Germany) the neighbouring countries come from Natural Earth 1:50m
(public domain) through the npm package ``world-atlas@2`` (TopoJSON,
``countries-50m.json``). Fetch it once with ``npm pack world-atlas@2`` and
unpack it; pass its ``package`` folder as ``--atlas``. Amsterdam and Paris
get a stylised water layer drawn from a few real coordinates (the IJ, the
canal ring and the Amstel; the Seine). Every background point is moved like
the cities near it (inverse-distance weighted), so the land follows the nudges.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from maps.loader import load_stand_in  # noqa: E402
from render._layout import MARGIN, auto_bends, lanes_of, mercator, relax  # noqa: E402

#: Board width in pixels before the relaxation.
WIDTH = {
    "usa": 1400,
    "germany": 1000,
    "nordic": 1100,
    "amsterdam": 760,
    "paris": 900,
    "europe": 1400,
}

#: Hand nudges in pixels (dx, dy), applied after projecting and before relaxing.
NUDGES: dict[str, dict[str, tuple[float, float]]] = {
    "usa": {
        "vancouver": (
            0,
            -10,
        ),  # Vancouver-Seattle-Portland sit on one short line: give the names air
        "portland": (0, 12),
        "sault_st_marie": (0, -10),  # keep Sault St. Marie off the Duluth-Toronto line
    },
    "germany": {},
    "nordic": {},
    "amsterdam": {
        # the three western quarters (Jordaan, Westermarkt, De Drie Hendricken) lie within 400 m of
        # each other: spread them so their names and the double routes between them fit
        "jordaan": (-10, -45),
        "de_drie_hendricken": (-25, 45),
        "westermarkt": (25, 5),
        "jan_roodenpoortstoren": (25, 15),
    },
    "paris": {},
    # Europe, after the lens (LENS): each nudge gives a name on the 500 px board a place
    # beside its own dot instead of one across a neighbour's routes (measured with
    # tools/label_distances.py, then checked by eye on the sample images)
    "europe": {
        "amsterdam": (0, -25),  # Amsterdam, Essen and Bruxelles crowd the Rhine delta
        "essen": (25, -15),
        "bruxelles": (-20, 0),
        "paris": (0, 25),  # seven routes: room below Bruxelles and Dieppe
        "warszawa": (15, 10),
        "sevastopol": (0, -30),  # five routes around it: room on the Black Sea side
        "brindisi": (0, 35),  # Italy's heel, clear of the Roma-Brindisi and Sarajevo lines
        "sofia": (0, 20),
        "constantinople": (15, 15),
    },
}
#: Label sides chosen by hand where the automatic choice collides (empty: the renderer decides).
LABELS: dict[str, dict[str, str]] = {
    "usa": {},
    "amsterdam": {
        "westermarkt": "nw",
        "de_drie_hendricken": "s",
        "jan_roodenpoortstoren": "sw",
        "jordaan": "w",
        "dam": "se",
    },
}
#: Bends by hand (pixels the route's middle moves sideways), where two routes would overlap.
BENDS: dict[str, dict[str, float]] = {
    "germany": {"konstanz__schweiz__1": 25.0},  # would run along Lindau-Schweiz into the Swiss area
    "europe": {
        # ferries across water: Palermo-Smyrna south of Greece (straight, it would cross Athína),
        # Essen-København out over the Baltic, Athína-Brindisi round Greece's west coast
        "palermo__smyrna__1": 60.0,
        "athina__brindisi__1": -35.0,
        "essen__kobenhavn__1": 35.0,
        "essen__kobenhavn__2": 35.0,
        # the 8-space tunnel goes north round the Gulf of Finland, through Finland
        "petrograd__stockholm__1": 45.0,
    },
}
#: A fisheye lens on the projected board: (focus latitude, longitude, strength k). A point at
#: distance d from the focus moves to R(k+1)d/(kd+R) (R: the farthest city), so a crowded
#: middle gets room that the sparse edges give up (Europe: the Channel-to-Alps cluster against
#: Russia and Anatolia, as on the printed board). Every point stays on its ray from the focus,
#: in the same order, so no route comes to cross one it did not cross before.
LENS: dict[str, tuple[float, float, float]] = {"europe": (48.0, 12.0, 0.7)}
#: Extra board width (pixels) on the right, where the cities at the east edge need room for
#: their names beside them (Europe: Moskva, Kharkov, Rostov, Sochi, Erzurum).
EXTRA_RIGHT: dict[str, int] = {"europe": 90}
#: Natural Earth country name of the home country (others are drawn as "foreign" land).
HOME = {"germany": "Germany"}

# Stylised city water (lat, lon) polylines with widths in pixels.
CITY_WATER: dict[str, list[tuple[float, list[tuple[float, float]]]]] = {
    "amsterdam": [
        (
            34.0,
            [
                (52.3835, 4.860),
                (52.3800, 4.880),
                (52.3790, 4.900),
                (52.3800, 4.915),
                (52.3770, 4.935),
                (52.3760, 4.955),
            ],
        ),  # the IJ behind Centraal Station
        (7.0, [(52.3780, 4.891), (52.3740, 4.887), (52.3690, 4.887), (52.3665, 4.893)]),  # Singel
        (
            7.0,
            [
                (52.3795, 4.886),
                (52.3745, 4.883),
                (52.3680, 4.886),
                (52.3640, 4.893),
                (52.3635, 4.902),
            ],
        ),
        (
            7.0,
            [
                (52.3805, 4.883),
                (52.3740, 4.880),
                (52.3670, 4.883),
                (52.3620, 4.895),
                (52.3625, 4.905),
            ],
        ),
        (
            7.0,
            [
                (52.3815, 4.880),
                (52.3735, 4.877),
                (52.3655, 4.880),
                (52.3600, 4.893),
                (52.3610, 4.910),
            ],
        ),
        (
            12.0,
            [
                (52.3700, 4.898),
                (52.3660, 4.901),
                (52.3620, 4.905),
                (52.3570, 4.906),
                (52.3500, 4.910),
            ],
        ),  # Amstel
    ],
    "paris": [
        (
            22.0,
            [
                (48.8300, 2.3900),
                (48.8380, 2.3730),
                (48.8445, 2.3650),
                (48.8510, 2.3560),
                (48.8555, 2.3440),
                (48.8585, 2.3330),
                (48.8620, 2.3220),
                (48.8635, 2.3100),
                (48.8600, 2.2960),
                (48.8540, 2.2860),
                (48.8460, 2.2770),
                (48.8390, 2.2700),
            ],
        ),  # the Seine
    ],
}


# ---------------------------------------------------------------- transforms
def fit_transform(points: list[tuple[float, float]], width: float) -> tuple[float, float, float]:
    """``(scale, min_x, min_y)`` mapping ``points`` into ``width`` pixels with the renderer's margin."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    span_x = max(xs) - min(xs) or 1.0
    span_y = max(ys) - min(ys) or 1.0
    scale = (width - 2 * MARGIN) / max(span_x, span_y * 0.8)
    return scale, min(xs), min(ys)


def apply_fit(t: tuple[float, float, float], p: tuple[float, float]) -> tuple[float, float]:
    """Apply a :func:`fit_transform` result to one projected point (pixels)."""
    scale, mx, my = t
    return MARGIN + (p[0] - mx) * scale, MARGIN + (p[1] - my) * scale


def lens(
    p: tuple[float, float], focus: tuple[float, float], reach: float, k: float
) -> tuple[float, float]:
    """``p`` moved by the fisheye lens of strength ``k`` around ``focus`` (see :data:`LENS`)."""
    dx, dy = p[0] - focus[0], p[1] - focus[1]
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return p
    f = reach * (k + 1) / (k * d + reach)
    return focus[0] + dx * f, focus[1] + dy * f


def map_lens(
    map_id: str, t1: tuple[float, float, float], cities: list[tuple[float, float]]
) -> Callable[[tuple[float, float]], tuple[float, float]]:
    """The map's :data:`LENS` as a function on fitted board points (identity without one)."""
    if map_id not in LENS:
        return lambda p: p
    lat, lon, k = LENS[map_id]
    focus = apply_fit(t1, mercator(lat, lon))
    reach = max(math.dist(focus, p) for p in cities)
    return lambda p: lens(p, focus, reach, k)


def warp(
    p: tuple[float, float], anchors: list[tuple[tuple[float, float], tuple[float, float]]]
) -> tuple[float, float]:
    """Move ``p`` by the inverse-distance weighted displacement of the anchors ``(before, after)``."""
    sx = sy = sw = 0.0
    for (bx, by), (ax, ay) in anchors:
        w = 1.0 / ((p[0] - bx) ** 2 + (p[1] - by) ** 2 + 2500.0)
        sx += w * (ax - bx)
        sy += w * (ay - by)
        sw += w
    return p[0] + sx / sw, p[1] + sy / sw


# ---------------------------------------------------------------- topojson
def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """Absolute (lon, lat) arcs of a quantized TopoJSON file."""
    (kx, ky), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * kx + tx, y * ky + ty))
        arcs.append(pts)
    return arcs


def ring(arcs: list[list[tuple[float, float]]], indices: list[int]) -> list[tuple[float, float]]:
    """One closed ring of (lon, lat) from TopoJSON arc indices (``~i``: arc ``i`` reversed)."""
    out: list[tuple[float, float]] = []
    for i in indices:
        pts = arcs[i] if i >= 0 else arcs[~i][::-1]
        out.extend(pts if not out else pts[1:])
    return out


def polygons(geom: dict, arcs: list) -> list[list[tuple[float, float]]]:
    """Outer rings of a TopoJSON Polygon or MultiPolygon (holes are left out: none matter at this scale)."""
    if geom["type"] == "Polygon":
        return [ring(arcs, geom["arcs"][0])]
    if geom["type"] == "MultiPolygon":
        return [ring(arcs, poly[0]) for poly in geom["arcs"]]
    return []


def shared_arcs(geoms: list[dict]) -> set[int]:
    """Arcs used by two different countries: their common borders."""
    users: dict[int, set[int]] = {}
    for n, g in enumerate(geoms):
        groups = (
            g["arcs"]
            if g["type"] == "MultiPolygon"
            else [g["arcs"]]
            if g["type"] == "Polygon"
            else []
        )
        for poly in groups:
            for r in poly:
                for i in r:
                    users.setdefault(i if i >= 0 else ~i, set()).add(n)
    return {i for i, who in users.items() if len(who) > 1}


# ---------------------------------------------------------------- geometry helpers
def clip_polygon(
    poly: list[tuple[float, float]], box: tuple[float, float, float, float]
) -> list[tuple[float, float]]:
    """Sutherland-Hodgman clipping of ``poly`` to the rectangle ``box``."""
    x0, y0, x1, y1 = box
    edges = [
        (lambda p: p[0] >= x0, lambda p, q: _cut_x(p, q, x0)),
        (lambda p: p[0] <= x1, lambda p, q: _cut_x(p, q, x1)),
        (lambda p: p[1] >= y0, lambda p, q: _cut_y(p, q, y0)),
        (lambda p: p[1] <= y1, lambda p, q: _cut_y(p, q, y1)),
    ]
    out = poly
    for inside, cut in edges:
        if not out:
            break
        src, out = out, []
        for i, q in enumerate(src):
            p = src[i - 1]
            if inside(q):
                if not inside(p):
                    out.append(cut(p, q))
                out.append(q)
            elif inside(p):
                out.append(cut(p, q))
    return out


def _cut_x(p, q, x):
    t = (x - p[0]) / ((q[0] - p[0]) or 1e-9)
    return (x, p[1] + t * (q[1] - p[1]))


def _cut_y(p, q, y):
    t = (y - p[1]) / ((q[1] - p[1]) or 1e-9)
    return (p[0] + t * (q[0] - p[0]), y)


def simplify(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas-Peucker simplification (iterative); a closed ring is simplified as two halves."""
    if len(pts) < 3:
        return pts
    if math.dist(pts[0], pts[-1]) < 1e-6:
        mid = len(pts) // 2
        return simplify(pts[: mid + 1], tol) + simplify(pts[mid:], tol)[1:]
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        ax, ay = pts[a]
        bx, by = pts[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy) or 1e-9
        best, idx = 0.0, -1
        for i in range(a + 1, b):
            d = abs(dy * (pts[i][0] - ax) - dx * (pts[i][1] - ay)) / norm
            if d > best:
                best, idx = d, i
        if best > tol and idx > 0:
            keep[idx] = True
            stack += [(a, idx), (idx, b)]
    return [p for p, k in zip(pts, keep, strict=True) if k]


def split_inside(line: list[tuple[float, float]], box) -> list[list[tuple[float, float]]]:
    """Pieces of a polyline whose points lie inside ``box``."""
    x0, y0, x1, y1 = box
    out, cur = [], []
    for p in line:
        if x0 <= p[0] <= x1 and y0 <= p[1] <= y1:
            cur.append(p)
        else:
            if len(cur) > 1:
                out.append(cur)
            cur = []
    if len(cur) > 1:
        out.append(cur)
    return out


def rounded(pts):
    """Points rounded to 0.1 px as JSON lists."""
    return [[round(x, 1), round(y, 1)] for x, y in pts]


# ---------------------------------------------------------------- main
def build(map_id: str, atlas: Path | None) -> tuple[dict, dict | None]:
    """``(layout.json data, background.json data or None)`` for ``map_id`` (see the module docstring)."""
    rules = load_stand_in(map_id)  # the map's own rule set; a pending map's classic stand-in
    board = rules.board
    raw = {cid: mercator(c.lat, c.lon) for cid, c in board.cities.items()}
    t1 = fit_transform(list(raw.values()), WIDTH[map_id])
    fitted = {cid: apply_fit(t1, p) for cid, p in raw.items()}
    lensed = map_lens(map_id, t1, list(fitted.values()))
    projected = {cid: lensed(p) for cid, p in fitted.items()}
    nudged = {
        cid: (
            p[0] + NUDGES.get(map_id, {}).get(cid, (0, 0))[0],
            p[1] + NUDGES.get(map_id, {}).get(cid, (0, 0))[1],
        )
        for cid, p in projected.items()
    }
    relaxed = relax(rules, nudged)
    t2 = fit_transform(list(relaxed.values()), max(WIDTH[map_id], _extent(relaxed) + 2 * MARGIN))
    final = {cid: apply_fit(t2, p) for cid, p in relaxed.items()}
    w = int(math.ceil(max(p[0] for p in final.values()) + MARGIN + EXTRA_RIGHT.get(map_id, 0)))
    h = int(math.ceil(max(p[1] for p in final.values()) + MARGIN))
    anchors = [(projected[c], relaxed[c]) for c in board.cities]

    def to_px(lat: float, lon: float) -> tuple[float, float]:
        """A WGS84 position on the board: projected, fitted, moved like its neighbouring cities."""
        return apply_fit(t2, warp(lensed(apply_fit(t1, mercator(lat, lon))), anchors))

    lanes = lanes_of(rules)
    bends = {**auto_bends(rules, final, lanes), **BENDS.get(map_id, {})}
    routes = {
        rid: {"lane": lanes[rid], "bend": round(bends.get(rid, 0.0), 1)}
        for rid in sorted(board.routes)
    }
    layout = {
        "format": 1,
        "map": map_id,
        "size": [w, h],
        "projection": {
            "kind": "mercator",
            "fit": [round(v, 6) for v in t1],
            "refit": [round(v, 6) for v in t2],
            "notes": "real WGS84 positions projected (Mercator), "
            + (f"a fisheye lens {list(LENS[map_id])}, " if map_id in LENS else "")
            + "hand nudges and the renderer's relaxation applied by tools/make_layout.py",
        },
        "cities": {
            cid: {
                "x": round(p[0], 1),
                "y": round(p[1], 1),
                "label": LABELS.get(map_id, {}).get(cid, ""),
            }
            for cid, p in sorted(final.items())
        },
        "routes": routes,
    }
    background = None
    box = (-4.0, -4.0, w + 4.0, h + 4.0)
    if map_id in CITY_WATER:
        rivers = [
            {"width": width, "points": rounded([to_px(la, lo) for la, lo in line])}
            for width, line in CITY_WATER[map_id]
        ]
        background = {
            "format": 1,
            "style": "city",
            "land": [],
            "foreign": [],
            "lakes": [],
            "borders": [],
            "rivers": rivers,
            "source": "hand-drawn from a few real coordinates of the city's water (tools/make_layout.py)",
        }
    elif atlas is not None:
        topo = json.loads((atlas / "countries-50m.json").read_text())
        version = json.loads((atlas / "package.json").read_text()).get("version", "2")
        arcs = decode_arcs(topo)
        geoms = topo["objects"]["countries"]["geometries"]
        lats = [c.lat for c in board.cities.values()]
        lons = [c.lon for c in board.cities.values()]
        pad = 12.0
        bbox = (min(lons) - pad, min(lats) - pad / 2, max(lons) + pad, max(lats) + pad / 2)

        def near(pts):
            """True when a ring has a point near the map's area."""
            return any(bbox[0] <= x <= bbox[2] and bbox[1] <= y <= bbox[3] for x, y in pts)

        land, foreign = [], []
        east = sum(lons) / len(lons) > 0

        def unwrap(poly):
            """Polygons crossing the antimeridian (Russia): keep longitudes continuous on the map's side."""
            if max(x for x, _ in poly) - min(x for x, _ in poly) <= 180:
                return poly
            return [
                (x + 360 if east and x < 0 else x - 360 if not east and x > 0 else x, y)
                for x, y in poly
            ]

        for g in geoms:
            name = (g.get("properties") or {}).get("name", "")
            for poly in map(unwrap, polygons(g, arcs)):
                if not near(poly):
                    continue
                px = clip_polygon([to_px(lat, lon) for lon, lat in poly], box)
                px = simplify(px, 1.2)
                if len(px) < 3:
                    continue
                (foreign if map_id in HOME and name != HOME[map_id] else land).append(rounded(px))
        borders = []
        for i in sorted(shared_arcs(geoms)):
            if not near(arcs[i]):
                continue
            for piece in split_inside([to_px(lat, lon) for lon, lat in arcs[i]], box):
                piece = simplify(piece, 1.0)
                if len(piece) > 1:
                    borders.append(rounded(piece))
        background = {
            "format": 1,
            "style": "geo",
            "land": land,
            "foreign": foreign,
            "lakes": [],
            "rivers": [],
            "borders": borders,
            "source": f"Natural Earth 1:50m (public domain) via the npm package world-atlas@{version} "
            "countries-50m.json; projected and simplified by tools/make_layout.py",
        }
    return layout, background


def _extent(points: dict) -> float:
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    return max(max(xs) - min(xs), (max(ys) - min(ys)) * 0.8)


def main(argv: list[str]) -> int:
    """Write the files of the given maps (default: all five); returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", nargs="*", default=list(WIDTH))
    ap.add_argument(
        "--atlas", type=Path, default=None, help="the unpacked world-atlas package folder"
    )
    args = ap.parse_args(argv)
    for map_id in args.ids:
        layout, background = build(map_id, args.atlas)
        folder = ROOT / "maps" / map_id
        (folder / "layout.json").write_text(
            json.dumps(layout, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        if background is not None:
            (folder / "background.json").write_text(
                json.dumps(background, separators=(",", ":")) + "\n", encoding="utf-8"
            )
        size = (folder / "background.json").stat().st_size if background else 0
        print(f"{map_id}: {layout['size'][0]}x{layout['size'][1]}, background {size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
