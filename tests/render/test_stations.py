"""Europe's train stations on the board: a house on the station's city in the owner's colour,
with the owner's symbol inside (read on the board area without names, ``map_image``)."""

from __future__ import annotations

from engine import public_view
from engine.testing import build_state
from maps import load_ruleset
from render import _theme as th
from render import load_layout
from render._board import map_image


def _near(px: tuple[int, ...], color: th.RGB) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(px[:3], color, strict=True))


def test_a_station_is_drawn_at_its_city_in_the_owners_colour_with_its_symbol() -> None:
    rules = load_ruleset("europe")
    layout = load_layout("europe")
    state = build_state(rules, seats=3, stations={"madrid": 1, "wien": 2})
    img = map_image(layout, public_view(rules, state), names=False)
    empty = map_image(layout, public_view(rules, build_state(rules, seats=3)), names=False)
    for city, seat in (("madrid", 1), ("wien", 2)):
        x, y = layout.cities[city]
        # the house's walls left and right of the symbol carry the owner's colour
        for dx in (-7, 7):
            assert _near(img.getpixel((round(x + dx), round(y + 4))), th.seat_color(seat))
        # the symbol in the middle is drawn in the ink that reads on that colour
        assert _near(img.getpixel((round(x), round(y + 2))), th.text_on(th.seat_color(seat)))
        assert not _near(empty.getpixel((round(x + 7), round(y + 4))), th.seat_color(seat))
    # a city without a station keeps its plain dot
    x, y = layout.cities["paris"]
    assert img.getpixel((round(x), round(y))) == empty.getpixel((round(x), round(y)))
