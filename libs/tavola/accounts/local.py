"""Accounts written straight into a platform's log: how an installation gets its first
admin (``tavola up``, ``tavola account add --database``) before anyone holds a token."""

from __future__ import annotations

import secrets
import time
import uuid
from datetime import UTC, datetime

import asyncpg

from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.accounts.model import AccountState, Kind
from tavola.eventlog.migrate import migrate
from tavola.eventlog.postgres import PostgresEventStore


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


async def ensure_account(
    database_url: str, name: str, kind: Kind, label: str
) -> tuple[AccountState, str]:
    """The account ``name`` of ``kind`` (created if missing) and a new token for it."""
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        await migrate(pool)
        return await directory_over(pool).ensure(name, kind, label)
    finally:
        await pool.close()


async def create_account(
    database_url: str, name: str, kind: Kind, label: str
) -> tuple[AccountState, str]:
    """A new account (refused when the name is taken) and its first token."""
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        await migrate(pool)
        account, text, _ = await directory_over(pool).create(name, kind, label=label)
        return account, text
    finally:
        await pool.close()
