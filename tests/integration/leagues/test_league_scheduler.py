"""The league scheduler and the scoring projections on real Postgres: rounds open, start
and end by the clock and the log alone; a failing step is retried a bounded number of
times, then halted; a fresh scheduler continues from the log; the standings projection
equals a fresh fold and its rebuild."""

from __future__ import annotations

import itertools
import random
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

import asyncpg
import pytest

from services.lobby.app import Lobby, LobbyPorts
from services.lobby.league_app import LeaguePorts, Leagues
from services.lobby.league_scheduler import MAX_ATTEMPTS, RoundSteps, Scheduler
from services.lobby.league_store import LeagueStore
from services.lobby.league_store import ensure_schema as ensure_league_schema
from services.lobby.storage import PostgresTableIndex
from services.lobby.storage import ensure_schema as ensure_lobby_schema
from services.scoring.app import ensure_schema as ensure_scoring_schema
from services.scoring.league_standings import LeagueStandingsProjection
from services.scoring.ratings import RatingsProjection
from services.scoring.statistics import StatisticsProjection
from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.accounts.model import KIND_SCOPES, Kind, Principal
from tavola.eventlog.postgres import PostgresEventStore
from tavola.leagues import codec, formats
from tavola.leagues.standings import standings
from tavola.leagues.state import fold
from tavola.match.events import MatchCreated, MatchEnded, SeatInfo
from tavola.protocol import errors
from tavola.protocol import events as match_codec
from tavola.rules import fairness
from tavola.rules.interface import SeatScore
from tavola.service.seeds import PostgresSeedVault
from tavola.v1 import internal_pb2, lobby_pb2

pytestmark = pytest.mark.integration
START = 1_900_000_000_000


class Clock:
    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms


@dataclass
class World:
    pool: asyncpg.Pool
    store: PostgresEventStore
    clock: Clock
    lobby: Lobby
    leagues: Leagues
    scheduler: Scheduler
    host: Principal
    players: list[Principal]
    created: list[internal_pb2.CreateMatchRequest] = field(default_factory=list)
    failing: bool = False

    def fresh_scheduler(self) -> Scheduler:
        leagues = Leagues(
            LeaguePorts(
                LeagueStore(self.pool, self.store),
                self.leagues._ports.accounts,
                uuid.uuid4,
                lambda: secrets.token_bytes(32),
                self.clock,
            )
        )
        return Scheduler(
            leagues, RoundSteps(leagues, self.lobby, self.clock), self.pool, self.clock
        )


async def make_world(pool: asyncpg.Pool, players: int = 16) -> World:
    await ensure_lobby_schema(pool)
    await ensure_league_schema(pool)
    await ensure_scoring_schema(pool)
    store = PostgresEventStore(pool, clock=lambda: datetime.now(UTC))
    clock = Clock()
    directory = AccountDirectory(
        DirectoryPorts(
            store,
            uuid.uuid4,
            lambda: secrets.token_urlsafe(32),
            lambda: secrets.token_hex(6),
            clock,
        )
    )
    world: World

    async def create_match(request: internal_pb2.CreateMatchRequest) -> object:
        if world.failing:
            raise errors.unavailable("service.unavailable", 1.0, service="engine")
        world.created.append(request)
        return internal_pb2.CreateMatchResponse(version=1)

    lobby = Lobby(
        LobbyPorts(
            tables=PostgresTableIndex(pool, store),
            store=store,
            accounts=directory,
            create_seed=PostgresSeedVault(pool).create,
            create_match=create_match,
            new_id=uuid.uuid4,
            new_token=lambda: secrets.token_urlsafe(24),
            now_ms=clock,
        )
    )
    leagues = Leagues(
        LeaguePorts(
            LeagueStore(pool, store), directory, uuid.uuid4, lambda: secrets.token_bytes(32), clock
        )
    )
    scheduler = Scheduler(leagues, RoundSteps(leagues, lobby, clock), pool, clock)
    tag = secrets.token_hex(2)

    async def principal(name: str, kind: Kind) -> Principal:
        account, _, _ = await directory.create(name, kind)
        return Principal(account.account_id, account.name, kind, KIND_SCOPES[kind], "t")

    host = await principal(f"host-{tag}", Kind.HOST)
    people = [await principal(f"p{tag}-{i:02d}", Kind.PLAYER) for i in range(players)]
    world = World(pool, store, clock, lobby, leagues, scheduler, host, people)
    return world


