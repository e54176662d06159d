"""Running the real services as separate processes for end-to-end tests."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import grpc

from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.databases import create_database, drop_database
from tavola.v1 import game_pb2, lobby_pb2

T = TypeVar("T")


@contextmanager
def running_platform(server_url: str, nats_url: str, log_dir: Path) -> Iterator[Platform]:
    """A fresh database and a private bus namespace, the four services, then cleanup."""
    name = f"tavola_e2e_{secrets.token_hex(4)}"
    database_url = asyncio.run(create_database(server_url, name))
    platform = Platform(
        database_url,
        nats_url,
        log_dir=log_dir,
        extra_env={"TAVOLA_NAMESPACE": name.replace("_", "-"), "TAVOLA_LOG_LEVEL": "INFO"},
    )
    try:
        platform.start_all()
        yield platform
    finally:
        platform.stop_all()
        asyncio.run(drop_database(server_url, name))


def eventually(check: Callable[[], T | None], timeout: float = 60.0, every: float = 0.2) -> T:
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except grpc.RpcError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(every)


def bot_table(
    client: Client,
    game: str,
    players: int,
    options: dict[str, str] | None = None,
    humans: int = 0,
    level: str = "",
    think_ms: int = 0,
) -> tuple[str, list[str]]:
    """A started match; the first ``humans`` seats are people (their tokens returned)."""
    table = client.lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game=game, players=players, options=options or {})
    ).table
    tokens = []
    for seat in range(humans):
        sat = client.lobby.SitDown(
            lobby_pb2.SitDownRequest(
                table_id=table.table_id,
                seat=seat,
                player_name=f"person{seat}",
                client_seed=f"entropy-{seat}".encode(),
            )
        )
        tokens.append(sat.seat_token)
    client.lobby.FillWithBots(
        lobby_pb2.FillWithBotsRequest(table_id=table.table_id, level=level, think_ms=think_ms)
    )
    match_id = client.lobby.StartMatch(
        lobby_pb2.StartMatchRequest(table_id=table.table_id)
    ).match_id
    return match_id, tokens


def match_state(client: Client, match_id: str) -> game_pb2.GetMatchResponse:
    return client.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id), timeout=5)
