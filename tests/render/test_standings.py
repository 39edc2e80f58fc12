"""The standings image of a tournament: legible at 500 px, every line drawn with its numbers
in the reader's way, a player who is out marked in the text (never by colour alone), and a
field too big for one image said so."""

from __future__ import annotations

import io

from PIL import Image

from render import StandingRow, recorded_text, render_standings_png
from render._standings import MOST_ROWS, TEXT, WIDTH

HEADERS = ("Player", "Points", "Buchholz", "Margin", "Games")


def _draw(rows: list[StandingRow], lang: str = "en") -> tuple[Image.Image, list[str]]:
    with recorded_text() as drawn:
        png = render_standings_png(rows, title="Cup", headers=HEADERS, footer="† out", lang=lang)
    return Image.open(io.BytesIO(png)), drawn


def test_every_line_is_drawn_legibly_with_its_numbers() -> None:
    rows = [StandingRow(1, "Ada", 4.5, 7.0, 12.25, 3), StandingRow(2, "Bo", 4.5, 6.0, -3.0, 3)]
    img, drawn = _draw(rows)
    assert img.width == WIDTH and TEXT * 500 / WIDTH >= 12
    assert {"Cup", *HEADERS, "1.", "Ada", "2.", "Bo", "4.5", "7.0", "-3.0", "† out"} <= set(drawn)
    _, german = _draw(rows, "de")
    assert "4,5" in german and "4.5" not in german


def test_a_player_who_is_out_is_marked_in_the_text() -> None:
    _, drawn = _draw([StandingRow(1, "Ada", 2, 0, 0, 1), StandingRow(2, "Bo", 0, 2, 0, 1, False)])
    assert "Ada" in drawn and "Bo †" in drawn


def test_a_big_field_is_cut_and_says_how_many_more() -> None:
    rows = [StandingRow(i + 1, f"P{i}", 0, 0, 0, 0) for i in range(MOST_ROWS + 5)]
    img, drawn = _draw(rows)
    assert f"P{MOST_ROWS - 1}" in drawn and f"P{MOST_ROWS}" not in drawn
    assert "… +5" in drawn
