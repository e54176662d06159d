"""The public gRPC edge: one interceptor in front of every ``tavola.v1`` method.

In this order, before a handler runs: the client address's rate limit; the bearer token
(``authorization: Bearer <token>``, UNAUTHENTICATED without a valid one, and failed
attempts throttled per address before any lookup); the method's scopes
(PERMISSION_DENIED); the token's rate limit for the method's class and, for streams, the
open-stream caps (RESOURCE_EXHAUSTED with a retry delay); the request decoding and every
field's bounds (INVALID_ARGUMENT). Then the handler runs with the caller in
``current_principal()``; what it raises is answered with its documented status, in the
request's locale: a ``ServiceError`` as itself, a dependency that is down as UNAVAILABLE,
anything else as INTERNAL with an incident id (logged with its traceback) — never UNKNOWN
and never an exception's text. Server streams write through a bounded buffer: a client
that stops reading for ``stream_write_timeout`` seconds is dropped (RESOURCE_EXHAUSTED) and the
stream's memory freed (a watchdog looks at the writes under way every tenth of that, at
most every second).

A call relayed by the web gateway (``services/gateway``) carries two more metadata: the
gateway's own credential, ``tavola-gateway-authorization: Bearer <token>`` (a token with
the ``gateway`` scope), and the browser's address, ``tavola-client-address``
(``ipv4:1.2.3.4`` or ``ipv6:[::1]``). Only with a valid gateway credential is that address
the call's client address for every per-address limit; without one the header is ignored
(the address is the connection's peer), and a wrong credential is refused
(UNAUTHENTICATED / PERMISSION_DENIED, throttled per peer like any failed token).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from google.protobuf.message import DecodeError

from tavola.accounts.model import GATEWAY, Principal
from tavola.protocol import errors
from tavola.protocol.errors import ServiceError
from tavola.protocol.grpc_errors import abort
from tavola.protocol.validation import check_request
from tavola.service.failures import dependency_of, is_outage
from tavola.service.limits import Limiter, StreamCounter
from tavola.service.logging import bound

log = structlog.get_logger(__name__)
PACKAGE_PREFIX = "/tavola.v1."
AUTHORIZATION = "authorization"
LOCALE_HEADER = "tavola-locale"
MAX_TOKEN_HEADER = 256
GATEWAY_AUTHORIZATION = "tavola-gateway-authorization"  # the web gateway's own credential
CLIENT_ADDRESS = "tavola-client-address"  # the browser's address, honoured only with it
MAX_ADDRESS_HEADER = 64

_CALLER: ContextVar[Principal | None] = ContextVar("tavola_caller", default=None)


def current_principal() -> Principal:
    """The authenticated caller of the running RPC (set by the edge)."""
    principal = _CALLER.get()
    if principal is None:  # a handler reached without the edge: refuse, never assume
        raise errors.unauthenticated("auth.missing")
    return principal


@contextlib.contextmanager
def acting_as(principal: Principal) -> Any:
    """Run code as ``principal`` (the edge does this; tests may too)."""
    reset = _CALLER.set(principal)
    try:
        yield principal
    finally:
        _CALLER.reset(reset)


@dataclass(frozen=True, slots=True)
class Policy:
    """Who may call a method (a token with any of ``scopes``) and its rate-limit class."""

    scopes: tuple[str, ...]
    limit: str


Authenticate = Callable[[str], Awaitable[Principal | None]]


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


class EdgeInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    def __init__(
        self,
        authenticate: Authenticate,
        limiter: Limiter,
        policies: Mapping[str, Policy],
    ) -> None:
        self._authenticate = authenticate
        self._limiter = limiter
        self._policies = policies
        self._write_timeout = limiter.settings.stream_write_timeout
        # the streams' writes under way (task: when it is too late) and a watchdog that
        # cancels the ones past their time: two dict operations a write, where a timeout
        # per write cost a timer, a context and its bookkeeping (a tenth of the engine's
        # stream sending)
        self._writes: dict[asyncio.Task[Any], float] = {}
        self._slow: set[asyncio.Task[Any]] = set()
        self._watchdog: asyncio.TimerHandle | None = None
        self._token_streams = StreamCounter(limiter.settings.streams_per_token)
        self._address_streams = StreamCounter(limiter.settings.streams_per_address)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        method = details.method
        if handler is None or not method.startswith(PACKAGE_PREFIX) or handler.request_streaming:
            return handler  # health and reflection keep gRPC's own behaviour
        policy = self._policies.get(method)
        metadata = dict(details.invocation_metadata or ())
        safe = _safe(handler.request_deserializer)
        if handler.unary_unary is not None:
            inner = handler.unary_unary

            async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
                locale = _locale(request, metadata)
                try:
                    principal, _ = await self._admit(method, policy, metadata, request, context)
                    with acting_as(principal), _bound(method, request, principal):
                        return await inner(request, context)
                except ServiceError as error:
                    await _refuse(context, error, locale)
                except Exception as error:
                    await _refuse(context, _failure(method, error), locale)

            return handler._replace(request_deserializer=safe, unary_unary=unary)
        if handler.unary_stream is not None:
            stream = handler.unary_stream

            async def streaming(request: Any, context: grpc.aio.ServicerContext) -> None:
                locale = _locale(request, metadata)
                try:
                    principal, address = await self._admit(
                        method, policy, metadata, request, context
                    )
                    await self._stream(stream, request, context, principal, method, address)
                except ServiceError as error:
                    await _refuse(context, error, locale)
                except Exception as error:
                    await _refuse(context, _failure(method, error), locale)

            return handler._replace(
                request_deserializer=safe,
                unary_stream=streaming,
                response_serializer=_as_is(handler.response_serializer),
            )
        return handler

    async def _admit(
        self,
        method: str,
        policy: Policy | None,
        metadata: Mapping[str, Any],
        request: Any,
        context: grpc.aio.ServicerContext,
    ) -> tuple[Principal, str]:
        address = await self._client_address(metadata, _address(context))
        wait = self._limiter.check("address", address)
        if wait:
            raise errors.exhausted(wait, "rate.limited", limit="address")
        principal = await self._principal(metadata, address)
        if policy is None:  # a method nobody declared a policy for is closed
            raise errors.denied("auth.scope_missing", scope="none")
        if not principal.has(*policy.scopes):
            raise errors.denied("auth.scope_missing", scope="|".join(policy.scopes))
        wait = self._limiter.check(policy.limit, principal.token_id)
        if wait:
            raise errors.exhausted(wait, "rate.limited", limit=policy.limit)
        if isinstance(request, _Malformed):
            raise errors.invalid(
                "request.invalid", field="message", detail="not a valid protobuf message"
            )
        check_request(request)
        return principal, address

    async def _client_address(self, metadata: Mapping[str, Any], peer: str) -> str:
        """The call's client address: the peer's, or — relayed by a gateway whose own
        credential has the ``gateway`` scope — the address the gateway names."""
        credential = metadata.get(GATEWAY_AUTHORIZATION)
        if credential is None:
            return peer  # a bare tavola-client-address is never honoured
        gateway = await self._principal(metadata, peer, GATEWAY_AUTHORIZATION)
        if not gateway.has(GATEWAY):
            raise errors.denied("auth.scope_missing", scope=GATEWAY)
        forwarded = metadata.get(CLIENT_ADDRESS)
        if not isinstance(forwarded, str) or not client_address_valid(forwarded):
            raise errors.invalid(
                "request.invalid", field=CLIENT_ADDRESS, detail="ipv4:ADDRESS or ipv6:[ADDRESS]"
            )
        return forwarded

    async def _principal(
        self, metadata: Mapping[str, Any], address: str, name: str = AUTHORIZATION
    ) -> Principal:
        if self._limiter.check_level("unauthenticated", address) < 1.0:
            raise errors.exhausted(1.0, "rate.limited", limit="unauthenticated")
        header = metadata.get(name)
        if not isinstance(header, str) or not header:
            self._limiter.check("unauthenticated", address)
            raise errors.unauthenticated("auth.missing")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token or len(header) > MAX_TOKEN_HEADER:
            self._limiter.check("unauthenticated", address)
            raise errors.unauthenticated("auth.malformed")
        principal = await self._authenticate(token.strip())
        if principal is None:
            self._limiter.check("unauthenticated", address)
            raise errors.unauthenticated("auth.invalid")
        return principal

    async def _stream(
        self,
        stream: Callable[[Any, grpc.aio.ServicerContext], AsyncIterator[Any]],
        request: Any,
        context: grpc.aio.ServicerContext,
        principal: Principal,
        method: str,
        address: str,
    ) -> None:
        wait = self._limiter.check("stream_open", principal.token_id)
        if wait:
            raise errors.exhausted(wait, "rate.limited", limit="stream_open")
        if not self._token_streams.open(principal.token_id):
            raise errors.exhausted(5.0, "stream.too_many", limit=self._token_streams.cap)
        if not self._address_streams.open(address):
            self._token_streams.close(principal.token_id)
            raise errors.exhausted(5.0, "stream.too_many", limit=self._address_streams.cap)
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        writes = self._writes
        try:
            with acting_as(principal), _bound(method, request, principal):
                items = stream(request, context)
                try:
                    async for item in items:
                        writes[task] = loop.time() + self._write_timeout
                        if self._watchdog is None:
                            self._watchdog = loop.call_later(self._sweep_every, self._sweep)
                        try:
                            await context.write(item)
                        except asyncio.CancelledError:
                            if task not in self._slow:
                                raise
                            self._slow.discard(task)
                            if task.uncancel() > 0:
                                raise  # cancelled from elsewhere too (the call ended)
                            log.info("stream.slow_reader_dropped", rpc=method)
                            raise errors.exhausted(
                                1.0, "stream.slow_reader", seconds=int(self._write_timeout)
                            ) from None
                        except Exception:
                            # A write that fails means the client went away (cancelled,
                            # or its deadline passed — gRPC may say so before the call
                            # counts as done).
                            return
                        finally:
                            del writes[task]
                finally:
                    await items.aclose()  # type: ignore[attr-defined]
        finally:
            self._slow.discard(task)
            self._token_streams.close(principal.token_id)
            self._address_streams.close(address)

    @property
    def _sweep_every(self) -> float:
        """How often the watchdog looks: a tenth of the write timeout, at most a second."""
        return min(1.0, self._write_timeout / 10)

    def _sweep(self) -> None:
        """Cancel every stream whose write is past its time (it then answers
        ``stream.slow_reader``); look again while writes are under way."""
        self._watchdog = None
        now = asyncio.get_running_loop().time()
        for task, too_late in list(self._writes.items()):
            if too_late <= now and task not in self._slow:
                self._slow.add(task)
                task.cancel()
        if self._writes:
            self._watchdog = asyncio.get_running_loop().call_later(self._sweep_every, self._sweep)

    @property
    def open_streams(self) -> int:
        return sum(self._token_streams._open.values())


def _as_is(serializer: Callable[[Any], bytes] | None) -> Callable[[Any], bytes] | None:
    """A stream's serializer that sends bytes a handler serialized itself as they are (the
    engine serializes an event once for every stream of its match)."""
    if serializer is None:
        return None

    def serialize(message: Any) -> bytes:
        return message if type(message) is bytes else serializer(message)

    return serialize


def _failure(method: str, error: Exception) -> ServiceError:
    """What an unexpected exception becomes: UNAVAILABLE for an outage, else INTERNAL."""
    if isinstance(error, grpc.aio.AbortError | asyncio.CancelledError):
        raise error
    if is_outage(error):
        log.warning("rpc.dependency_down", rpc=method, error=type(error).__name__)
        return errors.unavailable("service.unavailable", 1.0, service=dependency_of(error))
    incident = secrets.token_hex(4)
    log.exception("rpc.failed", rpc=method, incident=incident)
    return errors.internal(incident)


async def _refuse(context: grpc.aio.ServicerContext, error: ServiceError, locale: str) -> None:
    log.info("rpc.rejected", code=error.code.name, reason=error.reason.code)
    await abort(context, error.localised(locale))


def _locale(request: Any, metadata: Mapping[str, Any]) -> str:
    value = getattr(request, "locale", "") if not isinstance(request, _Malformed) else ""
    header = metadata.get(LOCALE_HEADER)
    chosen = value or (header if isinstance(header, str) else "") or "en"
    return chosen if len(chosen) <= 16 else "en"


def _address(context: grpc.aio.ServicerContext) -> str:
    """The client's host (``ipv4:1.2.3.4:5678`` -> ``ipv4:1.2.3.4``)."""
    peer = context.peer() or "unknown"
    host, _, port = peer.rpartition(":")
    return host if host and port.isdigit() else peer


