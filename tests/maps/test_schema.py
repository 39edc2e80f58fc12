"""The map file schema and the checks between parts: every shipped map passes, every defect is named.

Each test breaks a valid copy of a shipped map in one known way and expects
exactly the problem (path and message) that names the defect.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from maps import MapError, load_ruleset, read_map_data, validate_all, validate_map_data
from maps.checks import check_map_data
from maps.folders import BUILTIN_DIR, MapFolder, load_map_file, map_folders

SHIPPED = ["usa", "germany", "nordic", "amsterdam", "paris", "europe"]
#: Shipped maps not offered to players yet (tests/maps/test_europe.py): none today.
PENDING: list[str] = []


def fresh(map_id: str = "usa") -> dict[str, Any]:
    """A deep copy of a shipped map's data, free to break."""
    return copy.deepcopy(read_map_data(map_id))


def problems(data: Any, expected_id: str | None = None) -> list[tuple[str, str]]:
    """(path, message) of every problem of ``data``."""
    return [(p.path, p.message) for p in check_map_data(data, expected_id)[1]]


def paths(data: Any) -> list[str]:
    return [path for path, _ in problems(data)]


# ------------------------------------------------------------------ shipped maps
def test_the_shipped_maps_are_found_as_builtin():
    folders = {k: v for k, v in map_folders().items() if v.source == "builtin"}
    assert list(folders) == SHIPPED + PENDING
    assert all(f.path.parent == BUILTIN_DIR for f in folders.values())


@pytest.mark.parametrize("map_id", SHIPPED)
def test_every_shipped_map_validates(map_id):
    """The schema and every check accept the shipped file, and the engine builds it."""
    folder = MapFolder(map_id, BUILTIN_DIR / map_id, "builtin")
    data, model = load_map_file(folder)
    assert model.id == map_id
    assert len(model.routes) == len(data["routes"]) == len(load_ruleset(map_id).board.routes)
    assert validate_map_data(data, expected_id=map_id) == []


def test_validate_all_reports_no_problem_for_the_shipped_maps():
    result = validate_all()
    assert {m: result[m] for m in SHIPPED + PENDING} == dict.fromkeys(SHIPPED + PENDING, [])


# ------------------------------------------------------------------ error format
def test_a_map_with_several_broken_fields_lists_each_with_file_and_path(tmp_path, monkeypatch):
    """One run names every problem: schema errors and cross-reference errors, file and path."""
    data = fresh()
    data["routes"][12]["length"] = 12
    data["routes"][3]["a"] = "atlantis"
    data["routes"][5]["color"] = "plaid"
    data["routes"][7]["lenght"] = 3
    data["tickets"][2]["points"] = "10"
    data["cities"][4]["lat"] = 123
    data["rules"]["players"]["min"] = 6
    data["words"]["de"].pop("wild")
    (tmp_path / "usa_broken").mkdir()
    (tmp_path / "usa_broken" / "map.json").write_text(json.dumps(dict(data, id="usa_broken")))
    monkeypatch.setenv("TTR_MAPS_DIR", str(tmp_path))

    with pytest.raises(MapError) as caught:
        read_map_data("usa_broken")

    file = str(tmp_path / "usa_broken" / "map.json")
    found = {p.path: p for p in caught.value.problems}
    assert all(p.file == file for p in caught.value.problems)
    assert sorted(found) == sorted(
        [
            "routes[12].length",
            "routes[3].a",
            "routes[5].color",
            "routes[7].lenght",
            "tickets[2].points",
            "cities[4].lat",
            "rules.players",
            "words.de.wild",
        ]
    )
    assert str(found["routes[12].length"]) == (
        f"{file}: routes[12].length: Input should be less than or equal to 9 (got 12)"
    )
    assert "'atlantis' is not a city" in found["routes[3].a"].message
    assert "'plaid' is not a card colour" in found["routes[5].color"].message
    assert "Extra inputs are not permitted" in found["routes[7].lenght"].message
    assert "valid integer" in found["tickets[2].points"].message
    assert "min 6 is above max 5" in found["rules.players"].message
    assert "Field required" in found["words.de.wild"].message
    # the exception's text lists them too, one per line
    assert str(caught.value).count(f"\n  {file}: ") == 8


