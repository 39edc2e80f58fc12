"""Post-game analysis: each seat's chance to win after every turn, and the turning points.

Method (:data:`METHOD`): once a game is over nothing is hidden, so the analysis
starts from the *full* state after each turn (replayed from the seed and the
action log: every hand and ticket as it was). From each such state it plays
rollouts to the end with the hard AI's rollout policy on the integer core
(:class:`engine.ai.rollout.CoreRolloutPolicy`: every seat plays the normal
heuristic's plan for its real tickets), each in a sampled *world*: the future
re-drawn (the draw deck and the ticket decks put in a random order and the
state's RNG reseeded), since nobody could know the order of cards still to come.
A seat's chance is its share of the rollouts' wins (a shared first place is
split), so the seats' chances sum to 1 at every turn. After the last turn the
chance is the real result.

Common random numbers (:func:`world_order`): rollout ``k`` plays in the same world
at every turn, so the change from one turn to the next measures the move and not
two independent draws of luck. The world does not shuffle the deck (a shuffle of
a deck two cards shorter is another order altogether); it gives every card a
random key from rollout ``k``'s own streams (the ``j``-th card of a colour always
the same key, every ticket its own key) and orders the cards by key. A move that
takes cards out of the deck (a blind draw, a face-up card replaced) therefore
leaves every other card where it was relative to the rest. The keys of each world
are drawn from the seed alone (not from the game's seed or deck), and the same
seed drives the reseeded RNG and the policy's choices.

A draw reveals cards, so the world before it must agree with what it revealed:
the turn before a move that took cards or tickets from a deck (:func:`paired_reveal`)
is rolled out a second time, in the worlds of the turn after with what the move
took put back on top as it came (the worlds of the later position mapped back).
Both sides of the move then meet the same cards, the luck of the draw is on
neither, and rollout ``k`` after the move less rollout ``k`` before it is the
move's own change in world ``k`` (:attr:`TurnChance.move_change`): exactly 0 where
the policy would have made the very move (:func:`paired_shares` then skips the
second rollout). The chart's levels stay the first rollouts, so the chart's step
from one turn to the next still holds the luck of the draw.

The paired differences give the noise of each change: per seat, the standard error
of the mean over the rollouts of ``share after - share before`` (rollout ``k``
before and after paired), and of each level (the chart's band, :data:`BAND_Z`
standard errors either side).

Budget: rounds of :data:`ROUND` rollouts over every turn, until
``rollouts`` per turn (default :data:`ROLLOUTS`) or until the next round would
pass ``cpu_budget_s`` seconds of CPU (default :data:`CPU_BUDGET_S`, inside
the 60 s a game may take); at least one round. A round over a 4-player USA game
of about 150 turns costs about 4 s of CPU on the compiled core (a rollout from
the start about 3 ms, from late turns far less), and the second rollouts before
draws add about half of that where the players moved otherwise than the policy, so
such a game gets about 48 rollouts per turn, a 2-player game all 128. The same game and budget give the
same figures whenever the CPU cap does not cut the rounds short.

The turning points (:func:`turning_points`) are the turns after which some
seat's chance moved most among those whose change stands clear of the noise
(at least :data:`MIN_CHANGE` and more than :data:`NOISE_Z` standard errors of the
paired change) and whose move could have been otherwise (the seat had another
legal move: :attr:`TurnState.forced`). A game may have fewer than
:data:`TURNING_POINTS`, or none.
"""

from __future__ import annotations

