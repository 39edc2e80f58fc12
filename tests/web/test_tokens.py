"""Board links: signed grants that round-trip, and every kind of bad token refused."""

from __future__ import annotations

import base64
import json

import pytest

from web.tokens import (
    MAX_TOKEN_LENGTH,
    PRIVATE_TTL_S,
    BoardLinks,
    Grant,
    TokenError,
    derive_secret,
    private_grant,
    public_grant,
    sign,
    verify,
)

KEY = b"k" * 32
NOW = 1_800_000_000.0


def reason(token: str, key: bytes = KEY, now: float = NOW) -> str:
    with pytest.raises(TokenError) as caught:
        verify(key, token, now)
    return caught.value.reason


def test_grants_round_trip_and_the_token_is_url_safe() -> None:
    for grant in (
        public_grant(12, "de"),
        private_grant(12, 202, "en", NOW),
        Grant(7, 1 << 62, "en", None),
    ):
        token = sign(KEY, grant)
        assert verify(KEY, token, NOW) == grant
        assert token.startswith("v1.") and token.count(".") == 2
        assert all(c.isalnum() or c in "-_." for c in token)
    assert private_grant(1, 2, "en", NOW).expires == NOW + PRIVATE_TTL_S == NOW + 7200


def test_an_unknown_language_falls_back_to_english() -> None:
    assert public_grant(1, "fr").lang == "en"


def test_private_links_expire_and_public_ones_do_not() -> None:
    token = sign(KEY, private_grant(3, 202, "de", NOW))
    assert verify(KEY, token, NOW + PRIVATE_TTL_S - 1).user_id == 202
    with pytest.raises(TokenError) as caught:
        verify(KEY, token, NOW + PRIVATE_TTL_S)
    assert caught.value.reason == "expired" and caught.value.lang == "de"
    assert verify(KEY, sign(KEY, public_grant(3, "en")), NOW + 10 * 365 * 86400).user_id is None


def test_forged_tokens_are_refused() -> None:
    token = sign(KEY, public_grant(3, "en"))
    assert reason(token, key=b"another key") == "forged"
    # the payload edited to name a user (the signature no longer matches)
    head, payload, mac = token.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=="))
    body["u"] = 202
    edited = base64.urlsafe_b64encode(json.dumps(body).encode()).rstrip(b"=").decode()
    assert reason(f"{head}.{edited}.{mac}") == "forged"
    # another grant's signature on this payload
    other = sign(KEY, public_grant(4, "en")).split(".")[2]
    assert reason(f"{head}.{payload}.{other}") == "forged"


@pytest.mark.parametrize(
    "token",
    [
        "",
        "v1",
        "v1..",
        "v2.e30.AAAA",
        "v1.e30",
        "v1.@@@.AAAA",
        "v1.e30.AAAA.extra",
        "x" * (MAX_TOKEN_LENGTH + 1),
    ],
)
def test_malformed_tokens_are_refused(token: str) -> None:
    assert reason(token) == "malformed"


def test_a_signed_payload_of_a_wrong_shape_is_malformed() -> None:
    for body in ([1], {"g": "1", "u": None, "l": "en"}, {"g": 1, "u": "x", "l": "en"}, {"g": 1}):
        payload = base64.urlsafe_b64encode(json.dumps(body).encode()).rstrip(b"=").decode()
        import hashlib
        import hmac

        mac = hmac.new(KEY, f"v1.{payload}".encode(), hashlib.sha256).digest()
        token = f"v1.{payload}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"
        assert reason(token) == "malformed"


def test_the_secret_is_shared_by_every_process_of_one_bot() -> None:
    assert derive_secret("configured", "token") == b"configured"
    assert derive_secret("", "token") == derive_secret("", "token") != derive_secret("", "t2")
    assert derive_secret("", "") != derive_secret("", "")  # no token: this process's own


def test_board_links_name_the_page_with_a_verifiable_token() -> None:
    links = BoardLinks("https://ttr.example.org", KEY)
    url = links.private(5, 202, "de", NOW)
    assert url.startswith("https://ttr.example.org/b/v1.")
    assert verify(KEY, url.rsplit("/", 1)[1], NOW) == Grant(5, 202, "de", NOW + PRIVATE_TTL_S)
    assert verify(KEY, links.public(5, "en").rsplit("/", 1)[1], NOW).user_id is None
