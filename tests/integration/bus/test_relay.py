"""The relay on real Postgres and a real NATS JetStream server: everything committed
reaches the bus, at least once and deduplicated by event id, even across NATS outages
and relay restarts; durable consumers catch up after a restart."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import nats
import pytest

from tavola.bus.consumer import subscribe_events
from tavola.bus.relay import Relay
from tavola.bus.subjects import Subjects
from tavola.cli.platform import free_port
from tavola.eventlog.model import NewEvent, stream_partition
from tavola.eventlog.postgres import PostgresEventStore
from tavola.eventlog.tracking import load_position
from tavola.infra.nats_server import find_nats_server
from tavola.protocol.events import CAUSE_KINDS, Metadata
from tavola.service.runtime import ensure_event_stream
from tavola.v1.common_pb2 import Record

pytestmark = pytest.mark.integration


class PrivateNats:
    """A NATS server we can stop and start again on the same port and store."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                str(find_nats_server()),
                "-a",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-js",
                "-sd",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


@pytest.fixture
def private_nats(tmp_path: Path) -> Iterator[PrivateNats]:
    server = PrivateNats(tmp_path / "nats")
    server.start()
    yield server
    if server.process and server.process.poll() is None:
        server.stop()


async def connect(url: str) -> nats.aio.client.Client:
    for _ in range(100):
        try:
            return await nats.connect(url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)
        except Exception:
            await asyncio.sleep(0.1)
    raise AssertionError("NATS did not start")


def an_event() -> NewEvent:
    payload = Record(type="test.Happened").SerializeToString()
    return NewEvent(
        event_id=uuid.uuid4(),
        type="test.Happened",
        payload=payload,
        metadata=Metadata(kind=CAUSE_KINDS["system"]).encode(),
    )


async def bus_ids(js, names: Subjects) -> list[str]:
    sub = await js.pull_subscribe(names.events_all, durable=None, stream=names.events_stream)
    ids: list[str] = []
    while True:
        try:
            batch = await sub.fetch(100, timeout=1)
        except (TimeoutError, nats.errors.TimeoutError):
            await sub.unsubscribe()
            return ids
        ids += [m.headers["Nats-Msg-Id"] for m in batch]
        for m in batch:
            await m.ack()


@pytest.fixture
async def relay_setup(
    pool: asyncpg.Pool, private_nats: PrivateNats
) -> AsyncIterator[tuple[PostgresEventStore, object, Subjects, Relay]]:
    names = Subjects(f"t{secrets.token_hex(4)}")
    nc = await connect(private_nats.url)
    js = nc.jetstream()
    await ensure_event_stream(js, names)
    store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
    relay = Relay(pool, store, nc, names, poll_interval=0.05)
    yield store, js, names, relay
    await nc.close()


