"""Sample images of a map: ``python -m render sample --map usa --out docs/images/usa``.

Plays a seeded game with the heuristic AI (three seats, or the map's maximum)
and writes, for its middle and its end:

- ``board.png``: the mid-game board with the last turn's claims highlighted;
- ``board-phone.png``: the same 500 px wide;
- ``zoom.png``: seat 1's ticket cities, zoomed, in high contrast;
- ``hand.png``: seat 1's private hand with the ticket planner;
- ``final.png``: the end with the score explained;
- ``final-phone.png``: the same 500 px wide;
- ``recap.gif``: the board filling in, turn by turn.

This command is a tool (it plays a game and writes files); the renderer's
functions themselves stay pure.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

from engine import apply, new_game, player_view, public_view
from engine.ai import choose_action
from maps import available_maps, load_ruleset

from . import (
    load_layout,
    render_board_png,
    render_final_png,
    render_hand_png,
    render_phone_final_png,
    render_phone_png,
    render_recap,
    render_zoom_png,
)

NAMES = ["Åsa", "Björn", "Zoë", "Øystein", "Ülkü"]


def _small(png: bytes) -> bytes:
    """``png`` saved with Pillow's ``optimize`` (for the committed samples: a few per cent smaller
    than what the bot sends, which is 256 colours already, at several times the encoding time)."""
    buf = io.BytesIO()
    Image.open(io.BytesIO(png)).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def sample(
    map_id: str, out: Path, *, seed: int = 21, lang: str = "en", small: bool = False
) -> list[Path]:
    """Write the six sample files of ``map_id`` into ``out`` (created); returns their paths.
    ``small``: optimized PNGs and a 400 px recap (for docs/images)."""
    rules = load_ruleset(map_id)
    layout = load_layout(map_id)
    st = new_game(rules, seats=min(3, rules.params.max_players), seed=seed)
    states = [st]
    turns: list[dict[str, int]] = [{}]
    built: list[dict[str, int]] = [{}]  # train stations (Europe) per turn, as ``turns``
    while not st.finished:
        before, stood = dict(st.owners), dict(public_view(rules, st).stations)
        turn = st.turn
        st = apply(rules, st, choose_action(rules, st, st.seats_to_act()[0])).state
        states.append(st)
        while len(turns) <= st.turn:
            turns.append({})
            built.append({})
        turns[turn].update({r: s for r, s in st.owners.items() if r not in before})
        built[turn].update(
            {c: s for c, s in public_view(rules, st).stations.items() if c not in stood}
        )
    mid_i = len(states) // 2
    mid = states[mid_i]
    view = public_view(rules, mid)
    earlier = next(
        (s for s in reversed(states[:mid_i]) if s.turn < mid.turn - 2), states[0]
    )  # about the last round of turns
    highlight = [r for r in mid.owners if r not in earlier.owners]
    mine = player_view(rules, mid, 0)
    cities = [c for t in mine.tickets for c in (t.a, t.b)] or list(layout.cities)[:2]
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "board.png": render_board_png(layout, view, NAMES, lang=lang, highlight=highlight),
        "board-phone.png": render_phone_png(layout, view, NAMES, lang=lang, highlight=highlight),
        "zoom.png": render_zoom_png(
            layout, view, NAMES, cities=cities, marks=cities, lang=lang, high_contrast=True
        ),
        "hand.png": render_hand_png(mine, NAMES, lang=lang, layout=layout),
        "final.png": render_final_png(layout, public_view(rules, st), NAMES, lang=lang),
        "final-phone.png": render_phone_final_png(layout, public_view(rules, st), NAMES, lang=lang),
        "recap.gif": render_recap(
            layout, turns, NAMES, lang=lang, width=400 if small else 640, stations=built
        ),
    }
    if small:
        files = {n: _small(d) if n.endswith(".png") else d for n, d in files.items()}
    paths = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m render")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="write sample images of a map")
    s.add_argument("--map", required=True, choices=sorted(available_maps()))
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("--seed", type=int, default=21)
    s.add_argument("--lang", default="en", choices=("en", "de"))
    s.add_argument("--small", action="store_true", help="optimized PNGs, 400 px recap (docs)")
    args = parser.parse_args(argv)
    for path in sample(args.map, args.out, seed=args.seed, lang=args.lang, small=args.small):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