def test_builtin_maps_are_named_relative_to_the_package(monkeypatch, tmp_path):
    """A built-in map's problems name ``maps/<id>/map.json``, as the operator sees it."""
    data = fresh()
    data["routes"][0]["length"] = 0
    folder = MapFolder("usa", tmp_path / "maps" / "usa", "builtin")
    monkeypatch.setattr("maps.folders.BUILTIN_DIR", tmp_path / "maps")
    folder.path.mkdir(parents=True)
    folder.map_file.write_text(json.dumps(data))
    with pytest.raises(MapError) as caught:
        load_map_file(folder)
    assert caught.value.errors == [
        "maps/usa/map.json: routes[0].length: Input should be greater than or equal to 1 (got 0)"
    ]


def test_a_file_that_is_not_json_names_line_and_column(tmp_path):
    folder = MapFolder("bad", tmp_path / "bad", "extra")
    folder.path.mkdir()
    folder.map_file.write_text('{\n  "id": "bad",\n  "name": {"en": "Bad",}\n}\n')
    with pytest.raises(MapError) as caught:
        load_map_file(folder)
    (error,) = caught.value.errors
    assert error.startswith(f"{folder.map_file}: not valid JSON: ")
    assert "(line 3, column" in error


def test_data_that_is_not_an_object():
    assert problems([1, 2]) == [("", "the file is not a JSON object")]


def test_a_missing_top_level_key_is_named():
    data = fresh()
    del data["rules_text"]
    assert problems(data) == [("rules_text", "Field required")]


# ------------------------------------------------------------------ the schema
def test_types_are_strict():
    """No silent conversion: a string is not a number, true is not an int."""
    data = fresh()
    data["routes"][0]["length"] = "2"
    data["routes"][1]["locomotives"] = True
    data["rules"]["pieces"] = 45.0
    assert paths(data) == ["rules.pieces", "routes[0].length", "routes[1].locomotives"]


def test_a_misspelt_key_is_an_error_not_ignored():
    data = fresh()
    data["rules"]["longest_path_bonu"] = 10
    data["cities"][0]["lattitude"] = 1.0
    assert paths(data) == ["rules.longest_path_bonu", "cities[0].lattitude"]


def test_words_names_and_rules_text_are_needed_in_english_and_german():
    data = fresh()
    data["name"]["de"] = "  "
    del data["rules_text"]["en"]
    data["words"]["en"]["ticket"]["forms"][1] = ""
    data["words"]["en"]["flag"] = {"forms": ["flag"]}  # a map's extra nouns need every form too
    data["words"]["en"]["tickets"] = {"forms": ["a", "b"]}  # not a noun of the schema
    assert problems(data) == [
        ("name.de", "must not be empty or blank"),
        ("words.en.ticket.forms[1]", "must not be empty or blank"),
        ("words.en.flag.forms", "List should have at least 2 items after validation, not 1"),
        ("words.en.tickets", "Extra inputs are not permitted"),
        ("rules_text.en", "Field required"),
    ]


def test_german_nouns_carry_gender_and_dative_and_the_gender_the_sentences_assume():
    """German sentences put articles with some nouns ("eine offene {wild}"): a noun of another
    gender is refused, as is one without its dative (the sentences say "mit 2 Fuhrwerken")."""
    data = fresh()
    data["words"]["de"]["wild"]["gender"] = "m"  # "ein offener Joker" needs other sentences
    del data["words"]["de"]["piece"]["dative"]
    data["words"]["de"]["colors"] = {"plaid": "Kariert"}
    assert problems(data) == [
        ("words.de.piece.dative", "Field required"),
        (
            "words.de.wild",
            "the German sentences put articles of gender 'f' with this noun "
            "(\"eine offene ...\"); a noun of gender 'm' needs sentences of its own",
        ),
    ]
    data = fresh()
    data["words"]["de"]["colors"] = {"plaid": "Kariert", "gray": "Grau"}
    assert problems(data) == [("", "words.de.colors names colours this map has no cards of: plaid")]


