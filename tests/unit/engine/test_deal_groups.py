"""A deal group (a duplicate league's tables of one round): every match deals the same
cards whatever its players' client seeds, its seed stays hidden after its end until the
lobby has it revealed, and the match then verifies offline with the deferred reveal."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools

import pytest

from services.engine.app import Engine, Ports
from support.engine import (
    SPECTATOR_CALLER,
    FakeNow,
    FixedClock,
    MemoryTimerIndex,
    account,
    counter_ids,
    engine_fixture,
    player,
    token,
)
from tavola.cli.replay import decode
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.memory import InMemoryEventStore
from tavola.match.events import MatchCreated, MatchEnded, SeedRevealed
from tavola.match.verify import Discrepancy, verify
from tavola.protocol.envelopes import SPECTATOR
from tavola.protocol.errors import ServiceError
from tavola.rules import fairness, registry
from tavola.v1 import game_pb2, internal_pb2, lobby_pb2

GROUP = "league/L1/1/1/0"
BARBU = {"blocks": "1"}


class GroupSeeds:
    """The vault's answer for grouped matches: every match of the group has its seed."""

    async def seed(self, match_id: str) -> bytes:
        return hashlib.sha256(f"group|{GROUP}".encode()).digest()


def engine() -> tuple[Engine, InMemoryEventStore]:
    store = InMemoryEventStore(FixedClock())
    salts = itertools.count(1)
    ports = Ports(
        store=store,
        seeds=GroupSeeds(),
        new_id=counter_ids(),  # type: ignore[arg-type]
        salt=lambda n: next(salts).to_bytes(n, "big"),
        now_ms=FakeNow(),
        timer_index=MemoryTimerIndex(store),
    )
    return Engine(ports), store


async def create(engine: Engine, match_id: str, client_seed: bytes) -> None:
    seats = [
        internal_pb2.MatchSeat(
            seat=i,
            player_name=f"P{i}",
            token_sha256=hashlib.sha256(token(i).encode()).hexdigest(),
            client_seed=client_seed + bytes([i]),
            account_id=account(i),
        )
        for i in range(4)
    ]
    await engine.create_match(
        internal_pb2.CreateMatchRequest(
            match_id=match_id,
            table_id=f"t-{match_id}",
            game="barbu",
            options=BARBU,
            seats=seats,
            deal_group=GROUP,
        )
    )


async def play_to_end(engine: Engine, match_id: str) -> None:
    for _ in range(10_000):
        first = await engine.view(  # a player's view: no spectator watches a grouped match
            game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=token(0)), player(0)
        )
        if first.finished:
            return
        seat = first.to_act[0]
        view = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=token(seat)),
            player(seat),
        )
        await engine.submit(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=token(seat),
                command_id=f"c-{match_id}-{_}",
                action=view.legal_actions[0].code,
            ),
            player(seat),
        )
    raise AssertionError("the match did not end")


def dealt(records: list) -> list:
    return [r.event for r in records if type(r.event).__name__ == "HandDealt"]


async def test_grouped_matches_deal_the_same_cards_whatever_their_client_seeds():
    engine_, store = engine()
    await create(engine_, "m1", b"ana")
    await create(engine_, "m2", b"bia")
    one = decode(await store.read_stream("match-m1"))
    two = decode(await store.read_stream("match-m2"))
    created = one[0].event
    assert isinstance(created, MatchCreated) and created.deal_group == GROUP
    assert all(s.client_seed_hex == "" for s in created.seats)  # client seeds are not used
    assert dealt(one) and dealt(one) == dealt(two)


def test_the_same_seed_gives_the_same_deal_by_the_rules():
    game = registry.get("barbu")
    seed = bytes(32)
    deals = []
    for _ in range(2):
        state = game.initial_state(4, game.parse_options(BARBU, 4))
        request = game.chance(state)
        while request is not None and request.purpose != "deal/1":
            outcome = fairness.outcome(seed, (b"",) * 4, request)
            for event in game.resolve_chance(state, request, outcome):
                state = game.evolve(state, event)
            request = game.chance(state)
        assert request is not None
        deals.append(
            game.resolve_chance(state, request, fairness.outcome(seed, [b""] * 4, request))
        )
    assert deals[0] == deals[1]


async def test_a_grouped_match_keeps_its_seed_until_the_lobby_reveals_it_then_verifies():
    engine_, store = engine()
    await create(engine_, "m1", b"")
    with pytest.raises(ServiceError) as early:  # not before its end
        await engine_.reveal_seed(internal_pb2.RevealSeedRequest(match_id="m1"))
    assert early.value.reason.code == "match.not_finished"
    await play_to_end(engine_, "m1")
    stored = await store.read_stream("match-m1")
    assert stored[-1].type == "match.MatchEnded"
    assert all(s.type != "match.SeedRevealed" for s in stored)
    got = await engine_.get_match(game_pb2.GetMatchRequest(match_id="m1"))
    assert got.seed == ""  # a player of a finished table cannot read it early
    watch = game_pb2.GetViewRequest(match_id="m1", seat=SPECTATOR)
    with pytest.raises(ServiceError) as hidden:  # its play shows the group's deals
        await engine_.view(watch, SPECTATOR_CALLER)
    assert hidden.value.reason.code == "match.duplicate_running"
    with pytest.raises(ServiceError):
        await engine_.authorize_stream("m1", SPECTATOR, "", SPECTATOR_CALLER)
    with pytest.raises(ServiceError):
        await engine_.export(game_pb2.ExportMatchRequest(match_id="m1"))
    with pytest.raises(Discrepancy, match="not revealed"):
        verify(decode(stored))
    answer = await engine_.reveal_seed(internal_pb2.RevealSeedRequest(match_id="m1"))
    assert answer.revealed
    again = await engine_.reveal_seed(internal_pb2.RevealSeedRequest(match_id="m1"))
    assert not again.revealed and again.version == answer.version
    stored = await store.read_stream("match-m1")
    records = decode(stored)
    assert isinstance(records[-1].event, SeedRevealed)
    assert isinstance(records[-2].event, MatchEnded)
    assert verify_chain(stored) is None
    verify(records)
    assert (await engine_.get_match(game_pb2.GetMatchRequest(match_id="m1"))).seed
    assert (await engine_.view(watch, SPECTATOR_CALLER)).finished  # now anyone may watch
    exported = await engine_.export(game_pb2.ExportMatchRequest(match_id="m1"))
    assert exported.events


async def test_an_ungrouped_match_whose_seed_is_revealed_apart_from_its_end_fails():
    fx = engine_fixture()
    await fx.create(game="barbu", options=BARBU)
    await fx.play_to_end("m1")
    records = decode(await fx.store.read_stream("match-m1"))
    verify(records)
    last = records[-1]
    assert isinstance(last.event, SeedRevealed) and records[-2].command_id == last.command_id
    records[-1] = dataclasses.replace(last, command_id="p/reveal")
    with pytest.raises(Discrepancy, match="SeedRevealed"):  # the end had it
        verify(records)


def test_the_public_create_table_request_has_no_deal_group():
    names = {f.name for f in lobby_pb2.CreateTableRequest.DESCRIPTOR.fields}
    assert not any("group" in name or "seed" in name for name in names)
