"""Reacting to events: whose turn, which bot, which move.

A bot seat's knowledge is exactly what a client of that seat receives: its view and the
events of its seat's stream, redacted like a client's. The engine pushes both when the seat
is to act (``SeatPush``: the events since its last turn, on a subject only this service may
read), then tells the turn (``BotTurn``); a decision then costs one request, the move
itself. When a push is missing — a gap in the versions, no view for the version to act at
— the bot asks as any client would (``GetView``, ``GetSeatEvents``). A turn that did not
lead to a move is told again by the engine (``services/engine/bot_turns.py``); each (match,
seat, version) is decided once. The service keeps a bounded memory per match
(``MATCHES``): any of it can be thrown away and fetched again.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import structlog

from services.bots import metrics
from tavola import bots
from tavola.bots.interface import Budget, Knowledge
from tavola.bots.registry import budget_for
from tavola.match import aggregate
from tavola.protocol import events as codec
from tavola.protocol.errors import ServiceError
from tavola.protocol.records import from_record_bytes
from tavola.rules import registry
from tavola.rules.interface import Event
from tavola.v1 import events_pb2, game_pb2, internal_pb2

log = structlog.get_logger(__name__)
MATCHES = 8_192  # matches remembered (LRU): their seats' knowledge and pushed views
PUSHED_EVENTS = 512  # events kept per seat until its next decision (more: ask instead)
SHARED_EVENTS = 64  # public events decoded once per match for all its bot seats
DECIDED = 65_536  # (match, seat, version) decided lately, not decided again


@dataclass
class BotPorts:
    get_match: Callable[[game_pb2.GetMatchRequest], Awaitable[game_pb2.GetMatchResponse]]
    get_view: Callable[[game_pb2.GetViewRequest], Awaitable[game_pb2.GetViewResponse]]
    seat_events: Callable[
        [internal_pb2.SeatEventsRequest], Awaitable[internal_pb2.SeatEventsResponse]
    ]
    submit: Callable[[game_pb2.SubmitActionRequest], Awaitable[game_pb2.SubmitActionResponse]]
    budget: Budget | None = None  # None: each game's calibrated default


@dataclass
class MatchInfo:
    game: str
    options: dict[str, str]
    players: int
    levels: dict[int, str]  # bot seats played by this service
    think_ms: dict[int, int] = field(default_factory=dict)  # per bot seat (0: default)
    history: dict[int, list[tuple[int, Event]]] = field(default_factory=dict)  # (version, event)
    seen: dict[int, int] = field(default_factory=dict)  # last version known per seat
    # public events decoded once for every bot seat of the match (they are immutable and
    # every seat sees them alike); the latest ``SHARED_EVENTS`` versions
    public: dict[int, Event] = field(default_factory=dict)


@dataclass
class Pushed:
    """What the engine pushed for one match, not yet folded into a seat's history."""

    events: dict[int, list[events_pb2.EventEnvelope]] = field(default_factory=dict)
    views: dict[int, game_pb2.GetViewResponse] = field(default_factory=dict)


