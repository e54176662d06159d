"""The scoring service follows a referee's corrections, on real Postgres: the match
standings, player totals, statistics and ratings after a voided hand, an adjusted score
and a voided game — live, as each correction comes — equal a rebuild from the log; and a
correction the standings saw before the match's end was applied is not lost."""

from __future__ import annotations

import uuid

import asyncpg
import pytest

from services.scoring.app import Scoring
from services.scoring.ratings import RatingsProjection
from services.scoring.standings_corrections import StandingsCorrections
from services.scoring.statistics import StatisticsProjection
from support.engine import account
from support.referee import REFEREE
from support.referee import play_people as play
from support.referee import postgres_engine as engine_on
from tavola.v1 import audit_pb2, scoring_pb2

pytestmark = pytest.mark.integration
NAMES = ["ana", "bia", "caio", "duda"]
TABLES = (
    "SELECT * FROM match_standings ORDER BY match_id, seat",
    "SELECT * FROM ratings ORDER BY game, player",
    "SELECT player, game, match_id, game_no, mu, sigma FROM rating_history"
    " ORDER BY player, game, match_id, game_no",
    "SELECT match_id, seat, account_id, name, game, score, rank, players, ended_at"
    " FROM player_matches ORDER BY match_id, seat",
    "SELECT * FROM player_match_counters ORDER BY match_id, seat, key",
)


async def everything(pool: asyncpg.Pool) -> list[list[asyncpg.Record]]:
    return [await pool.fetch(query) for query in TABLES]


async def fold(pool, store, scoring: Scoring) -> None:
    """What the live service does: the standings from each end, the projections."""
    for item in await store.read_all(limit=100_000):
        if item.type == "match.MatchEnded":
            await scoring.apply_stored(item)
    for projection in projections(pool, store):
        await projection.catch_up()


def projections(pool, store):
    return [
        RatingsProjection(pool, store),
        StatisticsProjection(pool, store),
        StandingsCorrections(pool, store),
    ]


def correction(match_id: str, kind: str, **fields) -> audit_pb2.FileCorrectionRequest:
    return audit_pb2.FileCorrectionRequest(
        match_id=match_id,
        kind=kind,
        reason="the scorer erred",
        command_id=str(uuid.uuid4()),
        **fields,
    )


async def test_corrections_are_followed_live_and_a_rebuild_gives_the_same(pool: asyncpg.Pool):
    engine, store = await engine_on(pool, first_id=1)
    for m in range(3):
        await play(engine, f"m{m}", NAMES)
    scoring = Scoring(pool, store)
    await fold(pool, store, scoring)
    played = await everything(pool)
    m0 = await scoring.match_standings(scoring_pb2.GetMatchStandingsRequest(match_id="m0"))

    await engine.file_correction(correction("m0", "void_hand", hand=1), REFEREE)
    await fold(pool, store, scoring)
    await engine.file_correction(correction("m1", "adjust_score", seats=[2], amount=-5), REFEREE)
    await fold(pool, store, scoring)
    await engine.file_correction(correction("m2", "void_game"), REFEREE)
    await fold(pool, store, scoring)
    live = await everything(pool)
    assert live != played

    after = await scoring.match_standings(scoring_pb2.GetMatchStandingsRequest(match_id="m0"))
    assert [line.score for line in after.lines] != [line.score for line in m0.lines]
    m1 = {r["seat"]: r["score"] for r in live[0] if r["match_id"] == "m1"}
    m1_played = {r["seat"]: r["score"] for r in played[0] if r["match_id"] == "m1"}
    assert m1 == {**m1_played, 2: m1_played[2] - 5}
    voided = await scoring.match_standings(scoring_pb2.GetMatchStandingsRequest(match_id="m2"))
    assert voided.voided
    counted = await pool.fetchval(  # what GetPlayerStandings sums: the voided game is out
        "SELECT count(*) FROM match_standings WHERE account_id = $1 AND NOT voided", account(0)
    )
    assert counted == 2
    assert all(r["matches"] == 2 for r in live[1])
    assert {r["match_id"] for r in live[2]} == {"m0", "m1"}
    assert {r["match_id"] for r in live[3]} == {"m0", "m1"}

    for projection in projections(pool, store):
        await projection.rebuild()
    await scoring.rebuild()
    assert await everything(pool) == live


async def test_a_correction_seen_before_the_end_was_applied_is_counted(pool: asyncpg.Pool):
    engine, store = await engine_on(pool, first_id=50_000)
    await play(engine, "late", NAMES)
    await engine.file_correction(correction("late", "void_game"), REFEREE)
    scoring = Scoring(pool, store)
    await StandingsCorrections(pool, store).catch_up()  # before the end reached the standings
    await fold(pool, store, scoring)
    answer = await scoring.match_standings(scoring_pb2.GetMatchStandingsRequest(match_id="late"))
    assert answer.voided
