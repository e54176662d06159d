"""Statistics and match histories per account and game: a projection of the log.

For each ``match.MatchEnded`` it reads the match's whole stream (the scoring service is a
platform service: every event) and writes one row per seated account — its score, rank
and the table's size — and that seat's counters (``tavola.leagues.statistics``), in the
same transaction as its cursor. Aggregates are sums over these rows, so a corrected match
(another issue's referee correction) would only replace its own rows.
"""

from __future__ import annotations

from typing import Any

from services.scoring.projection import Projection
from tavola.eventlog.model import StoredEvent
from tavola.leagues.results import ended_of
from tavola.leagues.statistics import match_statistics
from tavola.match.events import MatchCreated
from tavola.protocol import events as codec

NAME = "statistics"
LOCK = 0x7A71_0002
ENDED = "match.MatchEnded"


class StatisticsProjection(Projection):
    NAME = NAME
    LOCK = LOCK

    def wants(self, event: StoredEvent) -> bool:
        return event.type == ENDED

    async def reset(self, conn: Any) -> None:
        await conn.execute("TRUNCATE player_matches, player_match_counters")

    async def apply(self, conn: Any, event: StoredEvent) -> None:
        stored = await self._store.read_stream(event.stream_id)
        created = codec.decode_payload("", stored[0].type, stored[0].payload)
        assert isinstance(created, MatchCreated)
        events = [codec.decode_payload(created.game, s.type, s.payload) for s in stored]
        ended = ended_of(events)
        if ended is None:
            return
        counters = match_statistics(created, events)
        seats = {s.seat: s for s in ended.standings}
        people = [s for s in created.seats if s.account_id and not s.bot_level]
        await conn.executemany(
            "INSERT INTO player_matches VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9, clock_timestamp())"
            " ON CONFLICT (match_id, seat) DO NOTHING",
            [
                (
                    created.match_id,
                    seat.seat,
                    seat.account_id,
                    seat.player_name,
                    created.game,
                    seats[seat.seat].score,
                    seats[seat.seat].rank,
                    len(created.seats),
                    event.recorded_at,
                )
                for seat in people
            ],
        )
        await conn.executemany(
            "INSERT INTO player_match_counters VALUES ($1,$2,$3,$4,$5,$6)"
            " ON CONFLICT (match_id, seat, key) DO NOTHING",
            [
                (created.match_id, seat.seat, seat.account_id, created.game, key, value)
                for seat in people
                for key, value in sorted(counters[seat.seat].items())
            ],
        )
