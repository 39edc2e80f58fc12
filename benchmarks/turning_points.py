"""Does the analysis tell the truth? Its turning points over many games, per map.

``python -m benchmarks analysis --turning-points [--json] [--games N] [--maps usa,...]
[--seats N] [--rollouts R] [--budget-s S] [--first-seed S] [--out PATH]``

Per map it plays ``games`` games between normal AI seats (3 seats by default, as the
demo's games; seeds 100, 101, ... or from ``--first-seed``), analyses each as the bot does
(:func:`engine.ai.analysis.analyse`, at most ``rollouts`` per turn within ``budget_s``
seconds of CPU: the demo's budget is ``--rollouts 32``, the bot's the default) and
reports:

- ``points``: the turning points named, and ``card_share``: the share of them that are
  card draws (a turn whose move is ``cards``);
- ``draw_change``: a seat's mean absolute change of chance over the turns where it only
  drew cards (the last turn, which ends the game, left out), as the chart shows it: the
  estimate's noise and the luck of the draw; ``draw_own``: the same for the move's own
  change (:attr:`engine.ai.analysis.TurnChance.move_change`: the rollouts before and after
  paired in the same worlds, the cards drawn known on both sides), where the analysis
  has it;
- ``last_named``: games whose last turn (the jump to the real result) is a turning point;
- ``cpu_s``: the analysis's CPU seconds per game, at most.

``--out PATH`` appends one JSON line per game, its analysis included (a run cut short
keeps what it measured).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from engine import apply, new_game
from engine.ai import choose_action
from engine.ai.analysis import CPU_BUDGET_S, ROLLOUTS, analyse, game_turns
from maps.loader import available_maps, load_ruleset

#: Every map the bot offers.
MAPS = tuple(available_maps())


def game_figures(
    map_id: str, seats: int, seed: int, rollouts: int, budget_s: float
) -> dict[str, Any]:
    """One game between normal AI seats, analysed: its turning points' kinds and the mover's
    absolute change on each card-draw turn (see the module docstring)."""
    rules = load_ruleset(map_id)
    state = new_game(rules, seats=seats, seed=seed)
    actions = []
    while not state.finished:
        action = choose_action(rules, state, state.seats_to_act()[0])
        actions.append(action)
        state = apply(rules, state, action).state
    turns = game_turns(rules, seats=seats, seed=seed, actions=actions)
    c0 = time.process_time()
    analysis = analyse(rules, turns, rollouts=rollouts, cpu_budget_s=budget_s)
    cpu = time.process_time() - c0
    draws, own = [], []
    chances = analysis.turns
    for prev, cur in zip(chances, chances[1:-1], strict=False):
        if cur.move.kind == "cards" and cur.seat is not None:
            draws.append(abs(cur.chances[cur.seat] - prev.chances[cur.seat]))
            moved = getattr(cur, "move_change", None)  # None before the paired changes
            if moved is not None:
                own.append(abs(moved[cur.seat]))
    last = chances[-1].turn
    return {
        "map": map_id,
        "seed": seed,
        "turns": len(chances),
        "rollouts": analysis.rollouts,
        "cpu_s": round(cpu, 2),
        "points": [p.move.kind for p in analysis.turning_points],
        "last_named": any(p.turn == last for p in analysis.turning_points),
        "draw_changes": [round(d, 4) for d in draws],
        "draw_own": [round(d, 4) for d in own],
        "analysis": analysis.to_json(),
    }


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of the module docstring over ``games`` (rows of :func:`game_figures`)."""
    kinds = [k for g in games for k in g["points"]]
    draws = [d for g in games for d in g["draw_changes"]]
    own = [d for g in games for d in g.get("draw_own", ())]
    return {
        "games": len(games),
        "points": len(kinds),
        "card_points": kinds.count("cards"),
        "card_share": round(kinds.count("cards") / len(kinds), 3) if kinds else None,
        "draw_turns": len(draws),
        "draw_change": round(sum(draws) / len(draws), 4) if draws else None,
        "draw_own": round(sum(own) / len(own), 4) if own else None,
        "last_named": sum(1 for g in games if g["last_named"]),
        "cpu_s_max": max((g["cpu_s"] for g in games), default=0.0),
        "rollouts_min": min((g["rollouts"] for g in games), default=0),
    }


def main(argv: list[str]) -> int:
    """Run the measurement; print a table and, with --json, one JSON object last."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks analysis --turning-points")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=20, help="games per map (default 20)")
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--seats", type=int, default=3, help="seats per game (default 3)")
    ap.add_argument("--rollouts", type=int, default=ROLLOUTS, help="rollouts per turn at most")
    ap.add_argument("--budget-s", type=float, default=CPU_BUDGET_S, help="CPU seconds per game")
    ap.add_argument("--first-seed", type=int, default=100, help="seed of the first game")
    ap.add_argument("--out", default=None, help="append one JSON line per game to this file")
    args = ap.parse_args(argv)
    rows: dict[str, Any] = {}
    every: list[dict[str, Any]] = []
    print(
        f"{'map':<10}{'games':>6}{'points':>8}{'cards':>7}{'share':>7}"
        f"{'draw |change|':>15}{'draw own':>10}{'last named':>12}{'CPU s max':>11}"
    )
    for map_id in [m for m in args.maps.split(",") if m]:
        games = []
        for g in range(args.games):
            row = game_figures(
                map_id, args.seats, args.first_seed + g, args.rollouts, args.budget_s
            )
            games.append(row)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
        every += games
        rows[map_id] = s = summary(games)
        print(
            f"{map_id:<10}{s['games']:>6}{s['points']:>8}{s['card_points']:>7}"
            f"{s['card_share'] if s['card_share'] is not None else '-':>7}"
            f"{s['draw_change'] if s['draw_change'] is not None else '-':>15}"
            f"{s['draw_own'] if s['draw_own'] is not None else '-':>10}"
            f"{s['last_named']:>12}{s['cpu_s_max']:>11}"
        )
    total = summary(every)
    print(
        f"{'all':<10}{total['games']:>6}{total['points']:>8}{total['card_points']:>7}"
        f"{total['card_share'] if total['card_share'] is not None else '-':>7}"
        f"{total['draw_change'] if total['draw_change'] is not None else '-':>15}"
        f"{total['draw_own'] if total['draw_own'] is not None else '-':>10}"
        f"{total['last_named']:>12}{total['cpu_s_max']:>11}"
    )
    if args.json:
        report = {
            "benchmark": "analysis --turning-points",
            "rollouts": args.rollouts,
            "budget_s": args.budget_s,
            "seats": args.seats,
            "maps": rows,
            "all": total,
        }
        print(json.dumps(report))
    return 0
