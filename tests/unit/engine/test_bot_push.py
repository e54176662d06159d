"""The engine pushes each platform bot seat its own events and, when it is to act, its
view; a person's seat is never pushed, another seat's cards never; and a bot service fed
by the pushes plays a whole match with one request per decision (its move)."""

from __future__ import annotations

import pytest

from services.bots.app import BotPlayer, BotPorts
from services.engine.callers import Service
from services.engine.push import BotPush
from services.engine.queries import bot_view_bytes, view_of
from support.engine import bot_ports, engine_fixture
from tavola.bus.subjects import Subjects
from tavola.match.events import option_texts
from tavola.protocol.envelopes import FULL, SPECTATOR, envelopes_for, to_envelope
from tavola.rules import registry
from tavola.v1 import game_pb2, internal_pb2

BOTS = (1, 2, 3)
GAMES = tuple((game, option_texts(registry.get(game).info.short)) for game in registry.names())


def pushing(fx, turns=None):  # type: ignore[no-untyped-def]
    """Wire a ``BotPush`` to the fixture's engine; returns the pushes it makes (and puts
    the turns it tells in ``turns``, each after the pushes before it)."""
    sent: list[internal_pb2.SeatPush] = []

    async def publish(subject: str, data: bytes) -> None:
        if ".bots.act." in subject:
            turn = internal_pb2.BotTurn.FromString(data)
            assert subject == Subjects().bot_turn(turn.match_id, turn.seat)
            if turns is not None:
                turns.append((len(sent), turn))
            return
        push = internal_pb2.SeatPush.FromString(data)
        assert subject == Subjects().bot_seat(push.match_id, push.seat)
        sent.append(push)

    fx.engine.listeners.append(BotPush(publish, Subjects(), bot_view_bytes))
    return sent


async def test_only_the_platforms_bot_seats_are_pushed_and_only_what_they_may_see():
    fx = engine_fixture()
    sent = pushing(fx)
    await fx.create(bots=BOTS)
    for _ in range(12):  # a bot seat is pushed at its turn: every one comes to act
        (seat, *_) = (await fx.view("m1", SPECTATOR)).to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    assert sent and {p.seat for p in sent} == set(BOTS)
    for push in sent:
        for envelope in push.events:
            if envelope.type == "fan-tan.HandDealt":
                mine = list(envelope.audience) == [push.seat]
                assert envelope.hidden != mine and bool(envelope.payload.fields) == mine


async def test_a_bot_seat_to_act_gets_its_view_at_the_last_version_pushed():
    fx = engine_fixture()
    sent = pushing(fx)
    await fx.create(bots=BOTS)
    (seat,) = (await fx.view("m1", SPECTATOR)).to_act
    with_view = [p for p in sent if p.HasField("view")]
    if seat in BOTS:
        (push,) = with_view
        assert push.seat == seat and push.view.version == push.events[-1].version
        assert push.view.legal_actions and not push.view.blocked
    else:
        assert not with_view


async def test_a_bot_seat_to_act_is_told_its_turn_right_after_its_view():
    fx = engine_fixture()
    turns: list[tuple[int, internal_pb2.BotTurn]] = []
    sent = pushing(fx, turns)
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    spectator = await fx.view("m1", SPECTATOR)
    ((before, turn),) = turns
    assert turn.match_id == "m1" and list(spectator.to_act) == [turn.seat]
    assert turn.version == spectator.version
    pushed = sent[before - 1]  # the push just before it: that seat's, with its view
    assert pushed.seat == turn.seat and pushed.view.version == turn.version


