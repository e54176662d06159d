"""Pushing what the platform's bots need, so a bot decision costs one request (its move).

A bot seat is pushed when it is to act: the engine publishes a ``SeatPush`` on
``<ns>.bots.seat.<match>.<seat>`` with every event appended since that seat's last push,
as that seat sees them (another seat's private event has no payload), and its view
(``GetView``'s answer less what the bots do not read: ``bot_view_bytes``). Between its
turns a seat's events wait here (``Pending``: at most ``PENDING_EVENTS`` per seat, for at
most ``PENDING_MATCHES`` matches), serialized once at the append for every bot seat that
sees them alike — one publish per decision, not one per bot seat per append. Only the bot
service's NATS user may read those subjects (``tavola.infra.nats_auth``), and a seat a
person plays is never pushed. What waits here is a cache, not state: a push that is lost,
or events this engine never saw (it was restarted, or took the match's partition over),
cost nothing but time: the bot service sees the gap in versions and asks, as before.

A seat to act is also sent a ``BotTurn`` on ``<ns>.bots.act.<match>.<seat>`` (read by one
instance of the bot service, in a queue group), so its decision starts as soon as the move
before it is committed. Nothing of this is acknowledged: a turn that does not lead to a
move is told again (``bot_turns``), and rebuilt from the log by an engine that gains the
match's partition.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import structlog
from prometheus_client import Counter

from services.engine.app import Appended
from services.engine.bot_turns import BotTurns, bot_seats_awaited, first_delay
from tavola.bus import subjects
from tavola.match.aggregate import MatchState
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

PENDING_MATCHES = 16_384  # matches whose bot seats' events wait for their turn (LRU)
PENDING_EVENTS = 256  # per seat; older ones are dropped (the bot service then asks)

Publish = Callable[[str, bytes], Awaitable[None]]
ViewOf = Callable[[MatchState, int], bytes]  # a serialized GetViewResponse


@dataclass
class Pending:
    """A match's events not yet pushed, per bot seat (serialized envelopes), up to
    ``version``: the next append continues it, or it is of no use any more."""

    version: int
    seats: dict[int, list[bytes]] = field(default_factory=dict)


class BotPush:
    def __init__(
        self,
        publish: Publish,
        names: subjects.Subjects,
        view_of: ViewOf,
        capacity: int = PENDING_MATCHES,
        turns: BotTurns | None = None,
    ) -> None:
        self._publish = publish
        self._names = names
        self._view_of = view_of
        self._capacity = capacity
        self._pending: OrderedDict[str, Pending] = OrderedDict()
        self._turns = turns  # which matches wait for a bot (told again if lost)

    def __len__(self) -> int:
        """Matches with events waiting for a bot seat's turn."""
        return len(self._pending)

    async def __call__(self, appended: Appended) -> None:
        state = appended.state
        seats = [s for s in range(state.players) if state.seat(s).bot_level]
        match_id, table_id = state.created.match_id, state.created.table_id
        if not appended.events:
            return
        if not seats or state.ended is not None:
            self._pending.pop(match_id, None)  # no seat of it will be pushed again
            if self._turns is not None:
                self._turns.settled(match_id)
            return
        pending = self._waiting(match_id, appended)
        # Each event's envelope as each bot seat sees it, serialized once per distinct
        # envelope (seats see the same unless one is in its audience or caused it); each
        # push is put together from those bytes.
        per_event = [envelopes_for(stored, seats, table_id) for stored in appended.events]
        to_act = state.to_act()
        for seat in [s for s in pending.seats if s not in seats]:  # a person plays it now
            del pending.seats[seat]
        acting = []
        for index, seat in enumerate(seats):
            waiting = pending.seats.setdefault(seat, [])
            waiting.extend(seen[index] for seen in per_event)
            if len(waiting) > PENDING_EVENTS:
                del waiting[: len(waiting) - PENDING_EVENTS]
            if seat in to_act:
                acting.append(seat)
        await self._tell(appended.state, acting, pending)

    async def resend(self, state: MatchState, seats: list[int]) -> None:
        """Tell ``seats`` their turn again (``bot_turns``): their view, and the events
        that wait for them if this engine has them (the bot service asks for any others)."""
        pending = self._pending.get(state.created.match_id)
        if pending is not None and pending.version != state.version:
            pending = None  # what waits here is not up to this version: the bot asks
        await self._tell(state, seats, pending)

    async def _tell(self, state: MatchState, seats: list[int], pending: Pending | None) -> None:
        """Push each seat in ``seats`` its waiting events and view, then its turn; note
        whether the match now waits for a bot (so a turn lost on the way is told again)."""
        match_id = state.created.match_id
        for seat in seats:
            waiting = pending.seats.get(seat, []) if pending is not None else []
            if pending is not None:
                pending.seats[seat] = []
            parts = [internal_pb2.SeatPush(match_id=match_id, seat=seat).SerializeToString()]
            parts += (embedded(EVENTS_FIELD, envelope) for envelope in waiting)
            parts.append(embedded(VIEW_FIELD, self._view_of(state, seat)))
            try:
                await self._publish(self._names.bot_seat(match_id, seat), b"".join(parts))
                SENT.inc()
                # after its view: one bot service instance decides now
                turn = internal_pb2.BotTurn(match_id=match_id, seat=seat, version=state.version)
                await self._publish(self._names.bot_turn(match_id, seat), turn.SerializeToString())
            except Exception as error:  # the bus is away: the turn is told again later
                FAILED.inc()
                log.warning("bots.push_failed", error=type(error).__name__)
        if self._turns is not None:
            awaited = bot_seats_awaited(state, seats) if seats else []
            if awaited:
                self._turns.told(match_id, state.version, first_delay(state, awaited))
            else:
                self._turns.settled(match_id)

    def _waiting(self, match_id: str, appended: Appended) -> Pending:
        """The match's pending events, if ``appended`` continues them (else none: what
        came between was appended elsewhere), now up to its last event."""
        pending = self._pending.get(match_id)
        if pending is None or pending.version != appended.events[0].version - 1:
            pending = self._pending[match_id] = Pending(appended.events[-1].version)
            while len(self._pending) > self._capacity:
                self._pending.popitem(last=False)
        else:
            pending.version = appended.events[-1].version
        self._pending.move_to_end(match_id)
        return pending
