"""The Activity's sign-in against the fake Discord: OAuth2's code exchange, the instance check,
and ``POST /api/activity/session`` answering with the board of the instance's channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.host.services import GameService
from bot.host.storage import open_storage
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.records import ActivityInstance, FakeUser
from web import WebApp, verify
from web.activity import ActivityConfig, SignInError, exchange_code, instance_channel
from web.headers import CSP

from ._helpers import SECRET, Clock

CHANNEL = 7000


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord whose application has an Activity."""
    async with FakeDiscord() as server:
        server.activity_enabled = True
        yield server


def config(fake: FakeDiscord, secret: str | None = None) -> ActivityConfig:
    """The bot's OAuth2 client as the fake knows it."""
    return ActivityConfig(
        client_id=fake.application_id,
        client_secret=fake.oauth_api.state.client_secret if secret is None else secret,
        bot_token="bot-token",
        api_base=fake.api_base,
    )


def instance(fake: FakeDiscord, *users: FakeUser, channel: int = CHANNEL) -> str:
    """A running Activity instance in ``channel`` with ``users`` in it; its id."""
    found = ActivityInstance(
        id=f"i-{len(fake.store.activity_instances)}",
        channel_id=channel,
        users=[u.id for u in users],
    )
    fake.store.activity_instances[found.id] = found
    return found.id


async def test_a_code_gives_its_user_with_locale(fake: FakeDiscord) -> None:
    alice = fake.users["alice"]
    alice.locale = "de"
    async with aiohttp.ClientSession() as session:
        user = await exchange_code(session, config(fake), fake.oauth_api.issue_code(alice))
    assert (user.id, user.locale) == (alice.id, "de")


async def test_a_code_is_good_once_and_a_forged_one_or_a_wrong_secret_never(
    fake: FakeDiscord,
) -> None:
    bob = fake.users["bob"]
    code = fake.oauth_api.issue_code(bob)
    async with aiohttp.ClientSession() as session:
        await exchange_code(session, config(fake), code)
        for cfg, used in (
            (config(fake), code),
            (config(fake), "made-up"),
            (config(fake, secret="wrong"), fake.oauth_api.issue_code(bob)),
        ):
            with pytest.raises(SignInError) as refused:
                await exchange_code(session, cfg, used)
            assert refused.value.reason == "refused"


async def test_discord_down_is_unreachable(fake: FakeDiscord) -> None:
    fake.router.fail("POST", r"/oauth2/token", 503)
    async with aiohttp.ClientSession() as session:
        with pytest.raises(SignInError) as down:
            await exchange_code(session, config(fake), fake.oauth_api.issue_code(fake.users["bob"]))
    assert down.value.reason == "unreachable"


async def test_the_instance_gives_its_channel_only_to_a_user_in_it(fake: FakeDiscord) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    running = instance(fake, alice)
    async with aiohttp.ClientSession() as session:
        assert await instance_channel(session, config(fake), running, alice.id) == CHANNEL
        for who, which in ((bob.id, running), (alice.id, "no-such-instance")):
            with pytest.raises(SignInError) as refused:
                await instance_channel(session, config(fake), which, who)
            assert refused.value.reason == "not_in_instance"
        fake.oauth_api.join(bob, running)
        assert await instance_channel(session, config(fake), running, bob.id) == CHANNEL


async def test_the_bot_still_reads_its_own_user_with_its_token(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": "Bot abc"}
        ) as mine:
            assert (await mine.json())["id"] == str(fake.bot_user.id)
        async with session.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": "Bearer nope"}
        ) as stranger:
            assert stranger.status == 401


# ---------------------------------------------------------------- the web app's routes
@pytest.fixture
async def site(
    tmp_path: Path, fake: FakeDiscord
) -> AsyncIterator[tuple[GameService, TestClient[Any, Any], int]]:
    """The live board with the Activity over a fresh database, and a started game of alice
    and bob in CHANNEL; (service, client, game id)."""
    clock = Clock()
    storage = await open_storage(f"sqlite:///{tmp_path / 'ttr.sqlite3'}", clock=clock)
    service = GameService(storage, clock=clock, seed_source=lambda: 5)
    alice, bob = fake.users["alice"], fake.users["bob"]
    game = await service.lobby.create(
        guild_id=fake.guild_id,
        channel_id=CHANNEL,
        host_id=alice.id,
        host_name="alice",
        map_id="usa",
        turn_seconds=3600,
    )
    await service.lobby.join(game.id, bob.id, "bob")
    await service.lobby.start(game.id, alice.id)
    app = WebApp(service, SECRET, clock=clock, activity=config(fake))
    client = TestClient(TestServer(app.app()))
    await client.start_server()
    try:
        yield service, client, game.id
    finally:
        await client.close()
        await service.close()
        await storage.close()


