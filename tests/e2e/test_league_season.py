"""A short season of each of the five games, with the services as processes: bot accounts
(third-party clients of the public API) register themselves in two divisions, rounds are
scheduled and run themselves (check-in by SitDown, timers on, a few players absent and
replaced by the platform's marked bots), the season ends with promotion and relegation.
Standings equal a fresh fold of the league's stream, every projection equals its rebuild
from the log, the seating re-derives from each round's revealed seed and meets the
evenness measure, and absent players are shown absent and never rated for that match. A
referee corrects one finished match of some games' seasons (``CORRECTED``; ``make season``
corrects one of every game's) through the public API, and the correction changes exactly
what it should: the league's result revision, the division table, ratings, statistics
(``tavola.leagues.simulation.correction``); the rebuild below includes it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator

import asyncpg
import grpc
import pytest

from support.platform import running_platform
from tavola.accounts.model import Kind
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra
from tavola.leagues import codec
from tavola.leagues.seating import BOT, evenness
from tavola.leagues.simulation.correction import Outcome, correct_one
from tavola.leagues.simulation.harness import Harness, Player
from tavola.leagues.simulation.season import TEAM_GAMES, SeasonReport, run_season
from tavola.leagues.standings import standings
from tavola.leagues.state import fold
from tavola.leagues.verify import verify_round
from tavola.v1 import league_pb2, league_pb2_grpc, lobby_pb2

pytestmark = pytest.mark.e2e
GAMES = ("barbu", "fan-tan", "doppelkopf", "spades", "dominoes")
OPEN_LIMITS = "address=off,read=off,act=off,lobby=off,account=off,create_table=off,stream_open=off"
ACCOUNTS = 32  # two divisions of 16: the fewest with which fours can avoid every repeat
# a voided game (the game that rates every game of a match) and an adjusted score (teams,
# tie-breaks that compare entrants): the cheap part; the long form corrects every game
CORRECTED = ("doppelkopf", "spades")
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


@pytest.fixture(scope="module")
def platform(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url,
        nats_url,
        tmp_path_factory.mktemp("season"),
        infra.nats_service_urls(),
        extra_env={"TAVOLA_LIMITS": OPEN_LIMITS},
    ) as running:
        yield running


@pytest.fixture(scope="module")
def season(platform: Platform) -> dict[str, object]:
    async def play() -> dict[str, object]:
        harness = Harness(platform.address, platform.token)
        try:
            (host,) = await harness.make_accounts(1, "host", Kind.HOST)
            players = await harness.make_accounts(ACCOUNTS, "sim", Kind.BOT)
            reports = await asyncio.gather(
                *(run_season(harness, host, players, game) for game in GAMES)
            )
            late = await _late_player(harness, reports[0], players)
            by_game = dict(zip(GAMES, reports, strict=True))
            corrected = await _corrections(platform, harness, by_game, players[0])
            return {
                "host": host,
                "players": players,
                "reports": by_game,
                "corrections": corrected,
                **late,
            }
        finally:
            await harness.close()

    return asyncio.run(play())


async def _late_player(harness: Harness, report: SeasonReport, players: list[Player]) -> dict:
    """An absent player of round 2, asking for its table after the start."""
    absent_id = sorted(report.absent[2])[0]
    absent = next(p for p in players if p.account_id == absent_id)
    round_ = await harness.call(
        harness.league.GetRound,
        league_pb2.GetRoundRequest(league_id=report.league_id, round=2),
        absent.token,
    )
    table = next(t for t in round_.tables if any(s.account_id == absent_id for s in t.seats))
    refused = None
    try:
        await harness.call(
            harness.lobby.SitDown, lobby_pb2.SitDownRequest(table_id=table.table_id), absent.token
        )
    except grpc.aio.AioRpcError as error:
        refused = error.code()
    return {"late": absent, "late_table": table, "late_refused": refused}


async def _corrections(
    platform: Platform, harness: Harness, reports: dict[str, SeasonReport], spared: Player
) -> list[Outcome]:
    """A referee corrects one finished match of each ``CORRECTED`` game's season (none
    that ``spared`` played: the tests below count its matches), one after the other."""
    (referee,) = await harness.make_accounts(1, "referee", Kind.REFEREE)
    outcomes = []
    for game in CORRECTED:
        report = reports[game]
        match_ids = [m for r in report.rounds for m in r.match_ids]
        outcomes.append(
            await correct_one(
                harness,
                referee,
                platform.database_url,
                report.league_id,
                match_ids,
                avoid={spared.account_id},
            )
        )
    return outcomes


def _events(platform: Platform, league_id: str) -> list:
    async def read() -> list:
        conn = await asyncpg.connect(platform.database_url)
        try:
            rows = await conn.fetch(
                "SELECT type, payload FROM events WHERE stream_id = $1 ORDER BY version",
                codec.stream_of(league_id),
            )
        finally:
            await conn.close()
        return [codec.decode(r["type"], r["payload"]) for r in rows]

    return asyncio.run(read())


def _snapshot(platform: Platform) -> dict[str, list]:
    async def read() -> dict[str, list]:
        conn = await asyncpg.connect(platform.database_url)
        try:
            return {name: [tuple(r) for r in await conn.fetch(q)] for name, q in SNAPSHOT.items()}
        finally:
            await conn.close()

    return asyncio.run(read())


WANTED = {
    "ratings": "type IN ('match.MatchEnded', 'league.RoundOpened', 'match.Correction')",
    "statistics": "type IN ('match.MatchEnded', 'match.Correction')",
    "standings_corrections": "type = 'match.Correction'",
    "league_standings": "type LIKE 'league.%'",
}


def _caught_up(platform: Platform) -> None:
    """Wait until every projection has applied the last event of the log it wants."""

    async def behind(conn: asyncpg.Connection) -> list[str]:
        late = []
        for name, wanted in WANTED.items():
            ok = await conn.fetchval(
                f"SELECT coalesce((SELECT (t.tx, t.position) >= (e.tx, e.position)"
                f" FROM tracking t WHERE t.name = $1), false)"
                f" FROM (SELECT tx, position FROM events WHERE {wanted}"
                f" ORDER BY tx DESC, position DESC LIMIT 1) e",
                name,
            )
            if ok is False:  # (None: nothing it wants in the log)
                late.append(name)
        return late

    async def wait() -> None:
        conn = await asyncpg.connect(platform.database_url)
        try:
            for _ in range(600):
                if not await behind(conn):
                    return
                await asyncio.sleep(0.2)
            raise AssertionError(f"projections behind the log: {await behind(conn)}")
        finally:
            await conn.close()

    asyncio.run(wait())


def test_every_game_plays_a_season_whose_rounds_ran_themselves(season):
    for game, report in season["reports"].items():
        assert [r.number for r in report.rounds] == [1, 2], game
        assert all(r.tables >= 4 and r.moves > 0 for r in report.rounds), game
        assert all(r.absent >= 1 for r in report.rounds), game  # seats a bot played
        assert len(report.moves) == 2, game  # one up, one down


def test_a_referees_correction_changes_exactly_what_it_should(season):
    outcomes = season["corrections"]
    assert [o.plan.game for o in outcomes] == list(CORRECTED)
    assert [o.plan.kind for o in outcomes] == ["void_game", "adjust_score"]
    for outcome in outcomes:
        assert not outcome.problems, outcome.line()


def test_standings_equal_a_fresh_fold_of_the_league_stream(platform, season):
    _caught_up(platform)
    host = season["host"]
    with grpc.insecure_channel(platform.address) as channel:
        stub = league_pb2_grpc.LeagueServiceStub(channel)
        for game, report in season["reports"].items():
            league = fold(_events(platform, report.league_id))
            last = league.seasons[-1]
            for division in last.division_names():
                fresh = standings(league, last, division)
                served = stub.GetStandings(
                    league_pb2.GetStandingsRequest(league_id=report.league_id, division=division),
                    metadata=Harness.auth(host.token),
                )
                assert not served.provisional
                assert [(line.entrant, round(line.points, 6)) for line in served.lines] == [
                    (row.entrant, round(float(row.points), 6)) for row in fresh
                ], game
                assert [len(line.columns) for line in served.lines] == [
                    len(row.columns) for row in fresh
                ]


def test_every_round_re_derives_from_its_revealed_seed_and_is_even(platform, season):
    for game, report in season["reports"].items():
        events = _events(platform, report.league_id)
        for number in (1, 2):
            assert verify_round(events, 1, number) == 2, game
        if game in TEAM_GAMES:
            continue
        league = fold(events)
        for division in league.seasons[-1].division_names():
            rounds = [
                [t.seats for t in r.seated[division].tables]
                for r in league.seasons[-1].ordered_rounds()
            ]
            roster = sorted({a for tables in rounds for t in tables for a in t if a != BOT})
            assert evenness(rounds, roster).passes, (game, division)


def test_projections_equal_their_rebuild_from_the_log(platform, season):
    _caught_up(platform)
    live = _snapshot(platform)
    assert live["ratings"] and live["player_matches"] and live["league_standings"]
    rebuilt = subprocess.run(
        [sys.executable, "-m", "services.scoring", "rebuild"],
        env=platform.env("scoring"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert _snapshot(platform) == live


def test_absent_players_are_shown_absent_refused_a_seat_and_never_rated_for_that_match(
    platform, season
):
    late, table = season["late"], season["late_table"]
    assert season["late_refused"] == grpc.StatusCode.FAILED_PRECONDITION
    seat = next(s for s in table.seats if s.account_id == late.account_id)
    assert seat.absent
    snapshot = _snapshot(platform)
    rated = {(r[0], r[2]) for r in snapshot["rating_history"]}
    assert (late.account_id, table.match_id) not in rated
    played = {(r[0], r[2]) for r in snapshot["player_matches"]}
    assert (table.match_id, late.account_id) not in played
    report = season["reports"]["barbu"]
    league = fold(_events(platform, report.league_id))
    last = league.seasons[-1]
    row = next(
        r
        for d in last.division_names()
        for r in standings(league, last, d)
        if r.entrant == late.account_id
    )
    assert row.rounds[1] == "absent" and row.absences >= 1


def test_the_season_ends_with_its_promotions_and_relegations_applied_to_the_next(platform, season):
    host = season["host"]
    report = season["reports"]["fan-tan"]
    with grpc.insecure_channel(platform.address) as channel:
        stub = league_pb2_grpc.LeagueServiceStub(channel)
        started = stub.StartSeason(
            league_pb2.StartSeasonRequest(league_id=report.league_id),
            metadata=Harness.auth(host.token),
        )
        second = started.league.seasons[-1]
        where = {e.entrant: d.name for d in second.divisions for e in d.entrants}
        for move in report.moves:
            assert where[move.entrant] == move.to_division
        exported = stub.ExportSeason(
            league_pb2.ExportSeasonRequest(
                league_id=report.league_id, season=1, format=league_pb2.EXPORT_FORMAT_JSON
            ),
            metadata=Harness.auth(host.token),
        )
        body = json.loads(exported.content)
        assert body["season"] == 1 and body["ended"] and not exported.provisional
        assert {r["move"] for r in body["rows"]} == {"", "up", "down"}


def test_ratings_and_statistics_follow_the_accounts(platform, season):
    player = season["players"][0]
    with grpc.insecure_channel(platform.address) as channel:
        stub = league_pb2_grpc.LeagueServiceStub(channel)
        meta = Harness.auth(player.token)
        for game in GAMES:
            stats = stub.GetStatistics(
                league_pb2.GetStatisticsRequest(player_name=player.name, game=game), metadata=meta
            )
            history = stub.GetMatchHistory(
                league_pb2.GetMatchHistoryRequest(player_name=player.name, game=game),
                metadata=meta,
            )
            assert stats.matches == len(history.matches) and stats.matches >= 1, game
            assert sum(stats.places) == stats.matches
            assert any(c.key == "hands" for c in stats.counters)
            ratings = stub.GetRatingHistory(
                league_pb2.GetRatingHistoryRequest(player_name=player.name, game=game),
                metadata=meta,
            )
            assert ratings.points and ratings.points[-1].provisional  # few matches yet


def test_only_the_host_runs_its_league_and_accounts_register_only_themselves(platform, season):
    async def check() -> None:
        harness = Harness(platform.address, platform.token)
        try:
            host, other_host = await harness.make_accounts(2, "boss", Kind.HOST)
            (person,) = await harness.make_accounts(1, "ana", Kind.PLAYER)
            (robot,) = await harness.make_accounts(1, "robo", Kind.BOT)
            league = await harness.create_league(host, "barbu", {}, league_pb2.LeagueFormat())

            async def refused(method, request, token) -> tuple:  # type: ignore[no-untyped-def]
                try:
                    await harness.call(method, request, token)
                except grpc.aio.AioRpcError as error:
                    return error.code(), _reason(error)
                raise AssertionError("allowed")

            start = league_pb2.StartSeasonRequest(league_id=league.league_id)
            assert await refused(harness.league.StartSeason, start, person.token) == (
                grpc.StatusCode.PERMISSION_DENIED,
                "auth.scope_missing",
            )
            assert await refused(harness.league.StartSeason, start, other_host.token) == (
                grpc.StatusCode.PERMISSION_DENIED,
                "league.not_host",
            )
            someone_else = league_pb2.RegisterRequest(
                league_id=league.league_id, account_name=robot.name
            )
            assert (await refused(harness.league.Register, someone_else, person.token))[1] == (
                "league.not_host"
            )
            itself = league_pb2.RegisterRequest(league_id=league.league_id)
            assert await refused(harness.league.Register, itself, robot.token) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                "league.no_bot_accounts",
            )
            await harness.call(harness.league.Register, itself, person.token)
            mine = await harness.call(
                harness.league.GetMyTable,
                league_pb2.GetMyTableRequest(league_id=league.league_id),
                person.token,
            )
            assert mine.check_in == league_pb2.CHECK_IN_NOT_SEATED and mine.round == 0
        finally:
            await harness.close()

    asyncio.run(check())


def _reason(error: grpc.aio.AioRpcError) -> str:
    from google.rpc import error_details_pb2, status_pb2

    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason
    return ""


def test_the_host_runs_a_league_from_the_command_line(platform, season, tmp_path):
    async def accounts() -> tuple[Player, list[Player]]:
        harness = Harness(platform.address, platform.token)
        try:
            (host,) = await harness.make_accounts(1, "cli", Kind.HOST)
            return host, await harness.make_accounts(4, "clip", Kind.PLAYER)
        finally:
            await harness.close()

    host, players = asyncio.run(accounts())
    env = {**platform.env(), "TAVOLA_TOKEN": host.token, "TAVOLA_STATE_DIR": str(tmp_path)}

    def tavola(*argv: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tavola.cli.main", "league", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    created = tavola("create", "Sunday Barbu", "barbu", "--option", "blocks=1", "--check-in", "10m")
    league_id = created.split(": ")[1].split()[0]
    tavola("register", league_id, *(p.name for p in players))
    tavola("start-season", league_id, "--divisions", "1")
    scheduled = tavola("schedule", league_id, "--at", "+2h", "--every", "7d", "--rounds", "3")
    assert scheduled.count("seating seed sha256") == 3
    shown = tavola("show", league_id)
    assert "round 3:" in shown and "check-in 600 s" in shown
    _caught_up(platform)
    table = tavola("standings", league_id)
    assert all(p.name in table for p in players)
    out = tmp_path / "season.csv"
    tavola("export", league_id, "-o", str(out))
    assert out.read_text().splitlines()[0].startswith("division,rank,name,points")
