"""The Postgres ``EventStore`` (asyncpg). Schema: ``migrations/``; design: docs/eventlog.md.

Concurrency: the primary key ``(stream_id, version)`` makes a second writer of version N
fail; a unique violation is translated, after its transaction rolled back, into
``ConcurrencyConflict``, ``DuplicateCommand`` or ``DuplicateEventId`` by looking at what is
committed now. A version conflict on a command whose id is by then recorded is answered as
``DuplicateCommand`` too: a retry racing its own first attempt gets the first answer.
Global order: ``read_all`` returns only rows whose writing transaction is older than every
transaction still running, ordered by ``(tx, position)``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg

from tavola.eventlog.chain import GENESIS_HASH
from tavola.eventlog.errors import (
    ConcurrencyConflict,
    DuplicateCommand,
    DuplicateEventId,
    EventLogError,
)
from tavola.eventlog.model import (
    AppendResult,
    CommandRecord,
    Cursor,
    EventStore,
    NewEvent,
    SealedEvent,
    StoredEvent,
    check_append_arguments,
    seal,
)

NOTIFY_CHANNEL = "tavola_eventlog_append"

_INSERT_COLUMNS = (
    "stream_id, version, event_id, type, schema_version, rules_version, payload, audience, "
    "metadata, recorded_at, prev_hash, hash"
)
_INSERT_WIDTH = 12
_SELECT_COLUMNS = f"tx, position, {_INSERT_COLUMNS}"

_HEAD = "SELECT version, hash FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1"
_FIND_COMMAND = (
    "SELECT command_id, stream_id, first_version, last_version, result, recorded_at "
    "FROM commands WHERE stream_id = $1 AND command_id = $2"
)
_INSERT_COMMAND = (
    "INSERT INTO commands (command_id, stream_id, first_version, last_version, result, "
    "recorded_at) VALUES ($1, $2, $3, $4, $5, $6)"
)
_READ_STREAM = (
    f"SELECT {_SELECT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 "
    "ORDER BY version LIMIT $3"
)
READ_ALL_QUERY = f"""
SELECT {_SELECT_COLUMNS} FROM events
WHERE (tx, position) > ($1::xid8, $2::bigint)
  AND tx < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
