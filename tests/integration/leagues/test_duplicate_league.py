"""A duplicate Barbu round on real Postgres with the real engine: the platform's bots play
both tables of the division, which deal the very same cards; no seed is revealed while a
table of the round still plays, every seed is revealed when the round ends, each match
verifies offline, and the standings are the matchpoints worked out by hand from the two
tables' results."""

from __future__ import annotations

import secrets
import uuid

import pytest

from services.engine.app import Engine, Ports
from services.lobby.app import Lobby, LobbyPorts
from services.lobby.league_scheduler import RoundSteps, Scheduler
from services.lobby.storage import PostgresTableIndex
from tavola.accounts.model import Principal
from tavola.leagues import duplicate, formats
from tavola.leagues.standings import standings
from tavola.match.events import MatchCreated, MatchEnded
from tavola.match.verify import verify
from tavola.protocol import events as codec
from tavola.protocol.errors import ServiceError
from tavola.service.seeds import PostgresSeedVault
from tavola.v1 import game_pb2, internal_pb2, lobby_pb2
from tests.integration.leagues.test_league_scheduler import START, make_world

pytestmark = pytest.mark.integration


async def play(engine: Engine, match_id: str, players: dict[int, tuple[Principal, str]]) -> None:
    """Each seat's client (a bot of the simplest kind: its first legal action) plays until
    the match ends."""
    for step in range(10_000):
        first, first_token = players[0]  # no spectator watches a duplicate table
        view = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=first_token), first
        )
        if view.finished:
            return
        seat = view.to_act[0]
        who, token = players[seat]
        mine = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=token), who
        )
        await engine.submit(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=token,
                command_id=f"bot-{match_id}-{step}",
                action=mine.legal_actions[0].code,
            ),
            who,
        )
    raise AssertionError("the match did not end")


async def test_a_duplicate_barbu_round_shares_its_deals_and_scores_matchpoints(pool):
    world = await make_world(pool, players=8)
    vault = PostgresSeedVault(pool)
    engine = Engine(
        Ports(
            store=world.store,
            seeds=vault,
            new_id=uuid.uuid4,
            salt=secrets.token_bytes,
            now_ms=world.clock,
        )
    )
    revealed: list[str] = []

    async def reveal(request: internal_pb2.RevealSeedRequest) -> object:
        revealed.append(request.match_id)
        return await engine.reveal_seed(request)

    lobby = Lobby(
        LobbyPorts(
            tables=PostgresTableIndex(pool, world.store),
            store=world.store,
            accounts=world.lobby._ports.accounts,
            create_seed=vault.create,
            create_match=engine.create_match,
            new_id=uuid.uuid4,
            new_token=lambda: secrets.token_urlsafe(24),
            now_ms=world.clock,
            create_group_seed=vault.create_grouped,
            reveal_seed=reveal,
        )
    )
    scheduler = Scheduler(
        world.leagues, RoundSteps(world.leagues, lobby, world.clock), pool, world.clock
    )
    fmt = formats.Format(duplicate=True, check_in_seconds=60, fill_level="easy")
    league = await world.leagues.create(world.host, "Duplicate", "barbu", {"blocks": "1"}, fmt)
    assert league.format.scoring == formats.MATCHPOINTS
    for player in world.players:
        await world.leagues.register(player, league.league_id, "", "")
    await world.leagues.start_season(world.host, league.league_id, 1, (), 0, 0, {})
    await world.leagues.schedule_round(world.host, league.league_id, 0, START + 120_000)
    world.clock.ms = START + 60_000
    await scheduler.tick()  # open: two tables, one deal group
    round_ = (await world.leagues.load(league.league_id)).season.rounds[1]
    tables = round_.opened.tables
    assert len(tables) == 2 and len({t.seed_commitment for t in tables}) == 1
    seats: dict[str, dict[int, tuple[Principal, str]]] = {}
    for table in tables:  # everyone checks in, with a client seed the deals ignore
        for seat, account in enumerate(round_.seated["1"].tables[table.index].seats):
            who = next(p for p in world.players if p.account_id == account)
            sat = await lobby.sit_down(
                lobby_pb2.SitDownRequest(
                    table_id=table.table_id, seat=seat, client_seed=secrets.token_bytes(8)
                ),
                who,
            )
            seats.setdefault(table.match_id, {})[seat] = (who, sat.seat_token)
    world.clock.ms = START + 120_000
    await scheduler.tick()  # start
    for table in tables:
        await play(engine, table.match_id, seats[table.match_id])
        await scheduler.match_ended(table.match_id)
    streams = {t.match_id: await world.store.read_stream(f"match-{t.match_id}") for t in tables}
    for stored in streams.values():  # ended, but the deals of the group are still secret
        assert stored[-1].type == "match.MatchEnded"
        assert all(s.type != "match.SeedRevealed" for s in stored)
    assert not revealed
    outsider = world.players[0]  # a player at one table may not watch the other's play
    for table in tables:
        watch = game_pb2.GetViewRequest(match_id=table.match_id, seat=-1)
        with pytest.raises(ServiceError) as hidden:
            await engine.view(watch, outsider)
        assert hidden.value.reason.code == "match.duplicate_running"
    await scheduler.tick()  # every table has its result: reveal the seeds, end the round
    state = await world.leagues.load(league.league_id)
    assert state.season.rounds[1].ended is not None
    assert sorted(revealed) == sorted(t.match_id for t in tables)
    for table in tables:  # revealed: anyone may watch the replay
        watch = game_pb2.GetViewRequest(match_id=table.match_id, seat=-1)
        assert (await engine.view(watch, outsider)).finished

    records = {}
    for table in tables:
        stored = await world.store.read_stream(f"match-{table.match_id}")
        assert stored[-1].type == "match.SeedRevealed"
        records[table.match_id] = codec.decode_recorded(stored)
        verify(records[table.match_id])
        created = records[table.match_id][0].event
        assert isinstance(created, MatchCreated)
        assert created.deal_group == duplicate.deal_group(league.league_id, 1, 1, 0)
    first, second = (
        [r.event for r in records[t.match_id] if type(r.event).__name__ == "HandDealt"][:4]
        for t in tables
    )
    assert first and first == second  # the first deal is the same at both tables

    # by hand: each seat against the same seat at the other table, 2 for a win, 1 a tie
    scores = {}
    for table in tables:
        ended = next(r.event for r in records[table.match_id] if isinstance(r.event, MatchEnded))
        scores[table.index] = {s.seat: s.score for s in ended.standings}
    seated = state.season.rounds[1].seated["1"]
    expected = {}
    for index, table in enumerate(seated.tables):
        other = scores[1 - index]
        for seat, player in enumerate(table.seats):
            mine = scores[index][seat]
            expected[player] = 2 if mine > other[seat] else 1 if mine == other[seat] else 0
    rows = standings(state, state.season, "1")
    assert {r.entrant: r.points for r in rows} == expected
    assert {r.entrant: r.column("matchpoint_percent") for r in rows} == {
        e: 50 * p for e, p in expected.items()
    }
