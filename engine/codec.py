"""JSON codec for actions, events and states (tagged, with a schema version).

- Action JSON: ``{"type": kind, "seat": n, ...fields}``, the fields written and
  read by the action class (:meth:`engine.actions.Action.json_fields`,
  :meth:`engine.actions.Action.from_json`): payments as ``{colour: count}``,
  mixes as ``[[deck, n], ...]``. :func:`decode_action` rejects anything else
  with ``IllegalAction("malformed_action")``.
- Event JSON: ``{"kind": kind, ...fields}`` (``seat`` included for seat events);
  card sets as ``{colour: count}``, tuples as lists. Secret fields are written
  as they are: encode a :meth:`engine.events.EventBase.redacted` copy for
  anything a player may read. ``decode_event(encode_event(e)) == e``.
- State JSON: ``{"schema": STATE_SCHEMA, ...fields}``; a rule set's own fields
  under ``"extra"`` (of the state and of each player) as
  ``{"kind": kind, ...fields}`` (:func:`engine.extras.encode_extra`), or null.
  ``decode_state(encode_state(s)) == s``.

A rule set's actions, events and extras are declared in its module and found
through the registries (:data:`engine.actions.ACTION_TYPES`,
:data:`engine.events.EVENT_TYPES`, :class:`engine.extras.Extra`); importing this
module imports every rule set (:mod:`engine.rules`), so they are all there.

Stored games of earlier releases load: :func:`decode_state` reads schema 1, where
every rule set's fields stood beside the shared ones on every state and player
(``stations``, ``merchandise_left``, ``flag_colors``; ``merchandise``,
``flag_cards``, ``flags``), and upgrades it (:func:`upgrade_state`). Actions and
events kept their JSON.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from . import rules as _rules  # noqa: F401 - every rule set's actions, events and extras
from .actions import ACTION_TYPES, Action
from .errors import IllegalAction
from .events import EVENT_TYPES, EngineEvent, EventBase
from .extras import (
    PlayerExtra,
    StateExtra,
    decode_extra,
    encode_extra,
    from_flat,
)
from .state import FinalResult, GameState, PlayerState, TunnelPending
from .types import Cards

#: Bump when the state JSON changes shape (and teach :func:`upgrade_state` the old one).
#: 1: every rule set's fields on every state; 2: a rule set's own under ``"extra"``.
STATE_SCHEMA = 2


def encode_action(action: Action) -> dict[str, Any]:
    """JSON form of an action."""
    return {"type": action.kind, "seat": action.seat, **action.json_fields()}


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
        return cls.from_json(seat, data)
    except IllegalAction:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalAction("malformed_action", {"reason": f"bad field {exc}"}) from None


def _player_json(player: PlayerState) -> dict[str, Any]:
    out = {f.name: getattr(player, f.name) for f in dataclasses.fields(player)}
    out["hand"] = dict(player.hand)
    out["tickets"] = list(player.tickets)
    out["offer"] = list(player.offer)
    out["routes"] = list(player.routes)
    out["extra"] = encode_extra(player.extra)
    return out


def encode_state(state: GameState) -> dict[str, Any]:
    """JSON form of a whole state (hidden information included: server-side only)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        out[f.name] = getattr(state, f.name)
    out["options"] = dict(state.options)
    out["deck"] = list(state.deck)
    out["discard"] = list(state.discard)
    out["face_up"] = list(state.face_up)
    out["ticket_decks"] = {k: list(v) for k, v in state.ticket_decks.items()}
    out["removed_tickets"] = list(state.removed_tickets)
    out["owners"] = dict(state.owners)
    out["players"] = [_player_json(p) for p in state.players]
    out["tunnel"] = dataclasses.asdict(state.tunnel) if state.tunnel else None
    out["extra"] = encode_extra(state.extra)
    out["result"] = state.result.to_dict() if state.result else None
    # the position a move may be taken back to, only while there is one (no key otherwise: a
    # state without it encodes as before undo existed, so the pinned digests stand)
    undo = out.pop("undo")
    if undo is not None:
        out["undo"] = encode_state(undo)
    out["schema"] = STATE_SCHEMA
    return out


def upgrade_state(data: dict[str, Any]) -> dict[str, Any]:
    """A state's JSON of an earlier schema in the current one (a new dict).

    Schema 1 -> 2: the rule set's own fields, which stood beside the shared ones on
    every state and player, move under ``"extra"`` (:func:`engine.extras.from_flat`:
    the registered extra whose fields hold something; null when all are blank).

    Raises:
        ValueError: an unknown schema.
    """
    schema = data.get("schema")
    if schema == STATE_SCHEMA:
        return dict(data)
    if schema != 1:
        raise ValueError(f"unknown state schema {schema!r}")
    shared = {f.name for f in dataclasses.fields(GameState)}
    d = {k: v for k, v in data.items() if k in shared or k == "schema"}
    d["extra"] = encode_extra(from_flat(StateExtra, _own(data, shared)))
    mine = {f.name for f in dataclasses.fields(PlayerState)}
    d["players"] = [
        {
            **{k: v for k, v in p.items() if k in mine},
            "extra": encode_extra(from_flat(PlayerExtra, _own(p, mine))),
        }
        for p in data["players"]
    ]
    d["schema"] = STATE_SCHEMA
    return d


def _own(data: dict[str, Any], shared: set[str]) -> dict[str, Any]:
    """The keys of a schema-1 object that are not shared fields: the rule sets' own."""
    return {k: v for k, v in data.items() if k not in shared}


def decode_state(data: dict[str, Any]) -> GameState:
    """Inverse of :func:`encode_state`; reads every earlier schema too (:func:`upgrade_state`).

    Raises:
        ValueError: an unknown schema or rule-set field kind.
    """
    d = upgrade_state(data)
    d.pop("schema")
    d["players"] = [
        PlayerState(**{**p, "extra": decode_extra(PlayerExtra, p.get("extra"))})
        for p in d["players"]
    ]
    d["tunnel"] = TunnelPending(**d["tunnel"]) if d.get("tunnel") else None
    d["extra"] = decode_extra(StateExtra, d.get("extra"))
    d["result"] = FinalResult.from_dict(d["result"]) if d.get("result") else None
    d["undo"] = decode_state(d["undo"]) if d.get("undo") else None  # absent before undo existed
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
