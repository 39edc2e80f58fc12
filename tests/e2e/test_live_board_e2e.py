"""End to end: the live board of a game played through the fake Discord, followed in Chromium.

The real bot process (``python -m bot``, ``TTR_WEB_PORT`` set, so it serves the live board)
runs a 2-player USA game of two humans, Alice and Bob, who play through slash commands and
buttons. Both open their My board link (the link button of their private hand panel) and a
spectator the Live board link of the turn message; the three pages stay open while the
humans play some turns, the bot is killed and started again on the same database and port,
and both players resign so that the computer plays their seats to the end. Checked:

- every stored version reaches every page as a move event, and the page shows the last
  version of each turn (Playwright waits at most :data:`WAIT_MS`; the delay from the stored
  action to the page is measured and printed, the 1 s goal is the benchmark's,
  ``python -m benchmarks web``);
- after the restart the pages reconnect by themselves and carry on;
- on the phone (390 x 844) a pinch zooms to a claimed route and a tap tells its length,
  colour and owner;
- the replay slider walks every turn and ends with the final scoring's steps;
- every payload each page received (state, replay, map and every event, recorded as the
  browser got them) shows nothing private of the other seat on a player's page and nothing
  private at all on the spectator's: no hand, no ticket that is not public, no seed, no
  deck order.
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.host.storage import open_storage
from engine import apply, new_game
from engine.codec import decode_action
from maps.loader import load_ruleset
from web.tokens import derive_secret, verify

from ..cogs._driver import TIMEOUT, Player, _is_final, _keep_offered, _play_turn
from ..cogs.test_board_links import links
from ..web.conftest import CHROMIUM, DESKTOP, LAUNCH_ARGS, PHONE, need_chromium
from ..web.test_board_page import FIND_CLAIM_JS
from ..web.test_hidden_information import compact, leaks, secrets_of
from .fake_discord import BotProcess, FakeDiscord, SentMessage

ROOT = Path(__file__).resolve().parents[2]
#: Turns the humans play through Discord before the computer takes both seats.
HUMAN_TURNS = 6
#: The bot is restarted before this human turn.
RESTART_BEFORE = 4
#: How long a page may take to show a stored version (ms): far above the 1 s goal, so a loaded
#: machine passes; the real delay is printed.
WAIT_MS = 5000
#: The reconnect after a restart: the stream's retry (3 s) plus the bot's start.
RECONNECT_MS = 20000

#: Run in every page before its scripts: note every event frame the stream delivers and, with
#: the browser's clock, every version the page shows.
RECORD_JS = """
window.__frames = [];
window.__versions = [];
const Source = window.EventSource;
window.EventSource = class extends Source {
  constructor(url, options) {
    super(url, options);
    for (const kind of ["move", "reset"]) {
      this.addEventListener(kind, (e) => window.__frames.push([kind, e.data]));
    }
  }
};
document.addEventListener("DOMContentLoaded", () => {
  const app = document.getElementById("app");
  new MutationObserver(() => window.__versions.push([Number(app.dataset.version), Date.now()]))
    .observe(app, {attributes: true, attributeFilter: ["data-version"]});
});
"""


#: Move the replay's slider to every turn as its input event does; each turn's number and text.
WALK_JS = """(n) => {
  const slider = document.getElementById("replay-slider");
  const seen = [];
  for (let i = 1; i <= n; i++) {
    slider.value = String(i);
    slider.dispatchEvent(new Event("input"));
    seen.push([slider.value, document.querySelector(".replay-text").innerText]);
  }
  return seen;
}"""


@dataclass
class Reader:
    """One open page: whose it is (``seat`` None: the spectator) and what it received."""

    name: str
    seat: int | None
    url: str
    page: Any = None
    bodies: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    pending: list[asyncio.Task[None]] = field(default_factory=list)

    async def open(self, browser: Any, options: dict[str, Any]) -> None:
        """Open the page and wait until it drew the board and its stream is open."""
        context = await browser.new_context(**options)
        await context.add_init_script(RECORD_JS)
        self.page = await context.new_page()
        self.page.on("response", self._response)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        await self.page.goto(self.url)
        await self.page.wait_for_selector("#app[data-ready='true']", timeout=RECONNECT_MS)
        await self.connected()

    async def connected(self) -> None:
        """Wait until the page's event stream is open."""
        await self.page.wait_for_function(
            "() => window.ttrBoard.live.source.readyState === EventSource.OPEN",
            timeout=RECONNECT_MS,
        )

    def _response(self, response: Any) -> None:
        if "/api/b/" in response.url and "/events" not in response.url:
            self.pending.append(asyncio.ensure_future(self._keep(response)))

    async def _keep(self, response: Any) -> None:
        self.bodies.append((response.url, await response.text()))

    def _console(self, msg: Any) -> None:
        url = str((msg.location or {}).get("url", ""))
        if url.endswith("/favicon.ico") or "/events" in url:
            return  # the browser's own request, and the stream while the bot is down
        if msg.type in ("error", "warning"):
            self.errors.append(f"{msg.text} ({url})")

    async def reached(self, version: int, timeout: float = WAIT_MS) -> None:
        """Wait until the page shows ``version`` (or a later one)."""
        await self.page.wait_for_function(
            "(v) => Number(document.getElementById('app').dataset.version) >= v",
            arg=version,
            timeout=timeout,
        )

    async def frames(self) -> list[tuple[str, dict[str, Any], str]]:
        """Every event the stream delivered: (kind, data, raw text)."""
        raw = await self.page.evaluate("() => window.__frames")
        return [(kind, json.loads(text), text) for kind, text in raw]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def stored(db: Path, game_id: int) -> tuple[int, str, list[Any]]:
    """The game's version, status and action rows, read from the bot's database."""
    storage = await open_storage(f"sqlite:///{db}")
    try:
        game = await storage.games.get_game(game_id)
        assert game is not None
        return game.version, game.status, await storage.actions.actions(game_id)
    finally:
        await storage.close()


