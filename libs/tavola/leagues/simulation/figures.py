"""Figures of a simulated season, read from the platform's database: projection lag, the
seating's evenness, and whether a rebuild of every projection gives the same rows."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from tavola.leagues import codec
from tavola.leagues.seating import BOT, Evenness, evenness
from tavola.leagues.state import LeagueState, fold, team_key

SNAPSHOT = {
    "ratings": "SELECT player, game, mu, sigma, matches, name FROM ratings ORDER BY 1, 2",
    "rating_history": "SELECT * FROM rating_history ORDER BY 1, 2, 3, 4",
    "player_matches": "SELECT match_id, seat, account_id, game, score, rank, players"
    " FROM player_matches ORDER BY 1, 2",
    "player_match_counters": "SELECT * FROM player_match_counters ORDER BY 1, 2, 5",
    "league_standings": "SELECT league_id, season, division, after_round, rank, entrant,"
    " points, columns, played, byes, absences, withdrawn, rounds"
    " FROM league_standings ORDER BY 1, 2, 3, 4, 5",
}
WANTED = {  # what each projection folds (a referee's correction: several of them)
    "ratings": "type IN ('match.MatchEnded', 'league.RoundOpened', 'match.Correction')",
    "statistics": "type IN ('match.MatchEnded', 'match.Correction')",
    "standings_corrections": "type = 'match.Correction'",
    "league_standings": "type LIKE 'league.%'",
}


@dataclass(frozen=True, slots=True)
class Lag:
    count: int
    p50: float
    p99: float

    def line(self) -> str:
        return f"n={self.count} p50 {self.p50 * 1000:.0f} ms, p99 {self.p99 * 1000:.0f} ms"


def quantiles(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    if len(values) == 1:
        return values[0], values[0]
    q = statistics.quantiles(values, n=100, method="inclusive")
    return q[49], q[98]


async def league(database_url: str, league_id: str) -> LeagueState:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT type, payload FROM events WHERE stream_id = $1 ORDER BY version",
            codec.stream_of(league_id),
        )
    finally:
        await conn.close()
    return fold(codec.decode(r["type"], r["payload"]) for r in rows)


async def projection_lag(database_url: str, name: str, streams: Sequence[str]) -> Lag:
    """From each event's commit to the live projector's transaction applying it (the
    events of ``streams`` that projection ``name`` wants)."""
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT extract(epoch FROM applied_at - recorded_at) AS lag FROM projection_applied"
            " WHERE name = $1 AND stream_id = ANY($2::text[])",
            name,
            list(streams),
        )
    finally:
        await conn.close()
    lags = sorted(max(0.0, float(r["lag"])) for r in rows)
    p50, p99 = quantiles(lags)
    return Lag(len(lags), p50, p99)


def division_evenness(state: LeagueState, season: int = 0) -> dict[str, Evenness]:
    chosen = state.season_of(season) if season else state.seasons[-1]
    assert chosen is not None
    out = {}
    for division in chosen.division_names():
        rounds = [
            [t.seats for t in r.seated[division].tables]
            for r in chosen.ordered_rounds()
            if division in r.seated
        ]
        roster = sorted({a for tables in rounds for t in tables for a in t if a != BOT})
        out[division] = evenness(rounds, roster)
    return out


def team_pairings(state: LeagueState, season: int = 0) -> dict[str, tuple[int, int]]:
    """Per division: the pairs of teams that met more than once, and the most byes a
    team had (Swiss: no avoidable rematch, at most one bye each)."""
    chosen = state.season_of(season) if season else state.seasons[-1]
    assert chosen is not None
    out = {}
    for division in chosen.division_names():
        met: dict[tuple[str, str], int] = {}
        byes: dict[str, int] = {}
        for r in chosen.ordered_rounds():
            seated = r.seated.get(division)
            for t in seated.tables if seated else ():
                a, b = sorted((team_key(t.seats[0], t.seats[2]), team_key(t.seats[1], t.seats[3])))
                met[(a, b)] = met.get((a, b), 0) + 1
            for bye in seated.byes if seated else ():
                byes[bye] = byes.get(bye, 0) + 1
        out[division] = (sum(1 for c in met.values() if c > 1), max(byes.values(), default=0))
    return out


async def caught_up(database_url: str, timeout: float = 300.0) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            late = 0
            for name, wanted in WANTED.items():
                ok = await conn.fetchval(
                    "SELECT coalesce((SELECT (t.tx, t.position) >= (e.tx, e.position)"
                    " FROM tracking t WHERE t.name = $1), false)"
                    f" FROM (SELECT tx, position FROM events WHERE {wanted}"
                    " ORDER BY tx DESC, position DESC LIMIT 1) e",
                    name,
                )
                late += ok is False
            if not late:
                return
            await asyncio.sleep(0.2)
        raise TimeoutError("the projections did not catch up")
    finally:
        await conn.close()


async def snapshot(database_url: str) -> dict[str, list[tuple[object, ...]]]:
    conn = await asyncpg.connect(database_url)
    try:
        return {name: [tuple(r) for r in await conn.fetch(q)] for name, q in SNAPSHOT.items()}
    finally:
        await conn.close()


def rebuild(env: dict[str, str]) -> float:
    """``python -m services.scoring rebuild`` against the platform; its seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "services.scoring", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return time.perf_counter() - started
