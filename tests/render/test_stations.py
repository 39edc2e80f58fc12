"""Europe's train stations on the board: a house on the station's city in the owner's colour,
with the owner's symbol inside (read on the board area without names, ``map_image``)."""

from __future__ import annotations

from PIL import Image

from engine import ClassicRules, PublicView, public_view
from engine.testing import build_state
from maps import load_ruleset
from render import Layout, load_layout
from render import _theme as th
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


# ---------------------------------------------------------------- every image of the board
#: Seat 0 borrows Frankfurt - Paris (seat 1's) through its Frankfurt station for Paris - Wien;
#: seat 1's Madrid station uses no route.
OWNED = {
    0: ["frankfurt__munchen__1", "munchen__wien__1"],
    1: ["berlin__frankfurt__1", "frankfurt__paris__1"],
}
STATIONS = {"frankfurt": 0, "madrid": 1}


def _finished() -> tuple[ClassicRules, Layout, PublicView]:
    """Europe's rules, layout and a finished public view with the two stations above."""
    import dataclasses

    from engine.scoring import final_scores

    rules = load_ruleset("europe")
    layout = load_layout("europe")
    state = build_state(
        rules, seats=2, owned=OWNED, tickets={0: ["paris__wien"]}, stations=STATIONS
    )
    view = dataclasses.replace(
        public_view(rules, state), result=final_scores(rules, state), phase="finished"
    )
    return rules, layout, view


def _house_at(img: Image.Image, at: tuple[float, float], seat: int, size: float) -> bool:
    """The house's walls either side of the symbol carry the seat's colour at ``at`` (image px)."""
    x, y = at
    return all(
        _near(img.getpixel((round(x + dx * size), round(y + 4 * size))), th.seat_color(seat))
        for dx in (-7, 7)
    )


def test_the_final_image_shows_each_station_and_the_route_it_used() -> None:
    """final.png: the houses on the board (drawn again over the longest path's gold frame) and,
    under the seat's tickets, one line per station: the route it used and the tickets it
    completed, or that it used none."""
    from render import final_image, recorded_text

    _, layout, view = _finished()
    with recorded_text() as drawn:
        img = final_image(layout, view, ["Ann", "Ben"])
    for city, seat in STATIONS.items():
        assert _house_at(img, layout.cities[city], seat, 1.0), city
    assert "Train station Frankfurt: Frankfurt - Paris for Paris – Wien" in drawn
    assert "Train station Madrid: no route used" in drawn
    assert (
        "unbuilt train stations" in drawn
    )  # the breakdown column of unbuilt stations has its name
    with recorded_text() as drawn:
        final_image(layout, view, ["Ann", "Ben"], lang="de")
    assert "Bahnhof Frankfurt: Frankfurt - Paris für Paris – Wien" in drawn


def test_the_phone_board_draws_stations_at_its_own_scale() -> None:
    """On the 500 px board the house is redrawn at 14 px (the full board's would shrink to a blot)."""
    from render import phone_image
    from render._zoom import PHONE_STATION, PHONE_WIDTH

    _, layout, view = _finished()
    img = phone_image(layout, view, ["Ann", "Ben"])
    k = PHONE_WIDTH / layout.size[0]
    for city, seat in STATIONS.items():
        x, y = layout.cities[city]
        assert _house_at(img, (x * k, y * k), seat, PHONE_STATION), city
    x, y = layout.cities["paris"]
    assert not _house_at(img, (x * k, y * k), 0, PHONE_STATION)


def test_the_zoom_shows_stations() -> None:
    """The zoomed crop (enlarged) keeps the house at the city in the owner's colour."""
    from render import zoom_box, zoom_image

    _, layout, view = _finished()
    img = zoom_image(layout, view, ["Ann", "Ben"], cities=["frankfurt", "paris"])
    x0, y0, x1, y1 = zoom_box(layout, ["frankfurt", "paris"])
    f = img.width / (x1 - x0)
    top = img.height - round((y1 - y0) * f)  # the legend above the crop
    x, y = layout.cities["frankfurt"]
    assert _house_at(img, ((x - x0) * f, top + (y - y0) * f), 0, f)


def test_the_recap_builds_stations_in_their_turn() -> None:
    """A turn that only built a station gets its frame; from then on the house stands at its city
    in the owner's colour (over routes claimed later into that city)."""
    from render._recap import RECAP_WIDTH, STATION_SIZE, recap_frames

    _, layout, _ = _finished()
    turns: list[dict[str, int]] = [{}, {"frankfurt__paris__1": 1}, {}, {"berlin__frankfurt__1": 1}]
    stations: list[dict[str, int]] = [{}, {}, {"frankfurt": 0}]
    frames = recap_frames(layout, turns, ["Ann", "Ben"], stations=stations)
    assert len(frames) == 4  # the empty board and turns 1, 2 (the station) and 3
    k = RECAP_WIDTH / layout.size[0]
    x, y = layout.cities["frankfurt"]
    at = (x * k, y * k)
    assert not _house_at(frames[1], at, 0, STATION_SIZE)
    assert _house_at(frames[2], at, 0, STATION_SIZE)
    assert _house_at(frames[3], at, 0, STATION_SIZE)
    assert len(recap_frames(layout, turns, ["Ann", "Ben"])) == 3  # without stations: claims only


def test_stations_by_turn_reads_the_public_turn_log() -> None:
    """What the bot hands the recap: city -> seat per turn number, from StationBuilt events."""
    from bot.host.services import TurnRecord, stations_by_turn
    from engine import Cards
    from engine.events import StationBuilt

    records = [
        TurnRecord(0, None, ()),
        TurnRecord(2, 1, (StationBuilt(1, "madrid", Cards({"red": 1}), 2),)),
    ]
    assert stations_by_turn(records) == [{}, {}, {"madrid": 1}]


def test_the_hand_map_shows_the_readers_own_stations_only() -> None:
    """The hand image's small map is drawn from the reader's network: its stations, not others'."""
    from engine import player_view
    from render._hand import _network_image

    rules = load_ruleset("europe")
    layout = load_layout("europe")
    state = build_state(rules, seats=2, stations=STATIONS)
    img = _network_image(layout, player_view(rules, state, 0), [], False)
    assert _house_at(img, layout.cities["frankfurt"], 0, 1.0)
    assert not _house_at(img, layout.cities["madrid"], 1, 1.0)
