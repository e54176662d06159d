"""Postgres in the bench: the settings in force, the raw anchor and the event log's rate.

The anchor is what Postgres itself does on this machine: one asyncpg connection per writer,
each running ``INSERT`` of one row per commit (autocommit) as fast as it can. The event
log's figure is the store the engine uses, appending one-event batches with a command id to
one stream per writer, over the same connections count and the same window.
"""

from __future__ import annotations

import asyncio
import itertools
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg

from tavola.eventlog.ids import time_ordered_ids
from tavola.eventlog.model import EventStore, NewEvent
from tavola.eventlog.postgres import create_pool

SETTINGS = (
    "server_version",
    "fsync",
    "synchronous_commit",
    "full_page_writes",
    "wal_sync_method",
    "commit_delay",
    "shared_buffers",
)
PAYLOAD = bytes(range(96))  # about a move's payload and metadata
METADATA = bytes(48)


async def settings(url: str) -> dict[str, str]:
    """The settings that decide what a commit costs (and survives)."""
    conn = await asyncpg.connect(url)
    try:
        return {name: str(await conn.fetchval(f"SHOW {name}")) for name in SETTINGS}
    finally:
        await conn.close()


def durable(found: dict[str, str]) -> bool:
    return found.get("fsync") == "on" and found.get("synchronous_commit") == "on"


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: float
    wal_bytes: int | None = None  # the server's WAL written while the window was open

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    @property
    def wal_per_step(self) -> float | None:
        if self.wal_bytes is None or not self.count:
            return None
        return self.wal_bytes / self.count


async def wal_position(conn: asyncpg.Connection) -> int:
    """Where the server's write-ahead log is, in bytes (every database on it writes there)."""
    return int(await conn.fetchval("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"))


async def windowed(
    workers: int,
    step: Callable[[int], Awaitable[None]],
    seconds: float,
    warmup: float = 0.5,
    wal_url: str | None = None,
) -> Rate:
    """Run ``workers`` loops of ``step(worker)``; count the steps completed in the window
    that opens after ``warmup`` (and, with ``wal_url``, the WAL the server wrote in it, read
    on a connection of its own)."""
    reader = await asyncpg.connect(wal_url) if wal_url else None
    try:
        return await _windowed(workers, step, seconds, warmup, reader)
    finally:
        if reader is not None:
            await reader.close()


async def _windowed(
    workers: int,
    step: Callable[[int], Awaitable[None]],
    seconds: float,
    warmup: float,
    reader: asyncpg.Connection | None,
) -> Rate:
    counted = 0
    counting = False
    stop = False

    async def loop(worker: int) -> None:
        nonlocal counted
        while not stop:
            await step(worker)
            if counting:
                counted += 1

    tasks = [asyncio.create_task(loop(w)) for w in range(workers)]
    try:
        await asyncio.sleep(warmup)
        wal_before = await wal_position(reader) if reader is not None else None
        counting, started = True, time.perf_counter()
        await asyncio.sleep(seconds)
        counting, elapsed = False, time.perf_counter() - started
        total = counted
        wal_after = await wal_position(reader) if reader is not None else None
    finally:
        stop = True
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:
        if task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    wal = None if wal_before is None or wal_after is None else wal_after - wal_before
    return Rate(total, elapsed, wal)


async def raw_rate(url: str, connections: int, seconds: float) -> Rate:
    """One-row INSERT per commit, ``connections`` at once: what Postgres does here."""
    pool = await asyncpg.create_pool(url, min_size=connections, max_size=connections)
    assert pool is not None
    try:
        await pool.execute(
            "CREATE TABLE IF NOT EXISTS bench_raw (id bigint GENERATED ALWAYS AS IDENTITY "
            "PRIMARY KEY, stream text NOT NULL, payload bytea NOT NULL)"
        )
        held = [await pool.acquire() for _ in range(connections)]
        try:

            async def insert(worker: int) -> None:
                await held[worker].execute(
                    "INSERT INTO bench_raw (stream, payload) VALUES ($1, $2)", f"w{worker}", PAYLOAD
                )

            return await windowed(connections, insert, seconds, wal_url=url)
        finally:
            for conn in held:
                await pool.release(conn)
    finally:
        await pool.close()


StoreFactory = Callable[[asyncpg.Pool], EventStore]


async def append_rate(
    url: str,
    writers: int,
    seconds: float,
    store_for: StoreFactory,
    new_id: Callable[[], uuid.UUID] | None = None,
) -> Rate:
    """One-event appends with a command id, each writer on its own stream, ``writers`` at once
    over as many connections (the engine's store: see ``store_for``; its ids: ``new_id``,
    by default the engine's, ``tavola.eventlog.ids``)."""
    pool = await create_pool(url, min_size=min(writers, 8), max_size=writers)
    store = store_for(pool)
    run = uuid.uuid4().hex[:8]
    versions = [0] * writers
    ids = itertools.count()
    new_id = new_id or time_ordered_ids()
    try:

        async def append(worker: int) -> None:
            version = versions[worker]
            event = NewEvent(new_id(), "bench.Appended", PAYLOAD, metadata=METADATA)
            await store.append(
                f"bench-{run}-{worker}",
                version,
                [event],
                command_id=f"c/{next(ids)}",
                command_result=b"ok",
            )
            versions[worker] = version + 1

        return await windowed(writers, append, seconds, wal_url=url)
    finally:
        closing = getattr(store, "aclose", None)
        if closing is not None:
            await closing()
        await pool.close()


def clock() -> datetime:
    return datetime.now(UTC)


async def fill_log(url: str, events: int) -> None:
    """``events`` rows in the log's ``events`` table, 500 a stream, each with a random
    (version 4) id as a log written before version 7 ids would hold: the indexes a new
    append goes into are then the size of a real league's log (the rows are the right
    shape, not a valid chain: only the bench's own database gets them)."""
    conn = await asyncpg.connect(url)
    try:
        for start in range(0, events, 1_000_000):
            await conn.execute(
                "INSERT INTO events (stream_id, version, event_id, type, schema_version,"
                " rules_version, payload, metadata, recorded_at, prev_hash, hash)"
                " SELECT 'filled-' || (g / 500), g % 500 + 1, gen_random_uuid(), 'bench.Filled',"
                " 1, 1, $3, $4, now(), $5, $5 FROM generate_series($1::bigint, $2::bigint) g",
                start,
                min(events, start + 1_000_000) - 1,
                PAYLOAD,
                METADATA,
                bytes(32),
            )
    finally:
        await conn.close()


async def checkpoint(url: str) -> bool:
    """A checkpoint now (False if this role may not ask for one): what every index page's
    first change after it costs is then a whole page in the WAL, as after any checkpoint."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CHECKPOINT")
        return True
    except asyncpg.InsufficientPrivilegeError:
        return False
    finally:
        await conn.close()
