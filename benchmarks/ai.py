"""AI strength: the hard level against the normal level, per map.

``python -m benchmarks ai [--json] [--games N] [--maps usa,paris] [--workers K]
[--deadline-s S] [--iterations I] [--time-cap-s T] [--cap-clock wall|cpu] [--modes 2p,4p]
[--record PATH]``

Per map it plays ``N`` 2-player games hard vs normal (hard takes seat 0 and
seat 1 in turn) and ``N`` games of 1 hard + 3 normal (hard's seat rotates;
Nordic, a 2-3 player map, plays 1 hard + 2 normal). It prints the rates with
Wilson 95% intervals and the 99th percentile of hard's time per decision;
with ``--json`` the last line is one JSON object keyed by map::

    {"usa": {"games": 40, "games_4p": 40, "hard_vs_normal_2p": 0.7,
             "hard_win_4p": 0.5, "best_normal_win_4p": 0.2,
             "hard_move_p99_s": 1.2, ...}, "settings": {...}}

The maps are :data:`MAPS` (all six by default; Europe, a 2-5 player map, plays
1 hard + 3 normal like the others). A win is an outright win (a shared first
place is not counted).
``best_normal_win_4p`` is the highest outright win rate of a normal seat in
the 4-player games, the seats counted by their place after hard's (the first,
second or third to move after it), so "hard wins the most" reads
``hard_win_4p > best_normal_win_4p``. Games not
finished by ``--deadline-s`` seconds are left out and the counts say so. The
goal (for Europe): 2-player >= 0.65 and most 4-player games
won on every map, over >= 200 games per map at the default budget.

``--cap-clock`` says what the cap of ``--time-cap-s`` counts: ``wall`` (the
default, as in the bot) or ``cpu``, the CPU time of the thread that decides
(:func:`time.thread_time`). On a quiet core the two agree; on a shared machine
other work stretches the wall clock, so a wall cap cuts hard's search short
whenever the machine is busy, and a record would depend on what else ran
beside it. With ``cpu`` a run plays as a quiet core would however busy the
machine is (so two workers per core are fine), and hard's times are CPU seconds
(what a quiet core's wall clock would show; the bot's wall cap bounds its real
waits). The clock is part of the record's stamp.

``--record PATH`` makes a long run resumable, in pieces and across machines:
every finished game is appended to PATH as one JSON line (map, seats, seed,
hard's seat, the winner's place, hard's decision times) stamped with the
budget and the behaviour digest of its map (:mod:`benchmarks.behaviour`: the
moves of fixed seeded games, so a refactor that changes no move keeps the
record, and a change to one map leaves the other maps' games valid). A later
run with the same PATH skips the games already there and reports over all of
them; a game recorded under another budget or by code that plays its map
differently is refused, so a report never mixes two versions of the AI. A
line cut short by a crash is played again. One run records to a file at a
time (a lock); ``--report`` prints the report of the recorded games without
playing, also while a run is recording.

Games recorded before behaviour digests existed carry the source digest of
the code that played them (``"code"``); :data:`CODE_BEHAVIOUR`
(``results/behaviour-of-code.json``) says which behaviour digests that code
had, computed at its commit by ``tools/behaviour_at.py``, and such a game
counts while its map's digest is still the same.

``--digest`` prints the behaviour digest of each of ``--maps`` and plays nothing.

A line recorded since 2026-11-28 also holds the final ``scores`` by seat, hard's
``margin`` (its score minus the best other) and its ``block`` (the seed); older
lines read as before. ``--report`` reads the record alone: every game of the run's
maps recorded under its budget and clock, whatever code played it (no digest is
computed), so a published table stays reproducible after the AI changes.

Three more tools share the command: ``--no-limit N`` (:mod:`benchmarks.endless`:
AI-only easy/normal games that reach the turn limit), ``--compare A B``
(:mod:`benchmarks.lab`: two agents over seed blocks with a sequential test) and
``--ratings`` (:mod:`benchmarks.ratings`: the levels rated over the records, into
``bot/host/ai_ratings.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.behaviour import behaviour_digests
from engine import apply, new_game
from engine.ai import HardPlayer, choose_action
from maps import load_ruleset

MAPS = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")

#: The clocks hard's cap can be read on (``--cap-clock``): wall-clock time, as in the
#: bot, or the deciding thread's CPU time (seconds both).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial rate: ``(low, high)``; (0, 1) when ``n`` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def play_one(
    map_id: str,
    seats: int,
    seed: int,
    hard_seat: int,
    iterations: int,
    time_cap_s: float,
    cap_clock: str = "wall",
) -> tuple[str, int, int | None, list[float], list[int]]:
    """Play one game; return ``(map, seats, the outright winner's place after hard (0 hard,
    1 the next seat, ...; None for a shared first place), hard's decision seconds, the final
    scores by seat)``.

    ``cap_clock`` is a key of :data:`CLOCKS`: the clock of hard's cap and of its times.
    """
    rules = load_ruleset(map_id)
    clock = CLOCKS[cap_clock]
    hard = HardPlayer(iterations=iterations, time_cap_s=time_cap_s, clock=clock)
    state = new_game(rules, seats=seats, seed=seed)
    times: list[float] = []
    while not state.finished:
        seat = state.seats_to_act()[0]
        if seat == hard_seat:
            t0 = clock()
            action = choose_action(rules, state, seat, player=hard)
            times.append(clock() - t0)
        else:
            action = choose_action(rules, state, seat, "normal")
        state = apply(rules, state, action).state
    assert state.result is not None
    winners = state.result.winners
    place = (winners[0] - hard_seat) % seats if len(winners) == 1 else None
    return map_id, seats, place, times, [s.score for s in state.result.seats]


def _p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def _jobs(maps: list[str], games: int, modes: list[str]) -> list[tuple[str, int, int, int]]:
    jobs = []
    for seed in range(games):
        for map_id in maps:
            many = min(4, load_ruleset(map_id).params.max_players)
            if "2p" in modes:
                jobs.append((map_id, 2, seed, seed % 2))
            if "4p" in modes:
                jobs.append((map_id, many, 10_000 + seed, seed % many))
    return jobs


#: What a recorded game is: ``(map, seats, seed, hard's seat, winner's place, hard's times)``.
Game = tuple[str, int, int, int, int | None, list[float]]


#: Source digests of the code that recorded games before behaviour digests existed, with
#: the behaviour digests per map that code had (computed at its commit, see the file).
CODE_BEHAVIOUR_FILE = Path(__file__).parent / "results" / "behaviour-of-code.json"


def code_behaviour() -> dict[str, dict[str, str]]:
    """``{source digest: {map: behaviour digest}}`` from :data:`CODE_BEHAVIOUR_FILE`."""
    data = json.loads(CODE_BEHAVIOUR_FILE.read_text(encoding="utf-8"))
    return {code: dict(entry["behaviour"]) for code, entry in data["codes"].items()}


@dataclass(frozen=True)
class Stamp:
    """The budget of a run and the behaviour digest of each of its maps.

    A recorded line carries ``{"iterations", "time_cap_s", "behaviour"}`` with its
    map's digest (older lines: ``"code"``, a source digest, see :meth:`accepts`), and
    ``"cap_clock": "cpu"`` when the cap was read on the CPU clock (no key: wall clock).
    A digest :data:`ANY` (``--report``) accepts the map's games of any behaviour.
    """

    iterations: int
    time_cap_s: float | None
    digests: dict[str, str]
    cap_clock: str = "wall"

    def line(self, map_id: str) -> dict[str, Any]:
        """The stamp written on a game of ``map_id``."""
        line: dict[str, Any] = {
            "iterations": self.iterations,
            "time_cap_s": self.time_cap_s,
            "behaviour": self.digests[map_id],
        }
        if self.cap_clock != "wall":
            line["cap_clock"] = self.cap_clock
        return line

    def accepts(
        self, map_id: str, stamp: Any, known: dict[str, dict[str, str]] | None = None
    ) -> bool:
        """True when a game of ``map_id`` recorded under ``stamp`` counts for this run:
        the same budget on the same clock, and its map's behaviour digest (or, for a line
        stamped with the source digest of older code, the digest ``known`` says that code
        had) is this code's."""
        if not isinstance(stamp, dict) or map_id not in self.digests:
            return False
        if (stamp.get("iterations"), stamp.get("time_cap_s"), stamp.get("cap_clock", "wall")) != (
            self.iterations,
            self.time_cap_s,
            self.cap_clock,
        ):
            return False
        if self.digests[map_id] == ANY:
            return True
        if "behaviour" in stamp:
            return bool(stamp["behaviour"] == self.digests[map_id])
        had = (code_behaviour() if known is None else known).get(stamp.get("code", ""), {})
        return had.get(map_id) == self.digests[map_id]


