"""Build ``maps/<id>/map.json`` from the reference data in ``../shared/reference/maps``.

Run once by a developer (never at run or test time; a user's clone has no
``../shared``)::

    python tools/import_reference.py usa [--shared ../shared]

It copies cities, routes and tickets from the reference file, adds each
place's real WGS84 latitude/longitude from ``tools/geo/places/<id>.json``
and the rule parameters, words and rules text from ``tools/map_specs/<id>.json``,
then validates the result with ``maps.loader``. Output is deterministic.
``--shared`` defaults to the ``shared`` folder beside the repository; from a
worktree elsewhere pass it (``--shared /work/shared``).

Europe (``europe``): the spec carries the train stations, the fixed ticket
mixes (1 long + 3 regular at setup, regular draws), the tie-breaks and, in its
provenance, what stays unverified and every disagreement found between the
sources, the rules digest and the printed ticket values; its places file holds
the reference's own coordinates (the real positions of the places the board
names, historic names included).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def build(map_id: str, shared: Path, places_file: Path | None = None) -> dict:
    """Return the map data dict for ``map_id``. Raises SystemExit with a message on missing inputs."""
    ref = json.loads((shared / "reference" / "maps" / f"{map_id}.json").read_text(encoding="utf-8"))
    places_file = places_file or ROOT / "tools" / "geo" / "places" / f"{map_id}.json"
    places = json.loads(places_file.read_text(encoding="utf-8"))
    spec = json.loads((ROOT / "tools" / "map_specs" / f"{map_id}.json").read_text(encoding="utf-8"))
    missing = [c["id"] for c in ref["cities"] if c["id"] not in places]
    if missing:
        raise SystemExit(f"no coordinates for {missing} in tools/geo/places/{map_id}.json")
    cities = [
        {
            "id": c["id"],
            "name": c["name"],
            "lat": places[c["id"]]["lat"],
            "lon": places[c["id"]]["lon"],
            "kind": c.get("kind", "city"),
        }
        for c in ref["cities"]
    ]
    routes = []
    for r in ref["routes"]:
        route = {
            "id": r["id"],
            "a": r["a"],
            "b": r["b"],
            "length": r["length"],
            "color": r["color"],
            "group": r.get("parallel_group") or r["id"].rsplit("__", 1)[0],
        }
        if r.get("tunnel"):
            route["tunnel"] = True
        if r.get("locomotives"):
            route["locomotives"] = r["locomotives"]
        if r.get("carts"):
            route["carts"] = True
        route.update(spec.get("route_overrides", {}).get(r["id"], {}))
        routes.append(route)
    tickets = []
    seen: dict[str, int] = {}
    extra_2012 = [
        dict(t, edition_2012="only") for t in ref.get("extras", {}).get("tickets_2012_only", [])
    ]
    for t in ref["tickets"] + extra_2012:
        base = f"{t['a']}__{t['b']}"
        seen[base] = seen.get(base, 0) + 1
        tid = base if seen[base] == 1 else f"{base}__{seen[base]}"
        ticket = {
            "id": tid,
            "a": t["a"],
            "b": t["b"],
            "points": t["points"],
            "deck": t.get("deck", "main"),
        }
        if "edition_2012" in t:
            # Germany: 2012 rulebook deck (known members + the 2 dropped later) and the 2017 deck of 89
            ed = t["edition_2012"]
            ticket["sets"] = ["2012"] if ed == "only" else (["2012", "2017"] if ed else ["2017"])
        tickets.append(ticket)
    spec = {k: v for k, v in spec.items() if k != "route_overrides"}
    data = {"format": 1, "id": map_id, **spec}
    data["provenance"] = {
        **spec.get("provenance", {}),
        "reference": f"shared/reference/maps/{map_id}.json",
        "sources": [
            f"{s.get('repo', s.get('file', s.get('url', '')))} {s.get('path', '')}".strip()
            for s in ref.get("sources", [])
        ],
        "coordinates": f"real WGS84 positions, tools/geo/places/{map_id}.json",
    }
    data["cities"] = cities
    data["routes"] = routes
    data["tickets"] = tickets
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("map_id")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument(
        "--places",
        type=Path,
        default=None,
        help="coordinates file (default tools/geo/places/<id>.json)",
    )
    args = ap.parse_args()
    data = build(args.map_id, args.shared, args.places)
    from maps.loader import validate_map_data

    errors = validate_map_data(data)
    if errors:
        raise SystemExit("invalid map:\n" + "\n".join(errors))
    out = ROOT / "maps" / args.map_id / "map.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {out.relative_to(ROOT)}: {len(data['cities'])} cities, {len(data['routes'])} routes, {len(data['tickets'])} tickets"
    )


if __name__ == "__main__":
    main()
