"""Build ``maps/amsterdam/map.json`` and ``maps/paris/map.json`` with their provisional tickets.

Run by a developer (never at run or test time)::

    python tools/make_provisional_tickets.py amsterdam [--shared ../shared] [--places FILE]
    python tools/make_provisional_tickets.py paris [--places FILE]

Coordinates come from ``--places``, else ``tools/geo/places/<id>.json``, else
(Amsterdam) the positions already in ``maps/amsterdam/map.json``.

The rule every known ticket on every board follows: a ticket is worth the
fewest spaces between its two places (Amsterdam's 4 known contracts, and every
USA, Germany and Nordic ticket checked in ``shared/reference``). Tickets we do
not know are made with that rule:

1. the value range: Amsterdam, the range of the known contracts (3-6);
   Paris (no ticket known), 3 up to the largest value that at least
   :data:`PARIS_MIN_PAIRS` pairs of places have (so a few far places do not
   fill the deck);
2. each value gets the same share of the full deck (known tickets count
   towards their value's share; the remainder goes to the lowest values);
3. values are filled round-robin, lowest first; each pick is the pair of
   places with that value whose places are on the fewest tickets so far
   (ties: the pair's ids), never a pair already on a ticket.

Each computed ticket is marked ``"provisional": true``. Amsterdam's board comes
from the reference data (``tools/import_reference.py``), with the routes
whose colour, cart symbol or length could not be read marked
``"unverified": [...]``; Paris's whole board comes from ``tools/paris_board.py``.
Output is deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from engine.board import Board  # noqa: E402

#: Tickets in the full deck (rulebooks: Amsterdam 24 contracts, Paris 20 tickets).
DECK_SIZE = {"amsterdam": 24, "paris": 20}
#: Lowest ticket value used for Paris (the smallest Amsterdam value).
PARIS_MIN_VALUE = 3
#: A Paris ticket value is used only when at least this many pairs of places have it.
PARIS_MIN_PAIRS = 10


def fewest_spaces(board: Board, a: str, b: str) -> int:
    """The fewest spaces between two places on ``board`` (Dijkstra over route lengths)."""
    found = board.shortest_path(a, b, {rid: r.length for rid, r in board.routes.items()})
    if found is None:
        raise ValueError(f"{a} and {b} are not connected")
    return found[0]


def quotas(values: list[int], total: int, known: dict[int, int]) -> dict[int, int]:
    """How many tickets of each value the full deck gets: equal shares, remainder to the lowest values."""
    base, extra = divmod(total, len(values))
    share = {v: base + (1 if i < extra else 0) for i, v in enumerate(values)}
    return {v: max(0, share[v] - known.get(v, 0)) for v in values}


def provisional_tickets(
    board: Board, known: list[dict], total: int, values: list[int]
) -> list[dict]:
    """The computed tickets completing ``known`` to ``total``, as map-file ticket dicts."""
    dist = {(a, b): fewest_spaces(board, a, b) for a, b in combinations(sorted(board.cities), 2)}
    used = {tuple(sorted((t["a"], t["b"]))) for t in known}
    usage = dict.fromkeys(board.cities, 0)
    for t in known:
        usage[t["a"]] += 1
        usage[t["b"]] += 1
    known_count: dict[int, int] = {}
    for t in known:
        known_count[t["points"]] = known_count.get(t["points"], 0) + 1
    need = quotas(values, total, known_count)
    if sum(need.values()) != total - len(known):
        raise SystemExit(f"value quotas {need} do not give {total - len(known)} tickets")
    out: list[dict] = []
    while any(need.values()):
        for v in values:
            if not need[v]:
                continue
            candidates = [p for p, d in dist.items() if d == v and p not in used]
            if not candidates:
                raise SystemExit(f"no pair of places left with value {v}")
            a, b = min(
                candidates,
                key=lambda p: (max(usage[p[0]], usage[p[1]]), usage[p[0]] + usage[p[1]], p),
            )
            used.add((a, b))
            usage[a] += 1
            usage[b] += 1
            need[v] -= 1
            out.append(
                {
                    "id": f"{a}__{b}",
                    "a": a,
                    "b": b,
                    "points": v,
                    "deck": "main",
                    "provisional": True,
                }
            )
    return out


def build_amsterdam(shared: Path, places: Path | None) -> dict:
    """Amsterdam from the reference data plus unverified marks and 20 provisional contracts."""
    import import_reference

    data = import_reference.build("amsterdam", shared, places)
    ref = json.loads((shared / "reference" / "maps" / "amsterdam.json").read_text(encoding="utf-8"))
    by_id = {r["id"]: r for r in ref["routes"]}
    for route in data["routes"]:
        r = by_id[route["id"]]
        unverified = []
        if not r.get("color_verified", True):
            unverified.append("color")
        if not r.get("length_verified", True):
            unverified.append("length")
        if r.get("carts") is None:
            unverified.append("carts")
        if unverified:
            route["unverified"] = unverified
            route["note"] = r.get("board_check", "")
    if places is not None and places.parent != ROOT / "tools" / "geo" / "places":
        data["provenance"]["coordinates"] = (
            "real WGS84 positions (approximate; no tools/geo/places file yet)"
        )
    known = data["tickets"]
    values = sorted({t["points"] for t in known})
    values = list(range(values[0], values[-1] + 1))
    board = Board.from_dict(data)
    data["tickets"] = known + provisional_tickets(board, known, DECK_SIZE["amsterdam"], values)
    data["provenance"]["tickets"] = (
        f"{len(known)} contracts read on cards in the board picture; "
        f"{DECK_SIZE['amsterdam'] - len(known)} provisional, computed by tools/make_provisional_tickets.py"
    )
    return data


def build_paris(places: Path | None) -> dict:
    """The provisional Paris board of ``tools/paris_board.py`` plus 20 provisional tickets."""
    import paris_board

    spec = json.loads((ROOT / "tools" / "map_specs" / "paris.json").read_text(encoding="utf-8"))
    coords = json.loads(places.read_text(encoding="utf-8")) if places is not None else None
    data = {"format": 1, "id": "paris", **spec}
    data["provenance"] = {
        **spec.get("provenance", {}),
        "board": "tools/paris_board.py",
        "tickets": "20 provisional, computed by tools/make_provisional_tickets.py",
        "coordinates": "real WGS84 positions (approximate) of the places, "
        + ("from the given places file" if coords else "tools/paris_board.py"),
    }
    data["cities"] = paris_board.cities(coords)
    data["routes"] = paris_board.build_routes()
    data["tickets"] = []
    board = Board.from_dict(data)
    pairs: dict[int, int] = {}
    for a, b in combinations(sorted(board.cities), 2):
        v = fewest_spaces(board, a, b)
        pairs[v] = pairs.get(v, 0) + 1
    top = max(v for v, n in pairs.items() if n >= PARIS_MIN_PAIRS)
    values = list(range(PARIS_MIN_VALUE, top + 1))
    data["tickets"] = provisional_tickets(board, [], DECK_SIZE["paris"], values)
    return data


def _current_coordinates(map_id: str) -> Path:
    """A places file with the coordinates already in ``maps/<id>/map.json`` (when no places file exists yet)."""
    import tempfile

    current = json.loads((ROOT / "maps" / map_id / "map.json").read_text(encoding="utf-8"))
    coords = {c["id"]: {"lat": c["lat"], "lon": c["lon"]} for c in current["cities"]}
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
    with handle:
        json.dump(coords, handle)
    return Path(handle.name)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("map_id", choices=sorted(DECK_SIZE))
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument(
        "--places",
        type=Path,
        default=None,
        help="coordinates file (default tools/geo/places/<id>.json if present)",
    )
    args = ap.parse_args()
    places = args.places
    default = ROOT / "tools" / "geo" / "places" / f"{args.map_id}.json"
    if places is None and default.is_file():
        places = default
    if places is None and args.map_id == "amsterdam":
        places = _current_coordinates(args.map_id)
    data = (
        build_amsterdam(args.shared, places) if args.map_id == "amsterdam" else build_paris(places)
    )
    from maps.loader import validate_map_data

    errors = validate_map_data(data)
    if errors:
        raise SystemExit("invalid map:\n" + "\n".join(errors))
    out = ROOT / "maps" / args.map_id / "map.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    prov = sum(1 for t in data["tickets"] if t.get("provisional"))
    print(
        f"wrote {out.relative_to(ROOT)}: {len(data['cities'])} places, {len(data['routes'])} tracks, "
        f"{sum(r['length'] for r in data['routes'])} spaces, {len(data['tickets'])} tickets ({prov} provisional)"
    )
    counts: dict[int, int] = {}
    for t in data["tickets"]:
        counts[t["points"]] = counts.get(t["points"], 0) + 1
    print("ticket values:", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
