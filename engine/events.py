"""What happened: events with their visibility.

An :class:`Event` has a ``public`` part everyone may see and an optional
``secret`` part only its ``seat`` may see (the colour of a blind draw, the
tickets drawn). :meth:`Event.for_reader` redacts per reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    Attributes:
        kind: e.g. ``"card_drawn"``, ``"route_claimed"``, ``"tunnel_revealed"``.
        seat: the seat it concerns (None for table events).
        public: JSON-able facts visible to everyone.
        secret: JSON-able facts visible only to ``seat`` (None: nothing hidden).
    """

    kind: str
    seat: int | None = None
    public: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] | None = None

    def for_reader(self, reader: int | None) -> dict[str, Any]:
        """The event as ``reader`` (a seat, or None for the public) may see it.

        Returns ``{"kind", "seat", **public, **secret-if-allowed}``.
        """
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat, **self.public}
        if self.secret is not None and reader is not None and reader == self.seat:
            out.update(self.secret)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Full JSON form (for logs kept server-side)."""
        return {"kind": self.kind, "seat": self.seat, "public": self.public, "secret": self.secret}
