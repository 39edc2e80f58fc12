"""Typed, frozen settings read from the environment (and an optional ``.env`` file).

The Discord token is kept in a :class:`Secret` whose ``repr``/``str`` mask it,
so it never appears in logs, tracebacks or ``print(settings)``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.host.ai_workers import DEFAULT_MAX_MB as DEFAULT_AI_WORKER_MAX_MB
from bot.host.ai_workers import DEFAULT_WORKERS as DEFAULT_AI_WORKERS
from bot.host.storage import ShardFilter, database_url, sqlite_path

log = logging.getLogger(__name__)

DEFAULT_DATABASE_PATH = "data/ttr.sqlite3"
#: Where the heartbeat goes when the database is not a local file (PostgreSQL).
DEFAULT_HEARTBEAT_PATH = "data/ttr.heartbeat"
#: Days the data of a server that removed the bot is kept (``TTR_GUILD_RETENTION_DAYS``).
DEFAULT_GUILD_RETENTION_DAYS = 30
#: Where /metrics and /healthz listen by default: every IPv4 interface (a container's).
DEFAULT_METRICS_HOST = "0.0.0.0"
#: Where the live board's web server listens by default: every IPv4 interface.
DEFAULT_WEB_HOST = "0.0.0.0"


class Secret:
    """A string that never shows itself: ``repr`` and ``str`` print a mask."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        """The real value (pass it to the client, never to a log)."""
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('**********')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def read_env_file(path: Path) -> dict[str, str]:
    """Parse a ``.env`` file: ``KEY=value`` lines, ``#`` comments, optional quotes and ``export``."""
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return values
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        if key:
            values[key] = value
    return values


def parse_shard_ids(raw: str, count: int) -> tuple[int, ...]:
    """Shard ids from ``0-3``, ``4,5,6`` or ``0-1,8`` (ranges inclusive), sorted, each below ``count``.

    Raises:
        ValueError: not that form, an empty range, or an id outside ``0..count-1``.
    """
    ids: set[int] = set()
    for part in raw.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(f"TTR_SHARD_IDS must look like 0-3 or 0,2,5-7, got {raw!r}") from None
        if first > last:
            raise ValueError(f"TTR_SHARD_IDS: empty range {part!r}")
        ids.update(range(first, last + 1))
    bad = sorted(i for i in ids if not 0 <= i < count)
    if bad:
        raise ValueError(f"TTR_SHARD_IDS {bad} outside 0..{count - 1} (TTR_SHARD_COUNT={count})")
    return tuple(sorted(ids))


def _shards(
    count_raw: str | None, ids_raw: str | None
) -> tuple[int | None, tuple[int, ...] | None]:
    if count_raw is None:
        if ids_raw is not None:
            raise ValueError("TTR_SHARD_IDS needs TTR_SHARD_COUNT (the total number of shards)")
        return None, None
    count = _int_or_none("TTR_SHARD_COUNT", count_raw)
    if count is None or count < 1:
        raise ValueError(f"TTR_SHARD_COUNT must be a positive integer, got {count_raw!r}")
    ids = parse_shard_ids(ids_raw, count) if ids_raw is not None else tuple(range(count))
    return count, ids


def _count(name: str, raw: str | None, default: int) -> int:
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {raw!r}")
    return value


def _mib(name: str, raw: str | None, default: float) -> float:
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise ValueError(f"{name} must be a positive number of MiB, got {raw!r}")
    return value


