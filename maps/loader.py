"""Load and validate map data files (``maps/<id>/map.json``).

Built-in maps live beside this module; a directory named by the setting
``TTR_MAPS_DIR`` may hold more map folders, loaded beside the built-in ones (a
folder with the same id replaces the built-in map). Every map is validated
when loaded and every problem is reported at once: a broken map is refused,
never half-loaded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from engine.params import RuleParams
from engine.rules import RULESETS, ClassicRules, build_ruleset

BUILTIN_DIR = Path(__file__).resolve().parent
MAP_FILE = "map.json"
LAYOUT_FILE = "layout.json"


class MapError(Exception):
    """A map file that cannot be used. ``errors`` lists every problem found."""

    def __init__(self, map_id: str, errors: list[str]) -> None:
        self.map_id = map_id
        self.errors = list(errors)
        super().__init__(f"map {map_id!r} is invalid:\n  " + "\n  ".join(errors))


class UnknownMap(KeyError):
    """No map with this id. ``known`` lists the available ids."""

    def __init__(self, map_id: str, known: list[str]) -> None:
        self.map_id = map_id
        self.known = known
        super().__init__(f"unknown map {map_id!r}; available: {', '.join(known)}")


def _extra_dir() -> Path | None:
    value = os.environ.get("TTR_MAPS_DIR", "").strip()
    return Path(value) if value else None


def map_dirs() -> dict[str, Path]:
    """Map id -> folder, built-in maps first, ``TTR_MAPS_DIR`` folders replacing same ids."""
    found: dict[str, Path] = {}
    roots = [BUILTIN_DIR]
    extra = _extra_dir()
    if extra is not None and extra.is_dir():
        roots.append(extra)
    for root in roots:
        for sub in sorted(root.iterdir()):
            if sub.is_dir() and (sub / MAP_FILE).is_file():
                found[sub.name] = sub
    return found


def available_maps() -> list[str]:
    """Ids of every loadable map folder, in a stable order (built-in order first)."""
    order = ["usa", "germany", "nordic", "amsterdam", "paris"]
    ids = list(map_dirs())
    return [m for m in order if m in ids] + sorted(m for m in ids if m not in order)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_map_data(data: Any, expected_id: str | None = None) -> list[str]:
    """Every problem of a map data dict, as readable strings (empty list: valid).

    Checks the shape of every city, route and ticket, references between them,
    the rule parameters, colours against the deck, route lengths against the
    points table, double-route groups, ticket decks against the draw rules,
    options and provenance.
    """
    errors: list[str] = []
    if not isinstance(data, Mapping):
        return ["the file is not a JSON object"]
    for key in (
        "id",
        "name",
        "ruleset",
        "provenance",
        "rules",
        "cities",
        "routes",
        "tickets",
        "rules_text",
        "words",
    ):
        if key not in data:
            errors.append(f"missing top-level key {key!r}")
    if errors:
        return errors
    if expected_id is not None and data["id"] != expected_id:
        errors.append(f"id {data['id']!r} does not match its folder {expected_id!r}")
    if data["ruleset"] not in RULESETS:
        errors.append(f"unknown ruleset {data['ruleset']!r} (known: {', '.join(sorted(RULESETS))})")
    prov = data["provenance"]
    if not isinstance(prov, Mapping) or prov.get("status") not in ("exact", "provisional"):
        errors.append("provenance.status must be 'exact' or 'provisional'")
    for lang in ("en", "de"):
        if (
            not isinstance(data["rules_text"], Mapping)
            or not str(data["rules_text"].get(lang, "")).strip()
        ):
            errors.append(f"rules_text.{lang} is missing")
        if not isinstance(data["name"], Mapping) or not data["name"].get(lang):
            errors.append(f"name.{lang} is missing")
        words = data["words"].get(lang) if isinstance(data["words"], Mapping) else None
        for w in ("pieces", "cards", "wild", "tickets"):
            if not isinstance(words, Mapping) or not words.get(w):
                errors.append(f"words.{lang}.{w} is missing")
    try:
        params = RuleParams.from_dict(data["rules"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        errors.append(f"rules: cannot be read ({type(exc).__name__}: {exc})")
        params = None
    if params is not None:
        if not 1 <= params.min_players <= params.max_players:
            errors.append(
                f"rules.players: min {params.min_players} / max {params.max_players} out of order"
            )
        if params.locomotives_pay not in ("any", "tunnels_and_ferries"):
            errors.append(f"rules.locomotives_pay: {params.locomotives_pay!r}")
        for name, deal in (
            ("initial_tickets", params.initial_tickets),
            ("draw_tickets", params.draw_tickets),
        ):
            if deal.unkept not in ("bottom", "remove"):
                errors.append(f"rules.{name}.unkept must be 'bottom' or 'remove'")
            if not 1 <= deal.keep <= deal.count:
                errors.append(
                    f"rules.{name}: keep {deal.keep} must be between 1 and count {deal.count}"
                )
        if params.merchandise:
            table = params.merchandise.get("points", {})
            for n in range(params.min_players, params.max_players + 1):
                if str(n) not in table:
                    errors.append(f"rules.merchandise.points has no table for {n} players")

    cities = data["cities"]
    city_ids: set[str] = set()
    for i, c in enumerate(cities if isinstance(cities, list) else []):
        where = f"cities[{i}]"
        if not isinstance(c, Mapping) or not isinstance(c.get("id"), str):
            errors.append(f"{where}: needs an id")
            continue
        where = f"city {c['id']!r}"
        if c["id"] in city_ids:
            errors.append(f"{where}: duplicate id")
        city_ids.add(c["id"])
        if not c.get("name"):
            errors.append(f"{where}: no name")
        lat, lon = c.get("lat"), c.get("lon")
        if not isinstance(lat, int | float) or not -90 <= lat <= 90:
            errors.append(f"{where}: lat must be a number in [-90, 90]")
        if not isinstance(lon, int | float) or not -180 <= lon <= 180:
            errors.append(f"{where}: lon must be a number in [-180, 180]")
        if c.get("kind", "city") not in ("city", "country"):
            errors.append(f"{where}: kind must be 'city' or 'country'")

    colours = set(params.colors) if params else set()
    route_ids: set[str] = set()
    groups: dict[str, set[frozenset[str]]] = {}
    for i, r in enumerate(data["routes"] if isinstance(data["routes"], list) else []):
        if not isinstance(r, Mapping) or not isinstance(r.get("id"), str):
            errors.append(f"routes[{i}]: needs an id")
            continue
        where = f"route {r['id']!r}"
        if r["id"] in route_ids:
            errors.append(f"{where}: duplicate id")
        route_ids.add(r["id"])
        for end in ("a", "b"):
            if r.get(end) not in city_ids:
                errors.append(f"{where}: {end} {r.get(end)!r} is not a city")
        if r.get("a") == r.get("b"):
            errors.append(f"{where}: both ends are the same city")
        length = r.get("length")
        if not _is_int(length) or not 1 <= length <= 9:
            errors.append(f"{where}: length must be an int 1-9")
        elif params and length not in params.route_points:
            errors.append(f"{where}: length {length} has no entry in rules.route_points")
        colour = r.get("color")
        if colour != "gray" and colour not in colours:
            errors.append(f"{where}: colour {colour!r} is not a card colour or 'gray'")
        locos = r.get("locomotives", 0)
        if not _is_int(locos) or (_is_int(length) and not 0 <= locos <= length):
            errors.append(f"{where}: locomotives must be an int from 0 to its length")
        if not isinstance(r.get("tunnel", False), bool) or not isinstance(
            r.get("carts", False), bool
        ):
            errors.append(f"{where}: tunnel and carts must be true/false")
        sub = r.get("substitute")
        if sub is not None and (not _is_int(sub) or sub < 2):
            errors.append(f"{where}: substitute must be null or an int >= 2")
        group = r.get("group")
        if group is not None:
            groups.setdefault(group, set()).add(frozenset((r.get("a"), r.get("b"))))
    for g, pairs in groups.items():
        if len(pairs) > 1:
            errors.append(f"group {g!r}: its tracks join different city pairs")

    ticket_ids: set[str] = set()
    decks: dict[str, int] = {}
    for i, t in enumerate(data["tickets"] if isinstance(data["tickets"], list) else []):
        if not isinstance(t, Mapping) or not isinstance(t.get("id"), str):
            errors.append(f"tickets[{i}]: needs an id")
            continue
        where = f"ticket {t['id']!r}"
        if t["id"] in ticket_ids:
            errors.append(f"{where}: duplicate id")
        ticket_ids.add(t["id"])
        for end in ("a", "b"):
            if t.get(end) not in city_ids:
                errors.append(f"{where}: {end} {t.get(end)!r} is not a city")
        if not _is_int(t.get("points")) or t["points"] <= 0:
            errors.append(f"{where}: points must be a positive int")
        decks[t.get("deck", "main")] = decks.get(t.get("deck", "main"), 0) + 1
        if not isinstance(t.get("sets", []), list):
            errors.append(f"{where}: sets must be a list")
    if params and decks:
        need = params.max_players * params.initial_tickets.count
        if sum(decks.values()) < need:
            errors.append(
                f"tickets: {sum(decks.values())} cannot deal {need} at setup with {params.max_players} players"
            )
        if len(decks) > 1 and not params.initial_tickets.announce_mix:
            errors.append(f"tickets: several decks {sorted(decks)} but the rules announce no mix")
    if not data["tickets"]:
        errors.append("tickets: none")

    options = data.get("options", {})
    if not isinstance(options, Mapping):
        errors.append("options must be an object")
    else:
        for name, spec in options.items():
            if not isinstance(spec, Mapping) or spec.get("default") not in spec.get("choices", {}):
                errors.append(f"options.{name}: needs choices and a default among them")
    if not errors:
        try:
            build_ruleset(data)
        except Exception as exc:  # noqa: BLE001 - report any construction failure as a map error
            errors.append(f"cannot build the rule set: {type(exc).__name__}: {exc}")
    return errors


def read_map_data(map_id: str) -> dict[str, Any]:
    """Read and validate ``<folder>/map.json`` for ``map_id``.

    Raises:
        UnknownMap: no such map folder.
        MapError: the file is unreadable or invalid (every problem listed).
    """
    dirs = map_dirs()
    if map_id not in dirs:
        raise UnknownMap(map_id, available_maps())
    path = dirs[map_id] / MAP_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MapError(map_id, [f"{path}: {exc}"]) from None
    errors = validate_map_data(data, expected_id=map_id)
    if errors:
        raise MapError(map_id, errors)
    return data


@cache
def load_ruleset(map_id: str) -> ClassicRules:
    """The validated, immutable rule set of ``map_id`` (cached per process).

    Raises UnknownMap or MapError.
    """
    return build_ruleset(read_map_data(map_id))


def read_layout(map_id: str) -> dict[str, Any] | None:
    """The board geometry file of ``map_id`` (``layout.json``) or None when absent."""
    path = map_dirs().get(map_id)
    if path is None or not (path / LAYOUT_FILE).is_file():
        return None
    return json.loads((path / LAYOUT_FILE).read_text(encoding="utf-8"))


def validate_all() -> dict[str, list[str]]:
    """Map id -> problems for every map folder (for start-up checks and tests)."""
    out: dict[str, list[str]] = {}
    for map_id, folder in map_dirs().items():
        try:
            data = json.loads((folder / MAP_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            out[map_id] = [str(exc)]
            continue
        out[map_id] = validate_map_data(data, expected_id=map_id)
    return out
