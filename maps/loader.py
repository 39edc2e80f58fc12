"""Load and validate map data files (``maps/<id>/map.json``): the loader's public functions.

Built-in maps live beside this module; a directory named by the setting
``TTR_MAPS_DIR`` may hold more map folders, loaded beside the built-in ones (a
folder with the same id replaces the built-in map; see :mod:`maps.folders`).
Every map is validated when loaded, against the schema (:mod:`maps.schema`)
and the checks between its parts (:mod:`maps.checks`); every problem is
reported at once, each naming the file and the path in it
(``maps/usa/map.json: routes[12].length: ...``). A broken map is refused,
never half-loaded.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.rules import ClassicRules, build_ruleset

from .catalog import registry
from .checks import check_map_data
from .errors import MapError, MapProblem, UnknownMap
from .folders import (
    BUILTIN_DIR,
    LAYOUT_FILE,
    MAP_FILE,
    MapFolder,
    load_map_file,
    map_dirs,
    map_folders,
)


def available_maps() -> list[str]:
    """Ids of every usable map (valid, built-in or ``TTR_MAPS_DIR``), in display order.

    A broken map is not listed (see :func:`maps.registry` for its problems).
    """
    return registry().ids()


def validate_map_data(data: Any, expected_id: str | None = None) -> list[str]:
    """Every problem of a map data dict as ``"path: message"`` strings (empty list: valid).

    A thin wrapper over :func:`maps.checks.check_map_data` for scripts that
    hold data without a file (``tools/``).
    """
    return [str(p) for p in check_map_data(data, expected_id)[1]]


def _folder(map_id: str) -> MapFolder:
    folder = map_folders().get(map_id)
    if folder is None:
        raise UnknownMap(map_id, available_maps())
    return folder


def read_map_data(map_id: str) -> dict[str, Any]:
    """Read and validate ``<folder>/map.json`` for ``map_id``; a fresh dict on every call.

    Raises:
        UnknownMap: no such map folder.
        MapError: the file is unreadable or invalid (every problem listed, each
            naming the file and the path in it).
    """
    data, _ = load_map_file(_folder(map_id))
    return data


@cache
def load_ruleset(map_id: str) -> ClassicRules:
    """The validated, immutable rule set of ``map_id`` (cached per process).

    Raises UnknownMap or MapError.
    """
    return build_ruleset(read_map_data(map_id))


def read_layout(map_id: str) -> dict[str, Any] | None:
    """The board geometry file of ``map_id`` (``layout.json``) as a dict, or None when absent."""
    path = map_dirs().get(map_id)
    if path is None or not (path / LAYOUT_FILE).is_file():
        return None
    data: dict[str, Any] = json.loads((path / LAYOUT_FILE).read_text(encoding="utf-8"))
    return data


def validate_all() -> dict[str, list[str]]:
    """Map id -> problems (``"file: path: message"``; empty: valid) of every map folder.

    For start-up checks and tests; ``python -c "import maps; print(maps.validate_all())"``.
    """
    out: dict[str, list[str]] = {}
    for map_id, folder in map_folders().items():
        try:
            load_map_file(folder)
        except MapError as exc:
            out[map_id] = exc.errors
        else:
            out[map_id] = []
    return out


__all__ = [
    "BUILTIN_DIR",
    "LAYOUT_FILE",
    "MAP_FILE",
    "MapError",
    "MapProblem",
    "UnknownMap",
    "available_maps",
    "load_ruleset",
    "map_dirs",
    "read_layout",
    "read_map_data",
    "validate_all",
    "validate_map_data",
]
