"""Composition root of the gateway: the engine's channel, the HTTP server, metrics."""

from __future__ import annotations

import asyncio
import contextlib
import errno

import grpc
import structlog
from aiohttp import web

from services.gateway.app import Settings, build_app
from services.gateway.config import GatewayConfig
from services.gateway.relay import Relay
from tavola.service import runtime

log = structlog.get_logger(__name__)
# a browser's view or backlog page can be larger than a request; as the engine allows
CHANNEL_OPTIONS = (("grpc.max_receive_message_length", 16 * 1024 * 1024),)


class AddressInUse(RuntimeError):
    """The web address is taken (an error, never a silent switch to another port)."""


async def run(config: GatewayConfig, stop: asyncio.Event) -> None:
    async with contextlib.AsyncExitStack() as stack:
        channel = grpc.aio.insecure_channel(config.engine_address, options=CHANNEL_OPTIONS)
        stack.push_async_callback(channel.close)
        relay = Relay(channel, config.gateway_token, config.max_message_bytes)
        app = build_app(
            Settings(
                relay=relay,
                static_dir=config.static_dir,
                trusted_proxies=config.trusted_proxies,
                max_message_bytes=config.max_message_bytes,
                sign_in_secret=config.sign_in_secret,
                sign_in_token=config.sign_in_token,
                channel=channel,
            )
        )
        # a browser that goes away cancels its handler, and so its stream to the engine
        runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await runner.setup()
        stack.push_async_callback(runner.cleanup)
        site = web.TCPSite(runner, config.host, config.port, shutdown_timeout=2.0)
        try:
            await site.start()
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise AddressInUse(f"{config.host}:{config.port} is already in use") from None
            raise
        health, health_port, watch = await runtime.start_health_server(
            config.health_address, {"engine": runtime.grpc_check(channel)}
        )
        stack.push_async_callback(health.stop, 1.0)
        stack.push_async_callback(watch.stop)
        metrics_port = runtime.start_metrics(config.metrics_port, config.metrics_address)
        log.info(
            "gateway.ready",
            url=f"http://{_url_host(config.host)}:{config.port}/",
            engine=config.engine_address,
            metrics_port=metrics_port,
            health_port=health_port,
            static=str(config.static_dir),
            local_sign_in=bool(config.sign_in_secret),
        )
        await stop.wait()
        log.info("gateway.stopping")


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
