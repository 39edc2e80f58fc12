"""Player intents: one frozen dataclass per kind of action, each carrying the acting seat.

Every change to a game is one of these applied by :func:`engine.reducer.apply`.
JSON form (see :mod:`engine.codec`): ``{"type": "<kind>", "seat": n, ...fields}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .types import Cards


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions. ``seat`` is the acting seat (0-based)."""

    seat: int
    kind: ClassVar[str] = "action"


@dataclass(frozen=True, slots=True)
class DrawBlind(Action):
    """Draw the top card of the deck (USA rules, "Wagenkarten nehmen")."""

    kind: ClassVar[str] = "draw_blind"


@dataclass(frozen=True, slots=True)
class DrawFaceUp(Action):
    """Take the face-up card in ``slot`` (0-based, 0-4); the slot is refilled at once."""

    slot: int = 0
    kind: ClassVar[str] = "draw_face_up"


@dataclass(frozen=True, slots=True)
class ClaimRoute(Action):
    """Claim ``route`` paying ``payment`` (for a tunnel: the committed cards)."""

    route: str = ""
    payment: Cards = Cards()
    kind: ClassVar[str] = "claim_route"


@dataclass(frozen=True, slots=True)
class PayTunnel(Action):
    """Pay the ``extra`` cards a tunnel's revealed cards demanded (Nordic rulebook, "Tunnel")."""

    extra: Cards = Cards()
    kind: ClassVar[str] = "pay_tunnel"


@dataclass(frozen=True, slots=True)
class AbandonTunnel(Action):
    """Give up the tunnel: take the committed cards back; the turn ends."""

    kind: ClassVar[str] = "abandon_tunnel"


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    """Draw destination tickets; ``mix`` = ((deck, count), ...) where a map asks for a mix (Germany)."""

    mix: tuple[tuple[str, int], ...] = ()
    kind: ClassVar[str] = "draw_tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    """Keep these of the offered tickets (also the simultaneous initial choice)."""

    tickets: tuple[str, ...] = ()
    kind: ClassVar[str] = "keep_tickets"


@dataclass(frozen=True, slots=True)
class KeepFlagCard(Action):
    """Paris: set aside one played card of ``color`` for a French flag, or None to decline."""

    color: str | None = None
    kind: ClassVar[str] = "keep_flag_card"


@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """Europe: build a train station in ``city`` paying ``payment``: as many cards as the
    seat's next station costs (1, 2, 3), of one colour with locomotives wild (rules
    digest, "Train stations"). A whole turn."""

    city: str = ""
    payment: Cards = Cards()
    kind: ClassVar[str] = "build_station"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn doing nothing; legal only when no other action is."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """Resign the game: legal at any time (setup or play, on or off turn) for a seat that
    has not resigned yet. The seat stays in the game (an AI may play it on) but never
    wins: it is ranked after every other seat (issue 14 point 6).

    Not listed by :func:`engine.reducer.legal_actions` (which lists game moves only);
    see :func:`engine.reducer.can_resign`.
    """

    kind: ClassVar[str] = "resign"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        DrawBlind,
        DrawFaceUp,
        ClaimRoute,
        PayTunnel,
        AbandonTunnel,
        DrawTickets,
        KeepTickets,
        KeepFlagCard,
        BuildStation,
        Pass,
        Resign,
    )
}
