"""``make bench``'s league figures: a round of 50 tables played and scored, and the lag of
every projection (the platform as processes, 200 bot accounts as API clients)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import asyncpg

from tavola.accounts.model import Kind
from tavola.cli.platform import Platform
from tavola.leagues.simulation import figures
from tavola.leagues.simulation.harness import Harness
from tavola.leagues.simulation.season import SHORT
from tavola.v1 import league_pb2


@dataclass(frozen=True, slots=True)
class RoundBench:
    game: str
    tables: int
    moves: int
    play_seconds: float  # the round's start to its last result recorded (RoundEnded)
    scored_seconds: float  # the round's start to its standings rewritten with it
    lags: dict[str, figures.Lag]


async def round_of_tables(platform: Platform, accounts: int, game: str) -> RoundBench:
    harness = Harness(platform.address, platform.token)
    try:
        (host,) = await harness.make_accounts(1, "host", Kind.HOST)
        players = await harness.make_accounts(accounts, "bench", Kind.BOT)
        fmt = league_pb2.LeagueFormat(
            check_in_seconds=15, fill_level="easy", bot_accounts=True, table_sizes=[4]
        )
        league = await harness.create_league(host, game, dict(SHORT[game]), fmt, "bench")
        await harness.register(league.league_id, players, teams=False)
        await harness.call(
            harness.league.StartSeason,
            league_pb2.StartSeasonRequest(league_id=league.league_id, divisions=1),
            host.token,
        )
        number = await harness.schedule(host, league.league_id, 15)
        played = await harness.play_round(league.league_id, number, players, set(), host.token)
    finally:
        await harness.close()
    database = platform.database_url
    await figures.caught_up(database)
    stream = f"league-{league.league_id}"
    conn = await asyncpg.connect(database)
    try:
        times = await conn.fetchrow(
            "SELECT (SELECT recorded_at FROM events WHERE stream_id = $1"
            "  AND type = 'league.RoundStarted') AS started,"
            " (SELECT recorded_at FROM events WHERE stream_id = $1"
            "  AND type = 'league.RoundEnded') AS ended,"
            " (SELECT a.applied_at FROM projection_applied a JOIN events e"
            "  ON e.stream_id = a.stream_id AND e.version = a.version"
            "  WHERE a.name = 'league_standings' AND e.stream_id = $1"
            "  AND e.type = 'league.RoundEnded') AS scored",
            stream,
        )
    finally:
        await conn.close()
    matches = [f"match-{m}" for m in played.match_ids]
    lags = {
        "statistics": await figures.projection_lag(database, "statistics", matches),
        "ratings": await figures.projection_lag(database, "ratings", matches),
        "league_standings": await figures.projection_lag(database, "league_standings", [stream]),
    }
    return RoundBench(
        game,
        played.tables,
        played.moves,
        (times["ended"] - times["started"]).total_seconds(),
        (times["scored"] - times["started"]).total_seconds(),
        lags,
    )


def run(platform: Platform, accounts: int = 200, game: str = "fan-tan") -> RoundBench:
    return asyncio.run(round_of_tables(platform, accounts, game))
