"""Compare two AI agents like a lab: seed blocks in every seating, paired margins, a
sequential test that stops when the difference is decided.

``python -m benchmarks ai --compare A B [--maps usa,europe] [--seats 2] [--blocks N]
[--fixed] [--first-block F] [--workers K] [--record PATH] [--json]``

**Agents.** ``A`` and ``B`` are specs: a level (``easy``, ``normal``, ``hard``, ``expert``) with
optional settings after a colon, ``key=value`` separated by commas, passed to the
level's player class: ``hard:iterations=120``, ``hard:iterations=240,time_cap_s=1.4``,
``normal:careful_tunnels=0`` (the normal level as it played before tunnels were
weighed), ``normal:style=hard`` (the heuristic alone in the hard level's style of
weighing tickets), ``hard:plan=normal`` (hard as it played before it had that style),
``expert:time_cap_s=2`` (the expert with 2 s of CPU instead of 10). The hard
and expert levels read their cap on the CPU clock (``--cap-clock cpu`` of
:mod:`benchmarks.ai`), so a busy machine does not cut its search short. An agent's
identity (:func:`identity`) is a hash of its canonical spec and of the engine's source,
so two records of the same name played by different code are told apart.

**Blocks.** A block is one seed played in every seating: at ``n`` seats, ``n`` games,
``A`` in seat ``f`` and ``B`` in every other seat, for ``f = 0 .. n-1`` (two games at
2 players: ``A`` first, then ``B`` first); at more than 2 seats also the game of ``B``
in every seat, the baseline. The games of one block are **not independent**: they share
the deck order and the tickets dealt (the same seed), so a lucky deal helps the seat it
falls to in every game of the block. That is the point (the deal's luck cancels out
between the games), and it is also why every interval below resamples whole blocks,
never single games.

**The paired margin** of a game is the focal seat's score minus the best other score. A
block's paired margin is the mean over ``f`` of ``A``'s margin in seat ``f`` minus
``B``'s margin in seat ``f`` of the baseline (at 2 players the baseline's two margins
cancel, so it is not played and counts as 0): what putting ``A`` instead of ``B`` in a
seat is worth, in points, against the same opponents and the same deal.

**Stopping.** After each block its paired margin's sign is a Bernoulli trial (``A``
better: 1, ``B`` better: 0, a tie: no trial). Wald's sequential probability ratio test
(Wald 1945, "Sequential tests of statistical hypotheses", Ann. Math. Statist. 16(2),
117-186) of ``p = 0.4`` against ``p = 0.6`` with ``alpha = beta = 0.05`` stops as soon
as the log-likelihood ratio leaves ``(ln(beta/(1-alpha)), ln((1-beta)/alpha))``:
"A stronger" above, "B stronger" below; ``--blocks`` caps the blocks (no decision:
"undecided"). The sign test needs no model of the margins' spread, and the chess
engines' testing (Stockfish's fishtest) has long used the same test on game results.
``--fixed`` plays every block of ``--blocks`` without stopping (for a record, e.g.
ratings).

**Printed:** the blocks played and the decision; ``A``'s outright win rate in the games
where it sits among ``B`` with its Wilson 95% interval; the mean paired margin with a
bootstrap 95% interval (2,000 resamples of whole blocks, percentile method, a fixed
seed); per map the same. ``--record PATH`` appends every game as one JSON line
(``compare``, ``identity``, ``map``, ``seats``, ``seed``, ``block``, ``focal``, the
``agents`` by seat, the ``scores`` by seat, the focal ``margin``): what
``python -m benchmarks ai --ratings`` reads.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import apply, new_game
from engine.ai import (
    PLAYERS,
    EasyPlayer,
    ExpertPlayer,
    HardPlayer,
    HeuristicPlayer,
    Player,
    choose_action,
)
from engine.ai.heuristic import NORMAL_STYLE, hard_style
from maps import load_ruleset

#: The log-likelihood bounds and hypotheses of the sequential test (see the module docstring).
P0, P1, ALPHA, BETA = 0.4, 0.6, 0.05, 0.05
#: Bootstrap resamples of whole blocks.
RESAMPLES = 2000


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"hard:iterations=120"`` -> ``("hard", {"iterations": 120})``; values are read as
    int, then float, else kept as text. Raises ValueError for an unknown level or a
    malformed setting."""
    level, _, rest = spec.partition(":")
    if level not in ("easy", "normal", "hard", "expert"):
        raise ValueError(f"unknown AI level {level!r} in {spec!r}")
    settings: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"malformed setting {item!r} in {spec!r} (want key=value)")
        settings[key] = _number(value)
    return level, settings


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def canonical(spec: str) -> str:
    """The spec with its settings sorted: ``hard:b=1,a=2`` -> ``hard:a=2,b=1``; a plain level
    stays as it is."""
    level, settings = parse_spec(spec)
    if not settings:
        return level
    return level + ":" + ",".join(f"{k}={settings[k]}" for k in sorted(settings))


