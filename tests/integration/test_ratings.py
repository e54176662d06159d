"""Ratings on real Postgres: a log projection in global order, rebuilt identically."""

from __future__ import annotations

import asyncpg
import pytest

from services.engine.app import Engine, Ports
from services.scoring.app import ensure_schema
from services.scoring.ratings import RatingsProjection
from support.engine import FixedClock, account
from support.referee import play_people as play
from tavola.eventlog.postgres import PostgresEventStore

pytestmark = pytest.mark.integration


class Seeds:
    async def seed(self, match_id: str) -> bytes:
        return match_id.encode().ljust(32, b"-")[:32]


async def engine_on(pool: asyncpg.Pool, first_id: int) -> tuple[Engine, PostgresEventStore]:
    """An engine on the real event log (event ids counted from ``first_id``)."""
    import itertools
    import uuid

    await ensure_schema(pool)
    store = PostgresEventStore(pool, clock=FixedClock())
    ids = itertools.count(first_id)
    engine = Engine(
        Ports(
            store=store,
            seeds=Seeds(),
            new_id=lambda: uuid.UUID(int=next(ids)),
            salt=lambda n: bytes(n),
            now_ms=lambda: 0,
        )
    )
    return engine, store


async def test_ratings_follow_results_and_a_rebuild_gives_the_same_values(pool: asyncpg.Pool):
    engine, store = await engine_on(pool, first_id=1)
    for m in range(3):
        await play(engine, f"m{m}", ["ana", "bia", "caio", "duda"])
    await play(engine, "spades-1", ["ana", "bia", "caio", "duda"], game="spades")
    projection = RatingsProjection(pool, store)
    await projection.catch_up()
    live = await pool.fetch("SELECT * FROM ratings ORDER BY game, player")
    assert {r["name"] for r in live} == {"ana", "bia", "caio", "duda"}
    assert {r["player"] for r in live} == {account(seat) for seat in range(4)}  # accounts
    assert all(r["matches"] == 3 for r in live if r["game"] == "fan-tan")
    spades = {r["name"]: r["mu"] for r in live if r["game"] == "spades"}
    assert spades["ana"] == spades["caio"] and spades["bia"] == spades["duda"]  # partners
    await projection.rebuild()
    assert await pool.fetch("SELECT * FROM ratings ORDER BY game, player") == live


async def test_a_rebuild_while_the_service_runs_gives_the_same_ratings(pool: asyncpg.Pool):
    """The live projector keeps running (and matches keep ending) during a rebuild: the
    rebuild holds the projection's lock, the live one waits and then skips what is done."""
    import asyncio

    engine, store = await engine_on(pool, first_id=10_000)
    names = ["eva", "gil", "ivo", "lia"]
    for m in range(3):
        await play(engine, f"r{m}", names)
    live = RatingsProjection(pool, store)
    stop = asyncio.Event()
    running = asyncio.create_task(live.run(stop, poll=0.01))
    await asyncio.sleep(0.2)
    more = asyncio.create_task(play(engine, "r3", names))
    for _ in range(3):  # rebuilds race the live projector and the fourth match
        await RatingsProjection(pool, store).rebuild()
    await more
    await asyncio.sleep(0.3)
    stop.set()
    await running  # the live projector never failed
    query = "SELECT * FROM ratings WHERE name = ANY($1) ORDER BY player"
    after = await pool.fetch(query, names)
    await RatingsProjection(pool, store).rebuild()
    clean = await pool.fetch(query, names)
    assert after == clean and all(r["matches"] == 4 for r in clean)
