"""Composition root of the engine: builds the adapters and runs them until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
import grpc
import structlog
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from services.engine import bus_api, grpc_api
from services.engine.app import Engine, Ports
from services.engine.config import EngineConfig
from services.engine.policies import POLICIES
from services.engine.presence import PresenceSettings
from tavola.accounts.auth import Authenticator
from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.bus import subjects
from tavola.bus.relay import Relay
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore
from tavola.service import runtime
from tavola.service.edge import EdgeInterceptor
from tavola.service.limits import Limiter, LimitSettings
from tavola.service.seeds import PostgresSeedVault

log = structlog.get_logger(__name__)


@dataclass
class EngineApp:
    config: EngineConfig
    pool: asyncpg.Pool
    nc: NATS
    engine: Engine
    relay: Relay
    server: grpc.aio.Server
    port: int


class PostgresTimerIndex:
    """Unfinished matches that recorded deadlines (partial indexes of migration 0004)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def matches_with_deadlines(self) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT DISTINCT d.stream_id FROM events d"
            " WHERE d.type IN ('match.DeadlineSet', 'match.PauseStarted')"
            " AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = d.stream_id"
            " AND e.type = 'match.MatchEnded')"
        )
        return [row["stream_id"] for row in rows]


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class _PokingStore(PostgresEventStore):
    """The Postgres store that wakes the relay right after each append."""

    relay: Relay | None = None

    async def append(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = await super().append(*args, **kwargs)
        if self.relay is not None:
            self.relay.poke()
        return result


def _edge(store: PostgresEventStore) -> tuple[EdgeInterceptor, Authenticator]:
    """The public edge: bearer tokens checked against the accounts in the log."""
    directory = AccountDirectory(
        DirectoryPorts(
            store=store,
            new_id=uuid.uuid4,
            new_secret=lambda: secrets.token_urlsafe(32),
            new_token_id=lambda: secrets.token_hex(6),
            now_ms=now_ms,
        )
    )
    authenticator = Authenticator(directory.load, time.monotonic)
    limiter = Limiter(LimitSettings.from_env(), time.monotonic)
    return EdgeInterceptor(authenticator.authenticate, limiter, POLICIES), authenticator


async def _forget_changed_accounts(
    nc: NATS, names: subjects.Subjects, authenticator: Authenticator
) -> None:
    """A change to an account (a token issued or revoked) seen on the bus drops its cached
    fold at once, so a revoked token stops working within moments on every engine."""
    prefix = f"{names.events_prefix}.account."

    async def on_change(msg: Msg) -> None:
        account_id = msg.subject.removeprefix(prefix).split(".", 1)[0]
        authenticator.invalidate(account_id)

    await nc.subscribe(names.account_events_all, cb=on_change)


@contextlib.asynccontextmanager
async def bootstrap(config: EngineConfig) -> AsyncIterator[EngineApp]:
    async with contextlib.AsyncExitStack() as stack:
        pool = await runtime.create_pool(config.service.database_url, config.pool_size)
        stack.push_async_callback(pool.close)
        await migrate(pool)
        nc = await runtime.connect_nats(config.service.nats_url, "engine")
        stack.push_async_callback(nc.drain)
        js = nc.jetstream()
        names = subjects.Subjects(config.service.namespace)
        await runtime.ensure_event_stream(js, names)
        store = _PokingStore(pool, clock=lambda: datetime.now(UTC))
        engine = Engine(
            Ports(
                store=store,
                seeds=PostgresSeedVault(pool),
                new_id=uuid.uuid4,
                salt=secrets.token_bytes,
                now_ms=now_ms,
                timer_index=PostgresTimerIndex(pool),
                presence=PresenceSettings.from_env(),
            )
        )
        await engine.recover_timers()
        relay = Relay(pool, store, js, names)
        store.relay = relay
        await bus_api.serve(nc, engine, names)
        edge, authenticator = _edge(store)
        server = grpc.aio.server(
            interceptors=[runtime.metrics_interceptor(), edge],
            options=[
                ("grpc.max_receive_message_length", config.max_message_bytes),
            ],
        )
        grpc_api.add_to_server(server, engine, nc, names)
        await _forget_changed_accounts(nc, names, authenticator)
        runtime.add_health_and_reflection(server, grpc_api.SERVICE_NAMES)
        port = server.add_insecure_port(config.grpc_address)
        if port == 0:
            raise RuntimeError(f"cannot listen on {config.grpc_address}")
        await server.start()
        stack.push_async_callback(server.stop, 2.0)
        yield EngineApp(config, pool, nc, engine, relay, server, port)


async def run(config: EngineConfig, stop: asyncio.Event) -> None:
    async with bootstrap(config) as app:
        metrics_port = runtime.start_metrics(config.service.metrics_port)
        host = config.grpc_address.rsplit(":", 1)[0]
        log.info("engine.ready", grpc=f"{host}:{app.port}", metrics_port=metrics_port)
        relay_task = asyncio.create_task(app.relay.run(stop))
        timer_task = asyncio.create_task(_timers(app.engine, stop))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait([relay_task, timer_task, stopping], return_when=asyncio.FIRST_COMPLETED)
        log.info("engine.stopping")
        stop.set()
        await relay_task  # re-raises if the relay failed: the process exits and is restarted
        await timer_task


async def _timers(
    engine: Engine, stop: asyncio.Event, tick: float = 0.2, rescan: float = 10.0
) -> None:
    """Fire due timers; every ``rescan`` seconds pick up deadlines other engines recorded
    (any engine may fire a timer: its command id makes sure only one move is appended)."""
    loop = asyncio.get_running_loop()
    next_scan = loop.time() + rescan
    next_sweep = loop.time() + 1.0
    while not stop.is_set():
        await engine.fire_due()
        if loop.time() >= next_sweep:
            try:
                await engine.sweep_presence()
            except Exception:  # logged; the next sweep tries again
                log.exception("presence.sweep_failed")
            next_sweep = loop.time() + 1.0
        if loop.time() >= next_scan:
            try:
                await engine.recover_timers()
            except Exception:  # logged; the next scan tries again
                log.exception("timers.rescan_failed")
            next_scan = loop.time() + rescan
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), tick)
