"""The game state: everything needed to continue a game, hidden information included.

A :class:`GameState` is a value: :func:`engine.reducer.apply` changes a
:meth:`GameState.clone` that shares nothing that can change with the state it
was given (every seat's player, the ticket decks, the options are copied), so
neither the reducer nor a rule set's hook can reach a state handed out before,
and a state handed out is never modified. Cards are stored as colour strings;
the deck and ticket decks keep their top at the END of the list. The RNG state
(``rng``) lives here, so chance is part of the value.

Phases: ``"setup"`` (initial tickets, all seats at once), ``"play"``,
``"finished"``. ``step`` (:data:`STEPS`) says what the active seat must do:

- ``"turn"``: choose an action (draw, claim, tickets, a rule set's own, pass);
- ``"second_card"``: draw the second card;
- ``"keep_tickets"``: keep some of the drawn tickets;
- ``"tunnel"``: pay a tunnel's extra cards or abandon it;
- ``"over"``: the game is finished;
- a rule set's own decisions (its ``core_hooks.steps``), e.g. Paris's ``"flag"``.

A rule set's own fields (Europe's train stations, Amsterdam's merchandise,
Paris's French flags) are not attributes of these classes: each class has an
``extra`` field holding the rule set's typed, immutable value (or None), declared
in the rule set's module (:mod:`engine.extras`).

:data:`CLAIMED` (``"claimed"``) is transient: the reducer sets it while a
claim is finished, and a rule set's ``on_route_claimed`` hook may replace it
with a decision of its own; the turn ends when it is still there. No state
that :func:`engine.apply` returns has it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .extras import PlayerExtra, ScoreExtra, StateExtra, field_value, from_flat

#: The values of :attr:`GameState.step` under the rules every map shares, in the integer
#: core's order (its step ints index this); a rule set adds its own after them.
STEPS: tuple[str, ...] = ("turn", "second_card", "keep_tickets", "over", "tunnel")
#: The transient step of a claim being finished (module docstring); never handed out.
CLAIMED = "claimed"


@dataclass(slots=True)
class PlayerState:
    """One seat's pieces, cards and tickets.

    Attributes:
        seat: 0-based seat number.
        pieces: trains (carts, buses) left.
        hand: colour -> count (hidden from others).
        tickets: kept ticket ids (hidden from others).
        offer: ticket ids drawn and waiting for the keep decision (hidden).
        needs_mix: during setup, the seat must first announce a ticket mix (Germany).
        routes: claimed route ids in claim order (public).
        route_points: points from claimed routes (public).
        bonus_points: points scored during play, e.g. French flags (public).
        resigned: the seat resigned (public); it plays on but cannot win.
        extra: the rule set's own fields of this seat (:class:`engine.extras.PlayerExtra`,
            public), None when it has none or they are blank.
    """

    seat: int
    pieces: int
    hand: dict[str, int] = field(default_factory=dict)
    tickets: list[str] = field(default_factory=list)
    offer: list[str] = field(default_factory=list)
    needs_mix: bool = False
    routes: list[str] = field(default_factory=list)
    route_points: int = 0
    bonus_points: int = 0
    resigned: bool = False
    extra: PlayerExtra | None = None

    @property
    def card_count(self) -> int:
        """Number of cards in hand."""
        return sum(self.hand.values())

    @property
    def public_score(self) -> int:
        """Score visible during play: routes plus in-game bonuses."""
        return self.route_points + self.bonus_points

    def clone(self) -> PlayerState:
        """An independent copy."""
        return PlayerState(
            self.seat,
            self.pieces,
            dict(self.hand),
            list(self.tickets),
            list(self.offer),
            self.needs_mix,
            list(self.routes),
            self.route_points,
            self.bonus_points,
            self.resigned,
            self.extra,
        )


@dataclass(slots=True)
class TunnelPending:
    """A tunnel claim waiting for the extra payment (Nordic rulebook, "Tunnel").

    Attributes:
        route: the tunnel's route id.
        committed: colour -> count of the cards played for its length.
        color: the colour that revealed cards must match (None: only locomotives were played).
        revealed: the cards turned up from the deck (public).
        extra: how many more cards are owed.
    """

    route: str
    committed: dict[str, int]
    color: str | None
    revealed: list[str]
    extra: int

    def clone(self) -> TunnelPending:
        """An independent copy."""
        return TunnelPending(
            self.route, dict(self.committed), self.color, list(self.revealed), self.extra
        )


@dataclass(slots=True)
class SeatScore:
    """Final score of one seat with its breakdown.

    Attributes:
        seat: 0-based seat.
        score: total points; equals ``sum(breakdown.values())``.
        breakdown: ``routes``, ``tickets`` (net) and the map's bonuses
            (``longest_path``, ``globetrotter`` and the rule set's own ``breakdown_keys``).
        tickets_completed, tickets_failed: counts.
        completed, failed: ticket ids.
        longest_path: length in spaces of the seat's longest continuous path.
        extra: the rule set's own facts of this score (:class:`engine.extras.ScoreExtra`,
            e.g. what Europe's train stations did), None when it has none. Its fields
            read as attributes of the score (``score.stations``), with the registered
            default where this score has none (:func:`engine.extras.field_value`).
    """

    seat: int
    score: int
    breakdown: dict[str, int]
    tickets_completed: int
    tickets_failed: int
    completed: list[str]
    failed: list[str]
    longest_path: int
    extra: ScoreExtra | None = None

    def __getattr__(self, name: str) -> Any:
        """A rule set's field of this score (class docstring)."""
        if name.startswith("__") or name == "extra":
            raise AttributeError(name)
        return field_value(ScoreExtra, self.extra, name)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the rule set's own fields beside the shared ones, only where there are
        any: :meth:`engine.extras.Extra.to_json`)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "score": self.score,
            "breakdown": dict(self.breakdown),
            "tickets_completed": self.tickets_completed,
            "tickets_failed": self.tickets_failed,
            "completed": list(self.completed),
            "failed": list(self.failed),
            "longest_path": self.longest_path,
        }
        if self.extra is not None:
            out.update(self.extra.to_json())
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeatScore:
        """Inverse of :meth:`to_dict`."""
        shared = {f.name for f in dataclasses.fields(cls)}
        return cls(
            d["seat"],
            d["score"],
            dict(d["breakdown"]),
            d["tickets_completed"],
            d["tickets_failed"],
            list(d["completed"]),
            list(d["failed"]),
            d["longest_path"],
            from_flat(ScoreExtra, {k: v for k, v in d.items() if k not in shared}),
        )


