"""Basic value types of the engine: seats, ids, card colours and the card multiset.

Card colours are plain strings taken from each map's data (``"red"``,
``"pink"``, ...); the wild card is always :data:`LOCOMOTIVE` whatever a map
calls it in player-facing text (locomotive, wild cart card, wild bus card).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NewType

Seat = int
CityId = NewType("CityId", str)
RouteId = NewType("RouteId", str)
TicketId = NewType("TicketId", str)
CardColor = str

#: The wild card of every map (locomotive; Amsterdam/Paris: wild transport card).
LOCOMOTIVE: CardColor = "locomotive"
#: Colour of routes that any one card colour can pay.
GRAY = "gray"


class Cards(Mapping[str, int]):
    """An immutable multiset of cards: colour -> count, counts always > 0.

    Built from a mapping or keyword arguments: ``Cards({"red": 2})``,
    ``Cards(red=2, locomotive=1)``. Hashable and comparable, so it can be used
    in sets and frozen dataclasses. JSON form: a plain ``{colour: count}`` dict.

    Raises:
        ValueError: a negative or non-integer count.
    """

    __slots__ = ("_items", "_hash")

    def __init__(
        self, counts: Mapping[str, int] | Iterable[tuple[str, int]] | None = None, **kw: int
    ) -> None:
        merged: dict[str, int] = {}
        if counts is not None:
            pairs = counts.items() if isinstance(counts, Mapping) else counts
            for color, n in pairs:
                merged[color] = merged.get(color, 0) + n
        for color, n in kw.items():
            merged[color] = merged.get(color, 0) + n
        for color, n in merged.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ValueError(f"card count for {color!r} must be a non-negative int, got {n!r}")
        self._items: tuple[tuple[str, int], ...] = tuple(
            sorted((c, n) for c, n in merged.items() if n)
        )
        self._hash = hash(self._items)

    @classmethod
    def from_sorted_items(cls, items: tuple[tuple[str, int], ...]) -> Cards:
        """A multiset from ``(colour, count)`` pairs already sorted by colour with
        positive int counts (not checked: for hot loops that built them so)."""
        self = cls.__new__(cls)
        self._items = items
        self._hash = hash(items)
        return self

    def __getitem__(self, color: str) -> int:
        for c, n in self._items:
            if c == color:
                return n
        raise KeyError(color)

    def get(self, color: str, default: int = 0) -> int:  # type: ignore[override]
        """Count of ``color`` (0 when absent)."""
        for c, n in self._items:
            if c == color:
                return n
        return default

    def __iter__(self) -> Iterator[str]:
        return (c for c, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == Cards(other)._items
        return NotImplemented

    def __repr__(self) -> str:
        inner = ", ".join(f"{c}={n}" for c, n in self._items)
        return f"Cards({inner})"

    @property
    def total(self) -> int:
        """Number of cards in the multiset."""
        return sum(n for _, n in self._items)

    def to_dict(self) -> dict[str, int]:
        """JSON form: ``{colour: count}`` with sorted keys."""
        return dict(self._items)

    def fits_in(self, hand: Mapping[str, int]) -> bool:
        """True when every count is covered by ``hand`` (a colour -> count mapping)."""
        return all(hand.get(c, 0) >= n for c, n in self._items)
