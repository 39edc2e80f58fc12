"""What happened: one frozen dataclass per kind of event, a closed union, redaction per reader.

Every :func:`engine.reducer.apply` returns the events of the action in order.
Each event class has a stable ``kind`` (its JSON tag, see
:func:`engine.codec.encode_event`) and names the seat it concerns in ``seat``
(table events such as :class:`FaceUpRefilled` have ``seat = None``). Together
the events of a turn tell everything public a player did, so a formatter can
print one complete turn line: each card drawn (face-up slot
and colour, or "from the deck"), the route claimed with the exact cards paid,
tunnel reveals and their outcome, tickets drawn and kept, face-up refills and
resets, reshuffles, last round, resignations, game over, and what a rule set
adds (French flags, merchandise, train stations: :class:`SeatEvent` subclasses
declared in the rule set's module, in :data:`EVENT_TYPES` once it is imported).

Hidden information: fields listed in a class's ``SECRETS`` are seen only by
the event's own seat (the colour of a blind draw, ticket ids drawn, kept or
returned). :meth:`EventBase.redacted` returns a copy with them cut (set to
None) and :meth:`EventBase.for_reader` gives the JSON-able view of one reader.
Redaction lives here, in the engine, so no caller has to know which fields
are secret.

Transition interface (kept while callers move to matching on the classes):
``.kind`` (str), ``.seat``, ``.public`` (dict), ``.secret`` (dict or None),
``.for_reader(reader)`` (dict), ``.to_dict()`` (dict).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self, TypeAlias, TypeVar

from .types import Cards


def _json(value: Any) -> Any:
    """JSON-able form of an event field: Cards -> dict, tuples -> lists (recursively)."""
    if isinstance(value, Cards):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class EventBase:
    """Shared behaviour of every event class (not itself an event).

    Class attributes:
        kind: the stable tag of the event class (``"card_drawn"``, ...).
        SECRETS: names of fields only the event's seat may see.
    """

    kind: ClassVar[str] = ""
    SECRETS: ClassVar[tuple[str, ...]] = ()

    def secret_fields(self) -> tuple[str, ...]:
        """Names of this event's fields hidden from everyone but its seat."""
        return self.SECRETS

    @property
    def seat_of(self) -> int | None:
        """The seat the event concerns (None for table events)."""
        seat = getattr(self, "seat", None)
        return seat if isinstance(seat, int) else None

    @property
    def public(self) -> dict[str, Any]:
        """JSON-able fields everyone may see (``seat`` excluded)."""
        hidden = self.secret_fields()
        return {
            f.name: _json(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name != "seat" and f.name not in hidden
        }

    @property
    def secret(self) -> dict[str, Any] | None:
        """JSON-able secret fields (only for ``seat``), or None when nothing is hidden.

        A :meth:`redacted` copy has no secret left: None.
        """
        names = self.secret_fields()
        values = {n: getattr(self, n) for n in names}
        if not names or all(v is None for v in values.values()):
            return None
        return {n: _json(v) for n, v in values.items()}

    def redacted(self) -> Self:
        """A copy with every secret field set to None (what the public may keep)."""
        names = self.secret_fields()
        if not names:
            return self
        return dataclasses.replace(self, **dict.fromkeys(names))

    def visible_to(self, reader: int | None) -> bool:
        """True when ``reader`` (a seat, or None for the public) may see the secret fields."""
        return reader is not None and reader == self.seat_of

    def for_reader(self, reader: int | None) -> dict[str, Any]:
        """The event as ``reader`` may see it: ``{"kind", "seat", **public, **secret-if-allowed}``."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat_of, **self.public}
        secret = self.secret
        if secret is not None and self.visible_to(reader):
            out.update(secret)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Full legacy JSON form ``{"kind", "seat", "public", "secret"}`` (server-side only)."""
        return {
            "kind": self.kind,
            "seat": self.seat_of,
            "public": self.public,
            "secret": self.secret,
        }


# ------------------------------------------------------------------ cards
@dataclass(frozen=True, slots=True)
class CardDrawn(EventBase):
    """``seat`` took a card: from the deck (``source="deck"``, colour secret) or face up.

    Attributes:
        source: ``"deck"`` or ``"face_up"``.
        slot: the face-up slot (0-based) taken, None for the deck.
        color: the card's colour; for a deck draw seen only by ``seat``.
    """

    seat: int
    source: Literal["deck", "face_up"]
    slot: int | None = None
    color: str | None = None
    kind: ClassVar[str] = "card_drawn"
    SECRETS: ClassVar[tuple[str, ...]] = ("color",)

    def secret_fields(self) -> tuple[str, ...]:
        """The colour is secret only for a deck draw."""
        return ("color",) if self.source == "deck" else ()


@dataclass(frozen=True, slots=True)
class FaceUpRefilled(EventBase):
    """A face-up ``slot`` was dealt ``color`` from the deck (None: no card was left)."""

    slot: int
    color: str | None
    kind: ClassVar[str] = "face_up_refilled"
    seat: ClassVar[None] = None


@dataclass(frozen=True, slots=True)
class FaceUpReset(EventBase):
    """Three (the map's limit) face-up locomotives: the row went to the discard, a new one was dealt.

    Attributes:
        discarded: the row that was discarded.
        face_up: the new row (None where no card was left).
    """

    discarded: tuple[str, ...]
    face_up: tuple[str | None, ...]
    kind: ClassVar[str] = "face_up_reset"
    seat: ClassVar[None] = None


@dataclass(frozen=True, slots=True)
class DeckReshuffled(EventBase):
    """The discard pile was shuffled into a new draw deck of ``size`` cards."""

    size: int
    kind: ClassVar[str] = "deck_reshuffled"
    seat: ClassVar[None] = None


# ------------------------------------------------------------------ routes
@dataclass(frozen=True, slots=True)
class RouteClaimed(EventBase):
    """``seat`` claimed ``route`` paying exactly ``payment`` (for a tunnel: committed + extra).

    Attributes:
        payment: colour -> count of the cards paid.
        points: route points scored.
        pieces_left: the seat's trains (carts, buses) left.
    """

    seat: int
    route: str
    payment: Cards
    points: int
    pieces_left: int
    kind: ClassVar[str] = "route_claimed"


@dataclass(frozen=True, slots=True)
class TunnelRevealed(EventBase):
    """``seat`` played ``committed`` for a tunnel and three cards were turned up (Nordic, "Tunnel").

    Attributes:
        revealed: the cards turned up (fewer when the deck ran out).
        extra: how many more cards of the played colour (or locomotives) are owed;
            0 means the tunnel is claimed at once (a :class:`RouteClaimed` follows).
    """

    seat: int
    route: str
    committed: Cards
    revealed: tuple[str, ...]
    extra: int
    kind: ClassVar[str] = "tunnel_revealed"


@dataclass(frozen=True, slots=True)
class TunnelPaid(EventBase):
    """``seat`` paid the ``extra`` cards the tunnel demanded (a :class:`RouteClaimed` follows)."""

    seat: int
    route: str
    extra: Cards
    kind: ClassVar[str] = "tunnel_paid"


@dataclass(frozen=True, slots=True)
class TunnelAbandoned(EventBase):
    """``seat`` dropped the tunnel claim and took its ``committed`` cards back; the turn ends."""

    seat: int
    route: str
    committed: Cards
    kind: ClassVar[str] = "tunnel_abandoned"


# ------------------------------------------------------------------ tickets
@dataclass(frozen=True, slots=True)
class TicketsDrawn(EventBase):
    """``seat`` drew ``count`` destination tickets (``mix``: per-deck counts, Germany).

    Attributes:
        mix: ``((deck, count), ...)``.
        tickets: the ticket ids drawn (secret).
    """

    seat: int
    count: int
    mix: tuple[tuple[str, int], ...]
    tickets: tuple[str, ...] | None = None
    kind: ClassVar[str] = "tickets_drawn"
    SECRETS: ClassVar[tuple[str, ...]] = ("tickets",)


@dataclass(frozen=True, slots=True)
class TicketsKept(EventBase):
    """``seat`` kept ``kept`` of the offered tickets and gave ``returned`` back.

    Attributes:
        returned_to: ``"bottom"`` (under their deck) or ``"removed"`` (out of the game, Nordic).
        tickets, returned_tickets: the ids (secret).
    """

    seat: int
    kept: int
    returned: int
    returned_to: Literal["bottom", "removed"] = "bottom"
    tickets: tuple[str, ...] | None = None
    returned_tickets: tuple[str, ...] | None = None
    kind: ClassVar[str] = "tickets_kept"
    SECRETS: ClassVar[tuple[str, ...]] = ("tickets", "returned_tickets")


# ------------------------------------------------------------------ a rule set's own
@dataclass(frozen=True, slots=True)
class SeatEvent(EventBase):
    """Base of a rule set's own events (declared in its module, ``engine/rules/<name>.py``,
    and registered with :func:`event_type`): each concerns one ``seat``."""

    seat: int


# ------------------------------------------------------------------ turns and game
@dataclass(frozen=True, slots=True)
class PlayStarted(EventBase):
    """Every seat chose its initial tickets; seat ``first`` plays the first turn."""

    first: int
    kind: ClassVar[str] = "play_started"
    seat: ClassVar[None] = None


@dataclass(frozen=True, slots=True)
class TurnStarted(EventBase):
    """It is ``seat``'s turn; ``turn`` turns were completed before it."""

    seat: int
    turn: int
    kind: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class Passed(EventBase):
    """``seat`` could do nothing and passed."""

    seat: int
    kind: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class LastRound(EventBase):
    """``seat`` ended a turn with ``pieces`` trains or fewer: every seat has one more turn."""

    seat: int
    pieces: int
    kind: ClassVar[str] = "last_round"


@dataclass(frozen=True, slots=True)
class Resigned(EventBase):
    """``seat`` resigned: it can no longer win (play goes on, e.g. by an AI)."""

    seat: int
    kind: ClassVar[str] = "resigned"


@dataclass(frozen=True, slots=True)
class MoveTakenBack(EventBase):
    """``seat`` took its last move back with the other players' consent
    (:class:`engine.actions.UndoLast`): the position before that move is back, and ``seat``
    is to move again."""

    seat: int
    kind: ClassVar[str] = "move_taken_back"


@dataclass(frozen=True, slots=True)
class GameOver(EventBase):
    """The game ended: ``winners`` (seats) and final ``scores`` indexed by seat."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    kind: ClassVar[str] = "game_over"
    seat: ClassVar[None] = None


#: Every event the engine emits (a closed union: match on the classes; a rule set's own
#: are :class:`SeatEvent` subclasses of its module).
EngineEvent: TypeAlias = (
    CardDrawn
    | FaceUpRefilled
    | FaceUpReset
    | DeckReshuffled
    | RouteClaimed
    | TunnelRevealed
    | TunnelPaid
    | TunnelAbandoned
    | TicketsDrawn
    | TicketsKept
    | PlayStarted
    | TurnStarted
    | Passed
    | LastRound
    | Resigned
    | MoveTakenBack
    | GameOver
    | SeatEvent
)

#: Old name, kept for annotations in callers (``list[Event]``).
Event: TypeAlias = EngineEvent

#: kind -> class of every event: the shared ones and every imported rule set's own
#: (formatters test their completeness against it).
EVENT_TYPES: dict[str, type[EventBase]] = {}

ET = TypeVar("ET", bound="type[EventBase]")


def event_type(cls: ET) -> ET:
    """Class decorator: register an event class under its ``kind`` in :data:`EVENT_TYPES`
    (put it above ``@dataclass``, so that the final class is registered)."""
    EVENT_TYPES[cls.kind] = cls
    return cls


for _shared in (
    CardDrawn,
    FaceUpRefilled,
    FaceUpReset,
    DeckReshuffled,
    RouteClaimed,
    TunnelRevealed,
    TunnelPaid,
    TunnelAbandoned,
    TicketsDrawn,
    TicketsKept,
    PlayStarted,
    TurnStarted,
    Passed,
    LastRound,
    Resigned,
    MoveTakenBack,
    GameOver,
):
    event_type(_shared)

__all__ = [
    "EVENT_TYPES",
    "CardDrawn",
    "DeckReshuffled",
    "EngineEvent",
    "Event",
    "EventBase",
    "event_type",
    "FaceUpRefilled",
    "FaceUpReset",
    "GameOver",
    "LastRound",
    "MoveTakenBack",
    "Passed",
    "PlayStarted",
    "Resigned",
    "RouteClaimed",
    "SeatEvent",
    "TicketsDrawn",
    "TicketsKept",
    "TunnelAbandoned",
    "TunnelPaid",
    "TunnelRevealed",
    "TurnStarted",
]