async def secrets_by_version(db: Path, game_id: int) -> list[dict[str, Any]]:
    """What no reader may learn, at every version of the game (seed and action log replayed)."""
    storage = await open_storage(f"sqlite:///{db}")
    try:
        game = await storage.games.get_game(game_id)
        assert game is not None and game.seed is not None
        rows = await storage.actions.actions(game_id)
        seats = len(await storage.seats.seats(game_id))
    finally:
        await storage.close()
    rules = load_ruleset(game.map_id)
    state = new_game(rules, seats=seats, seed=game.seed, options=game.options)
    history = [secrets_of(state)]
    for row in rows:
        state = apply(rules, state, decode_action(row.action)).state
        history.append(secrets_of(state))
    assert state.finished
    return history


def _touch(kind: str, points: list[tuple[float, float]]) -> dict[str, Any]:
    return {
        "type": kind,
        "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
    }


async def pinch(page: Any, cx: float, cy: float, start: float, end: float) -> None:
    """Two fingers moving apart around (cx, cy)."""
    client = await page.context.new_cdp_session(page)
    await client.send(
        "Input.dispatchTouchEvent", _touch("touchStart", [(cx - start, cy), (cx + start, cy)])
    )
    for i in range(1, 9):
        d = start + (end - start) * i / 8
        await client.send(
            "Input.dispatchTouchEvent", _touch("touchMove", [(cx - d, cy), (cx + d, cy)])
        )
    await client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.asyncio
async def test_a_game_through_discord_is_followed_live_in_the_browser(tmp_path: Path) -> None:
    need_chromium("the live board's end-to-end test")
    from playwright.async_api import async_playwright

    started = time.monotonic()
    db = tmp_path / "ttr.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        "TTR_DATABASE_PATH": str(db),
        "TTR_LOG_LEVEL": "INFO",
        "TTR_WEB_PORT": str(port),
        "TTR_WEB_HOST": "127.0.0.1",
        "TTR_WEB_URL": base,
    }
    async with FakeDiscord(member_names=("alice", "bob")) as fake, async_playwright() as pw:
        bot = BotProcess(fake, [sys.executable, "-m", "bot"], env=env, cwd=str(ROOT))
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            await bot.start(timeout=TIMEOUT)
            await fake.wait_for_commands("ttr new", "ttr join", "ttr hand", timeout=TIMEOUT)
            await play_and_watch(fake, bot, browser, db, base)
        except BaseException:
            print(bot.output()[-6000:])
            raise
        finally:
            await browser.close()
            await bot.close()
    print(f"live board E2E: {time.monotonic() - started:.1f} s")


