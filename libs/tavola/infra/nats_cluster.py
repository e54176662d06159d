"""A JetStream cluster of NATS servers on loopback, for the fault suite.

Each node is its own ``nats-server`` process with its own JetStream store, the same users
and permissions as the private server (``nats_auth.server_config``) and routes to every
other node (full mesh, authenticated with a route user of the cluster). The nodes do not
advertise their client addresses (``no_advertise``): a client uses exactly the URLs it was
given — each service gets every node's URL with its own user (``url_for``), or the URLs of
proxies standing in front of the nodes.

Layout under the folder: ``<node>/`` (its JetStream store), ``<node>.conf`` (readable only by
its owner), ``<node>.log``. Ports are chosen once, at ``start_cluster``, and kept: a node
stopped and started again (``stop_node``/``start_node``, or ``restart``) listens where the
clients and the other nodes expect it.
"""

from __future__ import annotations

import json
import logging
import secrets
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tavola.infra.blocking import run_blocking
from tavola.infra.errors import InfraError
from tavola.infra.nats_auth import SERVICE_USERS, Credentials, server_config
from tavola.infra.nats_server import STOP_PLAN, find_nats_server, jetstream_ready
from tavola.infra.processes import (
    LOOPBACK,
    Child,
    free_port,
    port_is_open,
    spawn,
    wait_until_ready,
)

CLUSTER_NAME = "tavola-cluster"
ROUTE_USER = "route"
_START_TIMEOUT = 60.0

_log = logging.getLogger(__name__)


@dataclass
class ClusterNode:
    """One server of the cluster: its name, its ports (fixed for the cluster's life), and
    its process while it runs."""

    name: str
    client_port: int
    route_port: int
    child: Child | None = None

    def is_running(self) -> bool:
        return self.child is not None and self.child.is_running()


@dataclass
class NatsCluster:
    folder: Path
    nodes: list[ClusterNode]
    credentials: Credentials
    route_password: str = field(repr=False)

    # ----- addresses ----------------------------------------------------------------------
    def node_url(self, index: int, user: str = "admin") -> str:
        return self.credentials.url(user, LOOPBACK, self.nodes[index].client_port)

    def url_for(self, user: str, ports: Sequence[int] | None = None) -> str:
        """``user``'s URLs of every node, comma-separated (as ``TAVOLA_NATS_URL`` takes them);
        ``ports``: other client ports in their place (proxies in front of the nodes)."""
        chosen = ports if ports is not None else [n.client_port for n in self.nodes]
        return ",".join(self.credentials.url(user, LOOPBACK, port) for port in chosen)

    @property
    def url(self) -> str:
        """The operator's URLs (user ``admin``)."""
        return self.url_for("admin")

    def service_urls(self, ports: Sequence[int] | None = None) -> dict[str, str]:
        """Each service's URLs, with its own user."""
        return {name: self.url_for(name, ports) for name in SERVICE_USERS}

    # ----- life of the nodes --------------------------------------------------------------
    def start_node(self, index: int, wait: bool = True) -> None:
        """Start a node that is not running (on its ports); with ``wait``, return once it
        answers JetStream calls (which needs a quorum of the cluster)."""
        node = self.nodes[index]
        if node.is_running():
            return
        node.child = _spawn_node(self, node)
        if wait:
            self.wait_node(index)

    def wait_node(self, index: int, timeout: float = _START_TIMEOUT) -> None:
        node = self.nodes[index]
        if node.child is None:
            raise InfraError(f"NATS node {node.name} is not started")
        url = self.node_url(index)
        wait_until_ready(
            node.child,
            lambda: port_is_open(node.client_port) and run_blocking(lambda: jetstream_ready(url)),
            timeout=timeout,
            what=f"nats-server {node.name}",
        )

    def stop_node(self, index: int, kill: bool = False) -> None:
        """Stop a node: SIGKILL (``kill``: the node is lost) or a clean shutdown."""
        node = self.nodes[index]
        child, node.child = node.child, None
        if child is None or not child.is_running():
            return
        if kill:
            child.popen.send_signal(signal.SIGKILL)
            child.popen.wait()
        else:
            child.stop()

    def restart(self, pause: float = 0.0) -> None:
        """Stop every node, wait ``pause`` seconds, start them all again (a NATS outage)."""
        for index in range(len(self.nodes)):
            self.stop_node(index)
        time.sleep(pause)
        self.start_all()

    def start_all(self) -> None:
        for index in range(len(self.nodes)):
            self.start_node(index, wait=False)
        for index in range(len(self.nodes)):
            self.wait_node(index)

    def stop(self) -> None:
        """Stop every node; safe to call again."""
        for index in reversed(range(len(self.nodes))):
            self.stop_node(index)

    @property
    def pids(self) -> dict[str, int]:
        return {n.name: n.child.pid for n in self.nodes if n.child is not None}


def start_cluster(folder: Path, size: int = 3) -> NatsCluster:
    """Start ``size`` JetStream servers routed to each other on free loopback ports; returns
    once every node answers JetStream calls."""
    if size < 1:
        raise ValueError("a cluster has at least one node")
    folder.mkdir(parents=True, exist_ok=True)
    nodes = [ClusterNode(f"n{i + 1}", free_port(), free_port()) for i in range(size)]
    cluster = NatsCluster(folder, nodes, Credentials.generate(), secrets.token_urlsafe(24))
    try:
        cluster.start_all()
    except BaseException:
        cluster.stop()
        raise
    _log.info("NATS cluster of %s ready on ports %s", size, [n.client_port for n in nodes])
    return cluster


def node_config(cluster: NatsCluster, node: ClusterNode) -> str:
    """A node's configuration: identity, JetStream store, routes, users (NATS accepts JSON
    syntax for values)."""
    routes = [
        f"nats://{ROUTE_USER}:{cluster.route_password}@{LOOPBACK}:{other.route_port}"
        for other in cluster.nodes
        if other is not node
    ]
    store = cluster.folder / node.name
    lines = [
        f"server_name: {json.dumps(node.name)}",
        f"host: {json.dumps(LOOPBACK)}",
        f"port: {node.client_port}",
        f"jetstream {{ store_dir: {json.dumps(str(store))} }}",
        "cluster {",
        f"  name: {json.dumps(CLUSTER_NAME)}",
        f"  host: {json.dumps(LOOPBACK)}",
        f"  port: {node.route_port}",
        "  no_advertise: true",
        f"  authorization {{ user: {ROUTE_USER}, password: {json.dumps(cluster.route_password)} }}",
        f"  routes: {json.dumps(routes)}",
        "}",
    ]
    return "\n".join(lines) + "\n" + server_config(cluster.credentials)


def _spawn_node(cluster: NatsCluster, node: ClusterNode) -> Child:
    (cluster.folder / node.name).mkdir(exist_ok=True)
    config = cluster.folder / f"{node.name}.conf"
    config.touch(mode=0o600, exist_ok=True)
    config.chmod(0o600)
    config.write_text(node_config(cluster, node))
    return spawn(
        f"nats-server-{node.name}",
        [str(find_nats_server()), "-c", str(config)],
        log_path=cluster.folder / f"{node.name}.log",
        stop_plan=STOP_PLAN,
        death_signal=signal.SIGTERM,
        cwd=cluster.folder,
    )
