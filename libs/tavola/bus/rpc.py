"""Internal request/reply over NATS: one subject per method, protobuf bodies.

The request body is the method's request message; the header ``Tavola-Internal: 1`` marks
calls from trusted services (e.g. the bot service acting for a bot seat). The reply is a
``tavola.v1.BusReply`` carrying the response or the error (status, message, reason).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import structlog
from google.protobuf.message import DecodeError, Message
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from tavola.protocol.errors import ServiceError, invalid
from tavola.protocol.events import reason_to_pb
from tavola.rules.errors import Reason
from tavola.v1 import internal_pb2

log = structlog.get_logger(__name__)
INTERNAL_HEADER = "Tavola-Internal"
M = TypeVar("M", bound=Message)


@dataclass(frozen=True, slots=True)
class Method:
    request_type: type[Message]
    handler: Callable[[Any, bool], Awaitable[Message]]


async def serve(
    nc: NATS, prefix: str, queue: str, methods: Mapping[str, Method]
) -> list[Subscription]:
    """Answer ``prefix.<Method>`` requests in a queue group (scaled out by NATS)."""
    subs = []
    for name, method in methods.items():

        async def on_request(msg: Msg, name: str = name, method: Method = method) -> None:
            reply = await _handle(msg, name, method)
            await msg.respond(reply.SerializeToString())

        subs.append(await nc.subscribe(f"{prefix}.{name}", queue=queue, cb=on_request))
    return subs


async def _handle(msg: Msg, name: str, method: Method) -> internal_pb2.BusReply:
    internal = (msg.headers or {}).get(INTERNAL_HEADER) == "1"
    try:
        try:
            request = method.request_type.FromString(msg.data)
        except DecodeError:
            raise invalid(
                "request.invalid", field="body", detail="not a protobuf message"
            ) from None
        response = await method.handler(request, internal)
        return internal_pb2.BusReply(code=0, body=response.SerializeToString())
    except ServiceError as error:
        return internal_pb2.BusReply(
            code=error.code.value[0],
            message=error.message,
            reason=reason_to_pb(error.reason, error.message),
        )
    except Exception as error:  # reported to the caller as INTERNAL, and logged
        log.exception("rpc.failed", method=name)
        reason = Reason.of("internal.error", detail=type(error).__name__)
        return internal_pb2.BusReply(
            code=grpc.StatusCode.INTERNAL.value[0],
            message=str(error),
            reason=reason_to_pb(reason, str(error)),
        )


_CODES = {code.value[0]: code for code in grpc.StatusCode}


async def call(
    nc: NATS,
    prefix: str,
    method: str,
    request: Message,
    response_type: type[M],
    *,
    internal: bool = False,
    timeout: float = 10.0,
) -> M:
    """Call a method over NATS; raises ServiceError with the remote status on failure."""
    headers = {INTERNAL_HEADER: "1"} if internal else None
    msg = await nc.request(
        f"{prefix}.{method}", request.SerializeToString(), timeout=timeout, headers=headers
    )
    reply = internal_pb2.BusReply.FromString(msg.data)
    if reply.code != 0:
        code = _CODES.get(reply.code, grpc.StatusCode.UNKNOWN)
        params = {
            p.name: getattr(p, p.WhichOneof("value") or "string_value") for p in reply.reason.params
        }
        error = ServiceError(code, Reason.of(reply.reason.code or "internal.error", **params))
        error.message = reply.message
        raise error
    return response_type.FromString(reply.body)
