"""The USA map file against the reference data's checks (36 cities, 100 tracks, 30 tickets, 27 spaces per colour)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from maps import load_ruleset
from maps.loader import MapError, read_map_data, validate_map_data


def test_usa_counts():
    """36 cities, 100 tracks (22 double pairs), 30 tickets."""
    rules = load_ruleset("usa")
    b = rules.board
    assert len(b.cities) == 36 and len(b.routes) == 100 and len(b.tickets) == 30
    assert sum(1 for ids in b.groups.values() if len(ids) == 2) == 22


def test_usa_27_spaces_per_colour_and_real_coordinates():
    """Every colour has 7 routes with 27 spaces; every city has real US/Canada coordinates."""
    b = load_ruleset("usa").board
    spaces = Counter()
    for r in b.routes.values():
        spaces[r.color] += r.length
    assert {c: n for c, n in spaces.items() if c != "gray"} == dict.fromkeys(
        ["pink", "white", "blue", "yellow", "orange", "black", "red", "green"], 27
    )
    assert all(24 < c.lat < 52 and -125 < c.lon < -70 for c in b.cities.values())


def test_loader_reports_every_error_at_once():
    """A broken copy of the USA file lists each problem, not just the first."""
    data = json.loads(json.dumps(read_map_data("usa")))
    data["routes"][0]["a"] = "atlantis"
    data["routes"][1]["color"] = "plaid"
    data["tickets"][0]["points"] = -3
    data["cities"][0]["lat"] = 123
    errors = validate_map_data(data)
    assert len(errors) >= 4
    joined = "\n".join(errors)
    for needle in ("atlantis", "plaid", "points", "lat"):
        assert needle in joined


def test_maps_dir_adds_and_refuses(tmp_path, monkeypatch):
    """A map folder in TTR_MAPS_DIR loads beside the built-ins; a broken one is refused whole."""
    from maps import loader

    data = read_map_data("usa")
    good = dict(data, id="usa_copy")
    (tmp_path / "usa_copy").mkdir()
    (tmp_path / "usa_copy" / "map.json").write_text(json.dumps(good))
    bad = dict(data, id="broken", routes=[])
    bad["tickets"] = [dict(data["tickets"][0], a="nowhere")]
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "map.json").write_text(json.dumps(bad))
    monkeypatch.setenv("TTR_MAPS_DIR", str(tmp_path))
    loader.load_ruleset.cache_clear()
    try:
        assert "usa_copy" in loader.available_maps()
        assert len(loader.load_ruleset("usa_copy").board.routes) == 100
        with pytest.raises(MapError) as e:
            loader.load_ruleset("broken")
        assert any("nowhere" in err for err in e.value.errors)
    finally:
        loader.load_ruleset.cache_clear()