async def until(predicate, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def test_every_committed_event_is_published_once(relay_setup):
    store, js, names, relay = relay_setup
    stop = asyncio.Event()
    task = asyncio.create_task(relay.run(stop))
    appended = []
    for n in range(5):
        result = await store.append(f"match-{n}", 0, [an_event(), an_event()])
        appended += [str(e.event_id) for e in result.events]

    async def all_there() -> bool:
        return len(await bus_ids(js, names)) >= len(appended)

    await until(all_there)
    stop.set()
    await task
    assert sorted(await bus_ids(js, names)) == sorted(appended)


async def test_a_move_committed_while_nats_is_down_is_published_when_it_is_back(
    relay_setup, private_nats
):
    store, js, names, relay = relay_setup
    stop = asyncio.Event()
    task = asyncio.create_task(relay.run(stop))
    before = await store.append("match-a", 0, [an_event()])
    await until(lambda: _count_at_least(js, names, 1))
    private_nats.stop()
    during = await store.append("match-a", 1, [an_event()])  # committed, bus down
    await asyncio.sleep(1.0)
    private_nats.start()
    await until(lambda: _count_at_least(js, names, 2), timeout=30)
    stop.set()
    await task
    ids = await bus_ids(js, names)
    assert sorted(ids) == sorted(str(e.event_id) for e in (*before.events, *during.events))


async def _count_at_least(js, names: Subjects, n: int) -> bool:
    try:
        return len(await bus_ids(js, names)) >= n
    except Exception:
        return False


async def test_a_relay_restarted_from_an_old_position_publishes_no_duplicate(relay_setup, pool):
    store, js, names, relay = relay_setup
    stop = asyncio.Event()
    task = asyncio.create_task(relay.run(stop))
    result = await store.append("match-r", 0, [an_event() for _ in range(4)])
    await until(lambda: _count_at_least(js, names, 4))
    stop.set()
    await task
    async with pool.acquire() as conn:  # as if it crashed before saving its position
        await conn.execute("DELETE FROM tracking WHERE name = 'relay'")
    assert await load_position(pool, "relay") is not None
    stop = asyncio.Event()
    task = asyncio.create_task(relay.run(stop))
    await asyncio.sleep(1.0)
    stop.set()
    await task
    assert sorted(await bus_ids(js, names)) == sorted(str(e.event_id) for e in result.events)


async def test_a_durable_consumer_that_restarts_catches_up(relay_setup, private_nats):
    store, _js, names, relay = relay_setup
    stop = asyncio.Event()
    task = asyncio.create_task(relay.run(stop))
    seen: list[str] = []

    async def handler(envelope, _msg) -> None:
        seen.append(envelope.event_id)

    consumer_nc = await connect(private_nats.url)
    await subscribe_events(consumer_nc.jetstream(), names.match_events_all, "c", handler)
    first = await store.append("match-c", 0, [an_event(), an_event()])

    async def got(n: int) -> bool:
        return len(set(seen)) >= n

    await until(lambda: got(2))
    await consumer_nc.close()  # the consumer goes away; its durable state stays
    second = await store.append("match-c", 2, [an_event(), an_event(), an_event()])
    await asyncio.sleep(0.5)
    consumer_nc = await connect(private_nats.url)
    await subscribe_events(consumer_nc.jetstream(), names.match_events_all, "c", handler)
    await until(lambda: got(5))
    await consumer_nc.close()
    stop.set()
    await task
    assert set(seen) == {str(e.event_id) for e in (*first.events, *second.events)}


async def test_the_relay_saves_its_cursor_every_so_many_events_not_after_every_batch(
    relay_setup, pool, private_nats
):
    store, js, names, _ = relay_setup
    nc = await connect(private_nats.url)
    relay = Relay(pool, store, nc, names, poll_interval=0.01, save_every=10, save_interval=60.0)
    stop = asyncio.Event()
    task = asyncio.create_task(relay.run(stop))
    appended = []
    for n in range(25):  # one small batch after another, each published on its own
        result = await store.append("match-s", n, [an_event()])
        appended.append(result.events[0])
        relay.poke()
        await asyncio.sleep(0.02)
    await until(lambda: _count_at_least(js, names, 25))
    assert relay.saves <= 3  # at 10 and 20 events (and perhaps once more), never 25 times
    stop.set()
    await task  # a relay that stops saves where it got to
    assert await load_position(pool, "relay") == appended[-1].cursor
    assert sorted(await bus_ids(js, names)) == sorted(str(e.event_id) for e in appended)
    await nc.close()


def streams_in(partitions: set[int], count: int, how_many: int) -> list[str]:
    """``how_many`` match streams whose partition (of ``count``) is in ``partitions``."""
    found: list[str] = []
    while len(found) < how_many:
        stream = f"match-{uuid.uuid4()}"
        if stream_partition(stream, count) in partitions:
            found.append(stream)
    return found


async def test_two_relays_of_their_partitions_publish_the_whole_log_once_each_its_share(
    pool, private_nats
):
    names = Subjects(f"t{secrets.token_hex(4)}")
    nc = await connect(private_nats.url)
    js = nc.jetstream()
    await ensure_event_stream(js, names)
    store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
    halves = (frozenset({0, 1}), frozenset({2, 3}))
    relays = [
        Relay(pool, store, nc, names, poll_interval=0.05, partitions=lambda h=h: h, count=4)
        for h in halves
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(r.run(stop)) for r in relays]
    appended: dict[int, list[str]] = {0: [], 1: []}
    for half, held in enumerate(halves):
        for stream in streams_in(set(held), 4, 5):
            result = await store.append(stream, 0, [an_event(), an_event()])
            appended[half] += [str(e.event_id) for e in result.events]
    everything = appended[0] + appended[1]
    await until(lambda: _count_at_least(js, names, len(everything)))
    stop.set()
    await asyncio.gather(*tasks)
    assert sorted(await bus_ids(js, names)) == sorted(everything)
    assert [r.published for r in relays] == [10, 10]  # each its own half, nothing twice
    saved = {row["name"] for row in await pool.fetch("SELECT name FROM tracking")}
    assert {f"relay.p{p}" for p in range(4)} <= saved
    await nc.close()


async def test_a_partition_given_back_is_published_by_its_next_holder_from_where_it_got_to(
    pool, private_nats
):
    """A relay releases a partition (saving its cursor), another takes it up: what was
    published is not published again, what comes after is published by the new holder."""
    names = Subjects(f"t{secrets.token_hex(4)}")
    nc = await connect(private_nats.url)
    js = nc.jetstream()
    await ensure_event_stream(js, names)
    store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
    first_held, second_held = {0, 1}, set[int]()
    # saving only at release and at the end: a republish would show as a second message
    settings = {"poll_interval": 0.05, "save_interval": 60.0, "save_every": 10_000, "count": 2}
    first = Relay(pool, store, nc, names, partitions=lambda: frozenset(first_held), **settings)
    second = Relay(pool, store, nc, names, partitions=lambda: frozenset(second_held), **settings)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(r.run(stop)) for r in (first, second)]
    moving, staying = streams_in({1}, 2, 1)[0], streams_in({0}, 2, 1)[0]
    before = await store.append(moving, 0, [an_event(), an_event()])
    await store.append(staying, 0, [an_event()])
    await until(lambda: _count_at_least(js, names, 3))
    first_held.discard(1)  # the lease's handover: given back, then taken
    await first.release(frozenset({1}))
    second_held.add(1)
    second.poke()
    after = await store.append(moving, 2, [an_event()])
    await store.append(staying, 1, [an_event()])
    await until(lambda: _count_at_least(js, names, 5))
    await asyncio.sleep(0.3)
    stop.set()
    await asyncio.gather(*tasks)
    published = await bus_ids(js, names)
    assert len(published) == len(set(published)) == 5
    assert (first.published, second.published) == (4, 1)  # nothing published twice
    assert str(after.events[0].event_id) in published
    assert all(str(e.event_id) in published for e in before.events)
    await nc.close()


async def test_a_partition_never_relayed_by_partition_starts_where_the_single_relay_was(
    relay_setup, pool, private_nats
):
    store, js, names, single = relay_setup
    stop = asyncio.Event()
    task = asyncio.create_task(single.run(stop))
    old = await store.append("match-old", 0, [an_event(), an_event()])
    await until(lambda: _count_at_least(js, names, 2))
    stop.set()
    await task  # saved as ``relay``
    new = await store.append("match-old", 2, [an_event()])
    nc = await connect(private_nats.url)
    shared = Relay(
        pool, store, nc, names, poll_interval=0.05, partitions=lambda: frozenset({0}), count=1
    )
    stop = asyncio.Event()
    task = asyncio.create_task(shared.run(stop))
    await until(lambda: _count_at_least(js, names, 3))
    await asyncio.sleep(0.3)
    stop.set()
    await task
    assert shared.published == 1  # only what came after the single relay's cursor
    assert sorted(await bus_ids(js, names)) == sorted(
        str(e.event_id) for e in (*old.events, *new.events)
    )
    await nc.close()
