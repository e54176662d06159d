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

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0


async def windowed(
    workers: int, step: Callable[[int], Awaitable[None]], seconds: float, warmup: float = 0.5
) -> Rate:
    """Run ``workers`` loops of ``step(worker)``; count the steps completed in the window
    that opens after ``warmup``."""
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
        counting, started = True, time.perf_counter()
        await asyncio.sleep(seconds)
        counting, elapsed = False, time.perf_counter() - started
        total = counted
    finally:
        stop = True
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:
        if task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    return Rate(total, elapsed)


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

            return await windowed(connections, insert, seconds)
        finally:
            for conn in held:
                await pool.release(conn)
    finally:
        await pool.close()


StoreFactory = Callable[[asyncpg.Pool], EventStore]


async def append_rate(url: str, writers: int, seconds: float, store_for: StoreFactory) -> Rate:
    """One-event appends with a command id, each writer on its own stream, ``writers`` at once
    over as many connections (the engine's store: see ``store_for``)."""
    pool = await create_pool(url, min_size=min(writers, 8), max_size=writers)
    store = store_for(pool)
    run = uuid.uuid4().hex[:8]
    versions = [0] * writers
    ids = itertools.count()
    try:

        async def append(worker: int) -> None:
            version = versions[worker]
            event = NewEvent(uuid.uuid4(), "bench.Appended", PAYLOAD, metadata=METADATA)
            await store.append(
                f"bench-{run}-{worker}",
                version,
                [event],
                command_id=f"c/{next(ids)}",
                command_result=b"ok",
            )
            versions[worker] = version + 1

        return await windowed(writers, append, seconds)
    finally:
        closing = getattr(store, "aclose", None)
        if closing is not None:
            await closing()
        await pool.close()


def clock() -> datetime:
    return datetime.now(UTC)
