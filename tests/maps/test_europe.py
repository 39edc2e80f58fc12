"""Europe as data: the board the reference's checks describe and its train station parameters.

The engine plays the ``europe`` rule set (engine/rules/europe.py) and the map is offered like
every other.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import maps
from engine.rules import RULESETS
from maps import load_ruleset, read_map_data, registry
from maps.checks import check_map_data
from words import words_for


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return read_map_data("europe")


def fresh() -> dict[str, Any]:
    """A deep copy of Europe's data, free to break."""
    return copy.deepcopy(read_map_data("europe"))


def problems(data: Any) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in check_map_data(data)[1]]


# ------------------------------------------------------------------ offered
def test_europe_is_offered_and_played():
    """Valid, offered like the other maps (lobby, autocomplete), played by its own rule set."""
    reg = registry()
    assert reg.ids()[-1] == "europe"
    assert "europe" in maps.available_maps() and maps.validate_all()["europe"] == []
    entry = reg.get("europe")
    assert entry.ruleset == "europe" and entry.status == "exact"
    assert dict(entry.names) == {"en": "Europe", "de": "Europa"}
    assert (entry.min_players, entry.max_players) == (2, 5)
    assert type(load_ruleset("europe")) is RULESETS["europe"]
    assert [e.id for e in reg.search("eur")] == ["europe"]


# ------------------------------------------------------------------ the board
def test_the_board_matches_the_reference_checks():
    """47 cities, 101 tracks on 90 pairs (11 doubles), 18 tunnels, 13 gray ferries with 17
    locomotive symbols, lengths 1-4, 6 and 8, every colour 8 routes, 300 spaces."""
    board = load_ruleset("europe").board
    routes = list(board.routes.values())
    assert len(board.cities) == 47 and len(routes) == 101
    groups = Counter(r.group for r in routes)
    assert len(groups) == 90 and len({frozenset((r.a, r.b)) for r in routes}) == 90
    assert sorted(g for g, n in groups.items() if n == 2) == [
        "berlin__frankfurt",
        "berlin__warszawa",
        "bruxelles__paris",
        "budapest__wien",
        "dieppe__london",
        "edinburgh__london",
        "essen__kobenhavn",
        "frankfurt__paris",
        "kobenhavn__stockholm",
        "madrid__pamplona",
        "pamplona__paris",
    ]
    tunnels = [r for r in routes if r.tunnel]
    ferries = [r for r in routes if r.locomotives]
    assert len(tunnels) == 18 and len(ferries) == 13
    assert not [r for r in tunnels if r.locomotives]
    assert {r.color for r in ferries} == {"gray"} and sum(r.locomotives for r in ferries) == 17
    assert sorted(r.id for r in ferries if r.locomotives == 2) == [
        "amsterdam__london__1",
        "constantinople__sevastopol__1",
        "erzurum__sevastopol__1",
        "palermo__smyrna__1",
    ]
    assert Counter(r.length for r in routes) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}
    longest = sorted((r.id, r.length, r.tunnel, r.locomotives) for r in routes if r.length >= 6)
    assert longest == [
        ("budapest__kyiv__1", 6, True, 0),
        ("palermo__smyrna__1", 6, False, 2),
        ("petrograd__stockholm__1", 8, True, 0),
    ]
    per_colour = Counter(r.color for r in routes)
    assert per_colour.pop("gray") == 37 and set(per_colour.values()) == {8}
    assert sum(r.length for r in routes) == 300


def test_city_names_are_the_boards_spelling(data):
    names = {c["id"]: c["name"] for c in data["cities"]}
    assert names["munchen"] == "München" and names["kyiv"] == "Kyïv"
    assert names["zagrab"] == "Zágráb" and names["athina"] == "Athína"
    assert names["constantinople"] == "Constantinople" and names["petrograd"] == "Petrograd"


def _km(a: dict[str, float], b: dict[str, float]) -> float:
    la1, lo1, la2, lo2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * 6371 * math.asin(math.sqrt(h))


def test_coordinates_fit_the_route_lengths(data):
    """Every route spans 59-295 km of real distance per space (the reference's check), so no
    coordinate is swapped or far off."""
    cities = {c["id"]: c for c in data["cities"]}
    per_space = {r["id"]: _km(cities[r["a"]], cities[r["b"]]) / r["length"] for r in data["routes"]}
    assert 58 <= min(per_space.values()) and max(per_space.values()) <= 296
    assert round(per_space["amsterdam__essen__1"]) == 59
    assert round(per_space["kyiv__wilno__1"]) == 295


def test_tickets_are_40_regular_and_6_long(data):
    decks = Counter(t["deck"] for t in data["tickets"])
    assert decks == {"main": 40, "long": 6}
    long = {(t["a"], t["b"]): t["points"] for t in data["tickets"] if t["deck"] == "long"}
    assert long == {
        ("brest", "petrograd"): 20,
        ("cadiz", "stockholm"): 21,
        ("edinburgh", "athina"): 21,
        ("kobenhavn", "erzurum"): 21,
        ("lisboa", "danzig"): 20,
        ("palermo", "moskva"): 20,
    }
    regular = sorted(t["points"] for t in data["tickets"] if t["deck"] == "main")
    assert regular[0] == 5 and regular[-1] == 13 and sum(regular) == 321