#: The digest of a :class:`Stamp` that accepts a map's games whatever code played them.
ANY = "*"


def read_record(path: Path, stamp: Stamp) -> list[Game]:
    """The games recorded in ``path`` (none when it does not exist). Read only.

    Raises SystemExit when a line of a map of ``stamp`` was written under another
    budget or by code that plays that map differently (:meth:`Stamp.accepts`);
    lines of other maps are skipped. A last line cut short by a crash is skipped
    (that game is played again; :class:`Recorder` cuts the line off before it appends).
    """
    if not path.exists():
        return []
    known = code_behaviour()
    games: list[Game] = []
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines) and not text.endswith("\n"):
                break
            raise SystemExit(f"{path}:{number}: not a JSON line") from None
        if row.get("map") not in stamp.digests:
            continue
        if not stamp.accepts(row["map"], row.get("stamp"), known):
            raise SystemExit(
                f"{path}:{number}: recorded by other code or settings ({row.get('stamp')});"
                f" this run is {stamp.line(row['map'])}; use another --record file"
            )
        games.append(
            (row["map"], row["seats"], row["seed"], row["hard_seat"], row["place"], row["times"])
        )
    return games


class Recorder:
    """Appends finished games to a record file; one recording run per file at a time.

    Opening takes an exclusive lock on the file (``fcntl.lockf``, where the
    platform has it: a POSIX lock belongs to this process, so the worker
    processes forked while it is held do not keep it) and raises SystemExit
    when another run holds it; then it cuts off a last line left half-written
    by a crash. Each game is one JSON line, flushed at once. Use as a context
    manager.
    """

    def __init__(self, path: Path, stamp: Stamp) -> None:
        self.stamp = stamp
        self.file = path.open("a+b")
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            pass
        else:
            try:
                fcntl.lockf(self.file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.file.close()
                raise SystemExit(f"{path}: another run is recording to this file") from None
        self.file.seek(0)
        data = self.file.read()
        if data and not data.endswith(b"\n"):
            self.file.truncate(data.rfind(b"\n") + 1)

    def add(self, game: Game, scores: list[int] | None = None) -> None:
        """Append one finished game, with its final ``scores`` by seat when known (then also
        hard's ``margin``, its score minus the best other, and its ``block``, the seed)."""
        map_id, seats, seed, hard_seat, place, times = game
        row: dict[str, Any] = {
            "map": map_id,
            "seats": seats,
            "seed": seed,
            "hard_seat": hard_seat,
            "place": place,
            "times": [round(t, 4) for t in times],
            "stamp": self.stamp.line(map_id),
        }
        if scores is not None:
            best_other = max(x for i, x in enumerate(scores) if i != hard_seat)
            row.update(scores=scores, margin=scores[hard_seat] - best_other, block=seed)
        self.file.write((json.dumps(row) + "\n").encode())
        self.file.flush()

    def close(self) -> None:
        """Release the lock and close the file."""
        self.file.close()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_all(
    jobs: list[tuple[str, int, int, int]],
    workers: int,
    deadline_s: float | None,
    budget: tuple[int, float, str],
    finished: Callable[[Game, list[int]], None],
) -> None:
    """Play ``jobs`` (map, seats, seed, hard's seat) on ``workers`` processes with hard's
    ``budget`` (iterations, cap seconds, cap clock), handing each finished game and its
    scores by seat to ``finished`` as it ends; games not done by ``deadline_s`` are dropped."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        pending: dict[Future[tuple[str, int, int | None, list[float], list[int]]], tuple[int, int]]
        pending = {}
        queue = list(jobs)
        while queue or pending:
            late = deadline_s is not None and time.perf_counter() - start > deadline_s
            while queue and not late and len(pending) < 2 * max(1, workers):
                job = queue.pop(0)
                pending[pool.submit(play_one, *job, *budget)] = (job[2], job[3])
            if late:
                queue.clear()
                for f in pending:
                    f.cancel()
            if not pending:
                break
            remaining = None
            if deadline_s is not None:
                remaining = max(0.1, deadline_s - (time.perf_counter() - start))
            done, _ = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for f in done:
                seed, hard_seat = pending.pop(f)
                if not f.cancelled():
                    map_id, seats, place, ts, scores = f.result()
                    finished((map_id, seats, seed, hard_seat, place, ts), scores)
            if late:
                break
        pool.shutdown(wait=False, cancel_futures=True)


def play_arguments(prog: str, games: int, games_help: str) -> argparse.ArgumentParser:
    """A parser with the options of every benchmark that plays hard vs normal:
    ``--json``, ``--games`` (default ``games``), ``--maps`` (comma-separated, all
    of :data:`MAPS` by default), ``--workers`` (processes, 2) and hard's budget
    ``--iterations`` / ``--time-cap-s`` (seconds), defaulting to :class:`HardPlayer`'s."""
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--games", type=int, default=games, help=games_help)
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=HardPlayer().iterations)
    ap.add_argument("--time-cap-s", type=float, default=HardPlayer().time_cap_s)
    return ap


