"""The live board page in a real browser (Chromium through Playwright), against the real
``web`` app over a game service on SQLite (``live_server.py``), games played through the
service: it draws every route and city of each map at desktop and phone size where the PNG
draws them, zooms with two fingers, tells a tapped route's facts, follows live moves (and
ignores old ones), replays the game with its final scoring, shows a hand only to its owner,
and runs under the contract's CSP without a console error (checked after every test by the
``open_board`` fixture). What a page must show is read from the server's own answers."""

from __future__ import annotations

import time
from typing import Any

import pytest

import maps
from render._layout import load_layout
from web.headers import CSP

from .live_server import FIRST_USER

MAPS = ("usa", "europe", "germany", "nordic", "paris", "amsterdam")

ROUTES_JS = """() => [...document.querySelectorAll('g.layer-routes g.route')].map(g => ({
  id: g.dataset.route,
  cars: [...g.querySelectorAll('polygon.car')].map(p => p.getAttribute('points')),
}))"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("map_id", MAPS)
def test_every_route_and_city_is_drawn_where_the_png_draws_it(live, open_board, map_id, phone):
    rules = maps.load_ruleset(map_id)
    game = live.new_game(map_id)
    game.play(20)
    board = open_board(game, phone=phone)
    page = board.page
    assert page.locator("g.layer-cities g.city").count() == len(rules.board.cities)
    assert page.locator("g.layer-labels text.label").count() == len(rules.board.cities)
    drawn = {r["id"]: r["cars"] for r in page.evaluate(ROUTES_JS)}
    assert set(drawn) == set(rules.board.routes)
    layout = load_layout(map_id)
    for rid, cars in drawn.items():
        shape = layout.routes[rid]
        assert len(cars) == rules.board.routes[rid].length == len(shape.cars)
        for points, car in zip(cars, shape.cars, strict=True):
            corners = [tuple(float(v) for v in pair.split(",")) for pair in points.split()]
            for (x, y), (px, py) in zip(corners, car.corners, strict=True):
                assert abs(x - px) < 0.02 and abs(y - py) < 0.02, (rid, corners, car.corners)
    # the board fills its area and some names show at the fitted zoom
    assert page.locator("text.label:not(.hidden)").count() > len(rules.board.cities) // 3
    assert page.get_attribute("svg.board title", "id") == "board-title"


def _touch(client: Any, kind: str, points: list[tuple[float, float]]) -> None:
    client.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


def _pinch(page: Any, cx: float, cy: float, start: float, end: float) -> None:
    client = page.context.new_cdp_session(page)
    _touch(client, "touchStart", [(cx - start, cy), (cx + start, cy)])
    steps = 8
    for i in range(1, steps + 1):
        d = start + (end - start) * i / steps
        _touch(client, "touchMove", [(cx - d, cy), (cx + d, cy)])
    client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


FIND_CLAIM_JS = """() => {
  for (const g of document.querySelectorAll('g.claim')) {
    const cars = g.querySelectorAll('polygon.claim-car');
    const r = cars[Math.floor(cars.length / 2)].getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const owner = hit && hit.closest('[data-route]');
    if (owner && owner.dataset.route === g.dataset.route) return {id: g.dataset.route, x, y};
  }
  return null;
}"""


def test_pinch_zoom_then_tap_tells_a_routes_length_colour_and_owner(live, open_board):
    game = live.new_game("usa")
    game.play(60)
    board = open_board(game, phone=True)
    page = board.page
    box = page.locator("svg.board").bounding_box()
    assert float(page.get_attribute("svg.board", "data-zoom")) == pytest.approx(1.0)
    _pinch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 30, 110)
    zoom = float(page.get_attribute("svg.board", "data-zoom"))
    assert zoom > 2.0
    # names keep their screen size: the font shrinks in board units as the zoom grows
    size = float(page.get_attribute("text.label:not(.hidden)", "font-size"))
    k = float(page.evaluate("() => window.ttrBoard.view.k"))
    assert size * k == pytest.approx(13, rel=0.01)
    target = page.evaluate(FIND_CLAIM_JS)
    assert target is not None, "no claimed route is visible after the zoom"
    page.touchscreen.tap(target["x"], target["y"])
    card = page.locator(".info-card")
    card.wait_for(state="visible")
    payload = game.get("map")
    route = next(r for r in payload["routes"] if r["id"] == target["id"])
    state = game.get("state")
    owner = next(c["seat"] for c in state["claims"] if c["route"] == target["id"])
    assert card.locator(".info-length").inner_text() == f"Length: {route['length']}"
    assert payload["colours"][route["colour"]]["name"] in card.locator(".info-colour").inner_text()
    assert state["seats"][owner]["name"] in card.locator(".info-owner").inner_text()
    # zoom stays within its limits
    for _ in range(6):
        _pinch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 20, 150)
    assert float(page.get_attribute("svg.board", "data-zoom")) <= 8.0


def test_wheel_and_buttons_zoom_within_limits(live, open_board):
    board = open_board(live.new_game("europe"))
    page = board.page
    page.mouse.move(500, 400)
    page.mouse.wheel(0, -400)
    assert float(page.get_attribute("svg.board", "data-zoom")) > 1.5
    page.get_by_role("button", name="Show the whole board").click()
    assert float(page.get_attribute("svg.board", "data-zoom")) == pytest.approx(1.0)
    page.get_by_role("button", name="Zoom out").click()
    assert float(page.get_attribute("svg.board", "data-zoom")) == pytest.approx(1.0)
    hidden_fitted = page.locator("text.label.hidden").count()
    for _ in range(5):
        page.get_by_role("button", name="Zoom in").click()
    assert page.locator("text.label.hidden").count() <= hidden_fitted


VERSIONS_JS = """() => { window.versions = [];
  new MutationObserver(() => window.versions.push(Number(document.getElementById('app').dataset.version)))
    .observe(document.getElementById('app'), {attributes: true, attributeFilter: ['data-version']}); }"""

#: A ``move`` event as the stream would carry it, dispatched on the page's open EventSource: the
#: real server never sends a version twice or an older one, so only the page can be given one.
STALE_MOVE_JS = """(data) => window.ttrBoard.live.source.dispatchEvent(
  new MessageEvent('move', {data: JSON.stringify(data)}))"""


def test_a_pushed_move_draws_the_claim_and_an_older_one_is_ignored(live, open_board):
    game = live.new_game("usa")
    game.play(30)
    v = game.play_until_claim()
    board = open_board(game)  # waits until the event stream is open: no move is missed
    page = board.page
    before = game.get("state")
    assert before["version"] == v - 1
    page.evaluate(VERSIONS_JS)
    assert game.play() == v
    page.wait_for_selector(f"#app[data-version='{v}']")
    move = game.get("state")["last_move"]
    assert move["kind"] == "claim" and move["version"] == v
    route = move["routes"][0]
    claim = page.locator(f"g.claim[data-route='{route}']")
    assert claim.count() == 1
    hex_ = game.get("map")["seat_colours"][move["seat"]]["hex"]
    assert claim.locator("polygon.claim-car").first.get_attribute("fill") == hex_
    assert "last" in (claim.get_attribute("class") or "")
    assert page.locator(".last-move-text").inner_text() == move["text"]
    # an older version and the same one again: ignored
    for old in (before, game.get("state")):
        page.evaluate(STALE_MOVE_JS, {"version": old["version"], "move": None, "state": old})
    assert game.play() == v + 1
    page.wait_for_selector(f"#app[data-version='{v + 1}']")
    assert page.evaluate("() => window.versions") == [v, v + 1]
    assert claim.count() == 1


def test_the_reconnecting_badge_shows_while_the_stream_is_down(live, open_board):
    game = live.new_game("paris")
    game.play(10)
    board = open_board(game)
    page = board.page
    assert page.locator(".badge.reconnecting").is_hidden()
    page.context.set_offline(True)
    page.evaluate("() => window.ttrBoard.live.source.dispatchEvent(new Event('error'))")
    assert page.locator(".badge.reconnecting").is_visible()
    page.context.set_offline(False)
    page.evaluate("() => window.ttrBoard.live.source.dispatchEvent(new Event('open'))")
    assert page.locator(".badge.reconnecting").is_hidden()
    # after a long outage the page fetches the state again instead of trusting the stream
    # (closed here, so the moves stored meanwhile can only come from the fetched state)
    page.evaluate("() => window.ttrBoard.live.source.close()")
    version = game.play(5)
    page.evaluate(
        """() => { const live = window.ttrBoard.live;
        live.source.dispatchEvent(new Event('error'));
        live.downSince = Date.now() - 120000;
        live.source.dispatchEvent(new Event('open')); }"""
    )
    page.wait_for_selector(f"#app[data-version='{version}']")


def test_the_replay_walks_every_turn_and_scores_step_by_step(live, open_board):
    game = live.new_game("paris")
    game.play_to_end()
    replay = game.get("replay")
    assert replay["analysis"]["chances"][0] is None  # the ticket choice at the start
    board = open_board(game)
    page = board.page
    page.get_by_role("button", name="Replay").click()
    slider = page.get_by_label("Turn")
    slider.wait_for()
    assert slider.get_attribute("type") == "range"
    assert page.locator(".replay-text").inner_text() == replay["turns"][0]["text"]
    assert page.locator("g.claim").count() == len(replay["turns"][0]["state"]["claims"])
    slider.focus()
    for turn in replay["turns"][1:]:
        page.keyboard.press("ArrowRight")
        assert page.locator(".replay-text").inner_text() == turn["text"]
    last = replay["turns"][-1]["state"]
    assert page.locator("g.claim").count() == len(last["claims"])
    steps = replay["final"]["steps"]
    final = page.locator(".final")
    assert final.is_visible()
    page.get_by_role("button", name="Next step").click()
    assert final.locator("li.final-step").count() == 1
    assert page.locator(".highlight-final").count() == len(steps[0]["routes"])
    longest = next((i for i, s in enumerate(steps) if s["kind"] == "longest"), None)
    for _ in range(1, (longest or 0) + 1):
        page.get_by_role("button", name="Next step").click()
    if longest is not None:
        assert page.locator("polyline.trace").count() == len(steps[longest]["path"]) > 0
    page.get_by_role("button", name="Show all steps").click()
    assert final.locator("li.final-step").count() == len(steps)
    assert [t.strip() for t in final.locator("li.final-step").all_inner_texts()] == [
        s["text"] for s in steps
    ]
    # a point of the chance chart jumps the slider to its turn
    page.locator(".chart-point[data-turn='10'][data-seat='1']").click()
    assert slider.input_value() == "10"
    assert page.locator(".replay-text").inner_text() == replay["turns"][9]["text"]
    page.get_by_role("button", name="Back to the live game").click()
    assert page.locator(".replay").count() == 0
    assert page.locator("g.claim").count() == len(last["claims"])


def test_a_private_link_shows_the_hand_and_tickets_a_public_one_neither(live, open_board):
    game = live.new_game("usa", seats=3)
    game.play(50)
    me = game.get("state", game.token(FIRST_USER))["me"]
    assert me["seat"] == 0
    private = open_board(game, user=FIRST_USER).page
    cards = private.locator(".hand-cards .card")
    assert cards.count() == len(me["hand"])
    for colour, count in me["hand"].items():
        chip = private.locator(f".hand-cards .card[data-colour='{colour}']")
        assert chip.locator(".card-count").inner_text() == str(count)
        assert chip.locator(".card-symbol").inner_text() != ""
    tickets = private.locator(".ticket-list .ticket")
    assert tickets.count() == len(me["tickets"])
    assert private.locator(".ticket.done").count() == sum(t["done"] for t in me["tickets"])
    open_tickets = {t["id"] for t in me["tickets"] if not t["done"]}
    plan = next(p for p in me["planner"] if p["routes"] and p["ticket"] in open_tickets)
    ticket = private.locator(f".ticket[data-ticket='{plan['ticket']}']")
    ticket.get_by_role("button").click()
    assert private.locator(".highlight-plan").count() == len(plan["routes"])
    ticket.get_by_role("button").click()
    assert private.locator(".highlight-plan").count() == 0
    public = open_board(game).page
    assert public.locator(".hand, .my-tickets, .hand-cards, .ticket").count() == 0
    assert public.locator(".seat").count() == 3


def test_the_csp_header_is_the_contracts(live, open_board):
    game = live.new_game("amsterdam")
    board = open_board(game)
    response = board.page.goto(f"{board.base}/b/{game.token()}")
    assert response.headers["content-security-policy"] == CSP
    board.page.wait_for_selector("#app[data-ready='true']")
    html = response.text()
    assert "<script>" not in html and "style=" not in html


def test_a_clock_counts_down_and_motion_can_be_reduced(live, open_board):
    game = live.new_game("usa", turn_seconds=3725)
    game.play(40)
    v = game.play_until_claim()
    state = game.get("state")
    deadline = state["seats"][state["turn"]["seat"]]["clock"]["deadline"]
    assert deadline is not None and deadline > time.time() + 3600
    board = open_board(game, reduced_motion=True)
    page = board.page
    text = page.locator(".seat.active .clock").inner_text()
    assert text.startswith("Time left: 1:02:") or text.startswith("Time left: 1:01:")
    assert game.play() == v
    page.wait_for_selector("g.claim.last")
    name = page.evaluate(
        "() => getComputedStyle(document.querySelector('g.claim.last')).animationName"
    )
    assert name == "none"


def test_a_german_grant_reads_german(live, open_board):
    game = live.new_game("germany", lang="de")
    game.play(30)
    page = open_board(game).page
    assert page.get_attribute("html", "lang") == "de"
    state = game.get("state")
    name = state["seats"][state["turn"]["seat"]]["name"]
    assert f"{name} ist am Zug" in page.locator(".turn").inner_text()
    assert page.get_by_role("button", name="Wiederholung").is_visible()
    assert page.locator("svg.board title").text_content() == "Spielplan Deutschland"


def test_a_double_tap_zooms_in_and_the_sheet_folds_away(live, open_board):
    board = open_board(live.new_game("nordic"), phone=True)
    page = board.page
    box = page.locator("svg.board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + 40
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    assert float(page.get_attribute("svg.board", "data-zoom")) == pytest.approx(2.0)
    sheet = page.locator("aside.sheet")
    before = sheet.bounding_box()["height"]
    handle = page.get_by_role("button", name="Show or hide the details")
    assert handle.get_attribute("aria-expanded") == "true"
    handle.click()
    assert handle.get_attribute("aria-expanded") == "false"
    assert sheet.bounding_box()["height"] < before


def test_stations_stand_in_their_owners_colour(live, open_board):
    game = live.new_game("europe", seats=4)
    game.play_to_end(analysed=False, stations=3)  # the first three chances to build one
    state = game.get("state")
    assert state["stations"], "the game built no station"
    page = open_board(game).page
    seat_colours = game.get("map")["seat_colours"]
    for station in state["stations"]:
        house = page.locator(f"g.station[data-city='{station['city']}']")
        assert house.get_attribute("data-seat") == str(station["seat"])
        assert (
            house.locator("polygon").first.get_attribute("fill")
            == (seat_colours[station["seat"]]["hex"])
        )
    europe = page.locator(".seat .stations .stat-value").all_inner_texts()
    assert europe == [str(s["stations"]) for s in state["seats"]]


def test_a_lobby_page_follows_the_seats_and_the_start_as_resets(live, open_board):
    game = live.new_game("usa", seats=3, started=False)
    board = open_board(game)
    page = board.page
    state = game.get("state")
    assert state["turn"]["phase"] == "lobby" and state["game"]["status"] == "lobby"
    assert page.locator(".turn").inner_text() == state["strings"]["lobby"]
    assert page.locator(".seat").count() == 1
    for user in game.users[1:]:  # a seat taken stores no action: the page gets a reset
        game.join(user)
    page.wait_for_function("() => document.querySelectorAll('.seat').length === 3")
    assert [s.strip() for s in page.locator(".seat .seat-name").all_inner_texts()] == [
        "Anna",
        "Ben",
        "Chiara",
    ]
    game.start()
    page.wait_for_function(
        "(text) => document.querySelector('.turn').innerText !== text",
        arg=state["strings"]["lobby"],
    )
    assert game.get("state")["game"]["status"] == "running"
    version = game.play(3)  # the ticket choices: moves on the stream opened in the lobby
    page.wait_for_selector(f"#app[data-version='{version}']")
