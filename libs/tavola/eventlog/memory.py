"""An in-memory ``EventStore`` with the same semantics as Postgres, for fast tests.

Its cursors are synthetic: ``Cursor(tx=position, position=position)``. Each call runs
without awaiting, so on one event loop every append is atomic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from uuid import UUID

from tavola.eventlog.chain import GENESIS_HASH, as_utc
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand, DuplicateEventId
from tavola.eventlog.model import (
    AppendResult,
    CommandRecord,
    Cursor,
    EventStore,
    NewEvent,
    StoredEvent,
    check_append_arguments,
    seal,
    stream_partition,
)


class InMemoryEventStore(EventStore):
    def __init__(self, clock: Callable[[], datetime]) -> None:
        self._clock = clock
        self._streams: dict[str, list[StoredEvent]] = {}
        self._log: list[StoredEvent] = []
        self._event_ids: set[UUID] = set()
        self._commands: dict[tuple[str, str], CommandRecord] = {}

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
        self._refuse_duplicates(stream_id, command_id, events)
        stream = self._streams.get(stream_id, [])
        if len(stream) != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, len(stream))
        head_hash = stream[-1].hash if stream else GENESIS_HASH
        now = as_utc(self._clock())
        sealed = seal(stream_id, expected_version, head_hash, events, now)
        stored = [s.stored(self._next_cursor(offset)) for offset, s in enumerate(sealed)]
        self._streams[stream_id] = [*stream, *stored]
        self._log.extend(stored)
        self._event_ids.update(event.event_id for event in stored)
        last_version = expected_version + len(stored)
        if command_id is not None:
            self._commands[(stream_id, command_id)] = CommandRecord(
                command_id,
                stream_id,
                expected_version + 1,
                last_version,
                command_result,
                now,
            )
        return AppendResult(
            stream_id, expected_version + 1, last_version, tuple(stored), command_id, command_result
        )

    def _refuse_duplicates(
        self, stream_id: str, command_id: str | None, events: Sequence[NewEvent]
    ) -> None:
        record = None if command_id is None else self._commands.get((stream_id, command_id))
        if record is not None:
            raise DuplicateCommand(record)
        for event in events:
            if event.event_id in self._event_ids:
                raise DuplicateEventId(event.event_id)

    def _next_cursor(self, offset: int) -> Cursor:
        position = len(self._log) + offset + 1
        return Cursor(position, position)

    async def read_stream(
        self, stream_id: str, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        events = self._streams.get(stream_id, [])[after_version:]
        return events if limit is None else events[:limit]

    async def stream_version(self, stream_id: str) -> int:
        return len(self._streams.get(stream_id, []))

    async def read_all(self, after: Cursor = Cursor.START, limit: int = 1000) -> list[StoredEvent]:
        return [event for event in self._log if event.cursor > after][:limit]

    async def read_all_of(
        self, types: frozenset[str], after: Cursor = Cursor.START, scan: int = 5000
    ) -> tuple[list[StoredEvent], Cursor]:
        scanned = await self.read_all(after, scan)
        reach = scanned[-1].cursor if scanned else after
        return [event for event in scanned if event.type in types], reach

    async def read_all_in(
        self,
        partitions: frozenset[int],
        count: int,
        after: Cursor = Cursor.START,
        scan: int = 5000,
    ) -> tuple[list[StoredEvent], Cursor]:
        scanned = await self.read_all(after, scan)
        reach = scanned[-1].cursor if scanned else after
        kept = [e for e in scanned if stream_partition(e.stream_id, count) in partitions]
        return kept, reach

    async def find_command(self, stream_id: str, command_id: str) -> CommandRecord | None:
        return self._commands.get((stream_id, command_id))
