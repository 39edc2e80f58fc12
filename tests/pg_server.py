"""A throwaway PostgreSQL server for tests and benchmarks, from pip-installed binaries.

The binaries come from the ``pgserver`` wheel (PostgreSQL 16 for Linux and
macOS, in the ``test`` extra), so no system PostgreSQL is needed; set
``TTR_PG_BIN`` to use another ``bin`` folder. The server listens on a Unix
socket in a temporary folder only. PostgreSQL refuses to run as root: when
the tests run as root, ``initdb`` and ``postgres`` run as the unprivileged
user ``nobody`` (from a copy of the binaries it can read, when needed).

``TTR_TEST_POSTGRES_URL`` (a ``postgresql://`` URL of a server you run) makes
:func:`shared_server` use that server instead of starting one.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

#: Settings for a test server: fast and throwaway (no fsync).
FAST = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "64MB",
    "max_connections": "300",
}
#: Settings for benchmarks: durable commits, as an operator would run it.
DURABLE = {
    "shared_buffers": "256MB",
    "max_connections": "300",
    "wal_buffers": "16MB",
    "max_wal_size": "2GB",
    "checkpoint_timeout": "15min",
}
UNPRIVILEGED = "nobody"


class ServerUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def find_binaries() -> Path:
    """The ``bin`` folder with ``initdb``, ``pg_ctl`` and ``postgres``.

    Raises:
        ServerUnavailable: neither ``TTR_PG_BIN`` nor the pgserver wheel has them.
    """
    override = os.environ.get("TTR_PG_BIN")
    if override:
        candidates = [Path(override)]
    else:
        spec = importlib.util.find_spec("pgserver")
        if spec is None or not spec.submodule_search_locations:
            raise ServerUnavailable(
                "no PostgreSQL binaries: the 'pgserver' package is not installed "
                "(pip install -e '.[test]') and TTR_PG_BIN is not set"
            )
        candidates = [Path(p) / "pginstall" / "bin" for p in spec.submodule_search_locations]
    for folder in candidates:
        if (folder / "postgres").exists() and (folder / "initdb").exists():
            return folder
    raise ServerUnavailable(f"no postgres/initdb binaries in {[str(c) for c in candidates]}")


def _world_readable(path: Path) -> bool:
    """True when every folder up to ``path`` lets others in and ``path`` is readable."""
    try:
        for part in [path, *path.parents]:
            mode = part.stat().st_mode
            if not mode & 0o005:
                return False
    except OSError:
        return False
    return True


def _shared_library_folders(install: Path) -> list[Path]:
    """The folders of shared libraries an installation's programs load from outside it.

    A wheel repaired by auditwheel (pgserver's) keeps ``libpq`` and friends in
    ``<site-packages>/<package>.libs``, reached from ``bin`` by the RPATH
    ``$ORIGIN/../../../<package>.libs``: a copy of the installation alone
    cannot start ``initdb``. These are the ``*.libs`` folders beside the
    installation's package folder.
    """
    package = install.parent
    return sorted(p for p in package.parent.glob("*.libs") if p.is_dir())


def _readable_copy(binaries: Path, target: Path) -> Path:
    """Copy the installation of ``binaries`` (``bin``, ``lib``, ``share``) and the shared
    libraries it loads from beside it (:func:`_shared_library_folders`) under ``target``,
    keeping their relative layout so the programs' RPATH still finds them; return the
    copy's ``bin``. For a checkout in a private folder (``mktemp -d`` is mode 0700) that
    the unprivileged user cannot enter."""
    install = binaries.parent
    copy = target / install.parent.name / install.name
    copy.mkdir(parents=True)
    for part in ("bin", "lib", "share"):
        if (install / part).is_dir():
            shutil.copytree(install / part, copy / part, symlinks=True)
    for libs in _shared_library_folders(install):
        shutil.copytree(libs, target / libs.name, symlinks=True)
    for folder in [target, *target.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o755)
    return copy / "bin"


class PostgresServer:
    """One ``postgres`` process on a Unix socket in a temporary folder.

    Use :meth:`start`, :meth:`url`, :meth:`create_database`, :meth:`stop`.
    """

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        self.settings = dict(FAST if settings is None else settings)
        self.root: Path | None = None
        self.socket_dir: Path | None = None
        self._bin: Path | None = None
        self._user: str | None = None
        self._names = itertools.count(1)

    # -- lifecycle ------------------------------------------------------------

    def start(self) -> PostgresServer:
        """initdb and start the server (a few seconds at most).

        Raises:
            ServerUnavailable: binaries missing, or initdb/start failed (the
                log's tail in the message).
        """
        binaries = find_binaries()
        self.root = Path(tempfile.mkdtemp(prefix="ttr-pg-"))
        data, self.socket_dir = self.root / "data", self.root / "sock"
        self.socket_dir.mkdir()
        if os.geteuid() == 0:
            self._user = UNPRIVILEGED
            try:
                entry = pwd.getpwnam(UNPRIVILEGED)
            except KeyError:
                raise ServerUnavailable(
                    f"running as root and there is no user {UNPRIVILEGED!r} to run PostgreSQL as"
                ) from None
            self.root.chmod(0o755)
            if not _world_readable(binaries / "postgres"):
                binaries = _readable_copy(binaries, self.root / "pg")
            for path in (self.root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._bin = binaries
        self._run(
            "initdb",
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = " ".join(
            ["-h ''", f"-k {self.socket_dir}"] + [f"-c {k}={v}" for k, v in self.settings.items()]
        )
        self._run(
            "pg_ctl", "-D", str(data), "-o", options, "-l", str(self.root / "log"), "-w", "start"
        )
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        """Stop the server and delete its folder. Idempotent."""
        if self.root is None or self._bin is None:
            return
        root, self.root = self.root, None
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        assert self._bin is not None
        kwargs: dict[str, Any] = {}
        if self._user is not None:
            kwargs.update(user=self._user, group=pwd.getpwnam(self._user).pw_gid, extra_groups=[])
        env = {**os.environ, "LC_ALL": "C", "HOME": str(self.root)}
        try:
            subprocess.run(
                [str(self._bin / program), *args],
                check=True,
                capture_output=True,
                text=True,
                timeout=60,
                env=env,
                cwd=self.root,
                **kwargs,
            )
        except subprocess.CalledProcessError as exc:
            log = ""
            if self.root is not None and (self.root / "log").exists():
                log = (self.root / "log").read_text(errors="replace")[-1500:]
            raise ServerUnavailable(
                f"{program} failed ({exc.returncode}): {exc.stderr.strip()[-1500:]} {log}"
            ) from None
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ServerUnavailable(f"{program} could not run: {exc}") from None

    # -- databases ------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of ``database`` on this server (over the socket)."""
        assert self.socket_dir is not None, "start() the server first"
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    async def create_database(self, prefix: str = "ttr") -> str:
        """Create a new empty database; return its URL."""
        import asyncpg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        """Drop the database of ``url`` (closing its connections)."""
        import asyncpg

        name = url.rsplit("/", 1)[-1].split("?", 1)[0]
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


class ExternalServer(PostgresServer):
    """A server someone else runs (``TTR_TEST_POSTGRES_URL``); databases are
    created on it and dropped after each test."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self._url = url

    def start(self) -> PostgresServer:
        return self

    def stop(self) -> None:
        pass

    def url(self, database: str = "postgres") -> str:
        base, _, query = self._url.partition("?")
        head = base.rsplit("/", 1)[0]
        return f"{head}/{database}" + (f"?{query}" if query else "")


_shared: PostgresServer | None = None
_failure: str | None = None


def shared_server() -> PostgresServer:
    """The test session's server, started on first use (and stopped at exit).

    Raises:
        ServerUnavailable: it cannot start here (the reason is remembered, so
            later tests skip at once with the same reason).
    """
    global _shared, _failure
    if _failure is not None:
        raise ServerUnavailable(_failure)
    if _shared is None:
        external = os.environ.get("TTR_TEST_POSTGRES_URL")
        try:
            _shared = (ExternalServer(external) if external else PostgresServer()).start()
        except ServerUnavailable as exc:
            _failure = str(exc)
            raise
    return _shared