def client_address_valid(text: str) -> bool:
    """``ipv4:1.2.3.4`` or ``ipv6:[::1]``: an address as gRPC names a peer, without port."""
    if len(text) > MAX_ADDRESS_HEADER:
        return False
    kind, _, host = text.partition(":")
    try:
        if kind == "ipv4":
            ipaddress.IPv4Address(host)
            return True
        if kind == "ipv6" and host.startswith("[") and host.endswith("]"):
            ipaddress.IPv6Address(host[1:-1])
            return True
    except ValueError:
        return False
    return False


_LOGGED_IDS = ("table_id", "match_id", "seat")
_IDS_OF: dict[Any, tuple[str, ...]] = {}  # request descriptor -> which of those it has


@contextlib.contextmanager
def _bound(method: str, request: Any, principal: Principal) -> Any:
    ids: dict[str, Any] = {"rpc": method.rsplit("/", 1)[-1], "account_id": principal.account_id}
    descriptor = request.DESCRIPTOR
    names = _IDS_OF.get(descriptor)
    if names is None:
        names = _IDS_OF[descriptor] = tuple(
            n for n in _LOGGED_IDS if n in descriptor.fields_by_name
        )
    for name in names:
        ids[name] = getattr(request, name)
    with bound(**ids):
        yield
