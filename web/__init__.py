"""The live board: a web page per game that follows every move, served by the bot process.

A second presenter beside ``cogs/`` (see ``docs/contributors/live-board.md``): an aiohttp
app on the bot's own event loop (:mod:`web.server`), its page in ``web/static/``. It reads
games only through the game service (:mod:`bot.host.services`) and the same per-seat views
as Discord's replies; links are signed grants (:mod:`web.tokens`). It imports neither
discord nor the cogs.
"""

from __future__ import annotations

from .server import Limits, WebApp, WebServer
from .tokens import BoardLinks, Grant, TokenError, derive_secret, sign, verify

__all__ = [
    "BoardLinks",
    "Grant",
    "Limits",
    "TokenError",
    "WebApp",
    "WebServer",
    "derive_secret",
    "sign",
    "verify",
]
