"""The small maps of private images: framed to the player's own network and
plans (not a fixed crop), names placed for the small size and apart, every ticket city inside
the frame of the hand map and of the ticket zoom."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from engine import DrawTickets, apply, player_view
from engine.planner import needed_routes, plan_offer, plan_tickets
from engine.testing import build_state
from maps import available_maps, load_ruleset
from render import _minimap as mm
from render import load_layout, render_hand_png, render_offer_png, zoom_box
from render._hand import MAP_MAX_HEIGHT, MAP_WIDTH, network_places

MAPS = sorted(available_maps())


def _inside(box: tuple[float, float, float, float], x: float, y: float, pad: float) -> bool:
    return box[0] <= x - pad and x + pad <= box[2] and box[1] <= y - pad and y + pad <= box[3]


def _view(map_id: str, owned: list[str], tickets: list[str]):  # type: ignore[no-untyped-def]
    rules = load_ruleset(map_id)
    state = build_state(rules, seats=2, seed=3, owned={0: owned}, tickets={0: tickets})
    return rules, player_view(rules, state, 0)


def test_the_hand_map_frames_the_players_own_network() -> None:
    """A western player and an eastern player get different frames, each holding their routes'
    ends, their planned paths and their ticket cities (with room for the rings)."""
    boxes = []
    for owned, tickets in (
        (["portland__seattle__1", "portland__salt_lake_city__1"], ["portland__phoenix"]),
        (["boston__new_york__1", "new_york__washington__1"], ["new_york__atlanta"]),
    ):
        rules, mine = _view("usa", owned, tickets)
        layout = load_layout("usa")
        plans = plan_tickets(rules, mine)
        places = network_places(layout, mine, plans)
        board = rules.board
        ends = {c for r in owned for c in (board.routes[r].a, board.routes[r].b)}
        planned = {c for r in needed_routes(plans) for c in (board.routes[r].a, board.routes[r].b)}
        ticket = {c for t in tickets for c in (board.tickets[t].a, board.tickets[t].b)}
        assert ends | planned | ticket == set(places) and planned
        assert places[:2] == [board.tickets[tickets[0]].a, board.tickets[tickets[0]].b]
        box = mm.frame(layout, places, MAP_WIDTH / MAP_MAX_HEIGHT)
        for cid in places:
            assert _inside(box, *layout.cities[cid], pad=mm.RING), (cid, box)
        boxes.append(box)
        width, height = layout.size
        assert (box[2] - box[0]) * (box[3] - box[1]) < 0.5 * width * height, "not the whole board"
    west, east = boxes
    assert west[2] < east[0], ("the frames follow the networks", west, east)


def test_a_player_without_routes_or_tickets_sees_the_whole_board() -> None:
    rules, mine = _view("usa", [], [])
    layout = load_layout("usa")
    assert network_places(layout, mine, []) == []
    assert mm.frame(layout, []) == (0, 0, *layout.size)


def test_omaha_and_kansas_city_are_named_apart_at_phone_size() -> None:
    """The full board's labels of Omaha and Kansas City run together when shrunk; on the small
    map each name is placed clear of the other, of every dot and of the edge, at LABEL_PX."""
    layout = load_layout("usa")
    places = ["omaha", "kansas_city", "denver", "chicago", "saint_louis", "duluth"]
    framed = mm.fit(
        Image.new("RGB", layout.size),
        mm.frame(layout, places, MAP_WIDTH / MAP_MAX_HEIGHT),
        MAP_WIDTH,
        MAP_MAX_HEIGHT,
    )
    boxes = mm.place_names(layout, framed, places)
    assert {"omaha", "kansas_city"} <= set(boxes), boxes
    for a, b in itertools.combinations(boxes.values(), 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
    width, height = framed.image.size
    for cid, (x0, y0, x1, y1) in boxes.items():
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, cid
        assert y1 - y0 >= mm.LABEL_PX, "names at the small size, not the board's shrunk ones"
        for other in places:  # never over another place's dot
            if other != cid:
                x, y = framed.at(layout, other)
                assert not (x0 < x < x1 and y0 < y < y1), (cid, other)


@pytest.mark.parametrize("map_id", MAPS)
def test_every_ticket_city_is_inside_the_ticket_zoom_and_the_hand_map(map_id: str) -> None:
    """Tickets from corner to corner: the zoom of the reader's tickets and the hand map keep
    each ticket city, with its ring, inside the frame."""
    rules = load_ruleset(map_id)
    layout = load_layout(map_id)
    tickets = list(rules.board.tickets.values())

    def spread(t):  # type: ignore[no-untyped-def]
        (ax, ay), (bx, by) = layout.cities[t.a], layout.cities[t.b]
        return abs(ax - bx) + abs(ay - by)

    chosen = sorted(tickets, key=spread)[-3:]
    cities = [c for t in chosen for c in (t.a, t.b)]
    box = zoom_box(layout, cities)
    for cid in cities:
        assert _inside(box, *layout.cities[cid], pad=15), (cid, box)
    _, mine = _view(map_id, [], [t.id for t in chosen])
    places = network_places(layout, mine, plan_tickets(rules, mine))
    frame = mm.frame(layout, places, MAP_WIDTH / MAP_MAX_HEIGHT)
    for cid in cities:
        assert _inside(frame, *layout.cities[cid], pad=mm.RING), (cid, frame)


def test_the_hand_and_offer_images_draw() -> None:
    """The hand image with its framed map, and the offer's map within its size."""
    rules = load_ruleset("usa")
    state = build_state(
        rules, seats=2, seed=3, owned={0: ["kansas_city__omaha__1"]}, tickets={0: ["boston__miami"]}
    )
    mine = player_view(rules, state, 0)
    hand = Image.open(io.BytesIO(render_hand_png(mine, ["A", "B"])))
    assert hand.width == 1000
    offered = apply(rules, state, DrawTickets(0)).state
    view = player_view(rules, offered, 0)
    assert len(view.offer) == 3
    png = render_offer_png(view, plan_offer(rules, view), width=640, height=420)
    img = Image.open(io.BytesIO(png))
    assert img.width <= 640 and img.height <= 420
