"""pytest fixtures for a real PostgreSQL database per test (see tests/pg_server.py).

Import them into a conftest: ``from tests.pg_fixtures import postgres_url``.
A test that needs PostgreSQL skips with the reason only when no server can
start here (no binaries for this platform, no unprivileged user as root);
with ``CI=true`` in the environment (``.ci/run`` sets it) it fails instead, so
CI never passes with the PostgreSQL suite left out.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.pg_server import PostgresServer, ServerUnavailable, shared_server


@pytest.fixture
def postgres_server() -> PostgresServer:
    """The session's PostgreSQL server (skips the test when none can start; fails it under
    ``CI=true``)."""
    try:
        return shared_server()
    except ServerUnavailable as exc:
        reason = f"no PostgreSQL server can start here: {exc}"
        if in_ci():
            pytest.fail(f"{reason} (CI=true: a PostgreSQL test may not skip)", pytrace=False)
        pytest.skip(reason)


def in_ci() -> bool:
    """Whether the tests run in CI (``CI=true``, as ``.ci/run`` and most CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a new empty database, dropped after the test."""
    url = await postgres_server.create_database()
    try:
        yield url
    finally:
        await postgres_server.drop_database(url)
