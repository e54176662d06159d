"""Running the services as separate processes on one machine.

Used by ``tavola up`` and by the end-to-end tests (which also kill and restart processes).
The web gateway starts last, once the API answers: it gets its own credential, a token of
the platform's admin with only the ``gateway`` scope, issued for this run and revoked when
the platform stops.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

SERVICES = ("engine", "lobby", "scoring", "bots", "gateway")
GATEWAY = "gateway"


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
    web_port: int = 0  # the gateway's HTTP port (0: a free one)
    web_host: str = "127.0.0.1"
    gateway_env: dict[str, str] = field(default_factory=dict)  # the gateway's alone
    gateway_token: str = ""  # issued by start_all when not given
    _gateway_token_id: str = ""

    def __post_init__(self) -> None:
        if not self.grpc_port:
            self.grpc_port = free_port()
        if not self.web_port:
            self.web_port = free_port()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    @property
    def web_url(self) -> str:
        """Where browsers open the web table."""
        host = f"[{self.web_host}]" if ":" in self.web_host else self.web_host
        return f"http://{host}:{self.web_port}/"

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
        if name == GATEWAY:
            env.update(self._gateway_settings())
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
            if name != GATEWAY:
                self.start(name)
        wait_ready(self.address, timeout, self.token)
        if self.token or self.gateway_token:  # without a credential, no gateway
            self.start(GATEWAY)
            wait_web(self.web_url, timeout, self.processes[GATEWAY])

    def _gateway_settings(self) -> dict[str, str]:
        """The gateway's address and credential (issued once, on its first start)."""
        if not self.gateway_token and self.token:
            self.gateway_token, self._gateway_token_id = issue_gateway_token(
                self.address, self.token
            )
        return {
            "TAVOLA_WEB_ADDRESS": f"{self.web_host}:{self.web_port}",
            "TAVOLA_GATEWAY_TOKEN": self.gateway_token,
            **self.gateway_env,
        }

    def kill(self, name: str) -> None:
        """SIGKILL a service (a crash, for fault tests)."""
        process = self.processes.pop(name)
        process.kill()
        process.wait()

    def pause(self, name: str) -> None:
        """SIGSTOP an instance (frozen, as by a stalled machine; for fault tests)."""
        self.processes[name].send_signal(signal.SIGSTOP)

    def resume(self, name: str) -> None:
        """SIGCONT an instance that ``pause`` froze."""
        self.processes[name].send_signal(signal.SIGCONT)

    def stop(self, name: str, timeout: float = 10.0) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGCONT)  # a paused instance could not act on SIGTERM
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def stop_all(self) -> None:
        """Stop every instance, the engine last (the gateway first, and its credential
        revoked while the engine still answers)."""
        rank = {name: i for i, name in enumerate(SERVICES)}
        for key in sorted(self.processes, key=lambda k: rank[k.split("-")[0]], reverse=True):
            self.stop(key)
            if key == GATEWAY and self._gateway_token_id:
                revoke_token(self.address, self.token, self._gateway_token_id)
                self._gateway_token_id = ""
                self.gateway_token = ""

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


def issue_gateway_token(address: str, token: str) -> tuple[str, str]:
    """A token of ``token``'s account with only the gateway scope: (text, token id)."""
    from tavola.v1 import account_pb2, account_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        issued = account_pb2_grpc.AccountServiceStub(channel).IssueToken(
            account_pb2.IssueTokenRequest(scopes=["gateway"], label="web gateway"),
            timeout=10.0,
            metadata=(("authorization", f"Bearer {token}"),),
        )
    return issued.token, issued.info.token_id


def revoke_token(address: str, token: str, token_id: str) -> None:
    """Revoke one of ``token``'s account's tokens; a platform already gone is no error."""
    from tavola.v1 import account_pb2, account_pb2_grpc

    try:
        with grpc.insecure_channel(address) as channel:
            account_pb2_grpc.AccountServiceStub(channel).RevokeToken(
                account_pb2.RevokeTokenRequest(token_id=token_id),
                timeout=5.0,
                metadata=(("authorization", f"Bearer {token}"),),
            )
    except grpc.RpcError:
        pass


def wait_web(url: str, timeout: float, process: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until the gateway answers its health check at ``url``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the gateway exited with code {process.returncode} while starting")
        try:
            with urllib.request.urlopen(url + "healthz", timeout=1.0) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise TimeoutError(f"no gateway at {url} after {timeout:.0f} s")


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
