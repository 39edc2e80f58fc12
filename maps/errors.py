"""The errors of the map loader: one problem of a map file, a refused map, an unknown id."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MapProblem:
    """One problem of a map file.

    Attributes:
        path: where in the file, in JSONPath-like form (``"routes[12].length"``,
            ``"rules.players"``); ``""`` for the file as a whole.
        message: what is wrong, in one English sentence fragment.
        file: the file, as the operator knows it (``"maps/usa/map.json"`` for a
            built-in map, the full path for a map in ``TTR_MAPS_DIR``); ``""`` while
            the data is checked without a file.

    ``str(problem)`` is ``"<file>: <path>: <message>"``, leaving out empty parts.
    """

    path: str
    message: str
    file: str = ""

    def __str__(self) -> str:
        return ": ".join(part for part in (self.file, self.path, self.message) if part)

    def in_file(self, file: str) -> MapProblem:
        """The same problem, located in ``file``."""
        return MapProblem(self.path, self.message, file)


class MapError(Exception):
    """A map that cannot be used; nothing of it is loaded.

    Attributes:
        map_id: the map's id (its folder name).
        problems: every problem found, as :class:`MapProblem` (strings given to the
            constructor become problems without a path).
        errors: the same problems as strings (``"maps/usa/map.json: routes[3].a: ..."``).
    """

    def __init__(self, map_id: str, problems: Iterable[MapProblem | str]) -> None:
        self.map_id = map_id
        self.problems = [p if isinstance(p, MapProblem) else MapProblem("", p) for p in problems]
        self.errors = [str(p) for p in self.problems]
        count = len(self.errors)
        super().__init__(
            f"map {map_id!r} is invalid ({count} problem{'s' if count != 1 else ''}):\n  "
            + "\n  ".join(self.errors)
        )


class UnknownMap(KeyError):
    """No usable map with this id (``unknown_map``). ``known`` lists the ids of the usable maps;
    ``code`` and ``detail`` make it a refusal (``words.Refusal``)."""

    code = "unknown_map"

    def __init__(self, map_id: str, known: list[str]) -> None:
        self.map_id = map_id
        self.known = known
        self.detail = {"map": map_id, "maps": ", ".join(known)}
        super().__init__(f"unknown map {map_id!r}; available: {', '.join(known)}")

    def __str__(self) -> str:
        # KeyError.__str__ would quote the message like a dict key
        return str(self.args[0])
