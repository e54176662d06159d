"""Running a service: connections, health, metrics endpoint, graceful shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator, Sequence

import asyncpg
import grpc
import nats
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext
from nats.js.api import StreamConfig
from prometheus_client import start_http_server

from tavola.bus import subjects

log = structlog.get_logger(__name__)


async def connect_nats(url: str, name: str) -> NATS:
    async def on_error(error: Exception) -> None:
        log.warning("nats.error", error=str(error))

    return await nats.connect(
        url,
        name=name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.5,
        error_cb=on_error,
    )


async def ensure_event_stream(js: JetStreamContext, names: subjects.Subjects) -> None:
    """Create (or update) the JetStream stream that carries committed events."""
    config = StreamConfig(
        name=names.events_stream,
        subjects=[names.events_all],
        duplicate_window=subjects.DUPLICATE_WINDOW_SECONDS,
    )
    try:
        await js.add_stream(config)
    except Exception:  # already exists with another config: update it
        await js.update_stream(config)


async def create_pool(url: str, size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(url, min_size=1, max_size=size)
    assert pool is not None
    return pool


def start_metrics(port: int) -> int:
    """Serve Prometheus metrics on 127.0.0.1:port (0 picks a free port); returns the port."""
    server, _thread = start_http_server(port, addr="127.0.0.1")
    return int(server.server_port)


def add_health_and_reflection(
    server: grpc.aio.Server, service_names: Sequence[str]
) -> health.HealthServicer:
    servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    for name in (*service_names, ""):
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


async def start_health_server(address: str) -> tuple[grpc.aio.Server, int]:
    """A gRPC server with only health checking and reflection (internal services)."""
    server = grpc.aio.server()
    add_health_and_reflection(server, ())
    port = server.add_insecure_port(address)
    await server.start()
    return server, port
