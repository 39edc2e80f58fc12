"""Map data (one folder per map: ``map.json``, ``layout.json``, ``background.json``) and the loader."""

from __future__ import annotations

from .loader import (
    MapError,
    UnknownMap,
    available_maps,
    load_ruleset,
    read_layout,
    read_map_data,
    validate_all,
)

__all__ = [
    "MapError",
    "UnknownMap",
    "available_maps",
    "load_ruleset",
    "read_layout",
    "read_map_data",
    "validate_all",
]
