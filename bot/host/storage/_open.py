"""Choose and open a backend from a database URL or a path."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from ._errors import StorageUnavailable
from ._interface import Storage

Clock = Callable[[], float]

#: The URL schemes :func:`open_storage` understands.
SCHEMES = ("sqlite", "postgresql", "postgres")


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///relative/path`` or ``sqlite:////absolute/path`` URL.

    Raises:
        ValueError: not a sqlite URL, or no path in it.
    """
    if not url.startswith("sqlite://"):
        raise ValueError(f"not a sqlite:// URL: {url!r}")
    rest = url[len("sqlite://") :]
    if not rest.startswith("/") or len(rest) < 2:
        raise ValueError(f"a sqlite URL is sqlite:///relative/path or sqlite:////abs/path: {url!r}")
    return Path(rest[1:])


def database_url(target: str | Path) -> str:
    """``target`` as a URL: paths become ``sqlite:///PATH``; URLs stay.

    Raises:
        ValueError: a URL with a scheme other than sqlite or postgresql.
    """
    if isinstance(target, Path):
        return f"sqlite:///{target}"
    if "://" not in target:
        return f"sqlite:///{target}"
    scheme = target.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        raise ValueError(
            f"unknown database URL scheme {scheme!r}: use sqlite:///PATH or postgresql://..."
        )
    return target


async def open_storage(
    target: str | Path,
    *,
    clock: Clock = time.time,
    busy_timeout_ms: int = 5_000,
    pool_size: int = 10,
) -> Storage:
    """Open the database ``target`` and bring its schema up to date.

    ``target`` is a path (SQLite), ``sqlite:///relative/path``,
    ``sqlite:////absolute/path`` or ``postgresql://user:password@host:port/db``
    (asyncpg; ``pool_size`` connections at most). ``clock`` returns unix
    seconds and stamps every row. ``busy_timeout_ms``: how long SQLite waits
    for another process's write lock.

    Raises:
        StorageUnavailable: the database cannot be opened or reached (one line
            for the operator: a directory, not a database, no permission, the
            server down, asyncpg missing, an unknown URL scheme).
        StorageError: a SQLite file that cannot use WAL (e.g. ``":memory:"``).
        MigrationError: a migration failed or the database is newer than the code.
    """
    try:
        url = database_url(target)
    except ValueError as exc:
        raise StorageUnavailable(str(exc)) from None
    if url.startswith("sqlite://"):
        from ._sqlite import open_sqlite

        try:
            path = sqlite_path(url)
        except ValueError as exc:
            raise StorageUnavailable(str(exc)) from None
        return await open_sqlite(path, clock=clock, busy_timeout_ms=busy_timeout_ms)
    from ._postgres import open_postgres

    return await open_postgres(url, clock=clock, pool_size=pool_size)
