"""The gRPC server's tracing interceptor: a server span per call, continuing the caller's
trace from its ``traceparent`` metadata; streams are spanned for their whole life."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tavola.service import tracing

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    try:
        yield exporter
    finally:
        tracing.uninstall()


async def say(request: bytes, _context: grpc.aio.ServicerContext) -> bytes:
    return b"echo:" + request


async def count(request: bytes, _context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
    for i in range(3):
        yield bytes([i])


async def test_a_call_is_a_server_span_of_the_callers_trace(spans: InMemorySpanExporter):
    server = grpc.aio.server(interceptors=tracing.server_interceptors())
    server.add_generic_rpc_handlers(
        (
            grpc.method_handlers_generic_handler(
                "test.Echo",
                {
                    "Say": grpc.unary_unary_rpc_method_handler(say),
                    "Count": grpc.unary_stream_rpc_method_handler(count),
                },
            ),
        )
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            answer = await channel.unary_unary("/test.Echo/Say")(
                b"hi", metadata=(("traceparent", PARENT),)
            )
            items = [i async for i in channel.unary_stream("/test.Echo/Count")(b"")]
    finally:
        await server.stop(None)
    assert answer == b"echo:hi" and items == [b"\x00", b"\x01", b"\x02"]
    by_name = {s.name: s for s in spans.get_finished_spans()}
    unary, stream = by_name["/test.Echo/Say"], by_name["/test.Echo/Count"]
    assert format(unary.context.trace_id, "032x") == TRACE_ID
    assert unary.parent is not None and format(unary.parent.span_id, "016x") == PARENT[36:52]
    assert unary.attributes["rpc.method"] == "Say" and unary.kind.name == "SERVER"
    assert format(stream.context.trace_id, "032x") != TRACE_ID  # no parent: a new trace


def test_off_the_server_gets_no_interceptor():
    assert not tracing.enabled() and tracing.server_interceptors() == []
