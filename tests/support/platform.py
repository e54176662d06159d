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

from tavola.accounts.local import ensure_account
from tavola.accounts.model import Kind
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.databases import create_database, drop_database
from tavola.v1 import game_pb2, lobby_pb2

T = TypeVar("T")


ADMIN = "e2e-admin"


@contextmanager
def running_platform(
    server_url: str,
    nats_url: str,
    log_dir: Path,
    nats_urls: dict[str, str] | None = None,
    extra_env: dict[str, str] | None = None,
) -> Iterator[Platform]:
    """A fresh database and a private bus namespace, the four services (each with its own
    NATS user when ``nats_urls`` names them), an admin account whose token is
    ``platform.token``, then cleanup."""
    name = f"tavola_e2e_{secrets.token_hex(4)}"
    database_url = asyncio.run(create_database(server_url, name))
    _, token = asyncio.run(ensure_account(database_url, ADMIN, Kind.ADMIN, "e2e"))
    platform = Platform(
        database_url,
        nats_url,
        log_dir=log_dir,
        extra_env={
            "TAVOLA_NAMESPACE": name.replace("_", "-"),
            "TAVOLA_LOG_LEVEL": "INFO",
            # one admin token drives every test of a module: its limits are an e2e test's
            # own (tests/e2e/test_limits.py checks the documented ones)
            "TAVOLA_LIMITS": "account=200/2000,create_table=200/2000,lobby=200/2000",
            **(extra_env or {}),
        },
        nats_urls=dict(nats_urls or {}),
        token=token,
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
    """A started match; with ``humans`` 1, seat 0 is the client's own account (its seat
    token returned); every other seat is a bot."""
    assert humans <= 1, "one account sits at most once at a table"
    table = client.lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game=game, players=players, options=options or {})
    ).table
    tokens = []
    for seat in range(humans):
        sat = client.lobby.SitDown(
            lobby_pb2.SitDownRequest(
                table_id=table.table_id,
                seat=seat,
                player_name="",
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
