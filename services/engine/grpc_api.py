"""The public gRPC API, served by the engine on the platform's one client address.

GameService is answered here; LobbyService and ScoringService calls are forwarded to their
services over NATS request/reply. Every handler binds table/match/seat ids to the log
context and maps ServiceError to a precise status with an ErrorInfo detail.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
import structlog
from google.protobuf.message import Message
from nats.aio.client import Client as NATS

from services.engine import metrics
from services.engine.app import Engine
from services.engine.mapping import stream_of
from tavola.bus import rpc, subjects
from tavola.protocol.envelopes import SPECTATOR
from tavola.protocol.errors import ServiceError
from tavola.protocol.grpc_errors import abort
from tavola.v1 import (
    game_pb2,
    game_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    scoring_pb2,
    scoring_pb2_grpc,
)

log = structlog.get_logger(__name__)
R = TypeVar("R", bound=Message)
LIVE_POLL_SECONDS = 1.0


async def _guard(
    context: grpc.aio.ServicerContext,
    rpc_name: str,
    request: Message,
    call: Callable[[], Awaitable[R]],
) -> R:
    with structlog.contextvars.bound_contextvars(rpc=rpc_name, **_ids(request)):
        try:
            return await call()
        except ServiceError as error:
            log.info("rpc.rejected", code=error.code.name, reason=error.reason.code)
            await abort(context, error)


def _ids(request: Message) -> dict[str, Any]:
    out = {}
    for name in ("table_id", "match_id", "seat"):
        if any(f.name == name for f in request.DESCRIPTOR.fields):
            out[name] = getattr(request, name)
    return out


class GameApi(game_pb2_grpc.GameServiceServicer):
    def __init__(self, engine: Engine, nc: NATS, names: subjects.Subjects) -> None:
        self._engine = engine
        self._nc = nc
        self._names = names

    async def SubmitAction(
        self, request: game_pb2.SubmitActionRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.SubmitActionResponse:
        return await _guard(context, "SubmitAction", request, lambda: self._engine.submit(request))

    async def GetView(
        self, request: game_pb2.GetViewRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.GetViewResponse:
        return await _guard(context, "GetView", request, lambda: self._engine.view(request))

    async def ExplainAction(
        self, request: game_pb2.ExplainActionRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.ExplainActionResponse:
        return await _guard(
            context, "ExplainAction", request, lambda: self._engine.explain(request)
        )

    async def GetMatch(
        self, request: game_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.GetMatchResponse:
        return await _guard(context, "GetMatch", request, lambda: self._engine.get_match(request))

    async def LeaveMatch(
        self, request: game_pb2.LeaveMatchRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.LeaveMatchResponse:
        return await _guard(context, "LeaveMatch", request, lambda: self._engine.leave(request))

    async def TakeBack(
        self, request: game_pb2.TakeBackRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.TakeBackResponse:
        return await _guard(context, "TakeBack", request, lambda: self._engine.take_back(request))

    async def ExportMatch(
        self, request: game_pb2.ExportMatchRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.ExportMatchResponse:
        return await _guard(context, "ExportMatch", request, lambda: self._engine.export(request))

    async def GetHint(
        self, request: game_pb2.GetHintRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.GetHintResponse:
        return await _guard(context, "GetHint", request, lambda: self._engine.hint(request))

    async def StreamEvents(
        self, request: game_pb2.StreamEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[game_pb2.StreamEventsResponse]:
        seat = request.seat
        await _guard(
            context,
            "StreamEvents",
            request,
            lambda: self._engine.authorize_stream(request.match_id, seat, request.seat_token),
        )
        viewer = SPECTATOR if seat < 0 else seat
        wakeup = asyncio.Event()

        async def on_message(_msg: Any) -> None:
            wakeup.set()

        subject = self._names.stream_subject(stream_of(request.match_id))
        sub = await self._nc.subscribe(subject, cb=on_message)
        metrics.STREAMS_OPEN.inc()
        last = request.after_version
        try:
            while True:
                wakeup.clear()
                envelopes = await self._engine.events_after(request.match_id, viewer, last)
                for envelope in envelopes:
                    yield game_pb2.StreamEventsResponse(event=envelope)
                    last = envelope.version
                    if request.until_end and envelope.type == "match.SeedRevealed":
                        return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wakeup.wait(), LIVE_POLL_SECONDS)
        finally:
            metrics.STREAMS_OPEN.dec()
            await sub.unsubscribe()


class _Forwarder:
    """Forwards a service's RPCs over NATS request/reply."""

    def __init__(self, nc: NATS, prefix: str) -> None:
        self._nc = nc
        self._prefix = prefix

    async def forward(
        self,
        context: grpc.aio.ServicerContext,
        method: str,
        request: Message,
        response_type: type[R],
    ) -> R:
        async def call() -> R:
            return await rpc.call(self._nc, self._prefix, method, request, response_type)

        return await _guard(context, method, request, call)


