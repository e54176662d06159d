"""Composition root of the scoring service."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from datetime import UTC, datetime

import asyncpg
import structlog
from nats.aio.msg import Msg

from services.scoring import league_queries
from services.scoring.app import ENDED, Scoring, ensure_schema
from services.scoring.league_standings import LeagueStandingsProjection
from services.scoring.projection import Projection
from services.scoring.ratings import RatingsProjection, ladder
from services.scoring.standings_corrections import StandingsCorrections
from services.scoring.statistics import StatisticsProjection
from tavola.bus import rpc, subjects
from tavola.bus.consumer import report_lag, subscribe_events
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore
from tavola.service import runtime
from tavola.service.config import ServiceConfig
from tavola.v1 import events_pb2, scoring_pb2

log = structlog.get_logger(__name__)


def projections(pool: asyncpg.Pool, store: PostgresEventStore) -> list[Projection]:
    """Every projection of the log the scoring service keeps (each with its own cursor)."""
    return [
        RatingsProjection(pool, store),
        StatisticsProjection(pool, store),
        LeagueStandingsProjection(pool, store),
        StandingsCorrections(pool, store),
    ]


async def build(
    config: ServiceConfig, stack: contextlib.AsyncExitStack
) -> tuple[Scoring, list[Projection], asyncpg.Pool, PostgresEventStore]:
    pool = await runtime.create_pool(config.database_url)
    stack.push_async_callback(pool.close)
    await migrate(pool)
    await ensure_schema(pool)
    store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
    return Scoring(pool, store), projections(pool, store), pool, store


async def run(config: ServiceConfig, stop: asyncio.Event) -> None:
    async with contextlib.AsyncExitStack() as stack:
        scoring, running, pool, store = await build(config, stack)
        for projection in running:
            stack.push_async_callback(_cancel, asyncio.create_task(projection.run(stop)))
        nc = await runtime.connect_nats(config.nats_url, "scoring")
        stack.push_async_callback(nc.drain)
        js = nc.jetstream()
        names = subjects.Subjects(config.namespace)
        await runtime.await_event_stream(js, names)

        async def handle(envelope: events_pb2.EventEnvelope, _msg: Msg) -> None:
            if envelope.type == ENDED:
                await scoring.apply(
                    uuid.UUID(envelope.event_id),
                    envelope.stream_id,
                    envelope.payload.SerializeToString(deterministic=True),
                )

        await subscribe_events(js, names.matches_ended, subjects.SCORING_GROUP, handle)

        async def match(
            request: scoring_pb2.GetMatchStandingsRequest, _: rpc.Request
        ) -> scoring_pb2.GetMatchStandingsResponse:
            return await scoring.match_standings(request)

        async def ratings_ladder(
            request: scoring_pb2.GetRatingsRequest, _: rpc.Request
        ) -> scoring_pb2.GetRatingsResponse:
            return await ladder(pool, request)

        async def player(
            request: scoring_pb2.GetPlayerStandingsRequest, _: rpc.Request
        ) -> scoring_pb2.GetPlayerStandingsResponse:
            return await scoring.player_standings(request)

        await rpc.serve(
            nc,
            names.scoring_rpc,
            subjects.SCORING_QUEUE,
            {
                "GetMatchStandings": rpc.Method(scoring_pb2.GetMatchStandingsRequest, match),
                "GetPlayerStandings": rpc.Method(scoring_pb2.GetPlayerStandingsRequest, player),
                "GetRatings": rpc.Method(scoring_pb2.GetRatingsRequest, ratings_ladder),
            },
        )
        await rpc.serve(
            nc,
            names.league_scoring_rpc,
            subjects.SCORING_QUEUE,
            league_queries.methods(league_queries.LeagueQueries(pool, store)),
        )
        server, port, watch = await runtime.start_health_server(
            os.environ.get("TAVOLA_HEALTH_ADDRESS", "127.0.0.1:0"),
            {"database": runtime.postgres_check(pool), "bus": runtime.nats_check(nc)},
        )
        stack.push_async_callback(server.stop, 1.0)
        stack.push_async_callback(watch.stop)
        metrics_port = runtime.start_metrics(config.metrics_port)
        lag = asyncio.create_task(report_lag(js, names.events_stream, subjects.SCORING_GROUP, stop))
        stack.push_async_callback(_cancel, lag)
        log.info("scoring.ready", health_port=port, metrics_port=metrics_port)
        await stop.wait()
        log.info("scoring.stopping")


async def rebuild(config: ServiceConfig) -> int:
    async with contextlib.AsyncExitStack() as stack:
        scoring, running, _pool, _store = await build(config, stack)
        for projection in running:
            await projection.rebuild()
        return await scoring.rebuild()


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
