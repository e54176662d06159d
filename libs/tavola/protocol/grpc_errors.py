"""Aborting a gRPC call with a ServiceError: status, readable message, ErrorInfo detail."""

from __future__ import annotations

from typing import NoReturn

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from tavola.protocol.errors import ServiceError

DOMAIN = "tavola.v1"


def to_status(error: ServiceError) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(
        reason=error.reason.code,
        domain=DOMAIN,
        metadata={name: str(value) for name, value in error.reason.params},
    )
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(code=error.code.value[0], message=error.message, details=[detail])
    return rpc_status.to_status(status)


async def abort(context: grpc.aio.ServicerContext, error: ServiceError) -> NoReturn:
    await context.abort_with_status(to_status(error))
    raise AssertionError("unreachable")  # abort_with_status always raises
