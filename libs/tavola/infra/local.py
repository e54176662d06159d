"""Private local infrastructure: Postgres and NATS (JetStream) for tests and ``tavola up``.

``TAVOLA_DATABASE_URL`` / ``TAVOLA_NATS_URL`` are used as given when set (and non-empty);
whatever is not set is started under ``data_dir`` on a free loopback port and stopped on
exit — also at interpreter exit, on SIGTERM (when nobody else handles it), and, on Linux, by
the kernel if this process dies (parent-death signal). The folder is initialised once and
reused; servers a killed run left behind in it are stopped first.

The private Postgres is durable (fsync, synchronous commit, full-page writes) unless the
caller asks for ``Durability.FAST`` — the test suite does, in one place (its ``infra``
fixture); ``tavola up`` and ``python -m tavola.infra`` never do.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import threading
from pathlib import Path
from types import FrameType, TracebackType

from tavola.infra.databases import create_database, drop_database
from tavola.infra.errors import InfraError
from tavola.infra.folder import FolderLease, lease_folder
from tavola.infra.nats_auth import redact
from tavola.infra.nats_server import start_nats
from tavola.infra.pg_server import Durability, start_postgres
from tavola.infra.processes import Child

DATABASE_URL_VARIABLE = "TAVOLA_DATABASE_URL"
NATS_URL_VARIABLE = "TAVOLA_NATS_URL"

__all__ = ["Durability", "InfraError", "LocalInfra", "create_database", "drop_database"]

_log = logging.getLogger(__name__)


class LocalInfra:
    """Postgres and NATS, given or started privately; a context manager that stops what it
    started."""

    def __init__(
        self,
        data_dir: Path,
        database_url: str | None,
        nats_url: str | None,
        durability: Durability = Durability.DURABLE,
    ) -> None:
        self._data_dir = data_dir.resolve()
        self._durability = durability
        self._given_database_url = database_url
        self._given_nats_url = nats_url
        self._database_url = database_url
        self._nats_url = nats_url
        self._nats_service_urls: dict[str, str] = {}
        self._lease: FolderLease | None = None
        self._children: list[Child] = []
        self._sigterm_installed = False

    @classmethod
    def from_env_or_start(
        cls, data_dir: str | os.PathLike[str], durability: Durability = Durability.DURABLE
    ) -> LocalInfra:
        """Use the URLs of the environment; start what they leave out. Returns it running.
        ``durability`` is that of a Postgres started here (a given one is as it is)."""
        infra = cls(
            Path(data_dir), _env(DATABASE_URL_VARIABLE), _env(NATS_URL_VARIABLE), durability
        )
        infra.start()
        return infra

    @property
    def database_url(self) -> str:
        """Server-level Postgres URL (its ``postgres`` database)."""
        return _require(self._database_url, "database_url")

    @property
    def nats_url(self) -> str:
        """The NATS URL for operators and tests (a private server: its ``admin`` user)."""
        return _require(self._nats_url, "nats_url")

    def nats_service_urls(self) -> dict[str, str]:
        """Each service's NATS URL, with its own user on a private server (whose
        permissions allow only what that service does); a given URL serves every service."""
        if self._nats_service_urls:
            return dict(self._nats_service_urls)
        url = self.nats_url
        return {name: url for name in ("engine", "lobby", "scoring", "bots")}

    @property
    def folder(self) -> Path | None:
        """The data folder in use while something runs from it (``data_dir`` or a parallel one)."""
        return self._lease.path if self._lease is not None else None

    @property
    def pids(self) -> dict[str, int]:
        """Process ids of the servers started here, by name (empty when all were given)."""
        return {child.name: child.pid for child in self._children}

    def dead_services(self) -> list[str]:
        """Names of started servers that have exited since."""
        return [child.name for child in self._children if not child.is_running()]

    def start(self) -> None:
        """Start what was not given; nothing when already running."""
        if self._lease is not None or (self._database_url and self._nats_url):
            return
        self._lease = lease_folder(self._data_dir)
        atexit.register(self.stop)
        self._install_sigterm_handler()
        try:
            self._start_servers(self._lease.path)
        except BaseException:
            self.stop()
            raise

    def _start_servers(self, folder: Path) -> None:
        if self._given_database_url is None:
            postgres = start_postgres(folder, self._durability)
            self._children.append(postgres.child)
            self._database_url = postgres.url
        if self._given_nats_url is None:
            nats = start_nats(folder)
            self._children.append(nats.child)
            self._nats_url = nats.url
            self._nats_service_urls = nats.service_urls()

    def stop(self) -> None:
        """Stop what was started, last first, and wait for it; safe to call again."""
        errors: list[str] = []
        while self._children:
            child = self._children.pop()
            try:
                child.stop()
            except OSError as error:
                errors.append(f"{child.name} (pid {child.pid}): {error}")
        self._release()
        if errors:
            raise InfraError("could not stop " + "; ".join(errors))

    def _release(self) -> None:
        self._database_url = self._given_database_url
        self._nats_url = self._given_nats_url
        self._nats_service_urls = {}
        if self._lease is not None:
            self._lease.release()
            self._lease = None
            atexit.unregister(self.stop)
        self._restore_sigterm_handler()

    def _install_sigterm_handler(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, self._on_sigterm)
            self._sigterm_installed = True

    def _restore_sigterm_handler(self) -> None:
        if self._sigterm_installed and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            self._sigterm_installed = False

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        """Stop the servers, then die of SIGTERM as we would have without this handler."""
        _log.warning("SIGTERM: stopping local infrastructure")
        self.stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    def __enter__(self) -> LocalInfra:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        nats_url = redact(self._nats_url) if self._nats_url else None
        return f"LocalInfra(database_url={self._database_url!r}, nats_url={nats_url!r})"


def _env(name: str) -> str | None:
    return os.environ.get(name) or None


def _require(value: str | None, name: str) -> str:
    if value is None:
        raise InfraError(f"LocalInfra.{name}: not running (use `with LocalInfra...` or start())")
    return value