async def test_a_bot_seat_is_pushed_at_its_turn_every_event_since_its_last_push():
    """One push per turn, not one per append: the events between a seat's turns wait in
    the engine and arrive with its next push, each version once and none missing."""
    fx = engine_fixture()
    sent = pushing(fx)
    push = BotPush(lambda _subject, _data: _nothing(), Subjects(), bot_view_bytes)
    fx.engine.listeners.append(push)
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    for _ in range(40):
        spectator = await fx.view("m1", SPECTATOR)
        (seat,) = spectator.to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
        assert all(p.HasField("view") for p in sent)  # every push is a turn
    for seat in range(4):
        versions = [e.version for p in sent if p.seat == seat for e in p.events]
        assert versions == list(range(1, versions[-1] + 1))  # every version once, in order
        last = max(p.view.version for p in sent if p.seat == seat)
        assert versions[-1] == last
    assert len(push) == 1
    while not (await fx.view("m1", SPECTATOR)).finished:  # to the end: nothing waits then
        (seat,) = (await fx.view("m1", SPECTATOR)).to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    assert len(push) == 0


async def _nothing() -> None:
    return None


async def test_events_that_wait_for_a_turn_are_bounded():
    fx = engine_fixture()
    push = BotPush(lambda _subject, _data: _nothing(), Subjects(), bot_view_bytes, capacity=2)
    fx.engine.listeners.append(push)
    for n in range(1, 5):
        await fx.create(match_id=f"m{n}", bots=(1, 2, 3))
    assert len(push) == 2  # the matches appended to last


class Asking:
    """Counts what the bot service asks the engine (besides its moves)."""

    def __init__(self, ports: BotPorts) -> None:
        self.asked = 0
        self.ports = ports

    def wrap(self) -> BotPorts:
        async def get_view(request):  # type: ignore[no-untyped-def]
            self.asked += 1
            return await self.ports.get_view(request)

        async def seat_events(request):  # type: ignore[no-untyped-def]
            self.asked += 1
            return await self.ports.seat_events(request)

        return BotPorts(
            self.ports.get_match, get_view, seat_events, self.ports.submit, self.ports.budget
        )


async def test_a_bot_service_told_its_turns_plays_each_once_and_asks_nothing():
    """Each turn decided when the engine tells it; the same turn told again (the engine
    does so while a table waits) finds it decided and submits nothing more."""
    fx = engine_fixture()
    turns: list[tuple[int, internal_pb2.BotTurn]] = []
    sent = pushing(fx, turns)
    asking = Asking(bot_ports(fx, samples=4))
    submitted: list[str] = []
    ports = asking.wrap()
    submit = ports.submit

    async def counting(request):  # type: ignore[no-untyped-def]
        submitted.append(request.command_id)
        return await submit(request)

    ports.submit = counting
    player = BotPlayer(ports)
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    delivered = told = 0
    while told < len(turns):  # each turn as NATS would deliver it: after the pushes before it
        before, turn = turns[told]
        told += 1
        for push in sent[delivered:before]:
            player.on_push(push)
        delivered = before
        await player.on_turn(turn)
        await player.on_turn(turn)  # told again: decided already
    assert (await fx.view("m1", SPECTATOR)).finished
    assert asking.asked == 0
    assert len(submitted) == len(set(submitted)) == len(turns)


async def test_a_lost_push_makes_the_bot_ask_and_play_on():
    fx = engine_fixture()
    sent = pushing(fx)
    asking = Asking(bot_ports(fx, samples=4))
    player = BotPlayer(asking.wrap())
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    sent.clear()  # the opening's pushes never arrived
    spectator = await fx.view("m1", SPECTATOR)
    (seat,) = spectator.to_act
    await player.on_turn(internal_pb2.BotTurn(match_id="m1", seat=seat, version=spectator.version))
    assert asking.asked == 2  # its view and its seat's events
    after = await fx.view("m1", SPECTATOR)
    assert after.version > spectator.version
    assert isinstance(after, game_pb2.GetViewResponse)


async def test_every_pushed_event_is_exactly_what_the_seats_own_stream_carries():
    fx = engine_fixture()
    sent = pushing(fx)
    await fx.create(game="doppelkopf", bots=(1, 2, 3), options={"match": "one_game"})
    for _ in range(30):  # the person plays too, so causes of every seat are pushed
        spectator = await fx.view("m1", SPECTATOR)
        (seat, *_) = spectator.to_act
        view = await fx.view("m1", seat)
        await fx.act("m1", seat, view.legal_actions[0].code)
    for push in sent:
        versions = [e.version for e in push.events]
        own = await fx.engine.events_after("m1", push.seat, versions[0] - 1, len(versions))
        assert list(push.events) == own


