"""Per-RPC Prometheus metrics of a gRPC server: calls started, calls handled by status code,
and the time each took.

Labels: ``service`` and ``method`` of a *registered* handler (a fixed set, from the proto
files: ``tavola.v1.GameService``, ``SubmitAction``), ``type`` (``unary``, ``server_stream``…)
and ``code`` (``OK``, ``NOT_FOUND``…) — never ids. A call to a method the server
does not know is counted once as ``unknown``/``unknown`` with ``UNIMPLEMENTED``, so a client
sending made-up names cannot grow the series (and past ``MAX_METHODS`` distinct methods —
which a server of registered handlers never reaches — further ones count as ``other``).

Put the interceptor first in the server's list: it then wraps every other interceptor and
sees the status each of them answers with. Synchronous handlers (the standard health
service) stay synchronous, so gRPC still runs them off the event loop. For a streaming
response the time is the life of the stream, measured until its last message or its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import grpc
from prometheus_client import Counter, Histogram

STARTED = Counter(
    "tavola_grpc_server_started_total",
    "RPCs started on the server",
    ["service", "method", "type"],
)
HANDLED = Counter(
    "tavola_grpc_server_handled_total",
    "RPCs completed on the server, by status code",
    ["service", "method", "type", "code"],
)
HANDLING_SECONDS = Histogram(
    "tavola_grpc_server_handling_seconds",
    "Time from the start of an RPC to its status (a stream: its whole life)",
    ["service", "method", "type"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 600),
)
UNKNOWN = "unknown"
OTHER = "other"
MAX_METHODS = 256  # distinct (service, method) label pairs; past it, calls count as "other"


class GrpcMetricsInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    def __init__(self) -> None:
        self._methods: set[tuple[str, str]] = set()
        self._calls: dict[tuple[str, str, str], _Call] = {}  # bounded as the labels are

    def _labels(self, full_method: str) -> tuple[str, str]:
        """The method's labels; a guard too, should some handler ever answer any name."""
        labels = _split(full_method)
        if labels not in self._methods:
            if len(self._methods) >= MAX_METHODS:
                return OTHER, OTHER
            self._methods.add(labels)
        return labels

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:  # gRPC answers UNIMPLEMENTED itself
            HANDLED.labels(UNKNOWN, UNKNOWN, UNKNOWN, grpc.StatusCode.UNIMPLEMENTED.name).inc()
            return None
        labels = (*self._labels(handler_call_details.method), _call_type(handler))
        call = self._calls.get(labels)
        if call is None:
            call = self._calls[labels] = _Call(*labels)
        if handler.unary_unary is not None:
            return handler._replace(unary_unary=call.wrap_unary(handler.unary_unary))
        if handler.stream_unary is not None:
            return handler._replace(stream_unary=call.wrap_unary(handler.stream_unary))
        if handler.unary_stream is not None:
            return handler._replace(unary_stream=call.wrap_stream(handler.unary_stream))
        if handler.stream_stream is not None:
            return handler._replace(stream_stream=call.wrap_stream(handler.stream_stream))
        return handler


def _split(full_method: str) -> tuple[str, str]:
    """``/tavola.v1.GameService/SubmitAction`` -> (``tavola.v1.GameService``, ``SubmitAction``)."""
    service, _, method = full_method.lstrip("/").partition("/")
    return (service, method) if service and method else (UNKNOWN, UNKNOWN)


def _call_type(handler: grpc.RpcMethodHandler) -> str:
    if handler.request_streaming:
        return "bidi_stream" if handler.response_streaming else "client_stream"
    return "server_stream" if handler.response_streaming else "unary"


class _Call:
    """The labels of one method, its series (found once: every call counts), and the
    wrappers that measure its calls."""

    def __init__(self, service: str, method: str, call_type: str) -> None:
        self._labels = (service, method, call_type)
        self._started = STARTED.labels(*self._labels)
        self._seconds = HANDLING_SECONDS.labels(*self._labels)
        self._handled: dict[grpc.StatusCode, Any] = {}

    def _begin(self) -> float:
        self._started.inc()
        return time.perf_counter()

    def _end(self, started: float, code: grpc.StatusCode) -> None:
        self._seconds.observe(time.perf_counter() - started)
        handled = self._handled.get(code)
        if handled is None:
            handled = self._handled[code] = HANDLED.labels(*self._labels, code.name)
        handled.inc()

    def wrap_unary(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        if not inspect.iscoroutinefunction(behavior):
            return self._sync_unary(behavior)

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            started = self._begin()
            code = grpc.StatusCode.UNKNOWN
            try:
                response = await behavior(request, context)
                code = _status(context, grpc.StatusCode.OK)
                return response
            except BaseException as error:
                code = _failure(context, error)
                raise
            finally:
                self._end(started, code)

        return unary

    def _sync_unary(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        def unary(request: Any, servicer_context: grpc.ServicerContext) -> Any:
            started = self._begin()
            code = grpc.StatusCode.UNKNOWN
            context = _RecordingContext(servicer_context)
            try:
                response = behavior(request, context)
                code = _status(context, grpc.StatusCode.OK)
                return response
            except BaseException as error:
                code = _failure(context, error)
                raise
            finally:
                self._end(started, code)

        return unary

    def wrap_stream(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(behavior):  # writes with context.write()
            return self.wrap_unary(behavior)
        if not inspect.isasyncgenfunction(behavior):
            return self._sync_stream(behavior)

        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            started = self._begin()
            code = grpc.StatusCode.UNKNOWN
            try:
                # closed here, not when collected: the handler's own clean-up runs now
                async with contextlib.aclosing(behavior(request, context)) as responses:
                    async for response in responses:
                        yield response
                code = _status(context, grpc.StatusCode.OK)
            except BaseException as error:
                code = _failure(context, error)
                raise
            finally:
                self._end(started, code)

        return stream

    def _sync_stream(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        def stream(request: Any, servicer_context: grpc.ServicerContext) -> Iterator[Any]:
            started = self._begin()
            code = grpc.StatusCode.UNKNOWN
            context = _RecordingContext(servicer_context)
            try:
                yield from behavior(request, context)
                code = _status(context, grpc.StatusCode.OK)
            except BaseException as error:
                code = _failure(context, error)
                raise
            finally:
                self._end(started, code)

        return stream


class _RecordingContext:
    """A synchronous handler's context, which cannot tell the code set on it: this one
    remembers it (and passes everything on)."""

    def __init__(self, context: grpc.ServicerContext) -> None:
        self._context = context
        self._code: grpc.StatusCode | None = None

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code
        self._context.set_code(code)

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self._code = code
        self._context.abort(code, details)

    def abort_with_status(self, status: grpc.Status) -> None:
        self._code = status.code
        self._context.abort_with_status(status)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def _status(context: Any, default: grpc.StatusCode) -> grpc.StatusCode:
    """The code the handler set or aborted with (``set_code``, ``abort``), else ``default``."""
    try:
        code = context.code()
    except (AttributeError, NotImplementedError):
        return default
    if isinstance(code, grpc.StatusCode):
        return code
    if isinstance(code, int):  # some gRPC versions keep the C-core number
        return next((c for c in grpc.StatusCode if c.value[0] == code), default)
    return default


def _failure(context: Any, error: BaseException) -> grpc.StatusCode:
    """The status a call that raised ends with, as gRPC will report it."""
    if isinstance(error, asyncio.CancelledError | GeneratorExit):
        return grpc.StatusCode.CANCELLED
    # an abort sets the code on the context before raising; anything else is UNKNOWN
    return _status(context, grpc.StatusCode.UNKNOWN)