async def league_with_a_round(world: World, game: str = "barbu") -> str:
    fmt = formats.Format(check_in_seconds=60, fill_level="easy")
    options = {"blocks": "1"} if game == "barbu" else {}
    league = await world.leagues.create(world.host, "Club", game, options, fmt)
    for player in world.players:
        await world.leagues.register(player, league.league_id, "", "")
    await world.leagues.start_season(world.host, league.league_id, 2, (), 1, 1, {})
    await world.leagues.schedule_round(world.host, league.league_id, 0, START + 120_000)
    return league.league_id


async def finish(
    world: World, request: internal_pb2.CreateMatchRequest, rng: random.Random
) -> None:
    """The match of a started table ends (as the engine would record it)."""
    seats = tuple(
        SeatInfo(s.seat, s.player_name, s.is_bot, s.bot_level, "", 0, s.account_id)
        for s in request.seats
    )
    created = MatchCreated(
        request.match_id, request.table_id, request.game, 1, (), (), seats, "c", fairness.ALGORITHM
    )
    scores = [rng.randrange(-40, 40) for _ in seats]
    ranks = [1 + sum(o > v for o in scores) for v in scores]
    ended = MatchEnded(tuple(SeatScore(i, scores[i], ranks[i]) for i in range(len(seats))))
    counter = itertools.count()
    events = match_codec.system_events(
        [created, ended], lambda: uuid.UUID(int=uuid.uuid4().int ^ next(counter))
    )
    await world.store.append(f"match-{request.match_id}", 0, events)


async def check_in(world: World, league_id: str, players: list[Principal]) -> None:
    """Each player sits down at its reserved seat (SitDown, as a client would)."""
    round_ = (await world.leagues.load(league_id)).season.rounds[1]
    assert round_.opened is not None
    for player in players:
        table, seat = next(
            (t, round_.seated[t.division].tables[t.index].seats.index(player.account_id))
            for t in round_.opened.tables
            if player.account_id in round_.seated[t.division].tables[t.index].seats
        )
        await world.lobby.sit_down(
            lobby_pb2.SitDownRequest(table_id=table.table_id, seat=seat), player
        )


async def test_a_round_opens_starts_and_ends_by_the_clock_with_absent_players_replaced(pool):
    world = await make_world(pool)
    league_id = await league_with_a_round(world)
    assert await world.scheduler.tick() > 0  # nothing due before the check-in window
    world.clock.ms = START + 60_000
    await world.scheduler.tick()
    league = await world.leagues.load(league_id)
    round_ = league.season.rounds[1]
    assert round_.opened is not None and len(round_.opened.tables) == 4
    table = await world.lobby.load(round_.opened.tables[0].table_id)
    assert table.created.access == "invite" and len(table.reserved()) == 4  # every seat reserved
    absent = world.players[0]
    await check_in(world, league_id, world.players[1:])
    world.clock.ms = START + 120_000
    await world.scheduler.tick()
    league = await world.leagues.load(league_id)
    assert league.season.rounds[1].started.absent == (absent.account_id,)
    assert len(world.created) == 4
    bots = [s for r in world.created for s in r.seats if s.bot_level]
    assert len(bots) == 1 and bots[0].is_bot and not bots[0].account_id
    rng = random.Random(1)
    for request in world.created:
        await finish(world, request, rng)
        await world.scheduler.match_ended(request.match_id)
    league = await world.leagues.load(league_id)
    ended = league.season.rounds[1].ended
    assert ended is not None
    assert (
        fairness.commitment(bytes.fromhex(ended.seed_hex))
        == league.season.rounds[1].seed_commitment
    )


async def test_a_failing_step_is_retried_a_bounded_number_of_times_then_halted(pool):
    world = await make_world(pool)
    league_id = await league_with_a_round(world)
    world.clock.ms = START + 120_000  # opens late: the start moves by the whole window
    await world.scheduler.tick()
    league = await world.leagues.load(league_id)
    assert league.season.rounds[1].opened.starts_at_ms == START + 180_000
    world.failing = True
    for attempt in range(MAX_ATTEMPTS + 3):
        world.clock.ms = START + 180_000 + attempt * 100_000
        await world.scheduler.tick()
    league = await world.leagues.load(league_id)
    halted = league.season.rounds[1].halted
    assert halted is not None and halted.step == "start" and halted.reason == "service.unavailable"
    world.failing = False
    await world.scheduler.tick()
    assert (await world.leagues.load(league_id)).season.rounds[1].started is None  # waits
    await world.leagues.resume_round(world.host, league_id, 1)
    await world.fresh_scheduler().tick()  # a fresh scheduler: nothing but the log
    assert (await world.leagues.load(league_id)).season.rounds[1].started is not None