def _port(name: str, raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        port = int(raw)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise ValueError(f"{name} must be a port number from 1 to 65535, got {raw!r}")
    return port


def _int_or_none(name: str, raw: str | None) -> int | None:
    if raw is None or not raw.strip():
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise ValueError(f"{name} must be an integer id, got {raw!r}") from None


def _web_url(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not raw.startswith(("http://", "https://")):
        raise ValueError(f"TTR_WEB_URL must start with http:// or https://, got {raw!r}")
    return raw.rstrip("/")


def _retention_days(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_GUILD_RETENTION_DAYS
    try:
        days = int(raw)
    except ValueError:
        days = -1
    if days < 0:
        raise ValueError(
            f"TTR_GUILD_RETENTION_DAYS must be a whole number of days (0 or more), got {raw!r}"
        )
    return days


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment.

    Attributes:
        token: ``DISCORD_TOKEN`` (masked).
        database_path: ``TTR_DATABASE_PATH`` (default ``data/ttr.sqlite3``); the
            file of a ``sqlite:///`` ``TTR_DATABASE_URL``.
        database_url: ``TTR_DATABASE_URL``: ``sqlite:///PATH`` or
            ``postgresql://user:password@host:port/db`` (default: the SQLite
            file ``database_path``). Never logged with its password.
        shard_count: ``TTR_SHARD_COUNT``: the bot's total number of Discord
            shards (None: one unsharded process serving every guild).
        shard_ids: ``TTR_SHARD_IDS`` (``0-3``, ``0,2,5-7``): the shards this
            process runs (default: all of ``shard_count``).
        dev_guild_id: ``TTR_DEV_GUILD_ID``: sync commands to this guild only (fast), else globally.
        log_level: ``TTR_LOG_LEVEL`` (default ``INFO``).
        api_base: ``DISCORD_API_BASE``: a REST base other than Discord's (tests: the fake).
        gateway_url: ``DISCORD_GATEWAY_URL``: a gateway other than Discord's.
        cdn_base: ``DISCORD_CDN_BASE``: a CDN other than Discord's.
        maps_dir: ``TTR_MAPS_DIR``: an extra folder of maps.
        heartbeat_path: ``TTR_HEARTBEAT_PATH`` (default: next to the database).
        ai_workers: ``TTR_AI_WORKERS``: processes that make the hard AI's decisions and the
            coach's hints and analyses (default 1; 0 makes the decisions in the bot process,
            whose memory then grows with play, and the coach's jobs in one process of its
            own; see the documentation's "Memory and the AI workers").
        ai_worker_max_mb: ``TTR_AI_WORKER_MAX_MB``: a worker above this resident size
            (MiB) is replaced after its job (default 64).
        guild_retention_days: ``TTR_GUILD_RETENTION_DAYS`` (default 30): how long the data of
            a server that removed the bot is kept (its games paused) before it is deleted.
        metrics_port: ``TTR_METRICS_PORT``: serve ``/metrics`` (Prometheus) and ``/healthz``
            over HTTP on this port (None: no HTTP server).
        metrics_host: ``TTR_METRICS_HOST``: the address that server listens on (default
            ``0.0.0.0``, every IPv4 interface, as a container needs; ``127.0.0.1``: this
            machine only).
        web_port: ``TTR_WEB_PORT``: serve the live board (``web/``) over HTTP on this port
            (None: no web server and no board links in Discord).
        web_host: ``TTR_WEB_HOST``: the address the live board listens on (default ``0.0.0.0``).
        web_url: ``TTR_WEB_URL``: the live board's public base URL, as players' browsers reach
            it (``https://ttr.example.org``; default ``http://localhost:PORT``).
        web_secret: ``TTR_WEB_SECRET`` (masked): the key that signs board links (HMAC-SHA256;
            default: a key derived from ``DISCORD_TOKEN``, the same in every process of the
            bot; a new Discord token then ends every link given before).
        client_id: ``DISCORD_CLIENT_ID``: the application's OAuth2 client id (the Developer
            Portal's OAuth2 page), for the Activity's sign-in.
        client_secret: ``DISCORD_CLIENT_SECRET`` (masked): the application's OAuth2 client
            secret. With ``client_id`` and ``TTR_WEB_PORT`` it makes the live board an Activity
            too (:attr:`activity_enabled`).
    """

    token: Secret = field(default_factory=lambda: Secret(""))
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    database_url: str | None = field(default=None, repr=False)  # may hold a password
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    cdn_base: str | None = None
    maps_dir: Path | None = None
    heartbeat_path: Path | None = None
    ai_workers: int = DEFAULT_AI_WORKERS
    ai_worker_max_mb: float = DEFAULT_AI_WORKER_MAX_MB
    guild_retention_days: int = DEFAULT_GUILD_RETENTION_DAYS
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    web_port: int | None = None
    web_host: str = DEFAULT_WEB_HOST
    web_url: str | None = None
    web_secret: Secret = field(default_factory=lambda: Secret(""))
    client_id: int | None = None
    client_secret: Secret = field(default_factory=lambda: Secret(""))

    @property
    def activity_enabled(self) -> bool:
        """True when the live board also runs as the application's Activity inside Discord:
        a web server (``TTR_WEB_PORT``) and the OAuth2 client (``DISCORD_CLIENT_ID``,
        ``DISCORD_CLIENT_SECRET``) to sign its users in."""
        return (
            self.web_port is not None
            and self.client_id is not None
            and bool(self.client_secret.get())
        )

    @property
    def web_base(self) -> str | None:
        """The live board's public base URL without a trailing ``/`` (None: no web server)."""
        if self.web_port is None:
            return None
        return (self.web_url or f"http://localhost:{self.web_port}").rstrip("/")

    @property
    def database(self) -> str:
        """The database to open: ``TTR_DATABASE_URL``, or ``sqlite:///`` + ``database_path``."""
        return self.database_url or f"sqlite:///{self.database_path}"

    @property
    def uses_sqlite(self) -> bool:
        """True when the database is a local SQLite file (``database_path``)."""
        return self.database.startswith("sqlite://")

    @property
    def shards(self) -> ShardFilter | None:
        """The shards this process serves, for the timer loop (None: all of them)."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        return ShardFilter(self.shard_count, frozenset(self.shard_ids))

    @property
    def shard_label(self) -> str:
        """The shards as logs show them: ``0-3/8``, ``2,5/8``, or ``-`` unsharded."""
        if self.shard_count is None or self.shard_ids is None:
            return "-"
        ids = list(self.shard_ids)
        if ids == list(range(ids[0], ids[-1] + 1)) and len(ids) > 1:
            return f"{ids[0]}-{ids[-1]}/{self.shard_count}"
        return f"{','.join(map(str, ids))}/{self.shard_count}"

    @property
    def heartbeat_file(self) -> Path:
        """The file the running bot touches regularly (read by ``health``)."""
        if self.heartbeat_path is not None:
            return self.heartbeat_path
        if not self.uses_sqlite:
            return Path(DEFAULT_HEARTBEAT_PATH)
        return self.database_path.with_name(self.database_path.name + ".heartbeat")

    @property
    def points_at_fake(self) -> bool:
        """True when REST or gateway is redirected (tests against a fake Discord)."""
        return bool(self.api_base or self.gateway_url)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, env_file: Path | str | None = ".env"
    ) -> Settings:
        """Build from ``environ`` (default ``os.environ``) over the values of ``env_file`` if it exists.

        Real environment variables win over the file. Raises ValueError for a bad id or log level.
        """
        values: dict[str, str] = {}
        if env_file is not None:
            values.update(read_env_file(Path(env_file)))
        values.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            raw = values.get(name)
            return raw.strip() if raw is not None and raw.strip() else None

        level = (get("TTR_LOG_LEVEL") or "INFO").upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"TTR_LOG_LEVEL must be a logging level name, got {level!r}")
        maps_dir = get("TTR_MAPS_DIR")
        heartbeat = get("TTR_HEARTBEAT_PATH")
        url = get("TTR_DATABASE_URL")
        path = Path(get("TTR_DATABASE_PATH") or DEFAULT_DATABASE_PATH)
        if url is not None:
            try:
                url = database_url(url)
                if url.startswith("sqlite://"):
                    path = sqlite_path(url)
            except ValueError as exc:
                raise ValueError(f"TTR_DATABASE_URL: {exc}") from None
        shard_count, shard_ids = _shards(get("TTR_SHARD_COUNT"), get("TTR_SHARD_IDS"))
        return cls(
            token=Secret(get("DISCORD_TOKEN") or ""),
            database_path=path,
            database_url=url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            dev_guild_id=_int_or_none("TTR_DEV_GUILD_ID", get("TTR_DEV_GUILD_ID")),
            log_level=level,
            api_base=get("DISCORD_API_BASE"),
            gateway_url=get("DISCORD_GATEWAY_URL"),
            cdn_base=get("DISCORD_CDN_BASE"),
            maps_dir=Path(maps_dir) if maps_dir else None,
            heartbeat_path=Path(heartbeat) if heartbeat else None,
            ai_workers=_count("TTR_AI_WORKERS", get("TTR_AI_WORKERS"), DEFAULT_AI_WORKERS),
            ai_worker_max_mb=_mib(
                "TTR_AI_WORKER_MAX_MB", get("TTR_AI_WORKER_MAX_MB"), DEFAULT_AI_WORKER_MAX_MB
            ),
            guild_retention_days=_retention_days(get("TTR_GUILD_RETENTION_DAYS")),
            metrics_port=_port("TTR_METRICS_PORT", get("TTR_METRICS_PORT")),
            metrics_host=get("TTR_METRICS_HOST") or DEFAULT_METRICS_HOST,
            web_port=_port("TTR_WEB_PORT", get("TTR_WEB_PORT")),
            web_host=get("TTR_WEB_HOST") or DEFAULT_WEB_HOST,
            web_url=_web_url(get("TTR_WEB_URL")),
            web_secret=Secret(get("TTR_WEB_SECRET") or ""),
            client_id=_int_or_none("DISCORD_CLIENT_ID", get("DISCORD_CLIENT_ID")),
            client_secret=Secret(get("DISCORD_CLIENT_SECRET") or ""),
        )
