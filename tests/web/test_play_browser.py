"""Playing on the live board in headless Chromium: two players play a whole USA game from their
pages alone (the ticket choice, cards from the deck and face up, claims by tapping a route and
choosing a payment, a ticket draw), every turn is posted in the Discord channel, and the stored
game verifies; a refusal shows the sentence Discord shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.host.services import GameService
from bot.host.services.ops import verify_storage

from ._live_game import LiveTable

#: Finds a screen point on a claimable route that a tap there really hits (labels and cities
#: may cover parts of it): [x, y] or null.
ROUTE_POINT = """() => {
  for (const car of document.querySelectorAll('.route.claimable .car')) {
    const r = car.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const group = car.closest('[data-route]');
    if (hit && hit.closest('[data-route]') === group) return [x, y];
  }
  return null;
}"""


class Seat:
    """One player's page."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.name = name
        self.errors: list[str] = []
        self.drew_tickets = False
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", self._console)

    def _console(self, msg: Any) -> None:
        url = str((msg.location or {}).get("url", ""))
        if url.endswith("/favicon.ico") or (url.endswith("/act") and "status of 409" in msg.text):
            return  # the browser asks for the icon itself; a refused move's answer is expected
        if msg.type in ("error", "warning"):
            self.errors.append(f"{msg.text} ({url})")

    def js(self, script: str) -> Any:
        return self.page.evaluate(script)

    @property
    def version(self) -> int:
        return int(self.js("() => window.ttrBoard.state.version"))

    def buttons(self) -> list[str]:
        return list(
            self.js(
                "() => [...document.querySelectorAll('.moves button[data-move]')].map(b => b.dataset.move)"
            )
        )

    def click(self, move: str) -> None:
        self.page.click(f".moves button[data-move='{move}']")

    def move(self) -> str:
        """Make the first legal move of a kind with the fewest clicks the page allows; the kind."""
        before = self.version
        buttons = self.buttons()
        step = self.js("() => window.ttrBoard.state.me.moves.step")
        round_ = self.js("() => window.ttrBoard.state.turn.round")
        if "keep" in buttons:
            kind = "keep"
            self.click("keep")
        elif step == "tunnel":
            kind = "tunnel"
            self.click("tunnel-0" if "tunnel-0" in buttons else "give-up")
        elif step == "turn" and not self.drew_tickets and round_ > 2 and "tickets-0" in buttons:
            kind, self.drew_tickets = "tickets", True
            self.click("tickets-0")
        elif step == "turn" and (point := self.js(ROUTE_POINT)) is not None:
            kind = "claim"
            self.page.mouse.click(point[0], point[1])
            self.page.wait_for_selector(".moves button[data-move='pay-0']")
            if "pay-1" in self.buttons():  # a choice of payments: take the second way
                kind = "claim_choice"
                self.click("pay-1")
            else:
                self.click("pay-0")
        else:
            slots = [b for b in buttons if b.startswith("slot-")]
            # the first card from the deck, the second face up (when there is a deck at all)
            kind = (
                "face_up" if slots and (step == "second_card" or "deck" not in buttons) else "deck"
            )
            self.click(slots[0] if kind == "face_up" else "deck")
        self.page.wait_for_function(
            f"() => window.ttrBoard.state.version > {before}", timeout=15000
        )
        return kind

    def my_turn(self) -> bool:
        return bool(self.js("() => !!(window.ttrBoard.state.me && window.ttrBoard.state.me.moves)"))


def open_seat(browser: Any, base: str, token: str, name: str) -> Seat:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    seat = Seat(context.new_page(), name)
    seat.page.goto(f"{base}/b/{token}")
    seat.page.wait_for_selector("#app[data-ready='true']", timeout=15000)
    return seat