def test_rule_parameters_in_range_and_order():
    data = fresh()
    rules = data["rules"]
    rules["initial_tickets"]["keep"] = 4
    rules["draw_tickets"]["unkept"] = "shredder"
    rules["locomotives_pay"] = "never"
    rules["tiebreaks"] = ["coin_flip"]
    rules["route_points"]["10"] = 30
    assert paths(data) == [
        "rules.locomotives_pay",
        "rules.initial_tickets",
        "rules.draw_tickets.unkept",
        "rules.route_points.10",
        "rules.tiebreaks[0]",
    ]
    assert ("rules.route_points.10", "key: String should match pattern '^[1-9]$' (got \"10\")") in (
        problems(data)
    )


def test_card_colours_and_per_colour_counts():
    data = fresh("paris")
    data["rules"]["cards"]["per_color"].pop("red")
    assert problems(data) == [
        (
            "rules.cards",
            "per_color names blue, green, purple, white, yellow "
            "but the colours are blue, green, purple, red, white, yellow",
        )
    ]
    data = fresh()
    data["rules"]["cards"]["colors"].append("gray")
    assert paths(data) == ["rules.cards.colors"]
    data = fresh()
    data["rules"]["cards"]["per_color"] = "twelve"
    assert problems(data) == [
        (
            "rules.cards.per_color",
            'must be a count, or an object colour -> count (got "twelve")',
        )
    ]


def test_route_shape():
    data = fresh("nordic")
    ferry = next(i for i, r in enumerate(data["routes"]) if r.get("locomotives"))
    data["routes"][ferry]["locomotives"] = data["routes"][ferry]["length"] + 1
    others = [i for i in range(len(data["routes"])) if i != ferry][:3]
    data["routes"][others[0]]["b"] = data["routes"][others[0]]["a"]
    data["routes"][others[1]]["substitute"] = 1
    data["routes"][others[2]]["unverified"] = ["colour"]
    assert problems(data) == sorted(
        [
            (f"routes[{others[0]}]", f"both ends are {data['routes'][others[0]]['a']!r}"),
            (
                f"routes[{others[1]}].substitute",
                "Input should be greater than or equal to 2 (got 1)",
            ),
            (
                f"routes[{others[2]}].unverified[0]",
                "Input should be 'a', 'b', 'length', 'color', 'tunnel', 'locomotives' or 'carts'"
                ' (got "colour")',
            ),
            (
                f"routes[{ferry}]",
                f"locomotives {data['routes'][ferry]['locomotives']} exceed"
                f" the length {data['routes'][ferry]['length']}",
            ),
        ],
        key=lambda p: int(p[0][7 : p[0].index("]")]),
    )


def test_options_need_a_default_among_the_choices():
    data = fresh("germany")
    data["options"]["tickets"]["default"] = "2020"
    assert problems(data) == [
        ("options.tickets", "default '2020' is not one of the choices 2012, 2017")
    ]


def test_unknown_ruleset_and_provenance_status():
    data = fresh()
    data["ruleset"] = "monopoly"
    data["provenance"]["status"] = "probably"
    assert problems(data) == [
        ("ruleset", "unknown rule set 'monopoly' (known: amsterdam, classic, europe, paris)"),
        ("provenance.status", "Input should be 'exact' or 'provisional' (got \"probably\")"),
    ]


