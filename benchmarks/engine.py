"""Engine speed: whole random games per map and player count, legal-move generation included.

``python -m benchmarks engine [--json] [--games N] [--maps usa,paris] [--peer PATH]
[--clock wall|cpu]``

Each game is played from ``new_game`` to the end, every step choosing uniformly
among **all** legal actions (``engine.legal_actions``, every payment listed) with
a seeded ``random.Random`` outside the engine. Reported per map and player count
(medians over the games, milliseconds per whole game):

- ``legal_ms``: time inside ``legal_actions``;
- ``apply_ms``: time inside ``new_game`` and ``apply`` (final scoring included);
- ``total_ms``: the two together (the engine's share of a random game);
- ``actions``: mean actions per game.

The same games on the integer core (:mod:`engine.core`: ``Core.new``, ``legal``,
``step_seat``; the same legal lists, checked by tests/engine/test_core.py),
saying whether its mypyc build runs (``summary["core"]``, ``usa_4p_core_ms``).

Per map it also reports the worst longest-path time over the hard cases of
:mod:`benchmarks.trail_cases` (one player's legal network at full pieces),
each computed fresh (memo cleared), best of three runs per case.

``--search-longest-path SECONDS`` instead searches each map for slow
longest-path cases (adversarial local search; see :func:`search_longest_path`).

``--peer PATH`` adds, in the same process, random games of
edwisdom/ticket_to_ride's Python engine (``ticket_to_ride.engine``, USA only)
found under PATH or installed; never a dependency: without it the output says
"peer not installed". The last line with ``--json`` is one JSON object.

``--clock cpu`` times with this thread's CPU time instead of the wall clock,
for a machine that is busy with other work (both engines are timed alike).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.trail_cases import LONGEST_PATH_CASES
from engine import apply, legal_actions, new_game
from engine.core import COMPILED, FINISHED, Core
from engine.rules import ClassicRules
from maps import load_ruleset

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")
#: The headline figure: one 4-player USA game, legal moves and rules together.
HEADLINE = ("usa", 4)
#: ``--clock`` choices: wall-clock seconds, or this thread's CPU seconds.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
#: The clock every timing here uses (set by ``--clock``).
clock: Callable[[], float] = time.perf_counter


def random_game(rules: ClassicRules, seats: int, seed: int) -> tuple[float, float, int]:
    """Play one uniformly random game; return ``(legal seconds, apply seconds, actions)``."""
    chooser = random.Random(seed)
    tick = clock  # a local: cheaper to call in the loop
    t0 = tick()
    state = new_game(rules, seats=seats, seed=seed)
    apply_s = tick() - t0
    legal_s = 0.0
    n = 0
    while not state.finished:
        seat = state.seats_to_act()[0]
        t0 = tick()
        actions = legal_actions(rules, state, seat)
        t1 = tick()
        action = actions[chooser.randrange(len(actions))]
        t2 = tick()
        state = apply(rules, state, action).state
        t3 = tick()
        legal_s += t1 - t0
        apply_s += t3 - t2
        n += 1
    return legal_s, apply_s, n


def core_game(rules: ClassicRules, seats: int, seed: int) -> tuple[float, float, int]:
    """:func:`random_game` on the integer core (:mod:`engine.core`): ``Core.new``, then
    every step uniform over ``Core.legal`` (every payment listed) and ``step_seat``;
    ``(legal seconds, apply seconds, actions)``. Its legal lists are the value
    engine's (tests/engine/test_core.py)."""
    chooser = random.Random(seed)
    tick = clock
    t0 = tick()
    core = Core.new(rules, seats=seats, seed=seed)
    apply_s = tick() - t0
    legal_s = 0.0
    n = 0
    while core.phase != FINISHED:
        seat = core.to_act()[0]
        t0 = tick()
        actions = core.legal(seat)
        t1 = tick()
        action = actions[chooser.randrange(len(actions))]
        t2 = tick()
        core.step_seat(seat, action)
        t3 = tick()
        legal_s += t1 - t0
        apply_s += t3 - t2
        n += 1
    return legal_s, apply_s, n


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def map_rows(
    rules: ClassicRules,
    games: int,
    seats: Sequence[int],
    play: Callable[[ClassicRules, int, int], tuple[float, float, int]] = random_game,
) -> list[dict[str, Any]]:
    """One row per player count: medians over ``games`` seeded random games of ``play``."""
    rows = []
    for n in seats:
        legal, applied, totals, actions = [], [], [], []
        for seed in range(games):
            lg, ap, k = play(rules, n, seed)
            legal.append(lg)
            applied.append(ap)
            totals.append(lg + ap)
            actions.append(k)
        rows.append(
            {
                "seats": n,
                "total_ms": _ms(statistics.median(totals)),
                "legal_ms": _ms(statistics.median(legal)),
                "apply_ms": _ms(statistics.median(applied)),
                "total_ms_max": _ms(max(totals)),
                "actions": round(statistics.mean(actions), 1),
            }
        )
    return rows


