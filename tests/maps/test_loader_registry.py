"""The map registry: typed entries for choices and autocomplete, built-in and TTR_MAPS_DIR maps."""

from __future__ import annotations

import copy
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

import maps
from maps import MapEntry, MapError, UnknownMap, list_maps, load_ruleset, read_map_data, registry


@pytest.fixture
def extra_dir(tmp_path, monkeypatch):
    """An empty TTR_MAPS_DIR; the rule-set cache is cleared before and after."""
    monkeypatch.setenv("TTR_MAPS_DIR", str(tmp_path))
    load_ruleset.cache_clear()
    yield tmp_path
    load_ruleset.cache_clear()


def write_map(root: Path, map_id: str, data: dict[str, Any]) -> Path:
    """Write ``data`` as ``<root>/<map_id>/map.json``; return the file."""
    (root / map_id).mkdir(exist_ok=True)
    path = root / map_id / "map.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def usa_copy(map_id: str, en: str, de: str) -> dict[str, Any]:
    data = copy.deepcopy(read_map_data("usa"))
    data.update(id=map_id, name={"en": en, "de": de})
    return data


def test_builtin_maps_are_listed_with_their_facts():
    entries = {e.id: e for e in list_maps()}
    assert list(entries)[:5] == ["usa", "germany", "nordic", "amsterdam", "paris"]
    nordic = entries["nordic"]
    assert nordic == MapEntry(
        id="nordic",
        names=nordic.names,
        min_players=2,
        max_players=3,
        status="exact",
        notes=nordic.notes,
        ruleset="classic",
        source="builtin",
        folder=maps.folders.BUILTIN_DIR / "nordic",
    )
    assert dict(nordic.names) == {"en": "Nordic Countries", "de": "Skandinavien"}
    assert nordic.name("de") == "Skandinavien" and nordic.name("fr") == "Nordic Countries"
    assert entries["germany"].name("de") == "Deutschland"
    assert (entries["usa"].min_players, entries["usa"].max_players) == (2, 5)
    assert [e.id for e in list_maps() if e.provisional] == ["amsterdam", "paris"]
    assert entries["paris"].ruleset == "paris" and entries["amsterdam"].ruleset == "amsterdam"
    assert "Paris" in entries["paris"].notes


def test_entries_are_read_only():
    entry = registry().get("usa")
    with pytest.raises(TypeError):
        entry.names["en"] = "Canada"  # type: ignore[index]
    with pytest.raises(AttributeError):
        entry.max_players = 9  # type: ignore[misc]


def test_seat_count_of_an_entry():
    nordic = registry().get("nordic")
    assert [n for n in range(1, 7) if nordic.seats(n)] == [2, 3]


def test_a_map_added_through_ttr_maps_dir_is_listed_with_its_names(extra_dir):
    path = write_map(extra_dir, "usa_west", usa_copy("usa_west", "USA West", "USA Westen"))
    reg = registry()
    assert reg.ids() == ["usa", "germany", "nordic", "amsterdam", "paris", "europe", "usa_west"]
    entry = reg.get("usa_west")
    assert dict(entry.names) == {"en": "USA West", "de": "USA Westen"}
    assert entry.source == "extra" and entry.folder == path.parent
    assert "usa_west" in reg and "usa_west" in maps.available_maps()
    assert load_ruleset("usa_west").meta["name"]["de"] == "USA Westen"


def test_an_extra_map_with_a_builtin_id_replaces_it(extra_dir):
    write_map(extra_dir, "usa", usa_copy("usa", "USA (house rules)", "USA (Hausregeln)"))
    entry = registry().get("usa")
    assert entry.source == "extra" and entry.name() == "USA (house rules)"
    assert registry().ids().count("usa") == 1


def test_a_broken_extra_map_is_refused_and_the_builtin_maps_stay(extra_dir):
    broken = usa_copy("broken", "Broken", "Kaputt")
    broken["routes"][2]["length"] = 0
    broken["tickets"][0]["a"] = "nowhere"
    path = write_map(extra_dir, "broken", broken)
    write_map(extra_dir, "fine", usa_copy("fine", "Fine", "Gut"))

    reg = registry()
    assert reg.ids() == ["usa", "germany", "nordic", "amsterdam", "paris", "europe", "fine"]
    assert "broken" not in reg and "broken" not in maps.available_maps()
    assert reg.refused["broken"].errors == [
        f"{path}: routes[2].length: Input should be greater than or equal to 1 (got 0)",
        f"{path}: tickets[0].a: 'nowhere' is not a city of this map",
    ]
    assert maps.refused_maps() == {"broken": reg.refused["broken"].errors}
    with pytest.raises(MapError) as caught:
        reg.get("broken")
    assert caught.value.errors == reg.refused["broken"].errors
    with pytest.raises(MapError):
        load_ruleset("broken")
    assert len(load_ruleset("usa").board.routes) == 100
    assert maps.validate_all()["broken"] == reg.refused["broken"].errors
    assert maps.validate_all()["fine"] == []


def test_an_unknown_map_names_the_usable_ones(extra_dir):
    write_map(extra_dir, "broken", {"id": "broken"})
    with pytest.raises(UnknownMap) as caught:
        registry().get("atlantis")
    assert caught.value.known == ["usa", "germany", "nordic", "amsterdam", "paris", "europe"]
    assert str(caught.value) == (
        "unknown map 'atlantis'; available: usa, germany, nordic, amsterdam, paris, europe"
    )
    with pytest.raises(UnknownMap):
        read_map_data("atlantis")


def test_a_changed_map_file_is_validated_again(extra_dir):
    data = usa_copy("mine", "Mine", "Meins")
    path = write_map(extra_dir, "mine", data)
    assert "mine" in registry()
    data["cities"][0]["lon"] = 500
    path.write_text(json.dumps(data), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    reg = registry()
    assert "mine" not in reg
    assert [p.path for p in reg.refused["mine"].problems] == ["cities[0].lon"]


def test_a_missing_ttr_maps_dir_leaves_the_builtin_maps(monkeypatch, tmp_path, caplog):
    monkeypatch.setenv("TTR_MAPS_DIR", str(tmp_path / "nope"))
    with caplog.at_level(logging.WARNING, logger="maps.folders"):
        assert registry().ids() == ["usa", "germany", "nordic", "amsterdam", "paris", "europe"]
    assert "is not a directory" in caplog.text


def test_folders_without_a_map_file_are_not_maps(extra_dir):
    (extra_dir / "notes").mkdir()
    (extra_dir / "notes" / "README.md").write_text("not a map")
    assert "notes" not in registry().ids() and "notes" not in registry().refused


def test_search_for_autocomplete(extra_dir):
    write_map(extra_dir, "usa_west", usa_copy("usa_west", "USA West", "USA Westen"))
    reg = registry()
    assert [e.id for e in reg.search("")] == reg.ids()
    assert [e.id for e in reg.search("sk")] == ["nordic"]  # the German name
    assert [e.id for e in reg.search("DEUTSCH")] == ["germany"]
    assert [e.id for e in reg.search("west")] == ["usa_west"]
    assert [e.id for e in reg.search("an")] == ["germany", "nordic"]
    # an id or name starting with the text first, then those containing it
    assert [e.id for e in reg.search("a")] == [
        "amsterdam",
        "usa",
        "germany",
        "nordic",
        "paris",
        "europe",  # its German name, Europa
        "usa_west",
    ]
    assert reg.search("zzz") == []
    assert len(reg.search("", limit=2)) == 2