# ------------------------------------------------------------------ checks between parts
def test_the_id_must_match_the_folder():
    assert problems(fresh(), expected_id="usa2") == [
        ("id", "'usa' does not match its folder 'usa2'")
    ]


def test_duplicate_ids():
    data = fresh()
    data["cities"][1]["id"] = data["cities"][0]["id"]
    data["tickets"][5]["id"] = data["tickets"][2]["id"]
    found = problems(data)
    assert ("cities[1].id", "duplicate id 'atlanta' (cities[0])") in found
    assert ("tickets[5].id", f"duplicate id {data['tickets'][2]['id']!r} (tickets[2])") in found


def test_route_and_ticket_ends_must_be_cities():
    data = fresh()
    data["routes"][0]["b"] = "gotham"
    data["tickets"][0]["a"] = "metropolis"
    assert problems(data) == [
        ("routes[0].b", "'gotham' is not a city of this map"),
        ("tickets[0].a", "'metropolis' is not a city of this map"),
    ]


def test_a_broken_city_does_not_make_its_routes_point_nowhere():
    """The city with a bad latitude is still a city for references: one problem, not dozens."""
    data = fresh()
    data["cities"][0]["lat"] = "north"
    assert paths(data) == ["cities[0].lat"]


def test_route_colour_must_be_a_card_colour_and_length_must_score():
    data = fresh()
    data["routes"][0]["color"] = "purple"
    data["routes"][1]["length"] = 8
    assert problems(data) == [
        (
            "routes[0].color",
            "'purple' is not a card colour (pink, white, blue, yellow, orange, black, red, green)"
            " nor 'gray'",
        ),
        ("routes[1].length", "length 8 has no entry in rules.route_points (1, 2, 3, 4, 5, 6)"),
    ]


def test_cross_checks_still_run_when_other_rule_parameters_are_broken():
    """A broken ``pieces`` hides neither a route colour nor a ticket problem."""
    data = fresh()
    data["rules"]["pieces"] = -1
    data["routes"][4]["color"] = "plaid"
    data["tickets"][3]["b"] = "nowhere"
    assert paths(data) == ["rules.pieces", "tickets[3].b", "routes[4].color"]


def test_the_tracks_of_a_group_join_one_pair():
    data = fresh()
    data["routes"][0]["group"] = "new_york__washington"  # atlanta-charleston joins it
    assert problems(data) == [
        (
            "routes[79].group",
            "group 'new_york__washington' joins new_york-washington here "
            "but atlanta-charleston at routes[0]",
        ),
        (
            "routes[80].group",
            "group 'new_york__washington' joins new_york-washington here "
            "but atlanta-charleston at routes[0]",
        ),
    ]


def test_the_tracks_between_two_cities_share_one_group():
    """Two groups on one pair would let one player claim both tracks of a double route."""
    data = fresh()
    assert [r["group"] for r in data["routes"][79:81]] == ["new_york__washington"] * 2
    data["routes"][80]["group"] = "nyc_dc"
    assert problems(data) == [
        (
            "routes[80].group",
            "new_york-washington is in group 'nyc_dc' here but in 'new_york__washington'"
            " at routes[79]",
        )
    ]


def test_tickets_must_deal_a_full_table():
    data = fresh()
    data["tickets"] = data["tickets"][:14]  # 5 players x 3 need 15
    assert problems(data) == [
        ("tickets", "14 tickets cannot deal 15 at setup (5 players x 3)"),
    ]


def test_each_ticket_edition_must_deal_a_full_table():
    data = fresh("germany")
    data["tickets"] = [t for t in data["tickets"] if t["sets"] != ["2017"]][:19]
    assert problems(data) == [
        ("tickets", "19 tickets with option tickets=2012 cannot deal 20 at setup (5 players x 4)"),
        ("tickets", "19 tickets with option tickets=2017 cannot deal 20 at setup (5 players x 4)"),
    ]


