"""Composition root of the engine: builds the adapters and runs them until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
import grpc
import structlog
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from services.engine import bus_api, grpc_api
from services.engine.app import Appended, Engine, Ports
from services.engine.bot_turns import BotTurns, BotTurnWatch
from services.engine.config import EngineConfig
from services.engine.policies import POLICIES
from services.engine.presence import PresenceSettings
from services.engine.push import BotPush
from services.engine.queries import bot_view_bytes
from services.engine.routing import Router
from services.engine.shards import Leases, Partitions
from tavola.accounts.auth import Authenticator
from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.bus import subjects
from tavola.bus.partitions import partition_of
from tavola.bus.relay import Relay
from tavola.eventlog.ids import time_ordered_ids
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore, create_pool
from tavola.service import runtime, tracing
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
    leases: Leases
    server: grpc.aio.Server
    port: int
    bot_turns: BotTurnWatch


class PostgresTimerIndex:
    """Unfinished matches that recorded deadlines (partial indexes of migration 0004), and
    every unfinished match (migration 0009)."""

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

    async def running_matches(self) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT c.stream_id FROM events c WHERE c.type = 'match.MatchCreated'"
            " AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = c.stream_id"
            " AND e.type = 'match.MatchEnded')"
        )
        return [row["stream_id"] for row in rows]


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _edge(store: PostgresEventStore) -> tuple[EdgeInterceptor, Authenticator]:
    """The public edge: bearer tokens checked against the accounts in the log."""
    directory = AccountDirectory(
        DirectoryPorts(
            store=store,
            new_id=uuid.uuid4,  # account ids are seen and typed: random (tavola.eventlog.ids)
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
        url = config.service.database_url
        pool = await create_pool(url, max_size=config.pool_size)  # no reset per release
        stack.push_async_callback(pool.close)
        await migrate(pool)
        nc = await runtime.connect_nats(config.service.nats_url, "engine")
        stack.push_async_callback(nc.drain)
        js = nc.jetstream()
        names = subjects.Subjects(config.service.namespace)
        await runtime.ensure_event_stream(js, names)
        store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))  # group commit
        partitions = Partitions()
        timer_index = PostgresTimerIndex(pool)
        engine = Engine(
            Ports(
                store=store,
                seeds=PostgresSeedVault(pool, capacity=config.cache_matches),
                new_id=time_ordered_ids(),  # only event ids: time-ordered
                salt=secrets.token_bytes,
                now_ms=now_ms,
                timer_index=timer_index,
                presence=PresenceSettings.from_env(),
                owns=partitions.owns,
                cache_matches=config.cache_matches,
            )
        )
        relay = Relay(pool, store, nc, names, partitions=lambda: partitions.held)
        router = Router(engine, nc, names, partitions)
        turns = BotTurns()
        push = _bot_push(nc, names, turns)
        bot_turns = BotTurnWatch(turns, engine.load, push.resend, partitions.owns)
        engine.listeners += [_poke(relay), push]
        leases = _leases(url, names, partitions, engine, router, bot_turns, timer_index, relay)
        await _hear_bot_services(nc, names, bot_turns)
        await runtime.remove_legacy_consumer(js, names)
        await leases.balance()  # this engine's share of the tables before the first call
        await bus_api.serve(nc, engine, names, router)
        edge, authenticator = _edge(store)
        server = grpc.aio.server(
            interceptors=[runtime.metrics_interceptor(), *tracing.server_interceptors(), edge],
            options=[
                ("grpc.max_receive_message_length", config.max_message_bytes),
            ],
        )
        grpc_api.add_to_server(server, engine, nc, names, router)
        await _forget_changed_accounts(nc, names, authenticator)
        servicer = runtime.add_health_and_reflection(server, grpc_api.SERVICE_NAMES)
        watch = runtime.HealthWatch(
            servicer,
            grpc_api.SERVICE_NAMES,
            {"database": runtime.postgres_check(pool), "bus": runtime.nats_check(nc)},
        )
        await watch.check_once()
        watch.start()
        stack.push_async_callback(watch.stop)
        port = server.add_insecure_port(config.grpc_address)
        if port == 0:
            raise RuntimeError(f"cannot listen on {config.grpc_address}")
        await server.start()
        stack.push_async_callback(server.stop, 2.0)
        stack.push_async_callback(leases.release_all)
        stack.push_async_callback(bot_turns.stop)
        yield EngineApp(config, pool, nc, engine, relay, leases, server, port, bot_turns)


def _poke(relay: Relay) -> Callable[[Appended], Awaitable[None]]:
    async def poke(_appended: Appended) -> None:
        relay.poke()  # publish what was just committed now, not at the next poll

    return poke


def _bot_push(nc: NATS, names: subjects.Subjects, turns: BotTurns) -> BotPush:
    async def publish(subject: str, data: bytes) -> None:
        await nc.publish(subject, data)

    return BotPush(publish, names, bot_view_bytes, turns=turns)


async def _hear_bot_services(nc: NATS, names: subjects.Subjects, bot_turns: BotTurnWatch) -> None:
    """A bot service instance that (re)connects says hello: every turn that waits here is
    told again (some may have been told while no instance listened)."""

    async def on_hello(_msg: Msg) -> None:
        waiting = bot_turns.turns.hello()
        if waiting:
            log.info("bots.hello", waiting=waiting)

    await nc.subscribe(names.bots_hello, cb=on_hello)


def _leases(
    url: str,
    names: subjects.Subjects,
    partitions: Partitions,
    engine: Engine,
    router: Router,
    bot_turns: BotTurnWatch,
    index: PostgresTimerIndex,
    relay: Relay,
) -> Leases:
    """The partitions' leases: on gaining some, serve them, relay their events and pick up
    their timers and the bot turns their tables wait for; on losing some, stop serving and
    relaying them (their relay cursors saved for the next holder) and catch their matches
    up before trusting memory."""

    async def connect(application: str) -> asyncpg.Connection:
        return await asyncpg.connect(url, server_settings={"application_name": application})

    async def gained(held: frozenset[int]) -> None:
        await router.serve(held)
        relay.poke()  # take up their share of the log now
        try:
            await engine.recover_timers()
        except Exception:  # logged; the periodic rescan tries again
            log.exception("timers.recover_failed")
        bot_turns.recover(index.running_matches)  # in the background

    async def lost(released: frozenset[int]) -> None:
        engine.cache.stale(lambda match_id: partition_of(match_id) in released)
        bot_turns.turns.forget(lambda match_id: partition_of(match_id) not in released)
        await router.unserve(released)
        await relay.release(released)

    return Leases(connect, names.namespace, partitions, gained=gained, lost=lost)


async def run(config: EngineConfig, stop: asyncio.Event) -> None:
    async with bootstrap(config) as app:
        metrics_port = runtime.start_metrics(config.service.metrics_port)
        host = config.grpc_address.rsplit(":", 1)[0]
        log.info("engine.ready", grpc=f"{host}:{app.port}", metrics_port=metrics_port)
        relay_task = asyncio.create_task(app.relay.run(stop))
        timer_task = asyncio.create_task(_timers(app.engine, stop, app.bot_turns))
        lease_task = asyncio.create_task(app.leases.run(stop))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait(
            [relay_task, timer_task, lease_task, stopping], return_when=asyncio.FIRST_COMPLETED
        )
        log.info("engine.stopping")
        stop.set()
        await relay_task  # re-raises if the relay failed: the process exits and is restarted
        await timer_task
        await lease_task


async def _timers(
    engine: Engine,
    stop: asyncio.Event,
    bot_turns: BotTurnWatch | None = None,
    tick: float = 0.2,
    rescan: float = 10.0,
) -> None:
    """Fire due timers and tell again the bot turns that wait; every ``rescan`` seconds
    pick up deadlines other engines recorded (any engine may fire a timer: its command id
    makes sure only one move is appended)."""
    loop = asyncio.get_running_loop()
    next_scan = loop.time() + rescan
    next_sweep = loop.time() + 1.0
    while not stop.is_set():
        await engine.fire_due()
        if bot_turns is not None:
            try:
                await bot_turns.sweep()
            except Exception:  # logged; the next tick tries again
                log.exception("bots.sweep_failed")
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