async def _sign_in(client: TestClient[Any, Any], code: str, running: str) -> Any:
    return await client.post("/api/activity/session", json={"code": code, "instance_id": running})


async def test_a_player_in_the_instance_gets_their_own_board(
    fake: FakeDiscord, site: tuple[GameService, TestClient[Any, Any], int]
) -> None:
    _service, client, game_id = site
    alice = fake.users["alice"]
    alice.locale = "de"
    reply = await _sign_in(client, fake.oauth_api.issue_code(alice), instance(fake, alice))
    assert reply.status == 200
    assert reply.headers["Content-Security-Policy"] == CSP
    board = (await reply.json())["board"]
    grant = verify(SECRET, board.removeprefix("/b/"), Clock()())
    assert (grant.game_id, grant.user_id, grant.lang) == (game_id, alice.id, "de")
    state = await (await client.get(f"/api{board}/state")).json()
    assert state["me"]["seat"] == 0 and state["game"]["id"] == game_id


async def test_refusals_say_why_in_the_users_language(
    fake: FakeDiscord, site: tuple[GameService, TestClient[Any, Any], int]
) -> None:
    _service, client, _game = site
    alice, carol = fake.users["alice"], fake.users["carol"]
    carol.locale = "de"
    cases = [
        # carol is not in the instance alice launched
        (fake.oauth_api.issue_code(carol), instance(fake, alice), 401, "activity_sign_in_refused"),
        # a used or forged code
        ("forged-code", instance(fake, alice), 401, "activity_sign_in_refused"),
        # an instance in a channel without a game
        (
            fake.oauth_api.issue_code(carol),
            instance(fake, carol, channel=CHANNEL + 1),
            404,
            "activity_no_game",
        ),
    ]
    for code, running, status, error in cases:
        reply = await _sign_in(client, code, running)
        body = await reply.json()
        assert (reply.status, body["error"]) == (status, error)
        assert "board" not in body
    german = await (await _sign_in(client, fake.oauth_api.issue_code(carol), "none")).json()
    assert german["message"].startswith("Discord hat nicht bestätigt")
    for bad in ({"code": "x"}, {"code": "a b", "instance_id": "i"}, [1, 2]):
        reply = await client.post("/api/activity/session", json=bad)
        assert (reply.status, (await reply.json())["error"]) == (401, "activity_sign_in_refused")


async def test_discord_down_is_said_so(
    fake: FakeDiscord, site: tuple[GameService, TestClient[Any, Any], int]
) -> None:
    _service, client, _game = site
    fake.router.fail("POST", r"/oauth2/token", 500)
    reply = await _sign_in(client, fake.oauth_api.issue_code(fake.users["alice"]), "i-0")
    assert (reply.status, (await reply.json())["error"]) == (503, "activity_unavailable")


async def test_the_activity_page_is_a_strict_shell(
    fake: FakeDiscord, site: tuple[GameService, TestClient[Any, Any], int]
) -> None:
    _service, client, _game = site
    reply = await client.get("/activity", headers={"Accept-Language": "de-DE,de;q=0.9"})
    page = await reply.text()
    assert reply.status == 200 and reply.headers["Content-Security-Policy"] == CSP
    assert f'data-client-id="{fake.application_id}"' in page
    assert '<script type="module" src="/static/activity.js"></script>' in page
    assert "<script>" not in page and "style=" not in page
    assert 'lang="de"' in page


async def test_without_the_oauth2_client_there_is_no_activity(tmp_path: Path) -> None:
    from ._helpers import board

    async with board(tmp_path / "ttr.sqlite3") as (_service, client, _app):
        assert (await client.get("/activity")).status == 404
        reply = await client.post("/api/activity/session", json={})
        assert reply.status in (404, 405)
