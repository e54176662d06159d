"""A server interceptor answering undecodable requests with INVALID_ARGUMENT.

By default gRPC answers a request that is not a valid protobuf message with INTERNAL; a
client deserves to know it sent something malformed. The interceptor swaps each method's
deserializer for one that marks the request as malformed instead of raising, and aborts
those calls with INVALID_ARGUMENT and an ErrorInfo detail, before any handler runs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from tavola.protocol.errors import invalid
from tavola.protocol.grpc_errors import abort


class _Malformed:
    __slots__ = ("error",)

    def __init__(self, error: str) -> None:
        self.error = error


def _safe(deserialize: Callable[[bytes], Any] | None) -> Callable[[bytes], Any]:
    def parse(data: bytes) -> Any:
        if deserialize is None:
            return data
        try:
            return deserialize(data)
        except (DecodeError, ValueError, RuntimeError) as error:
            return _Malformed(str(error))

    return parse


async def _refuse(context: grpc.aio.ServicerContext, request: _Malformed) -> None:
    await abort(
        context,
        invalid(
            "request.invalid",
            field="message",
            detail=request.error or "not a valid protobuf message",
        ),
    )


class MalformedRequestInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if (
            handler is None
            or handler.request_streaming
            or not handler_call_details.method.startswith("/tavola.v1.")
        ):
            return handler  # health and reflection keep gRPC's own behaviour
        safe = _safe(handler.request_deserializer)
        if handler.unary_unary is not None:
            inner = handler.unary_unary

            async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
                if isinstance(request, _Malformed):
                    await _refuse(context, request)
                return await inner(request, context)

            return handler._replace(request_deserializer=safe, unary_unary=unary)
        if handler.unary_stream is not None:
            stream = handler.unary_stream

            async def streaming(
                request: Any, context: grpc.aio.ServicerContext
            ) -> AsyncIterator[Any]:
                if isinstance(request, _Malformed):
                    await _refuse(context, request)
                async for item in stream(request, context):
                    yield item

            return handler._replace(request_deserializer=safe, unary_stream=streaming)
        return handler
