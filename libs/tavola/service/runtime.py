"""Running a service: connections, health, metrics endpoint, graceful shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

import asyncpg
import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError
from prometheus_client import Gauge, start_http_server

from tavola.bus import subjects
from tavola.bus.connection import Connection, reading
from tavola.protocol import events
from tavola.rules import registry
from tavola.service.config import EventStreamLimits, metrics_address
from tavola.service.grpc_metrics import GrpcMetricsInterceptor

log = structlog.get_logger(__name__)
T = TypeVar("T")


async def connect_nats(
    url: str, name: str, reconnected: Callable[[], Awaitable[None]] | None = None
) -> NATS:
    """Connect as the service ``name``: the URL carries its NATS user (``nats://user:pass@``)
    when the bus requires authentication, and replies come to its own inbox prefix, which
    only its user may read (docs/security.md). Several servers (a cluster) are given as
    comma-separated URLs, each with the user. ``reconnected``: called after the client
    reconnects (its subscriptions are back)."""

    async def on_error(error: Exception) -> None:
        log.warning("nats.error", error=type(error).__name__)

    extra: dict[str, Any] = {}
    if reconnected is not None:
        extra["reconnected_cb"] = reconnected
    connection = Connection()
    await connection.connect(
        [part.strip() for part in url.split(",") if part.strip()],
        name=name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.5,  # type: ignore[arg-type]  # seconds, a float is fine
        error_cb=on_error,
        inbox_prefix=subjects.inbox_prefix(name),
        **extra,
    )
    return connection


_STREAM_NAME_IN_USE = 10058  # JetStream: "stream name already in use" (another config)


async def ensure_event_stream(
    js: JetStreamContext, names: subjects.Subjects, limits: EventStreamLimits | None = None
) -> None:
    """Create the JetStream stream that carries committed events, or bring an existing one
    to these replicas and limits (``None``: from the environment, ``TAVOLA_JS_*``)."""
    limits = limits or EventStreamLimits.from_env()
    config = StreamConfig(
        name=names.events_stream,
        subjects=[names.events_all],
        duplicate_window=subjects.DUPLICATE_WINDOW_SECONDS,
        storage=StorageType.FILE,
        num_replicas=limits.replicas,
        max_age=float(limits.max_age_seconds),
        max_bytes=limits.max_bytes,
        discard=DiscardPolicy.OLD,
    )
    try:
        await js.add_stream(config)
    except BadRequestError as error:
        if error.err_code != _STREAM_NAME_IN_USE:
            raise
        await js.update_stream(config)


async def remove_legacy_consumer(js: JetStreamContext, names: subjects.Subjects) -> None:
    """Delete the bot service's durable consumer of every match event, if an installation
    still has it: bots now hear only of their own turns (``services/engine/bot_turns.py``),
    and a consumer nobody reads only makes the server keep count of what it misses."""
    try:
        await js.delete_consumer(names.events_stream, subjects.LEGACY_BOTS_CONSUMER)
    except NotFoundError:
        return
    except Exception as error:  # not worth failing a start for: tried again at the next
        log.warning("bus.legacy_consumer_kept", error=type(error).__name__)
        return
    log.info("bus.legacy_consumer_removed", consumer=subjects.LEGACY_BOTS_CONSUMER)


async def await_event_stream(
    js: JetStreamContext, names: subjects.Subjects, timeout: float = 120.0
) -> None:
    """Wait until the engine has created the events stream (only the engine's NATS user may
    create or change it); raises TimeoutError after ``timeout`` so a supervisor restarts
    the service rather than it waiting forever."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            await js.stream_info(names.events_stream)
            return
        except Exception as error:
            if loop.time() > deadline:
                raise TimeoutError(
                    f"no stream {names.events_stream} after {timeout:.0f} s"
                ) from error
            log.info("bus.waiting_for_stream", stream=names.events_stream)
            await asyncio.sleep(0.5)


async def create_pool(url: str, size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(url, min_size=1, max_size=size)
    assert pool is not None
    return pool


# The collector's youngest generation runs every ``GC_YOUNG`` allocations (Python's default:
# 700). A move allocates a few thousand short-lived objects, nearly none in cycles, so the
# default ran it several times a move and the older generations — every cached match and
# view — far more often than they change.
GC_YOUNG, GC_OLDER = 20_000, 20


def load_games() -> None:
    """Import every registered game, and the rules versions it keeps, and ready the
    decoding of its events, at start (before ``tune_gc`` freezes what was made): otherwise
    the first request that touches a game pays for it, tens of milliseconds."""
    for game in registry.all_games():
        game.rules_versions()
        events.prepare(game.info.name)


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run a service's main coroutine on uvloop's event loop (libuv: its sockets, timers
    and callbacks cost a fraction of asyncio's own, and every move is a few dozen socket
    writes and callbacks across the services), or on asyncio's when uvloop is missing or
    ``TAVOLA_EVENT_LOOP=asyncio`` asks for it."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    if os.environ.get("TAVOLA_EVENT_LOOP", "uvloop") != "asyncio":
        try:
            import uvloop
        except ImportError:  # pragma: no cover - a dependency of the platform
            log.warning("runtime.no_uvloop")
        else:
            factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def tune_gc() -> None:
    """For a long-running service, once its modules are loaded: what was made at start
    moves out of the collector's sight (``gc.freeze``), and collections run less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, GC_OLDER, GC_OLDER)


def start_metrics(port: int, address: str | None = None) -> int:
    """Serve Prometheus metrics on ``address:port`` (port 0 picks a free one); returns the
    port. ``address`` ``None``: ``TAVOLA_METRICS_ADDRESS``, by default 127.0.0.1."""
    server, _thread = start_http_server(port, addr=address or metrics_address())
    return int(server.server_port)


def metrics_interceptor() -> GrpcMetricsInterceptor:
    """Per-RPC metrics of a gRPC server (``tavola_grpc_server_*``): put it first in the
    server's interceptors, so that it sees the status every other one answers with."""
    return GrpcMetricsInterceptor()


DEPENDENCY_UP = Gauge(
    "tavola_dependency_up",
    "1 while this service reaches the dependency (database: Postgres, bus: NATS), as its "
    "health check last found it; 0 makes the service NOT_SERVING",
    ["dependency"],
)

Check = Callable[[], Awaitable[bool]]
# the health service name a liveness probe asks for: SERVING while the process runs, even
# when a dependency is down (a restart would not bring Postgres back); readiness asks for
# "" (or a gRPC service's name), which tells the truth about the dependencies
LIVENESS = "liveness"


def nats_check(nc: NATS, timeout: float = 1.0) -> Check:
    """Connected and answering: a round trip to the server (``flush``) within ``timeout``.
    (nats-py's ``flush`` does not wait for the server when the connection's reader has
    stopped, so a stopped reader is not serving.)"""

    async def check() -> bool:
        if not nc.is_connected or not reading(nc):
            return False
        await nc.flush(timeout=max(1, round(timeout)))
        return True

    return check


def postgres_check(pool: asyncpg.Pool, timeout: float = 1.0) -> Check:
    """A connection of the pool runs ``SELECT 1`` within ``timeout``."""

    async def check() -> bool:
        async with pool.acquire(timeout=timeout) as connection:
            return bool(await connection.fetchval("SELECT 1", timeout=timeout) == 1)

    return check


def grpc_check(channel: grpc.aio.Channel, timeout: float = 1.0) -> Check:
    """The service behind ``channel`` answers its own health check with SERVING."""
    stub = health_pb2_grpc.HealthStub(channel)

    async def check() -> bool:
        answer = await stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout)
        return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)

    return check


