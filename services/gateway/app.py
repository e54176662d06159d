"""The gateway's HTTP application: the Connect endpoints of the public API, the built web
client, the local sign-in, health.

Routes: ``POST /tavola.v1.<Service>/<Method>`` (Connect: unary JSON or binary, server
streams enveloped); ``GET /`` and ``/assets/…`` (the web client, from ``static/``);
``POST /local/sign-in`` (only when ``tavola up`` started the gateway: the local user's
one-click sign-in, from this machine only); ``GET /healthz`` (the gateway runs) and
``GET /readyz`` (the engine answers its health check).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import structlog
from aiohttp import web
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.gateway import connect, metrics
from services.gateway.addresses import Network, client_address
from services.gateway.connect import Codec, ProtocolError
from services.gateway.methods import Method, public_methods
from services.gateway.relay import Failure, Relay, counting_stream, elapsed_since
from tavola.protocol import errors
from tavola.protocol.errors import ServiceError

log = structlog.get_logger(__name__)
RETRY_AFTER_MS = "retry-after-ms"
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
SECURITY_HEADERS = {
    # the client is all ours: scripts, styles and calls from this origin only, no framing
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
APP_KEY = web.AppKey("gateway", object)
ASSET_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}")


@dataclass(frozen=True)
class Settings:
    relay: Relay
    static_dir: Path
    trusted_proxies: tuple[Network, ...]
    max_message_bytes: int
    sign_in_secret: str = ""
    sign_in_token: str = ""
    channel: grpc.aio.Channel | None = None


def build_app(settings: Settings) -> web.Application:
    app = web.Application(
        client_max_size=settings.max_message_bytes + connect.HEADER.size,
        middlewares=[_security_headers],
    )
    gateway = Gateway(settings)
    app[APP_KEY] = gateway
    app.router.add_post("/tavola.v1.{service}/{method}", gateway.call)
    app.router.add_route("*", "/tavola.v1.{service}/{method}", gateway.not_post)
    app.router.add_post("/local/sign-in", gateway.sign_in)
    app.router.add_get("/healthz", gateway.healthz)
    app.router.add_get("/readyz", gateway.readyz)
    app.router.add_get("/", gateway.index)
    app.router.add_get("/assets/{name}", gateway.asset)
    return app


@web.middleware
async def _security_headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    if not response.prepared:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/assets/"):
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


class Gateway:
    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._relay = settings.relay
        self._methods = public_methods()

    # ----- Connect -----------------------------------------------------------------------
    async def call(self, request: web.Request) -> web.StreamResponse:
        method = self._methods.get(request.path)
        locale = _locale(request)
        if method is None:
            return _unary_error(
                Failure(grpc.StatusCode.UNIMPLEMENTED, f"no method {request.path}", []), 404
            )
        codec = connect.codec_of(request.headers.get("Content-Type", ""))
        if codec is None or codec.stream != method.server_streaming:
            metrics.CALLS.labels(type=_kind(method), code="unsupported_media_type").inc()
            return web.Response(status=415, headers={"Accept-Post": _accepted(method)})
        try:
            _check_protocol(request, codec)
            timeout = connect.timeout_of(request.headers.get("Connect-Timeout-Ms"))
            metadata = self._relay.metadata(request, self._client(request))
            message = await self._relay.read_request(request, method, codec)
        except ProtocolError as error:
            return await self._refuse(request, method, codec, Failure.of_protocol(error))
        except ServiceError as error:
            return await self._refuse(request, method, codec, Failure.of_service(error, locale))
        except web.HTTPRequestEntityTooLarge:
            too_large = errors.invalid(
                "request.too_large", field="message", limit=self._settings.max_message_bytes
            )
            return await self._refuse(request, method, codec, Failure.of_service(too_large, locale))
        if method.server_streaming:
            return await self._stream(request, method, codec, message, metadata, timeout)
        return await self._unary(method, codec, message, metadata, timeout)

    async def _unary(
        self, method: Method, codec: Codec, message: Any, metadata: Any, timeout: float | None
    ) -> web.StreamResponse:
        start = time.monotonic()
        try:
            answer, trailers = await self._relay.unary(method, message, metadata, timeout)
        except grpc.aio.AioRpcError as error:
            failure = Failure.of_rpc(error)
            metrics.CALLS.labels(type="unary", code=connect.CODES[failure.code][0]).inc()
            metrics.CALL_SECONDS.labels(type="unary").observe(elapsed_since(start))
            return _unary_error(failure)
        metrics.CALLS.labels(type="unary", code="ok").inc()
        metrics.CALL_SECONDS.labels(type="unary").observe(elapsed_since(start))
        headers = {"Content-Type": codec.content_type, **_trailer_headers(trailers)}
        return web.Response(body=codec.encode(answer), headers=headers)

    async def _stream(
        self,
        request: web.Request,
        method: Method,
        codec: Codec,
        message: Any,
        metadata: Any,
        timeout: float | None,
    ) -> web.StreamResponse:
        response = web.StreamResponse(status=200, headers={"Content-Type": codec.content_type})
        for name, value in SECURITY_HEADERS.items():
            response.headers[name] = value
        response.headers["Cache-Control"] = "no-store"
        await response.prepare(request)
        with counting_stream():
            outcome = await self._relay.stream(
                method, message, metadata, timeout, response.write, codec
            )
        if isinstance(outcome, Failure):
            code = connect.CODES[outcome.code][0]
            frame = connect.end_stream(outcome.json(), connect.metadata_json(outcome.trailers))
        else:
            code = "ok"
            frame = connect.end_stream(None, connect.metadata_json(outcome))
        metrics.CALLS.labels(type="server_stream", code=code).inc()
        try:
            await response.write(frame)
            await response.write_eof()
        except ConnectionError:
            pass  # the browser went away first
        return response

    async def _refuse(
        self, request: web.Request, method: Method, codec: Codec, failure: Failure
    ) -> web.StreamResponse:
        metrics.CALLS.labels(type=_kind(method), code=connect.CODES[failure.code][0]).inc()
        if not codec.stream:
            return _unary_error(failure)
        response = web.StreamResponse(status=200, headers={"Content-Type": codec.content_type})
        await response.prepare(request)
        frame = connect.end_stream(failure.json(), connect.metadata_json(failure.trailers))
        await response.write(frame)
        await response.write_eof()
        return response

    async def not_post(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=405, headers={"Allow": "POST"})

    def _client(self, request: web.Request) -> str | None:
        forwarded = request.headers.getall("X-Forwarded-For", [])
        return client_address(request.remote, forwarded, self._settings.trusted_proxies)

    # ----- the web client, sign-in, health -----------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        page = self._settings.static_dir / "index.html"
        if not page.is_file():
            return web.Response(status=503, text="the web client is not built: make web\n")
        return web.FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def asset(self, request: web.Request) -> web.StreamResponse:
        """A built file (hashed names, cached for good); names only, never a path."""
        name = request.match_info["name"]
        path = self._settings.static_dir / "assets" / name
        if not ASSET_NAME.fullmatch(name) or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def sign_in(self, request: web.Request) -> web.StreamResponse:
        """The local user's token for the secret ``tavola up`` printed in its link — only
        when ``tavola up`` runs this gateway, only from this machine, only to a page of this
        origin (no other site, no rebinding of a name to 127.0.0.1)."""
        secret = self._settings.sign_in_secret
        if not secret or not _local(request):
            return web.json_response({"error": "not offered"}, status=404)
        try:
            given = json.loads(await request.read() or b"{}").get("secret", "")
        except (ValueError, AttributeError):
            given = ""
        if not isinstance(given, str) or not hmac.compare_digest(given, secret):
            log.info("gateway.sign_in_refused")
            return web.json_response({"error": "wrong secret"}, status=403)
        log.info("gateway.local_sign_in")
        return web.json_response(
            {"token": self._settings.sign_in_token}, headers={"Cache-Control": "no-store"}
        )

    async def healthz(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"status": "serving"})

    async def readyz(self, request: web.Request) -> web.StreamResponse:
        channel = self._settings.channel
        if channel is None:
            return web.json_response({"status": "serving"})
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=2.0
            )
        except grpc.aio.AioRpcError:
            return web.json_response({"status": "engine unavailable"}, status=503)
        ok = reply.status == health_pb2.HealthCheckResponse.SERVING
        return web.json_response(
            {"status": "serving" if ok else "not serving"}, status=200 if ok else 503
        )


def _kind(method: Method) -> str:
    return "server_stream" if method.server_streaming else "unary"


def _accepted(method: Method) -> str:
    if method.server_streaming:
        return "application/connect+json, application/connect+proto"
    return "application/json, application/proto"


def _check_protocol(request: web.Request, codec: Codec) -> None:
    version = request.headers.get("Connect-Protocol-Version")
    if version is not None and version != "1":
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "Connect-Protocol-Version must be 1")
    encoding = request.headers.get(
        "Connect-Content-Encoding" if codec.stream else "Content-Encoding"
    )
    if encoding is not None and encoding.lower() != "identity":
        raise ProtocolError(grpc.StatusCode.UNIMPLEMENTED, f"encoding {encoding!r} is not accepted")


def _locale(request: web.Request) -> str:
    value = request.headers.get("Tavola-Locale", "en")
    return value if len(value) <= 16 else "en"


def _trailer_headers(trailers: tuple[tuple[str, str | bytes], ...]) -> dict[str, str]:
    out = {}
    for key, values in connect.metadata_json(trailers).items():
        out[f"Trailer-{key}"] = ", ".join(values)
    return out


def _unary_error(failure: Failure, status: int | None = None) -> web.Response:
    headers = _trailer_headers(failure.trailers)
    retry = next((v for k, v in failure.trailers if k == RETRY_AFTER_MS), None)
    if isinstance(retry, str) and retry.isdigit():
        headers["Retry-After"] = str(max(1, -(-int(retry) // 1000)))
    return web.Response(
        status=status or connect.http_status(failure.code),
        body=json.dumps(failure.json()).encode(),
        content_type="application/json",
        headers=headers,
    )


def _local(request: web.Request) -> bool:
    try:
        peer = ipaddress.ip_address(request.remote or "")
    except ValueError:
        return False
    if not peer.is_loopback:
        return False
    host = request.host.rsplit(":", 1)[0].strip("[]") if request.host else ""
    if host not in LOOPBACK_HOSTS:
        return False
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"
