"""A one-against-one dominoes league on real Postgres: tables of two in block mode, a bye
for the odd player, win/loss standings equal to a fresh fold, both players rated."""

from __future__ import annotations

import random

import pytest

from services.scoring.league_standings import LeagueStandingsProjection
from services.scoring.ratings import RatingsProjection
from tavola.leagues import codec, formats
from tavola.leagues.standings import standings
from tavola.leagues.state import fold
from tests.integration.leagues.test_league_scheduler import (
    START,
    check_in,
    finish,
    make_world,
)

pytestmark = pytest.mark.integration


async def test_a_one_against_one_round_seats_pairs_gives_a_bye_and_rates_both(pool):
    world = await make_world(pool, players=9)
    fmt = formats.Format(partners=formats.SINGLE, check_in_seconds=60, fill_level="easy")
    league = await world.leagues.create(world.host, "Duel", "dominoes", {"mode": "block"}, fmt)
    assert (league.format.table_sizes, league.format.pairing) == ((2,), formats.SWISS)
    for player in world.players:
        await world.leagues.register(player, league.league_id, "", "")
    await world.leagues.start_season(world.host, league.league_id, 1, (), 0, 0, {})
    await world.leagues.schedule_round(world.host, league.league_id, 0, START + 120_000)
    world.clock.ms = START + 60_000
    await world.scheduler.tick()
    state = await world.leagues.load(league.league_id)
    round_ = state.season.rounds[1]
    seated = round_.seated["1"]
    assert len(seated.tables) == 4 and len(seated.byes) == 1
    assert all(len(t.seats) == 2 and all(t.seats) for t in seated.tables)
    table = await world.lobby.load(round_.opened.tables[0].table_id)
    assert len(table.reserved()) == 2
    playing = [p for p in world.players if p.account_id not in seated.byes]
    await check_in(world, league.league_id, playing)
    world.clock.ms = START + 120_000
    await world.scheduler.tick()
    assert len(world.created) == 4
    assert all(len(r.seats) == 2 and not any(s.is_bot for s in r.seats) for r in world.created)
    assert all(dict(r.options).get("mode") == "block" for r in world.created)
    rng = random.Random(5)
    for request in world.created:
        await finish(world, request, rng)
        await world.scheduler.match_ended(request.match_id)
    live = [LeagueStandingsProjection(pool, world.store), RatingsProjection(pool, world.store)]
    for projection in live:
        await projection.catch_up()
    stream = await world.store.read_stream(codec.stream_of(league.league_id))
    folded = fold(codec.decode_stored(stream))
    season = folded.seasons[-1]
    assert season.rounds[1].ended is not None
    rows = standings(folded, season, "1")
    assert sorted(r.points for r in rows) == [0] * 4 + [1] * 5  # 4 winners and the bye
    bye = next(r for r in rows if r.byes)
    assert bye.points == 1 and bye.column("point_balance") == 0
    query = (
        "SELECT rank, entrant, points FROM league_standings"
        " WHERE league_id = $1 AND after_round = 0 ORDER BY rank"
    )
    stored = [tuple(r) for r in await pool.fetch(query, league.league_id)]
    assert stored == [(r.rank, r.entrant, float(r.points)) for r in rows]
    found = await pool.fetch("SELECT player FROM ratings WHERE game = 'dominoes'")
    rated = {r["player"] for r in found}
    assert {p.account_id for p in playing} <= rated
