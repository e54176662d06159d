"""League standings: a projection of the league streams (``league.*``) in the log's order.

Its rows are ``tavola.leagues.standings`` over the league's fold, per season, division
and round (``after_round`` 0: every result so far), rewritten in the same transaction as
the cursor whenever an event changes them (a result, a seating's byes, a withdrawal, a
season's start or end). The folded leagues are cached as a speed-up only: a league whose
cached version is not the one before the event is read again from the log.
"""

from __future__ import annotations

import json
from typing import Any

from services.scoring.projection import Projection
from tavola.eventlog.model import StoredEvent
from tavola.leagues import codec, formats
from tavola.leagues.events import (
    Registered,
    ResultRecorded,
    RoundEnded,
    RoundSeated,
    RoundStarted,
    SeasonEnded,
    SeasonStarted,
    Withdrawn,
)
from tavola.leagues.standings import StandingRow, standings
from tavola.leagues.state import LeagueState, SeasonState, evolve, fold
from tavola.rules.interface import Event

NAME = "league_standings"
LOCK = 0x7A71_0003
CHANGES = (
    Registered,
    ResultRecorded,
    RoundEnded,
    RoundSeated,
    RoundStarted,
    SeasonEnded,
    SeasonStarted,
    Withdrawn,
)


class LeagueStandingsProjection(Projection):
    NAME = NAME
    LOCK = LOCK

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._leagues: dict[str, LeagueState] = {}

    READS = codec.LEAGUE_TYPES

    def forget(self) -> None:
        self._leagues.clear()

    async def reset(self, conn: Any) -> None:
        await conn.execute("TRUNCATE league_seasons, league_standings")

    async def apply(self, conn: Any, event: StoredEvent) -> None:
        decoded = codec.decode(event.type, event.payload)
        league = await self._fold(event, decoded)
        number = getattr(decoded, "season", None)
        season = league.season_of(number) if isinstance(number, int) else league.season
        if season is None:
            return
        await _write_season(conn, league, season)
        if not isinstance(decoded, CHANGES):
            return
        divisions = list(season.division_names())
        first = 1
        if isinstance(decoded, ResultRecorded):
            first = decoded.round
            round_ = season.rounds[decoded.round]
            table = next(
                (
                    t
                    for t in (round_.opened.tables if round_.opened else ())
                    if t.match_id == decoded.match_id
                ),
                None,
            )
            divisions = [table.division] if table else divisions
        for division in divisions:
            await _write_division(conn, league, season, division, first)

    async def _fold(self, event: StoredEvent, decoded: Event) -> LeagueState:
        cached = self._leagues.get(event.stream_id)
        if cached is not None and cached.version == event.version - 1:
            state = evolve(cached, decoded)
        else:
            stored = await self._store.read_stream(event.stream_id, limit=event.version)
            state = fold(codec.decode_stored(stored))
        self._leagues[event.stream_id] = state
        return state


async def _write_season(conn: Any, league: LeagueState, season: SeasonState) -> None:
    rounds = [r.round for r in season.ordered_rounds()]
    open_rounds = [r.round for r in season.ordered_rounds() if r.ended is None]
    moves = [
        {"entrant": m.entrant, "from": m.from_division, "to": m.to_division}
        for m in (season.ended.moves if season.ended else ())
    ]
    await conn.execute(
        "INSERT INTO league_seasons VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)"
        " ON CONFLICT (league_id, season) DO UPDATE SET divisions = excluded.divisions,"
        " rounds = excluded.rounds, open_rounds = excluded.open_rounds,"
        " ended = excluded.ended, moves = excluded.moves",
        league.league_id,
        season.number,
        league.created.name,
        league.game,
        list(season.division_names()),
        list(formats.tie_breaks(league.game, league.format)),
        rounds,
        open_rounds,
        season.ended is not None,
        json.dumps(moves),
        json.dumps({o.name: o.value for o in season.started.options}),
    )


async def _write_division(
    conn: Any, league: LeagueState, season: SeasonState, division: str, first: int
) -> None:
    """Rewrite the division's standings after each round from ``first`` on, and now."""
    numbers = [r.round for r in season.ordered_rounds() if r.round >= first]
    await conn.execute(
        "DELETE FROM league_standings WHERE league_id = $1 AND season = $2 AND division = $3"
        " AND (after_round = 0 OR after_round >= $4)",
        league.league_id,
        season.number,
        division,
        first,
    )
    rows = []
    for after in [*numbers, 0]:
        table = standings(league, season, division, after or None)
        rows += [_row(league, season, division, after, line) for line in table]
    await conn.executemany(
        "INSERT INTO league_standings VALUES"
        " ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14, clock_timestamp())",
        rows,
    )


def _row(
    league: LeagueState, season: SeasonState, division: str, after: int, line: StandingRow
) -> tuple[Any, ...]:
    return (
        league.league_id,
        season.number,
        division,
        after,
        line.rank,
        line.entrant,
        line.name,
        float(line.points),
        json.dumps([[name, float(value)] for name, value in line.columns]),
        line.played,
        line.byes,
        line.absences,
        line.withdrawn,
        list(line.rounds),
    )