def source_digest() -> str:
    """SHA-256 (16 hex digits) of the engine's Python source, file by file in path order."""
    root = Path(__file__).resolve().parent.parent / "engine"
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\n" + path.read_bytes())
    return digest.hexdigest()[:16]


def identity(spec: str, source: str | None = None) -> str:
    """An agent's identity: 16 hex digits of SHA-256 over its canonical spec and
    ``source`` (default :func:`source_digest`)."""
    text = f"{canonical(spec)}\n{source_digest() if source is None else source}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def make_player(spec: str) -> Player:
    """The player object a spec names (the hard and expert levels on the CPU clock)."""
    level, settings = parse_spec(spec)
    if level == "hard":
        return HardPlayer(**{"clock": time.thread_time, **settings})
    if level == "expert":
        return ExpertPlayer(**{"clock": time.thread_time, **settings})
    if not settings:
        return PLAYERS[level]
    if level == "normal" and "style" in settings:
        # normal:style=hard: the heuristic alone in the hard level's style
        style = settings.pop("style")
        if style not in ("hard", "normal"):
            raise SystemExit(f"{spec}: style is 'hard' or 'normal'")
        flags = {k: bool(v) for k, v in settings.items()}
        return HeuristicPlayer(**flags, style=hard_style if style == "hard" else NORMAL_STYLE)
    flags = {k: bool(v) for k, v in settings.items()}
    return EasyPlayer(**flags) if level == "easy" else HeuristicPlayer(**flags)


@dataclass(frozen=True)
class GameRecord:
    """One game of a block: the agents by seat, the final scores by seat, the winners'
    seats, and the focal seat (None: the baseline, ``B`` everywhere)."""

    map_id: str
    seed: int
    focal: int | None
    agents: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def margin(self, seat: int) -> int:
        """``seat``'s score minus the best other score."""
        return self.scores[seat] - max(s for i, s in enumerate(self.scores) if i != seat)


def play_game(map_id: str, seed: int, agents: tuple[str, ...], focal: int | None) -> GameRecord:
    """Play one game to the end, seat ``i`` taken by the agent ``agents[i]``."""
    rules = load_ruleset(map_id)
    players = {spec: make_player(spec) for spec in set(agents)}
    state = new_game(rules, seats=len(agents), seed=seed)
    while not state.finished:
        seat = state.seats_to_act()[0]
        action = choose_action(rules, state, seat, player=players[agents[seat]])
        state = apply(rules, state, action).state
    assert state.result is not None
    scores = tuple(s.score for s in state.result.seats)
    return GameRecord(map_id, seed, focal, agents, scores, tuple(state.result.winners))


def play_block(a: str, b: str, map_id: str, seats: int, seed: int) -> list[GameRecord]:
    """One block (see the module docstring): ``A`` in each seat among ``B``, and at more
    than 2 seats the baseline."""
    games = []
    for focal in range(seats):
        agents = tuple(a if i == focal else b for i in range(seats))
        games.append(play_game(map_id, seed, agents, focal))
    if seats > 2:
        games.append(play_game(map_id, seed, (b,) * seats, None))
    return games


