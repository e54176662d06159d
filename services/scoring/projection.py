"""A projection of the log in its global order, effectively once.

It tails the event store from its saved cursor; each event it wants is applied in one
transaction together with the new cursor (``tavola.eventlog.tracking``), so a crash
either keeps both or neither. ``rebuild`` throws the projection's tables away and folds
the whole log again while the service may be running: it holds the projection's
advisory lock exclusively, so a live projector waits, then skips what the rebuild
already applied. A fresh fold of the log gives the very same rows (tested). The live
projector also notes when it applied each event (``projection_applied``, for the lag
figures of ``make bench`` and ``make season``; not part of any projection).
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from datetime import UTC, datetime
from typing import Any

import asyncpg
import structlog
from prometheus_client import Counter, Histogram

from tavola.eventlog.errors import TrackingConflict
from tavola.eventlog.model import Cursor, EventStore, StoredEvent
from tavola.eventlog.tracking import load_position, save_position

log = structlog.get_logger(__name__)
SCAN = 5000  # events of the log looked at per read (only the wanted ones are sent)
FAILURE_PAUSE_S = 5.0
FAILURES = Counter(
    "tavola_scoring_projection_failures_total",
    "Times a projection failed to apply an event (a bug; it tries again after a pause)",
    ["projection"],
)
LAG = Histogram(
    "tavola_scoring_projection_lag_seconds",
    "From an event's commit to its projection's transaction",
    ["projection"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60),
)


class Projection(ABC):
    NAME: str
    LOCK: int
    READS: frozenset[str]  # the event types it applies (the store sends only those)

    def __init__(self, pool: asyncpg.Pool, store: EventStore) -> None:
        self._pool = pool
        self._store = store

    def wants(self, event: StoredEvent) -> bool:
        return event.type in self.READS

    async def _next(self, cursor: Cursor) -> tuple[list[StoredEvent], Cursor]:
        """The wanted events of the next window of the log, and where the window ends
        (the cursor to read on from: everything up to it is applied or not wanted)."""
        return await self._store.read_all_of(self.READS, cursor, SCAN)

    @abstractmethod
    async def apply(self, conn: Any, event: StoredEvent) -> None:
        """The event's effects, on ``conn`` inside the projection's transaction."""

    @abstractmethod
    async def reset(self, conn: Any) -> None:
        """Throw the projection's rows away (inside the rebuild's transaction)."""

    def forget(self) -> None:  # noqa: B027 (most projections keep nothing in memory)
        """Drop any in-memory speed-up (a rebuild starts from nothing)."""

    async def run(self, stop: asyncio.Event, poll: float = 0.5) -> None:
        cursor = await load_position(self._pool, self.NAME)
        while not stop.is_set():
            start = cursor
            try:
                batch, reach = await self._next(cursor)
                for event in batch:
                    await self._apply(event)
                    cursor = event.cursor
                cursor = reach
            except (OSError, asyncpg.PostgresConnectionError) as error:
                log.warning("projection.unavailable", name=self.NAME, error=type(error).__name__)
            except Exception:  # a bug: say so loudly, never skip the event, look again later
                log.exception("projection.failed", name=self.NAME, cursor=str(cursor))
                FAILURES.labels(projection=self.NAME).inc()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), FAILURE_PAUSE_S)
                continue
            if cursor == start:  # nothing new: look again after a while
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), poll)

    async def catch_up(self) -> None:
        """Apply everything committed so far (tests and rebuilds)."""
        cursor = await load_position(self._pool, self.NAME)
        while True:
            batch, reach = await self._next(cursor)
            for event in batch:
                await self._apply(event)
            if reach == cursor:
                return
            cursor = reach

    async def rebuild(self) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", self.LOCK)
            try:
                self.forget()
                async with conn.transaction():
                    await self.reset(conn)
                    await conn.execute("DELETE FROM tracking WHERE name = $1", self.NAME)
                cursor = Cursor.START
                while True:
                    batch, reach = await self._next(cursor)
                    for event in batch:
                        await self._apply_on(conn, event)
                    if reach == cursor:
                        break
                    cursor = reach
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", self.LOCK)

    async def _apply(self, event: StoredEvent) -> None:
        if not self.wants(event):
            return
        async with self._pool.acquire() as conn:
            try:
                await self._apply_on(conn, event, shared=True)
            except TrackingConflict:  # another instance applied it first: rolled back here
                return

    async def _apply_on(self, conn: Any, event: StoredEvent, shared: bool = False) -> None:
        if not self.wants(event):
            return
        async with conn.transaction():
            if shared:  # waits while a rebuild holds the lock
                await conn.execute("SELECT pg_advisory_xact_lock_shared($1)", self.LOCK)
            if await load_position(conn, self.NAME) >= event.cursor:
                return  # already applied (by a rebuild or another instance)
            await self.apply(conn, event)
            await save_position(conn, self.NAME, event.cursor)
            if shared:  # the live projector's lag, kept for figures (not part of it)
                await conn.execute(
                    "INSERT INTO projection_applied VALUES ($1, $2, $3, $4, clock_timestamp())"
                    " ON CONFLICT DO NOTHING",
                    self.NAME,
                    event.stream_id,
                    event.version,
                    event.recorded_at,
                )
        if shared:
            lag = (datetime.now(UTC) - event.recorded_at).total_seconds()
            LAG.labels(projection=self.NAME).observe(max(0.0, lag))
