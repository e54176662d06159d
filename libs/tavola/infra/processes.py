"""Child processes of the local infrastructure: spawn, wait for readiness, stop; stale ones too.

Children run in their own session (a Ctrl-C in the terminal reaches only us, and we stop them
in order). On Linux, a child started from the main thread also gets a parent-death signal, so
it stops by itself when we are killed (``kill -9`` of pytest leaves no orphan).
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tavola.infra.accounts import ServiceUser
from tavola.infra.errors import InfraError

LOOPBACK = "127.0.0.1"
_PR_SET_PDEATHSIG = 1

# (signal, seconds to wait for the process to exit after it) — SIGKILL follows the last one.
StopPlan = tuple[tuple[signal.Signals, float], ...]


def free_port() -> int:
    """A TCP port on the loopback interface that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


def port_is_open(port: int, host: str = LOOPBACK) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def log_tail(path: Path, offset: int = 0, lines: int = 40) -> str:
    """The last ``lines`` lines written to ``path`` after byte ``offset``."""
    try:
        with path.open("rb") as log:
            log.seek(offset)
            text = log.read().decode(errors="replace")
    except OSError as error:
        return f"(no log at {path}: {error})"
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class Child:
    """A server process we started and must stop."""

    name: str
    popen: subprocess.Popen[bytes]
    log_path: Path
    log_offset: int  # where this run's output starts in the (appended) log
    stop_plan: StopPlan

    @property
    def pid(self) -> int:
        return self.popen.pid

    def is_running(self) -> bool:
        return self.popen.poll() is None

    def stop(self) -> None:
        """Signal, wait, escalate; returns when the process has exited and been reaped."""
        for signum, grace in self.stop_plan:
            if self.popen.poll() is not None:
                return
            self.popen.send_signal(signum)
            try:
                self.popen.wait(grace)
                return
            except subprocess.TimeoutExpired:
                continue
        self.popen.kill()
        self.popen.wait()

    def output(self) -> str:
        return log_tail(self.log_path, self.log_offset)

    def failure(self, what: str) -> InfraError:
        return InfraError(f"{what}\n--- last lines of {self.log_path} ---\n{self.output()}")


def spawn(
    name: str,
    argv: Sequence[str],
    *,
    log_path: Path,
    stop_plan: StopPlan,
    death_signal: signal.Signals,
    user: ServiceUser | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Child:
    """Start ``argv`` with its output appended to ``log_path``."""
    with log_path.open("ab") as log:
        offset = log.seek(0, os.SEEK_END)
        try:
            popen = subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=True,
                preexec_fn=_child_setup(user, death_signal),
            )
        except OSError as error:
            raise InfraError(f"could not start {name} ({argv[0]}): {error}") from error
    return Child(name, popen, log_path, offset, stop_plan)


def _child_setup(user: ServiceUser | None, death_signal: signal.Signals) -> Callable[[], None]:
    """What the forked child does before exec: drop to ``user``, then arm the death signal."""
    libc = _libc() if threading.current_thread() is threading.main_thread() else None
    parent = os.getpid()

    def setup() -> None:
        if user is not None:
            os.setgroups([])
            os.setgid(user.gid)
            os.setuid(user.uid)
        if libc is not None:  # after setuid: changing credentials clears the setting
            libc.prctl(_PR_SET_PDEATHSIG, int(death_signal))
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)

    return setup


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def wait_until_ready(
    child: Child, is_ready: Callable[[], bool], *, timeout: float, what: str
) -> None:
    """Poll ``is_ready`` until true; stop the child and raise with its log if it dies or hangs."""
    deadline = time.monotonic() + timeout
    while True:
        if not child.is_running():
            raise child.failure(f"{what} exited with status {child.popen.returncode}")
        if is_ready():
            return
        if time.monotonic() > deadline:
            child.stop()
            raise child.failure(f"{what} was not ready after {timeout:.0f} s")
        time.sleep(0.05)


def stop_stale(pid: int, marker: str, stop_plan: StopPlan) -> bool:
    """Stop a leftover server of a previous run, if ``pid`` is alive and one of its arguments
    is ``marker`` (its data folder). Returns whether such a process was found."""
    arguments = _arguments(pid)
    if arguments is None or marker not in arguments:
        return False
    for signum, grace in stop_plan:
        if not _send(pid, signum) or _wait_gone(pid, grace):
            return True
    _send(pid, signal.SIGKILL)
    if not _wait_gone(pid, 10.0):
        raise InfraError(f"a leftover server (pid {pid}: {' '.join(arguments)}) survived SIGKILL")
    return True


def _send(pid: int, signum: signal.Signals) -> bool:
    try:
        os.kill(pid, signum)
        return True
    except ProcessLookupError:
        return False
    except PermissionError as error:
        raise InfraError(f"a leftover server (pid {pid}) is not ours to stop: {error}") from error


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while is_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def is_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie nobody reaped counts as gone)."""
    if _has_procfs():
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state not in ("Z", "X")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _arguments(pid: int) -> list[str] | None:
    """The command line of a live ``pid`` (split on blanks where there is no /proc)."""
    if not is_alive(pid):
        return None
    if _has_procfs():
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return None
        return [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    result = subprocess.run(
        ["ps", "-o", "command=", "-p", str(pid)], capture_output=True, text=True, check=False
    )
    return result.stdout.split() or None


def _has_procfs() -> bool:
    return Path("/proc/self/stat").exists()
