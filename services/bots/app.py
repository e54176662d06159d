"""Reacting to events: whose turn, which bot, which move."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import grpc
import structlog

from services.bots import metrics
from tavola import bots
from tavola.protocol.errors import ServiceError
from tavola.v1 import events_pb2, game_pb2

log = structlog.get_logger(__name__)


@dataclass
class BotPorts:
    get_match: Callable[[game_pb2.GetMatchRequest], Awaitable[game_pb2.GetMatchResponse]]
    get_view: Callable[[game_pb2.GetViewRequest], Awaitable[game_pb2.GetViewResponse]]
    submit: Callable[[game_pb2.SubmitActionRequest], Awaitable[game_pb2.SubmitActionResponse]]


class BotPlayer:
    def __init__(self, ports: BotPorts) -> None:
        self._ports = ports
        self._levels: dict[str, dict[int, str]] = {}  # match -> bot seat -> level (a cache)

    async def on_event(self, envelope: events_pb2.EventEnvelope) -> None:
        if not envelope.last_in_batch or not envelope.to_act:
            return
        try:
            levels = await self._bot_seats(envelope.match_id)
        except ServiceError as error:
            if error.code != grpc.StatusCode.NOT_FOUND:
                raise
            log.warning("bot.unknown_match", match_id=envelope.match_id)
            return
        for seat in envelope.to_act:
            if seat in levels:
                await self._play(envelope.match_id, seat, levels[seat], envelope.version)
        if envelope.type == "match.SeedRevealed":
            self._levels.pop(envelope.match_id, None)

    async def _bot_seats(self, match_id: str) -> dict[int, str]:
        if match_id not in self._levels:
            match = await self._ports.get_match(game_pb2.GetMatchRequest(match_id=match_id))
            self._levels[match_id] = {s.seat: s.bot_level for s in match.seats
                                      if s.is_bot and s.bot_level}
        return self._levels[match_id]

    async def _play(self, match_id: str, seat: int, level: str, version: int) -> None:
        with structlog.contextvars.bound_contextvars(match_id=match_id, seat=seat):
            view = await self._ports.get_view(game_pb2.GetViewRequest(match_id=match_id, seat=seat))
            if view.version != version or not view.legal_actions:
                return  # the table has moved on; a later event will bring us back
            seed = bots.decision_seed(match_id, seat, version, level)
            code = bots.choose(level, [a.code for a in view.legal_actions], random.Random(seed))
            request = game_pb2.SubmitActionRequest(
                match_id=match_id, seat=seat, command_id=f"bot:{match_id}:{seat}:{version}",
                expected_version=version, action=code)
            try:
                await self._ports.submit(request)
                metrics.DECISIONS.labels(level=level, outcome="ok").inc()
            except ServiceError as error:
                if error.code not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                    raise
                metrics.DECISIONS.labels(level=level, outcome="superseded").inc()
                log.info("bot.superseded", reason=error.reason.code)
