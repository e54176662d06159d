"""Accounts written straight into a platform's log: how an installation gets its first
admin (``tavola up``, ``tavola account add --database``) before anyone holds a token."""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import asyncpg

from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.accounts.model import AccountState, Kind
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore

Work = Callable[[AccountDirectory], Awaitable[tuple[AccountState, str]]]


def directory_over(pool: asyncpg.Pool) -> AccountDirectory:
    return AccountDirectory(
        DirectoryPorts(
            store=PostgresEventStore(pool, clock=lambda: datetime.now(UTC)),
            new_id=uuid.uuid4,
            new_secret=lambda: secrets.token_urlsafe(32),
            new_token_id=lambda: secrets.token_hex(6),
            now_ms=lambda: time.time_ns() // 1_000_000,
        )
    )


async def _with_directory(database_url: str, work: Work) -> tuple[AccountState, str]:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        await migrate(pool)
        return await work(directory_over(pool))
    finally:
        await pool.close()


async def ensure_account(
    database_url: str, name: str, kind: Kind, label: str
) -> tuple[AccountState, str]:
    """The account ``name`` of ``kind`` (created if missing) and a new token for it."""
    return await _with_directory(database_url, lambda d: d.ensure(name, kind, label))


async def create_account(
    database_url: str, name: str, kind: Kind, label: str
) -> tuple[AccountState, str]:
    """A new account (refused when the name is taken) and its first token."""

    async def create(directory: AccountDirectory) -> tuple[AccountState, str]:
        account, text, _ = await directory.create(name, kind, label=label)
        return account, text

    return await _with_directory(database_url, create)
