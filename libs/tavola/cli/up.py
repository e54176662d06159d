"""``tavola up``: infrastructure if needed, then every service as its own process.

One address story: the platform listens where ``--address``/``--port`` or
``TAVOLA_GRPC_ADDRESS`` say (default ``127.0.0.1:50051``); a busy port is an error naming
who holds it, never a silent switch (``--port 0`` picks a free one on purpose). A second
``tavola up`` on the same data folder says the first is running and where. The local user
gets an admin account and a token without any step: both are written, readable only by
the user, to the data folder's ``run.json`` and the per-user state file every other
``tavola`` command reads, from any folder.

The web table is served by the gateway at ``TAVOLA_WEB_ADDRESS`` (default
``127.0.0.1:8080``; a busy port is an error too). Its printed sign-in link carries a secret
made for this run: opened on this machine it signs the browser in as the local user
(docs/web.md).
"""

from __future__ import annotations

import asyncio
import getpass
import json
import os
import re
import secrets
import signal
import socket
import time
from pathlib import Path

from tavola.accounts.local import ensure_account
from tavola.accounts.model import Kind, name_problem
from tavola.cli.client import (
    RUN_FILE,
    forget_platform_info,
    write_platform_info,
    write_private,
)
from tavola.cli.platform import Platform, ensure_platform_database, free_port
from tavola.infra.errors import InfraError
from tavola.infra.local import LocalInfra
from tavola.infra.processes import is_alive

RESTART_DELAY = 1.0
DEFAULT_PORT = 50051
DEFAULT_WEB_ADDRESS = "127.0.0.1:8080"


class UpError(Exception):
    """Why the platform was not started (one line for the user)."""


def up(port: int | None, data_dir: str, bot_instances: int = 1, host: str = "") -> int:
    try:
        return _up(port, data_dir, bot_instances, host)
    except UpError as error:
        print(f"tavola up: {error}", flush=True)
        return 1


