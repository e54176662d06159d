"""The hash chain's canonical encoding is pinned, so third-party verifiers can rely on it."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest

from tavola.eventlog.chain import GENESIS_HASH, canonical_timestamp, event_hash
from tavola.eventlog.contract import SteppingClock, a_stream, events
from tavola.eventlog.memory import InMemoryEventStore
from tavola.eventlog.migrate import shipped_migrations
from tavola.eventlog.model import Cursor, NewEvent, seal
from tavola.eventlog.subscribe import tail

EXAMPLE = {
    "prev_hash": GENESIS_HASH,
    "stream_id": "match-00000000-0000-0000-0000-000000000001",
    "version": 1,
    "event_id": UUID("00000000-0000-0000-0000-0000000000aa"),
    "type": "fan-tan.CardPlayed",
    "schema_version": 1,
    "rules_version": 2,
    "payload": b"\x08\x07",
    "audience": (0, 2),
    "metadata": b'{"seat":0}',
    "recorded_at": datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
}
# Also quoted in docs/eventlog.md as the worked example for third-party verifiers.
PINNED_EXAMPLE_HASH = "761a1ade97063c87a61e2b307894ea8493d929b9fb216d74af44d5da96a61cfa"


def test_the_documented_encoding_of_an_example_event_hashes_to_the_pinned_value() -> None:
    def blob(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    def i64(value: int) -> bytes:
        return value.to_bytes(8, "big", signed=True)

    message = b"".join(
        [
            blob(b"tavola.eventlog.chain.v1"),
            blob(bytes(32)),
            blob(b"match-00000000-0000-0000-0000-000000000001"),
            i64(1),
            blob(UUID("00000000-0000-0000-0000-0000000000aa").bytes),
            blob(b"fan-tan.CardPlayed"),
            i64(1),
            i64(2),
            blob(b"\x08\x07"),
            b"\x01" + (2).to_bytes(4, "big") + i64(0) + i64(2),
            blob(b'{"seat":0}'),
            blob(b"2025-01-02T03:04:05.000006+00:00"),
        ]
    )
    expected = hashlib.sha256(message).digest()
    assert event_hash(**EXAMPLE) == expected  # type: ignore[arg-type]
    assert expected.hex() == PINNED_EXAMPLE_HASH


def test_a_public_event_and_one_with_an_empty_audience_hash_differently() -> None:
    public = event_hash(**{**EXAMPLE, "audience": None})  # type: ignore[arg-type]
    nobody = event_hash(**{**EXAMPLE, "audience": ()})  # type: ignore[arg-type]
    assert public != nobody


def test_timestamps_are_hashed_in_utc_whatever_their_offset() -> None:
    lisbon_summer = timezone(timedelta(hours=1))
    moment = datetime(2025, 7, 1, 13, 0, tzinfo=lisbon_summer)
    assert canonical_timestamp(moment) == "2025-07-01T12:00:00.000000+00:00"
    with pytest.raises(ValueError):
        canonical_timestamp(datetime(2025, 7, 1, 13, 0))


def test_seal_chains_a_batch_after_the_streams_head() -> None:
    batch = [NewEvent(UUID(int=n), "t", b"") for n in range(1, 4)]
    sealed = seal("s", 4, b"\x11" * 32, batch, datetime(2025, 1, 1, tzinfo=UTC))
    assert [s.version for s in sealed] == [5, 6, 7]
    assert sealed[0].prev_hash == b"\x11" * 32
    assert [s.prev_hash for s in sealed[1:]] == [s.hash for s in sealed[:-1]]


async def test_the_in_memory_cursor_is_synthetic_but_ordered() -> None:
    store = InMemoryEventStore(SteppingClock())
    result = await store.append(a_stream(), 0, events(2))
    assert [e.cursor for e in result.events] == [Cursor(1, 1), Cursor(2, 2)]


async def test_tail_wakes_up_early_when_told_that_an_append_committed() -> None:
    store = InMemoryEventStore(SteppingClock())
    wakeup = asyncio.Event()
    follower = tail(store, poll_interval=60, wakeup=wakeup)
    first = asyncio.ensure_future(anext(follower))
    await asyncio.sleep(0.01)
    await store.append(a_stream(), 0, events(1))
    wakeup.set()
    event = await asyncio.wait_for(first, timeout=5)
    assert event.version == 1
    await follower.aclose()


def test_migrations_are_shipped_numbered_from_one_without_gaps() -> None:
    migrations = shipped_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert "CREATE TABLE events" in migrations[0].sql
