"""Renderer speed and size: every image kind the bot sends, per map.

``python -m benchmarks render [--json] [--runs N] [--maps usa,paris]``

Per map and image kind (``board``: the turn message and ``/ttr board``; ``board_hc``: a
reader's private board in high contrast; ``phone``: the 500 px board; ``zoom``: ``/ttr board
region:`` around a player's ticket cities; ``hand``: ``/ttr hand``; ``final``: the final
message), as the cogs call it (base layers already cached, as in a running bot):

- ``ms_p50`` / ``ms_p99``: the whole ``render_*_png`` call, drawing and encoding;
- ``bytes``: the PNG sent (256 colours, see ``render._draw``; goal <= 200 KB);
- ``encode_ms``: the encoding alone (quantize + PNG) of the same picture;
- ``rgb_bytes`` / ``rgb_ms``: the same picture as a full-colour PNG at level 1, what was sent
  before the 256-colour images, for comparison.

``render_to_encode_ratio`` is the board's render p50 over its encode p50 (goal <= 1.5). Also
the one-time cost of the base layer per map (``first_ms``) and the recap GIF of a whole game
(``recap_s``, ``recap_bytes``; goal <= 3 s, < 8 MB).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from engine import apply, new_game, player_view, public_view
from engine.ai import choose_action
from maps.loader import available_maps, load_ruleset
from render import (
    MAX_IMAGE_BYTES,
    board_image,
    encode,
    final_image,
    hand_image,
    load_layout,
    phone_image,
    render_board_png,
    render_final_png,
    render_hand_png,
    render_phone_png,
    render_recap,
    render_zoom_png,
    zoom_image,
)

NAMES = ["Alice", "Björn", "Çağla", "Dmitri", "Eve"]
KINDS = ("board", "board_hc", "phone", "zoom", "hand", "final")


def _game(map_id: str) -> tuple[Any, Any, Any, list[dict[str, int]]]:
    """A 4-player game (or the map's most): its rules, the state two thirds in, the end, and the
    routes each turn claimed."""
    rules = load_ruleset(map_id)
    st = new_game(rules, seats=min(4, rules.params.max_players), seed=5)
    states = [st]
    turns: list[dict[str, int]] = [{}]
    while not st.finished:
        before, turn = dict(st.owners), st.turn
        st = apply(rules, st, choose_action(rules, st, st.seats_to_act()[0], "random")).state
        states.append(st)
        while len(turns) <= st.turn:
            turns.append({})
        turns[turn].update({r: s for r, s in st.owners.items() if r not in before})
    return rules, states[len(states) * 2 // 3], st, turns


def _calls(map_id: str) -> tuple[dict[str, Callable[[], bytes]], dict[str, Image.Image], Any]:
    """Per kind: the call the cogs make, and the picture it encodes; and the recap's turns."""
    rules, mid, end, turns = _game(map_id)
    layout = load_layout(map_id)
    view, last = public_view(rules, mid), public_view(rules, end)
    mine = player_view(rules, mid, 0)
    cities = [c for t in mine.tickets for c in (t.a, t.b)]
    hl = [r for r, _ in turns[mid.turn - 1].items()] if mid.turn else []
    calls: dict[str, Callable[[], bytes]] = {
        "board": lambda: render_board_png(layout, view, NAMES, highlight=hl),
        "board_hc": lambda: render_board_png(layout, view, NAMES, highlight=hl, high_contrast=True),
        "phone": lambda: render_phone_png(layout, view, NAMES, highlight=hl),
        "zoom": lambda: render_zoom_png(layout, view, NAMES, cities=cities, marks=cities),
        "hand": lambda: render_hand_png(mine, NAMES, layout=layout),
        "final": lambda: render_final_png(layout, last, NAMES),
    }
    pictures = {
        "board": board_image(layout, view, NAMES, "en", highlight=hl),
        "board_hc": board_image(layout, view, NAMES, "en", highlight=hl, high_contrast=True),
        "phone": phone_image(layout, view, NAMES, highlight=hl),
        "zoom": zoom_image(layout, view, NAMES, cities=cities, marks=cities),
        "hand": hand_image(mine, NAMES, layout=layout),
        "final": final_image(layout, last, NAMES),
    }
    return calls, pictures, (layout, turns)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _timed(fn: Callable[[], Any], runs: int) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return times, out


def _full_colour(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def measure(map_id: str, runs: int) -> dict[str, Any]:
    """The figures of one map (see the module docstring)."""
    t0 = time.perf_counter()
    load_layout(map_id)
    calls, pictures, (layout, turns) = _calls(map_id)
    calls["board"]()
    first = time.perf_counter() - t0
    kinds: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        renders, png = _timed(calls[kind], runs)
        encodes, _ = _timed(lambda kind=kind: encode(pictures[kind]), runs)
        rgb_times, rgb = _timed(lambda kind=kind: _full_colour(pictures[kind]), max(3, runs // 4))
        kinds[kind] = {
            "ms_p50": round(statistics.median(renders) * 1000, 1),
            "ms_p99": round(_pct(renders, 0.99) * 1000, 1),
            "bytes": len(png),
            "encode_ms": round(statistics.median(encodes) * 1000, 1),
            "rgb_bytes": len(rgb),
            "rgb_ms": round(statistics.median(rgb_times) * 1000, 1),
            "size": list(pictures[kind].size),
        }
    t0 = time.perf_counter()
    gif = render_recap(layout, turns, NAMES)
    recap_s = time.perf_counter() - t0
    board = kinds["board"]
    return {
        "kinds": kinds,
        "render_to_encode_ratio": round(board["ms_p50"] / board["encode_ms"], 2),
        "first_ms": round(first * 1000, 1),
        "recap_s": round(recap_s, 2),
        "recap_bytes": len(gif),
    }


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks render")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--maps", default=",".join(available_maps()))
    args = ap.parse_args(argv)
    rows = {m: measure(m, args.runs) for m in args.maps.split(",") if m}
    print(
        f"{'map':<10}{'kind':<9}{'size':>10}{'ms p50':>8}{'p99':>7}{'KB':>6}{'encode':>8}"
        f"{'| full-colour KB':>17}{'ms':>6}"
    )
    for map_id, r in rows.items():
        for kind, k in r["kinds"].items():
            size = "x".join(map(str, k["size"]))
            print(
                f"{map_id:<10}{kind:<9}{size:>10}{k['ms_p50']:>8}{k['ms_p99']:>7}"
                f"{k['bytes'] // 1024:>6}{k['encode_ms']:>8}{k['rgb_bytes'] // 1024:>17}"
                f"{k['rgb_ms']:>6}"
            )
    print(f"{'map':<10}{'ratio':>7}{'first ms':>10}{'recap s':>9}{'GIF KB':>8}")
    for map_id, r in rows.items():
        print(
            f"{map_id:<10}{r['render_to_encode_ratio']:>7}{r['first_ms']:>10}"
            f"{r['recap_s']:>9}{r['recap_bytes'] // 1024:>8}"
        )
    largest = max(k["bytes"] for r in rows.values() for k in r["kinds"].values())
    worst = max(r["render_to_encode_ratio"] for r in rows.values())
    summary = {"maps": rows, "render_to_encode_ratio": worst, "png_bytes_max": largest}
    print(
        f"worst render_to_encode_ratio {worst} (goal <= 1.5); largest PNG {largest // 1024} KB "
        f"(goal <= {MAX_IMAGE_BYTES // 1024} KB)"
    )
    if args.json:
        print(json.dumps(summary))
    return 0