def wait_for_turn(seats: list[Seat]) -> Seat | None:
    """The seat whose page offers moves (waits for the live update), None when the game is over."""
    for _ in range(200):
        for seat in seats:
            if seat.js("() => window.ttrBoard.state.game.status") == "finished":
                return None
            if seat.my_turn():
                return seat
        seats[0].page.wait_for_timeout(50)
    raise AssertionError("no page offered a move")


def test_two_players_play_a_whole_usa_game_from_their_pages(browser: Any, tmp_path: Path) -> None:
    with LiveTable(tmp_path) as live:
        game, tokens = live.run(live.open_game("usa"))
        seats = [open_seat(browser, live.base, t, f"seat {i}") for i, t in enumerate(tokens)]
        made: dict[str, int] = {}
        for _ in range(400):
            seat = wait_for_turn(seats)
            if seat is None:
                break
            kind = seat.move()
            made[kind] = made.get(kind, 0) + 1
        else:
            raise AssertionError(f"the game did not end: {made}")
        assert {"keep", "deck", "face_up", "claim", "claim_choice", "tickets"} <= set(made), made
        assert live.table is not None
        service = live.table.service
        stored = live.run(service.storage.games.get_game(game))
        assert stored is not None and stored.status == "finished"
        checked, problems = live.run(verify_storage(service.storage))
        assert checked == 1 and problems == []
        records = live.run(service.queries.turn_log(game))
        fake = live.table.fake
        final = live.run(
            fake.wait_for_message(lambda m: f"ttr:{game}:rematch" in m.custom_ids, timeout=30)
        )
        assert final.kind == "channel" and "Game over" in final.content, final.summary()
        turns = live.table.turn_messages(game)
        assert len(turns) >= len({r.number for r in records}) - 1, (len(turns), len(records))
        for seat in seats:
            assert seat.errors == [], seat.errors
            seat.page.context.close()


#: A screen point on route ``id`` (any of its spaces) that a tap there hits, or null.
ONE_ROUTE_POINT = """(id) => {
  for (const car of document.querySelectorAll(`.route[data-route="${id}"] .car`)) {
    const r = car.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('[data-route]') === car.closest('[data-route]')) return [x, y];
  }
  return null;
}"""


async def keep_all(service: GameService, game: int) -> None:
    """Every seat keeps its whole offered deal (through the service, as a Discord click)."""
    for seat in await service.storage.seats.seats(game):
        table = await service.queries.table(game, seat.user_id or 0)
        assert table.menu is not None and table.menu.keep is not None
        keep = table.menu.keep_tickets(range(len(table.menu.keep.offer)))
        await service.play.act(game, seat.user_id or 0, keep, expected_version=table.version)


async def to_act(service: GameService, game: int) -> tuple[int, Any]:
    """The user who must act and their table."""
    for seat in await service.storage.seats.seats(game):
        table = await service.queries.table(game, seat.user_id or 0)
        if table.menu is not None:
            return seat.user_id or 0, table
    raise AssertionError("nobody must act")


async def draw_one(service: GameService, game: int) -> None:
    """The seat to act takes a card (the deck, else the first face-up one)."""
    user, table = await to_act(service, game)
    menu = table.menu
    action = menu.draw(None if menu.draw_deck else menu.draw_slots[0])
    await service.play.act(game, user, action, expected_version=table.version)


def tunnel_ready(table: Any) -> str | None:
    """A tunnel the seat can claim now (its route id), when it is the turn's first action."""
    menu = table.menu
    if menu is None or menu.step != "turn":
        return None
    return next((c.route for c in menu.claims if table.rules.board.routes[c.route].tunnel), None)