ORDER BY tx, position
LIMIT $3
"""


class PostgresEventStore(EventStore):
    """``EventStore`` over an asyncpg pool; ``clock`` stamps ``recorded_at`` (tz-aware)."""

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], datetime]) -> None:
        self._pool = pool
        self._clock = clock

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        command_result: bytes = b"",
    ) -> AppendResult:
        async with self._pool.acquire() as conn:
            return await self.append_in(
                conn,
                stream_id,
                expected_version,
                events,
                command_id=command_id,
                command_result=command_result,
            )

    async def append_in(
        self,
        conn: asyncpg.Connection,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        command_result: bytes = b"",
    ) -> AppendResult:
        """``append`` on the caller's connection, inside its transaction if one is open.

        The events commit (and become visible to ``read_all``) with that transaction, so a
        caller can store other facts atomically with them. Errors are raised as in
        ``append``; the caller's transaction stays usable (a savepoint is rolled back).
        """
        check_append_arguments(stream_id, expected_version, events)
        try:
            async with conn.transaction():
                return await self._write(
                    conn, stream_id, expected_version, events, command_id, command_result
                )
        except asyncpg.UniqueViolationError as error:
            raise await self._explain(
                conn, error, stream_id, expected_version, command_id, events
            ) from error
        except ConcurrencyConflict as conflict:
            # Read committed: the command lookup and the head read see different snapshots,
            # so a concurrent retry of this very command may commit in between. Its record
            # is the answer, not a conflict.
            if command_id is not None and (
                record := await _find_command(conn, stream_id, command_id)
            ):
                raise DuplicateCommand(record) from conflict
            raise

    async def _write(
        self,
        conn: Any,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str | None,
        command_result: bytes,
    ) -> AppendResult:
        if command_id is not None and (record := await _find_command(conn, stream_id, command_id)):
            raise DuplicateCommand(record)
        head = await conn.fetchrow(_HEAD, stream_id)
        actual = head["version"] if head else 0
        if actual != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, actual)
        now = self._clock()
        sealed = seal(stream_id, actual, head["hash"] if head else GENESIS_HASH, events, now)
        stored = await _insert_events(conn, sealed) if sealed else ()
        last_version = expected_version + len(sealed)
        if command_id is not None:
            await conn.execute(
                _INSERT_COMMAND,
                command_id,
                stream_id,
                expected_version + 1,
                last_version,
                command_result,
                now,
            )
        return AppendResult(
            stream_id, expected_version + 1, last_version, stored, command_id, command_result
        )

    async def _explain(
        self,
        conn: Any,
        error: asyncpg.UniqueViolationError,
        stream_id: str,
        expected_version: int,
        command_id: str | None,
        events: Sequence[NewEvent],
    ) -> EventLogError:
        """Name the conflict from what is committed now that our write rolled back."""
        if command_id is not None and (record := await _find_command(conn, stream_id, command_id)):
            return DuplicateCommand(record)
        if error.constraint_name == "events_event_id_key":
            ids = [event.event_id for event in events]
            taken = await conn.fetchval(
                "SELECT event_id FROM events WHERE event_id = ANY($1::uuid[]) LIMIT 1", ids
            )
            if taken is not None:
                return DuplicateEventId(UUID(bytes=taken.bytes))
        if error.constraint_name == "events_pkey":
            actual = await _stream_version(conn, stream_id)
            return ConcurrencyConflict(stream_id, expected_version, actual)
        raise error

    async def read_stream(
        self, stream_id: str, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        rows = await self._pool.fetch(_READ_STREAM, stream_id, after_version, limit)
        return [_stored_event(row) for row in rows]

    async def stream_version(self, stream_id: str) -> int:
        async with self._pool.acquire() as conn:
            return await _stream_version(conn, stream_id)

    async def read_all(self, after: Cursor = Cursor.START, limit: int = 1000) -> list[StoredEvent]:
        rows = await self._pool.fetch(READ_ALL_QUERY, after.tx, after.position, limit)
        return [_stored_event(row) for row in rows]

    async def find_command(self, stream_id: str, command_id: str) -> CommandRecord | None:
        async with self._pool.acquire() as conn:
            return await _find_command(conn, stream_id, command_id)


@asynccontextmanager
async def append_notifications(conn: asyncpg.Connection) -> AsyncIterator[asyncio.Event]:
    """An ``asyncio.Event`` set whenever an append commits, for ``tail(wakeup=...)``.

    ``conn`` must be a connection dedicated to listening (not returned to a pool meanwhile).
    Notifications only hasten reads: ``tail`` still polls, since the global order can also
    advance when an unrelated transaction ends.
    """
    wakeup = asyncio.Event()

    def on_notification(*_: object) -> None:
        wakeup.set()

    await conn.add_listener(NOTIFY_CHANNEL, on_notification)
    try:
        yield wakeup
    finally:
        await conn.remove_listener(NOTIFY_CHANNEL, on_notification)


async def _stream_version(conn: Any, stream_id: str) -> int:
    head = await conn.fetchrow(_HEAD, stream_id)
    return int(head["version"]) if head else 0


async def _find_command(conn: Any, stream_id: str, command_id: str) -> CommandRecord | None:
    row = await conn.fetchrow(_FIND_COMMAND, stream_id, command_id)
    if row is None:
        return None
    return CommandRecord(
        command_id=row["command_id"],
        stream_id=row["stream_id"],
        first_version=row["first_version"],
        last_version=row["last_version"],
        result=row["result"],
        recorded_at=row["recorded_at"],
    )


async def _insert_events(conn: Any, sealed: list[SealedEvent]) -> tuple[StoredEvent, ...]:
    """One multi-row INSERT; returns the events with the cursors Postgres assigned."""
    rows = ", ".join(
        "(" + ", ".join(f"${row * _INSERT_WIDTH + col + 1}" for col in range(_INSERT_WIDTH)) + ")"
        for row in range(len(sealed))
    )
    query = f"INSERT INTO events ({_INSERT_COLUMNS}) VALUES {rows} RETURNING version, tx, position"
    arguments = [value for event in sealed for value in _insert_arguments(event)]
    returned = await conn.fetch(query, *arguments)
    cursors = {row["version"]: Cursor(row["tx"], row["position"]) for row in returned}
    return tuple(event.stored(cursors[event.version]) for event in sealed)


def _insert_arguments(sealed: SealedEvent) -> tuple[object, ...]:
    event = sealed.event
    return (
        sealed.stream_id,
        sealed.version,
        event.event_id,
        event.type,
        event.schema_version,
        event.rules_version,
        event.payload,
        None if event.audience is None else list(event.audience),
        event.metadata,
        sealed.recorded_at,
        sealed.prev_hash,
        sealed.hash,
    )


def _stored_event(row: Any) -> StoredEvent:
    audience = row["audience"]
    return StoredEvent(
        stream_id=row["stream_id"],
        version=row["version"],
        cursor=Cursor(row["tx"], row["position"]),
        event_id=UUID(bytes=row["event_id"].bytes),
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
