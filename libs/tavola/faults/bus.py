"""The bus against the log: every committed event published to JetStream, once.

Read while the engine (and its relay) still runs, once the tables have ended: the log's
event ids first, then — when the stream holds at least as many messages, or after a while —
every message of the platform's events stream, through an ephemeral consumer of the
operator's NATS user.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict

import asyncpg
import nats
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from tavola.bus.subjects import Subjects
from tavola.faults.checks import BusTally, Violation, compare_bus

_BATCH = 1000


async def check_bus(
    database_url: str, nats_urls: list[str], namespace: str, catch_up_seconds: float = 60.0
) -> tuple[BusTally, list[Violation]]:
    names = Subjects(namespace)
    logged = await _logged(database_url)
    expected = sum(len(ids) for ids in logged.values())
    client = await nats.connect(nats_urls, connect_timeout=5, max_reconnect_attempts=20)
    try:
        js = client.jetstream(timeout=10)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + catch_up_seconds
        while loop.time() < deadline:
            info = await js.stream_info(names.events_stream)
            if info.state.messages >= expected:
                break
            await asyncio.sleep(1.0)
        published = await _published(js, names)
    finally:
        with contextlib.suppress(Exception):
            await client.close()
    return compare_bus(logged, published)


async def _logged(database_url: str) -> dict[str, set[str]]:
    connection = await asyncpg.connect(database_url)
    try:
        rows = await connection.fetch("SELECT stream_id, event_id FROM events")
    finally:
        await connection.close()
    logged: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        logged[row["stream_id"]].add(str(row["event_id"]))
    return dict(logged)


async def _published(js: nats.js.JetStreamContext, names: Subjects) -> list[tuple[str, str]]:
    """(stream id, event id) of every message of the events stream."""
    subscription = await js.pull_subscribe(
        names.events_all,
        durable=None,
        stream=names.events_stream,
        config=ConsumerConfig(ack_policy=AckPolicy.NONE, deliver_policy=DeliverPolicy.ALL),
    )
    prefix = names.events_prefix + "."
    published: list[tuple[str, str]] = []
    try:
        while True:
            try:
                batch = await subscription.fetch(_BATCH, timeout=5)
            except TimeoutError:  # nats' own, or asyncio's: a fetch that found nothing more
                batch = []
            for message in batch:
                category, ident, _type = message.subject.removeprefix(prefix).split(".", 2)
                event_id = (message.headers or {}).get("Nats-Msg-Id", "")
                published.append((f"{category}-{ident}", event_id))
            if not batch:
                pending = (await subscription.consumer_info()).num_pending
                if not pending:
                    return published
    finally:
        with contextlib.suppress(Exception):
            await subscription.unsubscribe()