async def test_the_standings_projection_equals_a_fresh_fold_and_its_rebuild(pool):
    world = await make_world(pool)
    league_id = await league_with_a_round(world, "fan-tan")
    world.clock.ms = START + 120_000
    await world.scheduler.tick()
    await check_in(world, league_id, world.players[2:])
    world.clock.ms = START + 180_000
    await world.scheduler.tick()
    rng = random.Random(2)
    for request in world.created:
        await finish(world, request, rng)
        await world.scheduler.match_ended(request.match_id)
    live = [
        LeagueStandingsProjection(pool, world.store),
        RatingsProjection(pool, world.store),
        StatisticsProjection(pool, world.store),
    ]
    for projection in live:
        await projection.catch_up()
    query = (
        "SELECT division, rank, entrant, points, columns, rounds FROM league_standings"
        " WHERE league_id = $1 AND after_round = 0 ORDER BY division, rank"
    )
    rows = [tuple(r) for r in await pool.fetch(query, league_id)]
    league = fold(codec.decode_stored(await world.store.read_stream(codec.stream_of(league_id))))
    season = league.seasons[-1]
    fresh = [
        (d, row.rank, row.entrant, float(row.points))
        for d in season.division_names()
        for row in standings(league, season, d)
    ]
    assert [r[:4] for r in rows] == fresh
    assert all(r[5] == ["absent"] for r in rows if r[2] in league.season.rounds[1].started.absent)
    ratings = [tuple(r) for r in await pool.fetch("SELECT * FROM ratings ORDER BY 1, 2")]
    assert ratings  # every seat was a player: the matches are rated
    for projection in live:
        await projection.rebuild()
    assert [tuple(r) for r in await pool.fetch(query, league_id)] == rows
    assert [tuple(r) for r in await pool.fetch("SELECT * FROM ratings ORDER BY 1, 2")] == ratings


async def test_a_referee_s_correction_records_the_league_result_again(pool):
    """A voided league match then counts for nothing in the table (no lines), an adjusted
    one with its corrected score and rank — the next revision of its result; the
    standings projection follows, and equals a fresh fold and its rebuild."""
    from tavola.match.events import Correction

    world = await make_world(pool)
    league_id = await league_with_a_round(world, "fan-tan")
    world.clock.ms = START + 120_000
    await world.scheduler.tick()
    await check_in(world, league_id, world.players)
    world.clock.ms = START + 180_000
    await world.scheduler.tick()
    rng = random.Random(3)
    for request in world.created:
        await finish(world, request, rng)
        await world.scheduler.match_ended(request.match_id)
    projection = LeagueStandingsProjection(pool, world.store)
    await projection.catch_up()
    voided, adjusted = world.created[0].match_id, world.created[1].match_id
    before = (await world.leagues.load(league_id)).season.rounds[1].results[adjusted]
    score = next(x.score for x in before.lines if x.seat == 0)
    for match_id, correction in (
        (voided, Correction("void_game", (), 0, 0, "shared seat", "ref", 2)),
        (adjusted, Correction("adjust_score", (0,), 100, 0, "miscount", "ref", 2)),
    ):
        events = match_codec.system_events([correction], uuid.uuid4)
        await world.store.append(f"match-{match_id}", 2, events)
        assert await world.scheduler.match_corrected(match_id)
        assert await world.scheduler.match_corrected(match_id)  # again: nothing new
    league = await world.leagues.load(league_id)
    results = league.season.rounds[1].results
    assert results[voided].revision == 1 and results[voided].lines == ()
    line = next(x for x in results[adjusted].lines if x.seat == 0)
    assert results[adjusted].revision == 1 and line.score == score + 100
    assert line.rank == len(results[adjusted].lines)  # Fan Tan: the highest score is last
    stream = await world.store.read_stream(codec.stream_of(league_id))
    assert [s.type for s in stream].count("league.ResultRecorded") == len(world.created) + 2
    await projection.catch_up()
    query = (
        "SELECT division, rank, entrant, points, columns, rounds FROM league_standings"
        " WHERE league_id = $1 AND after_round = 0 ORDER BY division, rank"
    )
    rows = [tuple(r) for r in await pool.fetch(query, league_id)]
    folded = fold(codec.decode_stored(stream))
    season = folded.seasons[-1]
    fresh = [
        (d, row.rank, row.entrant, float(row.points))
        for d in season.division_names()
        for row in standings(folded, season, d)
    ]
    assert [r[:4] for r in rows] == fresh
    await projection.rebuild()
    assert [tuple(r) for r in await pool.fetch(query, league_id)] == rows