class LobbyApi(lobby_pb2_grpc.LobbyServiceServicer):
    def __init__(self, nc: NATS, names: subjects.Subjects) -> None:
        self._fwd = _Forwarder(nc, names.lobby_rpc)

    async def ListGames(self, request: Any, context: Any) -> lobby_pb2.ListGamesResponse:
        return await self._fwd.forward(context, "ListGames", request, lobby_pb2.ListGamesResponse)

    async def CreateTable(self, request: Any, context: Any) -> lobby_pb2.CreateTableResponse:
        return await self._fwd.forward(
            context, "CreateTable", request, lobby_pb2.CreateTableResponse
        )

    async def GetTable(self, request: Any, context: Any) -> lobby_pb2.GetTableResponse:
        return await self._fwd.forward(context, "GetTable", request, lobby_pb2.GetTableResponse)

    async def SitDown(self, request: Any, context: Any) -> lobby_pb2.SitDownResponse:
        return await self._fwd.forward(context, "SitDown", request, lobby_pb2.SitDownResponse)

    async def FillWithBots(self, request: Any, context: Any) -> lobby_pb2.FillWithBotsResponse:
        return await self._fwd.forward(
            context, "FillWithBots", request, lobby_pb2.FillWithBotsResponse
        )

    async def StartMatch(self, request: Any, context: Any) -> lobby_pb2.StartMatchResponse:
        return await self._fwd.forward(context, "StartMatch", request, lobby_pb2.StartMatchResponse)


class ScoringApi(scoring_pb2_grpc.ScoringServiceServicer):
    def __init__(self, nc: NATS, names: subjects.Subjects) -> None:
        self._fwd = _Forwarder(nc, names.scoring_rpc)

    async def GetMatchStandings(
        self, request: Any, context: Any
    ) -> scoring_pb2.GetMatchStandingsResponse:
        return await self._fwd.forward(
            context, "GetMatchStandings", request, scoring_pb2.GetMatchStandingsResponse
        )

    async def GetPlayerStandings(
        self, request: Any, context: Any
    ) -> scoring_pb2.GetPlayerStandingsResponse:
        return await self._fwd.forward(
            context, "GetPlayerStandings", request, scoring_pb2.GetPlayerStandingsResponse
        )

    async def GetRatings(self, request: Any, context: Any) -> scoring_pb2.GetRatingsResponse:
        return await self._fwd.forward(
            context, "GetRatings", request, scoring_pb2.GetRatingsResponse
        )


SERVICE_NAMES = (
    game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"].full_name,
    scoring_pb2.DESCRIPTOR.services_by_name["ScoringService"].full_name,
)


def add_to_server(
    server: grpc.aio.Server, engine: Engine, nc: NATS, names: subjects.Subjects
) -> None:
    game_pb2_grpc.add_GameServiceServicer_to_server(GameApi(engine, nc, names), server)
    lobby_pb2_grpc.add_LobbyServiceServicer_to_server(LobbyApi(nc, names), server)
    scoring_pb2_grpc.add_ScoringServiceServicer_to_server(ScoringApi(nc, names), server)
