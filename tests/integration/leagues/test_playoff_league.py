"""Group stage plus knockout on real Postgres: a one-against-one dominoes league of two
groups plays a regular round, then the knockout's semi-finals (group winners against the
other group's runners-up) and final through the real scheduler; the bracket the API shows
follows the results and names the champion; the regular standings ignore the knockout."""

from __future__ import annotations

import random

import grpc
import pytest

from services.lobby.league_rpc import league_pb
from tavola.accounts.model import Principal
from tavola.leagues import formats, playoff
from tavola.leagues.standings import standings
from tavola.protocol.errors import ServiceError
from tavola.v1 import lobby_pb2
from tests.integration.leagues.test_league_scheduler import START, World, finish, make_world

pytestmark = pytest.mark.integration
HOUR = 3_600_000


async def _check_in(world: World, league_id: str, number: int, players: list[Principal]) -> None:
    round_ = (await world.leagues.load(league_id)).season.rounds[number]
    assert round_.opened is not None
    for table in round_.opened.tables:
        seats = round_.seated[table.division].tables[table.index].seats
        for player in players:
            if player.account_id in seats:
                await world.lobby.sit_down(
                    lobby_pb2.SitDownRequest(
                        table_id=table.table_id, seat=seats.index(player.account_id)
                    ),
                    player,
                )


async def _play(world: World, league_id: str, number: int, rng: random.Random) -> None:
    """Round ``number`` opens, everyone checks in, its matches end."""
    starts = START + number * HOUR
    await world.leagues.schedule_round(world.host, league_id, 0, starts, number > 1)
    world.clock.ms = starts - 60_000  # the check-in window opens
    await world.scheduler.tick()
    await _check_in(world, league_id, number, world.players)
    world.clock.ms = starts
    done = len(world.created)
    await world.scheduler.tick()
    for request in world.created[done:]:
        await finish(world, request, rng)
        await world.scheduler.match_ended(request.match_id)


async def test_group_winners_meet_the_other_group_s_runners_up_and_a_champion_is_crowned(pool):
    world = await make_world(pool, players=8)
    fmt = formats.Format(
        partners=formats.SINGLE, playoff=2, playoff_mode="across", check_in_seconds=60
    )
    league = await world.leagues.create(world.host, "Cup", "dominoes", {"mode": "block"}, fmt)
    for player in world.players:
        await world.leagues.register(player, league.league_id, "", "")
    await world.leagues.start_season(world.host, league.league_id, 2, (), 0, 0, {})
    rng = random.Random(21)
    await _play(world, league.league_id, 1, rng)
    state = await world.leagues.load(league.league_id)
    season = state.season
    groups = {d: [r.entrant for r in standings(state, season, d)] for d in ("1", "2")}
    regular = {d: standings(state, season, d) for d in ("1", "2")}

    await _play(world, league.league_id, 2, rng)
    state = await world.leagues.load(league.league_id)
    season = state.season
    semi = season.rounds[2]
    assert semi.playoff and semi.ended is not None and list(semi.seated) == [playoff.KNOCKOUT]
    assert semi.seated[playoff.KNOCKOUT].entrants == (
        groups["1"][0],
        groups["2"][1],
        groups["2"][0],
        groups["1"][1],
    )
    assert len(semi.opened.tables) == 2 and {t.division for t in semi.opened.tables} == {
        playoff.KNOCKOUT
    }
    assert {d: standings(state, season, d) for d in ("1", "2")} == regular

    await _play(world, league.league_id, 3, rng)
    state = await world.leagues.load(league.league_id)
    shown = league_pb(state).seasons[-1]
    (bracket,) = shown.playoffs
    assert bracket.group == playoff.KNOCKOUT and [len(r.ties) for r in bracket.rounds] == [2, 1]
    finalists = [t.winner for t in bracket.rounds[0].ties]
    final = bracket.rounds[1].ties[0]
    assert {final.first, final.second} == set(finalists) and final.winner in finalists
    assert bracket.champion == final.winner and bracket.champion_name
    assert [r.playoff for r in shown.rounds] == [False, True, True]
    with pytest.raises(ServiceError) as over:
        await world.leagues.schedule_round(world.host, league.league_id, 0, START + 9 * HOUR, True)
    assert over.value.reason.code == "league.playoff_over"
    assert over.value.code == grpc.StatusCode.FAILED_PRECONDITION
    await world.leagues.end_season(world.host, league.league_id)
