"""The test PostgreSQL server starts from any checkout folder, and CI never passes with the
PostgreSQL suite skipped."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg_server import PostgresServer, find_binaries

ROOT = Path(__file__).resolve().parents[1]


def _private_installation(tmp_path: Path) -> Path:
    """The pgserver wheel's layout (``site/pgserver/pginstall/{bin,lib,share}`` and
    ``site/pgserver.libs``) inside a folder of mode 0700, as a ``mktemp -d`` checkout holds
    its ``.venv``; returns the copy's ``bin``."""
    real = find_binaries().parent  # .../site-packages/pgserver/pginstall
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    site = private / "site"
    install = site / real.parent.name / real.name
    for part in ("bin", "lib", "share"):
        shutil.copytree(real / part, install / part, symlinks=True)
    libs = sorted(real.parent.parent.glob("*.libs"))
    assert libs, f"the pgserver wheel keeps its shared libraries beside {real.parent}"
    for folder in libs:
        shutil.copytree(folder, site / folder.name, symlinks=True)
    return install / "bin"


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="only root copies the binaries for the unprivileged user",
)
def test_server_starts_from_a_private_checkout_as_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root, from binaries under a 0700 folder (which user ``nobody`` cannot enter), the
    server copies what it needs, shared libraries included, and starts."""
    monkeypatch.setenv("TTR_PG_BIN", str(_private_installation(tmp_path)))
    server = PostgresServer().start()
    try:

        async def ask() -> int:
            import asyncpg

            conn = await asyncpg.connect(server.url())
            try:
                return int(await conn.fetchval("SELECT 41 + 1"))
            finally:
                await conn.close()

        assert asyncio.run(ask()) == 42
    finally:
        server.stop()


def _one_postgres_test(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One PostgreSQL storage test in a child pytest, where no server can start."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rs",
            "tests/storage/test_postgres.py",
            "-k",
            "newer_database_is_refused",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_skipped_postgres_test_fails_under_ci() -> None:
    """Without a server the PostgreSQL tests skip on a developer's machine and fail with
    ``CI=true``, naming the reason."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "TTR_TEST_POSTGRES_URL")}
    env["TTR_PG_BIN"] = str(ROOT / "no-such-postgres-bin")
    local = _one_postgres_test(env)
    assert local.returncode == 0, local.stdout + local.stderr
    assert "1 skipped" in local.stdout and "failed" not in local.stdout, local.stdout
    ci = _one_postgres_test({**env, "CI": "true"})
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert (
        "1 error" in ci.stdout
        and "CI=true" in ci.stdout
        and "no PostgreSQL server can start" in ci.stdout
    ), ci.stdout
