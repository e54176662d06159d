"""Composition root of the lobby."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import uuid
from datetime import UTC, datetime

import structlog

from services.lobby.app import Lobby, LobbyPorts
from tavola.bus import rpc, subjects
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore
from tavola.service import runtime
from tavola.service.config import ServiceConfig
from tavola.service.seeds import PostgresSeedVault
from tavola.v1 import internal_pb2, lobby_pb2

log = structlog.get_logger(__name__)


async def run(config: ServiceConfig, stop: asyncio.Event) -> None:
    async with contextlib.AsyncExitStack() as stack:
        pool = await runtime.create_pool(config.database_url)
        stack.push_async_callback(pool.close)
        await migrate(pool)
        nc = await runtime.connect_nats(config.nats_url, "lobby")
        stack.push_async_callback(nc.drain)
        vault = PostgresSeedVault(pool)
        names = subjects.Subjects(config.namespace)

        async def create_match(request: internal_pb2.CreateMatchRequest) -> object:
            return await rpc.call(
                nc,
                names.engine_rpc,
                "CreateMatch",
                request,
                internal_pb2.CreateMatchResponse,
                internal=True,
            )

        lobby = Lobby(
            LobbyPorts(
                store=PostgresEventStore(pool, clock=lambda: datetime.now(UTC)),
                create_seed=vault.create,
                create_match=create_match,
                new_id=uuid.uuid4,
                new_token=lambda: secrets.token_urlsafe(24),
            )
        )
        await rpc.serve(nc, names.lobby_rpc, subjects.LOBBY_QUEUE, _methods(lobby))
        server, port = await runtime.start_health_server(
            os.environ.get("TAVOLA_HEALTH_ADDRESS", "127.0.0.1:0")
        )
        stack.push_async_callback(server.stop, 1.0)
        metrics_port = runtime.start_metrics(config.metrics_port)
        log.info("lobby.ready", health_port=port, metrics_port=metrics_port)
        await stop.wait()
        log.info("lobby.stopping")


def _methods(lobby: Lobby) -> dict[str, rpc.Method]:
    def public(handler):  # type: ignore[no-untyped-def]
        async def call(request, internal):  # type: ignore[no-untyped-def]
            return await handler(request)

        return call

    return {
        "ListGames": rpc.Method(lobby_pb2.ListGamesRequest, public(lobby.list_games)),
        "CreateTable": rpc.Method(lobby_pb2.CreateTableRequest, public(lobby.create_table)),
        "GetTable": rpc.Method(lobby_pb2.GetTableRequest, public(lobby.get_table)),
        "SitDown": rpc.Method(lobby_pb2.SitDownRequest, public(lobby.sit_down)),
        "FillWithBots": rpc.Method(lobby_pb2.FillWithBotsRequest, public(lobby.fill_with_bots)),
        "StartMatch": rpc.Method(lobby_pb2.StartMatchRequest, public(lobby.start_match)),
    }
