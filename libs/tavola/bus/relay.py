"""The relay: publishes what Postgres committed to JetStream, at least once.

It tails the log's global order from its saved cursor (``tracking`` row ``relay``),
publishes each event on its stream's subject with ``Nats-Msg-Id`` = event id (JetStream
drops duplicates within its window; consumers are idempotent anyway), and saves the cursor
only after the broker acknowledged. A move committed while NATS is down is published when
it is back. Several engines may run a relay: an advisory lock elects one.
"""

from __future__ import annotations

import asyncio
import contextlib

import asyncpg
import structlog
from nats.js import JetStreamContext
from prometheus_client import Counter

from tavola.bus import subjects
from tavola.eventlog.model import Cursor, EventStore, StoredEvent
from tavola.eventlog.tracking import load_position, save_position
from tavola.protocol.envelopes import FULL, to_envelope

log = structlog.get_logger(__name__)
RELAY_LOCK_KEY = 0x7A701A  # pg advisory lock id of the relay leader
RELAY_PUBLISHED = Counter("tavola_relay_published_total", "Events published to the bus")


class Relay:
    def __init__(
        self,
        pool: asyncpg.Pool,
        store: EventStore,
        js: JetStreamContext,
        names: subjects.Subjects,
        *,
        name: str = "relay",
        batch_size: int = 500,
        poll_interval: float = 0.25,
    ) -> None:
        self._pool = pool
        self._store = store
        self._js = js
        self._names = names
        self._name = name
        self._batch = batch_size
        self._poll = poll_interval
        self._wakeup = asyncio.Event()
        self.published = 0

    def poke(self) -> None:
        """Something was appended: look now rather than at the next poll."""
        self._wakeup.set()

    async def run(self, stop: asyncio.Event) -> None:
        async with self._pool.acquire() as lock_conn:
            while not await lock_conn.fetchval("SELECT pg_try_advisory_lock($1)", RELAY_LOCK_KEY):
                if await _wait(stop, 1.0):
                    return
            log.info("relay.leader")
            try:
                await self._loop(stop)
            finally:
                await lock_conn.execute("SELECT pg_advisory_unlock($1)", RELAY_LOCK_KEY)

    async def _loop(self, stop: asyncio.Event) -> None:
        cursor = await load_position(self._pool, self._name)
        while not stop.is_set():
            self._wakeup.clear()
            events = await self._store.read_all(cursor, self._batch)
            if not events:
                await _wait_any(stop, self._wakeup, self._poll)
                continue
            for event in events:
                if not await self._publish(event, stop):
                    return
            cursor = events[-1].cursor
            await self._save(cursor)

    async def _publish(self, event: StoredEvent, stop: asyncio.Event) -> bool:
        """Publish until acknowledged; False if asked to stop first."""
        data = to_envelope(event, FULL).SerializeToString()
        subject = self._names.stream_subject(event.stream_id)
        delay = 0.1
        while not stop.is_set():
            try:
                await self._js.publish(
                    subject, data, headers={"Nats-Msg-Id": str(event.event_id)}, timeout=2.0
                )
                self.published += 1
                RELAY_PUBLISHED.inc()
                return True
            except Exception as error:  # broker down or slow: retry, never skip
                log.warning(
                    "relay.publish_failed",
                    error=repr(error),
                    stream=event.stream_id,
                    version=event.version,
                )
                if await _wait(stop, delay):
                    return False
                delay = min(delay * 2, 2.0)
        return False

    async def _save(self, cursor: Cursor) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await save_position(conn, self._name, cursor)


async def _wait(stop: asyncio.Event, seconds: float) -> bool:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


async def _wait_any(stop: asyncio.Event, wakeup: asyncio.Event, seconds: float) -> None:
    waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(wakeup.wait())]
    try:
        await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
