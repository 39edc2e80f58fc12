"""Seat colours are told apart from each other and from every route colour, for every eye.

Distances are CIEDE2000 (colorspacious) between the sRGB colours as seen with
normal vision and with simulated protanopia, deuteranopia and tritanopia
(Machado et al. 2009 at severity 100). The minima we hold:

- seat vs seat: >= 30 for every vision (a clearly different colour);
- seat vs route colour (and the map's ground, sea and pure black): >= 13.

Colour is never the only cue: the seat symbols are checked below too.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE

from render import CARD_COLORS, SEAT_COLORS, SEAT_SYMBOLS
from render import _theme as th

SEAT_SEAT = 30.0
SEAT_ROUTE = 13.0
VISIONS = {
    "normal": None,
    "protanopia": "protanomaly",
    "deuteranopia": "deuteranomaly",
    "tritanopia": "tritanomaly",
}
#: What a claimed car must not be mistaken for: every route colour, the grounds, black.
ROUTE_LIKE = {
    **{name: rgb for name, rgb in CARD_COLORS.items() if name != "locomotive"},
    "land": th.LAND,
    "sea": th.SEA,
    "city ground": th.CITY_BG,
    "foreign land": th.FOREIGN,
    "pure black": (0, 0, 0),
}


def _seen(rgb: tuple[int, int, int], vision: str | None) -> np.ndarray:
    srgb = np.asarray(rgb, dtype=float) / 255
    if vision is None:
        return srgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(cspace_convert(srgb, cvd, "sRGB1"), 0, 1)


def _distance(a: tuple[int, int, int], b: tuple[int, int, int], vision: str | None) -> float:
    return float(deltaE(_seen(a, vision), _seen(b, vision), input_space="sRGB1"))


@pytest.mark.parametrize("vision", VISIONS)
def test_seats_differ_from_each_other(vision: str) -> None:
    """Every two seat colours are at least SEAT_SEAT apart."""
    worst = min(
        (_distance(a, b, VISIONS[vision]), i, j)
        for (i, a), (j, b) in itertools.combinations(enumerate(SEAT_COLORS), 2)
    )
    assert worst[0] >= SEAT_SEAT, worst


@pytest.mark.parametrize("vision", VISIONS)
def test_seats_differ_from_every_route_colour(vision: str) -> None:
    """Every seat colour is at least SEAT_ROUTE from every route colour and ground."""
    worst = min(
        (_distance(seat, rgb, VISIONS[vision]), i, name)
        for i, seat in enumerate(SEAT_COLORS)
        for name, rgb in ROUTE_LIKE.items()
    )
    assert worst[0] >= SEAT_ROUTE, worst


def test_the_check_would_catch_a_seat_in_a_route_colour() -> None:
    """The distance used above is small for a seat coloured like a route (the test can fail)."""
    assert _distance((214, 40, 40), CARD_COLORS["red"], "deuteranomaly") < 1
    assert _distance((230, 159, 0), CARD_COLORS["orange"], None) < SEAT_ROUTE  # the old seat 1


def test_every_seat_has_its_own_symbol_and_shape() -> None:
    """Five seats, five symbols and five shapes: colour is never the only cue."""
    assert len(SEAT_COLORS) == len(set(SEAT_COLORS)) == 5
    assert len(set(SEAT_SYMBOLS)) == 5
    assert len({th.seat_shape(s) for s in range(5)}) == 5
    assert [th.seat_symbol(s) for s in range(5)] == list("●▲■◆★")
