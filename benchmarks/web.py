"""The live board under load: move latency to open event streams, the interaction's work with
and without streams, memory per open stream.

``python -m benchmarks web [--json] [--streams 200] [--games 20] [--moves 40] [--pages 0]``

One process, as the bot runs it: the real service over a temporary SQLite file, the web app
listening on 127.0.0.1 (real sockets), and the readers as aiohttp clients on the same event
loop (their parsing is counted in the loop's time, so the figures are on the safe side).

- ``stream_p50_ms``/``stream_p99_ms``: from a move's commit (the service's change notice)
  to its event arriving at every stream: ``--streams`` streams on one game, plus one page
  (the state, then the stream) on each of ``--games`` other games; moves are played on all
  of them in turn.
- ``act_p99_ms_idle`` / ``act_p99_ms_streams``: one player action through
  ``service.play.act`` (what an interaction waits for before it answers) without streams,
  then while the streams above are open and fed.
- ``page_p50_ms``/``page_p99_ms`` (with ``--pages N``): from a move's commit to the moment
  the page shows it (its ``#app[data-version]``, noted by the page with the browser's clock),
  in ``N`` pages of Debian's Chromium (Playwright) on the game with the many streams: the
  live board's goal, every stored move on every open page within 1 s.
- ``stream_kib``: Python memory per open stream (tracemalloc, server and client side
  together, the feed's steps included), from opening ``--streams`` more idle streams.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import aiohttp

from bot.host.services import GameService
from bot.host.storage import open_storage
from engine.ai import choose_action
from maps.loader import load_ruleset
from web import Limits, WebApp, WebServer
from web.tokens import public_grant, sign

SECRET = b"benchmark"
OPEN = Limits(1e9, 1e9, 1e9, 1e9, streams_per_address=100_000, streams_total=100_000)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def _game(service: GameService, channel: int) -> int:
    game = await service.lobby.create(
        guild_id=1, channel_id=channel, host_id=1, host_name="A", map_id="usa", turn_seconds=86_400
    )
    await service.lobby.join(game.id, 2, "B")
    await service.lobby.start(game.id, 1)
    return game.id


async def _move(service: GameService, game_id: int) -> float | None:
    """One action of whoever must act, chosen off the clock; the seconds ``act`` took."""
    row = await service.loader.game(game_id)
    state = await service.loader.state(row)
    if state.finished:
        return None
    seat = state.seats_to_act()[0]
    action = choose_action(load_ruleset("usa"), state, seat, "easy")
    start = time.perf_counter()
    await service.play.act(game_id, seat + 1, action, expected_version=None)
    return time.perf_counter() - start


class Readers:
    """Event-stream clients that note when each version arrives."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base
        self.arrived: dict[tuple[int, int], list[float]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.opened = 0

    async def open(self, game_id: int, page: bool = False) -> None:
        token = sign(SECRET, public_grant(game_id, "en"))
        if page:
            async with self.session.get(f"{self.base}/api/b/{token}/state") as answer:
                await answer.read()
        ready = asyncio.Event()
        self.tasks.append(asyncio.create_task(self._read(game_id, token, ready)))
        await ready.wait()

    async def _read(self, game_id: int, token: str, ready: asyncio.Event) -> None:
        async with self.session.get(f"{self.base}/api/b/{token}/events") as stream:
            self.opened += 1
            ready.set()
            async for raw in stream.content:
                line = raw.decode()
                if line.startswith("id: "):
                    version = int(line[4:])
                    self.arrived.setdefault((game_id, version), []).append(time.monotonic())

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()


class Pages:
    """Chromium pages on one game that note, with the browser's clock, when each version shows."""

    #: Run before the page's scripts: every version the page shows, with Date.now().
    MARK_JS = """document.addEventListener("DOMContentLoaded", () => {
      const app = document.getElementById("app");
      window.marks = [];
      new MutationObserver(() => window.marks.push([Number(app.dataset.version), Date.now()]))
        .observe(app, {attributes: true, attributeFilter: ["data-version"]});
    });"""
    LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None
        self.pages: list[Any] = []

    async def open(self, base: str, game_id: int, count: int) -> None:
        """Open ``count`` spectator pages of ``game_id``, each until its stream is open."""
        from playwright.async_api import async_playwright

        self.playwright = await async_playwright().start()
        self.browser = await self.playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=self.LAUNCH_ARGS
        )
        context = await self.browser.new_context()
        await context.add_init_script(self.MARK_JS)
        token = sign(SECRET, public_grant(game_id, "en"))
        for _ in range(count):
            page = await context.new_page()
            await page.goto(f"{base}/b/{token}")
            await page.wait_for_function("() => window.ttrBoard?.live.source.readyState === 1")
            self.pages.append(page)

    async def delays(self, shown: dict[int, float], last: int) -> list[float]:
        """Milliseconds from each commit (unix seconds by version) to each page showing it."""
        out = []
        for page in self.pages:
            await page.wait_for_function(
                "(v) => Number(document.getElementById('app').dataset.version) >= v",
                arg=last,
                timeout=30_000,
            )
            marks = await page.evaluate("() => window.marks")
            for version, at in shown.items():
                ms = next(ms for v, ms in marks if v >= version)
                out.append(ms - at * 1000)
        return out

    async def close(self) -> None:
        if self.browser is not None:
            await self.browser.close()
        if self.playwright is not None:
            await self.playwright.stop()