class HealthWatch:
    """Keeps a health servicer truthful: every ``interval`` seconds each dependency is
    checked (a failure or ``timeout`` counts as down); the service is SERVING only while
    every one answers, NOT_SERVING otherwise, and says so once per change in its log. A
    check never retries on its own: the next round is the retry, for as long as the service
    runs (it is how a probe learns the service is back)."""

    def __init__(
        self,
        servicer: health.HealthServicer,
        service_names: Sequence[str],
        checks: Mapping[str, Check],
        interval: float = 1.0,
        timeout: float = 2.0,
    ) -> None:
        self._servicer = servicer
        self._names = (*service_names, "")
        self._checks = dict(checks)
        self._interval = interval
        self._timeout = timeout
        self._task: asyncio.Task[None] | None = None
        self.serving = True
        self.down: tuple[str, ...] = ()

    async def check_once(self) -> bool:
        down = []
        for dependency, check in self._checks.items():
            try:
                up = await asyncio.wait_for(check(), self._timeout)
            except Exception:
                up = False
            DEPENDENCY_UP.labels(dependency).set(1 if up else 0)
            if not up:
                down.append(dependency)
        serving = not down
        if serving != self.serving or tuple(down) != self.down:
            if serving:
                log.info("health.serving")
            else:
                log.warning("health.not_serving", down=down)
        self.serving, self.down = serving, tuple(down)
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if serving
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in self._names:
            self._servicer.set(name, status)
        return serving

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await self.check_once()
            await asyncio.sleep(self._interval)


def add_health_and_reflection(
    server: grpc.aio.Server, service_names: Sequence[str]
) -> health.HealthServicer:
    servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    for name in (*service_names, "", LIVENESS):
        servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (*service_names, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    return servicer


@contextlib.asynccontextmanager
async def stop_on_signals() -> AsyncIterator[asyncio.Event]:
    """An event set on SIGINT/SIGTERM, for a clean drain."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        yield stop
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def start_health_server(
    address: str, checks: Mapping[str, Check]
) -> tuple[grpc.aio.Server, int, HealthWatch]:
    """A gRPC server with only health checking and reflection (internal services), kept
    truthful about ``checks`` (the service's dependencies) by the returned watch, already
    running: stop it before the server."""
    server = grpc.aio.server()
    servicer = add_health_and_reflection(server, ())
    port = server.add_insecure_port(address)
    await server.start()
    watch = HealthWatch(servicer, (), checks)
    await watch.check_once()
    watch.start()
    return server, port, watch
