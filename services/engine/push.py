"""Pushing what the platform's bots need, so a bot decision costs one request (its move).

After each append to a match, for every seat the platform's bots play now, the engine
publishes a ``SeatPush`` on ``<ns>.bots.seat.<match>.<seat>``: the appended events as that
seat sees them (another seat's private event has no payload) and, if the seat is to act,
its view (``GetView``'s answer less what the bots do not read: ``bot_view_bytes``). Only the bot
service's NATS user may read those subjects (``tavola.infra.nats_auth``), and a seat a
person plays is never pushed. A push that is lost costs nothing but time: the bot service
sees the gap in versions and asks, as before.

A seat to act is also sent a ``BotTurn`` on ``<ns>.bots.act.<match>.<seat>`` (read by one
instance of the bot service, in a queue group), so its decision starts as soon as the move
before it is committed rather than when the relay's event reaches JetStream and then the
bot service (the committed event still says so, for a turn that was missed).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog
from prometheus_client import Counter

from services.engine.app import Appended
from tavola.bus import subjects
from tavola.protocol.envelopes import envelopes_for
from tavola.protocol.records import embedded
from tavola.v1 import internal_pb2

log = structlog.get_logger(__name__)
PUSHES = Counter(
    "tavola_engine_bot_pushes_total", "Bot seats' events pushed to the bot service", ["outcome"]
)
SENT, FAILED = PUSHES.labels(outcome="sent"), PUSHES.labels(outcome="failed")
_FIELDS = internal_pb2.SeatPush.DESCRIPTOR.fields_by_name
EVENTS_FIELD, VIEW_FIELD = _FIELDS["events"].number, _FIELDS["view"].number

Publish = Callable[[str, bytes], Awaitable[None]]
ViewOf = Callable[[Appended, int], bytes]  # a serialized GetViewResponse


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
        match_id, table_id = state.created.match_id, state.created.table_id
        # Each event's envelope as each bot seat sees it, serialized once per distinct
        # envelope (seats see the same unless one is in its audience or caused it); each
        # push is put together from those bytes.
        per_event = [envelopes_for(stored, seats, table_id) for stored in appended.events]
        to_act = state.to_act()
        for index, seat in enumerate(seats):
            parts = [internal_pb2.SeatPush(match_id=match_id, seat=seat).SerializeToString()]
            parts += (embedded(EVENTS_FIELD, seen[index]) for seen in per_event)
            acts = seat in to_act
            if acts:
                parts.append(embedded(VIEW_FIELD, self._view_of(appended, seat)))
            try:
                await self._publish(self._names.bot_seat(match_id, seat), b"".join(parts))
                SENT.inc()
                if acts:  # after its view: one bot service instance decides now
                    turn = internal_pb2.BotTurn(match_id=match_id, seat=seat, version=state.version)
                    await self._publish(
                        self._names.bot_turn(match_id, seat), turn.SerializeToString()
                    )
            except Exception as error:  # the bus is away: the bot service will ask instead
                FAILED.inc()
                log.warning("bots.push_failed", error=type(error).__name__)