def report(
    maps: list[str], wins: dict[tuple[str, bool], list[int | None]], times: dict[str, list[float]]
) -> dict[str, Any]:
    """Print one row per map (rates, intervals, best normal seat, p99) and return them
    keyed by map (the JSON summary)."""
    summary: dict[str, Any] = {}
    print(
        f"{'map':<10}{'2p games':>9}{'2p rate':>9}{'95% CI':>15}"
        f"{'4p games':>9}{'4p rate':>9}{'95% CI':>15}{'best normal':>12}{'p99 s':>8}"
    )
    for m in maps:
        seats_4p = min(4, load_ruleset(m).params.max_players)
        places_2p = wins.get((m, True), [])
        places = wins.get((m, False), [])
        two = [p == 0 for p in places_2p]
        many = [p == 0 for p in places]
        r2 = sum(two) / len(two) if two else 0.0
        r4 = sum(many) / len(many) if many else 0.0
        best_normal = max(
            (places.count(k) / len(places) for k in range(1, seats_4p)), default=0.0
        ) if places else 0.0  # fmt: skip
        lo2, hi2 = wilson(sum(two), len(two))
        lo4, hi4 = wilson(sum(many), len(many))
        p99 = _p99(times[m])
        summary[m] = {
            "games": len(two),
            "games_4p": len(many),
            "hard_vs_normal_2p": round(r2, 3),
            "hard_vs_normal_2p_ci95": [round(lo2, 3), round(hi2, 3)],
            "hard_win_4p": round(r4, 3),
            "hard_win_4p_ci95": [round(lo4, 3), round(hi4, 3)],
            "best_normal_win_4p": round(best_normal, 3),
            "seats_4p": seats_4p,
            "hard_move_p99_s": round(p99, 3),
        }
        print(
            f"{m:<10}{len(two):>9}{r2:>9.3f}{f'[{lo2:.2f}, {hi2:.2f}]':>15}"
            f"{len(many):>9}{r4:>9.3f}{f'[{lo4:.2f}, {hi4:.2f}]':>15}{best_normal:>12.3f}"
            f"{p99:>8.3f}"
        )
    return summary