def paired_margin(games: list[GameRecord]) -> float:
    """A block's paired margin: the mean over the focal seats of ``A``'s margin there minus
    the baseline's margin of that seat (0 without a baseline)."""
    base = next((g for g in games if g.focal is None), None)
    focal = [g for g in games if g.focal is not None]
    return sum(
        g.margin(g.focal) - (base.margin(g.focal) if base is not None else 0)
        for g in focal
        if g.focal is not None
    ) / len(focal)


def sprt(wins: int, losses: int) -> str | None:
    """Wald's test on ``wins`` and ``losses`` of blocks: ``"A"``, ``"B"`` or None (go on)."""
    llr = wins * math.log(P1 / P0) + losses * math.log((1 - P1) / (1 - P0))
    if llr >= math.log((1 - BETA) / ALPHA):
        return "A"
    if llr <= math.log(BETA / (1 - ALPHA)):
        return "B"
    return None


def bootstrap(
    values: list[float], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """Percentile 95% interval of the mean of ``values`` (one per block), resampling blocks
    with replacement; ``(0, 0)`` for no values."""
    if not values:
        return 0.0, 0.0
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choice(values) for _ in range(n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[min(resamples - 1, int(0.975 * resamples))]


def blocks(
    maps: list[str], seats: int, count: int, first: int = 0
) -> Iterator[tuple[str, int, int]]:
    """``(map, seats, seed)`` of ``count`` blocks from block ``first`` on: the maps in turn,
    seed ``i`` for block ``i``; the seats cut to each map's range."""
    for i in range(first, first + count):
        map_id = maps[i % len(maps)]
        rules = load_ruleset(map_id)
        yield map_id, max(rules.params.min_players, min(seats, rules.params.max_players)), i


def ordered_blocks(
    a: str, b: str, todo: list[tuple[str, int, int]], workers: int
) -> Iterator[list[GameRecord]]:
    """The blocks of ``todo`` played on ``workers`` processes, yielded in order (a few run
    ahead; the caller may stop at any block)."""
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        pending: list[Future[list[GameRecord]]] = []
        queue = list(todo)
        try:
            while queue or pending:
                while queue and len(pending) < 2 * max(1, workers):
                    map_id, seats, seed = queue.pop(0)
                    pending.append(pool.submit(play_block, a, b, map_id, seats, seed))
                yield pending.pop(0).result()
        finally:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=False, cancel_futures=True)


@dataclass
class Tally:
    """What the blocks played so far show, overall or for one map."""

    blocks: int = 0
    margins: list[float] | None = None
    a_games: int = 0
    a_wins: int = 0
    block_wins: int = 0
    block_losses: int = 0

    def add(self, games: list[GameRecord]) -> None:
        """Count one block."""
        if self.margins is None:
            self.margins = []
        self.blocks += 1
        margin = paired_margin(games)
        self.margins.append(margin)
        self.block_wins += margin > 0
        self.block_losses += margin < 0
        for g in games:
            if g.focal is not None:
                self.a_games += 1
                self.a_wins += g.winners == (g.focal,)

    def summary(self) -> dict[str, Any]:
        """Blocks, A's win rate with its Wilson interval, the mean paired margin with its
        bootstrap interval, and the blocks won and lost."""
        from benchmarks.ai import wilson

        margins = self.margins or []
        low, high = wilson(self.a_wins, self.a_games)
        m_low, m_high = bootstrap(margins)
        return {
            "blocks": self.blocks,
            "games_of_a": self.a_games,
            "a_win_rate": round(self.a_wins / self.a_games, 3) if self.a_games else 0.0,
            "a_win_rate_ci95": [round(low, 3), round(high, 3)],
            "paired_margin": round(sum(margins) / len(margins), 2) if margins else 0.0,
            "paired_margin_ci95": [round(m_low, 2), round(m_high, 2)],
            "blocks_won": self.block_wins,
            "blocks_lost": self.block_losses,
        }


def record_lines(a: str, b: str, games: list[GameRecord], ids: dict[str, str]) -> list[str]:
    """The JSON lines ``--record`` appends for one block's games."""
    lines = []
    for g in games:
        row = {
            "compare": [a, b],
            "identity": {spec: ids[spec] for spec in (a, b)},
            "map": g.map_id,
            "seats": len(g.agents),
            "seed": g.seed,
            "block": g.seed,
            "focal": g.focal,
            "agents": list(g.agents),
            "scores": list(g.scores),
            "winners": list(g.winners),
            "margin": g.margin(g.focal) if g.focal is not None else None,
        }
        lines.append(json.dumps(row))
    return lines


def compare(
    a: str,
    b: str,
    todo: list[tuple[str, int, int]],
    workers: int,
    *,
    fixed: bool = False,
    record: Path | None = None,
) -> dict[str, Any]:
    """Play the blocks of ``todo`` in order until the sequential test decides (all of them
    with ``fixed``); return the summary (overall, per map, the decision)."""
    ids = {spec: identity(spec) for spec in (a, b)}
    overall = Tally()
    per_map: dict[str, Tally] = {}
    decision: str | None = None
    out = record.open("a", encoding="utf-8") if record is not None else None
    try:
        for games in ordered_blocks(a, b, todo, workers):
            overall.add(games)
            per_map.setdefault(games[0].map_id, Tally()).add(games)
            if out is not None:
                out.write("".join(line + "\n" for line in record_lines(a, b, games, ids)))
                out.flush()
            decision = sprt(overall.block_wins, overall.block_losses)
            if decision is not None and not fixed:
                break
    finally:
        if out is not None:
            out.close()
    return {
        "a": a,
        "b": b,
        "identity": ids,
        "decision": {"A": f"{a} stronger", "B": f"{b} stronger"}.get(decision or "", "undecided"),
        **overall.summary(),
        "maps": {m: t.summary() for m, t in per_map.items()},
    }


def print_summary(result: dict[str, Any]) -> None:
    """The comparison as a few lines of text."""
    print(
        f"{result['a']} vs {result['b']}: {result['decision']} after {result['blocks']} blocks"
        f" (SPRT p {P0} vs {P1}, alpha = beta = {ALPHA}; blocks won {result['blocks_won']},"
        f" lost {result['blocks_lost']})"
    )
    rows = [("all", result), *sorted(result["maps"].items())]
    print(f"{'map':<10}{'blocks':>7}{'A wins':>8}{'95% CI':>15}{'margin':>9}{'95% CI':>17}")
    for name, r in rows:
        lo, hi = r["a_win_rate_ci95"]
        mlo, mhi = r["paired_margin_ci95"]
        print(
            f"{name:<10}{r['blocks']:>7}{r['a_win_rate']:>8.3f}{f'[{lo:.2f}, {hi:.2f}]':>15}"
            f"{r['paired_margin']:>+9.2f}{f'[{mlo:+.1f}, {mhi:+.1f}]':>17}"
        )


def main(argv: list[str]) -> int:
    """``--compare A B``: play, print the summary (and, with --json, one JSON line)."""
    from benchmarks.ai import MAPS

    ap = argparse.ArgumentParser(prog="python -m benchmarks ai --compare")
    ap.add_argument("--compare", nargs=2, required=True, metavar=("A", "B"))
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--blocks", type=int, default=400, help="at most this many blocks")
    ap.add_argument("--fixed", action="store_true", help="play every block; no early stop")
    ap.add_argument(
        "--first-block", type=int, default=0, help="start at this block (go on with a record)"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--record", type=Path, default=None, metavar="PATH")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    a, b = (canonical(s) for s in args.compare)
    maps = [m for m in args.maps.split(",") if m]
    start = time.perf_counter()
    todo = list(blocks(maps, args.seats, args.blocks, args.first_block))
    result = compare(a, b, todo, args.workers, fixed=args.fixed, record=args.record)
    result["seconds"] = round(time.perf_counter() - start)
    print_summary(result)
    if args.json:
        print(json.dumps(result))
    return 0