def longest_path_worst(rules: ClassicRules, repeats: int = 3) -> tuple[float, int]:
    """``(worst ms, cases)``: the slowest fresh longest-path computation over the map's hard cases."""
    board = rules.board
    worst = 0.0
    cases = [ids for map_id, ids in LONGEST_PATH_CASES if map_id == rules.map_id]
    for ids in cases:
        worst = max(worst, _fresh_ms(board, ids, repeats))
    board._trails.clear()
    return round(worst, 2), len(cases)


def _fresh_ms(board: Any, ids: Sequence[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        board._trails.clear()
        t0 = clock()
        board.longest_path(ids)
        best = min(best, clock() - t0)
    return best * 1000


def search_longest_path(
    rules: ClassicRules, seconds: float, seed: int = 0
) -> tuple[float, tuple[str, ...]]:
    """Adversarial local search for a slow longest-path case on one map.

    States are one player's legal networks: at most one track of a double
    route, no more pieces than a player has. Starting from random knots grown
    to the piece limit, it swaps a few routes for neighbours and keeps the
    change when the fresh (unmemoised) time does not drop. Returns
    ``(worst ms, sorted route ids)``; paste good finds into trail_cases.py.
    """
    board = rules.board
    pieces = rules.params.pieces
    rnd = random.Random(seed)
    ids = sorted(board.routes)

    def grow(chosen: list[str]) -> list[str]:
        used = sum(board.routes[r].length for r in chosen)
        groups = {board.routes[r].group for r in chosen}
        while True:
            cities = {c for r in chosen for c in (board.routes[r].a, board.routes[r].b)}
            cand = sorted(
                {
                    r
                    for c in cities
                    for r in board.adjacency[c]
                    if board.routes[r].group not in groups
                    and used + board.routes[r].length <= pieces
                }
            )
            if not cand:
                return chosen
            # short routes first make denser knots
            pick = min(rnd.sample(cand, min(3, len(cand))), key=lambda r: board.routes[r].length)
            chosen.append(pick)
            used += board.routes[pick].length
            groups.add(board.routes[pick].group)

    deadline = time.perf_counter() + seconds
    worst: tuple[float, tuple[str, ...]] = (0.0, ())
    while time.perf_counter() < deadline:
        current = grow([rnd.choice(ids)])
        score = _fresh_ms(board, current, 2)
        for _ in range(60):
            if time.perf_counter() >= deadline:
                break
            trial = list(current)
            for _ in range(rnd.randint(1, 3)):
                if len(trial) > 1:
                    trial.remove(rnd.choice(trial))
            trial = grow(trial)
            got = _fresh_ms(board, trial, 2)
            if got >= score:
                current, score = trial, got
        if score > worst[0]:
            worst = (_fresh_ms(board, current, 5), tuple(sorted(current)))
    board._trails.clear()
    return worst


def peer_rows(path: str | None, games: int, seats: Sequence[int]) -> dict[str, Any]:
    """Random USA games of edwisdom/ticket_to_ride's engine, or ``{"status": "peer not installed"}``."""
    if path:
        sys.path.insert(0, path)
    try:
        peer = importlib.import_module("ticket_to_ride.engine")
    except ImportError as exc:
        return {"status": "peer not installed", "detail": str(exc)}
    rows = []
    for n in seats:
        totals, actions = [], []
        for seed in range(games):
            try:
                game = peer.Game(peer.RuleConfig(n_players=n, track_history=False))
            except (TypeError, ValueError) as exc:
                return {"status": "peer API not understood", "detail": str(exc)}
            chooser = random.Random(seed)
            t0 = clock()
            state = game.new_initial_state(seed)
            k = 0
            while not state.is_terminal():
                legal = state.legal_actions()
                state.step(legal[chooser.randrange(len(legal))])
                k += 1
            totals.append(clock() - t0)
            actions.append(k)
        rows.append(
            {
                "seats": n,
                "total_ms": _ms(statistics.median(totals)),
                "actions": round(statistics.mean(actions), 1),
            }
        )
    return {"status": "ok", "map": "usa", "rows": rows}


def value_engine_rows(maps: list[str], games: int) -> dict[str, Any]:
    """Print and return the value engine's rows and worst longest-path case per map."""
    out: dict[str, Any] = {}
    for map_id in maps:
        rules = load_ruleset(map_id)
        p = rules.params
        rows = map_rows(rules, games, range(p.min_players, p.max_players + 1))
        for r in rows:
            print(
                f"{map_id:<10}{r['seats']:>6}{r['total_ms']:>10}{r['legal_ms']:>10}"
                f"{r['apply_ms']:>10}{r['total_ms_max']:>9}{r['actions']:>9}"
            )
        worst, cases = longest_path_worst(rules)
        print(f"{map_id:<10} longest path, worst of {cases} hard cases: {worst} ms")
        out[map_id] = {"rows": rows, "longest_path_worst_ms": worst}
    return out


def core_rows(maps: list[str], games: int) -> dict[str, Any]:
    """Print and return the integer core's rows per map."""
    print(f"the integer core ({'mypyc build' if COMPILED else 'pure Python'}):")
    out: dict[str, Any] = {}
    for map_id in maps:
        rules = load_ruleset(map_id)
        p = rules.params
        rows = map_rows(rules, games, range(p.min_players, p.max_players + 1), core_game)
        for r in rows:
            print(
                f"core {map_id:<5}{r['seats']:>6}{r['total_ms']:>10}{r['legal_ms']:>10}"
                f"{r['apply_ms']:>10}{r['total_ms_max']:>9}{r['actions']:>9}"
            )
        out[map_id] = {"rows": rows}
    return out


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks engine")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=10, help="games per map and player count")
    ap.add_argument("--maps", default=",".join(MAPS), help="comma-separated map ids")
    ap.add_argument("--peer", nargs="?", const="", default=None, metavar="PATH")
    ap.add_argument(
        "--search-longest-path",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="instead: search each map this long for slow longest-path cases",
    )
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = ap.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    maps = [m for m in args.maps.split(",") if m]
    if args.search_longest_path > 0:
        found = {}
        for map_id in maps:
            ms, case = search_longest_path(load_ruleset(map_id), args.search_longest_path)
            found[map_id] = {"worst_ms": round(ms, 2), "routes": list(case)}
            print(f"{map_id}: {ms:.2f} ms {case!r}")
        if args.json:
            print(json.dumps(found))
        return 0
    summary: dict[str, Any] = {"games": args.games, "clock": args.clock}
    print(
        f"whole random games, every legal action equally likely; {args.games} games per row;"
        f" {args.clock} clock"
    )
    print(
        f"{'map':<10}{'seats':>6}{'total ms':>10}{'legal ms':>10}{'apply ms':>10}"
        f"{'max ms':>9}{'actions':>9}"
    )
    summary["maps"] = value_engine_rows(maps, args.games)
    summary["core"] = {"compiled": COMPILED, "maps": core_rows(maps, args.games)}
    core_head = summary["core"]["maps"].get(HEADLINE[0], {}).get("rows", [])
    core_row = next((r for r in core_head if r["seats"] == HEADLINE[1]), None)
    if core_row:
        summary["usa_4p_core_ms"] = core_row["total_ms"]
        print(f"one 4-player USA random game on the core: {core_row['total_ms']} ms")
    head = summary["maps"].get(HEADLINE[0], {}).get("rows", [])
    row = next((r for r in head if r["seats"] == HEADLINE[1]), None)
    if row:
        summary["usa_4p_total_ms"] = row["total_ms"]
        summary["usa_4p_legal_ms"] = row["legal_ms"]
        summary["usa_4p_apply_ms"] = row["apply_ms"]
        print(
            f"one 4-player USA random game: {row['total_ms']} ms "
            f"(legal {row['legal_ms']} ms, apply {row['apply_ms']} ms)"
        )
    summary["longest_path_worst_ms"] = max(
        (m["longest_path_worst_ms"] for m in summary["maps"].values()), default=0.0
    )
    if args.peer is not None:
        peer = peer_rows(args.peer or None, args.games, (2, 3, 4, 5))
        summary["peer"] = peer
        if peer["status"] != "ok":
            print(f"peer: {peer['status']} ({peer.get('detail', '')})")
        else:
            for r in peer["rows"]:
                print(f"peer usa  {r['seats']:>6}{r['total_ms']:>10}{'':>29}{r['actions']:>9}")
    if args.json:
        print(json.dumps(summary))
    return 0
