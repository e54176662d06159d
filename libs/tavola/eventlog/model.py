"""The event log's port: value types and the ``EventStore`` interface.

A stream (``"match-<uuid>"``, ``"table-<uuid>"``) is an append-only sequence of events
numbered 1, 2, 3... Every stored event also has a place in one global order, its
``Cursor``; readers of the whole log follow cursors, never bare positions (see
``docs/eventlog.md`` for why).
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from tavola.eventlog.chain import as_utc, event_hash


@dataclass(frozen=True, order=True)
class Cursor:
    """A place in the global order: the writing transaction's id, then the position.

    Ordering is lexicographic on ``(tx, position)``; ``Cursor.START`` precedes every event.
    """

    tx: int
    position: int

    START: ClassVar[Cursor]

    def __str__(self) -> str:
        return f"{self.tx}:{self.position}"


Cursor.START = Cursor(0, 0)


def stream_partition(stream_id: str, count: int) -> int:
    """The partition of a stream among ``count``: the first four bytes of SHA-256 of its id
    after the category (``match-<id>`` → ``<id>``, the whole id if it has no ``-``), read
    big-endian, modulo ``count``. A match's stream is in its match's partition
    (``tavola.bus.partitions.partition_of``); the Postgres store computes the same in SQL."""
    ident = stream_id[stream_id.find("-") + 1 :]
    return int.from_bytes(hashlib.sha256(ident.encode()).digest()[:4], "big") % count


@dataclass(frozen=True)
class NewEvent:
    """An event to append. ``event_id`` is chosen by the caller and globally unique.

    ``payload`` is the protobuf encoding of the event; ``audience`` lists the seats allowed
    to see it (``None`` means public); ``metadata`` is opaque caller bytes describing the
    cause (seat, command id, automatic move and its reason...).
    """

    event_id: UUID
    type: str
    payload: bytes
    schema_version: int = 1
    rules_version: int = 1
    audience: tuple[int, ...] | None = None
    metadata: bytes = b""


LATE = "_late"
"""Where a store may leave some of a ``StoredEvent``'s fields to be made when first read.

A store reading a long stream (``PostgresEventStore.read_stream``) makes each event
without ``__init__``: its ``__dict__`` holds the fields it has, and under ``LATE`` a tuple
``(make, *raw)`` where ``make(*raw)`` returns the others (by name). Replaying a match reads
the type and payload of every event and hardly ever its cursor, id or timestamp, whose
objects cost more to make than the rest of the event. The first read of any missing field
makes them all, once (``vars()`` is then what ``__init__`` gives, in another key order):
every field reads the same as ever, and equality, hashing, ``repr``, ``replace``, copying
and pickling go through the fields.
"""


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded, with its version, global cursor, timestamp and chain hashes.

    Some fields may be made only when first read (see ``LATE``); nothing else tells."""

    stream_id: str
    version: int
    cursor: Cursor
    event_id: UUID
    type: str
    schema_version: int
    rules_version: int
    payload: bytes
    audience: tuple[int, ...] | None
    metadata: bytes
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes

    @property
    def position(self) -> int:
        return self.cursor.position

    if not TYPE_CHECKING:  # hidden from type checkers: every field is declared above

        def __getattr__(self, name: str) -> Any:
            """A field left to be made when first read (``LATE``); only ever called for an
            attribute not in the instance's ``__dict__``."""
            return _late_field(self, name)


_STORED_FIELDS = frozenset(f.name for f in fields(StoredEvent))


def _late_field(event: StoredEvent, name: str) -> Any:
    """Make the fields left under ``LATE`` and answer ``name``. Safe under threads: the
    fields are in place before the raw values go, and making them twice is harmless."""
    made = event.__dict__
    late = made.get(LATE)
    if late is None or name not in _STORED_FIELDS:
        raise AttributeError(f"{type(event).__name__!r} object has no attribute {name!r}")
    make, *raw = late
    made.update(make(*raw))
    made.pop(LATE, None)
    if name not in made:
        raise AttributeError(f"{type(event).__name__!r} object has no attribute {name!r}")
    return made[name]


@dataclass(frozen=True)
class CommandRecord:
    """What a command produced: stream versions ``first_version..last_version`` and a result.

    A command that appended nothing has ``first_version == last_version + 1``.
    """

    command_id: str
    stream_id: str
    first_version: int
    last_version: int
    result: bytes
    recorded_at: datetime

    @property
    def versions(self) -> range:
        return range(self.first_version, self.last_version + 1)


@dataclass(frozen=True)
class AppendResult:
    """The outcome of a successful append: the stored events and the new stream version."""

    stream_id: str
    first_version: int
    last_version: int
    events: tuple[StoredEvent, ...]
    command_id: str | None = None
    command_result: bytes = b""

    @property
    def versions(self) -> range:
        return range(self.first_version, self.last_version + 1)


