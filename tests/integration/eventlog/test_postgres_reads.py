"""What the Postgres store reads is what asyncpg decodes: a stream's events (their cursor,
id and timestamp made when first read) equal those the constructors make from the rows."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import asyncpg
import pytest

from tavola.eventlog.chain import verify_chain
from tavola.eventlog.contract import SteppingClock, a_stream, an_event, events
from tavola.eventlog.model import Cursor, StoredEvent
from tavola.eventlog.postgres import PostgresEventStore, _timestamptz

pytestmark = pytest.mark.integration


def constructed(row: asyncpg.Record) -> StoredEvent:
    audience = row["audience"]
    return StoredEvent(
        stream_id=row["stream_id"],
        version=row["version"],
        cursor=Cursor(row["tx"], row["position"]),
        event_id=UUID(int=row["event_id"].int),
        type=row["type"],
        schema_version=row["schema_version"],
        rules_version=row["rules_version"],
        payload=row["payload"],
        audience=None if audience is None else tuple(audience),
        metadata=row["metadata"],
        recorded_at=row["recorded_at"],
        prev_hash=row["prev_hash"],
        hash=row["hash"],
    )


async def test_a_streams_events_are_those_the_constructors_make_of_its_rows(
    pool: asyncpg.Pool,
) -> None:
    clock = SteppingClock(datetime(1999, 12, 31, 23, 59, 59, 999_990, tzinfo=UTC))
    store = PostgresEventStore(pool, clock)
    stream = a_stream()
    for version in range(0, 12, 3):
        batch = [*events(2), an_event(audience=(version % 4, 3), metadata=b"m")]
        await store.append(stream, version, batch)
    rows = await pool.fetch("SELECT * FROM events WHERE stream_id = $1 ORDER BY version", stream)
    expected = [constructed(row) for row in rows]
    assert any(e.audience is not None for e in expected)
    read = await store.read_stream(stream)
    assert read == expected and [vars(e) for e in read] == [vars(e) for e in expected]
    assert [e.cursor for e in await store.read_stream(stream)] == [e.cursor for e in expected]
    assert [hash(e) for e in await store.read_stream(stream)] == [hash(e) for e in expected]
    assert verify_chain(await store.read_stream(stream)) is None
    assert await store.read_stream(stream, 4, 5) == expected[4:9]
    assert await store.read_all(Cursor.START, 100) == expected


@pytest.mark.parametrize(
    "literal",
    [
        "infinity",
        "-infinity",
        "1999-12-31 23:59:59.999999+00",
        "2000-01-01 00:00:00+00",
        "0001-01-01 00:00:00+00",
        "9999-12-31 23:59:59.999999+00",
        "2026-06-01 12:34:56.123456+02",
    ],
)
async def test_a_sent_timestamp_reads_as_asyncpg_decodes_it(
    pool: asyncpg.Pool, literal: str
) -> None:
    decoded, sent = await pool.fetchrow(
        "SELECT $1::text::timestamptz, timestamptz_send($1::text::timestamptz)", literal
    )
    made = _timestamptz(sent)
    assert made == decoded and repr(made) == repr(decoded) and made.tzinfo is decoded.tzinfo
