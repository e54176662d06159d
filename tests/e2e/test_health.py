"""Health tells the truth: with NATS gone every service says so (the engine's gRPC health
answers NOT_SERVING, each service's ``tavola_dependency_up{dependency="bus"}`` reads 0)
while the liveness name stays SERVING (a restart would not bring the bus back); with NATS
back they are SERVING again and play goes on, no service having exited."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from support.platform import bot_table, eventually, match_state, running_platform
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.nats_server import NatsServer, start_nats
from tavola.service.runtime import LIVENESS

pytestmark = pytest.mark.e2e
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@pytest.fixture(scope="module")
def own_nats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, NatsServer]]:
    folder = tmp_path_factory.mktemp("nats")
    server = start_nats(folder)
    try:
        yield folder, server
    finally:
        server.child.stop()


@pytest.fixture(scope="module")
def platform_on_own_nats(
    own_nats: tuple[Path, NatsServer],
    database_url: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Platform]:
    _, server = own_nats
    with running_platform(
        database_url, server.url, tmp_path_factory.mktemp("logs"), server.service_urls()
    ) as running:
        yield running


def engine_health(address: str, service: str = "") -> int:
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=3
            )
        except grpc.RpcError:
            return -1
    return int(reply.status)


def bus_up(port: int) -> float | None:
    """The service's ``tavola_dependency_up{dependency="bus"}`` (None: not exported)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "tavola_dependency_up" and sample.labels["dependency"] == "bus":
                return sample.value
    return None


def test_health_goes_not_serving_without_nats_and_serving_once_it_is_back(
    own_nats: tuple[Path, NatsServer], platform_on_own_nats: Platform
) -> None:
    folder, server = own_nats
    platform = platform_on_own_nats
    on_bus = ("engine", "lobby", "scoring", "bots")
    ports = {name: platform.metrics_ports[name] for name in on_bus}
    assert engine_health(platform.address) == SERVING
    assert all(bus_up(port) == 1 for port in ports.values())
    pids = {name: process.pid for name, process in platform.processes.items()}

    server.child.stop()
    try:
        eventually(lambda: engine_health(platform.address) == NOT_SERVING, timeout=30)
        eventually(lambda: all(bus_up(port) == 0 for port in ports.values()), timeout=30)
        assert engine_health(platform.address, LIVENESS) == SERVING
    finally:
        restarted = start_nats(folder, port=server.port, credentials=server.credentials)
        server.child = restarted.child

    eventually(lambda: engine_health(platform.address) == SERVING, timeout=60)
    eventually(lambda: all(bus_up(port) == 1 for port in ports.values()), timeout=60)
    client = Client.connect(platform.address, platform.token)
    try:
        match_id, _ = eventually(lambda: bot_table(client, "fan-tan", 3, {"hands": "1"}), 60)
        eventually(lambda: match_state(client, match_id).finished, timeout=120)
    finally:
        client.close()
    assert {name: process.pid for name, process in platform.processes.items()} == pids
    assert not platform.dead()
