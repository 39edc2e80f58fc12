"""Where map folders are found and how one ``map.json`` is read and validated.

Built-in maps live beside this package; the directory named by the setting
``TTR_MAPS_DIR`` may hold more map folders, loaded beside the built-in ones (a
folder with the same id replaces the built-in map). A map folder is any
sub-folder holding a ``map.json``; its name is the map's id.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from .checks import check_map_data
from .errors import MapError, MapProblem
from .schema import MapFile

log = logging.getLogger(__name__)

BUILTIN_DIR = Path(__file__).resolve().parent
MAP_FILE = "map.json"
LAYOUT_FILE = "layout.json"
#: Display order of the built-in maps; other maps follow sorted by id.
BUILTIN_ORDER = ("usa", "germany", "nordic", "amsterdam", "paris", "europe")

#: ``"builtin"``: shipped in this package; ``"extra"``: from ``TTR_MAPS_DIR``.
Source = Literal["builtin", "extra"]


@dataclass(frozen=True, slots=True)
class MapFolder:
    """One map folder.

    Attributes:
        map_id: the folder name, which is the map's id.
        path: the folder.
        source: ``"builtin"`` or ``"extra"`` (``TTR_MAPS_DIR``).
    """

    map_id: str
    path: Path
    source: Source

    @property
    def map_file(self) -> Path:
        """The folder's ``map.json``."""
        return self.path / MAP_FILE

    @property
    def label(self) -> str:
        """The map file as errors name it: ``maps/usa/map.json`` built-in, else the full path."""
        if self.source == "builtin":
            return self.map_file.relative_to(BUILTIN_DIR.parent).as_posix()
        return str(self.map_file)


@cache
def _warn_missing_dir(path: Path) -> None:
    log.warning("TTR_MAPS_DIR %s is not a directory; only the built-in maps are loaded", path)


def extra_dir() -> Path | None:
    """The folder named by ``TTR_MAPS_DIR``, or None when the setting is empty or no folder."""
    value = os.environ.get("TTR_MAPS_DIR", "").strip()
    if not value:
        return None
    path = Path(value)
    if not path.is_dir():
        _warn_missing_dir(path)
        return None
    return path


def _sort_key(map_id: str) -> tuple[int, str]:
    if map_id in BUILTIN_ORDER:
        return (BUILTIN_ORDER.index(map_id), "")
    return (len(BUILTIN_ORDER), map_id)


def map_folders() -> dict[str, MapFolder]:
    """Map id -> :class:`MapFolder` of every map folder, in display order.

    ``TTR_MAPS_DIR`` folders replace built-in folders with the same id.
    """
    found: dict[str, MapFolder] = {}
    roots: list[tuple[Path, Source]] = [(BUILTIN_DIR, "builtin")]
    extra = extra_dir()
    if extra is not None:
        roots.append((extra, "extra"))
    for root, source in roots:
        for sub in root.iterdir():
            if sub.is_dir() and (sub / MAP_FILE).is_file():
                found[sub.name] = MapFolder(sub.name, sub, source)
    return {map_id: found[map_id] for map_id in sorted(found, key=_sort_key)}


def map_dirs() -> dict[str, Path]:
    """Map id -> folder of every map folder, in display order (see :func:`map_folders`)."""
    return {map_id: folder.path for map_id, folder in map_folders().items()}


def _json_problem(exc: ValueError) -> MapProblem:
    if isinstance(exc, json.JSONDecodeError):
        return MapProblem("", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    return MapProblem("", f"not valid JSON: {exc}")


def load_map_file(folder: MapFolder) -> tuple[dict[str, Any], MapFile]:
    """Read and validate ``folder``'s ``map.json``.

    Returns:
        (the data dict as read, its validated model).

    Raises:
        MapError: the file is unreadable, not JSON or invalid; ``problems`` lists
            every problem, each naming the file and the path in it.
    """
    try:
        data = json.loads(folder.map_file.read_text(encoding="utf-8"))
    except OSError as exc:
        problem = MapProblem("", f"cannot be read: {exc.strerror or exc}", folder.label)
        raise MapError(folder.map_id, [problem]) from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise MapError(folder.map_id, [_json_problem(exc).in_file(folder.label)]) from None
    model, problems = check_map_data(data, expected_id=folder.map_id)
    if model is None:
        raise MapError(folder.map_id, [p.in_file(folder.label) for p in problems])
    return data, model
