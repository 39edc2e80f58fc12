"""JSON codec for actions, events and states (tagged, with a schema version).

- Action JSON: ``{"type": kind, "seat": n, ...}``; payments as ``{colour: count}``;
  mixes as ``[[deck, n], ...]``. :func:`decode_action` rejects anything else
  with ``IllegalAction("malformed_action")``.
- Event JSON: ``{"kind": kind, ...fields}`` (``seat`` included for seat events);
  card sets as ``{colour: count}``, tuples as lists. Secret fields are written
  as they are: encode a :meth:`engine.events.EventBase.redacted` copy for
  anything a player may read. ``decode_event(encode_event(e)) == e``.
- State JSON: ``{"schema": STATE_SCHEMA, ...fields}``; ``decode_state(encode_state(s)) == s``.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import asdict
from typing import Any

from .actions import (
    ACTION_TYPES,
    Action,
    BuildStation,
    ClaimRoute,
    DrawFaceUp,
    DrawTickets,
    KeepFlagCard,
    KeepTickets,
    PayTunnel,
)
from .errors import IllegalAction
from .events import EVENT_TYPES, EngineEvent, EventBase
from .state import FinalResult, GameState, PlayerState, TunnelPending
from .types import Cards

#: Bump when the state JSON changes shape.
STATE_SCHEMA = 1


def encode_action(action: Action) -> dict[str, Any]:
    """JSON form of an action."""
    out: dict[str, Any] = {"type": action.kind, "seat": action.seat}
    if isinstance(action, DrawFaceUp):
        out["slot"] = action.slot
    elif isinstance(action, ClaimRoute):
        out["route"] = action.route
        out["payment"] = action.payment.to_dict()
    elif isinstance(action, PayTunnel):
        out["extra"] = action.extra.to_dict()
    elif isinstance(action, DrawTickets):
        out["mix"] = [[d, n] for d, n in action.mix]
    elif isinstance(action, KeepTickets):
        out["tickets"] = list(action.tickets)
    elif isinstance(action, KeepFlagCard):
        out["color"] = action.color
    elif isinstance(action, BuildStation):
        out["city"] = action.city
        out["payment"] = action.payment.to_dict()
    return out


def _cards(value: Any) -> Cards:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise IllegalAction("malformed_action", {"field": "cards"})
    try:
        return Cards(value)
    except ValueError as exc:
        raise IllegalAction("malformed_action", {"field": "cards", "reason": str(exc)}) from None


def decode_action(data: Any) -> Action:
    """Parse an action's JSON form. Raises ``IllegalAction("malformed_action")`` on any defect."""
    if not isinstance(data, dict):
        raise IllegalAction("malformed_action", {"reason": "not an object"})
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    seat = data.get("seat")
    if cls is None:
        raise IllegalAction("malformed_action", {"reason": "unknown type", "type": kind})
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalAction("malformed_action", {"reason": "seat must be an int"})
    try:
        return _decode_fields(cls, seat, data)
    except IllegalAction:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalAction("malformed_action", {"reason": f"bad field {exc}"}) from None


def _decode_fields(cls: type[Action], seat: int, data: dict[str, Any]) -> Action:
    """The action of class ``cls`` from its JSON fields; KeyError/TypeError/ValueError on a defect."""
    if cls is DrawFaceUp:
        slot = data["slot"]
        if not isinstance(slot, int) or isinstance(slot, bool):
            raise TypeError("slot")
        return DrawFaceUp(seat, slot)
    if cls is ClaimRoute:
        route = data["route"]
        if not isinstance(route, str):
            raise TypeError("route")
        return ClaimRoute(seat, route, _cards(data["payment"]))
    if cls is PayTunnel:
        return PayTunnel(seat, _cards(data["extra"]))
    if cls is DrawTickets:
        return DrawTickets(seat, _mix(data.get("mix", [])))
    if cls is KeepTickets:
        tickets = data["tickets"]
        if not isinstance(tickets, list) or not all(isinstance(t, str) for t in tickets):
            raise TypeError("tickets")
        return KeepTickets(seat, tuple(tickets))
    if cls is KeepFlagCard:
        color = data.get("color")
        if color is not None and not isinstance(color, str):
            raise TypeError("color")
        return KeepFlagCard(seat, color)
    if cls is BuildStation:
        city = data["city"]
        if not isinstance(city, str):
            raise TypeError("city")
        return BuildStation(seat, city, _cards(data["payment"]))
    return cls(seat)


def _mix(mix: Any) -> tuple[tuple[str, int], ...]:
    parsed = []
    for entry in mix:
        name, n = entry
        if not isinstance(name, str) or not isinstance(n, int) or isinstance(n, bool):
            raise TypeError("mix")
        parsed.append((name, n))
    return tuple(parsed)


def encode_state(state: GameState) -> dict[str, Any]:
    """JSON form of a whole state (hidden information included: server-side only)."""
    out = asdict(state)
    out["result"] = state.result.to_dict() if state.result else None
    out["schema"] = STATE_SCHEMA
    return out


def decode_state(data: dict[str, Any]) -> GameState:
    """Inverse of :func:`encode_state`. Raises ValueError on an unknown schema."""
    if data.get("schema") != STATE_SCHEMA:
        raise ValueError(f"unknown state schema {data.get('schema')!r}")
    d = dict(data)
    d.pop("schema")
    d["players"] = [PlayerState(**p) for p in d["players"]]
    d["tunnel"] = TunnelPending(**d["tunnel"]) if d.get("tunnel") else None
    d["result"] = FinalResult.from_dict(d["result"]) if d.get("result") else None
    return GameState(**d)


def encode_event(event: EventBase) -> dict[str, Any]:
    """JSON form of an event: ``{"kind": kind, **fields}`` (see the module docstring)."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        out[f.name] = _event_json(getattr(event, f.name))
    return out


def _event_json(value: Any) -> Any:
    if isinstance(value, Cards):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_event_json(v) for v in value]
    return value


_CARD_FIELDS: dict[str, frozenset[str]] = {}


def _card_fields(cls: type[EventBase]) -> frozenset[str]:
    """Names of the fields of ``cls`` that hold a :class:`Cards` (cached per kind)."""
    found = _CARD_FIELDS.get(cls.kind)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = frozenset(f.name for f in dataclasses.fields(cls) if hints.get(f.name) is Cards)
        _CARD_FIELDS[cls.kind] = found
    return found


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def decode_event(data: Any) -> EngineEvent:
    """Inverse of :func:`encode_event`.

    Raises:
        ValueError: not an object, an unknown ``kind``, missing or unexpected fields,
            a bad card set.
    """
    if not isinstance(data, dict):
        raise ValueError("an event must be a JSON object")
    cls = EVENT_TYPES.get(data.get("kind", ""))
    if cls is None:
        raise ValueError(f"unknown event kind {data.get('kind')!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - names - {"kind"}
    if extra:
        raise ValueError(f"unexpected fields {sorted(extra)} for {cls.kind}")
    cards = _card_fields(cls)
    kwargs: dict[str, Any] = {}
    for name in names:
        if name not in data:
            continue
        value = data[name]
        if name in cards:
            if not isinstance(value, dict):
                raise ValueError(f"{cls.kind}.{name} must be a card object")
            kwargs[name] = Cards(value)
        else:
            kwargs[name] = _tuples(value)
    try:
        event = cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad fields for {cls.kind}: {exc}") from None
    return typing.cast(EngineEvent, event)
