"""pytest fixtures for a real PostgreSQL database per test (see tests/pg_server.py).

Import them into a conftest: ``from tests.pg_fixtures import postgres_url``.
A test that needs PostgreSQL skips with the reason only when no server can
start here (no binaries for this platform, no unprivileged user as root).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.pg_server import PostgresServer, ServerUnavailable, shared_server


@pytest.fixture
def postgres_server() -> PostgresServer:
    """The session's PostgreSQL server (skips the test when none can start)."""
    try:
        return shared_server()
    except ServerUnavailable as exc:
        pytest.skip(f"no PostgreSQL server can start here: {exc}")


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a new empty database, dropped after the test."""
    url = await postgres_server.create_database()
    try:
        yield url
    finally:
        await postgres_server.drop_database(url)
