"""On the 500 px phone board a claimed route is told apart from a free route of a near colour.

Shrunk from the full board, a claimed car space blends with its dark border and symbol: the
mint seat next to a green route, the lilac seat next to a pink one and the dark brown seat next
to a black one came out 10.7-12 apart (CIEDE2000, some vision), under the seat-route minimum of
``test_colors.py``. The phone board draws claims again at its own scale, cased in white and in
the seat's pure colour; here the pairs are measured as drawn, for every vision, and the casing
is looked for around claimed car spaces and not around free ones.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image, ImageDraw

from engine import public_view
from engine.testing import build_state
from maps import load_ruleset
from render import _theme as th
from render import load_layout
from render._zoom import PHONE_WIDTH, phone_map

from .test_colors import SEAT_ROUTE, VISIONS, _distance

USA = load_ruleset("usa")
LAYOUT = load_layout("usa")
K = PHONE_WIDTH / LAYOUT.size[0]
#: (seat, the track it claims, the free twin track of the near route colour)
PAIRS = [
    (0, "portland__san_francisco__2", "portland__san_francisco__1"),  # mint next to green
    (1, "kansas_city__saint_louis__1", "kansas_city__saint_louis__2"),  # lilac next to pink
    (2, "denver__kansas_city__2", "denver__kansas_city__1"),  # dark brown next to black
]


@pytest.fixture(scope="module")
def drawn() -> np.ndarray:
    """The phone map (4 seats: both tracks of a double route open), as 0-255 RGB."""
    owned = {seat: [claimed] for seat, claimed, _ in PAIRS}
    state = build_state(USA, seats=4, seed=1, owned=owned, conserve_cards=False)
    return np.asarray(phone_map(LAYOUT, public_view(USA, state)))


def _mask(route_id: str, size: tuple[int, int], along: float, across: float) -> np.ndarray:
    """The pixels of a route's car spaces (but the middle one, which carries the symbol), each
    car space scaled by ``along`` and ``across`` the track around its centre, on the phone map."""
    img = Image.new("L", size, 0)
    draw = ImageDraw.Draw(img)
    cars = LAYOUT.routes[route_id].cars
    for i, c in enumerate(cars):
        if i == len(cars) // 2:
            continue
        (cx, cy), ux, uy = c.centre, math.cos(c.angle), math.sin(c.angle)
        corners = []
        for x, y in c.corners:
            a = ((x - cx) * ux + (y - cy) * uy) * along
            b = ((y - cy) * ux - (x - cx) * uy) * across
            corners.append(((cx + a * ux - b * uy) * K, (cy + a * uy + b * ux) * K))
        draw.polygon(corners, fill=255)
    return np.asarray(img) > 0


def _look(drawn: np.ndarray, route_id: str) -> tuple[int, int, int]:
    """A route's mean colour as drawn inside its car spaces."""
    mask = _mask(route_id, (drawn.shape[1], drawn.shape[0]), 0.7, 0.7)
    r, g, b = drawn[mask].mean(axis=0).round()
    return int(r), int(g), int(b)


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize(("seat", "claimed", "free"), PAIRS)
def test_near_pairs_are_apart_as_drawn(
    drawn: np.ndarray, vision: str, seat: int, claimed: str, free: str
) -> None:
    """A claimed route and its free twin of the near colour differ by the seat-route minimum."""
    distance = _distance(_look(drawn, claimed), _look(drawn, free), VISIONS[vision])
    assert distance >= SEAT_ROUTE, (seat, vision, distance)


#: (seat, a free route of the near colour away from any claim)
LONE = [(0, "denver__helena__1"), (1, "denver__omaha__1"), (2, "duluth__winnipeg__1")]


def _white_beside(drawn: np.ndarray, route_id: str) -> int:
    """The white pixels beside a route's car spaces: along them, out to 2.2 times their width."""
    size = (drawn.shape[1], drawn.shape[0])
    ring = _mask(route_id, size, 0.8, 2.2) & ~_mask(route_id, size, 0.8, 1.05)
    return int((np.abs(drawn[ring].astype(int) - np.asarray(th.PAPER)).max(axis=1) < 8).sum())


@pytest.mark.parametrize(("claim", "lone"), list(zip(PAIRS, LONE, strict=True)))
def test_a_claim_is_cased_in_white_and_a_free_route_is_not(
    drawn: np.ndarray, claim: tuple[int, str, str], lone: tuple[int, str]
) -> None:
    """Beside each claimed car space there are white pixels (the casing, at least 8); beside a
    free route of the near colour next to none (the land is not white; a length badge or a
    name may touch a few)."""
    seat, claimed, _ = claim
    cased = _white_beside(drawn, claimed) / (len(LAYOUT.routes[claimed].cars) - 1)
    bare = _white_beside(drawn, lone[1]) / (len(LAYOUT.routes[lone[1]].cars) - 1)
    assert cased >= 8 and bare < 3, (seat, cased, bare)