class EventStore(ABC):
    """Append-only streams with optimistic concurrency, command idempotency and a hash chain.

    ``append`` raises ``ConcurrencyConflict`` when the stream is not at ``expected_version``
    (0 for a new stream), ``DuplicateCommand`` (carrying the original ``CommandRecord``) when
    ``command_id`` was already recorded *in this stream* (command ids are unique per stream:
    the same id in two streams is two commands) — checked first, so a retry with a stale expected
    version is still recognised — and ``DuplicateEventId`` when an event id is reused. In
    every error case nothing is written. Appending no events with a ``command_id`` records
    the command alone.
    """

    @abstractmethod
    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        command_result: bytes = b"",
    ) -> AppendResult: ...

    @abstractmethod
    async def read_stream(
        self, stream_id: str, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]: ...

    @abstractmethod
    async def stream_version(self, stream_id: str) -> int: ...

    @abstractmethod
    async def read_all(self, after: Cursor = Cursor.START, limit: int = 1000) -> list[StoredEvent]:
        """Events strictly after ``after`` in global order, never skipping a late commit."""

    @abstractmethod
    async def read_all_of(
        self, types: frozenset[str], after: Cursor = Cursor.START, scan: int = 5000
    ) -> tuple[list[StoredEvent], Cursor]:
        """Of the next ``scan`` events strictly after ``after`` in global order (as
        ``read_all`` finds them), those whose type is one of ``types``; and the cursor
        read up to, the last of the ``scan`` (``after`` when nothing new is committed). A
        reader that wants a few types among many keeps that cursor and is sent only those:
        the others stay in the database."""

    @abstractmethod
    async def read_all_in(
        self,
        partitions: frozenset[int],
        count: int,
        after: Cursor = Cursor.START,
        scan: int = 5000,
    ) -> tuple[list[StoredEvent], Cursor]:
        """Like ``read_all_of``, but the events kept are those of streams in ``partitions``
        (``stream_partition(stream_id, count)``): a reader of a share of the log."""

    @abstractmethod
    async def find_command(self, stream_id: str, command_id: str) -> CommandRecord | None:
        """The record of ``command_id`` in ``stream_id``, or None."""


def check_append_arguments(
    stream_id: str, expected_version: int, events: Sequence[NewEvent]
) -> None:
    """Reject malformed calls before any I/O (shared by every adapter)."""
    if not stream_id:
        raise ValueError("stream_id must not be empty")
    if expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {expected_version}")
    ids = [event.event_id for event in events]
    if len(set(ids)) != len(ids):
        raise ValueError("event ids within one append must be distinct")


_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class SealedEvent:
    """A new event given its version, timestamp and chain hashes; only its cursor is missing."""

    stream_id: str
    version: int
    event: NewEvent
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes

    def stored(self, cursor: Cursor) -> StoredEvent:
        """The event as stored at ``cursor``: what ``StoredEvent(...)`` makes, without its
        frozen ``__init__`` (an ``object.__setattr__`` per field, on every event appended):
        the instance gets the very ``__dict__`` the constructor gives it."""
        event = self.event
        stored: StoredEvent = _new(StoredEvent)
        _set(
            stored,
            "__dict__",
            {
                "stream_id": self.stream_id,
                "version": self.version,
                "cursor": cursor,
                "event_id": event.event_id,
                "type": event.type,
                "schema_version": event.schema_version,
                "rules_version": event.rules_version,
                "payload": event.payload,
                "audience": event.audience,
                "metadata": event.metadata,
                "recorded_at": self.recorded_at,
                "prev_hash": self.prev_hash,
                "hash": self.hash,
            },
        )
        return stored


def seal(
    stream_id: str,
    head_version: int,
    head_hash: bytes,
    events: Sequence[NewEvent],
    recorded_at: datetime,
) -> list[SealedEvent]:
    """Number and chain ``events`` after the stream's head (``head_hash`` = its last hash)."""
    recorded_at = as_utc(recorded_at)  # refuses a naive clock before anything is written
    sealed: list[SealedEvent] = []
    prev_hash = head_hash
    for version, event in enumerate(events, start=head_version + 1):
        digest = event_hash(
            prev_hash=prev_hash,
            stream_id=stream_id,
            version=version,
            event_id=event.event_id,
            type=event.type,
            schema_version=event.schema_version,
            rules_version=event.rules_version,
            payload=event.payload,
            audience=event.audience,
            metadata=event.metadata,
            recorded_at=recorded_at,
        )
        made: SealedEvent = _new(SealedEvent)  # ``SealedEvent(...)``'s very ``__dict__``
        _set(
            made,
            "__dict__",
            {
                "stream_id": stream_id,
                "version": version,
                "event": event,
                "recorded_at": recorded_at,
                "prev_hash": prev_hash,
                "hash": digest,
            },
        )
        sealed.append(made)
        prev_hash = digest
    return sealed
