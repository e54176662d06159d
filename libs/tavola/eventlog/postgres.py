"""The Postgres ``EventStore`` (asyncpg). Schema: ``migrations/``; design: docs/eventlog.md.

An append is **one statement** (``append_sql.statement``): one round trip and one commit. The
chain starts from the stream's committed head as this store knows it — a bounded cache of
heads filled by its own committed appends and by what it reads; a head it does not know
at the expected version is read first (one more round trip, no commit). With **group
commit** (the default) the appends of many streams that arrive while a statement is in
flight go together in the next one: one transaction, one fsync, each batch still
all-or-nothing, each caller answered only after the commit.

Concurrency: the primary key ``(stream_id, version)`` makes a second writer of version N
fail; a unique violation is translated, after the statement rolled back, into
``ConcurrencyConflict``, ``DuplicateCommand`` or ``DuplicateEventId`` by looking at what is
committed now (a group that fails so is written again batch by batch, to tell whose it
was). A version conflict on a command whose id is by then recorded is answered as
``DuplicateCommand``: a retry racing its own first attempt gets the first answer.
Global order: ``read_all`` returns only rows whose writing transaction is older than every
transaction still running, ordered by ``(tx, position)``.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn
from uuid import UUID, SafeUUID

import asyncpg

from tavola.eventlog.append_sql import COMMAND_ONLY, Batch, cursors, statement
from tavola.eventlog.chain import GENESIS_HASH, as_utc
from tavola.eventlog.errors import (
    ConcurrencyConflict,
    DuplicateCommand,
    DuplicateEventId,
    EventLogError,
)
from tavola.eventlog.group_commit import GroupCommit
from tavola.eventlog.model import (
    LATE,
    AppendResult,
    CommandRecord,
    Cursor,
    EventStore,
    NewEvent,
    StoredEvent,
    check_append_arguments,
    seal,
)

HEADS = 65_536  # stream heads remembered (LRU): ~150 bytes each
_SELECT_COLUMNS = (
    "stream_id, tx, position, version, event_id, type, schema_version, rules_version, "
    "payload, audience, metadata, recorded_at, prev_hash, hash"
)
# A stream's rows (``_stream_events``): not its id (the one asked for), and the timestamp
# as Postgres sends it (8 bytes: microseconds since 2000), made a datetime when first read.
_STREAM_COLUMNS = (
    "version, type, schema_version, rules_version, payload, audience, metadata, prev_hash, "
    "hash, tx, position, event_id, timestamptz_send(recorded_at)"
)

_HEAD = "SELECT version, hash FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1"
_FIND_COMMAND = (
    "SELECT command_id, stream_id, first_version, last_version, result, recorded_at "
    "FROM commands WHERE stream_id = $1 AND command_id = $2"
)
_READ_STREAM = (
    f"SELECT {_STREAM_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 "
    "ORDER BY version LIMIT $3"
)
READ_ALL_QUERY = f"""
SELECT {_SELECT_COLUMNS} FROM events
WHERE (tx, position) > ($1::xid8, $2::bigint)
  AND tx < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
ORDER BY tx, position
LIMIT $3
"""


def _window_query(scanned: str, kept: str) -> str:
    """The window of the next $3 events after the cursor ($1, $2), found on the global
    order's index with the column ``scanned`` of each; only the rows for which ``kept``
    holds (of ``s``, the scanned row) are sent, each with the window's last cursor (one row
    with no event when none is kept; no row when nothing new is committed)."""
    columns = ", ".join("e." + c.strip() for c in _SELECT_COLUMNS.split(","))
    return f"""
