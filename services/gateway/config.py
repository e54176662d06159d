"""Gateway configuration (environment variables, parsed once at start-up)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from services.gateway.addresses import Network, parse_networks
from tavola.service.config import ConfigError, LogFile, grpc_address, int_setting, metrics_address

DEFAULT_WEB_ADDRESS = "127.0.0.1:8080"
STATIC = Path(__file__).with_name("static")


def split_address(text: str, variable: str = "TAVOLA_WEB_ADDRESS") -> tuple[str, int]:
    """``host:port`` (``[::1]:8080`` for IPv6) -> host, port; raises ConfigError."""
    host, _, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"{variable} must be HOST:PORT, got {text!r}")
    return host, int(port)


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    host: str  # where browsers connect (TAVOLA_WEB_ADDRESS)
    port: int
    engine_address: str  # the public gRPC API it relays to
    health_address: str  # its gRPC health service, for probes (TAVOLA_HEALTH_ADDRESS)
    gateway_token: str  # its own credential: a token with the gateway scope
    trusted_proxies: tuple[Network, ...]
    static_dir: Path
    max_message_bytes: int
    sign_in_secret: str  # set only by `tavola up`: the local user's one-click sign-in
    sign_in_token: str
    metrics_port: int
    metrics_address: str
    json_logs: bool
    log_level: str
    log_file: LogFile | None

    @staticmethod
    def from_env() -> GatewayConfig:
        host, port = split_address(os.environ.get("TAVOLA_WEB_ADDRESS", "") or DEFAULT_WEB_ADDRESS)
        token = os.environ.get("TAVOLA_GATEWAY_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "TAVOLA_GATEWAY_TOKEN must be set: a token with the gateway scope "
                "(tavola account token --scope gateway --label gateway), see docs/web.md"
            )
        try:
            proxies = parse_networks(os.environ.get("TAVOLA_WEB_TRUSTED_PROXIES", ""))
        except ValueError as error:
            raise ConfigError(f"TAVOLA_WEB_TRUSTED_PROXIES: {error}") from None
        secret = os.environ.get("TAVOLA_WEB_SIGN_IN_SECRET", "").strip()
        sign_in_token = os.environ.get("TAVOLA_WEB_SIGN_IN_TOKEN", "").strip()
        if bool(secret) != bool(sign_in_token):
            raise ConfigError("TAVOLA_WEB_SIGN_IN_SECRET and _TOKEN are set together or not at all")
        return GatewayConfig(
            host=host,
            port=port,
            # a cluster names the engine's Service; one machine shares TAVOLA_GRPC_ADDRESS
            engine_address=os.environ.get("TAVOLA_ENGINE_ADDRESS", "").strip() or grpc_address(),
            health_address=os.environ.get("TAVOLA_HEALTH_ADDRESS", "").strip() or "127.0.0.1:0",
            gateway_token=token,
            trusted_proxies=proxies,
            static_dir=Path(os.environ.get("TAVOLA_WEB_STATIC", "") or STATIC),
            max_message_bytes=int_setting("TAVOLA_MAX_MESSAGE_BYTES", 64 * 1024),
            sign_in_secret=secret,
            sign_in_token=sign_in_token,
            metrics_port=int_setting("TAVOLA_METRICS_PORT", 0),
            metrics_address=metrics_address(),
            json_logs=os.environ.get("TAVOLA_LOG_FORMAT", "json") == "json",
            log_level=os.environ.get("TAVOLA_LOG_LEVEL", "INFO").upper(),
            log_file=LogFile.from_env(),
        )
