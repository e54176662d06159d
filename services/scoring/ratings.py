"""Ratings: OpenSkill (Plackett-Luce) per game, partnerships rated as teams.

A projection of the log, in the log's global order (so rebuilding gives the very same
ratings): it tails the event store from its saved cursor and, for each ``MatchEnded``,
updates the ratings and saves its cursor in the same transaction (effectively once).
Rated: matches whose seats are all people or third-party bots, under distinct names (a
table filled by the platform's bots measures nothing about its players).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import asyncpg
import structlog
from openskill.models import PlackettLuce

from tavola.eventlog.model import Cursor, EventStore, StoredEvent
from tavola.eventlog.tracking import load_position, save_position
from tavola.match.events import MatchCreated, MatchEnded, SeatInfo
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules import registry
from tavola.v1 import scoring_pb2

log = structlog.get_logger(__name__)
NAME = "ratings"
LOCK = 0x7A71_0001  # advisory lock key of the ratings projection (rebuild vs live)
ENDED = "match.MatchEnded"
MODEL = PlackettLuce()


def seat_key(seat: SeatInfo) -> str:
    """Whom a seat's result counts for: its account (matches recorded before accounts
    existed: its name)."""
    return seat.account_id or f"name:{seat.player_name}"


def is_rated(created: MatchCreated) -> bool:
    """Rated when no seat is the platform's bot and every seat is another player."""
    keys = [seat_key(s) for s in created.seats]
    return len(set(keys)) == len(keys) and not any(s.bot_level for s in created.seats)


def teams_of(created: MatchCreated) -> list[list[int]]:
    """Seats grouped into rated teams: partnerships in four-player team games."""
    players = len(created.seats)
    if registry.get(created.game).info.teams and players == 4:
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(players)]


class RatingsProjection:
    def __init__(self, pool: asyncpg.Pool, store: EventStore) -> None:
        self._pool = pool
        self._store = store

    async def run(self, stop: asyncio.Event, poll: float = 0.5) -> None:
        cursor = await load_position(self._pool, NAME)
        while not stop.is_set():
            batch = await self._store.read_all(cursor, 500)
            for event in batch:
                await self._apply(event)
                cursor = event.cursor
            if not batch:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), poll)

    async def catch_up(self) -> None:
        """Apply everything committed so far (tests and rebuilds)."""
        cursor = await load_position(self._pool, NAME)
        while batch := await self._store.read_all(cursor, 500):
            for event in batch:
                await self._apply(event)
                cursor = event.cursor

    async def rebuild(self) -> None:
        """Recompute every rating from the log, while the service may be running: the
        rebuild holds the projection's lock exclusively, so a live projector waits, then
        skips what the rebuild already applied (ratings depend on the order of matches)."""
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", LOCK)
            try:
                async with conn.transaction():
                    await conn.execute("TRUNCATE ratings")
                    await conn.execute("DELETE FROM tracking WHERE name = $1", NAME)
                cursor = Cursor.START
                while batch := await self._store.read_all(cursor, 500):
                    for event in batch:
                        await self._apply_on(conn, event)
                        cursor = event.cursor
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", LOCK)

    async def _apply(self, event: StoredEvent) -> None:
        async with self._pool.acquire() as conn:
            await self._apply_on(conn, event, shared=True)

    async def _apply_on(self, conn: Any, event: StoredEvent, shared: bool = False) -> None:
        if event.type != ENDED and event.type != "match.MatchCreated":
            return
        async with conn.transaction():
            if shared:  # waits while a rebuild holds the lock
                await conn.execute("SELECT pg_advisory_xact_lock_shared($1)", LOCK)
            if await load_position(conn, NAME) >= event.cursor:
                return  # already applied (by a rebuild or another instance)
            if event.type == ENDED:
                await self._rate(conn, event)
            await save_position(conn, NAME, event.cursor)

    async def _rate(self, conn: Any, event: StoredEvent) -> None:
        first = await self._store.read_stream(event.stream_id, limit=1)
        created = codec.decode_payload("", first[0].type, first[0].payload)
        assert isinstance(created, MatchCreated)
        ended = codec.decode_payload(created.game, ENDED, event.payload)
        assert isinstance(ended, MatchEnded)
        if not is_rated(created):
            return
        keys = [seat_key(s) for s in created.seats]
        names = {seat_key(s): s.player_name for s in created.seats}
        current = await _load(conn, created.game, keys)
        teams = teams_of(created)
        rank = {s.seat: s.rank for s in ended.standings}
        rated = MODEL.rate(
            [[current[keys[seat]] for seat in team] for team in teams],
            ranks=[min(rank[seat] for seat in team) for team in teams],
        )
        updates = {
            keys[seat]: rating
            for team, new in zip(teams, rated, strict=True)
            for seat, rating in zip(team, new, strict=True)
        }
        await conn.executemany(
            "INSERT INTO ratings (player, game, mu, sigma, matches, name)"
            " VALUES ($1,$2,$3,$4,1,$5)"
            " ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, matches = ratings.matches + 1, name = excluded.name",
            [(key, created.game, r.mu, r.sigma, names[key]) for key, r in sorted(updates.items())],
        )
        log.info("ratings.updated", match_id=created.match_id, game=created.game)


async def _load(conn: Any, game: str, keys: Sequence[str]) -> dict[str, Any]:
    rows = await conn.fetch(
        "SELECT player, mu, sigma FROM ratings WHERE game = $1 AND player = ANY($2::text[])"
        " ORDER BY player FOR UPDATE",
        game,
        list(set(keys)),
    )
    found = {
        r["player"]: MODEL.rating(mu=r["mu"], sigma=r["sigma"], name=r["player"]) for r in rows
    }
    return {key: found.get(key) or MODEL.rating(name=key) for key in keys}


MAX_LADDER = 500


def check_game(game: str, required: bool = False) -> None:
    """A game named in a request must be one the platform hosts."""
    if not game and not required:
        return
    if game not in registry.names():
        raise errors.invalid("game.unknown", game=game)


def rating_pb(row: Any) -> scoring_pb2.Rating:
    key = row["player"]
    return scoring_pb2.Rating(
        player=row["name"] or key.removeprefix("name:"),
        account_id="" if key.startswith("name:") else key,
        mu=row["mu"],
        sigma=row["sigma"],
        ordinal=row["mu"] - 3 * row["sigma"],
        matches=row["matches"],
    )


async def ladder(
    pool: asyncpg.Pool, request: scoring_pb2.GetRatingsRequest
) -> scoring_pb2.GetRatingsResponse:
    check_game(request.game, required=True)
    if not 0 <= request.limit <= MAX_LADDER:
        raise errors.invalid("request.invalid", field="limit", detail=f"0 to {MAX_LADDER}")
    rows = await pool.fetch(
        "SELECT * FROM ratings WHERE game = $1 ORDER BY mu - 3 * sigma DESC, player LIMIT $2",
        request.game,
        request.limit or 50,
    )
    return scoring_pb2.GetRatingsResponse(game=request.game, ratings=[rating_pb(r) for r in rows])
