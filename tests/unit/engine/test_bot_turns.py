"""A bot's turn that leads to no move is told again while the table waits: after the
seat's thinking time and a grace, then less and less often, for a bounded time, and at
once when a bot service says hello; an engine that gains the match's partition finds the
turn in the log. A person's turn, a table that moved on, a match that ended: never."""

from __future__ import annotations

import math

import pytest

from services.engine import bot_turns
from services.engine.bot_turns import BotTurns, BotTurnWatch, bot_seats_awaited
from services.engine.push import BotPush
from services.engine.queries import bot_view_bytes
from support.engine import MemoryTimerIndex, engine_fixture
from tavola.bus.subjects import Subjects
from tavola.protocol.envelopes import SPECTATOR
from tavola.v1 import internal_pb2


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ----- the schedule ------------------------------------------------------------------------
def test_a_turn_is_due_after_its_delay_then_less_and_less_often_up_to_the_cap():
    clock = Clock()
    turns = BotTurns(clock)
    turns.told("m1", 7, 6.0)
    assert turns.due() == []
    gaps = []
    last = clock.now
    for _ in range(8):
        while not turns.due():
            clock.now += 0.5
        gaps.append(clock.now - last)
        last = clock.now
    assert gaps[0] == pytest.approx(6.0, abs=0.5)
    assert gaps[1] == pytest.approx(12.0, abs=0.5) and gaps[2] == pytest.approx(24.0, abs=0.5)
    assert max(gaps) == pytest.approx(bot_turns.RESEND_CAP_S, abs=0.5)


def test_telling_the_same_version_again_keeps_its_schedule_and_a_new_one_starts_afresh():
    clock = Clock()
    turns = BotTurns(clock)
    turns.told("m1", 7, 6.0)
    clock.now += 5.0
    turns.told("m1", 7, 6.0)  # the same turn told again (a re-send): still due at +6
    clock.now += 1.5
    assert turns.due() == [("m1", 7)]
    turns.told("m1", 9, 6.0)  # the table moved on: the next turn's own schedule
    clock.now += 5.0
    assert turns.due() == []
    clock.now += 1.5
    assert turns.due() == [("m1", 9)]


def test_a_settled_match_is_never_due_and_forgotten_partitions_are_dropped():
    clock = Clock()
    turns = BotTurns(clock)
    turns.told("m1", 3, 1.0)
    turns.told("m2", 3, 1.0)
    turns.told("m3", 3, 1.0)
    turns.settled("m1")
    turns.forget(lambda match_id: match_id != "m2")
    clock.now += 2
    assert turns.due() == [("m3", 3)]
    assert len(turns) == 1 and "m3" in turns and turns.version("m3") == 3


def test_after_telling_for_long_enough_only_a_hello_tells_again():
    clock = Clock()
    turns = BotTurns(clock)
    turns.told("m1", 3, 6.0)
    told = 0
    while clock.now < 1000 + 2 * bot_turns.RESEND_FOR_S:
        told += len(turns.due())
        clock.now += 1.0
    assert 0 < told < 60  # bounded: no background retry forever
    assert "m1" in turns  # still waiting: a hello tells it again
    assert turns.hello() == 1
    assert turns.due() == [("m1", 3)]


def test_a_hello_after_an_outage_is_told_a_sweep_at_a_time():
    clock = Clock()
    turns = BotTurns(clock)
    for n in range(600):
        turns.told(f"m{n}", 1, 6.0)
    turns.hello()
    sizes = [len(turns.due()) for _ in range(3)]
    assert sizes == [bot_turns.RESEND_PER_SWEEP, bot_turns.RESEND_PER_SWEEP, 600 - 512]


def test_the_waiting_matches_are_bounded():
    turns = BotTurns(Clock(), capacity=3)
    for n in range(5):
        turns.told(f"m{n}", 1, 6.0)
    assert len(turns) == 3 and "m0" not in turns and "m4" in turns


def test_a_stale_heap_stays_small():
    clock = Clock()
    turns = BotTurns(clock)
    for version in range(20_000):  # one table moving on and on
        turns.told("m1", version, 6.0)
    assert len(turns._heap) <= 4 * 1024 + 1


# ----- with the engine -----------------------------------------------------------------------
class Telling:
    """An engine with its bot pushes and turns' watch; the turns it tells, in order."""

    def __init__(self, publishing: bool = True) -> None:
        self.fx = engine_fixture()
        self.clock = Clock()
        self.turns = BotTurns(self.clock)
        self.told: list[internal_pb2.BotTurn] = []
        self.publishing = publishing

        async def publish(subject: str, data: bytes) -> None:
            if not self.publishing:
                raise ConnectionError("the bus is away")
            if ".bots.act." in subject:
                self.told.append(internal_pb2.BotTurn.FromString(data))

        self.push = BotPush(publish, Subjects(), bot_view_bytes, turns=self.turns)
        self.fx.engine.listeners.append(self.push)
        self.watch = BotTurnWatch(
            self.turns, self.fx.engine.load, self.push.resend, lambda _match: True
        )

    async def later(self, seconds: float) -> int:
        self.clock.now += seconds
        return await self.watch.sweep()


