"""The words of a whole game through the fake Discord, in English and German: one count of time
(rounds and turns) in the board caption, status, log, recap and analysis; one total per player in
/ttr status after the end; the article before a card's colour; the reshuffle of the discards said
in the turn line; the rules without notes meant for developers; one dash between a route's places.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.host.services import events as ev_
from maps import load_ruleset
from render import recorded_text
from sentences import stories
from words import words_for

from ..e2e.fake_discord import SentMessage
from ._harness import RunningTable, my_turn_or_end, running_table
from .test_german_games import _enabled, _settle, _texts

MAX_TURNS = 200

#: A number of time in either language: the word before it, and the number.
NUMBERED = re.compile(r"\b(Round|Turn|Move|Runde|Zug|Spielzug)\s+\**(\d+)", re.IGNORECASE)
#: The words each language numbers time with: a round of all seats, and one player's turn.
TIME_WORDS = {"en": {"round", "turn"}, "de": {"runde", "zug"}}
#: A hyphen between two place names (the dash between a route's places is an en dash).
HYPHENED_ROUTE = re.compile(r"[A-Za-zÀ-ÿ] - [A-ZÀ-Ý]")


@dataclass
class Game:
    """What one finished game showed: every text by where it was read, and the image labels."""

    status_in_play: str
    status_at_end: str
    board_in_play: str
    log: str
    show: str
    private: list[str]
    public: list[str]
    texts: list[str]
    drawn: list[str]
    reshuffles: int


async def _draw(t: RunningTable, game_id: int, turn_message: SentMessage) -> None:
    """Two cards: from the deck by the button, else (deck and discards empty) face-up ones."""
    alice = t.players["alice"]
    first = await alice.click(turn_message, f"ttr:{game_id}:draw")
    for _ in range(2):
        ids = _enabled(first, "card")
        if not ids:
            return
        first = await alice.click(first, ids[0], private=True)


async def _turn(t: RunningTable, game_id: int, message: SentMessage, n: int) -> None:
    """Draw tickets once, claim the first claimable route every fifth turn, else draw cards (so
    that the deck runs out and the discards are shuffled into a new one)."""
    alice = t.players["alice"]
    if n == 7:
        reply = await alice.slash("tickets")
        if _enabled(reply, "keep"):
            await _settle(alice, reply)
            return
    if n % 5 == 4:
        choices = await (
            await t.fake.autocomplete(
                alice.user, "ttr", "claim", {"route": ""}, focused="route", channel="games"
            )
        )
        if choices:
            await _settle(alice, await alice.slash("claim", {"route": choices[0]["value"]}))
            return
    await _draw(t, game_id, message)


async def _play(tmp_path: Path, lang: str) -> Game:
    """alice (her client and the server in ``lang``) plays a whole USA game against the computer,
    drawing often (so the deck runs out), and reads the game on the way and at the end."""
    async with running_table(tmp_path, ("alice",)) as t:
        t.fake.guild_locale = lang
        alice = t.players["alice"]
        alice.user.locale = lang
        with recorded_text() as drawn:
            await alice.slash("new", {"map": "usa"})
            await alice.slash("add_ai", {"level": "easy"})
            await alice.slash("start")
            await _settle(alice, await alice.slash("hand"))
            g = await t.game_id()
            seen, over = 0, False
            status_in_play = board_in_play = ""
            for turn in range(MAX_TURNS):
                message = await my_turn_or_end(t, g, alice, seen)
                seen = len(t.fake.sent)
                if f"ttr:{g}:rematch" in message.custom_ids:
                    over = True
                    break
                if turn == 12:
                    status_in_play = (await alice.slash("status")).text
                    board_in_play = (await alice.slash("board")).text
                await _turn(t, g, message, turn)
            assert over, f"no end after {MAX_TURNS} turns"
            status_at_end = (await alice.slash("status")).text
            log = (await alice.slash("game log", {"count": 200})).text
            before = len(t.fake.sent)
            await alice.slash("game show", {"id": g})
            analysis = await t.fake.wait_for_message(
                lambda m: any(a.filename == "analysis.png" for a in m.attachments),
                since=before,
                timeout=60,
            )
            show = analysis.text
            records = await t.service.queries.turn_log(g)
        sent = [m for m in t.fake.sent if m.kind != "user"]
        return Game(
            status_in_play=status_in_play,
            status_at_end=status_at_end,
            board_in_play=board_in_play,
            log=log,
            show=show,
            private=[m.text for m in sent if m.ephemeral],
            public=[m.text for m in sent if not m.ephemeral],
            texts=[s for m in sent for s in _texts(m)],
            drawn=list(drawn),
            reshuffles=sum(isinstance(e, ev_.DeckReshuffled) for r in records for e in r.events),
        )


@pytest.fixture(scope="module", params=["en", "de"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


_GAMES: dict[str, Game] = {}


@pytest.fixture
async def game(lang: str, tmp_path_factory: pytest.TempPathFactory) -> Game:
    """One whole game per language, played once for all the tests of this module."""
    if lang not in _GAMES:
        _GAMES[lang] = await _play(tmp_path_factory.mktemp(f"words-{lang}"), lang)
    return _GAMES[lang]


def _time_words(text: str) -> set[str]:
    return {m.group(1).lower() for m in NUMBERED.finditer(text)}


async def test_one_count_of_time_everywhere(game: Game, lang: str) -> None:
    """Board caption, status, log, recap frames and analysis number time with the same two
    words: a round (all seats once) and a turn (one player's), never a "move" or "Spielzug"."""
    round_word, turn_word = ("round", "turn") if lang == "en" else ("runde", "zug")
    assert _time_words(game.board_in_play) == {round_word}, game.board_in_play
    assert _time_words(game.status_in_play) == {round_word, turn_word}, game.status_in_play
    assert _time_words(game.log) == {turn_word}, game.log[:300]
    assert turn_word in _time_words(game.show), game.show  # the turning points of the analysis
    recap = {w for label in game.drawn for w in _time_words(label)}
    assert turn_word in recap and round_word in recap, sorted(recap)  # recap frames, board caption
    everything = "\n".join(game.texts + game.drawn)
    assert _time_words(everything) <= TIME_WORDS[lang], sorted(_time_words(everything))


async def test_status_after_the_end_shows_one_total_per_player(game: Game, lang: str) -> None:
    """After the end each seat's line in /ttr status shows the final total, the same number as
    the score table below it (not the route score of play beside the total with tickets)."""
    points = "points?" if lang == "en" else "Punkte?"
    seat_lines = dict(re.findall(rf"^• (.+?): (-?\d+) {points}", game.status_at_end, re.M))
    ranked = dict(re.findall(rf"^\d+\. (.+?): (-?\d+) {points} \(", game.status_at_end, re.M))
    assert len(seat_lines) == 2 and seat_lines == ranked, game.status_at_end
    assert any(int(v) != 0 for v in seat_lines.values())


async def test_a_drawn_card_takes_the_article_its_colour_needs(game: Game, lang: str) -> None:
    """English: "an orange card", "a red card", never "a orange"; German says "eine Karte in …"."""
    private = "\n".join(game.private)
    if lang == "en":
        assert "You drew an **orange** card." in private
        assert "You drew a **red** card." in private
        assert not re.search(r"\ba \**orange\b", "\n".join(game.texts), re.I)
    else:
        assert "Du hast eine Karte in **Orange** gezogen." in private
        assert "Du hast eine Karte in **Rot** gezogen." in private


async def test_the_reshuffle_of_the_discards_is_said_in_the_turn_line(
    game: Game, lang: str
) -> None:
    """When a draw finds the deck empty, the discards become the new deck, and the public turn
    line says so (the deck button said "0 cards" and still drew)."""
    said = (
        "The deck ran out: the discards were shuffled into a new deck of"
        if lang == "en"
        else "Der Stapel war aufgebraucht: der Ablagestapel wurde gemischt"
    )
    assert game.reshuffles > 0
    assert sum(said in text for text in game.public) == game.reshuffles


async def test_no_route_is_named_with_a_hyphen(game: Game) -> None:
    """Every route's places are joined by an en dash with spaces ("Dieppe – London")."""
    hits = [s for s in game.texts + game.drawn if HYPHENED_ROUTE.search(s)]
    assert not hits, hits[:5]
    assert any(" – " in s for s in game.texts)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("map_id", ["europe", "nordic"])
async def test_the_rules_say_the_rule_not_where_it_came_from(
    tmp_path: Path, lang: str, map_id: str
) -> None:
    """/ttr game rules states each rule; notes on sources and choices live in the docs."""
    async with running_table(tmp_path, ("alice",)) as t:
        alice = t.players["alice"]
        alice.user.locale = lang
        reply = await alice.slash("game rules", {"map": map_id})
    notes = re.compile(
        r"\b(we|our|us|wir|uns|unsere?r?)\b|remember|Erinnerung|sources|Quellen", re.IGNORECASE
    )
    assert reply.text and not notes.search(reply.text), notes.findall(reply.text)
    assert ("European Express" in reply.text or "Europa-Express" in reply.text) == (
        map_id == "europe"
    )


def test_the_article_follows_every_colour() -> None:
    """Every card colour of every map in English: "an" before a vowel sound, "a" otherwise; the
    set-aside line of Paris likewise."""
    w = words_for("en")
    for color in ("red", "blue", "green", "yellow", "black", "white", "orange", "pink"):
        article = "an" if color[0] in "aeiou" else "a"
        assert stories.card_drawn(color, w) == f"You drew {article} **{color}** card."
    rules = load_ruleset("paris")
    story = stories.Story(0)
    stories.PHRASES[ev_.FlagCardKept](story, ev_.FlagCardKept(0, "orange"), rules, w)
    assert story.parts[0].startswith("set an orange card aside")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_reshuffle_joins_the_turn_whose_draw_caused_it(lang: str) -> None:
    """A reshuffle opening a turn (the first draw found the deck empty) or in its middle is told
    once, after the drawer's line, with the new deck's size; a turn without one says nothing."""
    rules = load_ruleset("usa")
    w = words_for(lang)
    deck = ev_.CardDrawn(0, "deck")
    events = [
        ev_.TurnStarted(0, 4),
        ev_.DeckReshuffled(31),
        deck,
        deck,
        ev_.TurnStarted(1, 5),
        ev_.CardDrawn(1, "deck"),
        ev_.DeckReshuffled(1),
        ev_.CardDrawn(1, "deck"),
        ev_.TurnStarted(0, 6),
        deck,
        deck,
    ]
    first, second, third = stories.turn_lines(events, rules, ["Ann", "Ben"], w)
    if lang == "en":
        assert first == (
            "Ann drew two cards from the deck. The deck ran out: the discards were shuffled"
            " into a new deck of 31 cards."
        )
        assert second.startswith("Ben drew") and second.endswith("a new deck of 1 card.")
    else:
        assert first.startswith("Ann hat") and first.endswith(
            "Der Stapel war aufgebraucht: der Ablagestapel wurde gemischt und ist der neue"
            " Stapel (31 Karten)."
        )
        assert second.startswith("Ben hat") and second.endswith("(1 Karte).")
    assert "31" not in second and "Stapel war" not in third and "ran out" not in third