import functools
import math
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
    Pass,
    Resign,
)
from ..core import FINISHED, Core
from ..events import CardDrawn
from ..reducer import apply, legal_actions, new_game
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
#: Turning points named per game, at most.
TURNING_POINTS = 3
#: A turning point's change of chance, at least (0..1: ten points).
MIN_CHANGE = 0.10
#: A turning point's change, in standard errors of the paired change, more than.
NOISE_Z = 2.5
#: The chart's band: this many standard errors of the chance either side (95%).
BAND_Z = 1.96


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
        se: per seat, the standard error of its chance (0..1; 0 after the last turn, the
            real result); None in analyses made before it was kept.
        change_se: per seat, the standard error of ``move_change``; None for turn 0 and in
            older analyses.
        forced: the seat had no other legal move (:attr:`TurnState.forced`).
        move_change: per seat, the move's own change of chance: this turn's rollouts less
            the turn before's in the same worlds, with what the move drew on top (common
            random numbers: the luck of the draw is in neither); None for turn 0 and in
            older analyses. The chart's step from the turn before also holds that luck.
    """

    turn: int
    seat: int | None
    move: TurnMove
    chances: tuple[float, ...]
    se: tuple[float, ...] | None = None
    change_se: tuple[float, ...] | None = None
    forced: bool = False
    move_change: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A turn after which ``seat``'s chance moved from ``before`` to ``after``;
    ``mover`` played it (``move``); ``se`` is the standard error of that change (None in
    analyses made before it was kept)."""

    turn: int
    mover: int | None
    move: TurnMove
    seat: int
    before: float
    after: float
    se: float | None = None

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

    def bands(self) -> list[list[float]] | None:
        """Per seat, the half width of its chance's 95% band after every turn (:data:`BAND_Z`
        standard errors; the chart's shading), or None for an analysis made before the
        standard errors were kept."""
        if any(t.se is None for t in self.turns):
            return None
        return [[BAND_Z * t.se[s] for t in self.turns if t.se] for s in range(self.seats)]

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
            "turns": [_turn_json(t) for t in self.turns],
            "turning_points": [
                {
                    "turn": p.turn,
                    "mover": p.mover,
                    "move": _move_json(p.move),
                    "seat": p.seat,
                    "before": round(p.before, 4),
                    "after": round(p.after, 4),
                    **({} if p.se is None else {"se": round(p.se, 4)}),
                }
                for p in self.turning_points
            ],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> GameAnalysis:
        """The analysis back from :meth:`to_json`'s dict (also one stored before the standard
        errors were kept: they read as None). Raises KeyError, TypeError or ValueError on a
        dict of another shape."""
        if doc.get("format") != 1:
            raise ValueError(f"unknown analysis format {doc.get('format')!r}")
        return cls(
            map_id=str(doc["map"]),
            seats=int(doc["seats"]),
            method=str(doc["method"]),
            rollouts=int(doc["rollouts"]),
            cpu_s=float(doc["cpu_s"]),
            turns=tuple(_turn_of(t) for t in doc["turns"]),
            turning_points=tuple(
                TurningPoint(
                    int(p["turn"]),
                    None if p["mover"] is None else int(p["mover"]),
                    _move_of(p["move"]),
                    int(p["seat"]),
                    float(p["before"]),
                    float(p["after"]),
                    None if p.get("se") is None else float(p["se"]),
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


def _turn_json(t: TurnChance) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "turn": t.turn,
        "seat": t.seat,
        "move": _move_json(t.move),
        "chances": rounded_shares(t.chances),
    }
    if t.se is not None:
        doc["se"] = [round(v, 4) for v in t.se]
    if t.change_se is not None:
        doc["change_se"] = [round(v, 4) for v in t.change_se]
    if t.forced:
        doc["forced"] = True
    if t.move_change is not None:
        doc["move_change"] = [round(v, 4) for v in t.move_change]
    return doc


def _turn_of(doc: Mapping[str, Any]) -> TurnChance:
    se, change_se, move_change = doc.get("se"), doc.get("change_se"), doc.get("move_change")
    return TurnChance(
        int(doc["turn"]),
        None if doc["seat"] is None else int(doc["seat"]),
        _move_of(doc["move"]),
        tuple(float(c) for c in doc["chances"]),
        None if se is None else tuple(float(v) for v in se),
        None if change_se is None else tuple(float(v) for v in change_se),
        bool(doc.get("forced", False)),
        None if move_change is None else tuple(float(v) for v in move_change),
    )


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
    """The full state after one turn, who played it and what they did (:func:`game_turns`).

    ``forced``: the seat could not have done otherwise: every legal first action of its
    turn was of the kind it played (drawing cards, drawing tickets, passing) or the very
    claim or train station it made (another route or city is another move). Such a move
    is never a turning point (rulebook, "Game Turn": a player must do exactly one of the
    actions; a seat with one kind left has no choice to be told about).
    """

    turn: int
    seat: int | None
    move: TurnMove
    state: GameState
    forced: bool = False


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
    forced = False
    for action in actions:
        if state.phase == "play" and mover is None:
            mover = state.active
            if action.seat == mover:
                forced = _forced(rules, state, action)
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
            move = _summary(pending, mover, drawn)
            out.append(TurnState(out[-1].turn + 1, mover, move, state, forced))
        pending, drawn, mover, forced = [], [], None, False
    return out


def _choice(action: Action) -> tuple[str, str]:
    """What a turn's first action chooses: its kind, and for a claim or a train station
    which one (another route is another choice; drawing a card face up or blind is one)."""
    if isinstance(action, ClaimRoute):
        return ("claim", action.route)
    if isinstance(action, BuildStation):
        return ("station", action.city)
    if isinstance(action, (DrawBlind, DrawFaceUp)):
        return ("cards", "")
    if isinstance(action, DrawTickets):
        return ("tickets", "")
    if isinstance(action, Pass):
        return ("pass", "")
    return (type(action).__name__, "")


def _forced(rules: ClassicRules, state: GameState, first: Action) -> bool:
    """Whether ``first``, the first action of a turn from ``state``, was the seat's only
    choice (see :attr:`TurnState.forced`); a resignation never is."""
    if isinstance(first, Resign):
        return False
    played = _choice(first)
    legal = legal_actions(rules, state, first.seat, payments="sensible")
    return all(_choice(a) == played for a in legal)


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


def world_order(items: Sequence[str], seed: int, stream: str) -> list[str]:
    """``items`` (card colours or ticket ids, repeats allowed) in world ``seed``'s order: the
    ``j``-th occurrence of each item gets the ``j``-th key of the item's own random stream
    (seeded by ``seed``, ``stream`` and the item), and the items go in key order.

    Every order of the items is equally likely (the keys are independent and uniform), and
    the order of a part is the order of the whole with the rest taken out: ``items`` with
    some taken out (the last occurrences of their kinds: cards of one colour are alike) keeps
    the others in the same order. That is what makes the worlds before and after a move
    the same world (common random numbers; see the module docstring). Pure: a function of
    its arguments only.
    """
    seen: dict[str, int] = {}
    keys: list[tuple[float, str]] = []
    for item in items:
        j = seen.get(item, 0)
        seen[item] = j + 1
        row = _item_keys(seed, stream, item, KEYS_PER_ITEM)
        if j >= len(row):  # more of one kind than any deck holds: a longer row
            row = _item_keys(seed, stream, item, 1 << j.bit_length() + 1)
        keys.append((row[j], item))
    keys.sort()
    return [item for _, item in keys]


#: Keys made at once per item of a world (a deck holds at most 14 cards of one colour); a
#: round's worlds (:data:`ROUND` seeds, each a key row per colour and ticket) stay in the memo.
KEYS_PER_ITEM = 16


@functools.lru_cache(maxsize=2048)
def _item_keys(seed: int, stream: str, item: str, count: int) -> tuple[float, ...]:
    """The first ``count`` keys of ``item``'s stream in world ``seed`` (a prefix of any longer
    row: the same stream). Kept, since every turn of an analysis asks for the same ones."""
    rng = random.Random(f"{seed}:{stream}:{item}")
    return tuple(rng.random() for _ in range(count))


def rollout_shares(
    rules: ClassicRules, state: GameState, seed: int, reveal: Mapping[str, int] | None = None
) -> tuple[float, ...]:
    """One rollout from the full ``state`` in world ``seed`` (the draw deck and ticket decks in
    that world's order, :func:`world_order`; the RNG reseeded); each seat's share of that
    game's win. ``reveal`` (:func:`paired_reveal` of the next move) keeps that many cards or
    tickets of a deck's top as they really were and orders the rest: the world of the state
    after the move, with what it took put back on top."""
    world, rng = _world(state, seed, reveal)
    end = CoreRolloutPolicy(rules, rng).play_out(Core.from_state(rules, world))
    return _end_shares(end, state.num_seats)


def _world(
    state: GameState, seed: int, reveal: Mapping[str, int] | None
) -> tuple[GameState, random.Random]:
    """World ``seed`` of ``state`` (see :func:`rollout_shares`) and the random stream that
    plays it (the policy's choices)."""
    rng = random.Random(seed)
    world = state.clone()
    for stream, deck in [("deck", world.deck)] + [
        (f"tickets:{name}", d) for name, d in world.ticket_decks.items()
    ]:
        keep = min(len(deck), (reveal or {}).get(stream, 0))
        deck[: len(deck) - keep] = world_order(deck[: len(deck) - keep], seed, stream)
    world.rng = rng.getrandbits(64)
    return world, rng


def _end_shares(end: Core, seats: int) -> tuple[float, ...]:
    if end.result is None:  # a rollout cut at its move cap: nobody won it
        return tuple(1.0 / seats for _ in range(seats))
    return result_shares(end.result, seats)


def paired_shares(
    rules: ClassicRules,
    before: GameState,
    after: GameState,
    seed: int,
    reveal: Mapping[str, int],
) -> tuple[float, ...] | None:
    """:func:`rollout_shares` of ``before`` in world ``seed`` with ``reveal`` (the move to
    ``after`` put back), or None when that rollout is the one of ``after``: the policy played
    the very move (after the mover's turn the same state as ``after`` in world ``seed``, and
    its random stream untouched), so from there on both are one game and the move's change
    is exactly 0 in this world. Saves the rollout where the policy would have moved as the
    player did (always for the seats the policy plays itself)."""
    world, rng = _world(before, seed, reveal)
    core = Core.from_state(rules, world)
    policy = CoreRolloutPolicy(rules, rng)
    turn = (core.phase, core.turn)
    for _ in range(MOVE_CAP):
        if core.phase == FINISHED or (core.phase, core.turn) != turn:
            break
        policy.act(core)
    fresh = _world(after, seed, None)
    if rng.getstate() == fresh[1].getstate() and core.to_state() == fresh[0]:
        return None
    return _end_shares(policy.play_out(core), before.num_seats)


#: Actions of one turn at most, when :func:`paired_shares` follows the mover's turn.
MOVE_CAP = 64


@dataclass(frozen=True, slots=True)
class AnalysisProgress:
    """How far an analysis made in slices has come (:func:`analyse_slice`); picklable, so a
    worker process can make one slice and the next slice can be made by another.

    Attributes:
        sums: per turn of the game, each seat's rollout shares summed so far.
        done: rollouts per turn of the whole rounds finished.
        position: turns of the round under way already done (0: the round has not begun).
        spent: CPU seconds of the whole rounds finished.
        took: CPU seconds of the round under way so far.
        finished: no further rollouts are due (the count or the CPU budget reached).
        squares: per turn, each seat's squared shares summed (the level's noise).
        befores: per turn, each seat's shares summed in the rollouts paired with the turn's:
            from the turn before, in the same worlds (:func:`paired_reveal`).
        change_squares: per turn, each seat's squared paired change summed (rollout ``k``
            after the move minus rollout ``k`` before it; the change's noise).
        last: the round's shares of the turn done last, one row per rollout (the pairing
            of a next turn that revealed nothing).
    """

    sums: tuple[tuple[float, ...], ...]
    done: int = 0
    position: int = 0
    spent: float = 0.0
    took: float = 0.0
    finished: bool = False
    squares: tuple[tuple[float, ...], ...] = ()
    befores: tuple[tuple[float, ...], ...] = ()
    change_squares: tuple[tuple[float, ...], ...] = ()
    last: tuple[tuple[float, ...], ...] = ()


class _Sums:
    """The running sums of one analysis (mutable; :class:`AnalysisProgress` is their frozen
    copy between slices)."""

    def __init__(self, progress: AnalysisProgress, seats: int) -> None:
        def rows(kept: tuple[tuple[float, ...], ...]) -> list[list[float]]:
            return [list(r) for r in kept] or [[0.0] * seats for _ in progress.sums]

        self.sums = rows(progress.sums)
        self.squares = rows(progress.squares)
        self.befores = rows(progress.befores)
        self.changes = rows(progress.change_squares)
        self.last = list(progress.last)

    def add(
        self,
        turn: int,
        after: list[tuple[float, ...]],
        before: list[tuple[float, ...]] | None,
        rolled: bool,
    ) -> None:
        """Add one turn's rollouts (``after``: one row of seat shares per rollout; summed when
        ``rolled``, not for the real result), paired with ``before`` (the same worlds before
        the move; None for none)."""
        total, square = self.sums[turn], self.squares[turn]
        prior, change = self.befores[turn], self.changes[turn]
        for k, row in enumerate(after):
            for s, share in enumerate(row):
                if rolled:
                    total[s] += share
                    square[s] += share * share
                if before is not None:
                    prior[s] += before[k][s]
                    change[s] += (share - before[k][s]) ** 2
        self.last = after

    def frozen(self, **fields: Any) -> AnalysisProgress:
        """The progress with these sums and ``fields``."""
        return AnalysisProgress(
            tuple(map(tuple, self.sums)),
            squares=tuple(map(tuple, self.squares)),
            befores=tuple(map(tuple, self.befores)),
            change_squares=tuple(map(tuple, self.changes)),
            last=tuple(self.last),
            **fields,
        )


def paired_reveal(before: GameState, after: GameState) -> dict[str, int]:
    """What a move took from the top of the hidden decks, from the states before and after
    it: stream (``deck``, ``tickets:<name>``) -> cards or tickets taken (a blind draw, the
    face-up row refilled, a tunnel's cards, tickets drawn); only those above nought.

    A deck whose remaining part (under the cards taken) is the bottom of the deck after
    (tickets given back go under it) took its top; a deck run out and reshuffled took all.
    """
    out: dict[str, int] = {}
    decks = [("deck", before.deck, after.deck)] + [
        (f"tickets:{name}", deck, after.ticket_decks.get(name, []))
        for name, deck in before.ticket_decks.items()
    ]
    for stream, old, new in decks:
        for k in range(len(old) + 1):
            rest = old[: len(old) - k]
            if len(new) >= len(rest) and new[len(new) - len(rest) :] == rest:
                if k:
                    out[stream] = k
                break
    return out


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

    Each round rolls out every turn before the end in the round's worlds and, for a turn
    whose move took cards or tickets from the decks (and could have been otherwise), the
    turn before it again in the same worlds with what the move took on top
    (:func:`paired_reveal`), so that both sides of the change meet the same cards.

    Args and ``clock``: as :func:`analyse`. Raises ValueError for no turns.
    """
    if not turns:
        raise ValueError("a game without turns has nothing to analyse")
    seats = turns[0].state.num_seats
    if progress is None:
        progress = AnalysisProgress(tuple((0.0,) * seats for _ in turns))
    if progress.finished or turns[0].state.result is not None or progress.done >= rollouts:
        return replace(progress, finished=True)
    sums = _Sums(progress, seats)
    seeds = rollout_seeds(max(rollouts, 1) + ROUND)
    done, position, spent, took = progress.done, progress.position, progress.spent, progress.took
    begun = start = clock()

    def paused() -> AnalysisProgress:
        return sums.frozen(done=done, position=position, spent=spent, took=took)

    while True:
        while position < len(turns):
            _turn_rollouts(rules, turns, position, seeds[done : done + ROUND], sums)
            position += 1
            if position < len(turns) and (slice_s is not None or stop is not None):
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


def _turn_rollouts(
    rules: ClassicRules, turns: Sequence[TurnState], i: int, seeds: Sequence[int], sums: _Sums
) -> None:
    """Turn ``i``'s part of a round: its rollouts (the real result once the game is over) and,
    paired with them, the turn before's in the same worlds (see :func:`analyse_slice`)."""
    state = turns[i].state
    rolled = state.result is None
    if state.result is None:
        after = [rollout_shares(rules, state, seed) for seed in seeds]
    else:
        after = [result_shares(state.result, state.num_seats)] * len(seeds)
    before: list[tuple[float, ...]] | None = None
    if i:
        prior = turns[i - 1].state
        reveal = {} if turns[i].forced else paired_reveal(prior, state)
        if reveal:
            before = []
            for k, seed in enumerate(seeds):
                paired = paired_shares(rules, prior, state, seed, reveal)
                before.append(after[k] if paired is None else paired)
        elif len(sums.last) == len(seeds):
            before = sums.last
    sums.add(i, after, before, rolled)


def _standard_error(total: float, squares: float, n: int) -> float:
    """The standard error of the mean of ``n`` values from their sum and sum of squares
    (the sample's variance over ``n - 1``); infinite for fewer than two values."""
    if n < 2:
        return math.inf
    mean = total / n
    return math.sqrt(max(0.0, (squares - n * mean * mean) / (n - 1)) / n)


def finish_analysis(turns: Sequence[TurnState], progress: AnalysisProgress) -> GameAnalysis:
    """The analysis of ``turns`` from the rollouts of ``progress`` (see :func:`analyse_slice`;
    a round not finished is left out): each turn's chances and their standard errors, each
    move's own change (the rollouts paired: common random numbers) and its standard error,
    and the turning points."""
    seats = turns[0].state.num_seats
    n = progress.done
    blank = tuple((0.0,) * seats for _ in turns)
    squares = progress.squares or blank
    befores, changes = progress.befores or blank, progress.change_squares or blank
    points: list[TurnChance] = []
    for i, t in enumerate(turns):
        if t.state.result is not None:
            chances, se = result_shares(t.state.result, seats), (0.0,) * seats
        elif n:
            chances = tuple(v / n for v in progress.sums[i])
            se = tuple(_standard_error(progress.sums[i][s], squares[i][s], n) for s in range(seats))
        else:
            chances, se = (1.0 / seats,) * seats, (math.inf,) * seats
        move_change = change_se = None
        if i and n:
            move_change = tuple(chances[s] - befores[i][s] / n for s in range(seats))
            change_se = tuple(
                _standard_error(n * move_change[s], changes[i][s], n) for s in range(seats)
            )
        points.append(
            TurnChance(t.turn, t.seat, t.move, chances, se, change_se, t.forced, move_change)
        )
    return GameAnalysis(
        map_id=turns[0].state.map_id,
        seats=seats,
        method=METHOD,
        rollouts=n,
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
    """At most ``count`` turns after which some seat's chance changed most, in turn order,
    among the turns whose change tells something:

    - the move could have been otherwise (not :attr:`TurnChance.forced`);
    - for some seat, both the chart's step from the turn before and the move's own change
      (:attr:`TurnChance.move_change`: the paired rollouts, the luck of the draw on neither
      side; the step itself in an older analysis) are at least :data:`MIN_CHANGE`, in the
      same direction, and the own change is more than :data:`NOISE_Z` of its standard
      errors (:attr:`TurnChance.change_se`, when known): a change the estimate's noise
      would hardly make. The last turn (the jump to the real result) takes the same test
      against the rollouts of the turn before it, so it counts only when the last move
      itself decided.

    The point tells the chart's values (``before``, ``after``) and the own change's
    standard error (``se``).

    For each such turn the seat whose chance moved most among those is named (on a tie, a
    seat other than the one who played, then the lower seat: "Björn claimed ...; Åsa's
    chance 48% -> 21%"). Ties between turns go to the earlier turn. Fewer turns, or none,
    when fewer pass.
    """
    found: list[tuple[float, int, TurningPoint]] = []
    for i in range(1, len(turns)):
        prev, cur = turns[i - 1], turns[i]
        if cur.forced:
            continue
        moved = [c - p for c, p in zip(cur.chances, prev.chances, strict=True)]
        own = moved if cur.move_change is None else cur.move_change
        changes = [round(abs(c), 9) for c in moved]
        clear = [
            s
            for s, change in enumerate(own)
            if round(abs(change), 9) >= MIN_CHANGE
            and round(abs(moved[s]), 9) >= MIN_CHANGE
            and change * moved[s] > 0
            and (cur.change_se is None or abs(change) > NOISE_Z * cur.change_se[s])
        ]
        if not clear:
            continue
        seat = min(clear, key=lambda s: (-changes[s], s == cur.seat, s))
        se = None if cur.change_se is None else cur.change_se[seat]
        point = TurningPoint(
            cur.turn, cur.seat, cur.move, seat, prev.chances[seat], cur.chances[seat], se
        )
        found.append((changes[seat], i, point))
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
    "BAND_Z",
    "CPU_BUDGET_S",
    "KEYS_PER_ITEM",
    "METHOD",
    "MIN_CHANGE",
    "MOVE_CAP",
    "NOISE_Z",
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
    "paired_reveal",
    "paired_shares",
    "finish_analysis",
    "game_turns",
    "result_shares",
    "rollout_seeds",
    "rounded_shares",
    "rollout_shares",
    "turning_points",
    "world_order",
]
