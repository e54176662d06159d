"""The stage of a fault run: a durable private Postgres, a 3-node JetStream cluster, loopback
proxies, and the four services as processes — and the faults that can be done to them.

The services reach NATS through one proxy per node (each service is given every proxy's
URL with its own NATS user) and the harness's players reach the engine through a proxy of
the engine's gRPC port, so the network between them can be slowed, stalled and cut. The
events stream has three replicas (``TAVOLA_JS_REPLICAS=3``). Everything is started here and
stopped by ``stop``; nothing else on the machine is touched.

A supervisor (``supervise``) restarts a service that exited when the suite did not kill it
(a service may exit on purpose when a dependency stays away: a supervisor restarts it in
production too); such exits are counted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tavola.accounts.local import ensure_account
from tavola.accounts.model import Kind
from tavola.cli.platform import Platform, ensure_platform_database, wait_healthy, wait_ready
from tavola.faults.schedule import SERVICES
from tavola.infra.nats_cluster import NatsCluster, start_cluster
from tavola.infra.pg_server import PgServer, start_postgres
from tavola.infra.proxy import CLEAR, Conditions, ProxyHandle, ProxyThread

ADMIN = "faults-admin"
NAMESPACE = "faults"
DATABASE = "tavola_faults"
REPLICAS = 3
# the suite's own admin token creates every table and account: lift its lobby limits (an
# operator's setting, TAVOLA_LIMITS); the players' limits stay as documented
LIMITS = "account=200/2000,create_table=200/2000,lobby=200/2000"

_log = logging.getLogger(__name__)


@dataclass
class Tally:
    """What was done to the stage (the report's counts)."""

    kills: Counter[str] = field(default_factory=Counter)
    pauses: Counter[str] = field(default_factory=Counter)
    unexpected_exits: Counter[str] = field(default_factory=Counter)
    exit_reasons: Counter[str] = field(default_factory=Counter)  # "<service>: <last line>"
    postgres_restarts: int = 0
    nats_restarts: int = 0
    node_losses: int = 0
    network: Counter[str] = field(default_factory=Counter)


class Stage:
    def __init__(self, folder: Path, seed: int) -> None:
        self.folder = folder
        self.seed = seed
        self.tally = Tally()
        self.postgres: PgServer | None = None
        self.cluster: NatsCluster | None = None
        self.proxies: ProxyThread | None = None
        self.nats_proxies: list[ProxyHandle] = []
        self.grpc_proxy: ProxyHandle | None = None
        self.platform: Platform | None = None
        self.database_url = ""
        self.server_url = ""
        self._down: set[str] = set()  # killed by the suite, not yet restarted
        self._paused: dict[str, int] = {}  # key -> pid frozen

    # ----- start and stop ------------------------------------------------------------------
    def start(self) -> None:
        (self.folder / "postgres").mkdir(parents=True, exist_ok=True)
        self.postgres = start_postgres(self.folder / "postgres")  # durable, as in production
        self.server_url = self.postgres.url
        self.cluster = start_cluster(self.folder / "nats", size=REPLICAS)
        self.proxies = proxies = ProxyThread(self.seed)
        self.nats_proxies = [proxies.add(node.client_port) for node in self.cluster.nodes]
        self.database_url = asyncio.run(ensure_platform_database(self.server_url, DATABASE))
        _, token = asyncio.run(ensure_account(self.database_url, ADMIN, Kind.ADMIN, "faults"))
        self.platform = Platform(
            self.database_url,
            self.cluster.url,
            log_dir=self.folder / "logs",
            extra_env={
                "TAVOLA_NAMESPACE": NAMESPACE,
                "TAVOLA_JS_REPLICAS": str(REPLICAS),
                "TAVOLA_LIMITS": LIMITS,
                "TAVOLA_LOG_LEVEL": "INFO",
            },
            nats_urls=self.cluster.service_urls([p.port for p in self.nats_proxies]),
            token=token,
        )
        self._start_services(self.platform)
        self.grpc_proxy = proxies.add(self.platform.grpc_port)

    def _start_services(self, platform: Platform, timeout: float = 120.0) -> None:
        """The engine, then the lobby, scoring and bots, until the lobby answers through
        the engine. (Not the web gateway: a client of the public API like the harness's
        players, outside the path of moves and events the suite proves.)"""
        platform.start("engine")
        wait_healthy(platform.address, timeout, platform.processes["engine"])
        for name in SERVICES[1:]:
            platform.start(name)
        wait_ready(platform.address, timeout, platform.token)

    def stop(self) -> None:
        """Stop everything started here, the services first; safe to call again."""
        if self.platform is not None:
            for key in list(self._paused):
                self._resume(key)
            self.platform.stop_all()
        if self.proxies is not None:
            self.proxies.stop()
        if self.cluster is not None:
            self.cluster.stop()
        if self.postgres is not None:
            self.postgres.child.stop()

    def stop_services(self) -> None:
        """Stop the four services cleanly (the checks then read a log nobody writes)."""
        for key in list(self._paused):
            self._resume(key)
        self.running_platform.stop_all()
        self._down = set(SERVICES)

    @property
    def running_platform(self) -> Platform:
        if self.platform is None:
            raise RuntimeError("the stage is not started")
        return self.platform

    @property
    def client_address(self) -> str:
        """Where the harness's players connect: the proxy in front of the engine."""
        if self.grpc_proxy is None:
            raise RuntimeError("the stage is not started")
        return f"127.0.0.1:{self.grpc_proxy.port}"

    @property
    def admin_token(self) -> str:
        return self.running_platform.token

    # ----- services ------------------------------------------------------------------------
    def kill(self, key: str) -> bool:
        """SIGKILL a running service; False when it was not running (nothing done)."""
        platform = self.running_platform
        if key in self._down or key not in platform.processes:
            return False
        self._paused.pop(key, None)
        platform.kill(key)
        self._down.add(key)
        self.tally.kills[key] += 1
        return True

    def restart(self, key: str) -> None:
        """Start a service the suite killed."""
        if key not in self._down:
            return
        self._down.discard(key)
        self.running_platform.restart(key)

    def pause(self, key: str) -> bool:
        platform = self.running_platform
        if key in self._down or key in self._paused or key not in platform.processes:
            return False
        platform.pause(key)
        self._paused[key] = platform.processes[key].pid
        self.tally.pauses[key] += 1
        return True

    def resume(self, key: str) -> None:
        self._resume(key)

    def _resume(self, key: str) -> None:
        pid = self._paused.pop(key, None)
        process = self.running_platform.processes.get(key)
        if pid is not None and process is not None and process.pid == pid:
            self.running_platform.resume(key)

    def supervise(self) -> list[str]:
        """Restart services that exited without being killed by the suite; returns them."""
        platform = self.running_platform
        exited = [key for key in platform.dead() if key not in self._down]
        for key in exited:
            code = platform.processes[key].returncode
            reason = self._last_words(key) or f"exit code {code}"
            _log.warning("%s exited with code %s (%s): restarting it", key, code, reason)
            self.tally.unexpected_exits[key] += 1
            self.tally.exit_reasons[f"{key}: {reason}"] += 1
            self._paused.pop(key, None)
            platform.processes.pop(key)
            platform.restart(key)
        return exited

    def _last_words(self, key: str) -> str:
        """The last line a service printed on stderr (a traceback's exception)."""
        try:
            text = (self.folder / "logs" / f"{key}.stderr").read_text(errors="replace")
        except OSError:
            return ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return lines[-1][:200] if lines else ""

    def incident_cause(self, incident: str) -> str:
        """The exception a service logged with an incident id it answered INTERNAL with."""
        needle = f'"incident": "{incident}"'
        for path in sorted((self.folder / "logs").glob("*.log*")):
            with path.open(errors="replace") as lines:
                for line in lines:
                    if needle not in line:
                        continue
                    try:
                        logged = json.loads(line)
                    except ValueError:
                        continue
                    exception = str(logged.get("exception", "")).strip().splitlines()
                    return exception[-1][:200] if exception else str(logged.get("event", ""))
        return ""

    def all_running(self) -> bool:
        platform = self.running_platform
        return not self._down and not self._paused and not platform.dead()

    def wait_engine(self, timeout: float = 120.0) -> None:
        platform = self.running_platform
        wait_healthy(platform.address, timeout, platform.processes.get("engine"))

    # ----- Postgres and NATS -----------------------------------------------------------------
    def restart_postgres(self, down_seconds: float, immediate: bool) -> None:
        """Stop Postgres — a fast shutdown, or ``immediate`` (crash recovery at the next
        start) — and start it again on the same port, durable."""
        if self.postgres is None:
            raise RuntimeError("the stage is not started")
        child = self.postgres.child
        if immediate:
            child.popen.send_signal(signal.SIGQUIT)
            child.popen.wait(30)
        else:
            child.stop()
        time.sleep(down_seconds)
        self.postgres = start_postgres(self.folder / "postgres", port=self.postgres.port)
        self.tally.postgres_restarts += 1

    def restart_nats(self, down_seconds: float) -> None:
        """Every node stopped, then started again (the whole bus away for a while)."""
        self._nats().restart(down_seconds)
        self.tally.nats_restarts += 1

    def lose_node(self, index: int) -> None:
        self._nats().stop_node(index, kill=True)
        self.tally.node_losses += 1

    def return_node(self, index: int) -> None:
        self._nats().start_node(index)

    def nodes_running(self) -> int:
        return sum(node.is_running() for node in self._nats().nodes)

    def _nats(self) -> NatsCluster:
        if self.cluster is None:
            raise RuntimeError("the stage is not started")
        return self.cluster

    # ----- the network -----------------------------------------------------------------------
    def links(self, which: str) -> list[ProxyHandle]:
        """``nats`` (services to the nodes), ``grpc`` (players to the engine) or ``all``."""
        grpc = [self.grpc_proxy] if self.grpc_proxy is not None else []
        return {"nats": self.nats_proxies, "grpc": grpc, "all": [*self.nats_proxies, *grpc]}[which]

    def set_network(self, which: str, conditions: Conditions, kind: str) -> None:
        for link in self.links(which):
            link.set_conditions(conditions)
        self.tally.network[kind] += 1

    def cut_connections(self, which: str) -> int:
        self.tally.network["cut"] += 1
        return sum(link.cut() for link in self.links(which))

    def clear_network(self) -> None:
        for link in self.links("all"):
            link.set_conditions(CLEAR)