class BotPlayer:
    def __init__(self, ports: BotPorts, capacity: int = MATCHES) -> None:
        self._ports = ports
        self._capacity = capacity
        self._matches: OrderedDict[str, MatchInfo] = OrderedDict()
        self._pushed: OrderedDict[str, Pushed] = OrderedDict()
        # each (match, seat, version) is decided once, however often its turn is told
        self._deciding: set[tuple[str, int, int]] = set()
        self._decided: OrderedDict[tuple[str, int, int], None] = OrderedDict()

    # ----- what the engine pushes ---------------------------------------------------------
    def on_push(self, push: internal_pb2.SeatPush) -> None:
        pushed = self._pushed.get(push.match_id)
        if pushed is None:
            pushed = self._pushed[push.match_id] = Pushed()
            _trim(self._pushed, self._capacity)
        self._pushed.move_to_end(push.match_id)
        events = pushed.events.setdefault(push.seat, [])
        events.extend(push.events)
        if len(events) > PUSHED_EVENTS:  # another instance plays this seat: keep no backlog
            del events[: len(events) - PUSHED_EVENTS]
        if push.HasField("view"):
            pushed.views[push.seat] = push.view

    async def _info(self, match_id: str) -> MatchInfo | None:
        if match_id not in self._matches:
            try:
                match = await self._ports.get_match(game_pb2.GetMatchRequest(match_id=match_id))
            except ServiceError as error:
                if error.code != grpc.StatusCode.NOT_FOUND:
                    raise
                log.warning("bot.unknown_match", match_id=match_id)
                return None
            self._matches[match_id] = MatchInfo(
                game=match.game,
                options=dict(match.options),
                players=len(match.seats),
                levels={s.seat: s.bot_level for s in match.seats if s.is_bot and s.bot_level},
                think_ms={s.seat: s.bot_think_ms for s in match.seats if s.is_bot},
            )
            _trim(self._matches, self._capacity)
        self._matches.move_to_end(match_id)
        return self._matches[match_id]

    # ----- knowledge ---------------------------------------------------------------------
    def _absorb(self, match_id: str, info: MatchInfo, seat: int, envelopes: Any) -> bool:
        """Fold envelopes that continue the seat's history; False at a gap (ask then)."""
        history = info.history.setdefault(seat, [])
        prefix = f"{info.game}."
        taken_back = False
        for envelope in envelopes:
            seen = info.seen.get(seat, 0)
            if envelope.version <= seen:
                continue
            if envelope.version != seen + 1:
                return False
            info.seen[seat] = envelope.version
            taken_back |= envelope.type == codec.TAKEN_BACK
            if envelope.type == codec.TAKEN_BACK or (
                not envelope.hidden and envelope.type.startswith(prefix)
            ):
                history.append((envelope.version, _decoded(info, envelope)))
        if taken_back:  # what came after a take-back's version is no longer the hand's
            # a new list: a decision's knowledge may still hold a prefix of the old one
            info.history[seat] = aggregate.effective(history)
        return True

    def _from_pushes(self, match_id: str, info: MatchInfo, seat: int) -> None:
        pushed = self._pushed.get(match_id)
        if pushed is None:
            return
        envelopes = pushed.events.pop(seat, [])
        if not self._absorb(match_id, info, seat, envelopes):
            pushed.events[seat] = [e for e in envelopes if e.version > info.seen.get(seat, 0)]

    async def _asked(self, match_id: str, info: MatchInfo, seat: int) -> None:
        reply = await self._ports.seat_events(
            internal_pb2.SeatEventsRequest(
                match_id=match_id, seat=seat, after_version=info.seen.get(seat, 0)
            )
        )
        self._absorb(match_id, info, seat, reply.events)

    async def _full_view(
        self, match_id: str, seat: int, version: int
    ) -> game_pb2.GetViewResponse | None:
        """The seat's view with its record (``GetView``); None if the table moved on."""
        metrics.ASKED.inc()
        view = await self._ports.get_view(game_pb2.GetViewRequest(match_id=match_id, seat=seat))
        return view if view.version == version else None

    def _knowledge(self, info: MatchInfo, seat: int, view: game_pb2.GetViewResponse) -> Knowledge:
        # the view decoded and the history copied only if the policy reads them (the easy
        # level does not); the history is the seat's list as it is now, which later
        # events only extend (a take-back makes a new list)
        seen = info.history.get(seat, [])
        count = len(seen)
        return Knowledge.deferred(
            seat=seat,
            players=info.players,
            options=tuple(sorted(info.options.items())),
            decode_view=lambda: _decode_view(info, seat, view),
            history=lambda: tuple(event for _, event in seen[:count]),
        )

    async def _view(
        self, match_id: str, info: MatchInfo, seat: int, version: int
    ) -> game_pb2.GetViewResponse | None:
        """The seat's view at ``version`` from the pushes, else asked; None if the table
        has moved on (a later event brings us back)."""
        self._from_pushes(match_id, info, seat)
        if info.seen.get(seat, 0) > version:
            return None
        pushed = self._pushed.get(match_id)
        view = pushed.views.get(seat) if pushed is not None else None
        if view is not None and view.version == version and info.seen.get(seat, 0) == version:
            metrics.PUSHED.inc()
            return view
        metrics.ASKED.inc()
        view = await self._ports.get_view(game_pb2.GetViewRequest(match_id=match_id, seat=seat))
        if view.version != version:
            return None
        await self._asked(match_id, info, seat)
        return view

    # ----- what the engine says is due ------------------------------------------------
    async def on_turn(self, turn: internal_pb2.BotTurn) -> None:
        """A bot seat is to act (this instance was picked): decide at once. Nothing is
        lost if this fails: the engine tells the turn again while the table waits."""
        info = await self._info(turn.match_id)
        if info is not None and turn.seat not in info.levels:
            # who plays the seat changed since the match was first seen here (a bot took a
            # departed player's seat): what the match says now
            self._matches.pop(turn.match_id, None)
            info = await self._info(turn.match_id)
        if info is not None and turn.seat in info.levels:
            await self._play(turn.match_id, info, turn.seat, turn.version)

    # ----- deciding ----------------------------------------------------------------------
    async def _play(self, match_id: str, info: MatchInfo, seat: int, version: int) -> None:
        """Decide for the seat at ``version`` once: a turn told again while the decision
        runs (or after it landed) changes nothing; after one that failed, it decides."""
        key = (match_id, seat, version)
        if key in self._deciding or key in self._decided:
            return
        self._deciding.add(key)
        try:
            await self._decide(match_id, info, seat, version)
            self._decided[key] = None
            _trim(self._decided, DECIDED)
        finally:
            self._deciding.discard(key)

    async def _decide(self, match_id: str, info: MatchInfo, seat: int, version: int) -> None:
        level = info.levels[seat]
        # the ids go on the log lines themselves: binding them around every decision
        # cost more than the easy level's choice
        view = await self._view(match_id, info, seat, version)
        if view is None or not view.legal_actions:
            return  # the table has moved on; a later event brings us back
        game = registry.get(info.game)
        policy = bots.policy_for(info.game, level)
        if policy.reads_view and not view.HasField("view"):
            # pushed without its record (the engine's bots do not read it): ask for it
            view = await self._full_view(match_id, seat, version)
            if view is None:
                return
        legal = [game.decode_action(a.code) for a in view.legal_actions]
        seed = bots.decision_seed(match_id, seat, version, level)
        budget = self._ports.budget or budget_for(info.game, info.think_ms.get(seat, 0))
        started = time.perf_counter()
        try:
            action = policy.decide(
                game, self._knowledge(info, seat, view), legal, random.Random(seed), budget
            )
        except ViewNotPushed:  # the level read a view it says it never reads: ask, and again
            log.warning("bot.view_read_unexpectedly", game=info.game, level=level)
            view = await self._full_view(match_id, seat, version)
            if view is None:
                return
            action = policy.decide(
                game, self._knowledge(info, seat, view), legal, random.Random(seed), budget
            )
        # what it chose is not logged: a secret choice (a reservation) stays hidden
        log.debug(
            "bot.decided",
            match_id=match_id,
            seat=seat,
            level=level,
            version=version,
            ms=round((time.perf_counter() - started) * 1000, 2),
            samples=budget.samples,
            legal=len(legal),
            policy_version=bots.policy_version(info.game),
        )
        if action is None:  # an optional action let pass (e.g. an announcement)
            metrics.decided(level, "passed")
            return
        decision = events_pb2.BotDecision(
            level=level,
            policy_version=bots.policy_version(info.game),
            rng_seed=seed,
            samples=budget.samples,
        )
        request = game_pb2.SubmitActionRequest(
            match_id=match_id,
            seat=seat,
            command_id=f"bot:{match_id}:{seat}:{version}",
            expected_version=version,
            action=game.encode_action(action),
            bot_decision=decision,
        )
        await self._submit(request, level)

    async def _submit(self, request: game_pb2.SubmitActionRequest, level: str) -> None:
        try:
            await self._ports.submit(request)
            metrics.decided(level, "ok")
        except ServiceError as error:
            if error.code not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                raise
            metrics.decided(level, "superseded")
            log.info(
                "bot.superseded",
                match_id=request.match_id,
                seat=request.seat,
                level=level,
                reason=error.reason.code,
            )


