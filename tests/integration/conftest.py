"""Fixtures for the Postgres event log: a migrated fresh database and a pool on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from tavola.eventlog.migrate import migrate


@pytest.fixture
async def migrated_database(fresh_database: str) -> str:
    await migrate(fresh_database)
    return fresh_database


@pytest.fixture
async def pool(migrated_database: str) -> AsyncIterator[asyncpg.Pool]:
    created = await asyncpg.create_pool(migrated_database, min_size=2, max_size=16)
    try:
        yield created
    finally:
        await created.close()
