"""Typed configuration from the environment, parsed once at start-up."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass

from tavola.bus.subjects import DUPLICATE_WINDOW_SECONDS

DEFAULT_METRICS_ADDRESS = "127.0.0.1"  # one machine; Compose and the manifests set 0.0.0.0
DEFAULT_LOG_FILE_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_LOG_FILE_BACKUPS = 5
DEFAULT_JS_REPLICAS = 1
DEFAULT_JS_MAX_AGE_SECONDS = 7 * 24 * 3600
# no byte limit of its own: a stream asking for more than the server may store is refused, and
# a laptop's NATS may store little; the age bounds it (the cluster manifests set a size too)
DEFAULT_JS_MAX_BYTES = -1
_MAX_JS_REPLICAS = 5  # JetStream's own limit


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


def _int_at_least(name: str, default: int, minimum: int) -> int:
    value = _int(name, default)
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


@dataclass(frozen=True, slots=True)
class LogFile:
    """Where a service writes its log lines instead of stderr, rotated by size."""

    path: str
    max_bytes: int
    backups: int

    @staticmethod
    def from_env() -> LogFile | None:
        """``TAVOLA_LOG_FILE`` (unset: stderr), ``TAVOLA_LOG_FILE_MAX_BYTES`` (10 MiB),
        ``TAVOLA_LOG_FILE_BACKUPS`` (5 rotated files kept)."""
        path = os.environ.get("TAVOLA_LOG_FILE", "").strip()
        if not path:
            return None
        return LogFile(
            path=path,
            max_bytes=_int_at_least("TAVOLA_LOG_FILE_MAX_BYTES", DEFAULT_LOG_FILE_MAX_BYTES, 1024),
            backups=_int_at_least("TAVOLA_LOG_FILE_BACKUPS", DEFAULT_LOG_FILE_BACKUPS, 1),
        )


@dataclass(frozen=True, slots=True)
class EventStreamLimits:
    """Replicas and retention of the JetStream stream of committed events.

    The log in Postgres is the truth; the bus only holds what consumers have not read yet,
    so a bounded age and size are safe (a consumer further behind than that is rebuilt from
    the log). Every service that declares the stream must be given the same values.
    """

    replicas: int
    max_age_seconds: int
    max_bytes: int  # -1: no limit but the server's

    @staticmethod
    def from_env() -> EventStreamLimits:
        """``TAVOLA_JS_REPLICAS`` (1), ``TAVOLA_JS_MAX_AGE_SECONDS`` (7 days),
        ``TAVOLA_JS_MAX_BYTES`` (-1: none but the server's own store limit)."""
        replicas = _int_at_least("TAVOLA_JS_REPLICAS", DEFAULT_JS_REPLICAS, 1)
        if replicas > _MAX_JS_REPLICAS:
            raise ConfigError(f"TAVOLA_JS_REPLICAS must be at most {_MAX_JS_REPLICAS}")
        max_bytes = _int("TAVOLA_JS_MAX_BYTES", DEFAULT_JS_MAX_BYTES)
        if max_bytes != -1 and max_bytes < 1024 * 1024:
            raise ConfigError("TAVOLA_JS_MAX_BYTES must be -1 (no limit) or at least 1 MiB")
        return EventStreamLimits(
            replicas=replicas,
            # shorter than the duplicate window, JetStream could not deduplicate the relay
            max_age_seconds=_int_at_least(
                "TAVOLA_JS_MAX_AGE_SECONDS",
                DEFAULT_JS_MAX_AGE_SECONDS,
                int(DUPLICATE_WINDOW_SECONDS),
            ),
            max_bytes=max_bytes,
        )


def metrics_address() -> str:
    """``TAVOLA_METRICS_ADDRESS``: the interface the Prometheus endpoint listens on."""
    value = os.environ.get("TAVOLA_METRICS_ADDRESS", "").strip() or DEFAULT_METRICS_ADDRESS
    if any(c.isspace() or c in "/[]" for c in value):
        raise ConfigError(f"TAVOLA_METRICS_ADDRESS must be a host or IP address, got {value!r}")
    if ":" in value:  # only an IPv6 address has colons (a port is TAVOLA_METRICS_PORT)
        try:
            ipaddress.IPv6Address(value)
        except ValueError:
            raise ConfigError(
                f"TAVOLA_METRICS_ADDRESS must be an address without a port, got {value!r}"
            ) from None
    return value


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """What every service needs: where the log and the bus are, metrics, logs."""

    database_url: str
    nats_url: str
    metrics_port: int
    metrics_address: str
    json_logs: bool
    log_level: str
    log_file: LogFile | None
    namespace: str
    event_stream: EventStreamLimits

    @staticmethod
    def from_env(metrics_default: int = 0) -> ServiceConfig:
        return ServiceConfig(
            database_url=_required("TAVOLA_DATABASE_URL"),
            nats_url=_required("TAVOLA_NATS_URL"),
            metrics_port=_int("TAVOLA_METRICS_PORT", metrics_default),
            metrics_address=metrics_address(),
            json_logs=os.environ.get("TAVOLA_LOG_FORMAT", "json") == "json",
            log_level=os.environ.get("TAVOLA_LOG_LEVEL", "INFO").upper(),
            log_file=LogFile.from_env(),
            namespace=os.environ.get("TAVOLA_NAMESPACE", "tavola").strip() or "tavola",
            event_stream=EventStreamLimits.from_env(),
        )


def grpc_address(default: str = "127.0.0.1:50051") -> str:
    return os.environ.get("TAVOLA_GRPC_ADDRESS", default).strip() or default


def int_setting(name: str, default: int) -> int:
    return _int(name, default)