WITH scanned AS MATERIALIZED (
  SELECT tx, position, {scanned} FROM events
  WHERE (tx, position) > ($1::xid8, $2::bigint)
    AND tx < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
  ORDER BY tx, position
  LIMIT $3
), reach AS (
  SELECT tx, position FROM scanned ORDER BY tx DESC, position DESC LIMIT 1
)
SELECT reach.tx, reach.position, wanted.* FROM reach LEFT JOIN LATERAL (
  SELECT {columns}
  FROM scanned s JOIN events e ON e.tx = s.tx AND e.position = s.position
  WHERE {kept}
) wanted ON true
ORDER BY wanted.tx, wanted.position
"""


# ``read_all_of``: the window's events of the types $4.
READ_ALL_OF_QUERY = _window_query("type", "s.type = ANY($4::text[])")
# ``read_all_in``: the window's events of the streams in the partitions $4 of $5 — the
# partition computed as ``model.stream_partition`` does (SHA-256 of the id after the
# category, its first four bytes big-endian, modulo the count).
_STREAM_PARTITION = (
    "(('x' || encode(substr(sha256(convert_to("
    "substr(s.stream_id, strpos(s.stream_id, '-') + 1), 'UTF8')), 1, 4), 'hex'))"
    "::bit(32)::bigint % $5::bigint)::int"
)
READ_ALL_IN_QUERY = _window_query("stream_id", f"{_STREAM_PARTITION} = ANY($4::int[])")


async def _keep_session(_conn: asyncpg.Connection) -> None:
    """No reset on release: the store keeps no session state (no LISTEN, advisory lock,
    SET or cursor), so asyncpg's reset query would be a round trip for nothing."""


async def _ready(conn: asyncpg.Connection) -> None:
    """A new connection runs the stream read once with no row to find (``stream_id`` is
    never empty), so that asyncpg learns the column types and keeps the statement then,
    not on the first match a request reads (about 15 ms on its first use). Before the
    first migration there is no table yet: nothing to ready."""
    with contextlib.suppress(asyncpg.UndefinedTableError):
        await conn.fetch(_READ_STREAM, "", 0, 0)


