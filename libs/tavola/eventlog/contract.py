"""The ``EventStore`` contract: one abstract test suite every adapter must pass.

Shipped beside the port (as pyeventsourcing ships its persistence test cases) so the fake,
Postgres and any future adapter are held to the same behaviour. Use it by subclassing in a
test module and providing a ``store`` fixture built with the ``clock`` fixture::

    class TestInMemoryEventStore(EventStoreContract):
        @pytest.fixture
        def store(self, clock: SteppingClock) -> EventStore:
            return InMemoryEventStore(clock)

Needs pytest and pytest-asyncio (``asyncio_mode = "auto"``); imported only by tests.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from tavola.eventlog.chain import GENESIS_HASH, recompute_hash, verify_chain
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand, DuplicateEventId
from tavola.eventlog.model import Cursor, EventStore, NewEvent, StoredEvent, stream_partition
from tavola.eventlog.subscribe import tail


class SteppingClock:
    """A deterministic clock: each reading is one millisecond after the previous one."""

    def __init__(self, start: datetime = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)) -> None:
        self.now = start
        self.naive = False

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now.replace(tzinfo=None) if self.naive else self.now


def an_event(
    type: str = "test.SomethingHappened",
    payload: bytes = b"\x08\x01",
    *,
    audience: tuple[int, ...] | None = None,
    metadata: bytes = b"",
    schema_version: int = 1,
    rules_version: int = 1,
) -> NewEvent:
    return NewEvent(uuid4(), type, payload, schema_version, rules_version, audience, metadata)


def events(count: int, prefix: str = "test.E") -> list[NewEvent]:
    return [an_event(f"{prefix}{n}", payload=bytes([n])) for n in range(count)]


def a_stream() -> str:
    return f"match-{uuid4()}"


class EventStoreContract:
    """Behaviour shared by every ``EventStore``; subclasses provide the ``store`` fixture."""

    @pytest.fixture
    def clock(self) -> SteppingClock:
        return SteppingClock()

    # --- append and read -------------------------------------------------------------

    async def test_a_new_stream_is_at_version_zero(self, store: EventStore) -> None:
        assert await store.stream_version(a_stream()) == 0
        assert await store.read_stream(a_stream()) == []

    async def test_appended_events_are_numbered_from_one_and_read_back_in_order(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        first = await store.append(stream, 0, events(2))
        second = await store.append(stream, 2, events(3))
        assert (first.first_version, first.last_version) == (1, 2)
        assert list(second.versions) == [3, 4, 5]
        read = await store.read_stream(stream)
        assert [event.version for event in read] == [1, 2, 3, 4, 5]
        assert read == [*first.events, *second.events]
        assert await store.stream_version(stream) == 5

    async def test_read_stream_returns_only_events_after_the_given_version(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(5))
        assert [e.version for e in await store.read_stream(stream, after_version=3)] == [4, 5]
        assert [e.version for e in await store.read_stream(stream, 1, limit=2)] == [2, 3]

    async def test_streams_are_independent(self, store: EventStore) -> None:
        one, two = a_stream(), a_stream()
        await store.append(one, 0, events(2))
        await store.append(two, 0, events(1))
        assert await store.stream_version(one) == 2
        assert [e.stream_id for e in await store.read_stream(two)] == [two]

    async def test_audience_metadata_and_versions_round_trip(
        self, store: EventStore, clock: SteppingClock
    ) -> None:
        stream = a_stream()
        sent = [
            an_event(audience=None, metadata=b'{"seat":2,"command":"c-1"}'),
            an_event(audience=(0, 2), metadata=b"", schema_version=3, rules_version=7),
            an_event(audience=(), payload=b"", metadata=b"\x00\xff"),
        ]
        result = await store.append(stream, 0, sent)
        read = await store.read_stream(stream)
        assert read == list(result.events)
        for original, stored in zip(sent, read, strict=True):
            assert (stored.event_id, stored.type, stored.payload) == (
                original.event_id,
                original.type,
                original.payload,
            )
            assert (stored.audience, stored.metadata) == (original.audience, original.metadata)
            assert (stored.schema_version, stored.rules_version) == (
                original.schema_version,
                original.rules_version,
            )
            assert stored.recorded_at == clock.now

    # --- optimistic concurrency ------------------------------------------------------

    async def test_a_stale_expected_version_is_a_conflict_and_writes_nothing(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(2))
        with pytest.raises(ConcurrencyConflict) as raised:
            await store.append(stream, 1, events(1))
        assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == (
            stream,
            1,
            2,
        )
        assert await store.stream_version(stream) == 2

    async def test_expecting_a_version_the_stream_has_not_reached_is_a_conflict(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        with pytest.raises(ConcurrencyConflict) as raised:
            await store.append(stream, 3, events(1))
        assert raised.value.actual == 0
        assert await store.read_stream(stream) == []

    async def test_a_conflicting_append_records_no_command(self, store: EventStore) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(1))
        with pytest.raises(ConcurrencyConflict):
            await store.append(stream, 0, events(1), command_id="late")
        assert await store.find_command(stream, "late") is None

    async def test_two_concurrent_writers_of_the_same_version_cannot_both_succeed(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(1))
        outcomes = await asyncio.gather(
            store.append(stream, 1, events(1)),
            store.append(stream, 1, events(1)),
            return_exceptions=True,
        )
        conflicts = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
        assert len(conflicts) == 1
        assert conflicts[0].actual == 2
        assert await store.stream_version(stream) == 2

    # --- command idempotency ---------------------------------------------------------

    async def test_a_retried_command_returns_the_original_result_and_appends_nothing(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(1))
        await store.append(stream, 1, events(2), command_id="cmd-1", command_result=b"ok:2")
        with pytest.raises(DuplicateCommand) as raised:
            await store.append(stream, 1, events(2), command_id="cmd-1", command_result=b"x")
        record = raised.value.record
        assert (record.command_id, record.stream_id, record.result) == ("cmd-1", stream, b"ok:2")
        assert list(record.versions) == [2, 3]
        assert await store.stream_version(stream) == 3

    async def test_a_retry_is_recognised_even_when_the_stream_has_moved_on(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(1), command_id="cmd-a", command_result=b"a")
        await store.append(stream, 1, events(1), command_id="cmd-b")
        with pytest.raises(DuplicateCommand) as raised:
            await store.append(stream, 0, events(1), command_id="cmd-a")
        assert raised.value.record.result == b"a"
        assert await store.stream_version(stream) == 2

    async def test_the_same_command_id_in_two_streams_is_two_commands(
        self, store: EventStore
    ) -> None:
        one, two = a_stream(), a_stream()
        await store.append(one, 0, events(1), command_id="cmd-x", command_result=b"one")
        result = await store.append(two, 0, events(2), command_id="cmd-x", command_result=b"two")
        assert list(result.versions) == [1, 2]
        found_one = await store.find_command(one, "cmd-x")
        found_two = await store.find_command(two, "cmd-x")
        assert found_one is not None and found_two is not None
        assert (found_one.result, found_two.result) == (b"one", b"two")
        with pytest.raises(DuplicateCommand) as raised:
            await store.append(two, 2, events(1), command_id="cmd-x")
        assert raised.value.record.stream_id == two

    async def test_a_command_without_events_is_recorded_so_its_retry_is_recognised(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(2))
        result = await store.append(stream, 2, [], command_id="rejected", command_result=b"no")
        assert (result.events, list(result.versions)) == ((), [])
        with pytest.raises(DuplicateCommand) as raised:
            await store.append(stream, 2, [], command_id="rejected")
        record = raised.value.record
        assert (record.first_version, record.last_version, record.result) == (3, 2, b"no")
        assert await store.stream_version(stream) == 2

    async def test_find_command_returns_the_record_or_none(
        self, store: EventStore, clock: SteppingClock
    ) -> None:
        stream = a_stream()
        assert await store.find_command(stream, "nope") is None
        await store.append(stream, 0, events(3), command_id="c", command_result=b"r")
        assert await store.find_command(a_stream(), "c") is None
        record = await store.find_command(stream, "c")
        assert record is not None
        assert (record.stream_id, list(record.versions), record.result) == (stream, [1, 2, 3], b"r")
        assert record.recorded_at == clock.now

    async def test_a_reused_event_id_is_refused_and_nothing_is_written(
        self, store: EventStore
    ) -> None:
        stream, other = a_stream(), a_stream()
        taken = an_event()
        await store.append(stream, 0, [taken])
        with pytest.raises(DuplicateEventId) as raised:
            await store.append(other, 0, [an_event(), taken], command_id="c")
        assert raised.value.event_id == taken.event_id
        assert await store.stream_version(other) == 0
        assert await store.find_command(other, "c") is None

    # --- hash chain ------------------------------------------------------------------

    async def test_each_event_is_chained_to_its_predecessor_from_a_zero_hash(
        self, store: EventStore
    ) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(2))
        await store.append(stream, 2, events(3))
        read = await store.read_stream(stream)
        assert read[0].prev_hash == GENESIS_HASH
        for previous, event in itertools.pairwise(read):
            assert event.prev_hash == previous.hash
        assert all(recompute_hash(event) == event.hash for event in read)
        assert verify_chain(read) is None

    async def test_verify_chain_detects_a_tampered_payload(self, store: EventStore) -> None:
        read = await self._stream_of(store, 5)
        read[2] = dataclasses.replace(read[2], payload=b"forged")
        assert verify_chain(read) == 3

    async def test_verify_chain_detects_tampered_audience_or_metadata(
        self, store: EventStore
    ) -> None:
        read = await self._stream_of(store, 3)
        assert verify_chain([read[0], dataclasses.replace(read[1], audience=(1,))]) == 2
        assert verify_chain([dataclasses.replace(read[0], metadata=b"timeout")]) == 1

    async def test_verify_chain_detects_reordered_and_missing_events(
        self, store: EventStore
    ) -> None:
        read = await self._stream_of(store, 4)
        assert verify_chain([read[0], read[2], read[1], read[3]]) == 2
        assert verify_chain([read[0], read[1], read[3]]) == 3
        renumbered = dataclasses.replace(read[2], version=2)
        assert verify_chain([read[0], renumbered]) == 2

    async def _stream_of(self, store: EventStore, count: int) -> list[StoredEvent]:
        stream = a_stream()
        await store.append(stream, 0, events(count))
        return await store.read_stream(stream)

    # --- global order ----------------------------------------------------------------

    async def test_read_all_returns_every_event_once_in_order_strictly_after_a_cursor(
        self, store: EventStore
    ) -> None:
        one, two = a_stream(), a_stream()
        appended = [
            *(await store.append(one, 0, events(2))).events,
            *(await store.append(two, 0, events(3))).events,
            *(await store.append(one, 2, events(1))).events,
        ]
        everything = await store.read_all(Cursor.START)
        assert everything == appended
        cursors = [event.cursor for event in everything]
        assert cursors == sorted(cursors) and len(set(cursors)) == len(cursors)
        assert await store.read_all(everything[2].cursor) == appended[3:]
        assert await store.read_all(everything[0].cursor, limit=2) == appended[1:3]
        assert await store.read_all(everything[-1].cursor) == []

    async def test_read_all_of_sends_the_wanted_types_and_the_cursor_read_up_to(
        self, store: EventStore
    ) -> None:
        one, two = a_stream(), a_stream()
        appended = [
            *(await store.append(one, 0, events(3))).events,
            *(await store.append(two, 0, events(2))).events,
            *(await store.append(one, 3, events(2))).events,
        ]
        wanted = frozenset({"test.E1", "test.E2"})
        found, reach = await store.read_all_of(wanted, Cursor.START)
        assert found == [e for e in appended if e.type in wanted]
        assert reach == appended[-1].cursor
        # a window of three events: the wanted ones in it, and where it ends
        found, reach = await store.read_all_of(wanted, Cursor.START, scan=3)
        assert (found, reach) == (appended[1:3], appended[2].cursor)
        found, reach = await store.read_all_of(frozenset({"test.none"}), reach, scan=3)
        assert (found, reach) == ([], appended[5].cursor)
        # followed window by window, every wanted event once, in order
        seen: list[StoredEvent] = []
        cursor = Cursor.START
        while True:
            found, reach = await store.read_all_of(wanted, cursor, scan=2)
            if reach == cursor:
                break
            seen += found
            cursor = reach
        assert seen == [e for e in appended if e.type in wanted]
        # nothing new: nothing, and the cursor it was given
        assert await store.read_all_of(wanted, appended[-1].cursor) == ([], appended[-1].cursor)

    async def test_read_all_in_sends_the_streams_of_its_partitions_and_the_cursor_read_up_to(
        self, store: EventStore
    ) -> None:
        streams = [a_stream() for _ in range(12)] + ["table-x", "nodash", "account-é"]
        appended = [
            e for stream in streams for e in (await store.append(stream, 0, events(2))).events
        ]
        count = 4
        for partition in range(count):
            wanted = frozenset({partition})
            found, reach = await store.read_all_in(wanted, count, Cursor.START)
            assert found == [
                e for e in appended if stream_partition(e.stream_id, count) == partition
            ]
            assert reach == appended[-1].cursor
        # the Postgres store's SQL agrees with ``stream_partition`` (and a match's stream
        # is in its match's partition); all partitions together are the whole log
        found, _ = await store.read_all_in(frozenset(range(count)), count, Cursor.START)
        assert found == appended
        # window by window, the cursor moves on even where no stream of its partitions is
        some = frozenset({stream_partition(streams[0], count)})
        seen: list[StoredEvent] = []
        cursor = Cursor.START
        while True:
            found, reach = await store.read_all_in(some, count, cursor, scan=3)
            if reach == cursor:
                break
            seen += found
            cursor = reach
        assert seen == [e for e in appended if stream_partition(e.stream_id, count) in some]
        assert await store.read_all_in(some, count, appended[-1].cursor) == (
            [],
            appended[-1].cursor,
        )

    async def test_tail_yields_stored_events_then_new_ones(self, store: EventStore) -> None:
        stream = a_stream()
        await store.append(stream, 0, events(3))
        seen: list[StoredEvent] = []

        async def follow() -> None:
            async for event in tail(store, poll_interval=0.01, batch_size=2):
                seen.append(event)
                if len(seen) == 5:
                    return

        follower = asyncio.create_task(follow())
        await asyncio.sleep(0.05)
        await store.append(stream, 3, events(2))
        await asyncio.wait_for(follower, timeout=10)
        assert [event.version for event in seen] == [1, 2, 3, 4, 5]

    async def test_a_clock_without_a_timezone_is_refused_before_anything_is_written(
        self, store: EventStore, clock: SteppingClock
    ) -> None:
        stream = a_stream()
        clock.naive = True
        with pytest.raises(ValueError, match="timezone"):
            await store.append(stream, 0, events(1), command_id="naive")
        assert await store.stream_version(stream) == 0
        assert await store.find_command(stream, "naive") is None
