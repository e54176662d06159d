"""Events appended with the platform's ids sort by id as they were written (their btree
index grows at its right edge), and the bench's figures for them are read off a real server:
a log filled to size, the WAL each append writes, a checkpoint before a window."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import asyncpg
import pytest

from tavola.benchmarks import database
from tavola.eventlog.contract import a_stream, events
from tavola.eventlog.ids import id_time_ms, time_ordered_ids
from tavola.eventlog.postgres import PostgresEventStore

pytestmark = pytest.mark.integration


def _store(pool: asyncpg.Pool) -> PostgresEventStore:
    return PostgresEventStore(pool, clock=lambda: datetime.now(UTC))


async def test_appended_events_sort_by_id_in_the_order_they_were_written(
    pool: asyncpg.Pool,
) -> None:
    new_id = time_ordered_ids()
    store = _store(pool)
    streams = [a_stream() for _ in range(3)]
    for round_ in range(4):
        for stream in streams:
            batch = [replace(e, event_id=new_id()) for e in events(2)]
            await store.append(stream, round_ * 2, batch)
    rows = await pool.fetch("SELECT event_id, position FROM events")
    assert len(rows) == 24
    assert [r["event_id"] for r in sorted(rows, key=lambda r: r["position"])] == sorted(
        r["event_id"] for r in rows
    )
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    assert all(r["event_id"].version == 7 for r in rows)
    assert all(now_ms - 60_000 <= id_time_ms(r["event_id"]) <= now_ms + 1 for r in rows)


async def test_the_bench_fills_a_log_and_reads_the_wal_an_append_writes(
    migrated_database: str,
) -> None:
    await database.fill_log(migrated_database, 1_200)
    conn = await asyncpg.connect(migrated_database)
    try:
        filled = await conn.fetchval("SELECT count(*) FROM events WHERE type = 'bench.Filled'")
        streams = await conn.fetchval("SELECT count(DISTINCT stream_id) FROM events")
        before = await database.wal_position(conn)
    finally:
        await conn.close()
    assert (filled, streams) == (1_200, 3)
    await database.checkpoint(migrated_database)  # True as a superuser; False otherwise
    for ids in (uuid.uuid4, time_ordered_ids()):
        rate = await database.append_rate(migrated_database, 2, 0.3, _store, new_id=ids)
        assert rate.count > 0 and rate.wal_bytes is not None
        assert rate.wal_per_step is not None and rate.wal_per_step > 0
    conn = await asyncpg.connect(migrated_database)
    try:
        assert await database.wal_position(conn) > before
    finally:
        await conn.close()
