"""A rule set's own state: typed, immutable values hung on the shared state classes.

The shared classes (:class:`engine.state.GameState`, :class:`engine.state.PlayerState`,
:class:`engine.state.SeatScore` and the views of :mod:`engine.views`) know no rule
set. What one rule set adds to them (Europe's train stations, Amsterdam's
merchandise, Paris's French flags) is one frozen dataclass of that rule set's
module, subclassing one of:

- :class:`StateExtra`: fields of the whole game (``GameState.extra``);
- :class:`PlayerExtra`: fields of one seat (``PlayerState.extra``);
- :class:`ScoreExtra`: fields of one seat's final score (``SeatScore.extra``).

An extra is a value: a hook that changes it stores a new one
(``dataclasses.replace``), so :meth:`engine.state.GameState.clone` shares it. It
is **blank** when it equals its class's default instance, and a blank extra is
never stored: the field holds None instead (:func:`stored`), so that both
engines, a replay and an old stored game agree on one form. A rule set reads
its extra through a helper that turns None into the default instance.

JSON: :meth:`Extra.to_json` / :meth:`Extra.from_json` (by default the fields by
name, tuples as lists, mappings as objects; a class overrides them for other
shapes); the codec adds ``"kind"`` and finds the class again by it
(:func:`extra_type`). Every class registers itself under its ``kind`` when its
module is imported (``engine.rules`` imports every rule set). The field names
are the JSON names of the state before rule sets declared their own (schema 1),
where every rule set's fields stood on every state: :func:`from_flat` reads
them from there.

A view or a score reads a rule set's field as an attribute (``public.stations``):
:func:`field_value` looks it up in the extra, else gives the default of the
registered extra that declares it (a map without stations has none built).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar


def _json(value: Any) -> Any:
    """JSON-able form of a field value: tuples -> lists, mappings -> objects, values with
    ``to_dict`` -> their dict."""
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return value


def _tuples(value: Any) -> Any:
    """Lists -> tuples, recursively (the inverse of :func:`_json` for plain fields)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class Extra:
    """Base of a rule set's own fields (module docstring). Subclasses are frozen dataclasses
    with a default for every field and a unique ``kind`` (their JSON tag)."""

    kind: ClassVar[str] = ""
    #: The registered classes of this level by kind (set per level base class).
    registry: ClassVar[dict[str, type[Extra]]] = {}

    def __init_subclass__(cls) -> None:
        # no super(): ``dataclass(slots=True)`` makes a new class, which a zero-argument
        # super() in this body would not know; object's hook does nothing anyway
        if cls.kind:  # a level base class has none; ``dataclass(slots=True)`` re-registers
            cls.registry[cls.kind] = cls

    def to_json(self) -> dict[str, Any]:
        """The fields' JSON form, by name (without ``kind``)."""
        return {f.name: _json(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of :meth:`to_json`; a missing field takes its default.

        Raises:
            ValueError: an unexpected field.
        """
        names = {f.name for f in dataclasses.fields(cls)}
        extra = set(data) - names - {"kind"}
        if extra:
            raise ValueError(f"unexpected fields {sorted(extra)} for {cls.kind}")
        return cls(**{k: _tuples(v) for k, v in data.items() if k in names})

    def blank(self) -> bool:
        """True when this equals the class's default instance (stored as None)."""
        return self == type(self)()


@dataclass(frozen=True, slots=True)
class StateExtra(Extra):
    """A rule set's fields of the whole game (``GameState.extra``; public unless the rule
    set's ``public_extra`` hook says otherwise)."""

    registry: ClassVar[dict[str, type[Extra]]] = {}


@dataclass(frozen=True, slots=True)
class PlayerExtra(Extra):
    """A rule set's fields of one seat (``PlayerState.extra``; public as they are)."""

    registry: ClassVar[dict[str, type[Extra]]] = {}

    def cards_out(self) -> tuple[str, ...]:
        """Cards (colours) this seat has face up on the table, out of the deck and of its hand
        (the AI's sampled worlds deal none of them). Default: none."""
        return ()


@dataclass(frozen=True, slots=True)
class ScoreExtra(Extra):
    """A rule set's fields of one seat's final score (``SeatScore.extra``)."""

    registry: ClassVar[dict[str, type[Extra]]] = {}


E = TypeVar("E", bound=Extra)


def stored(extra: E | None) -> E | None:
    """What a state keeps of ``extra``: None for a blank one (module docstring)."""
    return None if extra is None or extra.blank() else extra


def extra_type(level: type[Extra], kind: str) -> type[Extra]:
    """The registered class of ``level`` (:class:`StateExtra`, ...) tagged ``kind``.

    Raises:
        ValueError: no such class.
    """
    cls = level.registry.get(kind)
    if cls is None:
        raise ValueError(f"unknown {level.__name__} kind {kind!r}")
    return cls


def encode_extra(extra: Extra | None) -> dict[str, Any] | None:
    """JSON of an extra field: ``{"kind": kind, **fields}``, or None."""
    if extra is None:
        return None
    return {"kind": extra.kind, **extra.to_json()}


def decode_extra(level: type[E], data: Any) -> E | None:
    """Inverse of :func:`encode_extra` for a field of ``level``.

    Raises:
        ValueError: not an object, an unknown kind, unexpected fields.
    """
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise ValueError(f"a {level.__name__} must be a JSON object")
    cls = extra_type(level, str(data.get("kind")))
    made = cls.from_json(data)
    assert isinstance(made, level)
    return stored(made)


def from_flat(level: type[E], data: Mapping[str, Any]) -> E | None:
    """The extra of ``level`` whose fields stand flat in ``data`` (read by name): a final
    score's JSON, or a schema-1 state or player, where every rule set's fields stood;
    None when all of them are blank. ``data``: the object's keys that are not shared fields.

    Raises:
        ValueError: the fields of two rule sets both hold something.
    """
    found: list[E] = []
    for cls in level.registry.values():
        names = {f.name for f in dataclasses.fields(cls)}
        mine = {k: v for k, v in data.items() if k in names}
        if not mine:
            continue
        made = stored(cls.from_json(mine))
        if made is not None:
            assert isinstance(made, level)
            found.append(made)
    if len(found) > 1:
        raise ValueError(f"the fields of {[e.kind for e in found]} are all in use")
    return found[0] if found else None


def field_value(level: type[Extra], extra: Extra | None, name: str) -> Any:
    """A rule set's field ``name`` as a view or a score shows it: the extra's own, else the
    default of the registered extra of ``level`` that declares it.

    Raises:
        AttributeError: no registered extra of ``level`` has such a field.
    """
    if extra is not None and name in {f.name for f in dataclasses.fields(extra)}:
        return getattr(extra, name)
    for cls in level.registry.values():
        if name in {f.name for f in dataclasses.fields(cls)}:
            return getattr(cls(), name)
    raise AttributeError(name)


__all__ = [
    "Extra",
    "PlayerExtra",
    "ScoreExtra",
    "StateExtra",
    "decode_extra",
    "encode_extra",
    "extra_type",
    "field_value",
    "from_flat",
    "stored",
]