async def test_envelopes_made_once_for_many_viewers_are_each_viewers_own():
    fx = engine_fixture()
    await fx.create(game="doppelkopf", options={"timers": "false"})
    (seat, *_) = (await fx.view("m1", SPECTATOR)).to_act
    await fx.act("m1", seat, "solo H", command_id="secret-id")  # a secret choice's cause
    viewers = [FULL, SPECTATOR, 0, 1, 2, 3]
    for stored in await fx.store.read_stream("match-m1"):
        made = envelopes_for(stored, viewers, "t1")
        for viewer, data in zip(viewers, made, strict=True):
            assert data == to_envelope(stored, viewer, "t1").SerializeToString()


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_envelopes_written_directly_are_protobufs_bytes_for_every_viewer(game, options):
    """A whole match of every game: each event's envelope for every viewer, with and
    without a table id (the relay publishes without), byte for byte protobuf's."""
    fx = engine_fixture()
    await fx.create(game, options=options)
    async for _ in fx.states():
        pass
    viewers = [FULL, SPECTATOR, 0, 1, 2, 3]
    for stored in await fx.store.read_stream("match-m1"):
        for table_id in ("t1", ""):
            made = envelopes_for(stored, viewers, table_id)
            for viewer, data in zip(viewers, made, strict=True):
                assert data == to_envelope(stored, viewer, table_id).SerializeToString()


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_a_pushed_view_is_get_views_answer_less_what_bots_do_not_read(game, options):
    """At every version of a whole match, for every seat: the pushed view is what
    ``GetView`` answers the bot service, without labels, standings, deadlines, away."""
    fx = engine_fixture()
    await fx.create(game, options=options)
    async for state in fx.states():
        for seat in range(state.players):
            answer = view_of(state, seat, "en", blocked=False)
            for field in ("standings", "deadlines", "away"):
                answer.ClearField(field)
            for legal in answer.legal_actions:
                legal.label = ""
            assert game_pb2.GetViewResponse.FromString(bot_view_bytes(state, seat)) == answer


async def test_a_level_that_reads_no_view_is_pushed_none_and_one_that_does_gets_it():
    fx = engine_fixture()
    sent = pushing(fx)
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})  # easy bots: no view read
    for _ in range(6):
        (seat,) = (await fx.view("m1", SPECTATOR)).to_act
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    easy = [p for p in sent if p.HasField("view")]
    assert easy and not any(p.view.HasField("view") for p in easy)
    assert all(p.view.legal_actions for p in easy)  # what the easy level does read
    fx2 = engine_fixture()
    sent2 = pushing(fx2)
    await fx2.create(bots=(0, 1, 2, 3), options={"hands": "1"}, level="medium")
    (push, *_) = [p for p in sent2 if p.HasField("view")]
    asked = await fx2.engine.view(
        game_pb2.GetViewRequest(match_id="m1", seat=push.seat), Service.BOTS
    )
    assert push.view.view == asked.view and push.view.HasField("view")


async def test_a_level_that_reads_views_pushed_none_asks_for_its_view_and_plays():
    """Two services of different releases: a push without the view's record reaches a
    level that reads it; the bot asks ``GetView`` once and decides as it would have."""
    fx = engine_fixture()
    sent = pushing(fx)
    asking = Asking(bot_ports(fx, samples=4))
    player = BotPlayer(asking.wrap())
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"}, level="medium")
    spectator = await fx.view("m1", SPECTATOR)
    for push in sent:
        push.view.ClearField("view")
        player.on_push(push)
    (seat,) = spectator.to_act
    await player.on_turn(internal_pb2.BotTurn(match_id="m1", seat=seat, version=spectator.version))
    assert asking.asked == 1  # its view, nothing else
    assert (await fx.view("m1", SPECTATOR)).version > spectator.version
