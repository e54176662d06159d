"""A private PostgreSQL server in a data folder: initialised once, started on a free port.

Layout under the folder: ``postgres/`` (the cluster, made by ``initdb`` in
``postgres.initdb/`` and renamed when complete, so an interrupted initdb is redone),
``postgres.log`` and ``postgres.durability`` (the mode of the last start). The server listens
on 127.0.0.1 only (no Unix socket) and trusts local connections.

It is durable unless asked otherwise: fsync, synchronous commit and full-page writes on, so
a move that was acknowledged survives a power loss. ``Durability.FAST`` turns the three off
for the test suite, whose data is thrown away. The settings are given at every start, not
written at initdb, so a folder first used fast and then started durable is durable — and
before that first durable start, what the fast runs may have left in the OS cache is flushed
(``initdb --sync-only``).
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from tavola.infra.accounts import (
    ServiceUser,
    chown_tree,
    ensure_traversable,
    postgres_service_user,
)
from tavola.infra.blocking import run_blocking
from tavola.infra.databases import accepts_queries
from tavola.infra.errors import InfraError
from tavola.infra.pg_binaries import PgBinaries, find_pg_binaries
from tavola.infra.processes import (
    LOOPBACK,
    Child,
    StopPlan,
    free_port,
    is_alive,
    port_is_open,
    spawn,
    stop_stale,
    wait_until_ready,
)

SUPERUSER = "tavola"
CLUSTER = "postgres"
LOG = "postgres.log"
_STAGING = "postgres.initdb"
DURABILITY_FILE = "postgres.durability"


class Durability(Enum):
    """What an acknowledged commit survives."""

    DURABLE = "durable"  # a power loss: the product's mode
    FAST = "fast"  # a crash of Postgres only, not of the machine: tests


_SETTINGS = {
    "max_connections": "300",
    "unix_socket_directories": "",
    "logging_collector": "off",
    "huge_pages": "off",
    "jit": "off",
}
_DURABILITY_SETTINGS = {
    # given explicitly, so that no postgresql.conf or ALTER SYSTEM can turn them off
    Durability.DURABLE: {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"},
    Durability.FAST: {
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "wal_level": "minimal",
        "max_wal_senders": "0",
    },
}
# fast shutdown (sessions are cut), then immediate shutdown; SIGKILL after that
STOP_PLAN: StopPlan = ((signal.SIGINT, 20.0), (signal.SIGQUIT, 5.0))
_INITDB_TIMEOUT = 180.0
_START_TIMEOUT = 60.0
_PORT_ATTEMPTS = 3
_PORT_TAKEN = ("could not bind", "Address already in use")

_log = logging.getLogger(__name__)


@dataclass
class PgServer:
    child: Child
    port: int
    binaries: PgBinaries

    @property
    def url(self) -> str:
        """Server-level URL: the ``postgres`` database, as the superuser."""
        return f"postgresql://{SUPERUSER}@{LOOPBACK}:{self.port}/postgres"


def start_postgres(
    folder: Path, durability: Durability = Durability.DURABLE, port: int | None = None
) -> PgServer:
    """Start the folder's server (initialising it on first use); returns once it answers.
    ``port``: that port (a restart where clients expect it), else a free one."""
    user = postgres_service_user()
    cluster = folder / CLUSTER
    binaries = find_pg_binaries(_initialised_major(cluster))
    _prepare(folder, binaries, user, durability)
    for _ in range(1 if port else _PORT_ATTEMPTS):
        server = _launch(folder, binaries, user, durability, port)
        if _became_ready(server):
            return server
    raise server.child.failure(f"PostgreSQL found no free port in {_PORT_ATTEMPTS} attempts")


def _initialised_major(cluster: Path) -> int | None:
    try:
        return int((cluster / "PG_VERSION").read_text().strip())
    except (OSError, ValueError):
        return None


def _prepare(
    folder: Path, binaries: PgBinaries, user: ServiceUser | None, durability: Durability
) -> None:
    cluster = folder / CLUSTER
    if user is not None:
        ensure_traversable(cluster, user)
        ensure_traversable(binaries.postgres, user)
    fresh = _initialised_major(cluster) is None
    if fresh:  # durable: initdb writes everything to disk itself
        _initdb(folder, binaries, user, durability)
    elif user is not None and cluster.stat().st_uid != user.uid:
        chown_tree(cluster, user)
    _clear_stale_server(cluster)
    if (
        not fresh
        and durability is Durability.DURABLE
        and last_durability(folder) is not Durability.DURABLE
    ):
        _flush_to_disk(folder, binaries, user)
    # recorded before the start: a fast run that crashes is known to have been fast
    (folder / DURABILITY_FILE).write_text(durability.value + "\n")


def last_durability(folder: Path) -> Durability | None:
    """The mode the folder's server was last started in (``None``: unknown — older runs
    were all fast)."""
    try:
        return Durability((folder / DURABILITY_FILE).read_text().strip())
    except (OSError, ValueError):
        return None


def _initdb(
    folder: Path, binaries: PgBinaries, user: ServiceUser | None, durability: Durability
) -> None:
    cluster, staging = folder / CLUSTER, folder / _STAGING
    if cluster.exists():
        raise InfraError(f"{cluster} is not a PostgreSQL cluster we can read; remove it")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(mode=0o700)
    if user is not None:
        os.chown(staging, user.uid, user.gid)
    argv = [str(binaries.initdb), "-D", str(staging), "-U", SUPERUSER, "--auth=trust"]
    argv += ["--encoding=UTF8", "--locale=C"]
    if durability is Durability.FAST:
        argv.append("--no-sync")
    _run_tool(folder, user, argv, f"initdb ({binaries.initdb})")
    staging.rename(cluster)
    if durability is Durability.DURABLE:  # initdb synced the files; the rename too, now
        _fsync_folder(folder)
    _log.info("initialised PostgreSQL %s cluster in %s", binaries.major, cluster)


def _flush_to_disk(folder: Path, binaries: PgBinaries, user: ServiceUser | None) -> None:
    """Write every file of the cluster to disk (what fast runs left in the OS cache)."""
    started = time.monotonic()
    argv = [str(binaries.initdb), "--sync-only", "-D", str(folder / CLUSTER)]
    _run_tool(folder, user, argv, f"initdb --sync-only ({binaries.initdb})")
    _log.info("flushed %s to disk in %.2f s", folder / CLUSTER, time.monotonic() - started)


def _run_tool(folder: Path, user: ServiceUser | None, argv: list[str], what: str) -> None:
    child = spawn(
        "initdb",
        argv,
        log_path=folder / LOG,
        stop_plan=STOP_PLAN,
        death_signal=signal.SIGTERM,
        user=user,
        cwd=folder,
        env=_child_env(),
    )
    try:
        status = child.popen.wait(_INITDB_TIMEOUT)
    except subprocess.TimeoutExpired:
        child.stop()
        raise child.failure(f"{what} did not finish in {_INITDB_TIMEOUT:.0f} s") from None
    if status != 0:
        raise child.failure(f"{what} exited with status {status}")


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _clear_stale_server(cluster: Path) -> None:
    """Stop a server a killed run left behind; drop a lock file whose pid now names another
    process (Postgres itself replaces one whose pid is dead)."""
    lock_file = cluster / "postmaster.pid"
    try:
        pid = int(lock_file.read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return
    if stop_stale(pid, str(cluster), STOP_PLAN):
        _log.warning("stopped a PostgreSQL (pid %s) left running in %s", pid, cluster)
    if is_alive(pid):
        lock_file.unlink(missing_ok=True)


def _launch(
    folder: Path,
    binaries: PgBinaries,
    user: ServiceUser | None,
    durability: Durability,
    port: int | None = None,
) -> PgServer:
    port = port or free_port()
    argv = [str(binaries.postgres), "-D", str(folder / CLUSTER), "-h", LOOPBACK, "-p", str(port)]
    for name, value in {**_SETTINGS, **_DURABILITY_SETTINGS[durability]}.items():
        argv += ["-c", f"{name}={value}"]
    child = spawn(
        "postgres",
        argv,
        log_path=folder / LOG,
        stop_plan=STOP_PLAN,
        death_signal=signal.SIGINT,
        user=user,
        cwd=folder,
        env=_child_env(),
    )
    return PgServer(child=child, port=port, binaries=binaries)


def _became_ready(server: PgServer) -> bool:
    """True when the server answers; False when its port was taken meanwhile (try another)."""
    started = time.monotonic()
    what = f"PostgreSQL {server.binaries.major} ({server.binaries.bin_dir})"
    try:
        wait_until_ready(
            server.child,
            lambda: port_is_open(server.port) and run_blocking(lambda: accepts_queries(server.url)),
            timeout=_START_TIMEOUT,
            what=what,
        )
    except InfraError:
        if server.child.is_running() or not any(s in server.child.output() for s in _PORT_TAKEN):
            raise
        return False
    _log.info("%s ready on port %s in %.2f s", what, server.port, time.monotonic() - started)
    return True


def _child_env() -> dict[str, str]:
    """Our environment without libpq variables that could redirect the tools, in UTC."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    env["TZ"] = "UTC"
    return env
