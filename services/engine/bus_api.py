"""The engine's internal NATS API: the lobby creates matches; the bot service acts and
looks for the platform's bot seats. The caller is known from the subject (each service's
NATS user may publish only on its own: ``<ns>.rpc.engine.<caller>.<Method>``)."""

from __future__ import annotations

from nats.aio.client import Client as NATS
from nats.aio.subscription import Subscription

from services.engine.app import Engine
from services.engine.callers import Service
from tavola.bus import rpc, subjects
from tavola.protocol.errors import denied
from tavola.v1 import game_pb2, internal_pb2


async def serve(nc: NATS, engine: Engine, names: subjects.Subjects) -> list[Subscription]:
    async def create(
        request: internal_pb2.CreateMatchRequest, _: rpc.Request
    ) -> internal_pb2.CreateMatchResponse:
        return await engine.create_match(request)

    async def submit(
        request: game_pb2.SubmitActionRequest, _: rpc.Request
    ) -> game_pb2.SubmitActionResponse:
        return await engine.submit(request, Service.BOTS)

    async def view(request: game_pb2.GetViewRequest, _: rpc.Request) -> game_pb2.GetViewResponse:
        if request.seat < 0:
            raise denied("seat.not_bot", seat=request.seat)
        return await engine.view(request, Service.BOTS)

    async def get_match(
        request: game_pb2.GetMatchRequest, _: rpc.Request
    ) -> game_pb2.GetMatchResponse:
        return await engine.get_match(request)

    async def seat_events(
        request: internal_pb2.SeatEventsRequest, _: rpc.Request
    ) -> internal_pb2.SeatEventsResponse:
        state = await engine.load(request.match_id)
        if not 0 <= request.seat < state.players or not state.seat(request.seat).bot_level:
            raise denied("seat.not_bot", seat=request.seat)
        return internal_pb2.SeatEventsResponse(
            events=await engine.events_after(request.match_id, request.seat, request.after_version)
        )

    lobby_methods = {"CreateMatch": rpc.Method(internal_pb2.CreateMatchRequest, create)}
    bot_methods = {
        "GetSeatEvents": rpc.Method(internal_pb2.SeatEventsRequest, seat_events),
        "SubmitAction": rpc.Method(game_pb2.SubmitActionRequest, submit),
        "GetView": rpc.Method(game_pb2.GetViewRequest, view),
        "GetMatch": rpc.Method(game_pb2.GetMatchRequest, get_match),
    }
    subs = await rpc.serve(nc, names.engine_rpc("lobby"), subjects.ENGINE_QUEUE, lobby_methods)
    subs += await rpc.serve(nc, names.engine_rpc("bots"), subjects.ENGINE_QUEUE, bot_methods)
    return subs