def _parser() -> argparse.ArgumentParser:
    """The benchmark's command line: the play arguments, the modes, the cap's clock, the record."""
    ap = play_arguments("python -m benchmarks ai", 200, "games per map and mode")
    ap.add_argument("--modes", default="2p,4p", help="2p, 4p or both (comma-separated)")
    ap.add_argument(
        "--cap-clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="what hard's cap counts: wall-clock time (as in the bot) or the thread's CPU time",
    )
    ap.add_argument("--deadline-s", type=float, default=None)
    ap.add_argument("--record", type=Path, default=None, metavar="PATH")
    ap.add_argument(
        "--report", action="store_true", help="only report the games in --record; play none"
    )
    ap.add_argument("--digest", action="store_true", help="print the behaviour digests; play none")
    return ap


def _take_recorded(
    record: Path,
    stamp: Stamp,
    jobs: list[tuple[str, int, int, int]],
    count: Callable[[Game], None],
) -> tuple[list[tuple[str, int, int, int]], int]:
    """Resume a record: every game of ``record`` made under ``stamp`` that a job asks for is
    counted instead of played; returns the jobs left to play and how many games were taken."""
    wanted = {(m, n, seed) for m, n, seed, _ in jobs}
    taken = 0
    for game in read_record(record, stamp):
        if game[:3] in wanted:
            count(game)
            wanted.discard(game[:3])
            taken += 1
    return [job for job in jobs if job[:3] in wanted], taken


