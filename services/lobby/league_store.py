"""Where the lobby keeps leagues: their streams ``league-<id>`` in the log, a listing and a
match index written in the same transaction as the events, and the rounds' seeds.

``load`` catches up from the log every time (the cached fold is a speed-up only: another
lobby instance may have appended), so every instance sees the same league.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg

from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.leagues import codec
from tavola.leagues.events import RoundOpened
from tavola.leagues.state import LeagueState, evolve
from tavola.rules.interface import Event

SCHEMA = Path(__file__).with_name("league_schema.sql")
SCHEMA_LOCK = 0x10BB7 + 1
MAX_LIST = 200


async def ensure_schema(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
        await conn.execute(SCHEMA.read_text())


@dataclass(frozen=True, slots=True)
class LeagueRow:
    league_id: str
    name: str
    game: str
    host_name: str
    created_at_ms: int


class LeagueStore:
    def __init__(self, pool: asyncpg.Pool, store: PostgresEventStore) -> None:
        self._pool = pool
        self._store = store
        self._cache: dict[str, LeagueState] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, league_id: str) -> asyncio.Lock:
        return self._locks.setdefault(league_id, asyncio.Lock())

    async def load(self, league_id: str) -> LeagueState | None:
        cached = self._cache.get(league_id)
        after = cached.version if cached else 0
        stored = await self._store.read_stream(codec.stream_of(league_id), after_version=after)
        state = cached
        for event in codec.decode_stored(stored):
            state = evolve(state, event)
        if state is not None:
            self._cache[league_id] = state
        return state

    async def append(
        self,
        before: LeagueState | None,
        events: Sequence[Event],
        new_id: Callable[[], UUID],
        command_id: str | None = None,
    ) -> LeagueState:
        """Append after ``before`` (``None``: a new league), with the listing and the match
        index, atomically; raises ``ConcurrencyConflict`` if another writer got there."""
        after = before
        for event in events:
            after = evolve(after, event)
        assert after is not None
        if not events:
            return after
        stream = codec.stream_of(after.league_id)
        async with self._pool.acquire() as conn, conn.transaction():
            await self._store.append_in(
                conn,
                stream,
                before.version if before else 0,
                codec.new_events(events, new_id),
                command_id=command_id,
            )
            await conn.execute(
                "INSERT INTO lobby_leagues VALUES ($1, $2, $3, $4, $5, $6, $7)"
                " ON CONFLICT (league_id) DO UPDATE SET version = excluded.version",
                after.league_id,
                after.created.name,
                after.game,
                after.created.host_account_id,
                after.created.host_name,
                after.created.created_at_ms,
                after.version,
            )
            matches = [
                (t.match_id, after.league_id)
                for e in events
                if isinstance(e, RoundOpened)
                for t in e.tables
            ]
            if matches:
                await conn.executemany(
                    "INSERT INTO lobby_league_matches VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    matches,
                )
        self._cache[after.league_id] = after
        return after

    async def listing(self, game: str, limit: int) -> list[LeagueRow]:
        rows: list[Any] = await self._pool.fetch(
            "SELECT * FROM lobby_leagues WHERE ($1 = '' OR game = $1)"
            " ORDER BY created_at_ms DESC, league_id LIMIT $2",
            game,
            min(limit, MAX_LIST),
        )
        return [
            LeagueRow(r["league_id"], r["name"], r["game"], r["host_name"], r["created_at_ms"])
            for r in rows
        ]

    async def league_ids(self) -> list[str]:
        rows: list[Any] = await self._pool.fetch("SELECT league_id FROM lobby_leagues")
        return [r["league_id"] for r in rows]

    async def league_of_match(self, match_id: str) -> str | None:
        found: str | None = await self._pool.fetchval(
            "SELECT league_id FROM lobby_league_matches WHERE match_id = $1", match_id
        )
        return found

    async def save_seed(
        self, league_id: str, season: int, round_: int, commitment: str, seed: bytes
    ) -> None:
        await self._pool.execute(
            "INSERT INTO league_round_secrets (league_id, season, round, commitment, seed)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            league_id,
            season,
            round_,
            commitment,
            seed,
        )

    async def seed(self, league_id: str, season: int, round_: int, commitment: str) -> bytes:
        found: bytes | None = await self._pool.fetchval(
            "SELECT seed FROM league_round_secrets WHERE league_id = $1 AND season = $2"
            " AND round = $3 AND commitment = $4",
            league_id,
            season,
            round_,
            commitment,
        )
        if found is None:
            raise LookupError(f"no seed for {league_id} {season}/{round_}")
        return found

    async def read_match(self, match_id: str) -> list[StoredEvent]:
        """The stored events of a match (the lobby is a platform service: all of them)."""
        return await self._store.read_stream(f"match-{match_id}")

    async def match_ended(self, match_id: str) -> bool:
        """Whether the match's stream has its ``match.MatchEnded`` (read from its tail; a
        referee's corrections may follow the end, so the whole stream if they do)."""
        stream = f"match-{match_id}"
        version = await self._store.stream_version(stream)
        tail = await self._store.read_stream(stream, after_version=max(0, version - 3))
        if tail and tail[-1].type == "match.Correction":
            tail = await self._store.read_stream(stream)
        return any(e.type == "match.MatchEnded" for e in tail)

    async def rebuild(self) -> int:
        """Rebuild the listing and the match index from the league streams."""
        streams = await self._pool.fetch(
            "SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE 'league-%' AND version = 1"
        )
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("TRUNCATE lobby_leagues, lobby_league_matches")
            for item in streams:
                stored = await self._store.read_stream(item["stream_id"])
                state = None
                for event in codec.decode_stored(stored):
                    state = evolve(state, event)
                    if isinstance(event, RoundOpened):
                        await conn.executemany(
                            "INSERT INTO lobby_league_matches VALUES ($1, $2)"
                            " ON CONFLICT DO NOTHING",
                            [(t.match_id, state.league_id) for t in event.tables],
                        )
                assert state is not None
                c = state.created
                await conn.execute(
                    "INSERT INTO lobby_leagues VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    c.league_id,
                    c.name,
                    c.game,
                    c.host_account_id,
                    c.host_name,
                    c.created_at_ms,
                    state.version,
                )
        return len(streams)
