"""Player intents: one frozen dataclass per kind of action, each carrying the acting seat.

Every change to a game is one of these applied by :func:`engine.reducer.apply`.
JSON form (see :mod:`engine.codec`): ``{"type": "<kind>", "seat": n, ...fields}``,
the fields written by the class itself (:meth:`Action.json_fields` and
:meth:`Action.from_json`). The actions every map shares are here; a rule set's
own are declared in its module (``engine/rules/<name>.py``) with
:func:`action_type`, which puts them in :data:`ACTION_TYPES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from .errors import IllegalAction
from .types import Cards

#: kind -> class of every action (the shared ones and every imported rule set's own).
ACTION_TYPES: dict[str, type[Action]] = {}

AT = TypeVar("AT", bound="type[Action]")


def action_type(cls: AT) -> AT:
    """Class decorator: register an action class under its ``kind`` in :data:`ACTION_TYPES`
    (put it above ``@dataclass``, so that the final class is registered)."""
    ACTION_TYPES[cls.kind] = cls
    return cls


def json_str(data: Mapping[str, Any], name: str) -> str:
    """The string field ``name`` of an action's JSON. Raises KeyError/TypeError on a defect."""
    value = data[name]
    if not isinstance(value, str):
        raise TypeError(name)
    return value


def json_cards(value: Any) -> Cards:
    """A card set (``{colour: count}``) of an action's JSON.

    Raises:
        IllegalAction: ``malformed_action`` for anything else.
    """
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise IllegalAction("malformed_action", {"field": "cards"})
    try:
        return Cards(value)
    except ValueError as exc:
        raise IllegalAction("malformed_action", {"field": "cards", "reason": str(exc)}) from None


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions. ``seat`` is the acting seat (0-based)."""

    seat: int
    kind: ClassVar[str] = "action"

    def json_fields(self) -> dict[str, Any]:
        """This action's JSON fields besides ``type`` and ``seat``. Default: none."""
        return {}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        """The action of ``seat`` from its JSON object (inverse of :meth:`json_fields`).

        Raises:
            KeyError, TypeError, ValueError, IllegalAction: a missing or bad field (the
                codec answers all of them with ``IllegalAction("malformed_action")``).
        """
        return cls(seat)


@dataclass(frozen=True, slots=True)
class DrawBlind(Action):
    """Draw the top card of the deck (USA rules, "Wagenkarten nehmen")."""

    kind: ClassVar[str] = "draw_blind"


@dataclass(frozen=True, slots=True)
class DrawFaceUp(Action):
    """Take the face-up card in ``slot`` (0-based, 0-4); the slot is refilled at once."""

    slot: int = 0
    kind: ClassVar[str] = "draw_face_up"

    def json_fields(self) -> dict[str, Any]:
        return {"slot": self.slot}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        slot = data["slot"]
        if not isinstance(slot, int) or isinstance(slot, bool):
            raise TypeError("slot")
        return cls(seat, slot)


@dataclass(frozen=True, slots=True)
class ClaimRoute(Action):
    """Claim ``route`` paying ``payment`` (for a tunnel: the committed cards)."""

    route: str = ""
    payment: Cards = Cards()
    kind: ClassVar[str] = "claim_route"

    def json_fields(self) -> dict[str, Any]:
        return {"route": self.route, "payment": self.payment.to_dict()}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        return cls(seat, json_str(data, "route"), json_cards(data["payment"]))


@dataclass(frozen=True, slots=True)
class PayTunnel(Action):
    """Pay the ``extra`` cards a tunnel's revealed cards demanded (Nordic rulebook, "Tunnel")."""

    extra: Cards = Cards()
    kind: ClassVar[str] = "pay_tunnel"

    def json_fields(self) -> dict[str, Any]:
        return {"extra": self.extra.to_dict()}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        return cls(seat, json_cards(data["extra"]))


@dataclass(frozen=True, slots=True)
class AbandonTunnel(Action):
    """Give up the tunnel: take the committed cards back; the turn ends."""

    kind: ClassVar[str] = "abandon_tunnel"


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    """Draw destination tickets; ``mix`` = ((deck, count), ...) where a map asks for a mix (Germany)."""

    mix: tuple[tuple[str, int], ...] = ()
    kind: ClassVar[str] = "draw_tickets"

    def json_fields(self) -> dict[str, Any]:
        return {"mix": [[d, n] for d, n in self.mix]}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        parsed = []
        for entry in data.get("mix", []):
            name, n = entry
            if not isinstance(name, str) or not isinstance(n, int) or isinstance(n, bool):
                raise TypeError("mix")
            parsed.append((name, n))
        return cls(seat, tuple(parsed))


@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    """Keep these of the offered tickets (also the simultaneous initial choice)."""

    tickets: tuple[str, ...] = ()
    kind: ClassVar[str] = "keep_tickets"

    def json_fields(self) -> dict[str, Any]:
        return {"tickets": list(self.tickets)}

    @classmethod
    def from_json(cls, seat: int, data: Mapping[str, Any]) -> Self:
        tickets = data["tickets"]
        if not isinstance(tickets, list) or not all(isinstance(t, str) for t in tickets):
            raise TypeError("tickets")
        return cls(seat, tuple(tickets))


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn doing nothing; legal only when no other action is."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """Resign the game: legal at any time (setup or play, on or off turn) for a seat that
    has not resigned yet. The seat stays in the game (an AI may play it on) but never
    wins: it is ranked after every other seat.

    Not listed by :func:`engine.reducer.legal_actions` (which lists game moves only);
    see :func:`engine.reducer.can_resign`.
    """

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class UndoLast(Action):
    """Take back ``seat``'s last move, after the other players agreed (the bot asks them; house
    rule, not in the rulebooks): legal only while the state keeps that move's position
    (:attr:`engine.state.GameState.undo`: a claim or a train station that showed nothing hidden,
    and no action since). The position before the move comes back; the action log keeps both
    the move and this action, so a replay ends where the game is.

    Not listed by :func:`engine.reducer.legal_actions` (the AI never takes a move back); see
    :func:`engine.reducer.can_undo`. The integer core (:mod:`engine.integer_core`) has no such
    action: it never meets one in a search, and a core wanted after an undo is rebuilt from the
    value state (``Core.from_state``; ``tests/engine/test_undo.py`` plays random games with
    undos on every map and holds both engines equal that way).
    """

    kind: ClassVar[str] = "undo_last"


for _shared in (
    DrawBlind,
    DrawFaceUp,
    ClaimRoute,
    PayTunnel,
    AbandonTunnel,
    DrawTickets,
    KeepTickets,
    Pass,
    Resign,
    UndoLast,
):
    action_type(_shared)
