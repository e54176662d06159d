"""Tracing across NATS on a real server: off, a request carries no header at all; on, the
answering service's span is the caller's child in one trace, and the answer is the same."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import nats
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tavola.bus import rpc
from tavola.service import tracing
from tavola.v1 import game_pb2

pytestmark = pytest.mark.integration


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


async def serve_echo(nc: nats.NATS, prefix: str, headers_seen: list[object]) -> None:
    async def get_match(
        request: game_pb2.GetMatchRequest, _context: rpc.Request
    ) -> game_pb2.GetMatchResponse:
        return game_pb2.GetMatchResponse(match_id=request.match_id)

    subscriptions = await rpc.serve(
        nc, prefix, "q", {"GetMatch": rpc.Method(game_pb2.GetMatchRequest, get_match)}
    )

    async def spy(msg: nats.aio.msg.Msg) -> None:
        headers_seen.append(msg.headers)

    subscriptions.append(await nc.subscribe(f"{prefix}.GetMatch", cb=spy))


async def call_echo(nats_url: str, match_id: str) -> list[object]:
    """One GetMatch over NATS to a service answering it; the headers the request carried."""
    nc = await nats.connect(nats_url)
    try:
        prefix, seen = f"t{secrets.token_hex(4)}.rpc", []
        await serve_echo(nc, prefix, seen)
        answer = await rpc.call(
            nc,
            prefix,
            "GetMatch",
            game_pb2.GetMatchRequest(match_id=match_id),
            game_pb2.GetMatchResponse,
        )
        assert answer.match_id == match_id
        await nc.flush()
        return seen
    finally:
        await nc.close()


async def test_without_the_otel_variables_a_request_carries_no_trace_header(nats_url: str):
    assert not tracing.wanted({}) and not tracing.enabled()
    assert await call_echo(nats_url, "m1") == [None]


async def test_the_answering_span_is_the_callers_child_in_one_trace(
    nats_url: str, spans: InMemorySpanExporter
):
    seen = await call_echo(nats_url, "m2")
    finished = {s.kind.name: s for s in spans.get_finished_spans()}
    client, server = finished["CLIENT"], finished["SERVER"]
    assert client.name == server.name == "nats GetMatch"
    assert server.context.trace_id == client.context.trace_id
    assert server.parent is not None and server.parent.span_id == client.context.span_id
    assert server.attributes["tavola.match_id"] == "m2"
    assert "traceparent" in (seen[0] or {})


@pytest.mark.parametrize(
    ("env", "wanted"),
    [
        ({}, False),
        ({"OTEL_TRACES_EXPORTER": "console"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}, False),
        ({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "true"}, False),
    ],
)
def test_only_the_standard_variables_switch_tracing_on(env, wanted):
    assert tracing.wanted(env) is wanted
