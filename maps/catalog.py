"""The registry of usable maps (:func:`registry`): what the bot offers in choices, autocomplete and ``/ttr rules`` without a map.

:func:`registry` validates every map folder (built-in and ``TTR_MAPS_DIR``)
and lists the valid ones as typed :class:`MapEntry` rows; a broken map is left
out and kept in :attr:`MapRegistry.refused` with every problem, so one broken
extra map never takes the others down. A map is validated
again only when its ``map.json`` changes (size or modification time), so
calling :func:`registry` on every autocomplete keystroke is cheap.

Player-facing words (labels such as "provisional") are not made here: the
entries carry data (names per language, status) for the words module to use.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from .errors import MapError, UnknownMap
from .folders import MapFolder, Source, load_map_file, map_folders
from .schema import MapFile

#: Discord shows at most 25 choices or autocomplete suggestions.
MAX_SUGGESTIONS = 25


@dataclass(frozen=True, slots=True)
class MapEntry:
    """One usable map.

    Attributes:
        id: the map id (folder name), the value stored in games and passed to
            :func:`maps.load_ruleset`.
        names: language (``"en"``, ``"de"``) -> the map's name (read-only).
        min_players, max_players: the allowed seat count.
        status: provenance ``"exact"`` or ``"provisional"`` (a board not read from
            the printed one, or partly so).
        notes: the provenance's one-sentence note (why it is provisional).
        ruleset: ``classic``, ``amsterdam``, ``paris`` or ``europe``.
        source: ``"builtin"`` or ``"extra"`` (from ``TTR_MAPS_DIR``).
        folder: the map's folder.
    """

    id: str
    names: Mapping[str, str]
    min_players: int
    max_players: int
    status: Literal["exact", "provisional"]
    notes: str
    ruleset: str
    source: Source
    folder: Path

    @classmethod
    def from_model(cls, model: MapFile, folder: MapFolder) -> MapEntry:
        """The entry of a validated map file found in ``folder``."""
        players = model.rules.players
        return cls(
            id=model.id,
            names=MappingProxyType({"en": model.name.en, "de": model.name.de}),
            min_players=players.min,
            max_players=players.max,
            status=model.provenance.status,
            notes=model.provenance.notes,
            ruleset=model.ruleset,
            source=folder.source,
            folder=folder.path,
        )

    @property
    def provisional(self) -> bool:
        """True when the board is not (wholly) the printed one."""
        return self.status == "provisional"

    def name(self, lang: str = "en") -> str:
        """The map's name in ``lang`` (English for a language the map does not speak)."""
        return self.names.get(lang) or self.names["en"]

    def seats(self, players: int) -> bool:
        """True when the map is played by ``players`` players."""
        return self.min_players <= players <= self.max_players

    def match_rank(self, text: str) -> int | None:
        """0: id or a name starts with ``text``; 1: contains it; None: no match (casefolded)."""
        needle = text.strip().casefold()
        words = [self.id, *self.names.values()]
        if any(w.casefold().startswith(needle) for w in words):
            return 0
        if any(needle in w.casefold() for w in words):
            return 1
        return None


@dataclass(frozen=True)
class MapRegistry:
    """The usable maps in display order (built-in order, then extra maps by id).

    Attributes:
        entries: every valid map.
        refused: map id -> the :class:`MapError` that keeps a broken map out
            (every problem, each naming the file and the path in it).
    """

    entries: tuple[MapEntry, ...]
    refused: Mapping[str, MapError]

    def __iter__(self) -> Iterator[MapEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, map_id: object) -> bool:
        return any(e.id == map_id for e in self.entries)

    def ids(self) -> list[str]:
        """The ids of the usable maps, in display order."""
        return [e.id for e in self.entries]

    def get(self, map_id: str) -> MapEntry:
        """The entry of ``map_id``.

        Raises:
            MapError: the map's folder exists but the map is broken.
            UnknownMap: no such map (``known`` lists the usable ids).
        """
        for entry in self.entries:
            if entry.id == map_id:
                return entry
        if map_id in self.refused:
            raise MapError(map_id, self.refused[map_id].problems)
        raise UnknownMap(map_id, self.ids())

    def search(self, text: str, limit: int = MAX_SUGGESTIONS) -> list[MapEntry]:
        """Maps for an autocomplete field: ``text`` at the start of the id or a name first,
        then anywhere in them (case-insensitive, any language); every map for ``""``.

        Returns at most ``limit`` entries, in display order within each rank.
        """
        ranked = [
            (rank, i)
            for i, e in enumerate(self.entries)
            if (rank := e.match_rank(text)) is not None
        ]
        return [self.entries[i] for _, i in sorted(ranked)[:limit]]


@lru_cache(maxsize=256)
def _entry(folder: MapFolder, stamp: tuple[int, int]) -> MapEntry | MapError:
    """The entry of ``folder`` or the error refusing it; ``stamp`` (mtime, size) keys the cache."""
    try:
        _, model = load_map_file(folder)
    except MapError as exc:
        return exc
    return MapEntry.from_model(model, folder)


def _stamp(folder: MapFolder) -> tuple[int, int]:
    try:
        st = folder.map_file.stat()
    except OSError:
        return (-1, -1)  # gone since it was listed: load_map_file reports it
    return (st.st_mtime_ns, st.st_size)


def registry() -> MapRegistry:
    """Every map folder, validated: the usable maps and the refused ones.

    Reads ``TTR_MAPS_DIR`` on each call, so a map dropped into that folder is
    listed at once; a changed ``map.json`` is validated again.
    """
    entries: list[MapEntry] = []
    refused: dict[str, MapError] = {}
    for map_id, folder in map_folders().items():
        found = _entry(folder, _stamp(folder))
        if isinstance(found, MapError):
            refused[map_id] = found
        else:
            entries.append(found)
    return MapRegistry(tuple(entries), MappingProxyType(refused))


def list_maps() -> list[MapEntry]:
    """The usable maps in display order (``registry().entries`` as a list)."""
    return list(registry().entries)


def refused_maps() -> dict[str, list[str]]:
    """Map id -> problems (``"file: path: message"``) of every broken map folder (for start-up logs)."""
    return {map_id: exc.errors for map_id, exc in registry().refused.items()}


__all__ = [
    "MAX_SUGGESTIONS",
    "MapEntry",
    "MapRegistry",
    "list_maps",
    "refused_maps",
    "registry",
]
