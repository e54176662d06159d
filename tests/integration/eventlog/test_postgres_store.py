"""The Postgres event store passes the shared EventStore contract, and holds under races."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from tavola.eventlog.contract import EventStoreContract, SteppingClock, a_stream, events
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.model import EventStore
from tavola.eventlog.postgres import READ_ALL_QUERY, PostgresEventStore

pytestmark = pytest.mark.integration


class TestPostgresEventStore(EventStoreContract):
    @pytest.fixture
    def store(self, pool: asyncpg.Pool, clock: SteppingClock) -> EventStore:
        return PostgresEventStore(pool, clock)


@pytest.fixture
def store(pool: asyncpg.Pool) -> PostgresEventStore:
    return PostgresEventStore(pool, SteppingClock())


async def test_of_ten_concurrent_writers_of_one_version_exactly_one_wins(
    store: PostgresEventStore,
) -> None:
    stream = a_stream()
    await store.append(stream, 0, events(1))
    outcomes = await asyncio.gather(
        *(store.append(stream, 1, events(2)) for _ in range(10)), return_exceptions=True
    )
    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    conflicts = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
    assert (len(winners), len(conflicts)) == (1, 9)
    assert {(c.expected, c.actual) for c in conflicts} == {(1, 3)}
    assert await store.stream_version(stream) == 3


@pytest.mark.parametrize("round_", range(10))
async def test_a_command_retried_concurrently_is_appended_once(
    store: PostgresEventStore, round_: int
) -> None:
    stream = a_stream()
    outcomes = await asyncio.gather(
        *(
            store.append(stream, 0, events(1), command_id="c", command_result=b"r")
            for _ in range(6)
        ),
        return_exceptions=True,
    )
    duplicates = [o for o in outcomes if isinstance(o, DuplicateCommand)]
    assert len(duplicates) == 5, outcomes
    assert all(d.record.result == b"r" and list(d.record.versions) == [1] for d in duplicates)
    assert await store.stream_version(stream) == 1


async def test_a_retry_whose_first_attempt_commits_while_it_writes_gets_the_first_answer(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    """The interleaving CI once hit, as it happens with one statement: the first attempt
    has written but not committed when the retry's statement runs (its snapshot sees no
    command, the stream at 0); the retry waits on the key, the first attempt commits, the
    retry's insert fails. The answer is the first attempt's record."""
    stream = a_stream()
    first_attempt = PostgresEventStore(pool, SteppingClock())
    async with pool.acquire() as conn:
        transaction = conn.transaction()
        await transaction.start()
        await first_attempt.append_in(
            conn, stream, 0, events(1), command_id="c", command_result=b"r"
        )
        retry = asyncio.create_task(
            store.append(stream, 0, events(1), command_id="c", command_result=b"other")
        )
        await _blocked_on_a_lock(pool)
        await transaction.commit()
    with pytest.raises(DuplicateCommand) as raised:
        await retry
    assert raised.value.record.result == b"r"
    assert list(raised.value.record.versions) == [1]
    assert await store.stream_version(stream) == 1


async def _blocked_on_a_lock(pool: asyncpg.Pool) -> None:
    """Until some session of this database waits for a row lock (the retry's insert)."""
    for _ in range(500):
        waiting = await pool.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the retry never waited for the first attempt")


async def test_one_command_id_raced_onto_one_stream_is_recorded_once(
    store: PostgresEventStore,
) -> None:
    stream = a_stream()
    outcomes = await asyncio.gather(
        *(store.append(stream, 0, [], command_id="shared") for _ in range(5)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, DuplicateCommand) for o in outcomes) == 4
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1


async def test_one_command_id_on_different_streams_is_one_command_per_stream(
    store: PostgresEventStore,
) -> None:
    streams = [a_stream() for _ in range(5)]
    outcomes = await asyncio.gather(
        *(store.append(s, 0, [], command_id="shared") for s in streams), return_exceptions=True
    )
    assert not any(isinstance(o, BaseException) for o in outcomes)


async def test_append_in_a_callers_transaction_commits_or_rolls_back_with_it(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    stream = a_stream()
    async with pool.acquire() as conn:
        with pytest.raises(RuntimeError):
            async with conn.transaction():
                await store.append_in(conn, stream, 0, events(2), command_id="c")
                raise RuntimeError("the caller changed its mind")
        assert await store.stream_version(stream) == 0
        assert await store.find_command(stream, "c") is None
        async with conn.transaction():
            with pytest.raises(ConcurrencyConflict):
                await store.append_in(conn, stream, 5, events(1))
            await store.append_in(conn, stream, 0, events(1))  # still usable after the error
    assert await store.stream_version(stream) == 1


async def test_stored_events_cannot_be_updated_or_deleted(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    stream = a_stream()
    await store.append(stream, 0, events(1))
    for statement in (
        "UPDATE events SET payload = '\\x00'::bytea",
        "DELETE FROM events",
        "TRUNCATE events",
    ):
        with pytest.raises(asyncpg.RaiseError, match="append-only"):
            await pool.execute(statement)
    assert await store.stream_version(stream) == 1


async def test_reading_the_global_order_uses_the_tx_position_index(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    for n in range(10):
        await store.append(f"table-{n}", 0, events(200))
    await pool.execute("ANALYZE events")
    plan = await pool.fetch(f"EXPLAIN {READ_ALL_QUERY}", 5, 100, 100)
    text = "\n".join(row[0] for row in plan)
    assert "Index Scan using events_global_order" in text, text
    assert "Sort" not in text, text


async def test_a_head_seen_inside_a_transaction_that_rolls_back_is_not_remembered(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    """The store chains new events from heads it remembers; a head only the caller's open
    transaction could see must never be one of them (appending after it would leave a
    gap once that transaction rolls back)."""
    stream = a_stream()
    async with pool.acquire() as conn:
        with pytest.raises(RuntimeError):
            async with conn.transaction():
                await store.append_in(conn, stream, 0, events(2))
                await store.append_in(conn, stream, 2, events(1))  # reads its own head
                raise RuntimeError("rolled back")
    with pytest.raises(ConcurrencyConflict) as raised:
        await store.append(stream, 3, events(1))
    assert raised.value.actual == 0
    assert await store.read_stream(stream) == []
