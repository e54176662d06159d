"""The engine keeps serving across a Postgres restart: meanwhile calls are UNAVAILABLE
with a retry hint (never UNKNOWN, never a driver's exception), no service exits, and once
Postgres is back matches are created and played again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from support.platform import bot_table, eventually, match_state, running_platform
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra
from tavola.infra.pg_server import PgServer, start_postgres
from tavola.v1 import game_pb2, lobby_pb2

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def own_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, PgServer]]:
    folder = tmp_path_factory.mktemp("pg")
    server = start_postgres(folder)  # durable, as the product runs
    try:
        yield folder, server
    finally:
        server.child.stop()


@pytest.fixture(scope="module")
def platform_on_own_postgres(
    own_postgres: tuple[Path, PgServer],
    infra: LocalInfra,
    nats_url: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Platform]:
    _, server = own_postgres
    with running_platform(
        server.url, nats_url, tmp_path_factory.mktemp("logs"), infra.nats_service_urls()
    ) as running:
        yield running


def test_the_engine_keeps_serving_across_a_postgres_restart(
    own_postgres: tuple[Path, PgServer], platform_on_own_postgres: Platform
):
    folder, server = own_postgres
    platform = platform_on_own_postgres
    client = Client.connect(platform.address, platform.token)
    before, _ = bot_table(client, "fan-tan", 3, {"hands": "1"})
    eventually(lambda: match_state(client, before).finished, timeout=120)
    pids = {name: process.pid for name, process in platform.processes.items()}

    server.child.stop()
    try:
        for call, request in (
            (client.lobby.CreateTable, lobby_pb2.CreateTableRequest(game="fan-tan", players=3)),
            (client.game.GetMatch, game_pb2.GetMatchRequest(match_id="not-cached")),
        ):
            with pytest.raises(grpc.RpcError) as caught:
                call(request, timeout=20)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE, caught.value.details()
            assert "asyncpg" not in caught.value.details()
            assert "Error" not in caught.value.details()
    finally:
        restarted = start_postgres(folder, port=server.port)
        server.child = restarted.child

    after, _ = eventually(lambda: bot_table(client, "fan-tan", 3, {"hands": "1"}), timeout=60)
    eventually(lambda: match_state(client, after).finished, timeout=120)
    assert {name: process.pid for name, process in platform.processes.items()} == pids
    assert not platform.dead()
