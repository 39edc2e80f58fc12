"""Signed board links: who may see which game, in which language, until when.

A token is ``v1.<payload>.<signature>``: ``payload`` the base64url (no padding) of a compact
JSON object ``{"g": game_id, "u": user_id|null, "l": lang, "e": expires|null}`` and
``signature`` the base64url HMAC-SHA256 of ``v1.<payload>`` under the server's secret. It is
URL-safe and carries no secret of the game: only ids the reader was given. A public
(spectator) grant has ``user_id`` None and no expiry (it stands under the public turn
message); a private grant ("My board", the reader's own hand and tickets) names its Discord
user and expires after :data:`PRIVATE_TTL_S` (the Discord panel makes a fresh one each time).

The secret is ``TTR_WEB_SECRET``, or derived from the bot's Discord token when that is unset
(:func:`derive_secret`): every process of the bot has the token, so they all sign and verify
alike without storing anything, and a new token (a leaked one replaced) ends every old link.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

#: The token grammar's version (the first part of every token).
VERSION = "v1"
#: How long a private ("My board") link works (seconds): 2 hours.
PRIVATE_TTL_S = 2 * 3600.0
#: The longest token read (a real one is about 120 characters).
MAX_TOKEN_LENGTH = 512
#: The languages a grant may name (the catalogs').
LANGS = frozenset({"en", "de"})


class TokenError(Exception):
    """A token that grants nothing. ``reason``: ``malformed`` (not a token of this grammar),
    ``forged`` (the signature does not match: another key, or an edited payload) or
    ``expired`` (a private link older than :data:`PRIVATE_TTL_S`)."""

    def __init__(self, reason: str, lang: str = "en") -> None:
        super().__init__(reason)
        self.reason = reason
        #: The language of an authentic but expired grant (else English): to say it in.
        self.lang = lang


@dataclass(frozen=True, slots=True)
class Grant:
    """What a link lets its reader see.

    Attributes:
        game_id: the game.
        user_id: the Discord user whose seat the page shows privately (None: the public view).
        lang: the page's language (``en`` or ``de``).
        expires: unix seconds after which the link is refused (None: never).
    """

    game_id: int
    user_id: int | None
    lang: str
    expires: float | None

    @property
    def private(self) -> bool:
        """True when the grant names a user (it may show that user's hand and tickets)."""
        return self.user_id is not None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    if not text or any(c not in _ALPHABET for c in text):
        raise TokenError("malformed")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise TokenError("malformed") from None


_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _mac(secret: bytes, signed: str) -> bytes:
    return hmac.new(secret, signed.encode("ascii"), hashlib.sha256).digest()


def sign(secret: bytes, grant: Grant) -> str:
    """The token of ``grant`` under ``secret`` (see the module docstring)."""
    body: dict[str, Any] = {"g": grant.game_id, "u": grant.user_id, "l": grant.lang}
    body["e"] = None if grant.expires is None else int(grant.expires)
    payload = _b64(json.dumps(body, separators=(",", ":")).encode("utf-8"))
    signed = f"{VERSION}.{payload}"
    return f"{signed}.{_b64(_mac(secret, signed))}"


def verify(secret: bytes, token: str, now: float) -> Grant:
    """The grant of ``token`` if it was signed with ``secret`` and has not expired at ``now``
    (unix seconds). The signature is checked before the payload is read.

    Raises:
        TokenError: ``malformed``, ``forged`` or ``expired``.
    """
    if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH:
        raise TokenError("malformed")
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != VERSION:
        raise TokenError("malformed")
    mac = _unb64(parts[2])
    raw = _unb64(parts[1])
    if not hmac.compare_digest(mac, _mac(secret, f"{parts[0]}.{parts[1]}")):
        raise TokenError("forged")
    grant = _grant(raw)
    if grant.expires is not None and now >= grant.expires:
        raise TokenError("expired", grant.lang)
    return grant


def _grant(raw: bytes) -> Grant:
    """The grant of a signed payload (a payload of a wrong shape is ``malformed``)."""
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        raise TokenError("malformed") from None
    if not isinstance(body, dict):
        raise TokenError("malformed")
    game, user, lang, expires = body.get("g"), body.get("u"), body.get("l"), body.get("e")
    if type(game) is not int or game <= 0 or lang not in LANGS:
        raise TokenError("malformed")
    if user is not None and type(user) is not int:
        raise TokenError("malformed")
    if expires is not None and type(expires) is not int:
        raise TokenError("malformed")
    return Grant(game, user, lang, None if expires is None else float(expires))


def public_grant(game_id: int, lang: str) -> Grant:
    """The spectator's link of a game: no user, no expiry."""
    return Grant(game_id, None, lang if lang in LANGS else "en", None)


def private_grant(game_id: int, user_id: int, lang: str, now: float) -> Grant:
    """A player's own link ("My board"): their seat's hand and tickets, for :data:`PRIVATE_TTL_S`."""
    return Grant(game_id, user_id, lang if lang in LANGS else "en", now + PRIVATE_TTL_S)


def derive_secret(configured: str, discord_token: str) -> bytes:
    """The signing key: ``TTR_WEB_SECRET`` when set; else a key derived from the Discord token
    (the same in every process of the bot, see the module docstring); else (no token: tests,
    the demo) a random key of this process."""
    if configured:
        return configured.encode("utf-8")
    if discord_token:
        return hmac.new(discord_token.encode("utf-8"), b"ttrbot live board v1", "sha256").digest()
    return secrets.token_bytes(32)


@dataclass(frozen=True, slots=True)
class BoardLinks:
    """The board links of one bot: its public base URL and its signing key.

    Attributes:
        base: the public base URL without a trailing ``/`` (``TTR_WEB_URL``).
        secret: the signing key (:func:`derive_secret`).
    """

    base: str
    secret: bytes

    def url(self, grant: Grant) -> str:
        """The page of ``grant``: ``<base>/b/<token>``."""
        return f"{self.base}/b/{sign(self.secret, grant)}"

    def public(self, game_id: int, lang: str) -> str:
        """The spectator's page of a game (the Live board button)."""
        return self.url(public_grant(game_id, lang))

    def private(self, game_id: int, user_id: int, lang: str, now: float) -> str:
        """A player's own page (the My board button), valid for :data:`PRIVATE_TTL_S`."""
        return self.url(private_grant(game_id, user_id, lang, now))


__all__ = [
    "BoardLinks",
    "MAX_TOKEN_LENGTH",
    "PRIVATE_TTL_S",
    "Grant",
    "TokenError",
    "derive_secret",
    "private_grant",
    "public_grant",
    "sign",
    "verify",
]
