"""The edge in front of a server stream, on a real gRPC server and client in process: a
client that stops reading is dropped once a write has waited ``stream_write_timeout``
(RESOURCE_EXHAUSTED, ``stream.slow_reader``) and the handler's generator is closed; a
client that goes away leaves nothing behind; bytes a handler serialized itself are sent as
they are (the engine serializes an event once for every stream of its match)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from services.engine.policies import POLICIES
from tavola.accounts.model import PLAY, READ, Kind, Principal
from tavola.service.edge import EdgeInterceptor
from tavola.service.limits import Limiter, LimitSettings, parse_rates
from tavola.v1 import events_pb2, game_pb2, game_pb2_grpc

TOKEN = "tvl1_reader"
READER = Principal("a-1", "ana", Kind.PLAYER, frozenset({PLAY, READ}), "t-ana")
BIG = "x" * 16_000  # a few of these fill the connection's flow-control window


class Streams(game_pb2_grpc.GameServiceServicer):
    def __init__(self) -> None:
        self.closed = 0

    async def StreamEvents(self, request, context) -> AsyncIterator[object]:  # type: ignore[no-untyped-def]
        try:
            for version in range(1, 100_000):
                if request.match_id == "bytes":  # every other one serialized here
                    event = events_pb2.EventEnvelope(match_id="bytes", version=version)
                    response = game_pb2.StreamEventsResponse(event=event)
                    yield response.SerializeToString() if version % 2 else response
                    if version == 10:
                        return
                    continue
                event = events_pb2.EventEnvelope(
                    match_id=request.match_id, version=version, event_id=BIG
                )
                yield game_pb2.StreamEventsResponse(event=event)
        finally:
            self.closed += 1


async def _token(token: str) -> Principal | None:
    return READER if token == TOKEN else None


@pytest.fixture
async def served() -> AsyncIterator[tuple[Streams, EdgeInterceptor, str]]:
    limiter = Limiter(
        LimitSettings(rates=parse_rates(""), stream_write_timeout=0.5),
        asyncio.get_running_loop().time,
    )
    edge = EdgeInterceptor(_token, limiter, POLICIES)
    server = grpc.aio.server(interceptors=[edge])
    streams = Streams()
    game_pb2_grpc.add_GameServiceServicer_to_server(streams, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    yield streams, edge, f"127.0.0.1:{port}"
    await server.stop(0)


def _open(channel: grpc.aio.Channel, match_id: str) -> Any:
    """A spectator's stream of ``match_id``, as the reader."""
    return game_pb2_grpc.GameServiceStub(channel).StreamEvents(
        game_pb2.StreamEventsRequest(match_id=match_id, seat=-1),
        metadata=(("authorization", f"Bearer {TOKEN}"),),
    )


def _reason(error: grpc.aio.AioRpcError) -> str:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason
    return ""


async def test_a_client_that_stops_reading_is_dropped_and_its_stream_closed(served) -> None:
    streams, edge, address = served
    async with grpc.aio.insecure_channel(address) as channel:
        call = _open(channel, "m1")
        first = await call.read()  # the stream is open and sending
        assert first.event.version == 1
        for _ in range(100):  # then the client reads nothing while the server writes
            await asyncio.sleep(0.05)
            if streams.closed:
                break
        assert streams.closed == 1 and edge.open_streams == 0
        with pytest.raises(grpc.aio.AioRpcError) as dropped:
            while True:  # what was in flight, then the status
                await call.read()
        assert dropped.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert _reason(dropped.value) == "stream.slow_reader"
    assert not edge._writes and not edge._slow  # nothing kept of it


async def test_a_client_that_goes_away_mid_stream_leaves_nothing_behind(served) -> None:
    streams, edge, address = served
    async with grpc.aio.insecure_channel(address) as channel:
        call = _open(channel, "m1")
        for _ in range(3):
            await call.read()
        call.cancel()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if streams.closed:
                break
    assert streams.closed == 1 and edge.open_streams == 0
    assert not edge._writes and not edge._slow


async def test_bytes_a_handler_serialized_are_sent_as_they_are(served) -> None:
    _, edge, address = served
    async with grpc.aio.insecure_channel(address) as channel:
        call = _open(channel, "bytes")
        got = [response async for response in call]
    assert [r.event.version for r in got] == list(range(1, 11))
    assert all(r.event.match_id == "bytes" for r in got)
    assert edge.open_streams == 0
