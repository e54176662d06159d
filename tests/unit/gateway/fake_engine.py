"""A fake engine for the gateway's tests: an in-process gRPC server on a loopback port
with the platform's real edge interceptor and method policies in front of small servicers
(no database, no bus, no other process), and the gateway's HTTP application relaying to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from aiohttp.test_utils import TestClient, TestServer

from services.engine.policies import POLICIES
from services.gateway.app import Settings, build_app
from services.gateway.relay import Relay
from tavola.accounts.model import GATEWAY, KIND_SCOPES, PLAY, READ, Kind, Principal
from tavola.protocol import errors
from tavola.service import runtime
from tavola.service.edge import EdgeInterceptor, current_principal
from tavola.service.limits import Limiter, LimitSettings, parse_rates
from tavola.v1 import (
    account_pb2,
    account_pb2_grpc,
    events_pb2,
    game_pb2,
    game_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
)

PLAYER = "tvl1_player"
GATEWAY_TOKEN = "tvl1_gateway"
OTHER_ADMIN = "tvl1_admin"
TOKENS = {
    PLAYER: Principal("a-1", "ana", Kind.PLAYER, frozenset({PLAY, READ}), "t-ana"),
    GATEWAY_TOKEN: Principal("a-9", "ops", Kind.ADMIN, frozenset({GATEWAY}), "t-gw"),
    OTHER_ADMIN: Principal("a-8", "root", Kind.ADMIN, KIND_SCOPES[Kind.ADMIN] - {GATEWAY}, "t-r"),
}


@dataclass
class Seen:
    """What the fake engine saw of each call."""

    metadata: list[dict[str, str]] = field(default_factory=list)
    streams_closed: int = 0


class Accounts(account_pb2_grpc.AccountServiceServicer):
    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    async def WhoAmI(self, request, context):  # type: ignore[no-untyped-def]
        self.seen.metadata.append({k: v for k, v in context.invocation_metadata()})
        me = current_principal()
        return account_pb2.WhoAmIResponse(
            account=account_pb2.Account(account_id=me.account_id, name=me.name),
            token_id=me.token_id,
            scopes=sorted(me.scopes),
        )


class Lobby(lobby_pb2_grpc.LobbyServiceServicer):
    async def ListGames(self, request, context):  # type: ignore[no-untyped-def]
        return lobby_pb2.ListGamesResponse(
            games=[lobby_pb2.GameInfo(name="spades", title="Spades")]
        )

    async def GetTable(self, request, context):  # type: ignore[no-untyped-def]
        raise errors.not_found("table.not_found", table_id=request.table_id)


class Game(game_pb2_grpc.GameServiceServicer):
    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    async def StreamEvents(self, request, context) -> AsyncIterator[game_pb2.StreamEventsResponse]:  # type: ignore[no-untyped-def]
        if request.match_id == "missing":
            raise errors.not_found("match.not_found", match_id=request.match_id)
        try:
            # exactly the events after the version asked for, then (until_end) the end
            for version in range(request.after_version + 1, 6):
                yield game_pb2.StreamEventsResponse(
                    event=events_pb2.EventEnvelope(match_id=request.match_id, version=version)
                )
            if not request.until_end:
                await asyncio.sleep(3600)
        finally:
            self.seen.streams_closed += 1


@dataclass
class FakeEngine:
    address: str
    seen: Seen
    server: grpc.aio.Server


async def _authenticate(token: str) -> Principal | None:
    return TOKENS.get(token)


async def start_engine(limits: str = "") -> FakeEngine:
    seen = Seen()
    limiter = Limiter(LimitSettings(rates=parse_rates(limits)), asyncio.get_running_loop().time)
    server = grpc.aio.server(interceptors=[EdgeInterceptor(_authenticate, limiter, POLICIES)])
    account_pb2_grpc.add_AccountServiceServicer_to_server(Accounts(seen), server)
    lobby_pb2_grpc.add_LobbyServiceServicer_to_server(Lobby(), server)
    game_pb2_grpc.add_GameServiceServicer_to_server(Game(seen), server)
    runtime.add_health_and_reflection(server, ())
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return FakeEngine(f"127.0.0.1:{port}", seen, server)


@pytest.fixture
async def engine() -> AsyncIterator[FakeEngine]:
    running = await start_engine()
    yield running
    await running.server.stop(0)


def static_folder(root: Path) -> Path:
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>tavola</title>")
    (root / "assets" / "index-abc.js").write_text("console.log('tavola')")
    return root


@pytest.fixture
async def gateway(engine: FakeEngine, tmp_path: Path) -> AsyncIterator[TestClient]:
    channel = grpc.aio.insecure_channel(engine.address)
    app = build_app(
        Settings(
            relay=Relay(channel, GATEWAY_TOKEN, 64 * 1024, write_timeout=2.0),
            static_dir=static_folder(tmp_path / "static"),
            trusted_proxies=(),
            max_message_bytes=64 * 1024,
            sign_in_secret="s3cret",
            sign_in_token=PLAYER,
            channel=channel,
        )
    )
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    yield client
    await client.close()
    await channel.close()
