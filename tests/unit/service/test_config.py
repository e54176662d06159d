"""The services' typed configuration: the metrics address, the events stream's replicas and
retention, and the log file, parsed from the environment with their defaults and checks."""

from __future__ import annotations

import pytest

from tavola.service.config import (
    DEFAULT_JS_MAX_AGE_SECONDS,
    ConfigError,
    EventStreamLimits,
    LogFile,
    ServiceConfig,
    metrics_address,
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "TAVOLA_METRICS_ADDRESS",
        "TAVOLA_JS_REPLICAS",
        "TAVOLA_JS_MAX_AGE_SECONDS",
        "TAVOLA_JS_MAX_BYTES",
        "TAVOLA_LOG_FILE",
        "TAVOLA_LOG_FILE_MAX_BYTES",
        "TAVOLA_LOG_FILE_BACKUPS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TAVOLA_DATABASE_URL", "postgresql://db/tavola")
    monkeypatch.setenv("TAVOLA_NATS_URL", "nats://bus:4222")


def test_on_one_machine_metrics_listen_on_the_loopback_only() -> None:
    assert metrics_address() == "127.0.0.1"
    assert ServiceConfig.from_env().metrics_address == "127.0.0.1"


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "10.0.0.7", "metrics.internal"])
def test_a_metrics_address_can_be_any_interface(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    monkeypatch.setenv("TAVOLA_METRICS_ADDRESS", address)
    assert ServiceConfig.from_env().metrics_address == address


@pytest.mark.parametrize("address", ["0.0.0.0:9100", "http://0.0.0.0", "a b", "[::1]"])
def test_a_metrics_address_with_a_port_or_a_scheme_is_refused(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    monkeypatch.setenv("TAVOLA_METRICS_ADDRESS", address)
    with pytest.raises(ConfigError, match="TAVOLA_METRICS_ADDRESS"):
        ServiceConfig.from_env()


def test_the_events_stream_defaults_to_one_replica_and_a_week() -> None:
    limits = ServiceConfig.from_env().event_stream
    assert limits == EventStreamLimits(1, DEFAULT_JS_MAX_AGE_SECONDS, -1)
    assert DEFAULT_JS_MAX_AGE_SECONDS == 7 * 24 * 3600


def test_the_events_stream_limits_are_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAVOLA_JS_REPLICAS", "3")
    monkeypatch.setenv("TAVOLA_JS_MAX_AGE_SECONDS", "86400")
    monkeypatch.setenv("TAVOLA_JS_MAX_BYTES", str(4 * 1024**3))
    assert EventStreamLimits.from_env() == EventStreamLimits(3, 86400, 4 * 1024**3)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TAVOLA_JS_REPLICAS", "0"),
        ("TAVOLA_JS_REPLICAS", "6"),
        ("TAVOLA_JS_REPLICAS", "three"),
        ("TAVOLA_JS_MAX_AGE_SECONDS", "60"),  # shorter than the relay's duplicate window
        ("TAVOLA_JS_MAX_BYTES", "0"),
        ("TAVOLA_JS_MAX_BYTES", "1000"),
    ],
)
def test_unworkable_stream_limits_are_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        ServiceConfig.from_env()


def test_without_a_log_file_lines_go_to_stderr() -> None:
    assert ServiceConfig.from_env().log_file is None


def test_a_log_file_is_rotated_at_10_mib_keeping_five_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAVOLA_LOG_FILE", "/var/log/tavola/engine.log")
    assert ServiceConfig.from_env().log_file == LogFile(
        "/var/log/tavola/engine.log", 10 * 1024 * 1024, 5
    )
    monkeypatch.setenv("TAVOLA_LOG_FILE_MAX_BYTES", "1048576")
    monkeypatch.setenv("TAVOLA_LOG_FILE_BACKUPS", "2")
    assert LogFile.from_env() == LogFile("/var/log/tavola/engine.log", 1048576, 2)
