"""One writer per table, in memory: the engine that writes a match decides from memory
(no read of the log per command, no command lookup unless the command would be refused),
catches up when its memory may be behind, and keeps every cache bounded."""

from __future__ import annotations

import asyncio

from services.engine.app import Engine, Ports
from services.engine.cache import Locks, MatchCache
from services.engine.presence import Presence, PresenceSettings
from support.engine import FakeSeeds, MemoryTimerIndex, counter_ids, engine_fixture, player, token
from tavola.eventlog.memory import InMemoryEventStore
from tavola.v1 import game_pb2


class Counting(InMemoryEventStore):
    """The in-memory log, counting the reads and lookups the engine makes."""

    def __init__(self, clock) -> None:  # type: ignore[no-untyped-def]
        super().__init__(clock)
        self.reads = 0
        self.lookups = 0

    async def read_stream(self, stream_id, after_version=0, limit=None):  # type: ignore[no-untyped-def]
        self.reads += 1
        return await super().read_stream(stream_id, after_version, limit)

    async def find_command(self, stream_id, command_id):  # type: ignore[no-untyped-def]
        self.lookups += 1
        return await super().find_command(stream_id, command_id)


def counting_fixture(**ports: object):  # type: ignore[no-untyped-def]
    fx = engine_fixture()
    store = Counting(fx.store._clock)
    fx.store = store
    fx.engine = Engine(
        Ports(
            store=store,
            seeds=FakeSeeds(),
            new_id=counter_ids(),  # type: ignore[arg-type]
            salt=lambda n: bytes(n),
            now_ms=fx.now,
            timer_index=MemoryTimerIndex(store),
            **ports,  # type: ignore[arg-type]
        )
    )
    return fx


async def play(fx, moves: int, match_id: str = "m1") -> None:  # type: ignore[no-untyped-def]
    for _ in range(moves):
        (seat,) = (await fx.view(match_id, -1)).to_act
        await fx.act(match_id, seat, (await fx.view(match_id, seat)).legal_actions[0].code)


async def test_the_writer_of_a_match_decides_from_memory_without_reading_the_log():
    fx = counting_fixture()
    await fx.create()
    await play(fx, 1)
    reads, lookups = fx.store.reads, fx.store.lookups
    await play(fx, 20)
    assert (fx.store.reads, fx.store.lookups) == (reads, lookups)


async def test_a_retried_command_is_looked_up_only_because_it_would_be_refused():
    fx = counting_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    first = await fx.act("m1", seat, "7D", command_id="once")
    assert fx.store.lookups == 0
    again = await fx.act("m1", seat, "7D", command_id="once")  # no longer legal: looked up
    assert fx.store.lookups == 1
    assert again.duplicate and again.version == first.version


async def test_an_engine_that_does_not_hold_the_matchs_partition_reads_the_log_every_time():
    fx = counting_fixture(owns=lambda _match_id: False)
    await fx.create()
    before = fx.store.reads
    await play(fx, 3)
    assert fx.store.reads >= before + 3 * 3  # two views and a command per move


async def test_an_engine_whose_memory_is_behind_catches_up_and_decides_again():
    fx = engine_fixture()
    await fx.create()
    other = fx.restarted()
    await play(fx, 1)  # both engines now hold the match in memory
    spectator = await other.view(game_pb2.GetViewRequest(match_id="m1", seat=-1), player(0))
    (seat,) = spectator.to_act
    await play(fx, 2)  # the first engine moves on; the other's memory is now behind
    (seat,) = (await fx.view("m1", -1)).to_act
    code = (await fx.view("m1", seat)).legal_actions[0].code
    answer = await other.submit(
        game_pb2.SubmitActionRequest(
            match_id="m1", seat=seat, seat_token=token(seat), command_id="late", action=code
        ),
        player(seat),
    )
    stored = await fx.store.read_stream("match-m1")
    assert [e.version for e in stored] == list(range(1, len(stored) + 1))
    assert answer.version == len(stored) and not answer.duplicate


async def test_the_match_cache_keeps_at_most_its_capacity_and_an_evicted_match_comes_back():
    fx = counting_fixture(cache_matches=2)
    for match_id in ("a", "b", "c"):
        await fx.create(match_id=match_id)
    assert len(fx.engine.cache) == 2 and "a" not in fx.engine.cache
    view = await fx.view("a", -1)  # folded again from the log
    assert view.to_act and len(fx.engine.cache) == 2


async def test_locks_are_kept_only_while_a_command_holds_or_waits_for_them():
    fx = engine_fixture()
    await fx.create()
    (seat,) = (await fx.view("m1", -1)).to_act
    code = (await fx.view("m1", seat)).legal_actions[0].code
    await asyncio.gather(
        fx.act("m1", seat, code, command_id="x"), fx.act("m1", seat, code, command_id="x")
    )
    assert len(fx.engine.locks) == 0


async def test_a_view_is_computed_once_per_seat_and_version(monkeypatch):
    from services.engine import queries

    fx = engine_fixture()
    await fx.create()
    computed = []
    real = queries.view_bytes

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        computed.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(queries, "view_bytes", counting)
    views = [await fx.view("m1", 0) for _ in range(3)]
    assert computed == [0] and views[0] == views[2]
    views[0].ClearField("version")  # each caller gets its own copy
    assert (await fx.view("m1", 0)).version


async def test_a_watched_match_serves_its_new_events_from_memory():
    fx = counting_fixture()
    await fx.create()
    await play(fx, 1)
    version = (await fx.view("m1", -1)).version
    fx.engine.watch("m1")
    await play(fx, 1)
    reads = fx.store.reads
    events = await fx.engine.events_after("m1", -1, version)
    assert fx.store.reads == reads and next(e.version for e in events) == version + 1


def test_the_cache_evicts_the_least_recently_used_match_but_never_a_watched_one():
    cache = MatchCache(capacity=2)
    states = [object() for _ in range(3)]
    cache.put("a", states[0], fresh=True)  # type: ignore[arg-type]
    cache.put("b", states[1], fresh=True)  # type: ignore[arg-type]
    cache.peek("a").watchers.add(asyncio.Event())  # type: ignore[union-attr]
    cache.put("c", states[2], fresh=True)  # type: ignore[arg-type]
    assert "a" in cache and "b" not in cache and "c" in cache


def test_presence_tracks_a_bounded_number_of_matches():
    presence = Presence(lambda: 0, PresenceSettings(), capacity=2)
    for match_id in ("a", "b", "c"):
        presence.seen(match_id, 0)
        presence.moved(match_id, 0, automatic=True)
    assert len(presence) == 2 and presence.missed("a", 0) == 0 and presence.missed("c", 0) == 1


async def test_a_lock_is_created_for_a_command_and_forgotten_after():
    locks = Locks()
    async with locks.hold("m"):
        assert len(locks) == 1
    assert len(locks) == 0