async def create_pool(url: str, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    """A pool for the store that skips asyncpg's reset on every release (one round trip
    saved per acquire) and readies each new connection (``_ready``). Only for connections
    that keep no session state."""
    pool = await asyncpg.create_pool(
        url, min_size=min_size, max_size=max_size, reset=_keep_session, init=_ready
    )
    assert pool is not None
    return pool


class PostgresEventStore(EventStore):
    """``EventStore`` over an asyncpg pool; ``clock`` stamps ``recorded_at`` (tz-aware).

    ``group_commit``: gather concurrent appends of different streams into one statement
    (``writers`` statements in flight at most, ``max_group`` batches each); ``heads``: how
    many stream heads (version, hash) to remember.
    """

    def __init__(
        self,
        pool: asyncpg.Pool,
        clock: Callable[[], datetime],
        *,
        group_commit: bool = True,
        writers: int = 2,
        max_group: int = 256,
        heads: int = HEADS,
    ) -> None:
        self._pool = pool
        self._clock = clock
        self._writer = GroupCommit(
            pool, writers=writers, max_group=max_group if group_commit else 1
        )
        self._heads: OrderedDict[str, tuple[int, bytes]] = OrderedDict()
        self._max_heads = heads

    @property
    def group_commit(self) -> GroupCommit:
        return self._writer

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        command_result: bytes = b"",
    ) -> AppendResult:
        check_append_arguments(stream_id, expected_version, events)
        now = as_utc(self._clock())  # refuses a naive clock before anything is written
        if not events:
            return await self._command_only(
                self._pool, stream_id, expected_version, command_id, command_result, now
            )
        head = await self._head_hash(self._pool, stream_id, expected_version, command_id, True)
        batch = Batch(
            stream_id,
            expected_version,
            seal(stream_id, expected_version, head, events, now),
            command_id,
            command_result,
            now,
        )
        try:
            stored = await self._writer.write(batch)
        except asyncpg.UniqueViolationError as error:
            async with self._pool.acquire() as conn:
                raise await self._explain(conn, error, batch, learn=True) from error
        self._learn(stream_id, stored[-1].version, stored[-1].hash)
        return _result(batch, stored)

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
        Nothing is remembered of it (the caller's transaction may yet roll back).
        """
        check_append_arguments(stream_id, expected_version, events)
        now = as_utc(self._clock())
        if not events:
            return await self._command_only(
                conn, stream_id, expected_version, command_id, command_result, now
            )
        # Nothing read on the caller's connection is remembered: its transaction sees its own
        # uncommitted writes, and may yet roll back.
        head = await self._head_hash(conn, stream_id, expected_version, command_id, False)
        batch = Batch(
            stream_id,
            expected_version,
            seal(stream_id, expected_version, head, events, now),
            command_id,
            command_result,
            now,
        )
        try:
            async with conn.transaction():
                sql, args = statement([batch])
                rows = await conn.fetch(sql, *args)
        except asyncpg.UniqueViolationError as error:
            raise await self._explain(conn, error, batch, learn=False) from error
        return _result(batch, batch.stored(cursors(rows)))

    async def _head_hash(
        self,
        executor: Any,
        stream_id: str,
        expected_version: int,
        command_id: str | None,
        learn: bool,
    ) -> bytes:
        """The committed hash of the stream's version ``expected_version``, which the new
        events chain from; raises what an append at another version gets. ``learn``: the
        executor sees only committed rows (a pool), so what it reads may be remembered."""
        if expected_version == 0:
            return GENESIS_HASH
        known = self._heads.get(stream_id)
        if known is not None and known[0] == expected_version:
            self._heads.move_to_end(stream_id)
            return known[1]
        row = await executor.fetchrow(_HEAD, stream_id)
        actual = row["version"] if row else 0
        if row is not None and learn:
            self._learn(stream_id, actual, row["hash"])
        if actual != expected_version:
            await self._refuse(executor, stream_id, expected_version, actual, command_id)
        return bytes(row["hash"])

    async def _command_only(
        self,
        executor: Any,
        stream_id: str,
        expected_version: int,
        command_id: str | None,
        result: bytes,
        now: datetime,
    ) -> AppendResult:
        """No events: record the command alone, if the stream is at the expected version."""
        if command_id is None:
            actual = await _stream_version(executor, stream_id)
            if actual != expected_version:
                raise ConcurrencyConflict(stream_id, expected_version, actual)
        else:
            try:
                written = await executor.fetchval(
                    COMMAND_ONLY, command_id, stream_id, expected_version, result, now
                )
            except asyncpg.UniqueViolationError as error:
                record = await _find_command(executor, stream_id, command_id)
                if record is None:
                    raise
                raise DuplicateCommand(record) from error
            if written is None:
                actual = await _stream_version(executor, stream_id)
                await self._refuse(executor, stream_id, expected_version, actual, command_id)
        return AppendResult(
            stream_id, expected_version + 1, expected_version, (), command_id, result
        )

    async def _refuse(
        self, executor: Any, stream_id: str, expected: int, actual: int, command_id: str | None
    ) -> NoReturn:
        """The stream is not at ``expected``: a retry of a recorded command gets its record
        (checked first, so a retry with a stale version is recognised), else a conflict."""
        if command_id is not None and (
            record := await _find_command(executor, stream_id, command_id)
        ):
            raise DuplicateCommand(record)
        raise ConcurrencyConflict(stream_id, expected, actual)

    async def _explain(
        self, conn: Any, error: asyncpg.UniqueViolationError, batch: Batch, *, learn: bool
    ) -> EventLogError:
        """Name the conflict from what is committed now that our write rolled back. A
        version conflict on a command recorded by then is its duplicate (a retry racing its
        own first attempt gets the first answer)."""
        if batch.command_id is not None and (
            record := await _find_command(conn, batch.stream_id, batch.command_id)
        ):
            return DuplicateCommand(record)
        if error.constraint_name == "events_event_id_key":
            ids = [sealed.event.event_id for sealed in batch.sealed]
            taken = await conn.fetchval(
                "SELECT event_id FROM events WHERE event_id = ANY($1::uuid[]) LIMIT 1", ids
            )
            if taken is not None:
                return DuplicateEventId(UUID(bytes=taken.bytes))
        if error.constraint_name == "events_pkey":
            row = await conn.fetchrow(_HEAD, batch.stream_id)
            if row is not None and learn:
                self._learn(batch.stream_id, row["version"], row["hash"])
            actual = row["version"] if row else 0
            return ConcurrencyConflict(batch.stream_id, batch.expected, actual)
        raise error

    def _learn(self, stream_id: str, version: int, digest: bytes) -> None:
        """Remember a committed (version, hash) of a stream if it is its newest known."""
        known = self._heads.get(stream_id)
        if known is None or known[0] < version:
            self._heads[stream_id] = (version, bytes(digest))
        self._heads.move_to_end(stream_id)
        while len(self._heads) > self._max_heads:
            self._heads.popitem(last=False)

    async def read_stream(
        self, stream_id: str, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        rows = await self._pool.fetch(_READ_STREAM, stream_id, after_version, limit)
        stored = _stream_events(stream_id, rows)
        if stored:
            self._learn(stream_id, stored[-1].version, stored[-1].hash)
        return stored

    async def stream_version(self, stream_id: str) -> int:
        return await _stream_version(self._pool, stream_id)

    async def read_all(self, after: Cursor = Cursor.START, limit: int = 1000) -> list[StoredEvent]:
        rows = await self._pool.fetch(READ_ALL_QUERY, after.tx, after.position, limit)
        return [_event(*row) for row in rows]

    async def read_all_of(
        self, types: frozenset[str], after: Cursor = Cursor.START, scan: int = 5000
    ) -> tuple[list[StoredEvent], Cursor]:
        rows = await self._pool.fetch(
            READ_ALL_OF_QUERY, after.tx, after.position, scan, sorted(types)
        )
        return _window(rows, after)

    async def read_all_in(
        self,
        partitions: frozenset[int],
        count: int,
        after: Cursor = Cursor.START,
        scan: int = 5000,
    ) -> tuple[list[StoredEvent], Cursor]:
        rows = await self._pool.fetch(
            READ_ALL_IN_QUERY, after.tx, after.position, scan, sorted(partitions), count
        )
        return _window(rows, after)

    async def find_command(self, stream_id: str, command_id: str) -> CommandRecord | None:
        return await _find_command(self._pool, stream_id, command_id)


def _window(rows: list[Any], after: Cursor) -> tuple[list[StoredEvent], Cursor]:
    """A ``_window_query``'s rows: the events kept, and the cursor the window reached."""
    if not rows:
        return [], after
    reach = Cursor(rows[0][0], rows[0][1])
    return [_event(*row[2:]) for row in rows if row[2] is not None], reach


def _result(batch: Batch, stored: tuple[StoredEvent, ...]) -> AppendResult:
    return AppendResult(
        batch.stream_id,
        batch.expected + 1,
        batch.expected + len(batch.sealed),
        stored,
        batch.command_id,
        batch.result,
    )


async def _stream_version(executor: Any, stream_id: str) -> int:
    row = await executor.fetchrow(_HEAD, stream_id)
    return int(row["version"]) if row else 0


async def _find_command(
    executor: Any, stream_id: str, command_id: str | None
) -> CommandRecord | None:
    if command_id is None:
        return None
    row = await executor.fetchrow(_FIND_COMMAND, stream_id, command_id)
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


# Rows become events without the frozen dataclasses' ``__init__`` (an
# ``object.__setattr__`` per field, most of the cost of reading a long stream): each instance
# gets the very ``__dict__`` its ``__init__`` would give it (a UUID its two slots), so it is
# the same value in every way — fields, equality, hash, repr, pickling. A stream's events
# leave their cursor, id and timestamp to be made when first read (``model.LATE``): a
# replay reads none of them. ``tests/unit/eventlog/test_postgres_rows.py`` holds both kinds
# to the constructors.
_new = object.__new__
_set = object.__setattr__
_set_uuid_int = UUID.__dict__["int"].__set__  # the slots UUID(int=...) fills
_set_uuid_safe = UUID.__dict__["is_safe"].__set__
_UNKNOWN = SafeUUID.unknown


def _event(
    stream_id: str,
    tx: int,
    position: int,
    version: int,
    event_id: UUID,
    type_: str,
    schema_version: int,
    rules_version: int,
    payload: bytes,
    audience: list[int] | None,
    metadata: bytes,
    recorded_at: datetime,
    prev_hash: bytes,
    digest: bytes,
) -> StoredEvent:
    """``StoredEvent(stream_id, version, Cursor(tx, position), UUID(int=event_id.int), ...)``
    of a row of ``_SELECT_COLUMNS``: a plain UUID, not asyncpg's, and the audience as a
    tuple."""
    cursor = _new(Cursor)
    fields = cursor.__dict__
    fields["tx"] = tx
    fields["position"] = position
    uuid = _new(UUID)
    _set_uuid_int(uuid, event_id.int)
    _set_uuid_safe(uuid, _UNKNOWN)
    event = _new(StoredEvent)
    _set(
        event,
        "__dict__",
        {
            "stream_id": stream_id,
            "version": version,
            "cursor": cursor,
            "event_id": uuid,
            "type": type_,
            "schema_version": schema_version,
            "rules_version": rules_version,
            "payload": payload,
            "audience": None if audience is None else tuple(audience),
            "metadata": metadata,
            "recorded_at": recorded_at,
            "prev_hash": prev_hash,
            "hash": digest,
        },
    )
    return event


def _stream_events(stream_id: str, rows: Iterable[Sequence[Any]]) -> list[StoredEvent]:
    """The events of rows of ``_STREAM_COLUMNS`` in ``stream_id``: ``_event``'s, with their
    cursor, id and timestamp made when first read (``_late_fields``)."""
    stored: list[StoredEvent] = []
    append = stored.append
    late = _late_fields
    for (
        version,
        type_,
        schema_version,
        rules_version,
        payload,
        audience,
        metadata,
        prev_hash,
        digest,
        tx,
        position,
        event_id,
        recorded_at,
    ) in rows:
        event = _new(StoredEvent)
        _set(
            event,
            "__dict__",
            {
                "stream_id": stream_id,
                "version": version,
                "type": type_,
                "schema_version": schema_version,
                "rules_version": rules_version,
                "payload": payload,
                "audience": None if audience is None else tuple(audience),
                "metadata": metadata,
                "prev_hash": prev_hash,
                "hash": digest,
                LATE: (late, tx, position, event_id, recorded_at),
            },
        )
        append(event)
    return stored


def _late_fields(tx: int, position: int, event_id: UUID, recorded_at: bytes) -> dict[str, Any]:
    """The fields ``_stream_events`` leaves for later, as ``_event`` makes them."""
    return {
        "cursor": Cursor(tx, position),
        "event_id": UUID(int=event_id.int),
        "recorded_at": _timestamptz(recorded_at),
    }


_PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_INFINITY = (1 << 63) - 1


def _timestamptz(sent: bytes) -> datetime:
    """A ``timestamptz`` from its binary form (``timestamptz_send``), as asyncpg decodes it:
    aware in UTC, or asyncpg's naive ``datetime.max`` / ``datetime.min`` for +-infinity."""
    micros = int.from_bytes(sent, "big", signed=True)
    if micros == _INFINITY:
        return datetime.max
    if micros == -_INFINITY - 1:
        return datetime.min
    return _PG_EPOCH + timedelta(microseconds=micros)