async def play_and_watch(
    fake: FakeDiscord, bot: BotProcess, browser: Any, db: Path, base: str
) -> None:
    """The game, the pages and every check (see the module docstring)."""
    alice, bob = Player(fake, "alice", "games"), Player(fake, "bob", "games")
    assert (await alice.slash("new", {"map": "usa", "turn_time": "24h"})).ephemeral
    assert (await bob.slash("join")).ephemeral
    first = fake.expect_message(
        lambda m: m.kind == "channel" and "Live board" in links(m.all_components()),
        timeout=TIMEOUT,
    )
    await alice.slash("start")
    live_url = links((await first).all_components())["Live board"]
    hands = {p: await p.slash("hand") for p in (alice, bob)}
    secret = derive_secret("", bot.token)
    game_id = verify(secret, live_url.rsplit("/", 1)[1], time.time()).game_id
    readers = [Reader("spectator", None, live_url)]
    for seat, (player, hand) in enumerate(hands.items()):
        url = links(hand.all_components())["My board"]
        assert url.startswith(f"{base}/b/") and hand.ephemeral
        grant = verify(secret, url.rsplit("/", 1)[1], time.time())
        assert (grant.game_id, grant.user_id) == (game_id, player.user.id)
        readers.append(Reader(player.user.name, seat, url))
    spectator, _, on_phone = readers
    for reader in readers:
        await reader.open(browser, PHONE if reader is on_phone else DESKTOP)

    shown: list[int] = []  # the versions each turn ended at, every page showed each at once

    async def all_show() -> None:
        version, _, _ = await stored(db, game_id)
        for reader in readers:
            await reader.page.wait_for_selector(f"#app[data-version='{version}']", timeout=WAIT_MS)
        shown.append(version)

    seen = len(fake.sent)
    for player in hands:  # the ticket choice at the start (a fresh menu: the version moved)
        await _keep_offered(player, await player.slash("hand"))
        await all_show()
    pinged = {p: f"user:{p.user.id}" for p in (alice, bob)}  # the turn message pings who acts
    for turn in range(1, HUMAN_TURNS + 1):
        message: SentMessage = await fake.wait_for_message(
            lambda m: (
                m.kind == "channel"
                and bool(m.custom_ids)
                and any(ping in m.pings for ping in pinged.values())
            ),
            since=seen,
            timeout=TIMEOUT,
        )
        seen = len(fake.sent)
        player = next(p for p, ping in pinged.items() if ping in message.pings)
        if turn == RESTART_BEFORE:
            await bot.restart(kill=True, timeout=TIMEOUT)
            for reader in readers:  # the browser reconnects by itself (retry: 3000)
                await reader.connected()
            seen = len(fake.sent)
        await _play_turn(player, message, turn)
        await all_show()

    # both resign: the computer plays both seats to the end
    final = fake.expect_message(_is_final, timeout=60)
    for player in (alice, bob):
        assert (await player.slash("game resign")).ephemeral
    await final
    last, status, rows = await stored(db, game_id)
    assert status == "finished" and last > shown[-1]
    for reader in readers:
        await reader.reached(last, timeout=WAIT_MS * 2)
    await reader_checks(readers, rows, last, shown)
    await phone_check(on_phone, base)
    await replay_check(spectator)
    await hidden_check(readers, await secrets_by_version(db, game_id))
    for reader in readers:
        assert reader.errors == [], (reader.name, reader.errors)


async def reader_checks(
    readers: list[Reader], rows: list[Any], last: int, shown: list[int]
) -> None:
    """Every version arrived once as an event on every page; the delay from the stored action
    to the page is printed."""
    stored_at = {row.seq: row.created_at for row in rows}
    for reader in readers:
        versions = [data["version"] for kind, data, _ in await reader.frames() if kind == "move"]
        first_version = versions[0]
        assert versions == list(range(first_version, last + 1)), reader.name
        assert first_version == 1  # the pages were open before the first move
        marks = await reader.page.evaluate("() => window.__versions")
        assert [v for v, _ in marks] == sorted({v for v, _ in marks}), reader.name
        for v in shown:
            assert v in [m for m, _ in marks], (reader.name, v)
        delays = []
        for v in shown:
            at = next(ms for m, ms in marks if m >= v)
            delays.append(at / 1000 - stored_at[v])
        print(
            f"{reader.name}: stored action -> page, {len(delays)} turns: "
            f"median {statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms"
        )


async def phone_check(reader: Reader, base: str) -> None:
    """Pinch to a claimed route on the phone and tap it: its length, colour and owner."""
    page = reader.page
    box = await page.locator("svg.board").bounding_box()
    await pinch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 3, 30, 110)
    assert float(await page.get_attribute("svg.board", "data-zoom")) > 2.0
    target = await page.evaluate(FIND_CLAIM_JS)
    assert target is not None, "no claimed route is visible after the zoom"
    await page.touchscreen.tap(target["x"], target["y"])
    card = page.locator(".info-card")
    await card.wait_for(state="visible")
    token = reader.url.rsplit("/", 1)[1]
    board = await (await page.request.get(f"{base}/api/b/{token}/map")).json()
    state = await (await page.request.get(f"{base}/api/b/{token}/state")).json()
    route = next(r for r in board["routes"] if r["id"] == target["id"])
    owner = next(c["seat"] for c in state["claims"] if c["route"] == target["id"])
    assert await card.locator(".info-length").inner_text() == f"Length: {route['length']}"
    assert (
        board["colours"][route["colour"]]["name"] in await card.locator(".info-colour").inner_text()
    )
    assert state["seats"][owner]["name"] in await card.locator(".info-owner").inner_text()


