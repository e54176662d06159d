"""The engine's internal NATS API (lobby creates matches; bots act and look)."""

from __future__ import annotations

from nats.aio.client import Client as NATS
from nats.aio.subscription import Subscription

from services.engine.app import Engine
from tavola.bus import rpc, subjects
from tavola.protocol.errors import denied
from tavola.v1 import game_pb2, internal_pb2


async def serve(nc: NATS, engine: Engine, names: subjects.Subjects) -> list[Subscription]:
    async def create(
        request: internal_pb2.CreateMatchRequest, internal: bool
    ) -> internal_pb2.CreateMatchResponse:
        if not internal:
            raise denied("request.invalid", field="caller", detail="internal only")
        return await engine.create_match(request)

    async def submit(
        request: game_pb2.SubmitActionRequest, internal: bool
    ) -> game_pb2.SubmitActionResponse:
        return await engine.submit(request, internal)

    async def view(request: game_pb2.GetViewRequest, internal: bool) -> game_pb2.GetViewResponse:
        return await engine.view(request, internal)

    async def get_match(
        request: game_pb2.GetMatchRequest, internal: bool
    ) -> game_pb2.GetMatchResponse:
        return await engine.get_match(request)

    async def seat_events(
        request: internal_pb2.SeatEventsRequest, internal: bool
    ) -> internal_pb2.SeatEventsResponse:
        if not internal:
            raise denied("request.invalid", field="caller", detail="internal only")
        state = await engine.load(request.match_id)
        if not 0 <= request.seat < state.players or not state.seat(request.seat).is_bot:
            raise denied("seat.not_bot", seat=request.seat)
        return internal_pb2.SeatEventsResponse(
            events=await engine.events_after(request.match_id, request.seat, request.after_version)
        )

    methods = {
        "GetSeatEvents": rpc.Method(internal_pb2.SeatEventsRequest, seat_events),
        "CreateMatch": rpc.Method(internal_pb2.CreateMatchRequest, create),
        "SubmitAction": rpc.Method(game_pb2.SubmitActionRequest, submit),
        "GetView": rpc.Method(game_pb2.GetViewRequest, view),
        "GetMatch": rpc.Method(game_pb2.GetMatchRequest, get_match),
    }
    return await rpc.serve(nc, names.engine_rpc, subjects.ENGINE_QUEUE, methods)
