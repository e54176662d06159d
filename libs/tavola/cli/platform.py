"""Running the four services as separate processes on one machine.

Used by ``tavola up`` and by the end-to-end tests (which also kill and restart processes).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

SERVICES = ("engine", "lobby", "scoring", "bots")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Platform:
    """The services of one platform, each its own OS process."""

    database_url: str
    nats_url: str
    grpc_port: int = 0
    log_dir: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    nats_urls: dict[str, str] = field(default_factory=dict)  # per service (its NATS user)
    token: str = ""  # a token of the platform, to check that every hop answers
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    metrics_ports: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.grpc_port:
            self.grpc_port = free_port()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    def env(self, service: str = "") -> dict[str, str]:
        """The environment of a service: its own NATS user's URL when known."""
        env = dict(os.environ)
        env.update(
            {
                "TAVOLA_DATABASE_URL": self.database_url,
                "TAVOLA_NATS_URL": self.nats_urls.get(service, self.nats_url),
                "TAVOLA_GRPC_ADDRESS": self.address,
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.update(self.extra_env)
        return env

    def start(self, name: str, replica: int = 0) -> subprocess.Popen[bytes]:
        """Start a service; ``replica`` > 0 starts one more instance of it (its key in
        ``processes`` and ``metrics_ports`` is ``name-replica``): instances share the work
        through NATS queue groups.

        With ``log_dir``, the service writes its log lines to ``<key>.log`` there, rotated by
        size (``TAVOLA_LOG_FILE``). Its stdout and stderr — what it prints before logging
        starts (an import-time traceback) and gRPC's C core — go to ``<key>.stderr``; the
        previous run's is kept as ``<key>.stderr.1``, so a crash survives the restart."""
        if name not in SERVICES:
            raise ValueError(f"no service {name!r}")
        key = f"{name}-{replica}" if replica else name
        env = self.env(name)
        env["TAVOLA_METRICS_PORT"] = str(self.metrics_ports.setdefault(key, free_port()))
        env.setdefault("GRPC_VERBOSITY", "ERROR")  # the C core writes plain text to stderr
        out: int | IO[bytes] = subprocess.DEVNULL
        if self.log_dir is not None:
            folder = self.log_dir.resolve()
            folder.mkdir(parents=True, exist_ok=True)
            env["TAVOLA_LOG_FILE"] = str(folder / f"{key}.log")
            stderr = folder / f"{key}.stderr"
            if stderr.exists() and stderr.stat().st_size > 0:
                stderr.replace(folder / f"{key}.stderr.1")
            out = open(stderr, "wb")  # noqa: SIM115 (closed below: the child has its copy)
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", f"services.{name}"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        finally:
            if not isinstance(out, int):
                out.close()
        self.processes[key] = process
        return process

    def restart(self, key: str) -> subprocess.Popen[bytes]:
        """Start again the instance named ``key`` (a service, or ``name-replica``)."""
        name, _, replica = key.partition("-")
        return self.start(name, int(replica or 0))

    def start_all(self, timeout: float = 60.0) -> None:
        self.start("engine")
        wait_healthy(self.address, timeout, self.processes["engine"])
        for name in SERVICES[1:]:
            self.start(name)
        wait_ready(self.address, timeout, self.token)

    def kill(self, name: str) -> None:
        """SIGKILL a service (a crash, for fault tests)."""
        process = self.processes.pop(name)
        process.kill()
        process.wait()

    def stop(self, name: str, timeout: float = 10.0) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def stop_all(self) -> None:
        """Stop every instance, the engine last."""
        rank = {name: i for i, name in enumerate(SERVICES)}
        for key in sorted(self.processes, key=lambda k: rank[k.split("-")[0]], reverse=True):
            self.stop(key)

    def dead(self) -> list[str]:
        return [n for n, p in self.processes.items() if p.poll() is not None]


def wait_healthy(
    address: str, timeout: float, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"service exited with code {process.returncode} while starting")
        try:
            with grpc.insecure_channel(address) as channel:
                stub = health_pb2_grpc.HealthStub(channel)
                reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
        except grpc.RpcError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"no healthy service at {address} after {timeout:.0f} s")


def wait_ready(address: str, timeout: float, token: str = "") -> None:
    """Wait until the lobby answers through the engine (every hop is up). Without a token
    only the engine's answer is awaited (it refuses the call, but it is there)."""
    from tavola.v1 import lobby_pb2, lobby_pb2_grpc

    deadline = time.monotonic() + timeout
    last: Exception | None = None
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    while time.monotonic() < deadline:
        try:
            with grpc.insecure_channel(address) as channel:
                lobby_pb2_grpc.LobbyServiceStub(channel).ListGames(
                    lobby_pb2.ListGamesRequest(), timeout=2.0, metadata=metadata
                )
                return
        except grpc.RpcError as error:
            if not token and error.code() == grpc.StatusCode.UNAUTHENTICATED:
                return
            last = error
            time.sleep(0.3)
    raise TimeoutError(f"the lobby did not answer through {address}: {last}")


async def ensure_platform_database(server_or_db_url: str, name: str = "tavola") -> str:
    """The platform's database URL: created under the server if missing."""
    import asyncpg

    from tavola.infra.databases import create_database, database_url

    url = database_url(server_or_db_url, name)
    try:
        conn = await asyncpg.connect(url)
        await conn.close()
        return url
    except asyncpg.InvalidCatalogNameError:
        return await create_database(server_or_db_url, name)
