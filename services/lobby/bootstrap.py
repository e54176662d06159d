"""Composition root of the lobby (tables and accounts)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import structlog
from nats.aio.msg import Msg

from services.lobby import league_rpc
from services.lobby.accounts import Accounts
from services.lobby.app import Lobby, LobbyPorts
from services.lobby.league_app import LeaguePorts, Leagues
from services.lobby.league_scheduler import RoundSteps, Scheduler
from services.lobby.league_store import LeagueStore
from services.lobby.league_store import ensure_schema as ensure_league_schema
from services.lobby.storage import PostgresTableIndex, account_lister, ensure_schema
from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.bus import rpc, subjects
from tavola.bus.consumer import subscribe_events
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore
from tavola.service import runtime
from tavola.service.config import ServiceConfig
from tavola.service.seeds import PostgresSeedVault, new_seed
from tavola.v1 import account_pb2, events_pb2, internal_pb2, lobby_pb2

log = structlog.get_logger(__name__)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def directory_for(store: PostgresEventStore) -> AccountDirectory:
    return AccountDirectory(
        DirectoryPorts(
            store=store,
            new_id=uuid.uuid4,
            new_secret=lambda: secrets.token_urlsafe(32),
            new_token_id=lambda: secrets.token_hex(6),
            now_ms=now_ms,
        )
    )


async def run(config: ServiceConfig, stop: asyncio.Event) -> None:
    async with contextlib.AsyncExitStack() as stack:
        pool = await runtime.create_pool(config.database_url)
        stack.push_async_callback(pool.close)
        await migrate(pool)
        await ensure_schema(pool)
        await ensure_league_schema(pool)
        nc = await runtime.connect_nats(config.nats_url, "lobby")
        stack.push_async_callback(nc.drain)
        vault = PostgresSeedVault(pool)
        names = subjects.Subjects(config.namespace)

        async def create_match(request: internal_pb2.CreateMatchRequest) -> object:
            return await rpc.call(
                nc,
                names.engine_rpc("lobby"),
                "CreateMatch",
                request,
                internal_pb2.CreateMatchResponse,
                service="engine",
            )

        async def reveal_seed(request: internal_pb2.RevealSeedRequest) -> object:
            return await rpc.call(
                nc,
                names.engine_rpc("lobby"),
                "RevealSeed",
                request,
                internal_pb2.RevealSeedResponse,
                service="engine",
            )

        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
        directory = directory_for(store)
        lobby = Lobby(
            LobbyPorts(
                tables=PostgresTableIndex(pool, store),
                store=store,
                accounts=directory,
                create_seed=vault.create,
                create_group_seed=vault.create_grouped,
                reveal_seed=reveal_seed,
                create_match=create_match,
                new_id=uuid.uuid4,
                new_token=lambda: secrets.token_urlsafe(24),
                now_ms=now_ms,
            )
        )
        accounts = Accounts(directory, account_lister(pool, directory))
        leagues = Leagues(
            LeaguePorts(
                store=LeagueStore(pool, store),
                accounts=directory,
                new_id=uuid.uuid4,
                new_seed=new_seed,
                now_ms=now_ms,
            )
        )
        scheduler = Scheduler(leagues, RoundSteps(leagues, lobby, now_ms), pool, now_ms)
        leagues.wake_scheduler(scheduler.wake)
        scheduling = asyncio.create_task(scheduler.run(stop))
        stack.push_async_callback(_cancel, scheduling)
        await rpc.serve(nc, names.lobby_rpc, subjects.LOBBY_QUEUE, _lobby_methods(lobby))
        await rpc.serve(
            nc,
            names.league_rpc,
            subjects.LOBBY_QUEUE,
            league_rpc.methods(league_rpc.LeagueRpc(leagues, lobby)),
        )
        await rpc.serve(nc, names.account_rpc, subjects.LOBBY_QUEUE, _account_methods(accounts))
        js = nc.jetstream()
        await runtime.await_event_stream(js, names)

        async def ended(envelope: events_pb2.EventEnvelope, _msg: Msg) -> None:
            await lobby.match_finished(envelope.match_id)
            await scheduler.match_ended(envelope.match_id)  # a league table's result

        await subscribe_events(js, names.matches_ended, subjects.LOBBY_GROUP, ended)

        async def corrected(envelope: events_pb2.EventEnvelope, _msg: Msg) -> None:
            await scheduler.match_corrected(envelope.match_id)  # a league table's result

        await subscribe_events(
            js, names.match_corrections, subjects.LOBBY_CORRECTIONS_GROUP, corrected
        )
        server, port, watch = await runtime.start_health_server(
            os.environ.get("TAVOLA_HEALTH_ADDRESS", "127.0.0.1:0"),
            {"database": runtime.postgres_check(pool), "bus": runtime.nats_check(nc)},
        )
        stack.push_async_callback(server.stop, 1.0)
        stack.push_async_callback(watch.stop)
        metrics_port = runtime.start_metrics(config.metrics_port)
        log.info("lobby.ready", health_port=port, metrics_port=metrics_port)
        await stop.wait()
        log.info("lobby.stopping")


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _caller(handler: Any) -> Any:
    """A bus handler for a method forwarded from the public API: it needs the account."""

    async def call(request: Any, context: rpc.Request) -> Any:
        return await handler(request, context.caller())

    return call


def _lobby_methods(lobby: Lobby) -> dict[str, rpc.Method]:
    return {
        "ListGames": rpc.Method(lobby_pb2.ListGamesRequest, _caller(lobby.list_games)),
        "CreateTable": rpc.Method(lobby_pb2.CreateTableRequest, _caller(lobby.create_table)),
        "GetTable": rpc.Method(lobby_pb2.GetTableRequest, _caller(lobby.get_table)),
        "SitDown": rpc.Method(lobby_pb2.SitDownRequest, _caller(lobby.sit_down)),
        "FillWithBots": rpc.Method(lobby_pb2.FillWithBotsRequest, _caller(lobby.fill_with_bots)),
        "StartMatch": rpc.Method(lobby_pb2.StartMatchRequest, _caller(lobby.start_match)),
        "InviteToTable": rpc.Method(lobby_pb2.InviteToTableRequest, _caller(lobby.invite)),
        "ChangeTableOptions": rpc.Method(
            lobby_pb2.ChangeTableOptionsRequest, _caller(lobby.change_options)
        ),
        "ListTables": rpc.Method(lobby_pb2.ListTablesRequest, _caller(lobby.list_tables)),
    }


def _account_methods(accounts: Accounts) -> dict[str, rpc.Method]:
    return {
        "WhoAmI": rpc.Method(account_pb2.WhoAmIRequest, _caller(accounts.who_am_i)),
        "CreateAccount": rpc.Method(
            account_pb2.CreateAccountRequest, _caller(accounts.create_account)
        ),
        "GetAccount": rpc.Method(account_pb2.GetAccountRequest, _caller(accounts.get_account)),
        "IssueToken": rpc.Method(account_pb2.IssueTokenRequest, _caller(accounts.issue_token)),
        "RevokeToken": rpc.Method(account_pb2.RevokeTokenRequest, _caller(accounts.revoke_token)),
        "ListTokens": rpc.Method(account_pb2.ListTokensRequest, _caller(accounts.list_tokens)),
        "ListAccounts": rpc.Method(
            account_pb2.ListAccountsRequest, _caller(accounts.list_accounts)
        ),
    }
