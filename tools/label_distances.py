"""How far each city name sits from its dot on the 500 px phone board (and the full board).

Run by a developer while tuning a map's layout (``tools/make_layout.py``: its
lens, nudges and bends)::

    python tools/label_distances.py europe [--top 12]

The renderer places every name off the car spaces, dots and other names
(``render._labels``); where a map is crowded that can push a name far from its
dot, joined by a leader line. This prints, per map, the names farthest from
their dots on the phone board (in phone pixels, with their font size there),
the sum of the distances over 6 px (the figure Europe's nudges were chosen to
lower: 650 px before the nudges, 473 after; USA 1,372, Nordic 494, Germany 941),
and the farthest names on the full board. It reads the map's layout files; a
pending map is drawn with its classic stand-in, as the renderer does.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import load_layout  # noqa: E402
from render._labels import Label, place_labels  # noqa: E402
from render._zoom import PHONE_LABEL, PHONE_WIDTH  # noqa: E402


def gap(label: Label, dot: tuple[float, float]) -> float:
    """Board pixels from the dot's centre to the nearest point of the name's box."""
    x0, y0, x1, y1 = label.box
    x, y = dot
    return math.hypot(min(max(x, x0), x1) - x, min(max(y, y0), y1) - y)


def report(map_id: str, top: int) -> str:
    """The lines printed for one map."""
    layout = load_layout(map_id)
    k = PHONE_WIDTH / layout.size[0]
    sizes = tuple(round(s / k) for s in (PHONE_LABEL, PHONE_LABEL - 1, PHONE_LABEL - 2))
    phone = sorted(
        (
            (round(gap(lab, layout.cities[cid]) * k, 1), cid, round(lab.size * k, 1))
            for cid, lab in place_labels(layout, sizes).items()
        ),
        reverse=True,
    )
    full = sorted(
        (
            (round(gap(lab, layout.cities[cid]), 1), cid)
            for cid, lab in place_labels(layout).items()
        ),
        reverse=True,
    )
    far = sum(d for d, _, _ in phone if d > 6)
    return "\n".join(
        [
            f"{map_id}: board {layout.size[0]}x{layout.size[1]}, phone names beyond 6 px "
            f"from their dot: {sum(1 for d, _, _ in phone if d > 6)} of {len(phone)}, "
            f"sum {far:.0f} px",
            "  phone (px, name, font px): "
            + ", ".join(f"{d} {cid} {s}" for d, cid, s in phone[:top]),
            "  full board (px, name): " + ", ".join(f"{d} {cid}" for d, cid in full[:top]),
        ]
    )


def main(argv: list[str]) -> int:
    """Print the report of each map given; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", nargs="+")
    ap.add_argument("--top", type=int, default=12, help="names listed per board")
    args = ap.parse_args(argv)
    for map_id in args.ids:
        print(report(map_id, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
