"""Group commit: the appends of many streams in one statement, one transaction, one fsync.

Callers queue their batch and wait. At most ``writers`` statements are in flight; whenever
one is free it takes its share of what is queued — the appends under way (queued and in
flight) divided among the writers, at least ``MIN_SHARE`` while that many wait, at most
``max_group``, and at most one batch per stream (a second batch of a stream waits for the
next statement, so versions stay in order) — and writes it with ``append_sql.statement``.
Under load the queue fills while a statement runs, so the next one carries many tables'
moves for the price of one commit, and the writers' commits overlap; alone, an append is
written at once, by its caller itself (no writer task, no timer, no added latency).

Each caller is answered only after the commit, with its own batch's outcome. If the
statement fails on a unique key (a writer elsewhere raced one of the batches), nothing of
it was written: the batches are written again one statement each, so only the one that
lost gets the error. Any other failure (the connection dropped, Postgres down) is given to
every caller of the statement: their outcome is unknown, as for any lost commit, and a
retry with the same command id tells.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

import asyncpg

from tavola.eventlog.append_sql import Batch, cursors, statement
from tavola.eventlog.model import StoredEvent


@dataclass
class _Waiting:
    batch: Batch
    answer: asyncio.Future[tuple[StoredEvent, ...]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


KEEP_SECONDS = 0.05  # how long a writer's connection stays out of the pool between statements
MIN_SHARE = 8  # batches a statement takes at least, when that many are queued


class GroupCommit:
    def __init__(self, pool: asyncpg.Pool, *, writers: int = 2, max_group: int = 256) -> None:
        if writers < 1 or max_group < 1:
            raise ValueError("writers and max_group must be positive")
        self._pool = pool
        # connections kept between statements (taking one from the pool and giving it back
        # costs about a fifth of a lone append's CPU); all go back to the pool within
        # KEEP_SECONDS, so the pool closes as it did
        self._kept: list[asyncpg.Connection] = []
        self._giving_back: asyncio.TimerHandle | None = None
        self._returns: set[asyncio.Task[None]] = set()
        self._writers = writers
        self._max_group = max_group
        self._queue: deque[_Waiting] = deque()
        self._active = 0  # writers started and not yet finished (counted synchronously)
        self._in_flight = 0  # batches in the statements being written
        self._tasks: set[asyncio.Task[None]] = set()
        self.statements = 0  # statements written (for the bench and the metrics)
        self.batches = 0  # batches they carried

    async def write(self, batch: Batch) -> tuple[StoredEvent, ...]:
        """Write one stream's batch with whatever else is queued; its events once committed
        (raises ``asyncpg.UniqueViolationError`` if a key refused this very batch).

        Alone (no statement under way, nothing queued), the caller writes its batch
        itself: no writer task, no future, two turns of the event loop fewer — most of
        what a lone append cost beyond its statement; what arrives meanwhile is queued for
        the other writers as ever. Cancelled meanwhile, its outcome is unknown, as for a
        connection lost (the store then reads the stream's head again)."""
        if not self._active and not self._queue:
            return await self._write_alone(batch)
        waiting = _Waiting(batch)
        self._queue.append(waiting)
        if self._active < self._writers:
            self._active += 1
            task = asyncio.create_task(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await waiting.answer

    async def _write_alone(self, batch: Batch) -> tuple[StoredEvent, ...]:
        self._active += 1
        self._in_flight += 1
        try:
            conn = self._kept.pop() if self._kept else await self._pool.acquire()
            try:
                sql, args = statement([batch])
                rows = await conn.fetch(sql, *args)
            except asyncpg.UniqueViolationError:
                self._keep(conn)
                raise
            except asyncio.CancelledError:
                # asyncpg asked the server to cancel the statement; the connection goes
                # back to the pool once that is settled (the pool waits for it)
                self._release_later(conn)
                raise
            except BaseException:
                conn.terminate()  # as in ``_write``: not given to the next writer
                await self._pool.release(conn)
                raise
            self._keep(conn)
            self.statements += 1
            self.batches += 1
            return batch.stored(cursors(rows))
        finally:
            self._in_flight -= 1
            self._active -= 1
            if self._queue and self._active < self._writers:  # queued meanwhile
                self._active += 1
                task = asyncio.create_task(self._drain())
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _drain(self) -> None:
        try:
            while self._queue:
                group = self._take()
                self._in_flight += len(group)
                try:
                    await self._write(group)
                finally:
                    self._in_flight -= len(group)
        finally:
            self._active -= 1  # no await since the queue was seen empty: nothing is missed

    def _take(self) -> list[_Waiting]:
        # A writer's share of the appends under way (queued and in flight), so that the
        # writers' statements carry them side by side and their commits overlap (one
        # statement carrying every table's move while the other writer idles commits
        # fewer a second); never fewer than MIN_SHARE while that many wait, or the
        # statements split smaller and smaller.
        share = -(-(len(self._queue) + self._in_flight) // self._writers)
        most = min(self._max_group, max(MIN_SHARE, share))
        group: list[_Waiting] = []
        streams: set[str] = set()
        later: list[_Waiting] = []
        while self._queue and len(group) < most:
            waiting = self._queue.popleft()
            if waiting.batch.stream_id in streams:
                later.append(waiting)
            else:
                streams.add(waiting.batch.stream_id)
                group.append(waiting)
        self._queue.extendleft(reversed(later))
        return group

    async def _write(self, group: list[_Waiting]) -> None:
        batches = [w.batch for w in group]
        try:
            conn = self._kept.pop() if self._kept else await self._pool.acquire()
            try:
                sql, args = statement(batches)
                rows = await conn.fetch(sql, *args)
            except asyncpg.UniqueViolationError:
                self._keep(conn)
                raise
            except BaseException:
                # a connection that failed otherwise (the server terminated it, a timeout
                # mid-statement) is not given to the next writer: the pool keeps no reset
                # that would notice (``_keep_session``)
                conn.terminate()
                await self._pool.release(conn)
                raise
            self._keep(conn)
        except asyncpg.UniqueViolationError as error:
            if len(group) == 1:
                _fail(group, error)
                return
            for waiting in group:  # tell whose batch lost the race
                await self._write([waiting])
            return
        except BaseException as error:
            _fail(group, error)
            if not isinstance(error, Exception):
                raise
            return
        self.statements += 1
        self.batches += len(group)
        placed = cursors(rows)
        for waiting in group:
            if not waiting.answer.done():
                waiting.answer.set_result(waiting.batch.stored(placed))

    def _keep(self, conn: asyncpg.Connection) -> None:
        self._kept.append(conn)
        if self._giving_back is None:
            loop = asyncio.get_running_loop()
            self._giving_back = loop.call_later(KEEP_SECONDS, self._give_back)

    def _give_back(self) -> None:
        self._giving_back = None
        kept, self._kept = self._kept, []
        for conn in kept:
            self._release_later(conn)

    def _release_later(self, conn: asyncpg.Connection) -> None:
        task = asyncio.create_task(self._pool.release(conn))
        self._returns.add(task)
        task.add_done_callback(self._returns.discard)


def _fail(group: list[_Waiting], error: BaseException) -> None:
    for waiting in group:
        if not waiting.answer.done():
            if isinstance(error, asyncio.CancelledError):
                waiting.answer.cancel()
            else:
                waiting.answer.set_exception(error)
