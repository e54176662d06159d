"""Internal request/reply over NATS: one subject per method, protobuf bodies.

A request is a ``tavola.v1.BusRequest``: the method's request message and, for calls the
engine forwards from the public API, the account it authenticated (``Principal``). Who
sent a request is known from its subject alone: each service's NATS user may publish
only on the subjects of the calls it makes (``deploy/nats``, ``tavola.infra.nats_auth``),
so the bot service's calls arrive on ``<ns>.rpc.engine.bots.*`` and nothing else can
publish there. No header or field ever grants trust.

The reply is a ``tavola.v1.BusReply`` carrying the response or the error (status, message,
reason). A handler's unexpected failure is answered INTERNAL with an incident id (its
traceback logged), a dependency that is down UNAVAILABLE — never the exception's text.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import nats.errors
import structlog
from google.protobuf.message import DecodeError, Message
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from tavola.accounts.model import Kind, Principal
from tavola.bus.connection import Connection
from tavola.protocol import errors
from tavola.protocol.errors import ServiceError
from tavola.protocol.events import reason_to_pb
from tavola.rules.errors import Reason
from tavola.service import tracing
from tavola.service.failures import dependency_of, is_outage
from tavola.service.logging import bound
from tavola.v1 import internal_pb2

log = structlog.get_logger(__name__)
M = TypeVar("M", bound=Message)


@dataclass(frozen=True, slots=True)
class Request:
    """What a handler receives besides the message: the forwarded caller, if any."""

    principal: Principal | None
    locale: str = "en"

    def caller(self) -> Principal:
        if self.principal is None:
            raise errors.denied("auth.scope_missing", scope="account")
        return self.principal


@dataclass(frozen=True, slots=True)
class Method:
    request_type: type[Message]
    handler: Callable[[Any, Request], Awaitable[Message]]


def principal_to_pb(principal: Principal) -> internal_pb2.Principal:
    return internal_pb2.Principal(
        account_id=principal.account_id,
        name=principal.name,
        kind=int(principal.kind),
        scopes=sorted(principal.scopes),
        token_id=principal.token_id,
    )


def principal_from_pb(message: internal_pb2.Principal) -> Principal | None:
    if not message.account_id:
        return None
    return Principal(
        account_id=message.account_id,
        name=message.name,
        kind=Kind(message.kind),
        scopes=frozenset(message.scopes),
        token_id=message.token_id,
    )


class NobodyServes(Exception):
    """No one subscribes to the subject (``call(..., absent_ok=True)``)."""


class _Concurrently:
    """Runs each request in its own task (NATS hands a subscription's messages to its
    callback one at a time), at most ``limit`` at once."""

    def __init__(self, limit: int) -> None:
        self._slots = asyncio.Semaphore(limit)
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, work: Callable[[], Awaitable[None]]) -> None:
        await self._slots.acquire()

        async def run() -> None:
            try:
                await work()
            finally:
                self._slots.release()

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def serve(
    nc: NATS,
    prefix: str,
    queue: str,
    methods: Mapping[str, Method],
    *,
    concurrent: int = 0,
) -> list[Subscription]:
    """Answer ``prefix.<Method>`` requests in a queue group (scaled out by NATS); with
    ``concurrent``, up to that many at once (else one after another, in arrival order)."""
    runner = _Concurrently(concurrent) if concurrent else None
    subs = []
    for name, method in methods.items():

        async def on_request(msg: Msg, name: str = name, method: Method = method) -> None:
            async def answer() -> None:
                reply = await _handle(msg, name, method)
                if msg.reply:
                    await msg.respond(reply.SerializeToString())

            if runner is None:
                await answer()
            else:
                await runner.start(answer)

        subs.append(await nc.subscribe(f"{prefix}.{name}", queue=queue, cb=on_request))
    return subs


async def serve_prefix(
    nc: NATS, prefix: str, queue: str, methods: Mapping[str, Method], *, concurrent: int = 256
) -> Subscription:
    """Like ``serve`` with one subscription (``prefix.*``) for every method: for subjects
    subscribed and dropped often (an engine's partitions). An unknown method is refused."""
    runner = _Concurrently(concurrent)

    async def on_request(msg: Msg) -> None:
        name = msg.subject.rsplit(".", 1)[-1]
        method = methods.get(name)

        async def answer() -> None:
            if method is None:
                reply = _error_reply(errors.invalid("request.invalid", field="method"))
            else:
                reply = await _handle(msg, name, method)
            if msg.reply:
                await msg.respond(reply.SerializeToString())

        await runner.start(answer)

    return await nc.subscribe(f"{prefix}.*", queue=queue, cb=on_request)


async def _handle(msg: Msg, name: str, method: Method) -> internal_pb2.BusReply:
    locale = "en"
    try:
        try:
            envelope = internal_pb2.BusRequest.FromString(msg.data)
            request = method.request_type.FromString(envelope.body)
            context = Request(principal_from_pb(envelope.principal), envelope.locale or "en")
            locale = context.locale
        except (DecodeError, ValueError):
            raise errors.invalid(
                "request.invalid", field="body", detail="not a protobuf message"
            ) from None
        ids = _ids(request)
        with bound(rpc=name, **ids):
            if tracing.enabled():
                with tracing.span(
                    f"nats {name}", "server", msg.headers or {}, _attributes(name, ids)
                ):
                    response = await method.handler(request, context)
            else:  # every move comes this way: no span machinery while tracing is off
                response = await method.handler(request, context)
        return internal_pb2.BusReply(code=0, body=response.SerializeToString())
    except ServiceError as error:
        return _error_reply(error.localised(locale))
    except Exception as error:  # never the exception's text: an outage or an incident
        if is_outage(error):
            log.warning("rpc.dependency_down", method=name, error=type(error).__name__)
            return _error_reply(
                errors.unavailable("service.unavailable", 1.0, service=dependency_of(error))
            )
        incident = secrets.token_hex(4)
        log.exception("rpc.failed", method=name, incident=incident)
        return _error_reply(errors.internal(incident))


def _error_reply(error: ServiceError) -> internal_pb2.BusReply:
    return internal_pb2.BusReply(
        code=error.code.value[0],
        message=error.message,
        reason=reason_to_pb(error.reason, error.message),
    )


_ID_FIELDS = ("table_id", "match_id", "seat")
_IDS_OF: dict[type[Message], tuple[str, ...]] = {}  # per request type, found once


def _ids(request: Message) -> dict[str, Any]:
    names = _IDS_OF.get(type(request))
    if names is None:
        fields = request.DESCRIPTOR.fields_by_name
        names = _IDS_OF[type(request)] = tuple(n for n in _ID_FIELDS if n in fields)
    return {name: getattr(request, name) for name in names}


def _attributes(method: str, ids: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"rpc.system": "nats", "rpc.method": method}
    out.update({f"tavola.{k}": v for k, v in ids.items() if v != ""})
    return out


_CODES = {code.value[0]: code for code in grpc.StatusCode}


async def call(
    nc: NATS,
    prefix: str,
    method: str,
    request: Message,
    response_type: type[M],
    *,
    principal: Principal | None = None,
    locale: str = "",
    timeout: float = 10.0,
    service: str = "",
    absent_ok: bool = False,
) -> M:
    """Call a method over NATS; raises ServiceError with the remote status on failure,
    UNAVAILABLE when no instance answers (``service`` names it in the reason) — or, with
    ``absent_ok``, ``NobodyServes`` when no one subscribes (the caller has a fallback)."""
    envelope = internal_pb2.BusRequest(body=request.SerializeToString(), locale=locale)
    if principal is not None:
        envelope.principal.CopyFrom(principal_to_pb(principal))
    who = service or prefix.rsplit(".", 1)[-1]
    try:
        with tracing.span(f"nats {method}", "client", None, _attributes(method, {})):
            if isinstance(nc, Connection):
                msg = await nc.ask(
                    f"{prefix}.{method}",
                    envelope.SerializeToString(),
                    timeout,
                    headers=tracing.inject(),
                )
            else:
                msg = await nc.request(
                    f"{prefix}.{method}",
                    envelope.SerializeToString(),
                    timeout=timeout,
                    headers=tracing.inject(),
                )
    except nats.errors.NoRespondersError:
        if absent_ok:
            raise NobodyServes(f"{prefix}.{method}") from None
        raise errors.unavailable("service.unavailable", 1.0, service=who) from None
    except (nats.errors.TimeoutError, TimeoutError):
        raise errors.unavailable("service.timeout", 1.0, service=who) from None
    except nats.errors.Error:
        raise errors.unavailable("service.unavailable", 1.0, service="bus") from None
    reply = internal_pb2.BusReply.FromString(msg.data)
    if reply.code != 0:
        code = _CODES.get(reply.code, grpc.StatusCode.INTERNAL)
        params = {
            p.name: getattr(p, p.WhichOneof("value") or "string_value") for p in reply.reason.params
        }
        retry = 1.0 if code == grpc.StatusCode.UNAVAILABLE else None
        error = ServiceError(
            code, Reason.of(reply.reason.code or "internal.error", **params), retry_after=retry
        )
        error.message = reply.message
        raise error
    return response_type.FromString(reply.body)
