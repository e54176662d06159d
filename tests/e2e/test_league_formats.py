"""The league formats a host may pick, with the services as processes and bot accounts
playing through the public API: a one-against-one dominoes cup (two groups, then a
crossed knockout to a champion) and a duplicate Barbu round (every table dealt the same
cards, nobody watching another table before the round ends, matchpoints by seat)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import grpc
import pytest

from support.platform import running_platform
from tavola.accounts.model import Kind
from tavola.cli.platform import Platform
from tavola.cli.replay import decode
from tavola.infra.local import LocalInfra
from tavola.leagues.simulation.harness import Harness, Player
from tavola.match.verify import verify
from tavola.protocol import records_export
from tavola.v1 import game_pb2, league_pb2

pytestmark = pytest.mark.e2e
OPEN_LIMITS = "address=off,read=off,act=off,lobby=off,account=off,create_table=off,stream_open=off"
CHECK_IN = 6


@pytest.fixture(scope="module")
def platform(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url,
        nats_url,
        tmp_path_factory.mktemp("formats"),
        infra.nats_service_urls(),
        extra_env={"TAVOLA_LIMITS": OPEN_LIMITS},
    ) as running:
        yield running


async def _league(
    harness: Harness,
    host: Player,
    players: list[Player],
    game: str,
    options: dict[str, str],
    fmt: league_pb2.LeagueFormat,
    divisions: int,
) -> str:
    fmt.check_in_seconds, fmt.bot_accounts, fmt.fill_level = CHECK_IN, True, "easy"
    league = await harness.create_league(host, game, options, fmt)
    await harness.register(league.league_id, players, teams=False)
    await harness.call(
        harness.league.StartSeason,
        league_pb2.StartSeasonRequest(league_id=league.league_id, divisions=divisions),
        host.token,
    )
    return league.league_id


async def _round(
    harness: Harness, host: Player, league_id: str, players: list[Player], playoff: bool
) -> list[str]:
    number = await harness.schedule(host, league_id, CHECK_IN, playoff)
    figures = await harness.play_round(league_id, number, players, set(), host.token)
    return figures.match_ids


async def _record(harness: Harness, match_id: str, token: str) -> list:
    exported = await harness.call(
        harness.game.ExportMatch, game_pb2.ExportMatchRequest(match_id=match_id), token
    )
    return decode([records_export.from_record(r) for r in exported.events])


async def _cup(harness: Harness, host: Player, players: list[Player]) -> dict:
    fmt = league_pb2.LeagueFormat(partners="single", playoff=2, playoff_mode="across")
    options = {"mode": "block", "target": "1"}
    league_id = await _league(harness, host, players, "dominoes", options, fmt, 2)
    regular = await _round(harness, host, league_id, players, False)
    semis = await _round(harness, host, league_id, players, True)
    final = await _round(harness, host, league_id, players, True)
    shown = await harness.call(
        harness.league.GetLeague, league_pb2.GetLeagueRequest(league_id=league_id), host.token
    )
    return {"regular": regular, "semis": semis, "final": final, "league": shown.league}


async def _duplicate(harness: Harness, host: Player, players: list[Player]) -> dict:
    fmt = league_pb2.LeagueFormat(duplicate=True)
    league_id = await _league(harness, host, players, "barbu", {"blocks": "1"}, fmt, 1)
    number = await harness.schedule(host, league_id, CHECK_IN)
    playing = asyncio.ensure_future(
        harness.play_round(league_id, number, players, set(), host.token)
    )
    watched: list[grpc.StatusCode | None] = []
    while not playing.done():  # someone tries to watch a table while the round plays
        got = await harness.call(
            harness.league.GetRound,
            league_pb2.GetRoundRequest(league_id=league_id, round=number),
            host.token,
        )
        running = [t for t in got.tables if t.match_id and not t.finished]
        if running and got.round.status == league_pb2.ROUND_STATUS_PLAYING:
            try:
                await harness.call(
                    harness.game.GetView,
                    game_pb2.GetViewRequest(match_id=running[0].match_id, seat=-1),
                    players[0].token,
                )
                watched.append(None)
            except grpc.aio.AioRpcError as error:
                watched.append(error.code())
            break
        await asyncio.sleep(0.3)
    figures = await playing
    got = await harness.call(
        harness.league.GetRound,
        league_pb2.GetRoundRequest(league_id=league_id, round=number),
        host.token,
    )
    for _ in range(150):  # the scoring service's projection follows the round's end
        table = await harness.call(
            harness.league.GetStandings,
            league_pb2.GetStandingsRequest(league_id=league_id, division="1"),
            host.token,
        )
        if table.lines and all(line.played for line in table.lines):
            break
        await asyncio.sleep(0.2)
    return {"round": got, "standings": table, "watched": watched, "matches": figures.match_ids}


@pytest.fixture(scope="module")
def played(platform: Platform) -> dict:
    async def play() -> dict:
        harness = Harness(platform.address, platform.token)
        try:
            (host,) = await harness.make_accounts(1, "host", Kind.HOST)
            cup_players = await harness.make_accounts(8, "cup", Kind.BOT)
            dup_players = await harness.make_accounts(8, "dup", Kind.BOT)
            cup, dup = await asyncio.gather(
                _cup(harness, host, cup_players), _duplicate(harness, host, dup_players)
            )
            records = {
                m: await _record(harness, m, host.token) for m in [*cup["final"], *dup["matches"]]
            }
            return {"cup": cup, "duplicate": dup, "records": records}
        finally:
            await harness.close()

    return asyncio.run(play())


def test_the_cup_crosses_the_groups_and_crowns_the_winner_of_its_final(played: dict) -> None:
    cup = played["cup"]
    assert len(cup["regular"]) == 4 and len(cup["semis"]) == 2 and len(cup["final"]) == 1
    season = cup["league"].seasons[-1]
    assert [r.playoff for r in season.rounds] == [False, True, True]
    (bracket,) = season.playoffs
    assert bracket.group == "knockout" and [len(r.ties) for r in bracket.rounds] == [2, 1]
    final = bracket.rounds[1].ties[0]
    assert {final.first, final.second} == {t.winner for t in bracket.rounds[0].ties}
    assert final.match_id == cup["final"][0] and bracket.champion == final.winner
    assert bracket.champion_name
    verify(played["records"][final.match_id])  # the final verifies offline


def test_a_duplicate_round_deals_every_table_the_same_cards_and_scores_matchpoints(
    played: dict,
) -> None:
    dup = played["duplicate"]
    tables = dup["round"].tables
    assert len(tables) == 2 and len({t.match_seed_commitment for t in tables}) == 1
    deals = []
    for table in tables:
        records = played["records"][table.match_id]
        verify(records)  # the seed revealed when the round ended, after the match's end
        kinds = [type(r.event).__name__ for r in records]
        assert kinds.index("SeedRevealed") > kinds.index("MatchEnded")
        deals.append([r.event for r in records if type(r.event).__name__ == "HandDealt"])
    assert deals[0] and deals[0] == deals[1]
    assert dup["watched"] == [grpc.StatusCode.PERMISSION_DENIED]  # no spectator mid-round
    lines = dup["standings"].lines
    assert len(lines) == 8 and sum(line.points for line in lines) == 8  # 2 a comparison
    assert all(line.points in (0, 1, 2) for line in lines)
