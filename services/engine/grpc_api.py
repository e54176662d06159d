"""The public gRPC API, served by the engine on the platform's one client address.

GameService is answered here; LobbyService, AccountService and ScoringService calls are
forwarded to their services over NATS request/reply with the authenticated account. The
edge interceptor (``tavola.service.edge``) has already authenticated the caller, checked
the method's scopes and limits and every field's bounds, and answers every error with its
documented status; handlers here take the caller from ``current_principal()``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message
from nats.aio.client import Client as NATS

from services.engine import metrics
from services.engine.app import Engine
from services.engine.mapping import stream_of
from services.engine.queries import StreamItem, packed_event
from services.engine.routing import SEEN_EVERY, Router
from tavola.bus import rpc, subjects
from tavola.protocol.envelopes import SPECTATOR
from tavola.protocol.errors import invalid
from tavola.service.edge import current_principal
from tavola.v1 import (
    account_pb2,
    account_pb2_grpc,
    audit_pb2,
    audit_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    league_pb2,
    league_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    scoring_pb2,
    scoring_pb2_grpc,
)

R = TypeVar("R", bound=Message)
SAFETY_POLL_SECONDS = 15.0  # streams are woken by appends; this only covers a lost wakeup
BACKLOG_PAGE = 256  # a reconnecting client's backlog is read and sent in pages
FIRST_PAGE = 16  # ...the first one small: its first event goes out without waiting for 256


class GameApi(game_pb2_grpc.GameServiceServicer):
    """GameService: each call answered by the match's writer (``routing.py``) — this
    engine, or the one holding the match's partition; streams are served here."""

    def __init__(
        self, engine: Engine, nc: NATS, names: subjects.Subjects, router: Router | None = None
    ) -> None:
        self._engine = engine
        self._nc = nc
        self._names = names
        self._router = router or Router(engine, nc, names, None)

    async def SubmitAction(
        self, request: game_pb2.SubmitActionRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.SubmitActionResponse:
        return await self._router.call(
            "SubmitAction",
            request,
            request.match_id,
            game_pb2.SubmitActionResponse,
            lambda: self._engine.submit(request, current_principal()),
        )

    async def GetView(
        self, request: game_pb2.GetViewRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.GetViewResponse:
        return await self._router.call(
            "GetView",
            request,
            request.match_id,
            game_pb2.GetViewResponse,
            lambda: self._engine.view(request, current_principal()),
        )

    async def ExplainAction(
        self, request: game_pb2.ExplainActionRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.ExplainActionResponse:
        return await self._router.call(
            "ExplainAction",
            request,
            request.match_id,
            game_pb2.ExplainActionResponse,
            lambda: self._engine.explain(request, current_principal()),
        )

    async def GetMatch(
        self, request: game_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.GetMatchResponse:
        return await self._router.call(
            "GetMatch",
            request,
            request.match_id,
            game_pb2.GetMatchResponse,
            lambda: self._engine.get_match(request),
        )

    async def LeaveMatch(
        self, request: game_pb2.LeaveMatchRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.LeaveMatchResponse:
        return await self._router.call(
            "LeaveMatch",
            request,
            request.match_id,
            game_pb2.LeaveMatchResponse,
            lambda: self._engine.leave(request, current_principal()),
        )

    async def TakeBack(
        self, request: game_pb2.TakeBackRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.TakeBackResponse:
        return await self._router.call(
            "TakeBack",
            request,
            request.match_id,
            game_pb2.TakeBackResponse,
            lambda: self._engine.take_back(request, current_principal()),
        )

    async def ExportMatch(
        self, request: game_pb2.ExportMatchRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.ExportMatchResponse:
        return await self._engine.export(request)

    async def GetHint(
        self, request: game_pb2.GetHintRequest, context: grpc.aio.ServicerContext
    ) -> game_pb2.GetHintResponse:
        return await self._router.call(
            "GetHint",
            request,
            request.match_id,
            game_pb2.GetHintResponse,
            lambda: self._engine.hint(request, current_principal()),
        )

    async def StreamEvents(
        self, request: game_pb2.StreamEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes | game_pb2.StreamEventsResponse]:  # type: ignore[override]
        """The backlog after ``after_version`` in pages, then each event as it is appended
        (woken by this engine's appends and, for other engines', by the bus); with
        ``views``, the seat's view after the last event of each append.

        While this engine writes the match, its own appends wake the stream; the bus is
        listened to once another engine does (from the first wake that finds the match
        elsewhere: losing a partition wakes its streams), so a local match's stream is not
        woken again for every event the relay publishes."""
        seat = request.seat
        if seat < SPECTATOR:
            raise invalid("game.no_such_seat", seat=seat)
        principal = current_principal()
        state = await self._engine.authorize_stream(
            request.match_id, seat, request.seat_token, principal
        )
        if request.after_version > state.version:
            raise invalid(
                "request.invalid", field="after_version", detail=f"at most {state.version}"
            )
        viewer = SPECTATOR if seat < 0 else seat
        match_id = request.match_id
        wakeup = self._engine.watch(match_id)
        sub: Any = None

        async def on_message(_msg: Any) -> None:
            wakeup.set()

        metrics.STREAMS_OPEN.inc()
        present = seat >= 0 and state.ended is None  # not a finished match's referee
        if present:
            self._engine.presence.stream_opened(match_id, seat)
        loop = asyncio.get_running_loop()
        next_seen = loop.time()
        last = request.after_version
        page = FIRST_PAGE
        newest: StreamItem | None = None  # the last event sent since a view
        try:
            while True:
                wakeup.clear()
                local = self._router.local(match_id)
                if sub is None and not (local and self._engine.watching(match_id, wakeup)):
                    # listen before reading: nothing appended from here on is missed
                    sub = await self._nc.subscribe(
                        self._names.stream_subjects(stream_of(match_id)), cb=on_message
                    )
                if not local and present and loop.time() >= next_seen:
                    # its writer is another engine: tell it the seat's client is here
                    await self._router.seen(match_id, seat)
                    next_seen = loop.time() + SEEN_EVERY
                # each item is a StreamEventsResponse already serialized (the edge sends
                # bytes as they are): the match's streams share each event's bytes
                items = await self._engine.stream_items(
                    match_id, viewer, last, page, request.locale
                )
                full, page = len(items) == page, BACKLOG_PAGE
                ended = False
                packed: list[bytes] = []  # with ``packed``: this wake's one response
                for item in items:
                    if request.packed:
                        packed.append(packed_event(item.data))
                    else:
                        yield item.data
                    last, newest = item.version, item
                    if request.until_end and item.type == "match.SeedRevealed":
                        ended = True
                        break
                if (
                    request.views
                    and not (full or ended)
                    and newest is not None
                    and newest.last_in_batch
                ):
                    view = await self._view_at(request, principal, last)
                    if view is not None:
                        if request.packed:
                            packed.append(view)
                        else:
                            yield view
                if packed:
                    # serialized messages concatenated are their merge: the events in
                    # order (a repeated field), then the view
                    yield b"".join(packed)
                if ended:
                    return
                if full:
                    continue  # more backlog: the next page at once
                newest = None
                # a timer rather than ``wait_for`` (no task for every wait)
                timer = loop.call_later(min(SAFETY_POLL_SECONDS, SEEN_EVERY), wakeup.set)
                try:
                    await wakeup.wait()
                finally:
                    timer.cancel()
        finally:
            metrics.STREAMS_OPEN.dec()
            if present:
                self._engine.presence.stream_closed(match_id, seat)
            self._engine.unwatch(match_id, wakeup)
            if sub is not None:
                with contextlib.suppress(Exception):
                    await sub.unsubscribe()

    async def _view_at(
        self, request: game_pb2.StreamEventsRequest, principal: Any, version: int
    ) -> bytes | None:
        """The seat's view if the match is still at ``version`` (else a newer event follows,
        and the view after it), a serialized ``StreamEventsResponse``: this engine's bytes,
        or the writer's answer."""
        view_request = game_pb2.GetViewRequest(
            match_id=request.match_id,
            seat=request.seat,
            seat_token=request.seat_token,
            locale=request.locale,
        )
        if self._router.local(request.match_id):
            at, data = await self._engine.stream_view(view_request, principal)
            return data if at == version else None
        view = await self._router.call(
            "GetView",
            view_request,
            request.match_id,
            game_pb2.GetViewResponse,
            lambda: self._engine.view(view_request, principal),
        )
        if view.version != version:
            return None
        return game_pb2.StreamEventsResponse(view=view).SerializeToString()


class _Forwarder:
    """Forwards a service's RPCs over NATS request/reply, with the calling account."""

    def __init__(self, nc: NATS, prefix: str, service: str) -> None:
        self._nc = nc
        self._prefix = prefix
        self._service = service

    async def forward(self, method: str, request: Message, response_type: type[R]) -> R:
        return await rpc.call(
            self._nc,
            self._prefix,
            method,
            request,
            response_type,
            principal=current_principal(),
            locale=str(getattr(request, "locale", "") or ""),
            service=self._service,
        )


class LobbyApi(lobby_pb2_grpc.LobbyServiceServicer):
    def __init__(self, nc: NATS, names: subjects.Subjects) -> None:
        self._fwd = _Forwarder(nc, names.lobby_rpc, "lobby")

    async def ListGames(self, request: Any, context: Any) -> lobby_pb2.ListGamesResponse:
        return await self._fwd.forward("ListGames", request, lobby_pb2.ListGamesResponse)

    async def CreateTable(self, request: Any, context: Any) -> lobby_pb2.CreateTableResponse:
        return await self._fwd.forward("CreateTable", request, lobby_pb2.CreateTableResponse)

    async def GetTable(self, request: Any, context: Any) -> lobby_pb2.GetTableResponse:
        return await self._fwd.forward("GetTable", request, lobby_pb2.GetTableResponse)

    async def SitDown(self, request: Any, context: Any) -> lobby_pb2.SitDownResponse:
        return await self._fwd.forward("SitDown", request, lobby_pb2.SitDownResponse)

    async def FillWithBots(self, request: Any, context: Any) -> lobby_pb2.FillWithBotsResponse:
        return await self._fwd.forward("FillWithBots", request, lobby_pb2.FillWithBotsResponse)

    async def StartMatch(self, request: Any, context: Any) -> lobby_pb2.StartMatchResponse:
        return await self._fwd.forward("StartMatch", request, lobby_pb2.StartMatchResponse)

    async def InviteToTable(self, request: Any, context: Any) -> lobby_pb2.InviteToTableResponse:
        return await self._fwd.forward("InviteToTable", request, lobby_pb2.InviteToTableResponse)

    async def ChangeTableOptions(
        self, request: Any, context: Any
    ) -> lobby_pb2.ChangeTableOptionsResponse:
        return await self._fwd.forward(
            "ChangeTableOptions", request, lobby_pb2.ChangeTableOptionsResponse
        )

    async def ListTables(self, request: Any, context: Any) -> lobby_pb2.ListTablesResponse:
        return await self._fwd.forward("ListTables", request, lobby_pb2.ListTablesResponse)


class AccountApi(account_pb2_grpc.AccountServiceServicer):
    def __init__(self, nc: NATS, names: subjects.Subjects) -> None:
        self._fwd = _Forwarder(nc, names.account_rpc, "lobby")

    async def WhoAmI(self, request: Any, context: Any) -> account_pb2.WhoAmIResponse:
        return await self._fwd.forward("WhoAmI", request, account_pb2.WhoAmIResponse)

    async def CreateAccount(self, request: Any, context: Any) -> account_pb2.CreateAccountResponse:
        return await self._fwd.forward("CreateAccount", request, account_pb2.CreateAccountResponse)

    async def GetAccount(self, request: Any, context: Any) -> account_pb2.GetAccountResponse:
        return await self._fwd.forward("GetAccount", request, account_pb2.GetAccountResponse)

    async def IssueToken(self, request: Any, context: Any) -> account_pb2.IssueTokenResponse:
        return await self._fwd.forward("IssueToken", request, account_pb2.IssueTokenResponse)

    async def RevokeToken(self, request: Any, context: Any) -> account_pb2.RevokeTokenResponse:
        return await self._fwd.forward("RevokeToken", request, account_pb2.RevokeTokenResponse)

    async def ListTokens(self, request: Any, context: Any) -> account_pb2.ListTokensResponse:
        return await self._fwd.forward("ListTokens", request, account_pb2.ListTokensResponse)

    async def ListAccounts(self, request: Any, context: Any) -> account_pb2.ListAccountsResponse:
        return await self._fwd.forward("ListAccounts", request, account_pb2.ListAccountsResponse)


class ScoringApi(scoring_pb2_grpc.ScoringServiceServicer):
    def __init__(self, nc: NATS, names: subjects.Subjects) -> None:
        self._fwd = _Forwarder(nc, names.scoring_rpc, "scoring")

    async def GetMatchStandings(
        self, request: Any, context: Any
    ) -> scoring_pb2.GetMatchStandingsResponse:
        return await self._fwd.forward(
            "GetMatchStandings", request, scoring_pb2.GetMatchStandingsResponse
        )

    async def GetPlayerStandings(
        self, request: Any, context: Any
    ) -> scoring_pb2.GetPlayerStandingsResponse:
        return await self._fwd.forward(
            "GetPlayerStandings", request, scoring_pb2.GetPlayerStandingsResponse
        )

    async def GetRatings(self, request: Any, context: Any) -> scoring_pb2.GetRatingsResponse:
        return await self._fwd.forward("GetRatings", request, scoring_pb2.GetRatingsResponse)


class LeagueApi(league_pb2_grpc.LeagueServiceServicer):
    """Management calls go to the lobby; standings, exports, statistics and histories to
    the scoring service (docs/leagues.md)."""

    _READS = (
        "GetStandings",
        "ExportSeason",
        "GetStatistics",
        "GetMatchHistory",
        "GetRatingHistory",
    )

    def __init__(self, nc: NATS, names: subjects.Subjects) -> None:
        self._lobby = _Forwarder(nc, names.league_rpc, "lobby")
        self._scoring = _Forwarder(nc, names.league_scoring_rpc, "scoring")
        service = league_pb2.DESCRIPTOR.services_by_name["LeagueService"]
        for method in service.methods:
            fwd = self._scoring if method.name in self._READS else self._lobby
            response = getattr(league_pb2, method.output_type.name)
            setattr(self, method.name, _forwarding(fwd, method.name, response))


def _forwarding(fwd: _Forwarder, method: str, response: type[Message]) -> Any:
    async def call(request: Any, context: Any) -> Message:
        return await fwd.forward(method, request, response)

    return call


class AuditApi(audit_pb2_grpc.AuditServiceServicer):
    """AuditService: a correction is a command, answered by the match's writer; audits,
    lists and imports only read the log (answered here)."""

    def __init__(self, engine: Engine, router: Router) -> None:
        self._engine = engine
        self._router = router

    async def FileCorrection(
        self, request: audit_pb2.FileCorrectionRequest, context: grpc.aio.ServicerContext
    ) -> audit_pb2.FileCorrectionResponse:
        return await self._router.call(
            "FileCorrection",
            request,
            request.match_id,
            audit_pb2.FileCorrectionResponse,
            lambda: self._engine.file_correction(request, current_principal()),
        )

    async def AuditMatch(
        self, request: audit_pb2.AuditMatchRequest, context: grpc.aio.ServicerContext
    ) -> audit_pb2.AuditMatchResponse:
        return await self._engine.audit_match(request, current_principal())

    async def ListFinishedMatches(
        self, request: audit_pb2.ListFinishedMatchesRequest, context: grpc.aio.ServicerContext
    ) -> audit_pb2.ListFinishedMatchesResponse:
        return await self._engine.list_finished(request, current_principal())

    async def ImportRecord(
        self, request: audit_pb2.ImportRecordRequest, context: grpc.aio.ServicerContext
    ) -> audit_pb2.ImportRecordResponse:
        return await self._engine.import_record(request, current_principal())


SERVICE_NAMES = (
    game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"].full_name,
    account_pb2.DESCRIPTOR.services_by_name["AccountService"].full_name,
    scoring_pb2.DESCRIPTOR.services_by_name["ScoringService"].full_name,
    league_pb2.DESCRIPTOR.services_by_name["LeagueService"].full_name,
    audit_pb2.DESCRIPTOR.services_by_name["AuditService"].full_name,
)


def add_to_server(
    server: grpc.aio.Server,
    engine: Engine,
    nc: NATS,
    names: subjects.Subjects,
    router: Router | None = None,
) -> None:
    router = router or Router(engine, nc, names, None)
    game_pb2_grpc.add_GameServiceServicer_to_server(GameApi(engine, nc, names, router), server)
    audit_pb2_grpc.add_AuditServiceServicer_to_server(AuditApi(engine, router), server)
    lobby_pb2_grpc.add_LobbyServiceServicer_to_server(LobbyApi(nc, names), server)
    account_pb2_grpc.add_AccountServiceServicer_to_server(AccountApi(nc, names), server)
    scoring_pb2_grpc.add_ScoringServiceServicer_to_server(ScoringApi(nc, names), server)
    league_pb2_grpc.add_LeagueServiceServicer_to_server(LeagueApi(nc, names), server)