async def replay_check(reader: Reader) -> None:
    """The slider walks every turn, then the final scoring's steps show."""
    page = reader.page
    async with page.expect_response(lambda r: r.url.endswith("/replay")) as answer:
        await page.get_by_role("button", name="Replay").click()
    replay = await (await answer.value).json()
    slider = page.get_by_label("Turn")
    await slider.wait_for()
    turns = replay["turns"]
    assert [t["version"] for t in turns] == list(range(1, len(turns) + 1))
    await slider.focus()
    for turn in turns[1:4]:  # the keyboard moves it as a reader does
        await page.keyboard.press("ArrowRight")
        assert await page.locator(".replay-text").inner_text() == turn["text"]
    # then every turn, moved in the page (one round trip instead of three per turn)
    walked = await page.evaluate(WALK_JS, len(turns))
    assert walked == [[str(i + 1), t["text"]] for i, t in enumerate(turns)]
    claims = await page.locator("g.claim").count()
    assert claims == len(turns[-1]["state"]["claims"])
    steps = replay["final"]["steps"]
    final = page.locator(".final")
    assert await final.is_visible()
    await page.get_by_role("button", name="Show all steps").click()
    texts = await final.locator("li.final-step").all_inner_texts()
    assert [t.strip() for t in texts] == [s["text"] for s in steps]
    assert {s["kind"] for s in steps} >= {"routes", "ticket", "total"}


def ticket_names(history: list[dict[str, Any]]) -> list[list[set[str]]]:
    """By version and seat: the names of the seat's tickets (kept and offered) as the page would
    write them ("Boston – Miami", either way round), except a name that is also a route's."""
    rules = load_ruleset("usa")
    cities = rules.board.cities
    routes = {frozenset((cities[r.a].name, cities[r.b].name)) for r in rules.board.routes.values()}
    out = []
    for secrets in history:
        seats = []
        for ids in secrets["tickets"]:
            names = set()
            for t in (rules.board.tickets[i] for i in ids):
                a, b = cities[t.a].name, cities[t.b].name
                if frozenset((a, b)) not in routes:
                    names |= {f"{a} – {b}", f"{b} – {a}"}
            seats.append(names)
        out.append(seats)
    return out


def named(text: str, names: list[set[str]], seat: int | None) -> list[str]:
    """The other seats' ticket names in ``text`` (a reader of ``seat``)."""
    return [n for other, ns in enumerate(names) if other != seat for n in ns if n in text]


async def hidden_check(readers: list[Reader], history: list[dict[str, Any]]) -> None:
    """Scan every payload each page received against the secrets of its version; before the
    end (when the final scoring shows every ticket) also for the other seats' ticket names."""
    names = ticket_names(history)
    last = len(history) - 1
    for reader in readers:
        for task in reader.pending:
            await task
        checked = 0
        for url, body in reader.bodies:
            if url.endswith("/replay") or url.endswith("/map"):
                for secrets in history:
                    assert leaks(body, secrets, reader.seat) == [], (reader.name, url)
                if url.endswith("/replay"):  # the names scan finds what it looks for
                    assert named(body, names[last], None), "the final scoring names no ticket"
            else:
                payload = json.loads(body)
                assert (payload["me"] is None) == (reader.seat is None), (reader.name, url)
                text = compact(payload)
                version = payload["version"]
                assert leaks(text, history[version], reader.seat) == [], reader.name
                if version < last:
                    assert named(text, names[version], reader.seat) == [], (reader.name, version)
            checked += 1
        for kind, data, text in await reader.frames():
            version = data["version"]
            assert leaks(compact(data), history[version], reader.seat) == [], (reader.name, kind)
            assert leaks(text, history[version], reader.seat) == []
            if version < last:
                assert named(compact(data), names[version], reader.seat) == [], reader.name
            state = data.get("state")
            if state is not None:
                assert (state["me"] is None) == (reader.seat is None), reader.name
            checked += 1
        assert checked > len(history) // 2, reader.name
        # the scan finds what it looks for: a player's own payload, read as the other seat's
        if reader.seat is not None:
            _, data, _ = next(
                f for f in reversed(await reader.frames()) if f[1].get("state") is not None
            )
            own = [t["id"] for t in data["state"]["me"]["tickets"]]
            found = leaks(compact(data), history[data["version"]], 1 - reader.seat)
            assert own and f"ticket {own[0]} of seat {reader.seat}" in found, found
