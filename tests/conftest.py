"""Shared fixtures: real Postgres and NATS for integration and end-to-end tests.

``TAVOLA_DATABASE_URL`` / ``TAVOLA_NATS_URL`` are used when set; otherwise a private
Postgres and NATS (JetStream) are started under ``.tavola/test-infra`` on free loopback
ports for the session and stopped at its end (``tavola.infra.local``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Iterator

import pytest

from tavola.infra.local import LocalInfra, create_database, drop_database


@pytest.fixture(scope="session")
def infra() -> Iterator[LocalInfra]:
    with LocalInfra.from_env_or_start(data_dir=os.path.join(".tavola", "test-infra")) as running:
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
