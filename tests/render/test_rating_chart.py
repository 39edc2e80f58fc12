"""The rating chart of /ttr stats: legible at 500 px, its numbers in the reader's language, and
provisional games told apart from established ones by shape (never by colour alone)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import recorded_text, render_rating_png
from render._rating import HEIGHT, TEXT, WIDTH

POINTS = [(1, 0.5, True), (2, 1.8, True), (3, -0.9, True), (6, 5.5, False), (7, 12.5, False)]


def _chart(lang: str = "en") -> tuple[Image.Image, list[str]]:
    with recorded_text() as drawn:
        png = render_rating_png(
            POINTS, title="Rating, season 2", axis="rated games", legend=("provisional", "set"),
            lang=lang,
        )  # fmt: skip
    return Image.open(io.BytesIO(png)).convert("RGB"), drawn


def test_the_chart_says_what_it_shows_at_a_legible_size() -> None:
    img, drawn = _chart()
    assert img.size == (WIDTH, HEIGHT)
    assert TEXT * 500 / WIDTH >= 12  # the smallest text at 500 px wide
    assert {"Rating, season 2", "rated games", "provisional", "set", "12.5"} <= set(drawn)
    assert {"1", "7", "0", "-5"} & set(drawn)


def test_numbers_are_written_the_readers_way() -> None:
    _, drawn = _chart("de")
    assert "12,5" in drawn and "12.5" not in drawn


def test_provisional_and_established_points_differ_in_shape() -> None:
    """A provisional point is a ring (its centre is the paper), an established one a filled
    square (its centre is ink): the same colour, another shape."""
    single = [(1, 3.0, True)]
    ring = Image.open(io.BytesIO(render_rating_png(single, title="", axis="", legend=("a", "b"))))
    square = Image.open(
        io.BytesIO(render_rating_png([(1, 3.0, False)], title="", axis="", legend=("a", "b")))
    )
    diff = [
        (x, y)
        for x in range(WIDTH)
        for y in range(40, HEIGHT - 40)
        if ring.convert("RGB").getpixel((x, y)) != square.convert("RGB").getpixel((x, y))
    ]
    assert diff, "the two kinds of point look the same"
    cx = sum(x for x, _ in diff) / len(diff)
    cy = sum(y for _, y in diff) / len(diff)
    centre_ring = ring.convert("RGB").getpixel((round(cx), round(cy)))
    centre_square = square.convert("RGB").getpixel((round(cx), round(cy)))
    assert sum(centre_ring) > 600 and sum(centre_square) < 300


def test_a_chart_needs_points() -> None:
    with pytest.raises(ValueError):
        render_rating_png([], title="", axis="", legend=("a", "b"))
