"""Group commit: many streams' appends in one statement, each batch still all-or-nothing,
each caller answered with its own outcome — and one statement per append when alone."""

from __future__ import annotations

import asyncio
import contextlib

import asyncpg
import pytest

from tavola.eventlog import append_sql, group_commit
from tavola.eventlog.append_sql import APPEND, Batch, arguments
from tavola.eventlog.chain import GENESIS_HASH, verify_chain
from tavola.eventlog.contract import SteppingClock, a_stream, an_event, events
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.model import NewEvent, seal
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


async def test_two_writers_share_what_is_under_way_so_their_commits_overlap(
    pool: asyncpg.Pool,
) -> None:
    """48 appends at once, two writers: the first is written alone by its caller (the log
    was idle), and of the 47 queued meanwhile the next statement takes its share of what is
    under way (24) and the one after the rest, side by side — not one statement for all."""
    store = PostgresEventStore(pool, SteppingClock(), writers=2)
    sizes: list[int] = []
    write = store.group_commit._write

    async def counted(group: list) -> None:  # type: ignore[type-arg]
        sizes.append(len(group))
        await write(group)

    store.group_commit._write = counted  # type: ignore[method-assign]
    streams = [a_stream() for _ in range(48)]
    await asyncio.gather(*(store.append(s, 0, events(1)) for s in streams))
    assert sizes == [24, 23]
    assert store.group_commit.statements == 3


async def test_a_writer_takes_at_least_min_share_of_what_is_queued(pool: asyncpg.Pool) -> None:
    store = PostgresEventStore(pool, SteppingClock(), writers=4)
    streams = [a_stream() for _ in range(group_commit.MIN_SHARE)]
    await asyncio.gather(*(store.append(s, 0, events(1)) for s in streams))
    assert store.group_commit.statements == 2  # the first alone, then one: not three of two


async def test_an_append_alone_is_one_statement(store: PostgresEventStore) -> None:
    stream = a_stream()
    for version in range(0, 10, 2):
        await store.append(stream, version, events(2), command_id=f"c{version}")
    assert (store.group_commit.statements, store.group_commit.batches) == (5, 5)


async def test_a_writer_keeps_its_connection_between_appends_and_gives_it_back(
    pool: asyncpg.Pool,
) -> None:
    store = PostgresEventStore(pool, SteppingClock(), writers=1)
    stream = a_stream()
    for version in range(5):
        await store.append(stream, version, events(1), command_id=f"c{version}")
        async with pool.acquire() as other:  # the pool still serves everyone else
            assert await other.fetchval("SELECT 1") == 1
    kept = pool.get_size() - pool.get_idle_size()
    assert kept == 1  # the writer's, between its statements
    await asyncio.sleep(group_commit.KEEP_SECONDS * 2)
    assert pool.get_size() == pool.get_idle_size()  # all back in the pool
    await store.append(stream, 5, events(1), command_id="c5")  # and taken again
    assert [e.version for e in await store.read_stream(stream)] == [1, 2, 3, 4, 5, 6]


async def test_a_connection_that_failed_goes_back_to_the_pool_closed(pool: asyncpg.Pool) -> None:
    store = PostgresEventStore(pool, SteppingClock(), writers=1)
    stream = a_stream()
    await store.append(stream, 0, events(1), command_id="c0")
    (conn,) = store.group_commit._kept
    async with pool.acquire() as other:
        await other.execute("SELECT pg_terminate_backend($1)", conn.get_server_pid())
    lost = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
    with pytest.raises(lost):  # as for any connection lost: the outcome is unknown
        await store.append(stream, 1, events(1), command_id="c1")
    assert not store.group_commit._kept
    await store.append(stream, 1, events(1), command_id="c1")  # a new connection, the same log
    assert [e.version for e in await store.read_stream(stream)] == [1, 2]


ROW = (
    "version, event_id, type, schema_version, rules_version, payload, audience, metadata, "
    "recorded_at, prev_hash, hash"
)