def test_a_tunnel_is_claimed_and_paid_or_given_up_on_the_page(browser: Any, tmp_path: Path) -> None:
    with LiveTable(tmp_path, seed=3) as live:
        game, tokens = live.run(live.open_game("europe"))
        assert live.table is not None
        service = live.table.service
        live.run(keep_all(service, game))
        seats = [open_seat(browser, live.base, t, f"seat {i}") for i, t in enumerate(tokens)]
        users = [s.user_id for s in live.run(service.storage.seats.seats(game))]
        for _ in range(200):  # cards from the deck until a tunnel claim asks for extra cards
            user, table = live.run(to_act(service, game))
            route = tunnel_ready(table)
            if route is None:
                live.run(draw_one(service, game))
                continue
            page = seats[users.index(user)]
            page.page.wait_for_function(f"() => window.ttrBoard.state.version >= {table.version}")
            point = page.js(f"() => ({ONE_ROUTE_POINT})({route!r})")
            if point is None:
                page.page.click(".zoom[aria-label]")  # zoom in: the tunnel's spaces are covered
                point = page.js(f"() => ({ONE_ROUTE_POINT})({route!r})")
            assert point is not None, route
            page.page.mouse.click(point[0], point[1])
            page.page.wait_for_selector(".moves button[data-move='pay-0']")
            page.click("pay-0")
            page.page.wait_for_function(f"() => window.ttrBoard.state.version > {table.version}")
            if page.js("() => window.ttrBoard.state.me.moves?.step") != "tunnel":
                continue  # the revealed cards asked for nothing more: the tunnel is claimed
            buttons = page.buttons()
            assert "give-up" in buttons
            before = page.version
            page.click("tunnel-0" if "tunnel-0" in buttons else "give-up")
            page.page.wait_for_function(f"() => window.ttrBoard.state.version > {before}")
            after = page.js("() => window.ttrBoard.state")
            assert after["last_move"]["kind"] == "tunnel"
            paid = "tunnel-0" in buttons
            assert any(c["route"] == route for c in after["claims"]) == paid
            break
        else:
            raise AssertionError("no tunnel came up")
        for seat in seats:
            assert seat.errors == [], seat.errors
            seat.page.context.close()


def test_a_station_is_built_on_the_page_and_a_stale_move_is_refused(
    browser: Any, tmp_path: Path
) -> None:
    with LiveTable(tmp_path) as live:
        game, tokens = live.run(live.open_game("europe", lang="de"))
        assert live.table is not None
        service = live.table.service
        live.run(keep_all(service, game))
        users = [s.user_id for s in live.run(service.storage.seats.seats(game))]
        pages = {
            u: open_seat(browser, live.base, t, str(u)) for u, t in zip(users, tokens, strict=True)
        }
        user, table = live.run(to_act(service, game))
        page, other = pages[user], next(p for u, p in pages.items() if u != user)
        assert other.page.locator(".moves h2").inner_text() == "Warte, bis du am Zug bist."
        page.page.select_option(".move-station", str(table.menu.stations[0].index))
        label = page.page.locator(".moves button[data-move='station-0']").inner_text()
        assert label.startswith("Baue einen Bahnhof in ")
        # the page hears nothing for a while, and the seat draws a card in Discord meanwhile
        page.js("() => window.ttrBoard.live.source.close()")
        live.run(draw_one(service, game))
        page.click("station-0")
        page.page.wait_for_selector(".move-error")
        assert page.page.locator(".move-error").inner_text() == (
            "Dieser Button ist veraltet; öffne einen neuen."
        )
        assert page.version == table.version + 1  # it shows the current turn now
        live.run(draw_one(service, game))  # the second card: the other seat's turn
        user, table = live.run(to_act(service, game))
        page = pages[user]
        page.page.wait_for_function(f"() => window.ttrBoard.state.version >= {table.version}")
        city = table.menu.stations[0].city
        page.page.select_option(".move-station", str(table.menu.stations[0].index))
        page.click("station-0")
        page.page.wait_for_function(f"() => window.ttrBoard.state.version > {table.version}")
        state = page.js("() => window.ttrBoard.state")
        assert {"city": city, "seat": state["me"]["seat"]} in state["stations"]
        for seat in pages.values():
            assert seat.errors == [], seat.errors
            seat.page.context.close()
