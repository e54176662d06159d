"""The engine's internal NATS API: the lobby creates matches (and reveals the seeds of a
duplicate league's matches once their round has ended); the bot service acts and
looks for the platform's bot seats. The caller is known from the subject (each service's
NATS user may publish only on its own: ``<ns>.rpc.engine.<caller>.<Method>``).

Every engine answers ``<ns>.rpc.engine.<caller>.<Method>`` (a queue group); the engine
holding a partition also answers the bot service on ``<ns>.rpc.engine.bots.p<N>.<Method>``
(the bot service asks there first, so its calls reach the table's writer directly), and
other engines' forwarded public calls on ``<ns>.rpc.engine.shard.p<N>.<Method>``
(``routing.py``). Requests are answered concurrently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nats.aio.client import Client as NATS
from nats.aio.subscription import Subscription

from services.engine.app import Engine
from services.engine.callers import Service

if TYPE_CHECKING:
    from services.engine.routing import Router
from tavola.bus import rpc, subjects
from tavola.protocol.errors import denied
from tavola.v1 import game_pb2, internal_pb2

CONCURRENT = 512  # requests handled at once per subscription


def lobby_methods(engine: Engine, router: Router | None = None) -> dict[str, rpc.Method]:
    async def create(
        request: internal_pb2.CreateMatchRequest, _: rpc.Request
    ) -> internal_pb2.CreateMatchResponse:
        if router is None:
            return await engine.create_match(request)
        return await router.call(  # its writer creates it, and so knows its first deadlines
            "CreateMatch",
            request,
            request.match_id,
            internal_pb2.CreateMatchResponse,
            lambda: engine.create_match(request),
            internal=True,
        )

    async def reveal(
        request: internal_pb2.RevealSeedRequest, _: rpc.Request
    ) -> internal_pb2.RevealSeedResponse:
        if router is None:
            return await engine.reveal_seed(request)
        return await router.call(  # the match's writer appends the reveal
            "RevealSeed",
            request,
            request.match_id,
            internal_pb2.RevealSeedResponse,
            lambda: engine.reveal_seed(request),
            internal=True,
        )

    return {
        "CreateMatch": rpc.Method(internal_pb2.CreateMatchRequest, create),
        "RevealSeed": rpc.Method(internal_pb2.RevealSeedRequest, reveal),
    }


def bot_methods(engine: Engine) -> dict[str, rpc.Method]:
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

    return {
        "GetSeatEvents": rpc.Method(internal_pb2.SeatEventsRequest, seat_events),
        "SubmitAction": rpc.Method(game_pb2.SubmitActionRequest, submit),
        "GetView": rpc.Method(game_pb2.GetViewRequest, view),
        "GetMatch": rpc.Method(game_pb2.GetMatchRequest, get_match),
    }


async def serve(
    nc: NATS, engine: Engine, names: subjects.Subjects, router: Router | None = None
) -> list[Subscription]:
    subs = await rpc.serve(
        nc,
        names.engine_rpc("lobby"),
        subjects.ENGINE_QUEUE,
        lobby_methods(engine, router),
        concurrent=CONCURRENT,
    )
    subs += await rpc.serve(
        nc,
        names.engine_rpc("bots"),
        subjects.ENGINE_QUEUE,
        bot_methods(engine),
        concurrent=CONCURRENT,
    )
    return subs