@pytest.mark.parametrize("count", [1, 2, append_sql.VALUES_AT_MOST, append_sql.VALUES_AT_MOST + 1])
@pytest.mark.parametrize("command", [True, False])
async def test_a_lone_batch_written_with_values_stores_what_the_arrays_store(
    pool: asyncpg.Pool, count: int, command: bool
) -> None:
    """A lone small batch goes as ``VALUES`` rows: byte for byte the rows (and the command
    record) that ``APPEND``'s arrays write, private audiences and empty metadata included."""
    now = SteppingClock()()

    def made() -> list[NewEvent]:
        return [
            an_event(
                f"test.E{n}",
                bytes([n, 1]),
                audience=(None, (0,), (1, 3))[n % 3],
                metadata=bytes(n % 2),
                schema_version=1 + n % 2,
                rules_version=2,
            )
            for n in range(count)
        ]

    stored = {}
    for how, stream in (("values", a_stream()), ("arrays", a_stream())):
        batch = Batch(
            stream,
            0,
            seal(stream, 0, GENESIS_HASH, made(), now),
            "c" if command else None,
            b"result",
            now,
        )
        sql, args = (
            append_sql.statement([batch]) if how == "values" else (APPEND, arguments([batch]))
        )
        assert (sql == APPEND) == (how == "arrays" or count > append_sql.VALUES_AT_MOST)
        async with pool.acquire() as conn, conn.transaction():
            placed = await conn.fetch(sql, *args)
        assert [(r["stream_id"], r["version"]) for r in placed] == [
            (stream, n + 1) for n in range(count)
        ]
        rows = await pool.fetch(
            f"SELECT {ROW} FROM events WHERE stream_id = $1 ORDER BY version", stream
        )
        commands = await pool.fetch(
            "SELECT command_id, first_version, last_version, result, recorded_at FROM commands "
            "WHERE stream_id = $1",
            stream,
        )
        stored[how] = ([tuple(r) for r in rows], [tuple(r) for r in commands])
    values_rows, values_commands = stored["values"]
    array_rows, array_commands = stored["arrays"]
    # event ids are unique and the hashes chain the stream's id: the rest is compared
    assert [r[:1] + r[2:9] for r in values_rows] == [r[:1] + r[2:9] for r in array_rows]
    assert [r[6] for r in values_rows] == [[None, [0], [1, 3]][n % 3] for n in range(count)]
    assert (
        values_commands == array_commands == ([("c", 1, count, b"result", now)] if command else [])
    )


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


async def test_a_lone_append_cancelled_mid_statement_leaves_the_log_usable(
    pool: asyncpg.Pool,
) -> None:
    """A caller writing its batch itself is cancelled while its statement runs: its outcome
    is unknown (as for a lost connection), the connection goes back to the pool, and the
    same command again tells what happened — once, whichever it was."""
    store = PostgresEventStore(pool, SteppingClock(), writers=1)
    stream = a_stream()
    await store.append(stream, 0, events(1), command_id="c0")
    async with pool.acquire() as blocker:  # hold the stream's next version: the insert waits
        await blocker.execute("BEGIN")
        await blocker.execute(
            "SELECT pg_advisory_xact_lock(1); LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE"
        )
        attempt = asyncio.create_task(store.append(stream, 1, events(1), command_id="c1"))
        await asyncio.sleep(0.3)
        attempt.cancel()
        with pytest.raises(asyncio.CancelledError):
            await attempt
        await blocker.execute("ROLLBACK")
    for _ in range(50):  # the cancelled connection is back once the server settled it
        if pool.get_size() == pool.get_idle_size() + len(store.group_commit._kept):
            break
        await asyncio.sleep(0.1)
    with contextlib.suppress(DuplicateCommand, ConcurrencyConflict):
        await store.append(stream, 1, events(1), command_id="c1")  # or it had committed
    versions = [e.version for e in await store.read_stream(stream)]
    assert versions == [1, 2]
    assert verify_chain(await store.read_stream(stream)) is None
