"""Renderer speed and size: a mid-game board per map.

``python -m benchmarks render [--json] [--runs N]``

Per map: render time of ``render_board_png`` (p50/p99, base layer already
cached, as in a running bot), the PNG size, and the time of a bare PNG encode
of the same final image with the same settings; ``render_to_encode_ratio`` is
render p50 / encode p50 (goal <= 1.5), ``png_bytes`` the goal < 1.5 MB. Also
the one-time cost of the base layer per map (``first_ms``). ``recap_s`` and
``recap_bytes``: the recap GIF of a whole game per map (goal <= 3 s, < 8 MB).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from engine import apply, new_game, public_view
from engine.ai import choose_action
from maps.loader import load_ruleset
from render import load_layout, render_board_png, render_recap
from render._board import board_image
from render._draw import encode

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris")
NAMES = ["Alice", "Björn", "Çağla", "Dmitri", "Eve"]


def _game(map_id: str) -> tuple[Any, list[dict[str, int]]]:
    """A mid-game public view and the routes each turn of the whole game claimed."""
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
    return public_view(rules, states[len(states) * 2 // 3]), turns


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks render")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args(argv)
    rows = {}
    for map_id in MAPS:
        view, turns = _game(map_id)
        t0 = time.perf_counter()
        layout = load_layout(map_id)
        png = render_board_png(layout, view, NAMES)
        first = time.perf_counter() - t0
        renders, encodes = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            png = render_board_png(layout, view, NAMES)
            renders.append(time.perf_counter() - t0)
        image = board_image(layout, view, NAMES, "en")
        for _ in range(args.runs):
            t0 = time.perf_counter()
            encode(image)
            encodes.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        gif = render_recap(layout, turns, NAMES)
        recap_s = time.perf_counter() - t0
        r50, e50 = statistics.median(renders), statistics.median(encodes)
        rows[map_id] = {
            "render_p50_ms": round(r50 * 1000, 1),
            "render_p99_ms": round(_pct(renders, 0.99) * 1000, 1),
            "encode_p50_ms": round(e50 * 1000, 1),
            "render_to_encode_ratio": round(r50 / e50, 2),
            "png_bytes": len(png),
            "size": list(image.size),
            "first_ms": round(first * 1000, 1),
            "recap_s": round(recap_s, 2),
            "recap_bytes": len(gif),
        }
    print(
        f"{'map':<10}{'render p50':>11}{'p99':>8}{'encode':>8}{'ratio':>7}{'PNG KB':>8}{'first':>8}"
        f"{'recap s':>9}{'GIF KB':>8}"
    )
    for map_id, r in rows.items():
        print(
            f"{map_id:<10}{r['render_p50_ms']:>11}{r['render_p99_ms']:>8}{r['encode_p50_ms']:>8}"
            f"{r['render_to_encode_ratio']:>7}{r['png_bytes'] // 1024:>8}{r['first_ms']:>8}"
            f"{r['recap_s']:>9}{r['recap_bytes'] // 1024:>8}"
        )
    worst = max(r["render_to_encode_ratio"] for r in rows.values())
    summary = {
        "maps": rows,
        "render_to_encode_ratio": worst,
        "png_bytes_max": max(r["png_bytes"] for r in rows.values()),
    }
    print(
        f"worst render_to_encode_ratio {worst} (goal <= 1.5); largest PNG {summary['png_bytes_max'] // 1024} KB "
        "(goal < 1536 KB)"
    )
    if args.json:
        print(json.dumps(summary))
    return 0
