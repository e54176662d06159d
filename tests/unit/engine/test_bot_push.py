"""The engine pushes each platform bot seat its own events and, when it is to act, its
view; a person's seat is never pushed, another seat's cards never; and a bot service fed
by the pushes plays a whole match with one request per decision (its move)."""

from __future__ import annotations

from services.bots.app import BotPlayer, BotPorts
from services.engine.push import BotPush
from services.engine.queries import view_bytes, view_of
from support.engine import bot_ports, engine_fixture
from tavola.bus.subjects import Subjects
from tavola.protocol.envelopes import FULL, SPECTATOR, envelopes_for, to_envelope
from tavola.v1 import events_pb2, game_pb2, internal_pb2

BOTS = (1, 2, 3)


def pushing(fx):  # type: ignore[no-untyped-def]
    """Wire a ``BotPush`` to the fixture's engine; returns the pushes it makes."""
    sent: list[internal_pb2.SeatPush] = []

    async def publish(subject: str, data: bytes) -> None:
        push = internal_pb2.SeatPush.FromString(data)
        assert subject == Subjects().bot_seat(push.match_id, push.seat)
        sent.append(push)

    def view_of(appended, seat):  # type: ignore[no-untyped-def]
        return view_bytes(appended.state, seat, "en", blocked=False)

    fx.engine.listeners.append(BotPush(publish, Subjects(), view_of))
    return sent


async def test_only_the_platforms_bot_seats_are_pushed_and_only_what_they_may_see():
    fx = engine_fixture()
    sent = pushing(fx)
    await fx.create(bots=BOTS)
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


async def test_a_bot_service_fed_by_pushes_plays_a_match_asking_nothing():
    fx = engine_fixture()
    sent = pushing(fx)
    asking = Asking(bot_ports(fx, samples=4))
    player = BotPlayer(asking.wrap())
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    delivered = 0
    for _ in range(2000):
        spectator = await fx.view("m1", SPECTATOR)
        if spectator.finished:
            break
        pending, delivered = sent[delivered:], len(sent)
        for push in pending:
            player.on_push(push)
        last = (await fx.engine.events_after("m1", SPECTATOR, spectator.version - 1))[-1]
        await player.on_event(last)  # the bus's event that says who is to act
    assert (await fx.view("m1", SPECTATOR)).finished
    assert asking.asked == 0


async def test_a_lost_push_makes_the_bot_ask_and_play_on():
    fx = engine_fixture()
    sent = pushing(fx)
    asking = Asking(bot_ports(fx, samples=4))
    player = BotPlayer(asking.wrap())
    await fx.create(bots=(0, 1, 2, 3), options={"hands": "1"})
    sent.clear()  # the opening's pushes never arrived
    spectator = await fx.view("m1", SPECTATOR)
    last = (await fx.engine.events_after("m1", SPECTATOR, spectator.version - 1))[-1]
    await player.on_event(last)
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
            assert events_pb2.EventEnvelope.FromString(data) == to_envelope(stored, viewer, "t1")


async def test_a_pushed_view_is_the_answer_get_view_gives():
    fx = engine_fixture()
    await fx.create(bots=BOTS)
    state = await fx.engine.load("m1")
    for seat in (SPECTATOR, 0, 1, 2, 3):
        pushed = game_pb2.GetViewResponse.FromString(view_bytes(state, seat, "en", False))
        assert pushed == view_of(state, seat, "en", False)
