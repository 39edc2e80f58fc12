"""The live board's HTTP answers: the page, the map, the state and the replay for good links;
clear refusals without anything private for bad ones; the security headers on every answer;
rate limits, the size limit and the cap on open streams, whose slots a closed page gives
back in time."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp

from bot.host.services import GameService
from bot.host.storage import open_storage
from engine import legal_actions
from engine.ai import choose_action
from engine.rules.europe import BuildStation
from maps.loader import load_ruleset
from web import Grant, Limits, WebApp
from web.server import CSP, WebServer
from web.tokens import PRIVATE_TTL_S

from ._helpers import (
    BOB,
    HOST,
    SECRET,
    STRANGER,
    Clock,
    board,
    grant_token,
    play_one,
    private_token,
    public_token,
    two_player_game,
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def secure(response: object) -> bool:
    headers = response.headers  # type: ignore[attr-defined]
    return all(headers.get(k) == v for k, v in HEADERS.items())


async def test_every_route_answers_with_the_security_headers(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        await play_one(service, game)
        token = public_token(game)
        good = [f"/b/{token}", "/static/board.js"] + [
            f"/api/b/{token}/{part}" for part in ("map", "state", "replay")
        ]
        bad = ["/b/nonsense", "/api/b/nonsense/state", "/static/../web/server.py", "/nowhere"]
        for path in good:
            response = await client.get(path)
            assert response.status == 200, path
            assert secure(response), path
        for path in bad:
            response = await client.get(path)
            assert response.status in (403, 404), path
            assert secure(response), path
        events = await client.get(f"/api/b/{token}/events")
        assert events.status == 200 and secure(events)
        assert events.headers["Content-Type"].startswith("text/event-stream")
        events.close()
        assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
        assert "frame-ancestors 'self' https://discord.com https://*.discordsays.com" in CSP


async def test_the_page_is_a_shell_without_inline_script(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        token = public_token(game, "de")
        page = await (await client.get(f"/b/{token}")).text()
        assert '<html lang="de">' in page and f'data-token="{token}"' in page
        assert '<script type="module" src="/static/board.js"></script>' in page
        assert "<script>" not in page and "style=" not in page
        assert "Live-Spielplan: USA" in page


async def test_bad_links_are_refused_clearly_and_show_nothing_private(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        mine = private_token(game, HOST, clock.now, "de")
        hand = (await (await client.get(f"/api/b/{mine}/state")).json())["me"]["hand"]
        assert hand
        clock.now += PRIVATE_TTL_S + 1
        expired = await client.get(f"/api/b/{mine}/state")
        assert expired.status == 403
        assert await expired.json() == {
            "error": "link_expired",
            "message": "Dieser Link ist abgelaufen: Öffne „Mein Spielplan“ noch einmal in Discord.",
        }
        page = await client.get(f"/b/{mine}")
        assert page.status == 403 and "abgelaufen" in await page.text()
        forged = mine[:-4] + ("AAAA" if not mine.endswith("AAAA") else "BBBB")
        for token, code in ((forged, "link_invalid"), ("v1.abc", "link_invalid")):
            answer = await client.get(f"/api/b/{token}/state")
            assert answer.status == 403
            body = await answer.json()
            assert body["error"] == code and "hand" not in body and "me" not in body
        unknown = await client.get(f"/api/b/{public_token(game + 100)}/state")
        assert unknown.status == 404
        assert (await unknown.json())["error"] == "game_not_found"


async def test_another_users_link_shows_only_the_public_view(tmp_path: Path) -> None:
    clock = Clock()
    async with board(tmp_path / "db", clock=clock) as (service, client, _):
        game = await two_player_game(service)
        stranger = await client.get(f"/api/b/{private_token(game, STRANGER, clock.now)}/state")
        assert (await stranger.json())["me"] is None
        bob = await (await client.get(f"/api/b/{private_token(game, BOB, clock.now)}/state")).json()
        host = await (
            await client.get(f"/api/b/{private_token(game, HOST, clock.now)}/state")
        ).json()
        assert bob["me"]["seat"] == 1 and host["me"]["seat"] == 0
        spectator = await (await client.get(f"/api/b/{public_token(game)}/state")).json()
        assert spectator["me"] is None and spectator["version"] == host["version"]


async def test_the_map_is_cached_and_drawn_like_the_images(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        answer = await client.get(f"/api/b/{public_token(game, 'de')}/map")
        assert answer.headers["Cache-Control"] == "public, max-age=86400"
        data = await answer.json()
        assert data["map"] == "usa" and data["size"] == [1400, 936]
        routes = {r["id"]: r for r in data["routes"]}
        assert routes["atlanta__new_orleans__1"]["double_of"] == "atlanta__new_orleans__2"
        assert routes["atlanta__new_orleans__1"]["lane"] == -0.5
        assert data["colours"]["red"]["hex"] == "#d62828"
        assert [s["symbol"] for s in data["seat_colours"]] == list("●▲■◆★")
        assert data["seat_colours"][0]["name"] == "Grün"
        # what the page draws besides: the places' kind, the background, gray's symbol
        assert {c["kind"] for c in data["cities"]} == {"city"}
        assert data["background"] and data["colours"]["gray"]["symbol"] == "·"


async def test_a_state_carries_the_maps_words_and_europes_stations(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await service.lobby.create(
            guild_id=1, channel_id=7, host_id=HOST, host_name="Anna", map_id="europe"
        )
        await service.lobby.join(game.id, BOB, "Bert")
        await service.lobby.start(game.id, HOST)
        state = await (await client.get(f"/api/b/{public_token(game.id)}/state")).json()
        assert (
            state["strings"]["stations"] == "Train stations"
        )  # the map's noun (page_strings meta)
        assert [s["stations"] for s in state["seats"]] == [3, 3]
        rules = load_ruleset("europe")
        while True:  # the easy AI plays until a seat can build a station; it builds one
            table = await service.loader.game_state(game.id)
            seat = table.seats_to_act()[0]
            stations = [a for a in legal_actions(rules, table, seat) if isinstance(a, BuildStation)]
            action = stations[0] if stations else choose_action(rules, table, seat, "easy")
            await service.play.act(game.id, (HOST, BOB)[seat], action, expected_version=None)
            if stations:
                break
        state = await (await client.get(f"/api/b/{public_token(game.id)}/state")).json()
        assert len(state["stations"]) == 1 and state["stations"][0]["seat"] == seat
        assert state["seats"][seat]["stations"] == 2


async def test_a_reader_beyond_the_rate_gets_429_with_retry_after(tmp_path: Path) -> None:
    limits = Limits(address_rate=0.5, address_burst=3, token_rate=100, token_burst=100)
    async with board(tmp_path / "db", limits=limits) as (service, client, _):
        game = await two_player_game(service)
        token = public_token(game)
        statuses = [(await client.get(f"/api/b/{token}/state")).status for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        refused = await client.get(f"/api/b/{token}/state")
        assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
        assert (await refused.json())["error"] == "rate_limited" and secure(refused)


async def test_one_link_has_its_own_rate(tmp_path: Path) -> None:
    limits = Limits(token_rate=0.1, token_burst=2)
    async with board(tmp_path / "db", limits=limits) as (service, client, _):
        game = await two_player_game(service)
        token = public_token(game)
        assert [(await client.get(f"/api/b/{token}/state")).status for _ in range(3)] == [
            200,
            200,
            429,
        ]
        assert (await client.get(f"/api/b/{public_token(game, 'de')}/state")).status == 200


async def test_an_oversize_request_is_refused(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        answer = await client.get(f"/api/b/{public_token(game)}/state", data=b"x" * 100_000)
        assert answer.status == 413
        assert (await answer.json())["error"] == "request_too_large" and secure(answer)


async def test_streams_beyond_the_cap_get_503(tmp_path: Path) -> None:
    limits = Limits(streams_per_address=2, streams_total=10)
    async with board(tmp_path / "db", limits=limits) as (service, client, app):
        game = await two_player_game(service)
        url = f"/api/b/{public_token(game)}/events"
        first, second = await client.get(url), await client.get(url)
        assert first.status == second.status == 200
        third = await client.get(url)
        assert third.status == 503 and (await third.json())["error"] == "streams_full"
        first.close()
        for _ in range(100):  # the server sees the closed stream and gives its slot back
            if app.slots.open < 2:
                break
            await asyncio.sleep(0.02)
        again = await client.get(url)
        assert again.status == 200
        again.close()
        second.close()


async def test_a_grant_of_an_unseated_user_is_not_a_seat(tmp_path: Path) -> None:
    async with board(tmp_path / "db") as (service, client, _):
        game = await two_player_game(service)
        token = grant_token(Grant(game, STRANGER, "en", None))
        assert (await (await client.get(f"/api/b/{token}/state")).json())["me"] is None


async def test_the_bot_process_starts_the_live_board_only_when_configured(tmp_path: Path) -> None:
    import socket

    import pytest

    from bot.process.config import Settings
    from bot.process.run import StartupError, start_web

    async with board(tmp_path / "db") as (service, _, _):
        assert await start_web(Settings.from_env({}, env_file=None), service) is None
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            settings = Settings.from_env(
                {"TTR_WEB_PORT": str(port), "TTR_WEB_HOST": "127.0.0.1"}, env_file=None
            )
            with pytest.raises(
                StartupError, match=rf"cannot serve the live board on 127.0.0.1:{port}"
            ):
                await start_web(settings, service)
        settings = Settings.from_env(
            {"TTR_WEB_PORT": "8080", "TTR_WEB_URL": "https://ttr.example.org/"}, env_file=None
        )
        assert settings.web_base == "https://ttr.example.org"
        assert Settings.from_env({"TTR_WEB_PORT": "81"}, env_file=None).web_base == (
            "http://localhost:81"
        )
        with pytest.raises(ValueError, match="TTR_WEB_URL"):
            Settings.from_env(
                {"TTR_WEB_PORT": "81", "TTR_WEB_URL": "ttr.example.org"}, env_file=None
            )


async def test_a_closed_page_gives_its_stream_slot_back_long_before_the_next_ping(
    tmp_path: Path,
) -> None:
    """Through the server the bot runs (``WebServer``: aiohttp's runner, which does not cancel
    a handler when its reader leaves, unlike the test client's server), a stream whose page
    closes gives its slot back within a few seconds, though its next ping is 15 s away."""
    clock = Clock()
    storage = await open_storage(f"sqlite:///{tmp_path / 'db'}", clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 11)
    app = WebApp(service, SECRET, clock=clock, ping_s=15.0)
    server = WebServer(app, "127.0.0.1", 0)
    await server.start()
    try:
        game = await two_player_game(service)
        url = f"http://127.0.0.1:{server.port}/api/b/{public_token(game)}/events"
        async with aiohttp.ClientSession() as session:
            response = await session.get(url)
            assert response.status == 200
            assert (await response.content.readline()).startswith(b"retry:")
            assert app.slots.open == 1
            response.close()
        closed = time.monotonic()
        while app.slots.open and time.monotonic() - closed < 10:
            await asyncio.sleep(0.05)
        assert app.slots.open == 0
        assert time.monotonic() - closed < 3.0
    finally:
        await server.close()
        await service.close()
        await storage.close()
