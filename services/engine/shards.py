"""Sharding tables over engine processes: a partition per table, a lease per partition.

A match belongs to partition ``partition_of(match_id)`` (64 of them, ``tavola.bus.partitions``).
An engine *holds* a partition while it holds the lease: a Postgres session advisory lock
``(key of the namespace, partition)`` on a connection of its own, named
``tavola-engine:<namespace>``. The holder is the partition's writer: its memory of those
matches is the authority (``app.py``), it fires their timers and marks their seats away,
and the other engines forward the public calls for them to it over NATS
(``routing.py``). A lease ends when its holder releases it or its session ends — an engine
that dies loses its leases at once (Postgres closes its session), and one that loses its
connection drops every partition before it may hold them again.

Balance: every ``interval`` the engine counts the engines' lease sessions (``n``) and keeps
``ceil(64 / n)`` partitions: it releases the surplus (the highest first, after it stopped
serving them) and takes free ones while it has fewer. One engine alone holds all 64; a
second one takes half within a few seconds; when one dies the others take its share.
Ownership may overlap for a moment during a handover (or a network partition from
Postgres): then both may append, and the log's expected version refuses the second — a
conflict, caught up and decided again, never a wrong move.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
from collections.abc import Awaitable, Callable

import asyncpg
import structlog
from prometheus_client import Gauge

from tavola.bus.partitions import PARTITIONS, partition_of
from tavola.service.failures import is_outage

log = structlog.get_logger(__name__)
HELD = Gauge("tavola_engine_partitions_held", "Table partitions this engine holds the lease of")
ENGINES = Gauge("tavola_engine_engines_seen", "Engines holding or seeking partition leases")

Changed = Callable[[frozenset[int]], Awaitable[None]]
Connect = Callable[[str], Awaitable[asyncpg.Connection]]


def lease_key(namespace: str) -> int:
    """The first key of the partitions' advisory locks (the second is the partition)."""
    digest = hashlib.sha256(f"tavola-partitions:{namespace}".encode()).digest()
    return int.from_bytes(digest[:4], "big", signed=True)


class Partitions:
    """The partitions this engine holds; ``owns`` is what the engine asks per match."""

    def __init__(self) -> None:
        self.held: frozenset[int] = frozenset()

    def owns(self, match_id: str) -> bool:
        return partition_of(match_id) in self.held


class Leases:
    """Takes, keeps and gives back partition leases (see the module's docstring)."""

    def __init__(
        self,
        connect: Connect,
        namespace: str,
        partitions: Partitions,
        *,
        gained: Changed,
        lost: Changed,
        interval: float = 1.0,
        count: int = PARTITIONS,
    ) -> None:
        self._connect = connect
        self._key = lease_key(namespace)
        self.application = f"tavola-engine:{namespace}"[:63]
        self._partitions = partitions
        self._gained = gained
        self._lost = lost
        self._interval = interval
        self._count = count
        self._conn: asyncpg.Connection | None = None

    @property
    def held(self) -> frozenset[int]:
        return self._partitions.held

    async def run(self, stop: asyncio.Event) -> None:
        """Balance until ``stop``; then give every lease back."""
        try:
            while not stop.is_set():
                await self.balance()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self._interval)
        finally:
            await self.release_all()

    async def balance(self) -> None:
        """One round: hold a fair share of the partitions (never raises on an outage)."""
        try:
            conn = await self._session()
            engines = int(
                await conn.fetchval(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name = $1",
                    self.application,
                )
            )
            ENGINES.set(engines)
            fair = math.ceil(self._count / max(1, engines))
            if len(self.held) > fair:
                await self._give_back(conn, sorted(self.held)[fair:])
            elif len(self.held) < fair:
                await self._take(conn, fair)
        except Exception as error:
            if not is_outage(error):
                raise
            log.warning("partitions.session_lost", error=type(error).__name__)
            await self._drop_session()

    async def _session(self) -> asyncpg.Connection:
        if self._conn is not None and not self._conn.is_closed():
            return self._conn
        await self._drop_session()
        self._conn = await self._connect(self.application)
        return self._conn

    async def _drop_session(self) -> None:
        """The session is gone, and its locks with it: hold nothing until taken again."""
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
        if self.held:
            lost = self.held
            self._set(frozenset())
            await self._lost(lost)

    async def _take(self, conn: asyncpg.Connection, fair: int) -> None:
        gained: set[int] = set()
        start = (hash(self.application) ^ id(self)) % self._count  # engines start apart
        for offset in range(self._count):
            if len(self.held) + len(gained) >= fair:
                break
            partition = (start + offset) % self._count
            if partition in self.held:
                continue
            if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", self._key, partition):
                gained.add(partition)
        if gained:
            self._set(self.held | gained)
            log.info("partitions.gained", partitions=sorted(gained), held=len(self.held))
            await self._gained(frozenset(gained))

    async def _give_back(self, conn: asyncpg.Connection, surplus: list[int]) -> None:
        released = frozenset(surplus)
        self._set(self.held - released)
        await self._lost(released)  # stop serving them before another engine takes them
        for partition in surplus:
            await conn.execute("SELECT pg_advisory_unlock($1, $2)", self._key, partition)
        log.info("partitions.released", partitions=surplus, held=len(self.held))

    async def release_all(self) -> None:
        if self._conn is None:
            return
        held = self.held
        self._set(frozenset())
        if held:
            await self._lost(held)
        with contextlib.suppress(Exception):
            await self._conn.execute("SELECT pg_advisory_unlock_all()")
        with contextlib.suppress(Exception):
            await self._conn.close()
        self._conn = None

    def _set(self, held: frozenset[int]) -> None:
        self._partitions.held = held
        HELD.set(len(held))
