"""Relaying one Connect call to the engine's gRPC API and its answer back.

What crosses: the browser's ``Authorization`` (its own token, untouched) and
``Tavola-Locale``; nothing else the browser sends becomes metadata. The gateway adds its
own credential (``tavola-gateway-authorization``) and the browser's address
(``tavola-client-address``), which the engine's edge honours only with that credential
(docs/security.md), so every limit — per token and per address — is the engine's own,
counted for this browser. What comes back: the answer, or the engine's status as a Connect
error whose ``details`` carry the same ``google.rpc.ErrorInfo`` (and ``RetryInfo``), and the
trailers (``retry-after-ms``) as Connect's trailers.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from aiohttp import web
from google.protobuf.message import Message

from services.gateway import connect, metrics
from services.gateway.connect import Codec, ProtocolError
from services.gateway.methods import Method
from tavola.protocol import errors
from tavola.protocol.errors import ServiceError
from tavola.protocol.grpc_errors import to_status
from tavola.service.edge import AUTHORIZATION, CLIENT_ADDRESS, GATEWAY_AUTHORIZATION, LOCALE_HEADER

log = structlog.get_logger(__name__)
MAX_HEADER = 1024
UNKNOWN_PEER = "ipv4:0.0.0.0"


@dataclass(frozen=True, slots=True)
class Failure:
    """A call's refusal in Connect's terms."""

    code: grpc.StatusCode
    message: str
    details: list[dict[str, Any]]
    trailers: tuple[tuple[str, str | bytes], ...] = ()

    @staticmethod
    def of_rpc(error: grpc.aio.AioRpcError) -> Failure:
        trailers = tuple(error.trailing_metadata() or ())
        return Failure(error.code(), error.details() or "", connect.details_of(trailers), trailers)

    @staticmethod
    def of_service(error: ServiceError, locale: str) -> Failure:
        status = to_status(error.localised(locale))
        trailers = tuple(status.trailing_metadata)
        return Failure(status.code, status.details, connect.details_of(trailers), trailers)

    @staticmethod
    def of_protocol(error: ProtocolError) -> Failure:
        return Failure(error.code, error.message, [])

    def json(self) -> dict[str, Any]:
        return connect.error_json(self.code, self.message, self.details)


def _printable(value: str) -> bool:
    return len(value) <= MAX_HEADER and all(" " <= c <= "~" for c in value)


class Relay:
    """Calls the engine for the browser (one channel, shared by every call)."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        gateway_token: str,
        max_message_bytes: int,
        write_timeout: float = 20.0,
    ) -> None:
        self._channel = channel
        self._credential = f"Bearer {gateway_token}"
        self._max = max_message_bytes
        self._write_timeout = write_timeout

    def metadata(self, request: web.Request, address: str | None) -> tuple[tuple[str, str], ...]:
        pairs = [
            (GATEWAY_AUTHORIZATION, self._credential),
            (CLIENT_ADDRESS, address or UNKNOWN_PEER),
        ]
        for header, key in (("Authorization", AUTHORIZATION), ("Tavola-Locale", LOCALE_HEADER)):
            value = request.headers.get(header)
            if value is None:
                continue
            if not _printable(value):
                code = "auth.malformed" if key == AUTHORIZATION else "request.bad_text"
                raise (
                    errors.unauthenticated(code)
                    if key == AUTHORIZATION
                    else errors.invalid(code, field=header)
                )
            pairs.append((key, value))
        return tuple(pairs)

    async def read_request(self, request: web.Request, method: Method, codec: Codec) -> Message:
        body = await request.read()  # bounded by the application's client_max_size
        if codec.stream:
            body = connect.read_envelope(body, self._max)
        return codec.decode(body, method.request())

    async def unary(
        self, method: Method, message: Message, metadata: Any, timeout: float | None
    ) -> tuple[Message, tuple[tuple[str, str | bytes], ...]]:
        call = self._channel.unary_unary(
            method.path,
            request_serializer=_serialize,
            response_deserializer=method.response.FromString,
        )(message, metadata=metadata, timeout=timeout)
        answer = await call
        trailers = tuple(await call.trailing_metadata() or ())
        return answer, trailers

    async def stream(
        self,
        method: Method,
        message: Message,
        metadata: Any,
        timeout: float | None,
        write: Callable[[bytes], Any],
        codec: Codec,
    ) -> Failure | tuple[tuple[str, str | bytes], ...]:
        """Write every message of the engine's stream; returns its trailers or its failure.
        A browser that does not read for ``write_timeout`` seconds is dropped, as the engine
        drops a slow reader; a browser that goes away ends the engine's stream at once."""
        call = self._channel.unary_stream(
            method.path,
            request_serializer=_serialize,
            response_deserializer=method.response.FromString,
        )(message, metadata=metadata, timeout=timeout)
        try:
            async for item in call:
                try:
                    await asyncio.wait_for(
                        write(connect.envelope(codec.encode(item))), self._write_timeout
                    )
                except TimeoutError:
                    log.info("stream.slow_reader_dropped", rpc=method.name)
                    return Failure.of_service(
                        errors.exhausted(
                            1.0, "stream.slow_reader", seconds=int(self._write_timeout)
                        ),
                        "en",
                    )
            return tuple(await call.trailing_metadata() or ())
        except grpc.aio.AioRpcError as error:
            return Failure.of_rpc(error)
        finally:
            call.cancel()


def _serialize(message: Message) -> bytes:
    return bytes(message.SerializeToString())


def elapsed_since(start: float) -> float:
    return time.monotonic() - start


@contextlib.contextmanager
def counting_stream() -> Any:
    metrics.STREAMS_OPEN.inc()
    try:
        yield
    finally:
        metrics.STREAMS_OPEN.dec()