def test_ticket_sets_must_be_choices_of_the_tickets_option():
    data = fresh("germany")
    data["tickets"][0]["sets"] = ["2012", "1999"]
    assert problems(data) == [
        ("tickets[0].sets", "'1999' is not a choice of options.tickets (2012, 2017)")
    ]
    data = fresh()
    data["tickets"][0]["sets"] = ["2012"]
    assert problems(data) == [
        (
            "tickets[0].sets",
            "'2012' is not a choice of options.tickets (the map has no such option)",
        )
    ]


def test_several_ticket_decks_need_an_announced_mix_on_every_deal():
    data = fresh("germany")
    data["rules"]["draw_tickets"]["announce_mix"] = False
    assert problems(data) == [
        (
            "rules.draw_tickets.announce_mix",
            "the tickets come in decks long, short but this deal announces no mix",
        )
    ]


def test_hook_parameters_must_be_there():
    data = fresh("amsterdam")
    del data["rules"]["merchandise"]
    assert problems(data) == [("rules.merchandise", "missing: the rule set 'amsterdam' needs it")]
    data = fresh("paris")
    data["rules"]["french_flags"] = None
    assert problems(data) == [("rules.french_flags", "missing: the rule set 'paris' needs it")]


def test_a_rule_sets_own_parameters_are_refused_on_other_maps():
    """Both directions of the ruleset/parameter check: French flags on a classic map (the
    engines would score none) and merchandise on Paris are refused, naming the owner."""
    data = fresh("usa")
    data["rules"]["french_flags"] = fresh("paris")["rules"]["french_flags"]
    assert problems(data) == [
        (
            "rules.french_flags",
            "only the rule set 'paris' uses it; this map's rule set is 'classic'",
        )
    ]
    data = fresh("paris")
    data["rules"]["merchandise"] = {"cards": 16, "points": {str(n): [8, 4] for n in range(2, 5)}}
    assert problems(data) == [
        (
            "rules.merchandise",
            "only the rule set 'amsterdam' uses it; this map's rule set is 'paris'",
        )
    ]


def test_a_rule_set_is_held_to_the_other_rule_sets_parameters():
    """Europe's rule set owns no parameter of Paris': French flags on its map are refused like
    on any map that is not Paris'."""
    data = fresh("europe")
    assert problems(data) == []
    data["rules"]["french_flags"] = fresh("paris")["rules"]["french_flags"]
    assert problems(data) == [
        (
            "rules.french_flags",
            "only the rule set 'paris' uses it; this map's rule set is 'europe'",
        )
    ]


def test_merchandise_needs_a_ranking_per_player_count():
    data = fresh("amsterdam")
    del data["rules"]["merchandise"]["points"]["3"]
    assert problems(data) == [("rules.merchandise.points", "no ranking for 3 players")]


def test_french_flag_colours_are_card_colours():
    data = fresh("paris")
    data["rules"]["french_flags"]["colors"] = ["blue", "white", "orange"]
    assert problems(data) == [("rules.french_flags.colors", "'orange' is not a card colour")]


def test_the_deck_deals_every_starting_hand():
    data = fresh("amsterdam")  # 44 cards, 4 players
    data["rules"]["starting_hand"] = 10
    assert problems(data) == [
        ("rules.cards", "44 cards cannot deal 10 to each of 4 players and 5 face up")
    ]


def test_the_old_entry_point_returns_strings_without_a_file():
    data = fresh()
    data["routes"][0]["a"] = "atlantis"
    assert validate_map_data(data) == ["routes[0].a: 'atlantis' is not a city of this map"]


def test_the_schema_file_path_helper_leaves_out_union_tags():
    from maps.schema import format_path

    assert format_path(("rules", "cards", "per_color", "by colour", "red")) == (
        "rules.cards.per_color.red"
    )
    assert format_path(("routes", 12, "length")) == "routes[12].length"
    assert format_path(()) == ""