def main(argv: list[str]) -> int:
    """Run the benchmark; print a table and, with --json, one JSON object last."""
    if "--no-limit" in argv:
        from benchmarks import endless

        return endless.main(argv)
    if "--compare" in argv:
        from benchmarks import lab

        return lab.main(argv)
    if "--ratings" in argv:
        from benchmarks import ratings

        return ratings.main(argv)
    ap = _parser()
    args = ap.parse_args(argv)
    maps = [m for m in args.maps.split(",") if m]
    if args.digest:
        print(json.dumps(behaviour_digests(maps, workers=args.workers)))
        return 0
    if args.report and args.record is None:
        ap.error("--report needs --record PATH")
    jobs = _jobs(maps, args.games, args.modes.split(","))
    start = time.perf_counter()
    wins: dict[tuple[str, bool], list[int | None]] = {}
    times: dict[str, list[float]] = {m: [] for m in maps}
    if args.report:  # the record alone: its games of this budget, whatever code played them
        digests = dict.fromkeys(maps, ANY)
    elif args.record:
        digests = behaviour_digests(maps, workers=args.workers)
    else:
        digests = {}
    stamp = Stamp(args.iterations, args.time_cap_s, digests, args.cap_clock)

    def count(game: Game) -> None:
        map_id, seats, _, _, place, ts = game
        wins.setdefault((map_id, seats == 2), []).append(place)
        times[map_id].extend(ts)

    # lock the record before reading it, so no other run adds a game in between
    recorder = Recorder(args.record, stamp) if args.record and not args.report else None
    try:
        recorded = 0
        if args.record is not None:
            jobs, recorded = _take_recorded(args.record, stamp, jobs, count)

        def finished(game: Game, scores: list[int]) -> None:
            count(game)
            if recorder is not None:
                recorder.add(game, scores)

        if not args.report:
            budget = (args.iterations, args.time_cap_s, args.cap_clock)
            play_all(jobs, args.workers, args.deadline_s, budget, finished)
    finally:
        if recorder is not None:
            recorder.close()
    print(
        f"hard (iterations {args.iterations}, cap {args.time_cap_s} s {args.cap_clock}) vs normal;"
        f" {time.perf_counter() - start:.0f} s"
        + (f"; {recorded} games from {args.record}" if recorded else "")
    )
    summary = report(maps, wins, times)
    summary["settings"] = {
        "iterations": args.iterations,
        "time_cap_s": args.time_cap_s,
        "cap_clock": args.cap_clock,
        "games_asked": args.games,
        "workers": args.workers,
        "behaviour": digests,
        "games_recorded_before": recorded,
    }
    if args.json:
        print(json.dumps(summary))
    return 0
