"""Operations, with the services as processes: each writes JSON lines to its own log file
(``TAVOLA_LOG_FILE``), keeps its stderr for what comes before logging — a crash at start is
found there, even after a restart — and the engine's metrics count every RPC."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import grpc
import pytest

from support.platform import eventually
from tavola.cli.client import Client
from tavola.cli.platform import SERVICES, Platform
from tavola.v1 import lobby_pb2

pytestmark = pytest.mark.e2e


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        return str(response.read().decode())


def sample(text: str, name: str, **labels: str) -> float:
    wanted = {f'{key}="{value}"' for key, value in labels.items()}
    for line in text.splitlines():
        if line.startswith(name + "{"):
            found = set(line[len(name) + 1 : line.index("}")].split(","))
            if wanted <= found:
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_every_service_writes_json_lines_to_its_log_file(platform: Platform) -> None:
    assert platform.log_dir is not None
    for name in SERVICES:
        log = platform.log_dir / f"{name}.log"
        lines = eventually(lambda log=log: log.exists() and log.read_text().splitlines())
        records = [json.loads(line) for line in lines]  # every line is JSON
        assert any(record["event"] == f"{name}.ready" for record in records), name
        assert all(record["service"] == name for record in records)
        stderr = (platform.log_dir / f"{name}.stderr").read_text()
        assert not any(line.startswith("{") for line in stderr.splitlines()), name


def test_the_engine_counts_rpcs_by_method_and_status(platform: Platform, client: Client) -> None:
    port = platform.metrics_ports["engine"]
    labels = {"service": "tavola.v1.LobbyService", "method": "ListGames", "type": "unary"}
    before = sample(scrape(port), "tavola_grpc_server_handled_total", code="OK", **labels)
    client.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=10)
    with pytest.raises(grpc.RpcError) as refused:
        client.channel.unary_unary("/tavola.v1.NoSuchService/Nothing")(b"", timeout=10)
    assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED

    text = scrape(port)
    assert sample(text, "tavola_grpc_server_handled_total", code="OK", **labels) == before + 1
    assert sample(text, "tavola_grpc_server_handling_seconds_count", **labels) >= 1
    unknown = {"service": "unknown", "method": "unknown", "code": "UNIMPLEMENTED"}
    assert sample(text, "tavola_grpc_server_handled_total", **unknown) >= 1
    assert "NoSuchService" not in text


def test_a_service_that_fails_before_logging_leaves_its_traceback_in_its_stderr_file(
    tmp_path: Path,
) -> None:
    # no database URL: the configuration refuses to start, before logging is configured
    broken = Platform("", "nats://127.0.0.1:1", log_dir=tmp_path)
    for attempt in range(2):
        process = broken.start("lobby")
        assert process.wait(timeout=60) != 0
        stderr = (tmp_path / "lobby.stderr").read_text()
        assert "Traceback" in stderr and "TAVOLA_DATABASE_URL must be set" in stderr, attempt
        time.sleep(0.1)
    kept = (tmp_path / "lobby.stderr.1").read_text()  # the first crash, kept by the restart
    assert "TAVOLA_DATABASE_URL must be set" in kept
