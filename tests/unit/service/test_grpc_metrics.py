"""The gRPC metrics interceptor counts every call by service, method and status code, and
times it — for unary and server-streaming calls, async and sync handlers, aborts, errors,
cancellations, and statuses another interceptor answers with. (An in-process server on a
loopback port: no other process, no network.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY

from tavola.service import grpc_metrics, runtime
from tavola.service.grpc_metrics import GrpcMetricsInterceptor

SERVICE = "tavola.v1.ProbeService"
SYNC_SERVICE = "probe.SyncService"  # a synchronous service beside the async probe


async def echo(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    return request


async def missing(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    await context.abort(grpc.StatusCode.NOT_FOUND, "no such table")
    raise AssertionError("unreachable")


async def broken(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    raise RuntimeError("a bug")


async def slow(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    await asyncio.sleep(30)
    return request


async def three(request: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
    for n in range(3):
        yield bytes([n])


async def one_then_abort(request: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
    yield b"first"
    await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the match ended")


CLOSED: list[str] = []


async def endless(request: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
    try:
        while True:
            yield b"tick"
            await asyncio.sleep(0.01)
    finally:
        CLOSED.append("endless")


def sync_pair(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    yield b"a"
    yield b"b"


def _raw(message: bytes) -> bytes:
    return message


def _probe_service() -> grpc.GenericRpcHandler:
    def unary(behavior: object) -> grpc.RpcMethodHandler:
        return grpc.unary_unary_rpc_method_handler(behavior)

    def streaming(behavior: object) -> grpc.RpcMethodHandler:
        return grpc.unary_stream_rpc_method_handler(behavior)

    return grpc.method_handlers_generic_handler(
        SERVICE,
        {
            "Echo": unary(echo),
            "Missing": unary(missing),
            "Broken": unary(broken),
            "Slow": unary(slow),
            "Three": streaming(three),
            "OneThenAbort": streaming(one_then_abort),
            "Endless": streaming(endless),
            # a protobuf request, refused by a later interceptor when it does not decode
            "Typed": grpc.unary_unary_rpc_method_handler(
                echo,
                request_deserializer=health_pb2.HealthCheckRequest.FromString,
                response_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            ),
        },
    )


class _RefuseGarbage(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Stands for the platform's edge: a later interceptor that refuses a request that does
    not decode with INVALID_ARGUMENT, before the handler."""

    async def intercept_service(self, continuation, details):  # type: ignore[no-untyped-def]
        handler = await continuation(details)
        if handler is None or not details.method.endswith("/Typed"):
            return handler
        inner, parse = handler.unary_unary, handler.request_deserializer

        def lenient(data: bytes) -> object:
            try:
                return parse(data)
            except Exception:
                return None

        async def unary(request, context):  # type: ignore[no-untyped-def]
            if request is None:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "not a message")
            return await inner(request, context)

        return handler._replace(request_deserializer=lenient, unary_unary=unary)


@pytest.fixture
async def channel() -> AsyncIterator[grpc.aio.Channel]:
    server = grpc.aio.server(interceptors=[GrpcMetricsInterceptor(), _RefuseGarbage()])
    sync_service = grpc.method_handlers_generic_handler(
        SYNC_SERVICE, {"Pair": grpc.unary_stream_rpc_method_handler(sync_pair)}
    )
    server.add_generic_rpc_handlers((_probe_service(), sync_service))
    runtime.add_health_and_reflection(server, ())
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as opened:
        yield opened
    await server.stop(None)


def handled(method: str, code: str, service: str = SERVICE) -> float:
    labels = {"service": service, "method": method, "code": code}
    total = 0.0
    for call_type in ("unary", "server_stream", "client_stream", "bidi_stream", "unknown"):
        value = REGISTRY.get_sample_value(
            "tavola_grpc_server_handled_total", {**labels, "type": call_type}
        )
        total += value or 0.0
    return total


def timed(method: str, call_type: str) -> float:
    value = REGISTRY.get_sample_value(
        "tavola_grpc_server_handling_seconds_count",
        {"service": SERVICE, "method": method, "type": call_type},
    )
    return value or 0.0


async def call(channel: grpc.aio.Channel, method: str, request: bytes = b"hi") -> grpc.StatusCode:
    try:
        await channel.unary_unary(f"/{SERVICE}/{method}")(request, timeout=5)
    except grpc.aio.AioRpcError as error:
        return error.code()
    return grpc.StatusCode.OK


async def stream(
    channel: grpc.aio.Channel, method: str, service: str = SERVICE
) -> tuple[list[bytes], grpc.StatusCode]:
    received: list[bytes] = []
    try:
        async for message in channel.unary_stream(f"/{service}/{method}")(b"", timeout=5):
            received.append(message)
    except grpc.aio.AioRpcError as error:
        return received, error.code()
    return received, grpc.StatusCode.OK


