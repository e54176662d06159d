"""Routing calls to a table's writer: the engine holding the match's partition.

A public call for a match reaches whichever engine the client is connected to. If that
engine holds the match's partition it answers; otherwise it forwards the call, with the
caller's account, to ``<ns>.rpc.engine.shard.p<N>.<Method>`` — where only the holder of
partition N listens — and relays the answer (errors included, as the holder gave them). If
no engine holds the partition at that moment (a handover), it answers itself from the log.
A forwarded call is always answered where it arrives, never forwarded again.

Only engines may publish on the shard subjects (``tavola.infra.nats_auth``), so the account
a forwarded call carries is the one the first engine's edge authenticated. Streams are
served where the client is (woken by the bus); the engine serving a seat's stream tells
the writer every ``SEEN_EVERY`` seconds that the seat's client is there (``SeatSeen``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from google.protobuf.message import Message
from nats.aio.client import Client as NATS
from nats.aio.subscription import Subscription
from prometheus_client import Counter

from services.engine import bus_api
from services.engine.app import Engine
from services.engine.shards import Partitions
from tavola.bus import rpc, subjects
from tavola.bus.partitions import partition_of
from tavola.protocol import errors
from tavola.service.edge import current_principal
from tavola.v1 import audit_pb2, game_pb2, internal_pb2

log = structlog.get_logger(__name__)
R = TypeVar("R", bound=Message)
SEEN_EVERY = 20.0  # well within the presence grace (60 s)
FORWARDED = Counter(
    "tavola_engine_forwarded_total",
    "Public calls for a match another engine writes, by what became of them",
    ["outcome"],
)


class Router:
    def __init__(
        self, engine: Engine, nc: NATS, names: subjects.Subjects, partitions: Partitions | None
    ) -> None:
        self._engine = engine
        self._nc = nc
        self._names = names
        self._partitions = partitions  # None: one engine answers everything itself
        self._served: dict[int, list[Subscription]] = {}

    def local(self, match_id: str) -> bool:
        return self._partitions is None or self._partitions.owns(match_id)

    async def call(
        self,
        method: str,
        request: Message,
        match_id: str,
        response_type: type[R],
        here: Callable[[], Awaitable[R]],
        *,
        internal: bool = False,
    ) -> R:
        """Answer here if this engine writes the match, else from its writer (a public
        call with its caller's account; ``internal``: a platform service's, without one)."""
        if self.local(match_id):
            return await here()
        try:
            answer = await rpc.call(
                self._nc,
                self._names.engine_shard(partition_of(match_id)),
                method,
                request,
                response_type,
                principal=None if internal else current_principal(),
                locale=str(getattr(request, "locale", "") or ""),
                service="engine",
                absent_ok=True,
            )
        except rpc.NobodyServes:
            FORWARDED.labels(outcome="answered_here").inc()
            return await here()
        FORWARDED.labels(outcome="forwarded").inc()
        return answer

    async def seen(self, match_id: str, seat: int) -> None:
        """Tell the match's writer the seat's client is here (a stream is open)."""
        if self.local(match_id):
            self._engine.presence.seen(match_id, seat)
            return
        try:
            await rpc.call(
                self._nc,
                self._names.engine_shard(partition_of(match_id)),
                "SeatSeen",
                internal_pb2.SeatSeen(match_id=match_id, seat=seat),
                internal_pb2.SeatSeenResponse,
                timeout=2.0,
                absent_ok=True,
            )
        except Exception as error:  # presence is a heartbeat: the next one will tell
            log.info("presence.seen_not_sent", error=type(error).__name__)

    # ----- the partitions this engine holds ---------------------------------------------
    async def serve(self, partitions: frozenset[int]) -> None:
        shard = shard_methods(self._engine)
        bots = bus_api.bot_methods(self._engine)
        for partition in sorted(partitions):
            self._served[partition] = [
                await rpc.serve_prefix(
                    self._nc, self._names.engine_shard(partition), subjects.ENGINE_QUEUE, shard
                ),
                await rpc.serve_prefix(
                    self._nc,
                    self._names.engine_rpc("bots", partition),
                    subjects.ENGINE_QUEUE,
                    bots,
                ),
            ]

    async def unserve(self, partitions: frozenset[int]) -> None:
        for partition in partitions:
            for sub in self._served.pop(partition, []):
                try:
                    await sub.unsubscribe()
                except Exception as error:  # the connection is gone: so is the interest
                    log.info("partitions.unsubscribe_failed", error=type(error).__name__)


def shard_methods(engine: Engine) -> dict[str, rpc.Method]:
    """Public calls forwarded by another engine, answered here for the caller it names."""

    def on(request_type: type[Message], act: Callable[..., Awaitable[Message]]) -> rpc.Method:
        async def handle(request: Message, context: rpc.Request) -> Message:
            return await act(request, context.caller())

        return rpc.Method(request_type, handle)

    async def get_match(request: game_pb2.GetMatchRequest, _: rpc.Request) -> Message:
        return await engine.get_match(request)

    async def seat_seen(request: internal_pb2.SeatSeen, _: rpc.Request) -> Message:
        engine.presence.seen(request.match_id, request.seat)
        return internal_pb2.SeatSeenResponse()

    async def create(request: internal_pb2.CreateMatchRequest, context: rpc.Request) -> Message:
        if context.principal is not None:  # only the lobby's own call, relayed, creates
            raise errors.denied("auth.scope_missing", scope="lobby")
        return await engine.create_match(request)

    async def reveal(request: internal_pb2.RevealSeedRequest, context: rpc.Request) -> Message:
        if context.principal is not None:  # only the lobby's own call, relayed, reveals
            raise errors.denied("auth.scope_missing", scope="lobby")
        return await engine.reveal_seed(request)

    return {
        "SubmitAction": on(game_pb2.SubmitActionRequest, engine.submit),
        "GetView": on(game_pb2.GetViewRequest, engine.view),
        "ExplainAction": on(game_pb2.ExplainActionRequest, engine.explain),
        "LeaveMatch": on(game_pb2.LeaveMatchRequest, engine.leave),
        "TakeBack": on(game_pb2.TakeBackRequest, engine.take_back),
        "GetHint": on(game_pb2.GetHintRequest, engine.hint),
        "FileCorrection": on(audit_pb2.FileCorrectionRequest, engine.file_correction),
        "GetMatch": rpc.Method(game_pb2.GetMatchRequest, get_match),
        "SeatSeen": rpc.Method(internal_pb2.SeatSeen, seat_seen),
        "CreateMatch": rpc.Method(internal_pb2.CreateMatchRequest, create),
        "RevealSeed": rpc.Method(internal_pb2.RevealSeedRequest, reveal),
    }
