"""Shared fixtures: real Postgres and NATS for integration and end-to-end tests.

``TAVOLA_DATABASE_URL`` / ``TAVOLA_NATS_URL`` are used when set; otherwise a private
Postgres and NATS (JetStream) are started under ``.tavola/test-infra`` on free loopback
ports for the session and stopped at its end (``tavola.infra.local``).

That Postgres runs in ``Durability.FAST`` (no fsync, no synchronous commit, no full-page
writes): test data is thrown away, so the suite trades durability for speed. This fixture is
the one place that asks for it; the platform itself is durable by default.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Iterator

import pytest

from tavola.infra.local import Durability, LocalInfra, create_database, drop_database


@pytest.fixture(scope="session")
def infra() -> Iterator[LocalInfra]:
    data_dir = os.path.join(".tavola", "test-infra")
    with LocalInfra.from_env_or_start(data_dir, durability=Durability.FAST) as running:
        yield running


@pytest.fixture(scope="session")
def database_url(infra: LocalInfra) -> str:
    """A server-level Postgres URL (tests create their own databases under it)."""
    return infra.database_url


@pytest.fixture(scope="session")
def nats_url(infra: LocalInfra) -> str:
    return infra.nats_url


@pytest.fixture
async def fresh_database(database_url: str) -> AsyncIterator[str]:
    """A new empty database for one test, dropped afterwards; yields its URL."""
    name = f"tavola_test_{secrets.token_hex(6)}"
    url = await create_database(database_url, name)
    try:
        yield url
    finally:
        await drop_database(database_url, name)
