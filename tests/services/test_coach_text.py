"""The coach's words (sentences/coach.py): hints and turning points in both languages."""

from __future__ import annotations

from engine import DrawBlind, player_view
from engine.ai.analysis import TurningPoint, TurnMove
from engine.ai.coach import suggest
from engine.testing import build_state
from maps import load_ruleset
from sentences.coach import hint_words, turning_point_words
from words import words_for

USA = load_ruleset("usa")
NAMES = ["Åsa", "Björn"]
SMALL = {"iterations": 12, "time_cap_s": None}


def _hint_at_risk():
    """Denver - El Paso with every track into El Paso but Santa Fe's taken (see test_coach)."""
    others = [
        "dallas__el_paso__1",
        "el_paso__houston__1",
        "el_paso__los_angeles__1",
        "el_paso__oklahoma_city__1",
        "el_paso__phoenix__1",
    ]
    state = build_state(
        USA,
        seats=2,
        seed=5,
        hands={0: {"yellow": 1}},
        owned={1: others},
        tickets={0: ["denver__el_paso"]},
    )
    view = player_view(USA, state, 0)
    return suggest(USA, view, [DrawBlind(0)], state.options, **SMALL)


def test_a_hint_says_the_move_the_ticket_the_cards_and_the_risk():
    """English: the move, the ticket it serves, the cards still to collect, the last free track;
    German: the rulebook's words (Stapel, Zielkarte, Strecke) and du."""
    hint = _hint_at_risk()
    en = "\n".join(hint_words(hint, USA, words_for("en", USA.meta), NAMES, used=1))
    assert "Draw a card from the deck" in en
    assert "Denver – El Paso (4)" in en
    assert "Still to collect: 3 cards of one colour." in en
    assert "El Paso – Santa Fe is the last free track on your path to Denver – El Paso" in en
    assert "1 hint taken" in en
    de = "\n".join(hint_words(hint, USA, words_for("de", USA.meta), NAMES, used=2))
    assert "Zieh eine Karte vom Stapel" in de and "2 Tipps" in de
    assert "letzte freie Strecke auf deinem Weg für Denver – El Paso" in de
    assert "ist diese Zielkarte verloren" in de


def test_a_turning_point_reads_like_the_issue_example():
    """``Turn 42: Björn claimed Denver – Kansas City; Åsa's chance 48% → 21%`` and its German."""
    point = TurningPoint(42, 1, TurnMove("claim", "denver__kansas_city__1"), 0, 0.48, 0.21)
    en = turning_point_words(point, USA, words_for("en", USA.meta), NAMES)
    assert en == "Turn 42: Björn claimed Denver – Kansas City; Åsa's chance 48% → 21%"
    de = turning_point_words(point, USA, words_for("de", USA.meta), NAMES)
    assert de == (
        "Zug 42: Björn hat die Strecke Denver – Kansas City genutzt; "
        "Gewinnchance von Åsa 48 % → 21 %"
    )
    drew = TurningPoint(7, 0, TurnMove("cards", count=2, cards=("blue", "locomotive")), 1, 0.5, 0.4)
    assert "Åsa drew 2 train car cards (blue, locomotive)" in turning_point_words(
        drew, USA, words_for("en", USA.meta), NAMES
    )


def test_a_station_hint_and_a_station_turn_name_the_station_city_and_tickets():
    """Europe: Edinburgh - Paris with the only track out of Edinburgh taken. The hint (the
    suggestion given as the one legal move) says to build the station with its cards and
    that it lends a route for that ticket; a turn that built one is told as such, in both
    languages (it used to read "Pass" and "passed")."""
    from engine import BuildStation, Cards

    europe = load_ruleset("europe")
    state = build_state(
        europe,
        seats=2,
        owned={1: ["edinburgh__london__1"]},
        tickets={0: ["edinburgh__paris"], 1: ["berlin__roma"]},
        hands={0: {"blue": 3}, 1: {"green": 2}},
    )
    view = player_view(europe, state, 0)
    build = BuildStation(0, "edinburgh", Cards(blue=1))
    hint = suggest(europe, view, [build], state.options, **SMALL)
    assert hint.reason == "station" and hint.tickets == ("edinburgh__paris",)
    en = "\n".join(hint_words(hint, europe, words_for("en", europe.meta), NAMES, used=1))
    assert "Build a train station in Edinburgh with 1× blue" in en
    assert "lends you a route of another player for your destination ticket Edinburgh – Paris" in en
    de = "\n".join(hint_words(hint, europe, words_for("de", europe.meta), NAMES, used=1))
    assert "Baue einen Bahnhof in Edinburgh mit 1× Blau" in de
    assert "Strecke eines Mitspielers für deine Zielkarte Edinburgh – Paris" in de
    point = TurningPoint(9, 1, TurnMove("station", city="london"), 0, 0.5, 0.3)
    en = turning_point_words(point, europe, words_for("en", europe.meta), NAMES)
    assert en.startswith("Turn 9: Björn built a train station in London;")
    de = turning_point_words(point, europe, words_for("de", europe.meta), NAMES)
    assert de.startswith("Zug 9: Björn hat in London einen Bahnhof gebaut;")
