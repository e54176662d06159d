"""``tavola up``: infrastructure if needed, then every service as its own process."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from tavola.cli.client import write_run_info
from tavola.cli.platform import Platform, ensure_platform_database, free_port
from tavola.infra.local import LocalInfra

RESTART_DELAY = 1.0


def up(port: int, data_dir: str, bot_instances: int = 1) -> int:
    stopping = False

    def on_signal(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    given_db = bool(os.environ.get("TAVOLA_DATABASE_URL"))
    print("tavola: starting infrastructure…", flush=True)
    with LocalInfra.from_env_or_start(data_dir=data_dir) as infra:
        database_url = infra.database_url
        if not given_db:
            database_url = asyncio.run(ensure_platform_database(infra.database_url))
        if not _port_free(port):
            port = free_port()
        platform = Platform(
            database_url, infra.nats_url, grpc_port=port, log_dir=Path(data_dir) / "logs"
        )
        try:
            platform.start_all()
            for replica in range(1, bot_instances):
                platform.start("bots", replica)
            write_run_info(platform.address, database_url, infra.nats_url)
            print(f"tavola is up. Clients connect to {platform.address} (gRPC).", flush=True)
            print(f"  logs: {Path(data_dir) / 'logs'}   stop: Ctrl-C", flush=True)
            print("  try:  tavola demo fan-tan   (in another terminal)", flush=True)
            while not stopping:
                time.sleep(0.5)
                for name in platform.dead():
                    print(f"tavola: {name} exited; restarting it", flush=True)
                    time.sleep(RESTART_DELAY)
                    platform.restart(name)
        finally:
            print("tavola: stopping…", flush=True)
            platform.stop_all()
    print("tavola: stopped.", flush=True)
    return 0


def _port_free(port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
