"""The analysis chart (render/_chart.py): chances per seat as lines, legible at 500 px."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import render_chance_png, seat_color
from render._chart import CHART_WIDTH, SMALL_TEXT_AT_500

NAMES = ["Åsa", "Björn", "Zoë", "Øystein", "Ülkü"]


def _series(seats: int, turns: int) -> list[list[float]]:
    """Chances that sum to 1 every turn: seat 0 rises, the others share the rest."""
    out = [[0.0] * turns for _ in range(seats)]
    for t in range(turns):
        lead = 1 / seats + (1 - 1 / seats) * t / (turns - 1)
        out[0][t] = lead
        for s in range(1, seats):
            out[s][t] = (1 - lead) / (seats - 1)
    return out


def _pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _count(img: Image.Image, color: tuple[int, int, int], box=None) -> int:
    region = img.crop(box) if box else img
    data = region.tobytes()
    want = bytes(color)
    return sum(1 for i in range(0, len(data), 3) if data[i : i + 3] == want)


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_every_seat_has_its_colour_in_the_plot_and_its_symbol_in_the_legend(seats):
    """Each seat's colour is drawn along its line and in the legend (below the plot), at the
    default size and at 500 px, where the smallest text is at least 12 px."""
    assert SMALL_TEXT_AT_500 >= 12
    for width in (CHART_WIDTH, 500):
        img = _pixels(render_chance_png(_series(seats, 60), NAMES[:seats], width=width))
        assert img.size == (width, round(width * 0.6))
        legend = (0, round(img.height * 0.8), img.width, img.height)
        for seat in range(seats):
            assert _count(img, seat_color(seat)) > 20 * width / 500, seat
            assert _count(img, seat_color(seat), legend) > 8, seat


def test_the_leader_line_climbs_from_left_to_right():
    """The rising seat's colour sits low on the left and high on the right of the plot."""
    img = _pixels(render_chance_png(_series(2, 80), NAMES[:2], width=500))
    color = seat_color(0)
    w, h = img.size
    left = [y for y in range(h) for x in range(30, 80) if img.getpixel((x, y)) == color]
    right = [y for y in range(h) for x in range(w - 60, w - 20) if img.getpixel((x, y)) == color]
    assert left and right
    assert min(right) < min(left) - h * 0.2  # higher on the right (y grows downwards)


def test_turning_points_are_numbered_and_bad_series_refused():
    """Marks add drawing (numbered discs, dashed lines); series of different lengths, no seats
    or an empty series raise ValueError."""
    plain = render_chance_png(_series(3, 40), NAMES[:3])
    marked = render_chance_png(_series(3, 40), NAMES[:3], marks=[10, 11, 30], rollouts=64)
    assert plain != marked
    ink = (28, 28, 30)
    assert _count(_pixels(marked), ink) > _count(_pixels(plain), ink)
    for bad in ([], [[0.5, 0.5], [0.5]], [[], []]):
        with pytest.raises(ValueError):
            render_chance_png(bad, NAMES[:2])


def test_the_chart_speaks_the_table_language():
    """Every word drawn comes from the catalogs: German title, axis and percentages; the names
    with their final chance in the legend."""
    from render import recorded_text

    with recorded_text() as drawn:
        render_chance_png(_series(2, 30), NAMES[:2], lang="de", rollouts=32)
    assert "Gewinnchance nach jedem Zug" in drawn and "Zug" in drawn
    assert "50 %" in drawn and "Åsa 100 %" in drawn and "Björn 0 %" in drawn
    assert "32 durchgespielte Spiele je Zug" in drawn


def _disc_runs(img: Image.Image, k: float) -> list[tuple[int, int]]:
    """The column runs of the turning-point discs: dark ink in the discs' upper halves, above
    the plot (whose lines' symbols reach a little above it at 100 %)."""
    from render._chart import DISC_RADIUS

    ink = (28, 28, 30)
    cy = round(54 * k) - 14 * k
    rows = range(round(cy - DISC_RADIUS * k) + 1, round(cy) + 1)
    dark = [any(img.getpixel((x, y)) == ink for y in rows) for x in range(img.width)]
    runs, start = [], None
    for x, d in enumerate([*dark, False]):
        if d and start is None:
            start = x
        elif not d and start is not None:
            runs.append((start, x - 1))
            start = None
    return runs


@pytest.mark.parametrize("width", [500, CHART_WIDTH])
@pytest.mark.parametrize("marks", [[37, 38, 39], [0, 1, 2], [39, 20, 38, 39]])
def test_every_turning_point_disc_is_whole_inside_the_image(width, marks):
    """Turning points at the very end (or start) of a game: every numbered disc is drawn whole,
    apart from the others and off the image's sides (the third one used to be cut off)."""
    from render._chart import DISC_RADIUS

    k = width / 500
    img = _pixels(render_chance_png(_series(3, 40), NAMES[:3], marks=marks, width=width))
    runs = _disc_runs(img, k)
    assert len(runs) == len(marks), runs
    for a, b in runs:
        assert 0 < a and b < img.width - 1, runs
        assert b - a + 1 >= 1.8 * DISC_RADIUS * k, runs  # a whole disc, not a sliver


def test_discs_stay_at_their_marks_when_there_is_room():
    """A lone disc sits over its turn; crowded ones keep their order and the gap."""
    from render._chart import disc_positions

    assert disc_positions([100.0, 300.0], 10, 490, 20) == [100.0, 300.0]
    assert disc_positions([480.0, 485.0, 490.0], 10, 480, 20) == [440.0, 460.0, 480.0]
    assert disc_positions([50.0, 50.0], 10, 490, 20) == [50.0, 70.0]
    assert disc_positions([], 10, 490, 20) == []


def test_each_seat_carries_a_light_band_of_its_colour():
    """The bands (the analysis' 95% range): the plot's paper above and below a flat line at
    50% is tinted toward that seat's colour inside its band and left as paper without one;
    the lines keep their colours and symbols, and bands of another shape are refused."""
    turns = 40
    flat = [[0.5] * turns, [0.5] * turns]
    bands = [[0.15] * turns, [0.0] * turns]  # seat 0 uncertain, seat 1 exact
    width = 500
    plain = _pixels(render_chance_png(flat, NAMES[:2], width=width))
    banded = _pixels(render_chance_png(flat, NAMES[:2], bands=bands, width=width))
    # a column in the middle of the plot; 60% and 40% lie inside seat 0's band, off the grid
    x = width // 2 + 3
    paper, color = (250, 248, 242), seat_color(0)

    def near(a, b) -> float:
        return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5

    tinted = [
        y
        for y in range(banded.height)
        if near(plain.getpixel((x, y)), paper) < 6  # paper without the band
        and near(banded.getpixel((x, y)), color) < near(paper, color) - 40  # toward the seat
        and near(banded.getpixel((x, y)), paper) < near(banded.getpixel((x, y)), color)  # light
    ]
    assert len(tinted) > 20, tinted
    assert max(tinted) - min(tinted) < banded.height * 0.5  # a band around the line, not all
    assert _count(banded, seat_color(1)) > 20 and _count(banded, color) > 20
    with pytest.raises(ValueError):
        render_chance_png(flat, NAMES[:2], bands=[[0.1] * turns])
