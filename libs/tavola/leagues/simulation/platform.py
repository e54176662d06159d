"""The platform a simulation runs on: the four services as processes over a private (or
given) Postgres and NATS, a fresh database, an admin token, open rate limits (one client
address plays every seat)."""

from __future__ import annotations

import asyncio
import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tavola.accounts.local import ensure_account
from tavola.accounts.model import Kind
from tavola.cli.platform import Platform, ensure_platform_database
from tavola.infra.databases import drop_database
from tavola.infra.local import LocalInfra

OPEN_LIMITS = "address=off,read=off,act=off,lobby=off,account=off,create_table=off,stream_open=off"


@contextmanager
def simulated_platform(data_dir: str, prefix: str = "sim") -> Iterator[Platform]:
    with LocalInfra.from_env_or_start(os.path.join(".tavola", data_dir)) as infra:
        name = f"tavola_{prefix}_{secrets.token_hex(3)}"
        database_url = asyncio.run(ensure_platform_database(infra.database_url, name))
        _, token = asyncio.run(ensure_account(database_url, f"{prefix}-admin", Kind.ADMIN, prefix))
        platform = Platform(
            database_url,
            infra.nats_url,
            log_dir=Path(tempfile.mkdtemp(prefix=f"tavola-{prefix}-")),
            extra_env={
                "TAVOLA_NAMESPACE": name.replace("_", "-"),
                "TAVOLA_LOG_LEVEL": "WARNING",
                "TAVOLA_LIMITS": OPEN_LIMITS,
            },
            nats_urls=infra.nats_service_urls(),
            token=token,
        )
        try:
            platform.start_all()
            yield platform
        finally:
            platform.stop_all()
            asyncio.run(drop_database(infra.database_url, name))
