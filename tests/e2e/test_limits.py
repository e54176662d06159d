"""Rate limits and stream caps, on a platform whose limits are set low (docs/security.md):
a limited call gets RESOURCE_EXHAUSTED with when to retry, and recovers; a token holds
only so many streams; a client that never reads its stream is dropped and its memory
returns."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from support.platform import bot_table, eventually, match_state, running_platform
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra
from tavola.v1 import game_pb2, lobby_pb2

pytestmark = pytest.mark.e2e
LIMITS = "read=2/6,create_table=50/50,lobby=50/50,account=50/50"


@pytest.fixture(scope="module")
def limited(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url,
        nats_url,
        tmp_path_factory.mktemp("limited"),
        infra.nats_service_urls(),
        extra_env={
            "TAVOLA_LIMITS": LIMITS,
            "TAVOLA_STREAMS_PER_TOKEN": "2",
            "TAVOLA_STREAM_WRITE_TIMEOUT": "2",
        },
    ) as running:
        yield running


@pytest.fixture
def admin(limited: Platform) -> Iterator[Client]:
    connected = Client.connect(limited.address, limited.token, patient=False)  # the raw limits
    yield connected
    connected.close()


def retry_delay(error: grpc.RpcError) -> float:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                retry = error_details_pb2.RetryInfo()
                if detail.Unpack(retry):
                    return retry.retry_delay.ToMilliseconds() / 1000
    return 0.0


def test_a_rate_limit_is_hit_with_a_retry_delay_and_recovers(admin):
    answers: list[grpc.StatusCode] = []
    delay = 0.0
    for _ in range(20):
        try:
            admin.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=5)
            answers.append(grpc.StatusCode.OK)
        except grpc.RpcError as error:
            answers.append(error.code())
            delay = retry_delay(error)
            trailers = dict(error.trailing_metadata() or ())
            assert int(trailers["retry-after-ms"]) > 0
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in answers
    assert set(answers) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
    assert 0 < delay <= 1.0
    time.sleep(delay + 0.1)
    assert admin.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=5).games


def test_a_token_holds_only_so_many_streams_and_gets_one_back_when_one_closes(admin):
    time.sleep(3)  # the read limit refills
    match_id, _ = bot_table(admin, "fan-tan", 4, {"hands": "7"}, level="master", think_ms=200)
    request = game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True)
    first = admin.game.StreamEvents(request)
    second = admin.game.StreamEvents(request)
    next(first), next(second)  # both are open
    third = admin.game.StreamEvents(request)
    with pytest.raises(grpc.RpcError) as caught:
        next(third)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    first.cancel()
    time.sleep(3)

    def opened() -> bool:
        fourth = admin.game.StreamEvents(request)
        try:
            next(fourth)
            return True
        finally:
            fourth.cancel()

    assert eventually(opened, timeout=20)
    second.cancel()


def streams_open(platform: Platform) -> float:
    port = platform.metrics_ports["engine"]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    for line in text.splitlines():
        if line.startswith("tavola_engine_event_streams_open "):
            return float(line.split()[1])
    return -1.0


def test_a_never_reading_stream_is_dropped_and_its_memory_returns(limited, admin):
    time.sleep(3)
    match_id, _ = bot_table(admin, "fan-tan", 7, {"hands": "4"})
    eventually(lambda: match_state(admin, match_id).finished, timeout=180, every=1.0)
    time.sleep(3)  # the read limit refills
    # a client whose receive window never grows, that never reads what it asked for
    channel = grpc.insecure_channel(
        limited.address,
        options=[("grpc.http2.bdp_probe", 0), ("grpc.max_receive_message_length", 1 << 20)],
    )
    stub = game_pb2_grpc_stub(channel)
    call = stub.StreamEvents(
        game_pb2.StreamEventsRequest(match_id=match_id, seat=-1),
        metadata=(("authorization", f"Bearer {limited.token}"),),
    )
    eventually(lambda: streams_open(limited) >= 1, timeout=10)
    eventually(lambda: streams_open(limited) == 0, timeout=30)  # dropped, and freed
    with pytest.raises(grpc.RpcError) as caught:
        for _ in call:
            pass
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    channel.close()


def game_pb2_grpc_stub(channel: grpc.Channel):  # type: ignore[no-untyped-def]
    from tavola.v1 import game_pb2_grpc

    return game_pb2_grpc.GameServiceStub(channel)
