"""The engine is killed (SIGKILL) mid-match and restarted: the match finishes with every
move appended exactly once, and every event reaches the bus exactly once."""

from __future__ import annotations

import asyncio
import time
import uuid

import asyncpg
import nats
import pytest

from support.platform import bot_table, eventually, match_state
from tavola.bus.subjects import Subjects
from tavola.cli.platform import wait_healthy
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.postgres import PostgresEventStore

pytestmark = pytest.mark.e2e


async def log_rows(database_url: str, match_id: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(database_url)
    try:
        return await conn.fetch(
            "SELECT version, event_id FROM events WHERE stream_id = $1 ORDER BY version",
            f"match-{match_id}",
        )
    finally:
        await conn.close()


async def bus_event_ids(nats_url: str, namespace: str, match_id: str) -> list[str]:
    names = Subjects(namespace)
    nc = await nats.connect(nats_url)
    try:
        js = nc.jetstream()
        sub = await js.pull_subscribe(
            names.stream_subjects(f"match-{match_id}"), durable=None, stream=names.events_stream
        )
        ids: list[str] = []
        while True:
            try:
                batch = await sub.fetch(500, timeout=2)
            except (TimeoutError, nats.errors.TimeoutError):
                return ids
            ids += [m.headers.get("Nats-Msg-Id", "") for m in batch]
    finally:
        await nc.close()


async def stored_events(database_url: str, match_id: str):
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    try:
        from datetime import UTC, datetime

        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
        return await store.read_stream(f"match-{match_id}")
    finally:
        await pool.close()


def test_an_engine_killed_mid_match_restarts_and_the_match_finishes_with_nothing_lost(
    client, platform
):
    match_id, _ = bot_table(client, "fan-tan", 7, {"hands": "7"})
    eventually(lambda: match_state(client, match_id).version > 60, timeout=60, every=0.05)
    assert not match_state(client, match_id).finished, "the match ended before the crash"
    platform.kill("engine")
    time.sleep(1.0)  # bots keep trying while the engine is down
    platform.start("engine")
    wait_healthy(platform.address, 60, platform.processes["engine"])
    final = eventually(lambda: (m := match_state(client, match_id)).finished and m, timeout=180)

    rows = asyncio.run(log_rows(platform.database_url, match_id))
    assert [r["version"] for r in rows] == list(range(1, final.version + 1))
    assert len({r["event_id"] for r in rows}) == len(rows)
    # the engine's ids are time-ordered (version 7), the restarted engine's after the first's
    assert all(r["event_id"].version == 7 for r in rows)
    assert [r["event_id"] for r in rows] == sorted(r["event_id"] for r in rows)
    # ids people see and type stay random: their first digits tell matches apart
    assert uuid.UUID(match_id).version == 4
    namespace = platform.extra_env["TAVOLA_NAMESPACE"]
    on_bus = eventually(
        lambda: (
            (ids := asyncio.run(bus_event_ids(platform.nats_url, namespace, match_id)))
            and len(ids) >= len(rows)
            and ids
        ),
        timeout=60,
        every=1.0,
    )
    assert sorted(on_bus) == sorted(str(r["event_id"]) for r in rows)  # each once, none lost
    stored = asyncio.run(stored_events(platform.database_url, match_id))
    assert verify_chain(stored) is None
    from tavola.cli.replay import decode
    from tavola.match.verify import verify

    verify(decode(stored))
