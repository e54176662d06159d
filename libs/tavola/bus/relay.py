"""The relay: publishes what Postgres committed to JetStream, at least once.

It tails the log's global order from its saved cursor (``tracking`` row ``relay``),
publishes each event on its subject (``<ns>.events.<category>.<id>.<type>``) with
``Nats-Msg-Id`` = event id — a whole batch published at once, then one wait for all the
broker's acknowledgements — and moves on only once every one was acknowledged. It reads at
most once every ``gather`` (5 ms), so that a read takes up what several appends committed.
It saves
its cursor every ``save_every`` events or ``save_interval`` seconds (and when it stops),
not after every batch: after a crash it publishes again what came after the saved cursor,
at most a second's worth, which JetStream drops as duplicates (same Msg-Id, well within
its duplicate window); consumers are idempotent anyway. Events are published **as a
spectator sees them**: a private event (a dealt hand, a token's hash) keeps its place,
type and cause but not its payload, so nothing hidden ever crosses the bus. A move
committed while NATS or Postgres is down is published when both are back: the relay waits
with a capped back-off and never exits on an outage.

Engines relay **their partitions' share** of the log (``partitions`` given): each reads the
global order as above but is sent only the events of streams in the partitions it holds
(``stream_partition``; a match's stream is in its match's partition), keeps a cursor per
partition (``tracking`` rows ``relay.p<N>``; a partition never relayed so starts from the
single relay's ``relay`` row) and saves a partition's cursor when it gives the partition
back, before the next holder takes it up. So the engine that writes a table publishes its
events, two engines share the relay's work, and a partition handed over is published from
where the last holder got to (at most a second's worth again, dropped as duplicates).
Without ``partitions`` (tests, tools) one relay takes the whole log: several may run, and
an advisory lock (held on a connection of its own) elects one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import asyncpg
import structlog
from nats.aio.client import Client
from prometheus_client import Counter, Gauge

from tavola.bus import subjects
from tavola.bus.acks import JetStreamPublisher
from tavola.bus.partitions import PARTITIONS
from tavola.eventlog.model import Cursor, EventStore, StoredEvent, stream_partition
from tavola.eventlog.tracking import (
    advance_positions,
    load_position,
    load_positions,
    save_position,
)
from tavola.protocol.envelopes import SPECTATOR, envelopes_for
from tavola.service.failures import is_outage

log = structlog.get_logger(__name__)
RELAY_LOCK_KEY = 0x7A701A  # pg advisory lock id of the relay leader
RELAY_PUBLISHED = Counter("tavola_relay_published_total", "Events published to the bus")
RELAY_OUTAGES = Counter(
    "tavola_relay_outages_total", "Times the relay waited for Postgres or NATS", ["dependency"]
)
RELAY_LEADER = Gauge(
    "tavola_relay_leader", "1 while this process relays (the whole log, or its partitions')"
)
RELAY_PARTITIONS = Gauge(
    "tavola_relay_partitions", "Partitions of the log whose events this process relays"
)
MAX_BACKOFF = 5.0
ACK_TIMEOUT = 5.0  # seconds for a batch's acknowledgements, then it is published again

_SPECTATOR = (SPECTATOR,)  # the bus carries every event as a spectator sees it


class _Progress:
    """Where each held partition is published up to, as one front (``base``, the least)
    and the few partitions past it (``ahead``): a read moves every partition at once, in
    time with the number of partitions ahead, not with the partitions held."""

    def __init__(self) -> None:
        self.held: frozenset[int] = frozenset()
        self.base = Cursor.START
        self.ahead: dict[int, Cursor] = {}

    def of(self, partition: int) -> Cursor | None:
        if partition not in self.held:
            return None
        return self.ahead.get(partition, self.base)

    def all(self) -> dict[int, Cursor]:
        return {p: self.ahead.get(p, self.base) for p in self.held}

    def take(self, partition: int, cursor: Cursor) -> None:
        if not self.held:
            self.base, self.ahead = cursor, {}
        elif cursor < self.base:  # the front goes back to it; the others are ahead of it
            self.ahead.update({p: self.ahead.get(p, self.base) for p in self.held})
            self.base = cursor
        elif cursor > self.base:
            self.ahead[partition] = cursor
        self.held = self.held | {partition}

    def drop(self, partition: int) -> Cursor | None:
        cursor = self.of(partition)
        self.held = self.held - {partition}
        self.ahead.pop(partition, None)
        return cursor

    def reached(self, cursor: Cursor) -> None:
        """Every held partition is published up to ``cursor``."""
        if cursor > self.base:
            self.base = cursor
            if self.ahead:
                self.ahead = {p: c for p, c in self.ahead.items() if c > cursor}


class Relay:
    def __init__(
        self,
        pool: asyncpg.Pool,
        store: EventStore,
        nc: Client,
        names: subjects.Subjects,
        *,
        name: str = "relay",
        batch_size: int = 500,
        poll_interval: float = 0.25,
        gather: float = 0.005,
        save_every: int = 1000,
        save_interval: float = 1.0,
        partitions: Callable[[], frozenset[int]] | None = None,
        count: int = PARTITIONS,
    ) -> None:
        if save_interval * 10 > subjects.DUPLICATE_WINDOW_SECONDS:
            raise ValueError("save the cursor well within JetStream's duplicate window")
        self._pool = pool
        self._store = store
        self._publisher = JetStreamPublisher(nc)
        self._names = names
        self._name = name
        self._batch = batch_size
        self._poll = poll_interval
        self._gather = gather
        self._last_read = 0.0
        self._save_every = save_every
        self._save_interval = save_interval
        self._wakeup = asyncio.Event()
        self._partitions = partitions
        self._count = count
        self._progress = _Progress()  # the held partitions: published up to
        self._saved: dict[int, Cursor] = {}  # a held partition: its saved cursor
        self.published = 0
        self.saves = 0
        self.healthy = True

    def poke(self) -> None:
        """Something was appended: look now rather than at the next poll."""
        self._wakeup.set()

    async def run(self, stop: asyncio.Event) -> None:
        """Lead and publish until ``stop``; an outage of Postgres only pauses it."""
        # stopping wakes the loop too, so each wait is on one event, with no task per wait
        stopping = asyncio.create_task(stop.wait())
        stopping.add_done_callback(lambda _: self._wakeup.set())
        try:
            await self._run(stop)
        finally:
            stopping.cancel()

    async def _run(self, stop: asyncio.Event) -> None:
        delay = 0.1
        while not stop.is_set():
            try:
                if self._partitions is None:
                    await self._lead(stop)
                else:
                    await self._share(stop, self._partitions)
                return
            except Exception as error:
                if not is_outage(error):
                    raise
                self.healthy = False
                RELAY_LEADER.set(0)
                RELAY_OUTAGES.labels(dependency="database").inc()
                log.warning("relay.database_unavailable", error=type(error).__name__)
                if await _wait(stop, delay):
                    return
                delay = min(delay * 2, MAX_BACKOFF)

    async def _lead(self, stop: asyncio.Event) -> None:
        lock_conn = await self._pool.acquire()
        try:
            while not await lock_conn.fetchval("SELECT pg_try_advisory_lock($1)", RELAY_LOCK_KEY):
                self.healthy = True  # another engine leads
                if await _wait(stop, 1.0):
                    return
            log.info("relay.leader")
            RELAY_LEADER.set(1)
            await self._loop(stop)
        finally:
            RELAY_LEADER.set(0)
            try:  # the pool does not reset its connections: leave no lock behind
                await lock_conn.execute("SELECT pg_advisory_unlock_all()")
                await self._pool.release(lock_conn)
            except Exception:
                lock_conn.terminate()
                await self._pool.release(lock_conn)

    async def _loop(self, stop: asyncio.Event) -> None:
        cursor = saved = await load_position(self._pool, self._name)
        self.healthy = True
        loop = asyncio.get_running_loop()
        unsaved, last_save = 0, loop.time()
        try:
            while not stop.is_set():
                await self._gathered(loop)
                self._wakeup.clear()
                events = await self._store.read_all(cursor, self._batch)
                if events:
                    if not await self._publish(events, stop):
                        return
                    cursor = events[-1].cursor
                    unsaved += len(events)
                due = unsaved >= self._save_every or loop.time() - last_save >= self._save_interval
                if cursor != saved and due:
                    await self._save(cursor)
                    saved, unsaved, last_save = cursor, 0, loop.time()
                if not events or len(events) < self._batch:
                    await _wait_event(self._wakeup, min(self._poll, self._save_interval))
        finally:
            if cursor != saved:  # stopping (not crashing): nothing to publish again
                with contextlib.suppress(Exception):
                    await self._save(cursor)

    async def _share(self, stop: asyncio.Event, partitions: Callable[[], frozenset[int]]) -> None:
        """Relay the held partitions' share of the log until ``stop``."""
        self.healthy = True
        RELAY_LEADER.set(1)
        loop = asyncio.get_running_loop()
        unsaved, last_save = 0, loop.time()
        try:
            while not stop.is_set():
                self._wakeup.clear()
                await self._follow(partitions())
                progress = self._progress
                if not progress.held:
                    await _wait_event(self._wakeup, self._poll)
                    continue
                await self._gathered(loop)
                start, held = progress.base, progress.held
                if len(held) == self._count:  # every partition: the whole log
                    events = await self._store.read_all(start, self._batch)
                    reach = events[-1].cursor if events else start
                else:
                    events, reach = await self._store.read_all_in(
                        held, self._count, start, self._batch
                    )
                if progress.ahead or progress.held is not held:  # some already published
                    fresh = [e for e in events if self._unpublished(e)]
                else:
                    fresh = events
                if fresh:
                    if not await self._publish(fresh, stop):
                        return
                    unsaved += len(fresh)
                progress.reached(reach)  # those still held
                due = unsaved >= self._save_every or loop.time() - last_save >= self._save_interval
                if due:
                    await self._save_partitions()
                    unsaved, last_save = 0, loop.time()
                if reach == start:  # nothing new committed
                    await _wait_event(self._wakeup, min(self._poll, self._save_interval))
        finally:
            RELAY_LEADER.set(0)
            with contextlib.suppress(Exception):  # stopping: nothing to publish again
                await self._save_partitions()

    async def _gathered(self, loop: asyncio.AbstractEventLoop) -> None:
        """At most one read of the log every ``gather`` seconds: while appends come one
        after another (each pokes the relay), a read takes up what several committed."""
        wait = self._last_read + self._gather - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_read = loop.time()

    def _unpublished(self, event: StoredEvent) -> bool:
        """Whether the event is past where its partition is published up to (and the
        partition still held: one given back while its batch was read is its next
        holder's)."""
        published = self._progress.of(stream_partition(event.stream_id, self._count))
        return published is not None and event.cursor > published

    async def _follow(self, held: frozenset[int]) -> None:
        """Take up newly held partitions from their saved cursors; forget the others."""
        progress = self._progress
        self._forget(progress.held - held)
        new = sorted(held - progress.held)
        if new:
            saved = await load_positions(self._pool, [self._row(p) for p in new])
            single = None
            for partition in new:
                cursor = saved.get(self._row(partition))
                if cursor is None:  # never relayed by partition: where the single relay was
                    single = single or await load_position(self._pool, self._name)
                    cursor = single
                progress.take(partition, cursor)
                self._saved[partition] = cursor
            log.info("relay.partitions", taken=new, held=len(progress.held))
        RELAY_PARTITIONS.set(len(progress.held))

    async def release(self, partitions: frozenset[int]) -> None:
        """Partitions about to be given back: stop relaying them, and save where they got
        to, so that their next holder resumes there (never raises: a cursor not saved
        costs a republish, dropped as duplicates)."""
        gone = self._forget(partitions)
        RELAY_PARTITIONS.set(len(self._progress.held))
        if gone:
            try:
                await advance_positions(self._pool, {self._row(p): c for p, c in gone.items()})
            except Exception as error:
                log.warning("relay.release_unsaved", error=type(error).__name__)

    def _forget(self, partitions: frozenset[int]) -> dict[int, Cursor]:
        """Stop relaying those of ``partitions`` held; where each was published up to."""
        gone = {p: c for p in partitions if (c := self._progress.drop(p)) is not None}
        for partition in gone:
            self._saved.pop(partition, None)
        return gone

    async def _save_partitions(self) -> None:
        """Save the held partitions' cursors that moved since they were saved."""
        moved = {p: c for p, c in self._progress.all().items() if self._saved.get(p) != c}
        if moved:
            await advance_positions(self._pool, {self._row(p): c for p, c in moved.items()})
            # one given back meanwhile was saved by ``release`` (and is no longer held)
            held = self._progress.held
            self._saved.update({p: c for p, c in moved.items() if p in held})
            self.saves += 1

    def _row(self, partition: int) -> str:
        return f"{self._name}.p{partition}"

    async def _publish(self, events: list[StoredEvent], stop: asyncio.Event) -> bool:
        """Publish a batch until every event is acknowledged; False if asked to stop."""
        delay = 0.1
        while not stop.is_set():
            try:
                await self._publisher.publish(
                    [
                        (
                            self._names.event_subject(event.stream_id, event.type),
                            envelopes_for(event, _SPECTATOR)[0],
                            {"Nats-Msg-Id": str(event.event_id)},
                        )
                        for event in events
                    ],
                    timeout=ACK_TIMEOUT,
                )
                self.published += len(events)
                RELAY_PUBLISHED.inc(len(events))
                self.healthy = True
                return True
            except Exception as error:  # broker down or slow: retry the batch, never skip
                self.healthy = False
                RELAY_OUTAGES.labels(dependency="bus").inc()
                log.warning(
                    "relay.publish_failed",
                    error=type(error).__name__,
                    stream=events[0].stream_id,
                    version=events[0].version,
                )
                if await _wait(stop, delay):
                    return False
                delay = min(delay * 2, MAX_BACKOFF)
        return False

    async def _save(self, cursor: Cursor) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await save_position(conn, self._name, cursor)
        self.saves += 1


async def _wait(stop: asyncio.Event, seconds: float) -> bool:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


async def _wait_event(event: asyncio.Event, seconds: float) -> None:
    """Until ``event`` is set or ``seconds`` have passed (a timer, not a task)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()