async def test_a_table_of_bots_waits_for_its_bot_and_a_lost_turn_is_told_again():
    t = Telling()
    await t.fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    (first,) = t.told
    assert t.turns.version("m1") == first.version
    assert await t.later(1.0) == 0  # within the seat's thinking time and the grace
    assert await t.later(6.0) == 1  # no move came: told again, the same turn
    assert t.told[-1] == first
    assert await t.later(1.0) == 0  # and not again at once


async def test_a_turn_the_bus_did_not_take_is_told_once_it_is_back():
    t = Telling(publishing=False)
    await t.fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    assert t.told == [] and "m1" in t.turns  # never sent, still waited for
    t.publishing = True
    assert await t.later(7.0) == 1
    (turn,) = t.told
    assert turn.version == (await t.fx.view("m1", SPECTATOR)).version


async def test_each_move_moves_the_wait_on_and_the_end_settles_it():
    t = Telling()
    await t.fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    while not (spectator := await t.fx.view("m1", SPECTATOR)).finished:
        seat = spectator.to_act[0]
        await t.fx.act("m1", seat, (await t.fx.view("m1", seat)).legal_actions[0].code)
        if not (await t.fx.view("m1", SPECTATOR)).finished:
            assert t.turns.version("m1") == (await t.fx.view("m1", SPECTATOR)).version
    assert "m1" not in t.turns
    assert await t.later(3600.0) == 0


async def test_a_persons_turn_is_not_a_bots_wait():
    t = Telling()
    await t.fx.create(bots=(1, 2, 3), options={"hands": "1", "timers": "false"})
    for _ in range(12):
        spectator = await t.fx.view("m1", SPECTATOR)
        (seat,) = spectator.to_act
        state = await t.fx.engine.load("m1")
        assert ("m1" in t.turns) == (seat != 0)
        assert bot_seats_awaited(state) == ([] if seat == 0 else [seat])
        await t.fx.act("m1", seat, (await t.fx.view("m1", seat)).legal_actions[0].code)


async def test_a_turn_told_again_finds_the_table_moved_on_elsewhere_and_follows_it():
    """The table moved on without this engine's listeners hearing of it (another engine
    appended): the sweep reads the match and waits for the turn it is at now."""
    t = Telling()
    await t.fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    t.fx.engine.listeners.remove(t.push)
    spectator = await t.fx.view("m1", SPECTATOR)
    seat = spectator.to_act[0]
    await t.fx.act("m1", seat, (await t.fx.view("m1", seat)).legal_actions[0].code)
    assert await t.later(7.0) == 0  # not the old turn...
    now = (await t.fx.view("m1", SPECTATOR)).version
    assert t.told[-1].version == now and t.turns.version("m1") == now  # ...the one it is at


async def test_an_engine_that_gains_the_partition_finds_the_waiting_turn_in_the_log():
    t = Telling(publishing=False)  # the first engine's turn never reached anybody
    await t.fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    await t.fx.create(match_id="m2", bots=(1, 2, 3), options={"hands": "1", "timers": "false"})
    await t.fx.create(match_id="m3", bots=(0, 1, 2, 3), options={"hands": "1"})
    await t.fx.play_to_end("m3")
    spectator = await t.fx.view("m2", SPECTATOR)
    waits_for_person = spectator.to_act == [0]

    restarted = t.fx.restarted()  # knows nothing until it reads the log
    turns = BotTurns(Clock())
    told: list[internal_pb2.BotTurn] = []

    async def publish(subject: str, data: bytes) -> None:
        if ".bots.act." in subject:
            told.append(internal_pb2.BotTurn.FromString(data))

    push = BotPush(publish, Subjects(), bot_view_bytes, turns=turns)
    watch = BotTurnWatch(turns, restarted.load, push.resend, lambda _match: True)
    watch.recover(MemoryTimerIndex(t.fx.store).running_matches)
    assert watch._recovering is not None
    await watch._recovering
    waiting = {turn.match_id for turn in told}
    assert "m1" in waiting and "m3" not in waiting  # the finished match waits for nobody
    assert ("m2" in waiting) == (not waits_for_person)
    assert turns.version("m1") == (await t.fx.view("m1", SPECTATOR)).version
    await watch.stop()


def test_a_turn_never_told_enough_is_not_rescheduled():
    clock = Clock()
    turns = BotTurns(clock)
    turns.told("m1", 1, 6.0)
    clock.now += bot_turns.RESEND_FOR_S + 1  # a very late sweep
    assert turns.due() == [("m1", 1)]
    assert turns._waiting["m1"].next_at == math.inf