# ------------------------------------------------------------------ the rules as data
def test_rule_parameters(data):
    """Stations 3 at 1/2/3 cards, 4 points each unbuilt; 1 long + 3 regular dealt, keep 2, the rest
    leave; draws from the regular deck only; Europe's route points and European Express."""
    rules = data["rules"]
    assert data["ruleset"] == "europe"
    assert rules["stations"] == {"count": 3, "costs": [1, 2, 3], "points_unbuilt": 4}
    assert rules["initial_tickets"] == {
        "count": 4,
        "keep": 2,
        "unkept": "remove",
        "mix": {"long": 1, "main": 3},
    }
    assert rules["draw_tickets"] == {"count": 3, "keep": 1, "unkept": "bottom", "mix": {"main": 3}}
    assert rules["route_points"] == {"1": 1, "2": 2, "3": 4, "4": 7, "6": 15, "8": 21}
    assert rules["longest_path_bonus"] == 10 and "globetrotter_bonus" not in rules
    assert rules["locomotives_pay"] == "any" and rules["double_routes_min_players"] == 4
    assert (rules["pieces"], rules["players"]) == (45, {"min": 2, "max": 5})
    assert rules["tiebreaks"] == ["tickets_completed", "fewest_stations", "longest_path_bonus"]


def test_words_and_rules_text_name_stations_and_the_choice_of_tie_break(data):
    de, en = words_for("de", data), words_for("en", data)
    assert (de.noun("station", 1), de.noun("station", 2)) == ("Bahnhof", "Bahnhöfe")
    assert format(de.terms["stations"], "dat") == "Bahnhöfen"
    assert de.terms["longest_path"] == "Europa-Express"
    assert en.terms["longest_path"] == "European Express"
    en, de = data["rules_text"]["en"], data["rules_text"]["de"]
    assert "fewest train stations built, then the European Express" in en
    assert "weniger gebaute Bahnhöfe, dann der Europa-Express" in de
    # players read the rule; why it is our choice (no source confirms it) is in the docs
    assert "our choice" not in en and "unsere Wahl" not in de
    docs = (Path(__file__).parents[2] / "docs" / "maps" / "rulesets.md").read_text()
    docs = " ".join(docs.split())
    assert "none of the sources read confirms it" in docs and "so it is our choice" in docs
    for text in (en, de):
        assert "4" in text and "21" in text and "15" in text
    unverified = " ".join(data["provenance"]["unverified"])
    assert "tie-break" in unverified and "diacritics" in unverified


# ------------------------------------------------------------------ schema and checks
def test_stations_need_one_cost_per_station():
    data = fresh()
    data["rules"]["stations"]["costs"] = [1, 2]
    assert problems(data) == [
        ("rules.stations", "2 costs for 3 stations: give one cost per station")
    ]


def test_a_fixed_mix_adds_up_to_the_count_and_excludes_an_announced_one():
    data = fresh()
    data["rules"]["initial_tickets"]["mix"] = {"long": 2, "main": 3}
    assert problems(data) == [("rules.initial_tickets", "the mix deals 5 tickets but count is 4")]
    data = fresh()
    data["rules"]["draw_tickets"]["announce_mix"] = True
    assert problems(data) == [
        ("rules.draw_tickets", "a fixed mix and announce_mix exclude each other")
    ]


def test_a_fixed_mix_deals_from_decks_that_hold_a_full_table():
    data = fresh()
    data["rules"]["draw_tickets"]["mix"] = {"regular": 3}
    assert problems(data) == [
        ("rules.draw_tickets.mix.regular", "'regular' is not a ticket deck of this map")
    ]
    data = fresh()
    data["tickets"] = [t for t in data["tickets"] if t["id"] != "palermo__moskva"]
    assert problems(data) == []  # 5 long tickets still deal one to each of 5 players
    data["tickets"] = [t for t in data["tickets"] if t["id"] != "lisboa__danzig"]
    assert problems(data) == [
        ("rules.initial_tickets.mix.long", "4 long tickets cannot deal 5 at setup (5 players x 1)")
    ]
    data = fresh()
    del data["rules"]["initial_tickets"]["mix"]
    assert problems(data) == [
        (
            "rules.initial_tickets.announce_mix",
            "the tickets come in decks long, main but this deal announces no mix",
        )
    ]


def test_stations_belong_to_the_europe_rule_set_in_both_directions():
    data = fresh()
    del data["rules"]["stations"]
    assert problems(data) == [("rules.stations", "missing: the rule set 'europe' needs it")]
    data = fresh()
    data["ruleset"] = "classic"
    only = "is played only by the rule set 'europe', not 'classic'"
    assert problems(data) == [
        ("rules.stations", "only the rule set 'europe' uses it; this map's rule set is 'classic'"),
        ("rules.initial_tickets.mix", f"a fixed ticket mix {only}"),
        ("rules.draw_tickets.mix", f"a fixed ticket mix {only}"),
        ("rules.tiebreaks", f"the tie-break 'fewest_stations' {only}"),
        ("rules.tiebreaks", f"the tie-break 'longest_path_bonus' {only}"),
    ]


def test_the_european_express_tie_break_needs_the_bonus():
    data = fresh()
    del data["rules"]["longest_path_bonus"]
    assert problems(data) == [
        ("rules.tiebreaks", "'longest_path_bonus' needs rules.longest_path_bonus")
    ]


def test_an_unknown_rule_set_is_still_refused():
    data = fresh()
    data["ruleset"] = "europa"
    ((path, message),) = [p for p in problems(data) if p[0] == "ruleset"]
    assert message.startswith("unknown rule set 'europa'")
