"""OpenTelemetry tracing across gRPC and NATS — off unless the standard variables ask.

Off by default: nothing is configured, no span is made, no header is added. It is on when
``OTEL_TRACES_EXPORTER`` names an exporter (``otlp``, ``console``) or an OTLP endpoint is
set (``OTEL_EXPORTER_OTLP_ENDPOINT`` / ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``), and
``OTEL_SDK_DISABLED`` is not ``true``. The SDK then reads the rest of the standard
variables itself (``OTEL_SERVICE_NAME`` — by default ``tavola-<service>`` —,
``OTEL_RESOURCE_ATTRIBUTES``, ``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_TRACES_SAMPLER``…).
OTLP goes over HTTP/protobuf (port 4318 of a collector).

What is traced: every call of a gRPC server (a server span per RPC, its parent taken from
the caller's ``traceparent`` metadata), every request over NATS (a client span in the
caller, whose W3C context travels in the message's headers, and a server span in the
service that answers). A trace context only links spans: it is never trusted for anything
(who calls is the NATS user and the bus envelope, docs/security.md). Spans carry the RPC's
name and, where the request has them, table, match and seat ids — never a token or a card.
Log lines written inside a span carry its ``trace_id`` and ``span_id``.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from typing import Any

import grpc

_state: dict[str, Any] = {"on": False}


def wanted(env: Mapping[str, str] | None = None) -> bool:
    """Whether the standard OTEL variables ask for traces."""
    env = os.environ if env is None else env
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporters = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporters == "none":
        return False
    endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or env.get(
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
    )
    return bool(exporters or endpoint)


def enabled() -> bool:
    return bool(_state["on"])


def configure(service: str, env: Mapping[str, str] | None = None) -> bool:
    """Set up the tracer provider of this process when the variables ask; True if on."""
    env = os.environ if env is None else env
    if not wanted(env):
        return False
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import (
        BatchSpanProcessor,
        ConsoleSpanExporter,
        SimpleSpanProcessor,
    )

    attributes = {} if env.get("OTEL_SERVICE_NAME") else {"service.name": f"tavola-{service}"}
    provider = TracerProvider(resource=Resource.create(attributes))
    names = [n.strip() for n in env.get("OTEL_TRACES_EXPORTER", "otlp").split(",") if n.strip()]
    for name in names or ["otlp"]:
        if name == "console":
            provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stderr)))
        elif name == "otlp":
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    install(provider)
    return True


def install(provider: Any) -> None:
    """Trace with ``provider`` (an SDK ``TracerProvider``; tests give one of their own)."""
    _state.update(on=True, tracer=provider.get_tracer("tavola"), provider=provider)


def uninstall() -> None:
    """Tracing off again (tests)."""
    _state.clear()
    _state["on"] = False


def shutdown() -> None:
    """Flush what is buffered (at a service's exit)."""
    provider = _state.get("provider")
    if provider is not None:
        provider.shutdown()


def log_ids(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """A structlog processor: the current span's ids on each line logged inside one."""
    if _state["on"]:
        from opentelemetry import trace

        context = trace.get_current_span().get_span_context()
        if context.is_valid:
            event.setdefault("trace_id", format(context.trace_id, "032x"))
            event.setdefault("span_id", format(context.span_id, "016x"))
    return event


@contextmanager
def span(
    name: str,
    kind: str,
    carrier: Mapping[str, str] | None = None,
    attributes: Mapping[str, Any] | None = None,
) -> Iterator[Any]:
    """A span (``kind``: ``server`` or ``client``), its parent from ``carrier``'s
    ``traceparent`` when given; nothing at all while tracing is off."""
    if not _state["on"]:
        yield None
        return
    from opentelemetry import propagate, trace

    parent = propagate.extract(dict(carrier)) if carrier is not None else None
    span_kind = trace.SpanKind.SERVER if kind == "server" else trace.SpanKind.CLIENT
    with _state["tracer"].start_as_current_span(
        name, context=parent, kind=span_kind, attributes=dict(attributes or {})
    ) as current:
        yield current


def inject() -> dict[str, str] | None:
    """The current context as headers for a message (None while tracing is off)."""
    if not _state["on"]:
        return None
    from opentelemetry import propagate

    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier or None


class TracingInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """A server span per RPC of the asynchronous handlers (put it after the metrics one)."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return None
        method = details.method
        service, _, name = method.strip("/").partition("/")
        attributes = {"rpc.system": "grpc", "rpc.service": service, "rpc.method": name}
        if handler.unary_unary is not None and inspect.iscoroutinefunction(handler.unary_unary):
            return handler._replace(unary_unary=_unary(handler.unary_unary, method, attributes))
        if handler.unary_stream is not None and inspect.isasyncgenfunction(handler.unary_stream):
            return handler._replace(unary_stream=_stream(handler.unary_stream, method, attributes))
        return handler


def _metadata(context: grpc.aio.ServicerContext) -> dict[str, str]:
    return {
        key: value
        for key, value in (context.invocation_metadata() or ())
        if key in ("traceparent", "tracestate") and isinstance(value, str)
    }


def _unary(behavior: Any, method: str, attributes: Mapping[str, Any]) -> Any:
    async def wrapped(request: Any, context: grpc.aio.ServicerContext) -> Any:
        with span(method, "server", _metadata(context), attributes):
            return await behavior(request, context)

    return wrapped


def _stream(behavior: Any, method: str, attributes: Mapping[str, Any]) -> Any:
    async def wrapped(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        with span(method, "server", _metadata(context), attributes):
            async for item in behavior(request, context):
                yield item

    return wrapped


def server_interceptors() -> list[grpc.aio.ServerInterceptor]:
    """``[TracingInterceptor()]`` while tracing is on, else nothing to add."""
    return [TracingInterceptor()] if _state["on"] else []
