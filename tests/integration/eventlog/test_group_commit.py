"""Group commit: many streams' appends in one statement, each batch still all-or-nothing,
each caller answered with its own outcome — and one statement per append when alone."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from tavola.eventlog.chain import verify_chain
from tavola.eventlog.contract import SteppingClock, a_stream, events
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.postgres import PostgresEventStore

pytestmark = pytest.mark.integration


@pytest.fixture
def store(pool: asyncpg.Pool) -> PostgresEventStore:
    return PostgresEventStore(pool, SteppingClock(), writers=1)


async def test_appends_of_many_streams_arriving_together_share_statements(
    store: PostgresEventStore,
) -> None:
    streams = [a_stream() for _ in range(40)]
    results = await asyncio.gather(
        *(store.append(s, 0, events(2), command_id="c", command_result=b"r") for s in streams)
    )
    writer = store.group_commit
    assert writer.batches == 40
    assert writer.statements < 40  # one writer: the others queued while the first ran
    assert all(list(r.versions) == [1, 2] for r in results)
    for stream in streams:
        assert verify_chain(await store.read_stream(stream)) is None
        record = await store.find_command(stream, "c")
        assert record is not None and record.result == b"r"


async def test_an_append_alone_is_one_statement(store: PostgresEventStore) -> None:
    stream = a_stream()
    for version in range(0, 10, 2):
        await store.append(stream, version, events(2), command_id=f"c{version}")
    assert (store.group_commit.statements, store.group_commit.batches) == (5, 5)


async def test_a_stale_or_repeated_batch_in_a_group_is_refused_alone(
    store: PostgresEventStore,
) -> None:
    stale, repeated = a_stream(), a_stream()
    await store.append(stale, 0, events(2))
    await store.append(repeated, 0, events(1), command_id="once", command_result=b"first")
    fine = [a_stream() for _ in range(5)]
    outcomes = await asyncio.gather(
        store.append(stale, 1, events(1)),
        store.append(repeated, 1, events(1), command_id="once"),
        *(store.append(s, 0, events(1)) for s in fine),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], ConcurrencyConflict) and outcomes[0].actual == 2
    assert isinstance(outcomes[1], DuplicateCommand)
    assert outcomes[1].record.result == b"first"
    assert all(not isinstance(o, BaseException) for o in outcomes[2:])
    assert [await store.stream_version(s) for s in (stale, repeated, *fine)] == [2, 1, *[1] * 5]


async def test_a_group_racing_another_writer_is_written_again_batch_by_batch(
    store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    """Another store holds version 1 of one stream uncommitted while a group that also
    writes version 1 of it runs: the group's statement fails on the key once the other
    commits; every other batch of the group is then written, and only the racer is told."""
    raced = a_stream()
    others = [a_stream() for _ in range(6)]
    elsewhere = PostgresEventStore(pool, SteppingClock())
    async with pool.acquire() as conn:
        transaction = conn.transaction()
        await transaction.start()
        await elsewhere.append_in(conn, raced, 0, events(1))
        group = asyncio.gather(
            store.append(raced, 0, events(1)),
            *(store.append(s, 0, events(3)) for s in others),
            return_exceptions=True,
        )
        await asyncio.sleep(0.3)  # the group's statement now waits on the raced key
        await transaction.commit()
    outcomes = await group
    assert isinstance(outcomes[0], ConcurrencyConflict) and outcomes[0].actual == 1
    assert all(list(o.versions) == [1, 2, 3] for o in outcomes[1:])  # type: ignore[union-attr]
    for stream in others:
        assert verify_chain(await store.read_stream(stream)) is None


async def test_two_stores_appending_to_one_stream_keep_one_chain(pool: asyncpg.Pool) -> None:
    """A store that did not write the head reads it before chaining from it."""
    one = PostgresEventStore(pool, SteppingClock())
    two = PostgresEventStore(pool, SteppingClock())
    stream = a_stream()
    version = 0
    for turn in range(6):
        writer = one if turn % 2 == 0 else two
        version = (await writer.append(stream, version, events(2))).last_version
    stored = await one.read_stream(stream)
    assert [e.version for e in stored] == list(range(1, 13))
    assert verify_chain(stored) is None
