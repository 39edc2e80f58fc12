"""The Activity page in a stand-in Discord client: the Embedded App SDK's handshake and its
``authorize`` command answered by a parent frame as the Discord client would (the
postMessage protocol of ``@discord/embedded-app-sdk``: opcode 0 HANDSHAKE from the frame, a
DISPATCH READY in reply, opcode 1 FRAME commands answered by nonce), the code exchanged
through the fake Discord, and the player's own board opened in the frame.

The screenshot of the board in an Activity frame (``docs/images/live-board/activity-frame.png``)
comes from this test: run it with ``TTR_SCREENSHOT_DIR=docs/images/live-board``.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.host.services import GameService
from bot.host.storage import open_storage
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.records import ActivityInstance
from web import WebApp, WebServer
from web.activity import ActivityConfig

SECRET = b"activity frame test"
CHANNEL = 7100
INSTANCE = "i-frame"
#: Discord's Activity frame on a desktop client (a 16:9 panel).
FRAME = {"width": 1280, "height": 720}


class Site:
    """The fake Discord, a game of alice and bob in CHANNEL and the live board with the
    Activity, on an event loop of their own in a thread (the browser test is synchronous)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.fake: FakeDiscord
        self.base = ""
        self.code = ""
        self._closers: list[Any] = []

    def call(self, work: Any) -> Any:
        """Run the coroutine ``work`` on the site's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(30)

    async def _start(self) -> None:
        self.fake = FakeDiscord()
        await self.fake.start()
        self.fake.activity_enabled = True
        storage = await open_storage(f"sqlite:///{self.tmp / 'ttr.sqlite3'}")
        service = GameService(storage, seed_source=lambda: 5)
        alice, bob = self.fake.users["alice"], self.fake.users["bob"]
        game = await service.lobby.create(
            guild_id=self.fake.guild_id,
            channel_id=CHANNEL,
            host_id=alice.id,
            host_name="alice",
            map_id="usa",
            turn_seconds=3600,
        )
        await service.lobby.join(game.id, bob.id, "bob")
        await service.lobby.start(game.id, alice.id)
        config = ActivityConfig(
            client_id=self.fake.application_id,
            client_secret=self.fake.oauth_api.state.client_secret,
            bot_token="bot-token",
            api_base=self.fake.api_base,
        )
        server = WebServer(WebApp(service, SECRET, activity=config), "127.0.0.1", 0)
        await server.start()
        self.base = f"http://127.0.0.1:{server.port}"
        self.fake.store.activity_instances[INSTANCE] = ActivityInstance(
            INSTANCE, CHANNEL, [alice.id]
        )
        self.code = self.fake.oauth_api.issue_code(alice)
        self._closers = [server.close, service.close, storage.close, self.fake.stop]

    async def _stop(self) -> None:
        for close in self._closers:
            await close()

    def __enter__(self) -> Site:
        self.thread.start()
        self.call(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        self.call(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def parent_page(site: Site) -> str:
    """A stand-in Discord client: frames the Activity and answers its SDK."""
    query = (
        f"frame_id=f1&instance_id={INSTANCE}&platform=desktop"
        f"&guild_id={site.fake.guild_id}&channel_id={CHANNEL}"
    )
    ready = {
        "cmd": "DISPATCH",
        "nonce": "ready",
        "evt": "READY",
        "data": {"v": 1, "config": {"api_endpoint": "//discord.com/api", "environment": "test"}},
    }
    return f"""<!doctype html><html><body style="margin:0">
<iframe id="activity" src="/activity?{query}" width="{FRAME["width"]}" height="{FRAME["height"]}"
  style="border:0"></iframe>
<script>
window.handshakes = []; window.commands = [];
window.addEventListener("message", (event) => {{
  const [opcode, data] = event.data;
  const frame = document.getElementById("activity").contentWindow;
  if (opcode === 0) {{
    window.handshakes.push(data);
    frame.postMessage([1, {json.dumps(ready)}], "*");
  }} else if (opcode === 1) {{
    window.commands.push(data);
    if (data.cmd === "AUTHORIZE") {{
      frame.postMessage([1, {{cmd: "AUTHORIZE", evt: null, nonce: data.nonce,
                              data: {{code: {json.dumps(site.code)}}}}}], "*");
    }}
  }}
}});
</script></body></html>"""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The running site."""
    with Site(tmp_path) as running:
        yield running


def test_the_activity_signs_in_through_the_sdk_and_opens_the_players_board(
    browser: Any, site: Site
) -> None:
    context = browser.new_context(viewport=FRAME)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route(
        f"{site.base}/_discord_client",
        lambda route: route.fulfill(content_type="text/html", body=parent_page(site)),
    )
    page.goto(f"{site.base}/_discord_client")
    frame = page.frame_locator("#activity")
    frame.locator("#app[data-ready='true']").wait_for(timeout=20000)
    [handshake] = page.evaluate("() => window.handshakes")
    assert handshake["client_id"] == str(site.fake.application_id)
    assert (handshake["frame_id"], handshake["v"], handshake["encoding"]) == ("f1", 1, "json")
    [authorize] = [c for c in page.evaluate("() => window.commands") if c["cmd"] == "AUTHORIZE"]
    assert authorize["args"]["scope"] == ["identify"]
    assert authorize["args"]["response_type"] == "code"
    board = page.frames[1]
    assert "/b/v1." in board.url
    state = board.evaluate(
        "async () => (await fetch('/api' + location.pathname + '/state')).json()"
    )
    assert state["me"]["seat"] == 0  # alice's own board: her hand and tickets
    assert site.fake.oauth_api.state.exchanges == [site.code]
    shots = os.environ.get("TTR_SCREENSHOT_DIR")
    if shots:
        page.screenshot(path=str(Path(shots) / "activity-frame.png"))
    assert errors == []
    context.close()


def test_a_user_outside_the_instance_is_told_so(browser: Any, site: Site) -> None:
    site.fake.store.activity_instances[INSTANCE].users.clear()
    context = browser.new_context(viewport=FRAME)
    page = context.new_page()
    page.route(
        f"{site.base}/_discord_client",
        lambda route: route.fulfill(content_type="text/html", body=parent_page(site)),
    )
    page.goto(f"{site.base}/_discord_client")
    frame = page.frame_locator("#activity")
    frame.locator("#app[data-state='refused']").wait_for(timeout=20000)
    assert "did not confirm who you are" in frame.locator("#status").inner_text()
    context.close()