def _up(port: int | None, data_dir: str, bot_instances: int, host: str) -> int:
    stopping = False

    def on_signal(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    data = Path(data_dir).resolve()
    host, port = _listen_address(host, port)
    _refuse_second_run(data)
    if port == 0:
        port = free_port()
    holder = _port_holder(host, port)
    if holder is not None:
        raise UpError(f"{host}:{port} is already in use{holder}; choose another with --port")
    web_host, web_port = _web_address()
    holder = _port_holder(web_host, web_port)
    if holder is not None:
        raise UpError(
            f"{web_host}:{web_port} (the web table) is already in use{holder}; "
            "choose another with TAVOLA_WEB_ADDRESS"
        )
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    given_db = bool(os.environ.get("TAVOLA_DATABASE_URL"))
    print("tavola: starting infrastructure…", flush=True)
    try:
        infra = LocalInfra.from_env_or_start(data_dir=data)
    except InfraError as error:
        raise UpError(str(error)) from None
    with infra:
        database_url = infra.database_url
        if not given_db:
            database_url = asyncio.run(ensure_platform_database(infra.database_url))
        name, token = _local_admin(database_url)
        platform = Platform(
            database_url,
            infra.nats_url,
            grpc_port=port,
            log_dir=data / "logs",
            nats_urls=infra.nats_service_urls(),
            token=token,
            web_port=web_port,
            web_host=web_host,
        )
        platform.extra_env["TAVOLA_GRPC_ADDRESS"] = f"{host}:{port}"
        sign_in = secrets.token_urlsafe(24) if _loopback(web_host) else ""
        if sign_in:  # the local user's one-click sign-in (docs/web.md), this run only
            platform.gateway_env.update(
                {"TAVOLA_WEB_SIGN_IN_SECRET": sign_in, "TAVOLA_WEB_SIGN_IN_TOKEN": token}
            )
        try:
            try:
                platform.start_all()
            except (RuntimeError, TimeoutError) as error:
                raise UpError(_start_failure(platform, data / "logs", error)) from None
            for replica in range(1, bot_instances):
                platform.start("bots", replica)
            address = platform.address
            info = {
                "address": address,
                "web": platform.web_url,
                "token": token,
                "account": name,
                "pid": os.getpid(),
                "data_dir": str(data),
                "database_url": database_url,
                "started_at": int(time.time()),
            }
            write_private(data / RUN_FILE, json.dumps(info, indent=2))
            state = write_platform_info(info)
            print(f"tavola is up. Clients connect to {address} (gRPC).", flush=True)
            print(f"  the web table: {platform.web_url}", flush=True)
            if sign_in:
                print(f"  sign in there as you: {platform.web_url}#sign-in={sign_in}", flush=True)
            print(f"  you are {name} (admin); your token is kept in {state}", flush=True)
            print(f"  logs: {data / 'logs'}   stop: Ctrl-C", flush=True)
            print(
                "  try:  tavola demo fan-tan   (in another terminal, from any folder)", flush=True
            )
            while not stopping:
                time.sleep(0.5)
                for key in platform.dead():
                    print(f"tavola: {key} exited; restarting it", flush=True)
                    time.sleep(RESTART_DELAY)
                    platform.restart(key)
        finally:
            print("tavola: stopping…", flush=True)
            platform.stop_all()
            (data / RUN_FILE).unlink(missing_ok=True)
            forget_platform_info(os.getpid())
    print("tavola: stopped.", flush=True)
    return 0


def _start_failure(platform: Platform, logs: Path, error: Exception) -> str:
    """One line: which service did not come up, and where its output is."""
    dead = [key for key, process in platform.processes.items() if process.poll() is not None]
    if dead:
        key = dead[0]
        where = logs / f"{key}.stderr"
        return f"the {key} service exited while starting; its output is in {where}"
    return f"the platform did not become ready ({error}); the logs are in {logs}"


def _listen_address(host: str, port: int | None) -> tuple[str, int]:
    """Host and port from the options, else ``TAVOLA_GRPC_ADDRESS``, else the default."""
    configured = os.environ.get("TAVOLA_GRPC_ADDRESS", "").strip()
    env_host, _, env_port = configured.rpartition(":") if configured else ("", "", "")
    if port is None:
        port = int(env_port) if env_port.isdigit() else DEFAULT_PORT
    host = host or env_host or "127.0.0.1"
    if not 0 <= port <= 65535:
        raise UpError(f"{port} is not a port number")
    return host, port


def _web_address() -> tuple[str, int]:
    """The gateway's host and port: ``TAVOLA_WEB_ADDRESS``, else ``127.0.0.1:8080``
    (port 0: a free one)."""
    configured = os.environ.get("TAVOLA_WEB_ADDRESS", "").strip() or DEFAULT_WEB_ADDRESS
    host, _, port = configured.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UpError(f"TAVOLA_WEB_ADDRESS must be HOST:PORT, got {configured!r}")
    return host, int(port) or free_port()


def _loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1")


def _refuse_second_run(data: Path) -> None:
    try:
        running = json.loads((data / RUN_FILE).read_text())
    except (OSError, ValueError):
        return
    pid = int(running.get("pid", 0))
    if pid and is_alive(pid):
        raise UpError(
            f"tavola is already running from {data} (pid {pid}); "
            f"clients connect to {running.get('address', '?')}"
        )


def _port_holder(host: str, port: int) -> str | None:
    """None when ``host:port`` is free, else a few words on who holds it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host if host not in ("", "0.0.0.0") else "0.0.0.0", port))
            return None
        except OSError:
            pass
    pid = _listening_pid(port)
    if pid is None:
        return ""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        command = ""
    return f" by pid {pid} ({command.strip()[:80]})" if command else f" by pid {pid}"


def _listening_pid(port: int) -> int | None:
    """The process listening on ``port`` (Linux: from /proc), when it can be seen."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if (
                len(fields) > 9
                and fields[3] == "0A"
                and int(fields[1].rsplit(":", 1)[1], 16) == port
            ):
                inodes.add(fields[9])
    if not inodes:
        return None
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    return int(proc.name)
        except OSError:
            continue
    return None


def _local_admin(database_url: str) -> tuple[str, str]:
    """The local user's admin account (created on the first run) and a fresh token."""
    name = _local_name()
    account, token = asyncio.run(ensure_account(database_url, name, Kind.ADMIN, "tavola up"))
    return account.name, token


def _local_name() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    name = re.sub(r"[^\w.\-]", "-", user)[:32].strip("-") or "local-admin"
    if len(name) < 2 or name_problem(name) is not None:
        name = "local-admin"
    return name