@dataclass(slots=True)
class FinalResult:
    """The end of a game: winners (several when tied after all tie-breaks) and per-seat scores."""

    winners: list[int]
    seats: list[SeatScore]
    ranking: list[int]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "seats": [s.to_dict() for s in self.seats],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FinalResult:
        """Inverse of :meth:`to_dict`."""
        return cls(
            list(d["winners"]), [SeatScore.from_dict(s) for s in d["seats"]], list(d["ranking"])
        )


@dataclass(slots=True)
class GameState:
    """The whole game.

    Attributes:
        map_id: the map's id; seed/options: how the game was created.
        num_seats: player count.
        rng: SplitMix64 state (see :mod:`engine.rng`).
        version: number of actions applied so far.
        phase: ``"setup"``, ``"play"`` or ``"finished"``.
        active: the seat whose turn it is (in setup: the first player).
        step: what the active seat must do: one of :data:`STEPS` or the rule set's own
            (module docstring).
        turn: number of completed turns.
        cards_drawn: cards taken so far in the current draw-cards turn.
        deck, discard: card colours; the deck's top is the last element.
        face_up: the face-up row (None where no card could be dealt).
        ticket_decks: deck name -> ticket ids, top last.
        removed_tickets: tickets out of the game (Nordic returns).
        owners: route id -> seat.
        players: one :class:`PlayerState` per seat, in seat order (``players[i].seat == i``).
        last_round_by: the seat that triggered the last round, or None.
        turns_left: turns still to play once the last round started.
        tunnel: the pending tunnel claim, or None.
        passes: consecutive turns ended with Pass (a full round of them ends the game).
        extra: the rule set's own fields of the game (:class:`engine.extras.StateExtra`),
            None when it has none or they are blank.
        result: the final result once finished.
        undo: the position before the last action while that action may be taken back
            (:class:`engine.actions.UndoLast`: a claim or a train station that showed nothing
            hidden, with no action since), else None. Not compared: two states that differ
            only here are the same position (the integer core keeps no such field).
    """

    map_id: str
    seed: int
    options: dict[str, Any]
    num_seats: int
    rng: int
    version: int = 0
    phase: str = "setup"
    active: int = 0
    step: str = "turn"
    turn: int = 0
    cards_drawn: int = 0
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    face_up: list[str | None] = field(default_factory=list)
    ticket_decks: dict[str, list[str]] = field(default_factory=dict)
    removed_tickets: list[str] = field(default_factory=list)
    owners: dict[str, int] = field(default_factory=dict)
    players: list[PlayerState] = field(default_factory=list)
    last_round_by: int | None = None
    turns_left: int | None = None
    tunnel: TunnelPending | None = None
    passes: int = 0
    extra: StateExtra | None = None
    result: FinalResult | None = None
    undo: GameState | None = field(default=None, compare=False, repr=False)

    def clone(self) -> GameState:
        """A deep, independent copy (fast: only lists and dicts are copied; the rule set's
        immutable ``extra``, the final result, set once when the game ends, and the ``undo``
        position, never changed in place, are shared)."""
        return GameState(
            self.map_id,
            self.seed,
            dict(self.options),
            self.num_seats,
            self.rng,
            self.version,
            self.phase,
            self.active,
            self.step,
            self.turn,
            self.cards_drawn,
            list(self.deck),
            list(self.discard),
            list(self.face_up),
            {k: list(v) for k, v in self.ticket_decks.items()},
            list(self.removed_tickets),
            dict(self.owners),
            [p.clone() for p in self.players],
            self.last_round_by,
            self.turns_left,
            self.tunnel.clone() if self.tunnel else None,
            self.passes,
            self.extra,
            self.result,
            self.undo,  # never changed in place: shared
        )

    def seats_to_act(self) -> list[int]:
        """Seats that may act now: every seat with a pending setup choice, else the active seat."""
        if self.phase == "finished":
            return []
        if self.phase == "setup":
            return [p.seat for p in self.players if p.needs_mix or p.offer]
        return [self.active]

    @property
    def finished(self) -> bool:
        """True once the final scores are in ``result``."""
        return self.phase == "finished"