async def run(streams: int, games: int, moves: int, pages: int = 0) -> dict[str, Any]:
    """The benchmark's figures (see the module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(Path(folder) / "web.sqlite3")
        service = GameService(storage, seed_source=lambda: 7)
        committed: dict[tuple[int, int], float] = {}
        service.changes.subscribe(lambda g, v: committed.setdefault((g, v), time.monotonic()))
        wall: dict[int, float] = {}
        server = WebServer(WebApp(service, SECRET, limits=OPEN), "127.0.0.1", 0)
        await server.start()
        connector = aiohttp.TCPConnector(limit=0)
        session = aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(None))
        readers = Readers(session, f"http://127.0.0.1:{server.port}")
        browser = Pages()
        page_delays: list[float] = []
        try:
            idle_game = await _game(service, 1)
            idle = [t for _ in range(moves) if (t := await _move(service, idle_game)) is not None]
            main = await _game(service, 2)
            others = [await _game(service, 10 + i) for i in range(games)]
            for _ in range(streams):
                await readers.open(main)
            for game in others:
                await readers.open(game, page=True)
            if pages:
                await browser.open(readers.base, main, pages)
                service.changes.subscribe(
                    lambda g, v: wall.setdefault(v, time.time()) if g == main else None
                )
            busy: list[float] = []
            watched = [main, *others]
            for i in range(moves):
                for game in watched if i % 4 == 0 else [main]:
                    if (took := await _move(service, game)) is not None:
                        busy.append(took)
            want = {g: (await service.loader.game(g)).version for g in watched}
            for _ in range(600):  # let the last events arrive (bounded wait)
                if all(
                    len(readers.arrived.get((g, v), [])) >= (streams if g == main else 1)
                    for g, v in want.items()
                ):
                    break
                await asyncio.sleep(0.05)
            if pages:
                page_delays = await browser.delays(wall, want[main])
            latencies = [
                (at - committed[key]) * 1000
                for key, times in readers.arrived.items()
                if key in committed
                for at in times
            ]
            await readers.close()
            tracemalloc.start()
            before = tracemalloc.take_snapshot()
            for _ in range(streams):
                await readers.open(main)
            await asyncio.sleep(0.2)
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
            await readers.close()
        finally:
            await browser.close()
            await session.close()
            await server.close()
            await service.close()
            await storage.close()
    return {
        "streams": streams,
        "games": games,
        "events": len(latencies),
        "stream_p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "stream_p99_ms": round(_pct(latencies, 0.99), 1),
        "act_p99_ms_idle": round(_pct(idle, 0.99) * 1000, 1),
        "act_p99_ms_streams": round(_pct(busy, 0.99) * 1000, 1),
        "stream_kib": round(grown / max(1, streams) / 1024, 1),
        **(
            {
                "pages": pages,
                "page_p50_ms": round(statistics.median(page_delays), 1),
                "page_p99_ms": round(_pct(page_delays, 0.99), 1),
            }
            if page_delays
            else {}
        ),
    }


def main(argv: list[str]) -> int:
    """Run and print the figures (``--json``: one JSON line last)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks web")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--pages", type=int, default=0, help="Chromium pages on the main game")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.streams, args.games, args.moves, args.pages))
    for key, value in figures.items():
        print(f"{key:22} {value}")
    if args.json:
        print(json.dumps(figures))
    return 0


__all__ = ["main", "run"]
