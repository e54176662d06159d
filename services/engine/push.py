"""Pushing what the platform's bots need, so a bot decision costs one request (its move).

After each append to a match, for every seat the platform's bots play now, the engine
publishes a ``SeatPush`` on ``<ns>.bots.seat.<match>.<seat>``: the appended events as that
seat sees them (another seat's private event has no payload) and, if the seat is to act,
its view (the same answer ``GetView`` gives, computed once per version). Only the bot
service's NATS user may read those subjects (``tavola.infra.nats_auth``), and a seat a
person plays is never pushed. A push that is lost costs nothing but time: the bot service
sees the gap in versions and asks, as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog
from prometheus_client import Counter

from services.engine.app import Appended
from tavola.bus import subjects
from tavola.protocol.envelopes import SPECTATOR, to_envelope, visible_to
from tavola.v1 import game_pb2, internal_pb2

log = structlog.get_logger(__name__)
PUSHES = Counter(
    "tavola_engine_bot_pushes_total", "Bot seats' events pushed to the bot service", ["outcome"]
)

Publish = Callable[[str, bytes], Awaitable[None]]
ViewOf = Callable[[Appended, int], game_pb2.GetViewResponse]


class BotPush:
    def __init__(self, publish: Publish, names: subjects.Subjects, view_of: ViewOf) -> None:
        self._publish = publish
        self._names = names
        self._view_of = view_of

    async def __call__(self, appended: Appended) -> None:
        state = appended.state
        seats = [s for s in range(state.players) if state.seat(s).bot_level]
        if not seats or not appended.events:
            return
        table_id = state.created.table_id
        # What a seat sees of an event differs from what a spectator sees only for a seat in
        # its audience or the seat that caused it (its own command, its own secret choice):
        # one spectator's envelope per event, and the seat's own where those differ.
        spectator = [to_envelope(stored, SPECTATOR, table_id) for stored in appended.events]
        to_act = state.to_act()
        for seat in seats:
            push = internal_pb2.SeatPush(match_id=state.created.match_id, seat=seat)
            for stored, seen in zip(appended.events, spectator, strict=True):
                own = seen.cause.seat == seat or (
                    stored.audience is not None and visible_to(stored.audience, seat)
                )
                push.events.append(to_envelope(stored, seat, table_id) if own else seen)
            if seat in to_act:
                push.view.CopyFrom(self._view_of(appended, seat))
            try:
                await self._publish(
                    self._names.bot_seat(state.created.match_id, seat), push.SerializeToString()
                )
                PUSHES.labels(outcome="sent").inc()
            except Exception as error:  # the bus is away: the bot service will ask instead
                PUSHES.labels(outcome="failed").inc()
                log.warning("bots.push_failed", error=type(error).__name__)
