"""The standings projection and its queries."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg
import structlog

from services.scoring import metrics
from services.scoring.corrected import counted
from services.scoring.ratings import check_game, rating_pb
from tavola.accounts.model import NameClaimed, name_stream
from tavola.eventlog.model import Cursor, EventStore, StoredEvent
from tavola.match.events import MatchCreated, MatchEnded
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules.interface import SeatScore
from tavola.v1 import scoring_pb2

log = structlog.get_logger(__name__)
SCHEMA = Path(__file__).with_name("schema.sql")
SCHEMA_LOCK = 0x5C0 + 1
LOCK = 0x5C0 + 2  # with the match's stream: its rows are written one writer at a time
ENDED = "match.MatchEnded"
_ENDS = frozenset({ENDED})


async def _write(
    conn: Any, created: MatchCreated, standings: tuple[SeatScore, ...], voided: bool
) -> None:
    """The match's rows: its result as counted (``voided``: it counts for nothing)."""
    await conn.executemany(
        "INSERT INTO match_standings (match_id, seat, game, player_name, is_bot, score,"
        " rank, house_rules, account_id, voided) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"
        " ON CONFLICT (match_id, seat) DO UPDATE SET score = excluded.score,"
        " rank = excluded.rank, voided = excluded.voided",
        [
            (
                created.match_id,
                s.seat,
                created.game,
                created.seats[s.seat].player_name,
                created.seats[s.seat].is_bot,
                s.score,
                s.rank,
                bool(created.house_rules),
                "" if created.seats[s.seat].bot_level else created.seats[s.seat].account_id,
                voided,
            )
            for s in standings
        ],
    )


async def ensure_schema(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
        await conn.execute(SCHEMA.read_text())


class Scoring:
    def __init__(self, pool: asyncpg.Pool, store: EventStore) -> None:
        self._pool = pool
        self._store = store

    async def apply(self, event_id: UUID, match_stream: str, payload: bytes) -> bool:
        """Apply one MatchEnded effectively once; False if it was already applied. The
        rows hold the result as counted: with the corrections already filed (a correction
        the standings projection saw before this end arrived is not lost)."""
        first = await self._store.read_stream(match_stream, limit=1)
        if not first:
            log.warning("standings.unknown_match", stream=match_stream)
            metrics.RESULTS.labels(outcome="unknown_match").inc()
            return False
        created = codec.decode_payload("", first[0].type, first[0].payload)
        assert isinstance(created, MatchCreated)
        async with self._pool.acquire() as conn, conn.transaction():
            fresh = await conn.fetchval(
                "INSERT INTO scoring_processed (event_id) VALUES ($1) "
                "ON CONFLICT DO NOTHING RETURNING true",
                event_id,
            )
            if not fresh:
                metrics.RESULTS.labels(outcome="duplicate").inc()
                return False
            await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCK, match_stream)
            match = await counted(self._store, match_stream)
            if match.result is None:  # the end in the payload (always in the stream too)
                ended = codec.decode_payload(created.game, ENDED, payload)
                assert isinstance(ended, MatchEnded)
                await _write(conn, created, ended.standings, voided=False)
            else:
                await _write(conn, created, match.result.standings, match.result.voided)
        metrics.RESULTS.labels(outcome="applied").inc()
        log.info("standings.recorded", match_id=created.match_id, game=created.game)
        return True

    async def correct(self, conn: Any, stream_id: str) -> None:
        """A correction was filed (``StandingsCorrections``): rewrite the match's rows if
        its end has been applied (else its end will count the correction)."""
        await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCK, stream_id)
        match = await counted(self._store, stream_id)
        if match.result is None:
            return
        match_id = match.created.match_id
        if not await conn.fetchval(
            "SELECT true FROM match_standings WHERE match_id = $1 LIMIT 1", match_id
        ):
            return
        await _write(conn, match.created, match.result.standings, match.result.voided)
        log.info("standings.corrected", match_id=match_id, voided=match.result.voided)

    async def _account_of(self, name: str) -> str:
        """The account holding a display name ("" when none does)."""
        stored = await self._store.read_stream(name_stream(name), limit=1) if name else []
        if not stored:
            return ""
        claim = codec.decode_payload("", stored[0].type, stored[0].payload)
        return claim.account_id if isinstance(claim, NameClaimed) else ""

    async def apply_stored(self, event: StoredEvent) -> bool:
        return await self.apply(event.event_id, event.stream_id, event.payload)

    async def rebuild(self) -> int:
        """Throw the projection away and rebuild it from the whole log; returns matches.
        (Each match's rows count every correction in the log now.)"""
        async with self._pool.acquire() as conn:
            await conn.execute("TRUNCATE scoring_processed, match_standings")
        count = 0
        cursor = Cursor.START
        while True:
            batch, reach = await self._store.read_all_of(_ENDS, cursor)
            for event in batch:
                if await self.apply_stored(event):
                    count += 1
            if reach == cursor:
                return count
            cursor = reach

    async def match_standings(
        self, request: scoring_pb2.GetMatchStandingsRequest
    ) -> scoring_pb2.GetMatchStandingsResponse:
        rows: list[Any] = await self._pool.fetch(
            "SELECT * FROM match_standings WHERE match_id = $1 ORDER BY seat", request.match_id
        )
        if not rows:
            raise errors.not_found("match.not_found", match_id=request.match_id)
        return scoring_pb2.GetMatchStandingsResponse(
            match_id=request.match_id,
            game=rows[0]["game"],
            house_rules=rows[0]["house_rules"],
            voided=rows[0]["voided"],
            lines=[
                scoring_pb2.MatchStandingLine(
                    seat=r["seat"],
                    player_name=r["player_name"],
                    score=r["score"],
                    rank=r["rank"],
                    is_bot=r["is_bot"],
                    account_id=r["account_id"],
                )
                for r in rows
            ],
        )

    async def player_standings(
        self, request: scoring_pb2.GetPlayerStandingsRequest
    ) -> scoring_pb2.GetPlayerStandingsResponse:
        check_game(request.game)
        account_id = await self._account_of(request.player_name)
        row: Any = await self._pool.fetchrow(
            "SELECT count(*) AS matches, count(*) FILTER (WHERE rank = 1) AS wins,"
            " coalesce(sum(rank), 0) AS rank_sum FROM match_standings"
            " WHERE NOT voided"
            " AND (account_id = $1 OR (account_id = '' AND player_name = $2 AND NOT is_bot))"
            " AND ($3 = '' OR game = $3)",
            account_id,
            request.player_name,
            request.game,
        )
        ratings = await self._pool.fetch(
            "SELECT * FROM ratings WHERE player = ANY($1::text[]) AND ($2 = '' OR game = $2)"
            " ORDER BY game, player",
            [account_id, f"name:{request.player_name}"],
            request.game,
        )
        return scoring_pb2.GetPlayerStandingsResponse(
            ratings=[rating_pb(r) for r in ratings],
            player_name=request.player_name,
            matches=row["matches"],
            wins=row["wins"],
            rank_sum=row["rank_sum"],
        )
