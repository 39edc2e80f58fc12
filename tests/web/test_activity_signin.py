"""The Activity's sign-in: Discord's OAuth2 code exchange against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.e2e.fake_discord import FakeDiscord
from web.activity import SignInError, exchange_code


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord."""
    async with FakeDiscord() as server:
        yield server


async def _exchange(fake: FakeDiscord, code: str, *, secret: str | None = None) -> object:
    async with aiohttp.ClientSession() as session:
        return await exchange_code(
            session,
            api_base=fake.api_base,
            client_id=fake.application_id,
            client_secret=fake.oauth_api.state.client_secret if secret is None else secret,
            code=code,
        )


async def test_a_code_gives_its_user_with_locale_and_token(fake: FakeDiscord) -> None:
    alice = fake.users["alice"]
    alice.locale = "de"
    user = await _exchange(fake, fake.oauth_api.issue_code(alice))
    assert (user.id, user.locale) == (alice.id, "de")  # type: ignore[attr-defined]
    assert user.access_token in fake.oauth_api.state.tokens  # type: ignore[attr-defined]
    assert user.access_token not in repr(user)  # type: ignore[attr-defined]


async def test_a_code_is_good_once(fake: FakeDiscord) -> None:
    code = fake.oauth_api.issue_code(fake.users["bob"])
    await _exchange(fake, code)
    with pytest.raises(SignInError) as refused:
        await _exchange(fake, code)
    assert refused.value.reason == "refused"


async def test_a_forged_code_or_a_wrong_secret_is_refused(fake: FakeDiscord) -> None:
    with pytest.raises(SignInError) as forged:
        await _exchange(fake, "made-up")
    assert forged.value.reason == "refused"
    with pytest.raises(SignInError) as secret:
        await _exchange(fake, fake.oauth_api.issue_code(fake.users["bob"]), secret="wrong")
    assert secret.value.reason == "refused"


async def test_no_secret_is_not_configured_and_asks_nothing(fake: FakeDiscord) -> None:
    with pytest.raises(SignInError) as missing:
        await _exchange(fake, "any", secret="")
    assert missing.value.reason == "not_configured"
    assert fake.oauth_api.state.exchanges == []


async def test_discord_down_is_unreachable(fake: FakeDiscord) -> None:
    fake.router.fail("POST", r"/oauth2/token", 503)
    with pytest.raises(SignInError) as down:
        await _exchange(fake, fake.oauth_api.issue_code(fake.users["bob"]))
    assert down.value.reason == "unreachable"


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
