"""Match seeds kept beside the log (``match_secrets`` table), never in a stream before reveal.

The stream shows only the seed's commitment at the start of a match; when the match ends
the engine appends the seed itself and marks the secret revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeAlias

import asyncpg

from tavola.eventlog.chain import as_utc
from tavola.eventlog.errors import EventLogError

Executor: TypeAlias = asyncpg.Pool | asyncpg.Connection


class MatchSecretConflict(EventLogError):
    """A different seed is already stored for this match."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} already has a different secret")
        self.match_id = match_id


class UnknownMatchSecret(EventLogError, LookupError):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"no secret stored for match {match_id!r}")
        self.match_id = match_id


@dataclass(frozen=True)
class MatchSecret:
    match_id: str
    seed: bytes
    commitment: str
    created_at: datetime
    revealed: bool


_COLUMNS = "match_id, seed, commitment, created_at, revealed"


async def store_match_secret(
    executor: Executor, match_id: str, seed: bytes, commitment: str, created_at: datetime
) -> MatchSecret:
    """Store a match's seed; storing the very same seed again is a harmless retry."""
    row: Any = await executor.fetchrow(
        f"INSERT INTO match_secrets ({_COLUMNS}) VALUES ($1, $2, $3, $4, false) "
        f"ON CONFLICT (match_id) DO NOTHING RETURNING {_COLUMNS}",
        match_id,
        seed,
        commitment,
        as_utc(created_at),
    )
    if row is not None:
        return _secret(row)
    existing = await load_match_secret(executor, match_id)
    if existing is None or existing.seed != seed or existing.commitment != commitment:
        raise MatchSecretConflict(match_id)
    return existing


async def load_match_secret(executor: Executor, match_id: str) -> MatchSecret | None:
    row: Any = await executor.fetchrow(
        f"SELECT {_COLUMNS} FROM match_secrets WHERE match_id = $1", match_id
    )
    return None if row is None else _secret(row)


async def mark_revealed(executor: Executor, match_id: str) -> MatchSecret:
    """Flag the seed as revealed (idempotent); raises ``UnknownMatchSecret`` if absent."""
    row: Any = await executor.fetchrow(
        f"UPDATE match_secrets SET revealed = true WHERE match_id = $1 RETURNING {_COLUMNS}",
        match_id,
    )
    if row is None:
        raise UnknownMatchSecret(match_id)
    return _secret(row)


def _secret(row: Any) -> MatchSecret:
    return MatchSecret(
        match_id=row["match_id"],
        seed=row["seed"],
        commitment=row["commitment"],
        created_at=row["created_at"],
        revealed=row["revealed"],
    )
