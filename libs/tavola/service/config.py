"""Typed configuration from the environment, parsed once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass


class ConfigError(ValueError):
    pass


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ConfigError(f"{name} must be set")
    return value


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        return int(raw) if raw else default
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """What every service needs: where the log and the bus are, metrics, logs."""

    database_url: str
    nats_url: str
    metrics_port: int
    json_logs: bool
    log_level: str
    namespace: str

    @staticmethod
    def from_env(metrics_default: int = 0) -> ServiceConfig:
        return ServiceConfig(
            database_url=_required("TAVOLA_DATABASE_URL"),
            nats_url=_required("TAVOLA_NATS_URL"),
            metrics_port=_int("TAVOLA_METRICS_PORT", metrics_default),
            json_logs=os.environ.get("TAVOLA_LOG_FORMAT", "json") == "json",
            log_level=os.environ.get("TAVOLA_LOG_LEVEL", "INFO").upper(),
            namespace=os.environ.get("TAVOLA_NAMESPACE", "tavola").strip() or "tavola",
        )


def grpc_address(default: str = "127.0.0.1:50051") -> str:
    return os.environ.get("TAVOLA_GRPC_ADDRESS", default).strip() or default


def int_setting(name: str, default: int) -> int:
    return _int(name, default)
