"""Tailing the global order never misses an event committed out of order.

Eight writers append to their own streams while a reader tails ``read_all``; one writer
holds its transaction open after inserting, so rows with higher positions commit before
its own. The tailing reader must still receive every event exactly once, and a naive
"position > last seen" reader under the same load shows why that takes care.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar
from uuid import UUID

import asyncpg
import pytest

from tavola.eventlog.contract import SteppingClock, events
from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.eventlog.subscribe import tail

pytestmark = pytest.mark.integration
T = TypeVar("T")

FAST_WRITERS = 7
APPENDS_PER_WRITER = 25
SLOW_EVENTS = 5
SLOW_HOLD_SECONDS = 1.0
TOTAL = FAST_WRITERS * APPENDS_PER_WRITER * 2 + SLOW_EVENTS


@dataclass
class Load:
    """What the writers appended (event ids), and which of them the slow writer held back."""

    written: set[UUID] = field(default_factory=set)
    slow: set[UUID] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)


async def _slow_writer(
    store: PostgresEventStore, pool: asyncpg.Pool, load: Load, inserted: asyncio.Event
) -> None:
    async with pool.acquire() as conn, conn.transaction():
        result = await store.append_in(conn, "table-slow", 0, events(SLOW_EVENTS))
        inserted.set()
        await asyncio.sleep(SLOW_HOLD_SECONDS)  # rows are inserted but not yet committed
    ids = {event.event_id for event in result.events}
    load.written |= ids
    load.slow |= ids


async def _fast_writer(store: PostgresEventStore, n: int, load: Load) -> None:
    for version in range(0, APPENDS_PER_WRITER * 2, 2):
        result = await store.append(f"table-fast-{n}", version, events(2))
        load.written |= {event.event_id for event in result.events}
        await asyncio.sleep(0.002)


async def _run_load(store: PostgresEventStore, pool: asyncpg.Pool, load: Load) -> None:
    """The slow writer inserts first, then the fast ones write and commit around it."""
    inserted = asyncio.Event()
    slow = asyncio.create_task(_slow_writer(store, pool, load, inserted))
    await inserted.wait()
    await asyncio.gather(slow, *(_fast_writer(store, n, load) for n in range(FAST_WRITERS)))
    load.done.set()


async def _tailing_reader(
    store: PostgresEventStore, pool: asyncpg.Pool, load: Load
) -> list[StoredEvent]:
    """Tails until it has the expected total or 10 s after the load ended, then looks for
    stragglers (which would be duplicates) once more."""
    received: list[StoredEvent] = []

    async def follow() -> None:
        async for event in tail(store, poll_interval=0.02, batch_size=40):
            received.append(event)
            if len(received) >= TOTAL:
                return

    follower = asyncio.create_task(follow())
    await load.done.wait()
    done, _ = await asyncio.wait([follower], timeout=10)
    if not done:
        follower.cancel()
    await asyncio.gather(follower, return_exceptions=True)
    await asyncio.sleep(0.1)
    if received:
        received.extend(await store.read_all(received[-1].cursor))
    return received


async def _naive_reader(pool: asyncpg.Pool, load: Load) -> list[UUID]:
    """Follows the highest position seen — the classic mistake."""
    seen: list[UUID] = []
    last = 0
    while True:
        finished = load.done.is_set()
        rows = await pool.fetch(
            "SELECT position, event_id FROM events WHERE position > $1 ORDER BY position",
            last,
        )
        seen.extend(UUID(bytes=row["event_id"].bytes) for row in rows)
        last = max([last, *(row["position"] for row in rows)])
        if finished and not rows:
            return seen
        await asyncio.sleep(0.01)


async def _with_timeout(awaitable: Awaitable[T]) -> T:
    return await asyncio.wait_for(awaitable, timeout=60)


@pytest.fixture
def store(pool: asyncpg.Pool) -> PostgresEventStore:
    return PostgresEventStore(pool, SteppingClock())


async def test_a_tailing_reader_receives_every_event_exactly_once_despite_a_slow_commit(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    load = Load()
    reader = asyncio.create_task(_tailing_reader(store, pool, load))
    await _with_timeout(_run_load(store, pool, load))
    received = await _with_timeout(reader)

    ids = [event.event_id for event in received]
    assert len(load.written) == TOTAL
    assert len(ids) == len(set(ids)), "an event was delivered twice"
    assert set(ids) == load.written, f"missing: {len(load.written - set(ids))}"
    cursors = [event.cursor for event in received]
    assert cursors == sorted(cursors)


async def test_a_naive_position_reader_would_miss_the_slow_writers_events(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    load = Load()
    naive = asyncio.create_task(_naive_reader(pool, load))
    safe = asyncio.create_task(_tailing_reader(store, pool, load))
    await _with_timeout(_run_load(store, pool, load))
    naive_seen, safe_seen = await _with_timeout(asyncio.gather(naive, safe))

    assert {event.event_id for event in safe_seen} == load.written
    missed = load.written - set(naive_seen)
    if not missed:
        pytest.skip("the naive reader happened to miss nothing this run (timing); not a failure")
    # The trap is real: these events committed after a higher position had been read (the
    # slow writer's, and often some of the fast writers', which race one another too).
    assert set(naive_seen) < load.written
