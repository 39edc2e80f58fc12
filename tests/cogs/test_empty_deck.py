"""An empty deck says what a draw from it does, in English and German: with discards they
are shuffled into a new deck, without any the deck is empty (and its button disabled) -- on
the turn panel's deck button, in /ttr status and on the board's side panel."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from cogs.ttr import _prompts as prompts
from cogs.ttr._table import status_text
from engine import GameState, public_view
from engine.testing import build_state
from maps import load_ruleset
from render import _theme as th
from render._board import PANEL_WIDTH, panel
from render._layout import load_layout
from words import words_for

from .test_prompt_limits import _table

USA = load_ruleset("usa")

#: (deck, discard) -> (the English words, the German words) of the button and /ttr status
CASES = [
    ((["red"] * 3, []), "Deck (3 cards)", "Stapel (3 Karten)"),
    (
        ([], ["red"] * 4),
        "Deck (0 cards: the discards are shuffled)",
        "Stapel (0 Karten, der Ablagestapel wird gemischt)",
    ),
    (([], []), "Deck (empty)", "Stapel (leer)"),
]
#: the same on the board's side panel
DRAWN = [
    ("Deck 3", "Stapel 3"),
    ("Deck 0: the discards are shuffled", "Stapel 0: der Ablagestapel wird gemischt"),
    ("Deck empty", "Stapel leer"),
]


def _state(deck: list[str], discard: list[str]) -> GameState:
    return build_state(USA, seats=2, seed=3, deck=deck, discard=discard, conserve_cards=False)


@pytest.mark.parametrize(("piles", "en", "de"), CASES)
def test_the_deck_button_and_the_status_say_what_a_draw_does(
    piles: tuple[list[str], list[str]], en: str, de: str
) -> None:
    """The deck button's label and the status line; the button is disabled only when the deck
    and the discards are both empty."""
    table = _table("usa", _state(*piles), 0)
    for lang, said in (("en", en), ("de", de)):
        w = words_for(lang, USA.meta)
        button = prompts.deck_button(table, w, table.version)
        assert button.label == said
        assert button.disabled == (said in ("Deck (empty)", "Stapel (leer)"))
        assert said in status_text(table, w).splitlines()


@pytest.mark.parametrize(("piles", "drawn"), list(zip([c[0] for c in CASES], DRAWN, strict=True)))
def test_the_side_panel_says_what_a_draw_does(
    monkeypatch: pytest.MonkeyPatch, piles: tuple[list[str], list[str]], drawn: tuple[str, str]
) -> None:
    """The board's side panel writes the same in both languages, within the panel's width."""
    written: list[str] = []
    text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: object, said: str, *args: object, **kw: object) -> None:
        written.append(said)
        text(self, xy, said, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    layout = load_layout("usa")
    public = public_view(USA, _state(*piles))
    for lang, said in zip(("en", "de"), drawn, strict=True):
        written.clear()
        panel(layout, public, ["A", "B"], lang, 900)
        assert any(line.startswith(said) for line in written), written
        assert th.font(14).getlength(said) <= PANEL_WIDTH - 2 * 20
