"""Fixtures of the live board tests: a real PostgreSQL database where one can start, and
browser fixtures: one Chromium per test module and one real live board server (``live_server.py``:
the ``web`` app over a game service on SQLite) per test session, a page per test.

Playwright for Python drives Debian's ``chromium`` (``/usr/bin/chromium``; Playwright's own
browser download is never used). The closed network refuses Chromium's background
connections, so they are switched off (:data:`LAUNCH_ARGS`); Playwright starts the browser
with a fresh temporary user-data dir of its own. Without ``/usr/bin/chromium`` the tests skip,
except under CI (``CI`` set), where that is a failure: ``.ci/run`` installs it first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pg_fixtures import postgres_server, postgres_url

from .live_server import LiveGame, LiveServer, serve

__all__ = ["postgres_server", "postgres_url"]

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}


def need_chromium(who: str) -> None:
    """Skip without Debian's chromium or Playwright; under CI (``CI`` set) fail instead, naming
    what ``who`` lacks (``.ci/run`` installs both)."""
    missing = None
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing = "playwright is not installed (pip install -e '.[test]')"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{who}: a browser is needed under CI: {missing}")
        pytest.skip(missing)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for one test module (skips without one, fails so under CI).

    Per module, not per session: Playwright's synchronous API runs an event loop in this
    thread while it is open, and pytest-asyncio cannot start a test's loop inside it, so the
    browser must be closed before the next module's async tests run."""
    need_chromium("browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real live board server for the session's browser tests (each test starts games)."""
    with serve(tmp_path_factory.mktemp("live")) as server:
        yield server


class Board:
    """An open board page with the console errors it logged (CSP violations included)."""

    def __init__(self, page: Any, base: str, game: LiveGame) -> None:
        self.page = page
        self.base = base
        self.game = game
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _console(self, msg: Any) -> None:
        url = str((msg.location or {}).get("url", ""))
        if url.endswith("/favicon.ico"):
            return  # the browser asks for it by itself; the page names none
        if msg.type in ("error", "warning"):
            self.errors.append(f"{msg.text} ({url})")

    def open(self, token: str) -> Any:
        """Load the page for ``token`` and wait until it drew the board and its event stream is
        open (a move stored from then on reaches it live); returns the response."""
        response = self.page.goto(f"{self.base}/b/{token}")
        self.page.wait_for_selector("#app[data-ready='true']", timeout=15000)
        self.page.wait_for_function(
            "() => window.ttrBoard.live.source.readyState === EventSource.OPEN", timeout=15000
        )
        return response


@pytest.fixture
def open_board(browser: Any) -> Iterator[Callable[..., Board]]:
    """``open_board(game, user=None, phone=False, lang=None, reduced_motion=False)``: a fresh page
    on ``game`` (a :class:`LiveGame`) through the spectator's link, or ``user``'s own; after
    the test, every page must have logged no console error."""
    boards: list[Board] = []
    contexts: list[Any] = []

    def make(
        game: LiveGame,
        *,
        user: int | None = None,
        phone: bool = False,
        lang: str | None = None,
        reduced_motion: bool = False,
    ) -> Board:
        options = dict(PHONE if phone else DESKTOP)
        if reduced_motion:
            options["reduced_motion"] = "reduce"
        context = browser.new_context(**options)
        contexts.append(context)
        board = Board(context.new_page(), game.server.base, game)
        boards.append(board)
        board.open(game.token(user, lang))
        return board

    yield make
    try:
        for board in boards:
            assert board.errors == [], f"the page logged errors: {board.errors}"
    finally:
        for context in reversed(contexts):
            context.close()
