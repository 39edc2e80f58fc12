"""Fixtures of the live board's tests: a real PostgreSQL database where one can start."""

from __future__ import annotations

from tests.pg_fixtures import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]