async def test_a_unary_call_is_counted_with_its_status_and_timed(
    channel: grpc.aio.Channel,
) -> None:
    before = handled("Echo", "OK"), timed("Echo", "unary")
    assert await call(channel, "Echo") == grpc.StatusCode.OK
    assert (handled("Echo", "OK"), timed("Echo", "unary")) == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize(
    ("method", "code"),
    [("Missing", grpc.StatusCode.NOT_FOUND), ("Broken", grpc.StatusCode.UNKNOWN)],
)
async def test_an_aborted_or_failing_unary_call_is_counted_with_the_code_the_client_gets(
    channel: grpc.aio.Channel, method: str, code: grpc.StatusCode
) -> None:
    before = handled(method, code.name)
    assert await call(channel, method) == code
    # an abort sends the status before the handler's frame unwinds: counted just after
    await _eventually(lambda: handled(method, code.name) == before + 1)
    assert handled(method, "OK") == 0


async def test_a_request_refused_by_a_later_interceptor_is_counted_with_its_status(
    channel: grpc.aio.Channel,
) -> None:
    before = handled("Typed", "INVALID_ARGUMENT")
    assert await call(channel, "Typed", b"\xff\xff\xff") == grpc.StatusCode.INVALID_ARGUMENT
    await _eventually(lambda: handled("Typed", "INVALID_ARGUMENT") == before + 1)


async def test_a_call_the_client_cancels_is_counted_as_cancelled(
    channel: grpc.aio.Channel,
) -> None:
    before = handled("Slow", "CANCELLED")
    pending = channel.unary_unary(f"/{SERVICE}/Slow")(b"hi")
    await asyncio.sleep(0.2)
    pending.cancel()
    await _eventually(lambda: handled("Slow", "CANCELLED") == before + 1)


async def test_server_streams_are_counted_when_they_end_with_their_status(
    channel: grpc.aio.Channel,
) -> None:
    before = handled("Three", "OK"), handled("OneThenAbort", "FAILED_PRECONDITION")
    assert await stream(channel, "Three") == ([b"\x00", b"\x01", b"\x02"], grpc.StatusCode.OK)
    assert await stream(channel, "OneThenAbort") == (
        [b"first"],
        grpc.StatusCode.FAILED_PRECONDITION,
    )
    assert handled("Three", "OK") == before[0] + 1
    await _eventually(lambda: handled("OneThenAbort", "FAILED_PRECONDITION") == before[1] + 1)
    assert timed("Three", "server_stream") >= 1


async def test_a_stream_the_client_leaves_is_cancelled_and_its_handler_cleaned_up(
    channel: grpc.aio.Channel,
) -> None:
    before = handled("Endless", "CANCELLED")
    CLOSED.clear()
    endless_call = channel.unary_stream(f"/{SERVICE}/Endless")(b"")
    assert await endless_call.read() == b"tick"
    endless_call.cancel()
    await _eventually(lambda: handled("Endless", "CANCELLED") == before + 1)
    await _eventually(lambda: CLOSED == ["endless"])


async def test_synchronous_handlers_stay_synchronous_and_are_counted(
    channel: grpc.aio.Channel,
) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    service = "grpc.health.v1.Health"
    before = handled("Check", "OK", service), handled("Check", "NOT_FOUND", service)
    serving = await health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
    assert serving.status == health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.aio.AioRpcError) as unknown:
        await health.Check(health_pb2.HealthCheckRequest(service="nope"), timeout=5)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
    assert handled("Check", "OK", service) == before[0] + 1
    await _eventually(lambda: handled("Check", "NOT_FOUND", service) == before[1] + 1)

    pair_before = handled("Pair", "OK", SYNC_SERVICE)
    assert await stream(channel, "Pair", SYNC_SERVICE) == ([b"a", b"b"], grpc.StatusCode.OK)
    assert handled("Pair", "OK", SYNC_SERVICE) == pair_before + 1


async def test_unknown_methods_share_one_series_whatever_their_names(
    channel: grpc.aio.Channel,
) -> None:
    before = handled("unknown", "UNIMPLEMENTED", service="unknown")
    for name in ("/made.up.Service/One", "/another.Service/Two", f"/{SERVICE}/Three3"):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await channel.unary_unary(name)(b"", timeout=5)
        assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert handled("unknown", "UNIMPLEMENTED", service="unknown") == before + 3
    names = {
        sample.labels.get("service")
        for metric in REGISTRY.collect()
        if metric.name.startswith("tavola_grpc_server")
        for sample in metric.samples
    }
    assert not names & {"made.up.Service", "another.Service"}


async def _eventually(check: object, seconds: float = 5.0) -> None:
    assert callable(check)
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


class _AnswersAnyName(grpc.GenericRpcHandler):
    """A handler for every method name a client makes up (none of ours does this)."""

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        return grpc.unary_unary_rpc_method_handler(echo)


async def test_a_server_answering_any_name_still_has_a_bounded_number_of_series(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(grpc_metrics, "MAX_METHODS", 2)
    server = grpc.aio.server(interceptors=[GrpcMetricsInterceptor()])
    server.add_generic_rpc_handlers((_AnswersAnyName(),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    before = handled("other", "OK", service="other")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        for n in range(5):
            await channel.unary_unary(f"/made.up.Service{n}/Call")(b"", timeout=5)
    await server.stop(None)
    assert handled("other", "OK", service="other") == before + 3
    assert handled("Call", "OK", service="made.up.Service4") == 0
