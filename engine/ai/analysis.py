"""Post-game analysis: each seat's chance to win after every turn, and the turning points.

Method (:data:`METHOD`): once a game is over nothing is hidden, so the analysis
starts from the *full* state after each turn (replayed from the seed and the
action log: every hand and ticket as it was). From each such state it plays
rollouts to the end with the hard AI's rollout policy on the integer core
(:class:`engine.ai.rollout.CoreRolloutPolicy`: every seat plays the normal
heuristic's plan for its real tickets), each with the future re-drawn: the draw
deck and the ticket decks shuffled and the state's RNG reseeded, since nobody
could know the order of cards still to come. A seat's chance is its share of the
rollouts' wins (a shared first place is split), so the seats' chances sum to 1
at every turn. After the last turn the chance is the real result.

Rollout ``k`` starts from the same seed at every turn (common random numbers),
which makes the change from one turn to the next less noisy than the level.

Budget: rounds of :data:`ROUND` rollouts over every turn, until
``rollouts`` per turn (default :data:`ROLLOUTS`) or until the next round would
pass ``cpu_budget_s`` seconds of CPU time (default :data:`CPU_BUDGET_S`, inside
the 60 s a game may take); at least one round. A round over a 4-player USA game
of about 150 turns costs about 4 s of CPU on the compiled core (a rollout from
the start about 3 ms, from late turns far less), so such a game gets about 72
rollouts per turn, a 2-player game all 128. The same game and budget give the
same figures whenever the CPU cap does not cut the rounds short.

The turning points (:func:`turning_points`) are the turns after which some
seat's chance moved most.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..actions import (
    AbandonTunnel,
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Resign,
)
from ..core import Core
from ..events import CardDrawn
from ..reducer import apply, new_game
from ..rules.europe import BuildStation
from ..state import FinalResult, GameState
from .rollout import CoreRolloutPolicy

if TYPE_CHECKING:
    from ..rules.classic import ClassicRules

#: How the chances are estimated (stored with every analysis).
METHOD = "rollouts"
#: Rollouts per turn at most, and per round.
ROLLOUTS = 128
ROUND = 8
#: CPU seconds an analysis may spend on rollouts (the game replay comes on top: milliseconds).
CPU_BUDGET_S = 40.0
#: Turning points named per game.
TURNING_POINTS = 3


@dataclass(frozen=True, slots=True)
class TurnMove:
    """What the seat did in one turn, told from its public actions (all of it is public
    once the game is over).

    Attributes:
        kind: ``claim`` (``route``), ``tunnel_abandoned`` (``route``), ``cards`` (``count``
            cards drawn, their colours in ``cards``), ``tickets`` (``count`` kept),
            ``station`` (a train station built in ``city``, Europe), ``pass``, ``resign`` or
            ``setup`` (everyone's first ticket choice).
        route: the route claimed or tried.
        count: cards drawn or tickets kept.
        cards: the colours of the cards drawn, in order (a deck draw too: once the game
            is over nothing is hidden).
        city: the city of the train station built.
    """

    kind: str
    route: str | None = None
    count: int = 0
    cards: tuple[str, ...] = ()
    city: str | None = None


@dataclass(frozen=True, slots=True)
class TurnChance:
    """Every seat's chance to win after one turn.

    Attributes:
        turn: 0 after the first ticket choice, then the number of turns done.
        seat: who played the turn (None for turn 0).
        move: what they did (:class:`TurnMove`).
        chances: one chance per seat (0..1, summing to 1).
    """

    turn: int
    seat: int | None
    move: TurnMove
    chances: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A turn after which ``seat``'s chance moved from ``before`` to ``after``;
    ``mover`` played it (``move``)."""

    turn: int
    mover: int | None
    move: TurnMove
    seat: int
    before: float
    after: float

    @property
    def change(self) -> float:
        """``after - before``."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The analysis of one finished game.

    Attributes:
        map_id, seats: the game's map and number of seats.
        method: :data:`METHOD`.
        rollouts: rollouts played from every turn (the last turn needs none).
        cpu_s: CPU seconds the rollouts took.
        turns: one :class:`TurnChance` per turn, from turn 0.
        turning_points: the turns where a chance moved most, in turn order.
    """

    map_id: str
    seats: int
    method: str
    rollouts: int
    cpu_s: float
    turns: tuple[TurnChance, ...]
    turning_points: tuple[TurningPoint, ...]

    def series(self) -> list[list[float]]:
        """Per seat, its chance after every turn (the chart's lines)."""
        return [[t.chances[s] for t in self.turns] for s in range(self.seats)]

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (chances rounded to 4 places, still summing to 1 every turn);
        :meth:`from_json` reads it back."""
        return {
            "format": 1,
            "map": self.map_id,
            "seats": self.seats,
            "method": self.method,
            "rollouts": self.rollouts,
            "cpu_s": round(self.cpu_s, 3),
            "turns": [
                {
                    "turn": t.turn,
                    "seat": t.seat,
                    "move": _move_json(t.move),
                    "chances": rounded_shares(t.chances),
                }
                for t in self.turns
            ],
            "turning_points": [
                {
                    "turn": p.turn,
                    "mover": p.mover,
                    "move": _move_json(p.move),
                    "seat": p.seat,
                    "before": round(p.before, 4),
                    "after": round(p.after, 4),
                }
                for p in self.turning_points
            ],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> GameAnalysis:
        """The analysis back from :meth:`to_json`'s dict. Raises KeyError, TypeError or
        ValueError on a dict of another shape."""
        if doc.get("format") != 1:
            raise ValueError(f"unknown analysis format {doc.get('format')!r}")
        return cls(
            map_id=str(doc["map"]),
            seats=int(doc["seats"]),
            method=str(doc["method"]),
            rollouts=int(doc["rollouts"]),
            cpu_s=float(doc["cpu_s"]),
            turns=tuple(
                TurnChance(
                    int(t["turn"]),
                    None if t["seat"] is None else int(t["seat"]),
                    _move_of(t["move"]),
                    tuple(float(c) for c in t["chances"]),
                )
                for t in doc["turns"]
            ),
            turning_points=tuple(
                TurningPoint(
                    int(p["turn"]),
                    None if p["mover"] is None else int(p["mover"]),
                    _move_of(p["move"]),
                    int(p["seat"]),
                    float(p["before"]),
                    float(p["after"]),
                )
                for p in doc["turning_points"]
            ),
        )


def rounded_shares(shares: Sequence[float], places: int = 4) -> list[float]:
    """``shares`` (summing to 1) rounded to ``places`` decimals so that the rounded values
    still sum to 1 (largest remainder: the units lost to rounding down go to the shares
    that lost most)."""
    unit = 10**places
    scaled = [max(0.0, s) * unit for s in shares]
    floors = [int(v) for v in scaled]
    missing = unit - sum(floors)
    order = sorted(range(len(shares)), key=lambda i: (floors[i] - scaled[i], i))
    for i in order[: max(0, missing)]:
        floors[i] += 1
    return [f / unit for f in floors]


def _move_json(move: TurnMove) -> dict[str, Any]:
    doc = {"kind": move.kind, "route": move.route, "count": move.count, "cards": list(move.cards)}
    if move.city is not None:
        doc["city"] = move.city
    return doc


def _move_of(doc: Mapping[str, Any]) -> TurnMove:
    route, city = doc.get("route"), doc.get("city")
    return TurnMove(
        str(doc["kind"]),
        None if route is None else str(route),
        int(doc["count"]),
        tuple(str(c) for c in doc.get("cards") or ()),
        None if city is None else str(city),
    )


@dataclass(frozen=True, slots=True)
class TurnState:
    """The full state after one turn, who played it and what they did (:func:`game_turns`)."""

    turn: int
    seat: int | None
    move: TurnMove
    state: GameState


def game_turns(
    rules: ClassicRules,
    *,
    seats: int,
    seed: int,
    actions: Sequence[Action],
    options: Mapping[str, Any] | None = None,
) -> list[TurnState]:
    """Replay a game from its seed and action log; the state after each turn.

    The first entry is the state after everyone's first ticket choice (turn 0); then
    one per turn played, the last one the finished game when the log reaches the end.
    Raises the engine's IllegalAction / SetupError for a log that does not replay.
    """
    state = new_game(rules, seats=seats, seed=seed, options=options)
    out: list[TurnState] = []
    pending: list[Action] = []
    drawn: list[str] = []
    mover: int | None = None
    for action in actions:
        if state.phase == "play" and mover is None:
            mover = state.active
        before = (state.phase, state.turn)
        transition = apply(rules, state, action)
        state = transition.state
        pending.append(action)
        drawn += [
            e.color
            for e in transition.events
            if isinstance(e, CardDrawn) and e.seat == mover and e.color is not None
        ]
        if (state.phase, state.turn) == before:
            continue
        if not out:
            out.append(TurnState(0, None, TurnMove("setup"), state))
        else:
            out.append(TurnState(out[-1].turn + 1, mover, _summary(pending, mover, drawn), state))
        pending, drawn, mover = [], [], None
    return out


def _summary(actions: Sequence[Action], seat: int | None, drawn: Sequence[str]) -> TurnMove:
    """The turn's move from its actions (those of the seat that played it) and the colours of
    the cards it drew."""
    own = [a for a in actions if a.seat == seat] or list(actions)
    for a in own:
        if isinstance(a, Resign):
            return TurnMove("resign")
    claim = next((a for a in own if isinstance(a, ClaimRoute)), None)
    if claim is not None:
        if any(isinstance(a, AbandonTunnel) for a in own):
            return TurnMove("tunnel_abandoned", claim.route)
        return TurnMove("claim", claim.route)
    station = next((a for a in own if isinstance(a, BuildStation)), None)
    if station is not None:
        return TurnMove("station", city=station.city)
    if any(isinstance(a, DrawTickets) for a in own):
        kept = next((a for a in own if isinstance(a, KeepTickets)), None)
        return TurnMove("tickets", count=0 if kept is None else len(kept.tickets))
    draws = sum(1 for a in own if isinstance(a, (DrawBlind, DrawFaceUp)))
    if draws:
        return TurnMove("cards", count=draws, cards=tuple(drawn))
    return TurnMove("pass")


def result_shares(result: FinalResult, seats: int) -> tuple[float, ...]:
    """Each seat's share of the win: 1 for the winner, split on a shared first place."""
    winners = list(result.winners)
    return tuple((1.0 / len(winners) if s in winners else 0.0) for s in range(seats))


def rollout_seeds(count: int) -> list[int]:
    """The seed of rollout ``k`` (the same at every turn: common random numbers)."""
    return [random.Random(f"analysis:{k}").getrandbits(64) for k in range(count)]


def rollout_shares(rules: ClassicRules, state: GameState, seed: int) -> tuple[float, ...]:
    """One rollout from the full ``state`` with the future re-drawn by ``seed`` (the draw deck
    and ticket decks shuffled, the RNG reseeded); each seat's share of that game's win."""
    rng = random.Random(seed)
    world = state.clone()
    rng.shuffle(world.deck)
    for deck in world.ticket_decks.values():
        rng.shuffle(deck)
    world.rng = rng.getrandbits(64)
    end = CoreRolloutPolicy(rules, rng).play_out(Core.from_state(rules, world))
    if end.result is None:  # a rollout cut at its move cap: nobody won it
        return tuple(1.0 / state.num_seats for _ in range(state.num_seats))
    return result_shares(end.result, state.num_seats)


@dataclass(frozen=True, slots=True)
class AnalysisProgress:
    """How far an analysis made in slices has come (:func:`analyse_slice`); picklable, so a
    worker process can make one slice and the next slice can be made by another.

    Attributes:
        sums: per turn of the game, each seat's rollout shares summed so far.
        done: rollouts per turn of the whole rounds finished.
        position: open turns (those before the end) of the round under way already
            rolled out (0: the round has not begun).
        spent: CPU seconds of the whole rounds finished.
        took: CPU seconds of the round under way so far.
        finished: no further rollouts are due (the count or the CPU budget reached).
    """

    sums: tuple[tuple[float, ...], ...]
    done: int = 0
    position: int = 0
    spent: float = 0.0
    took: float = 0.0
    finished: bool = False


def analyse_slice(
    rules: ClassicRules,
    turns: Sequence[TurnState],
    progress: AnalysisProgress | None = None,
    *,
    rollouts: int = ROLLOUTS,
    cpu_budget_s: float | None = CPU_BUDGET_S,
    slice_s: float | None = None,
    stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.thread_time,
) -> AnalysisProgress:
    """Go on with the rollouts of :func:`analyse` from ``progress`` (None: from the start) for
    about ``slice_s`` CPU seconds (None: to the end), or until ``stop()`` says so;
    :func:`finish_analysis` turns the finished progress into the analysis. A slice ends after
    the turn that used it up or during which ``stop()`` became true (one turn's :data:`ROUND`
    rollouts: milliseconds; at least one turn per slice), so a worker that also makes AI moves
    is free again soon. Sliced or not, the rollouts and their sums are the same; only
    where the CPU budget cuts the rounds may differ, as between two runs.

    Args and ``clock``: as :func:`analyse`. Raises ValueError for no turns.
    """
    if not turns:
        raise ValueError("a game without turns has nothing to analyse")
    seats = turns[0].state.num_seats
    if progress is None:
        progress = AnalysisProgress(tuple((0.0,) * seats for _ in turns))
    open_turns = [i for i, t in enumerate(turns) if t.state.result is None]
    if progress.finished or not open_turns or progress.done >= rollouts:
        return replace(progress, finished=True)
    sums = [list(row) for row in progress.sums]
    seeds = rollout_seeds(max(rollouts, 1) + ROUND)
    done, position, spent, took = progress.done, progress.position, progress.spent, progress.took
    begun = start = clock()

    def paused() -> AnalysisProgress:
        return AnalysisProgress(tuple(map(tuple, sums)), done, position, spent, took)

    while True:
        while position < len(open_turns):
            total = sums[open_turns[position]]
            for seed in seeds[done : done + ROUND]:
                for s, share in enumerate(
                    rollout_shares(rules, turns[open_turns[position]].state, seed)
                ):
                    total[s] += share
            position += 1
            if position < len(open_turns) and (slice_s is not None or stop is not None):
                now = clock()
                if (slice_s is not None and now - begun >= slice_s) or (
                    stop is not None and stop()
                ):
                    took += now - start
                    return paused()
        end = clock()
        round_s = took + end - start
        done, position, spent, took = done + ROUND, 0, spent + round_s, 0.0
        if done >= rollouts or (cpu_budget_s is not None and spent + round_s > cpu_budget_s):
            return replace(paused(), finished=True)
        if (slice_s is not None and end - begun >= slice_s) or (stop is not None and stop()):
            return paused()
        start = end


def finish_analysis(turns: Sequence[TurnState], progress: AnalysisProgress) -> GameAnalysis:
    """The analysis of ``turns`` from the rollouts of ``progress`` (see :func:`analyse_slice`;
    a round not finished is left out)."""
    seats = turns[0].state.num_seats
    points = []
    for i, t in enumerate(turns):
        if t.state.result is not None:
            chances = result_shares(t.state.result, seats)
        elif progress.done:
            chances = tuple(v / progress.done for v in progress.sums[i])
        else:
            chances = (1.0 / seats,) * seats
        points.append(TurnChance(t.turn, t.seat, t.move, chances))
    return GameAnalysis(
        map_id=turns[0].state.map_id,
        seats=seats,
        method=METHOD,
        rollouts=progress.done,
        cpu_s=progress.spent,
        turns=tuple(points),
        turning_points=turning_points(points),
    )


def analyse(
    rules: ClassicRules,
    turns: Sequence[TurnState],
    *,
    rollouts: int = ROLLOUTS,
    cpu_budget_s: float | None = CPU_BUDGET_S,
    clock: Callable[[], float] = time.thread_time,
) -> GameAnalysis:
    """Estimate every seat's chance to win after each of ``turns`` (see the module docstring).

    Args:
        turns: from :func:`game_turns`; the last one should be the finished game.
        rollouts: rollouts per turn at most (rounded up to whole rounds of :data:`ROUND`).
        cpu_budget_s: CPU seconds for the rollouts (None: no cap); the rounds stop before
            the next one would pass it, after at least one.
        clock: the CPU clock (this thread's CPU time by default).
    Raises ValueError for no turns.
    """
    progress = analyse_slice(
        rules, turns, rollouts=rollouts, cpu_budget_s=cpu_budget_s, clock=clock
    )
    return finish_analysis(turns, progress)


def turning_points(
    turns: Sequence[TurnChance], count: int = TURNING_POINTS
) -> tuple[TurningPoint, ...]:
    """The ``count`` turns after which some seat's chance changed most, in turn order.

    For each turn the seat whose chance moved most is named (on a tie, a seat other than
    the one who played, then the lower seat: "Björn claimed ...; Åsa's chance 48% -> 21%").
    Ties between turns go to the earlier turn.
    """
    found: list[tuple[float, int, TurningPoint]] = []
    for i in range(1, len(turns)):
        prev, cur = turns[i - 1], turns[i]
        n = len(cur.chances)
        seat = min(
            range(n),
            key=lambda s: (-round(abs(cur.chances[s] - prev.chances[s]), 9), s == cur.seat, s),
        )
        point = TurningPoint(
            cur.turn, cur.seat, cur.move, seat, prev.chances[seat], cur.chances[seat]
        )
        found.append((round(abs(point.change), 9), i, point))
    best = sorted(found, key=lambda f: (-f[0], f[1]))[:count]
    return tuple(p for _, _, p in sorted(best, key=lambda f: f[1]))


def analyse_game(
    rules: ClassicRules,
    *,
    seats: int,
    seed: int,
    actions: Sequence[Action],
    options: Mapping[str, Any] | None = None,
    rollouts: int = ROLLOUTS,
    cpu_budget_s: float | None = CPU_BUDGET_S,
) -> GameAnalysis:
    """:func:`analyse` of a game given as its seed and action log (what the service stores)."""
    turns = game_turns(rules, seats=seats, seed=seed, actions=actions, options=options)
    return analyse(rules, turns, rollouts=rollouts, cpu_budget_s=cpu_budget_s)


__all__ = [
    "CPU_BUDGET_S",
    "METHOD",
    "ROLLOUTS",
    "ROUND",
    "TURNING_POINTS",
    "AnalysisProgress",
    "GameAnalysis",
    "TurnChance",
    "TurnMove",
    "TurnState",
    "TurningPoint",
    "analyse",
    "analyse_game",
    "analyse_slice",
    "finish_analysis",
    "game_turns",
    "result_shares",
    "rollout_seeds",
    "rounded_shares",
    "rollout_shares",
    "turning_points",
]
