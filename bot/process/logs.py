"""Logging of ``python -m bot run``: one line per record, and nothing private at any level.

Each line carries the time, the level, this process's shards, the game it is
about (``game=-`` when none), the logger and the message; with
``TTR_LOG_FORMAT=json`` each line is one JSON object with the same fields.

**Nothing private in any line** (hands, tickets kept or offered, the deck's
order, the seed). The bot's own code never logs them; the libraries would:
at DEBUG, discord.py copies every REST request's body and every gateway
event (ephemeral replies with a player's tickets included) into its lines,
and aiosqlite every SQL statement with its parameters (snapshots, action
log). So:

- aiosqlite, asyncpg, Pillow, asyncio, aiohttp and websockets are held at
  INFO whatever ``TTR_LOG_LEVEL`` says (:data:`QUIET`);
- every record of a library (any logger outside the bot's packages) passes
  :class:`LibraryPrivacy` on its way out: a DEBUG line keeps its shape (a
  request's method, route and status; a gateway event's op and type) but
  never a payload: mappings, lists, bytes and long or structured strings
  among its arguments become ``<... hidden>``; interaction and webhook
  tokens in URLs become ``<token>`` at every level.

Connecting to Discord logs one line per attempt (:mod:`bot.discord_app.connect`).

``tests/cogs/test_log_privacy.py`` plays a game at DEBUG through the fake
Discord and searches every line for every seat's tickets, hand, the deck's
order and the seed.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Mapping
from typing import IO, Any

log = logging.getLogger(__name__)

#: Loggers of the bot's own packages (their lines are written to hold nothing private).
OWN = ("bot", "cogs", "engine", "render", "maps", "words", "sentences", "benchmarks", "__main__")
#: Libraries whose DEBUG output is payloads or noise: never below INFO.
QUIET = ("aiosqlite", "asyncpg", "PIL", "asyncio", "aiohttp", "websockets", "urllib3")
#: The longest library argument kept as it is (after tokens are masked).
MAX_ARG = 120

_TOKEN = re.compile(r"(/(?:webhooks|interactions)/[0-9]+/)[^/\s?'\"]+")
_STRUCTURED = re.compile(r"[{}\[\]\"]")


class GameContext(logging.Filter):
    """Adds ``shard`` (this process's shards) and ``game`` (the game id a line is about:
    ``extra={"game": id}``, or the id of a message that starts ``game %s``) to every record."""

    def __init__(self, shard: str) -> None:
        super().__init__()
        self.shard = shard

    def filter(self, record: logging.LogRecord) -> bool:
        record.shard = self.shard
        if not hasattr(record, "game"):
            args = record.args
            first = args[0] if isinstance(args, tuple) and args else None
            is_game_line = isinstance(record.msg, str) and record.msg.startswith("game %s")
            record.game = first if is_game_line and isinstance(first, int) else "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, shard, game, logger, message (and the traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname,
            "shard": getattr(record, "shard", "-"),
            "game": getattr(record, "game", "-"),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            doc["traceback"] = self.formatException(record.exc_info)
        return json.dumps(doc, ensure_ascii=False)


def mask_tokens(text: str) -> str:
    """``text`` with interaction and webhook tokens in URLs replaced by ``<token>``."""
    return _TOKEN.sub(r"\1<token>", text)


def is_own(name: str) -> bool:
    """Whether logger ``name`` belongs to the bot's own packages."""
    return name.split(".", 1)[0] in OWN


def safe_arg(arg: Any) -> Any:
    """A library log argument without payload: numbers and short plain strings stay (tokens
    masked); a gateway event becomes its op and type; anything else ``<type hidden>``."""
    if arg is None or isinstance(arg, bool | int | float):
        return arg
    if isinstance(arg, Mapping):
        if "op" in arg:
            return f"<gateway op={arg.get('op')} t={arg.get('t')} s={arg.get('s')}>"
        return f"<{len(arg)} keys hidden>"
    if isinstance(arg, bytes | bytearray | memoryview):
        return f"<{len(arg)} bytes hidden>"
    if isinstance(arg, BaseException):
        return f"{type(arg).__name__}: {safe_arg(str(arg))}"
    text = mask_tokens(str(arg)) if isinstance(arg, str) or _is_url(arg) else None
    if text is not None and len(text) <= MAX_ARG and not _STRUCTURED.search(text):
        return text
    if text is not None:
        return f"<{len(text)} characters hidden>"
    return f"<{type(arg).__name__} hidden>"


def _is_url(arg: Any) -> bool:
    return type(arg).__name__ == "URL"  # yarl.URL, without importing it


class LibraryPrivacy(logging.Filter):
    """Takes every payload out of the records of libraries (see the module docstring); the bot's
    own records pass unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        if is_own(record.name):
            return True
        if record.args:
            args = record.args
            if isinstance(args, Mapping) and "%(" in str(record.msg):  # "%(key)s" formatting
                record.args = {k: safe_arg(v) for k, v in args.items()}
            elif isinstance(args, Mapping):  # one mapping passed as the only argument
                record.args = (safe_arg(args),)
            else:
                record.args = tuple(safe_arg(a) for a in args)
        if isinstance(record.msg, str):
            msg = mask_tokens(record.msg)
            if record.levelno <= logging.DEBUG and not record.args and len(msg) > 2 * MAX_ARG:
                msg = f"<{len(msg)} characters of {record.name} debug output hidden>"
            record.msg = msg
        else:
            record.msg = safe_arg(record.msg)
        return True


class Repeats(logging.Filter):
    """Drops library lines that only repeat what the bot's own line says: discord.py's
    "logging in using static token", said on every attempt to connect (:mod:`bot.discord_app.connect`
    logs one line per attempt)."""

    DROPPED = frozenset({("discord.client", "logging in using static token")})

    def filter(self, record: logging.LogRecord) -> bool:
        return (record.name, record.msg) not in self.DROPPED


def describe(exc: BaseException | None) -> str:
    """A one-line cause for the log: the exception's type and message (tokens masked,
    shortened), or ``unknown``."""
    if exc is None:
        return "unknown"
    text = mask_tokens(" ".join(str(exc).split()))
    text = text if len(text) <= MAX_ARG else text[: MAX_ARG - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def install(
    level: str | int,
    *,
    shard: str = "-",
    json_lines: bool = False,
    stream: IO[str] | None = None,
) -> logging.Handler:
    """Log to ``stream`` (stderr) at ``level`` through the privacy filters, replacing the root
    logger's handlers; the :data:`QUIET` libraries never below INFO, discord.py's own chatter
    at INFO unless ``level`` is DEBUG. Returns the handler (tests remove it again)."""
    numeric = logging.getLevelName(level) if isinstance(level, str) else level
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(Repeats())
    handler.addFilter(LibraryPrivacy())
    handler.addFilter(GameContext(shard))
    handler.setFormatter(
        JsonFormatter()
        if json_lines
        else logging.Formatter(
            "%(asctime)s %(levelname)-7s shard=%(shard)s game=%(game)s %(name)s: %(message)s"
        )
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(numeric)
    for name in QUIET:
        logging.getLogger(name).setLevel(max(logging.INFO, numeric))
    logging.getLogger("discord").setLevel(
        numeric if numeric <= logging.DEBUG else max(logging.INFO, numeric)
    )
    return handler