def _decoded(info: MatchInfo, envelope: events_pb2.EventEnvelope) -> Event:
    """The envelope's event; a public one decoded once for all the match's bot seats."""
    if not envelope.public:
        return codec.decode_payload(info.game, envelope.type, envelope.payload.SerializeToString())
    event = info.public.get(envelope.version)
    if event is None:
        event = codec.decode_payload(info.game, envelope.type, envelope.payload.SerializeToString())
        info.public[envelope.version] = event
        if len(info.public) > SHARED_EVENTS:
            del info.public[next(iter(info.public))]
    return event


class ViewNotPushed(Exception):
    """A policy read the view of a push that came without it (``Policy.reads_view``)."""


def _decode_view(info: MatchInfo, seat: int, view: game_pb2.GetViewResponse) -> Any:
    if not view.HasField("view"):
        raise ViewNotPushed
    return from_record_bytes(_view_class(info, seat), view.view.SerializeToString())


def _trim(table: OrderedDict[str, Any], capacity: int) -> None:
    while len(table) > capacity:
        table.popitem(last=False)


_VIEW_CLASSES: dict[tuple[str, int], type[Any]] = {}


def _view_class(info: MatchInfo, seat: int) -> type[Any]:
    """The game's view dataclass (taken from a fresh state's view)."""
    key = (info.game, info.players)
    if key not in _VIEW_CLASSES:
        game = registry.get(info.game)
        _VIEW_CLASSES[key] = type(game.view(game.initial_state(info.players, info.options), seat))
    return _VIEW_CLASSES[key]
