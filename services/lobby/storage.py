"""The lobby's Postgres adapters: the tables index (written with the table's events in one
transaction) and the account listing for admins."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg

from tavola.accounts.directory import AccountDirectory
from tavola.accounts.model import AccountState
from tavola.eventlog.model import NewEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.lobby.index import MAX_LIST, TableRow, row_of
from tavola.lobby.table import TableState, fold
from tavola.protocol import events as codec

SCHEMA = Path(__file__).with_name("schema.sql")
SCHEMA_LOCK = 0x10BB7


async def ensure_schema(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
        await conn.execute(SCHEMA.read_text())


_UPSERT = """
INSERT INTO lobby_tables (table_id, game, status, players, free_seats, host_account_id,
    host_name, match_id, house_rules, access, created_at_ms, version, members)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
ON CONFLICT (table_id) DO UPDATE SET status = EXCLUDED.status,
    free_seats = EXCLUDED.free_seats, house_rules = EXCLUDED.house_rules,
    version = EXCLUDED.version, members = EXCLUDED.members
WHERE lobby_tables.version < EXCLUDED.version
"""


class PostgresTableIndex:
    def __init__(self, pool: asyncpg.Pool, store: PostgresEventStore) -> None:
        self._pool = pool
        self._store = store

    async def append(
        self,
        stream_id: str,
        expected: int,
        events: Sequence[NewEvent],
        after: TableState,
        command_id: str | None = None,
        result: bytes = b"",
    ) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await self._store.append_in(
                conn, stream_id, expected, events, command_id=command_id, command_result=result
            )
            await _upsert(conn, row_of(after))

    async def list(
        self, game: str, statuses: Sequence[str], limit: int, member: str = ""
    ) -> list[TableRow]:
        rows = await self._pool.fetch(
            "SELECT * FROM lobby_tables WHERE status = ANY($1::text[])"
            " AND ($2 = '' OR game = $2) AND ($3 = '' OR $3 = ANY(members))"
            " ORDER BY created_at_ms DESC, table_id DESC LIMIT $4",
            list(statuses),
            game,
            member,
            min(limit, MAX_LIST),
        )
        return [_row(r) for r in rows]

    async def table_of_match(self, match_id: str) -> str | None:
        found: str | None = await self._pool.fetchval(
            "SELECT table_id FROM lobby_tables WHERE match_id = $1", match_id
        )
        return found

    async def rebuild(self) -> int:
        """Rebuild every row from the table streams; returns the tables seen."""
        streams = await self._pool.fetch(
            "SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE 'table-%' AND version = 1"
        )
        for item in streams:
            stored = await self._store.read_stream(item["stream_id"])
            state = fold([codec.decode_payload("", s.type, s.payload) for s in stored])
            async with self._pool.acquire() as conn:
                await conn.execute(
                    "DELETE FROM lobby_tables WHERE table_id = $1", state.created.table_id
                )
                await _upsert(conn, row_of(state))
        return len(streams)


async def _upsert(conn: Any, row: TableRow) -> None:
    await conn.execute(
        _UPSERT,
        row.table_id,
        row.game,
        row.status,
        row.players,
        row.free_seats,
        row.host_account_id,
        row.host_name,
        row.match_id,
        list(row.house_rules),
        row.access,
        row.created_at_ms,
        row.version,
        list(row.members),
    )


def _row(record: Any) -> TableRow:
    return TableRow(
        table_id=record["table_id"],
        game=record["game"],
        status=record["status"],
        players=record["players"],
        free_seats=record["free_seats"],
        host_account_id=record["host_account_id"],
        host_name=record["host_name"],
        match_id=record["match_id"],
        house_rules=tuple(record["house_rules"]),
        access=record["access"],
        created_at_ms=record["created_at_ms"],
        version=record["version"],
        members=tuple(record["members"]),
    )


def account_lister(pool: asyncpg.Pool, directory: AccountDirectory) -> Any:
    async def list_all() -> list[AccountState]:
        rows = await pool.fetch(
            "SELECT stream_id FROM events WHERE type = 'account.AccountCreated'"
        )
        found = []
        for row in rows:
            account = await directory.load(row["stream_id"].removeprefix("account-"))
            if account is not None:
                found.append(account)
        return found

    return list_all
