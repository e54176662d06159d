"""Migrations are idempotent and safe to race; tracking and match secrets behave."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime

import asyncpg
import pytest

from tavola.eventlog.errors import MigrationError, TrackingConflict
from tavola.eventlog.match_secrets import (
    MatchSecretConflict,
    UnknownMatchSecret,
    load_match_secret,
    mark_revealed,
    store_match_secret,
)
from tavola.eventlog.migrate import migrate, shipped_migrations
from tavola.eventlog.model import Cursor
from tavola.eventlog.tracking import load_position, save_position

pytestmark = pytest.mark.integration

TABLES = {"events", "commands", "tracking", "match_secrets", "deal_groups", "schema_migrations"}


async def _tables(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return {row["tablename"] for row in rows}
    finally:
        await conn.close()


async def test_migrating_twice_applies_everything_once_and_then_nothing(
    fresh_database: str,
) -> None:
    shipped = [m.version for m in shipped_migrations()]
    assert await migrate(fresh_database) == shipped
    assert await migrate(fresh_database) == []
    assert await _tables(fresh_database) == TABLES


async def test_concurrent_migrations_apply_each_version_exactly_once(
    fresh_database: str,
) -> None:
    pool = await asyncpg.create_pool(fresh_database, min_size=1, max_size=4)
    try:
        applied = await asyncio.gather(*(migrate(pool) for _ in range(3)), migrate(fresh_database))
        versions = [version for run in applied for version in run]
        assert sorted(versions) == [m.version for m in shipped_migrations()]
        recorded = await pool.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [row["version"] for row in recorded] == sorted(versions)
    finally:
        await pool.close()


async def test_a_migration_edited_after_it_was_applied_is_refused(
    migrated_database: str,
) -> None:
    conn = await asyncpg.connect(migrated_database)
    try:
        await conn.execute("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1")
    finally:
        await conn.close()
    with pytest.raises(MigrationError, match="0001"):
        await migrate(migrated_database)


async def test_a_consumer_position_is_saved_with_its_transaction_and_only_moves_forward(
    pool: asyncpg.Pool,
) -> None:
    assert await load_position(pool, "standings") == Cursor.START
    async with pool.acquire() as conn:
        async with conn.transaction():
            await save_position(conn, "standings", Cursor(10, 3))
        with pytest.raises(RuntimeError):
            async with conn.transaction():
                await save_position(conn, "standings", Cursor(11, 9))
                raise RuntimeError("the projection's effects failed")
        assert await load_position(conn, "standings") == Cursor(10, 3)
        with pytest.raises(TrackingConflict):
            async with conn.transaction():
                await save_position(conn, "standings", Cursor(10, 3))
        async with conn.transaction():
            await save_position(conn, "standings", Cursor(11, 1))
    assert await load_position(pool, "standings") == Cursor(11, 1)


async def test_saving_a_position_outside_a_transaction_is_refused(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn:
        with pytest.raises(ValueError, match="transaction"):
            await save_position(conn, "relay", Cursor(1, 1))


async def test_a_match_secret_is_stored_read_and_marked_revealed(pool: asyncpg.Pool) -> None:
    seed = bytes(range(32))
    commitment = hashlib.sha256(seed).hexdigest()
    created = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    stored = await store_match_secret(pool, "match-1", seed, commitment, created)
    assert stored == await load_match_secret(pool, "match-1")
    assert (stored.seed, stored.commitment, stored.created_at, stored.revealed) == (
        seed,
        commitment,
        created,
        False,
    )
    assert await store_match_secret(pool, "match-1", seed, commitment, created) == stored
    with pytest.raises(MatchSecretConflict):
        await store_match_secret(pool, "match-1", b"other", commitment, created)
    assert (await mark_revealed(pool, "match-1")).revealed
    assert await load_match_secret(pool, "match-2") is None
    with pytest.raises(UnknownMatchSecret):
        await mark_revealed(pool, "match-2")
