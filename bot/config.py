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

log = logging.getLogger(__name__)

DEFAULT_DATABASE_PATH = "data/ttr.sqlite3"


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


def _int_or_none(name: str, raw: str | None) -> int | None:
    if raw is None or not raw.strip():
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise ValueError(f"{name} must be an integer id, got {raw!r}") from None


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment.

    Attributes:
        token: ``DISCORD_TOKEN`` (masked).
        database_path: ``TTR_DATABASE_PATH`` (default ``data/ttr.sqlite3``).
        dev_guild_id: ``TTR_DEV_GUILD_ID``: sync commands to this guild only (fast), else globally.
        log_level: ``TTR_LOG_LEVEL`` (default ``INFO``).
        api_base: ``DISCORD_API_BASE``: a REST base other than Discord's (tests: the fake).
        gateway_url: ``DISCORD_GATEWAY_URL``: a gateway other than Discord's.
        cdn_base: ``DISCORD_CDN_BASE``: a CDN other than Discord's.
        maps_dir: ``TTR_MAPS_DIR``: an extra folder of maps.
        heartbeat_path: ``TTR_HEARTBEAT_PATH`` (default: next to the database).
    """

    token: Secret = field(default_factory=lambda: Secret(""))
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    cdn_base: str | None = None
    maps_dir: Path | None = None
    heartbeat_path: Path | None = None

    @property
    def heartbeat_file(self) -> Path:
        """The file the running bot touches regularly (read by ``health``)."""
        return self.heartbeat_path or self.database_path.with_name(
            self.database_path.name + ".heartbeat"
        )

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
        return cls(
            token=Secret(get("DISCORD_TOKEN") or ""),
            database_path=Path(get("TTR_DATABASE_PATH") or DEFAULT_DATABASE_PATH),
            dev_guild_id=_int_or_none("TTR_DEV_GUILD_ID", get("TTR_DEV_GUILD_ID")),
            log_level=level,
            api_base=get("DISCORD_API_BASE"),
            gateway_url=get("DISCORD_GATEWAY_URL"),
            cdn_base=get("DISCORD_CDN_BASE"),
            maps_dir=Path(maps_dir) if maps_dir else None,
            heartbeat_path=Path(heartbeat) if heartbeat else None,
        )
