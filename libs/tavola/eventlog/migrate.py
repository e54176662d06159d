"""Versioned schema migrations: ``migrations/NNNN_name.sql``, applied in order, once.

``migrate`` holds a Postgres advisory lock while it works, so services starting together
apply each migration exactly once; every migration runs in its own transaction together
with its row in ``schema_migrations``. A recorded migration whose file has since changed
is refused (``MigrationError``) rather than silently skipped.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import asyncpg

from tavola.eventlog.errors import MigrationError

PACKAGE = "tavola.eventlog.migrations"
LOCK_KEY = int.from_bytes(b"tavolaEL", "big", signed=True)
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     integer PRIMARY KEY,
    name        text NOT NULL,
    checksum    text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
)
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def shipped_migrations() -> list[Migration]:
    """The migrations packaged with this library, in version order."""
    found: list[Migration] = []
    for entry in resources.files(PACKAGE).iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text("utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"two migrations share a version: {versions}")
    return found


async def migrate(pool_or_dsn: asyncpg.Pool | str) -> list[int]:
    """Bring the schema up to date; returns the versions applied by this call."""
    if isinstance(pool_or_dsn, str):
        conn = await asyncpg.connect(pool_or_dsn)
        try:
            return await _migrate_locked(conn)
        finally:
            await conn.close()
    async with pool_or_dsn.acquire() as conn:
        return await _migrate_locked(conn)


async def _migrate_locked(conn: Any) -> list[int]:
    await conn.execute("SELECT pg_advisory_lock($1)", LOCK_KEY)
    try:
        await conn.execute(_CREATE_TABLE)
        return await _apply_pending(conn, shipped_migrations())
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", LOCK_KEY)


async def _apply_pending(conn: Any, migrations: list[Migration]) -> list[int]:
    rows = await conn.fetch("SELECT version, checksum FROM schema_migrations")
    recorded: dict[int, str] = {row["version"]: row["checksum"] for row in rows}
    applied: list[int] = []
    for migration in migrations:
        if migration.version in recorded:
            _check_unchanged(migration, recorded[migration.version])
            continue
        async with conn.transaction():
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                migration.checksum,
            )
        applied.append(migration.version)
    return applied


def _check_unchanged(migration: Migration, recorded_checksum: str) -> None:
    if migration.checksum != recorded_checksum:
        raise MigrationError(
            f"migration {migration.version:04d}_{migration.name} changed after it was applied"
        )
