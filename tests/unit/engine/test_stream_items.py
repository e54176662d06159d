"""What a stream sends, serialized once for all the streams of a match: byte for byte the
``StreamEventsResponse`` of each viewer's own envelope (``to_envelope``), from the match's
tail in memory (the bytes every stream shares) and from the log alike, with an automatic
move's reason in the stream's language."""

from __future__ import annotations

import pytest

from services.engine.cache import WIRE_EVENTS
from services.engine.queries import packed_event, view_of
from support.engine import engine_fixture, token
from tavola.match.events import option_texts
from tavola.protocol.envelopes import SPECTATOR, to_envelope
from tavola.rules import registry
from tavola.v1 import events_pb2, game_pb2

GAMES = tuple((game, option_texts(registry.get(game).info.short)) for game in registry.names())
VIEWERS = (SPECTATOR, 0, 1, 2, 3)


async def expected(fx, viewer: int, locale: str) -> list[bytes]:
    return [
        game_pb2.StreamEventsResponse(
            event=to_envelope(stored, viewer, "t1", locale)
        ).SerializeToString()
        for stored in await fx.store.read_stream("match-m1")
    ]


async def sent(fx, viewer: int, locale: str, after: int = 0, limit: int = 10_000) -> list[bytes]:
    return [i.data for i in await fx.engine.stream_items("m1", viewer, after, limit, locale)]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_every_event_is_each_viewers_own_envelope_from_memory_and_from_the_log(game, options):
    fx = engine_fixture()
    await fx.create(game, options=options)
    fx.engine.watch("m1")  # the tail is kept: streams read it from memory
    timeouts = 0
    live = 0  # a live stream's last version: it reads what each append brings
    for turn in range(400):  # persons at every seat; every third turn the clock plays
        spectator = await fx.view("m1", SPECTATOR)
        new = await fx.engine.stream_items("m1", 0, live, 10_000)
        live = new[-1].version if new else live
        # the last few versions only: those before the last append, and what it brought
        assert len(fx.engine.cache.peek("m1").wire) <= WIRE_EVENTS + len(new)
        if (await fx.engine.load("m1")).ended is not None:
            break
        if spectator.to_act and spectator.deadlines and timeouts < 3 and turn % 3 == 0:
            fx.now.ms += 10 * 60_000
            if await fx.engine.fire_due():
                timeouts += 1
                continue
        if spectator.to_act:
            seat = spectator.to_act[0]
            await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
        else:
            fx.now.ms += 60_000
            await fx.engine.fire_due()
    version = (await fx.engine.load("m1")).version
    tail = max(1, version - 40)  # within the tail in memory
    for viewer in VIEWERS:
        for locale in ("", "pt"):
            want = await expected(fx, viewer, locale)
            assert await sent(fx, viewer, locale, after=tail) == want[tail:]
            assert fx.engine.cache.peek("m1").wire  # made once for every stream
            assert await sent(fx, viewer, locale, after=tail) == want[tail:]  # kept bytes
            assert await sent(fx, viewer, locale) == want  # the log, from the start
            assert await sent(fx, viewer, locale, after=3, limit=5) == want[3:8]
    items = await fx.engine.stream_items("m1", 0, 0, 10_000)
    envelopes = [to_envelope(s, 0, "t1") for s in await fx.store.read_stream("match-m1")]
    assert [(i.version, i.type, i.last_in_batch) for i in items] == [
        (e.version, e.type, e.last_in_batch) for e in envelopes
    ]
    assert timeouts and version > 40, (timeouts, version)
    assert any(e.cause.kind == events_pb2.CAUSE_KIND_TIMEOUT for e in envelopes)


async def test_a_streams_view_is_get_views_answer_serialized():
    fx = engine_fixture()
    await fx.create("barbu")
    state = await fx.engine.load("m1")
    for seat in (SPECTATOR, 0, 1, 2, 3):
        request = game_pb2.GetViewRequest(
            match_id="m1", seat=seat, seat_token=token(seat) if seat >= 0 else "", locale="pt"
        )
        caller = await fx.caller("m1", seat)
        version, data = await fx.engine.stream_view(request, caller)
        view = await fx.engine.view(request, caller)
        assert version == view.version == state.version
        assert game_pb2.StreamEventsResponse.FromString(data).view == view
        assert view == view_of(await fx.engine.load("m1"), seat, "pt")


async def test_a_packed_response_is_the_events_and_the_view_as_protobuf_merges_them():
    """``packed_event`` moves each event to ``events``; the responses joined are one
    ``StreamEventsResponse`` with every event in order and the view."""
    fx = engine_fixture()
    await fx.create("fan-tan", options=option_texts(registry.get("fan-tan").info.short))
    items = await fx.engine.stream_items("m1", 0, 0, 10_000)
    view = game_pb2.GetViewResponse(version=items[-1].version, game="fan-tan", to_act=[0])
    joined = b"".join(
        [
            *(packed_event(item.data) for item in items),
            game_pb2.StreamEventsResponse(view=view).SerializeToString(),
        ]
    )
    packed = game_pb2.StreamEventsResponse.FromString(joined)
    assert not packed.HasField("event") and packed.view == view
    assert [e.SerializeToString() for e in packed.events] == [
        game_pb2.StreamEventsResponse.FromString(item.data).event.SerializeToString()
        for item in items
    ]
