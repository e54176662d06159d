"""Statistics and match histories per account and game: a projection of the log.

For each ``match.MatchEnded`` it reads the match's whole stream (the scoring service is a
platform service: every event) and writes one row per seated account — its score, rank
and the table's size — and that seat's counters (``tavola.leagues.statistics``), in the
same transaction as its cursor. Aggregates are sums over these rows, so a referee's
correction (``match.Correction``) only replaces its match's rows: a voided match has none,
a corrected one its corrected scores and ranks (its counters stay as played), each as
counted once the log reached that event (``services.scoring.corrected``).
"""

from __future__ import annotations

from typing import Any

from services.scoring.corrected import counted
from services.scoring.projection import Projection
from tavola.eventlog.model import StoredEvent
from tavola.leagues.results import ended_of
from tavola.leagues.statistics import match_statistics
from tavola.match.events import Correction

NAME = "statistics"
LOCK = 0x7A71_0002
ENDED = "match.MatchEnded"
CORRECTION = "match.Correction"


class StatisticsProjection(Projection):
    NAME = NAME
    LOCK = LOCK

    READS = frozenset({ENDED, CORRECTION})

    async def reset(self, conn: Any) -> None:
        await conn.execute("TRUNCATE player_matches, player_match_counters")

    async def apply(self, conn: Any, event: StoredEvent) -> None:
        match = await counted(self._store, event.stream_id, event.cursor)
        created = match.created
        if event.type == CORRECTION:
            await conn.execute("DELETE FROM player_matches WHERE match_id = $1", created.match_id)
            await conn.execute(
                "DELETE FROM player_match_counters WHERE match_id = $1", created.match_id
            )
        if match.result is None or match.result.voided or match.ended is None:
            return
        events = [r.event for r in match.records if not isinstance(r.event, Correction)]
        if ended_of(events) is None:
            return
        counters = match_statistics(created, events)
        seats = {s.seat: s for s in match.result.standings}
        ended_at = match.ended.recorded_at
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
                    ended_at,
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
