"""Aborting a gRPC call with a ServiceError: status, readable message, ErrorInfo detail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from tavola.protocol.errors import ServiceError

DOMAIN = "tavola.v1"


RETRY_AFTER_MS = "retry-after-ms"  # trailing metadata: when trying again may succeed


@dataclass(frozen=True)
class _Status(grpc.Status):  # type: ignore[misc]
    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]


def to_status(error: ServiceError) -> grpc.Status:
    """The status, with an ErrorInfo detail (reason, domain, params) and, when the error
    says when to retry, a RetryInfo detail and the ``retry-after-ms`` trailer."""
    info = error_details_pb2.ErrorInfo(
        reason=error.reason.code,
        domain=DOMAIN,
        metadata={name: str(value) for name, value in error.reason.params},
    )
    details = [_packed(info)]
    trailers: list[tuple[str, str | bytes]] = []
    if error.retry_after is not None:
        delay = duration_pb2.Duration()
        delay.FromMilliseconds(max(1, int(error.retry_after * 1000)))
        details.append(_packed(error_details_pb2.RetryInfo(retry_delay=delay)))
        trailers.append((RETRY_AFTER_MS, str(max(1, int(error.retry_after * 1000)))))
    status = status_pb2.Status(code=error.code.value[0], message=error.message, details=details)
    base = rpc_status.to_status(status)
    return _Status(base.code, base.details, (*base.trailing_metadata, *trailers))


def _packed(message: Message) -> any_pb2.Any:
    detail = any_pb2.Any()
    detail.Pack(message)
    return detail


async def abort(context: grpc.aio.ServicerContext, error: ServiceError) -> NoReturn:
    await context.abort_with_status(to_status(error))
    raise AssertionError("unreachable")  # abort_with_status always raises
