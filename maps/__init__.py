"""Map data (one folder per map: ``map.json``, ``layout.json``, ``background.json``) and the loader.

- :func:`load_ruleset`: the engine's rule set of a map (validated, cached).
- :func:`registry` / :func:`list_maps`: the usable maps as typed entries, for
  choices, autocomplete and ``/ttr rules`` without a map (built-in and ``TTR_MAPS_DIR`` maps).
- :func:`validate_all`: every problem of every map folder.

Modules: :mod:`maps.schema` (the file format as pydantic models),
:mod:`maps.checks` (checks between parts), :mod:`maps.folders` (where maps are
found, reading one file), :mod:`maps.catalog` (the registry), :mod:`maps.loader`.
"""

from __future__ import annotations

from .catalog import MapEntry, MapRegistry, list_maps, refused_maps, registry
from .errors import MapError, MapProblem, UnknownMap
from .loader import (
    available_maps,
    load_ruleset,
    read_layout,
    read_map_data,
    validate_all,
    validate_map_data,
)

__all__ = [
    "MapEntry",
    "MapError",
    "MapProblem",
    "MapRegistry",
    "UnknownMap",
    "available_maps",
    "list_maps",
    "load_ruleset",
    "read_layout",
    "read_map_data",
    "refused_maps",
    "registry",
    "validate_all",
    "validate_map_data",
]
