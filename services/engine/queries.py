"""The engine's read side: views, reasons, hints, match summaries, exports and streams.

Mixed into ``Engine``; everything here reads the match through ``load`` (memory where this
engine is the match's writer, else caught up from the log) and changes nothing. A view is
computed once per (seat, locale) and version and served from memory until the match moves;
a stream's new events come from the match's tail in memory while it is watched, each
serialized once for every stream of the match (as each viewer sees it), and so is each
seat's view a stream is sent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from services.engine.callers import Caller, Service
from services.engine.mapping import (
    blocked_bytes,
    check_id,
    deadline_pb,
    standings_pb,
    stream_of,
)
from tavola.bots import decision_seed
from tavola.bots.interface import Knowledge
from tavola.bots.knowledge import visible
from tavola.bots.registry import hint_for, reads_view
from tavola.eventlog.model import StoredEvent
from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.protocol import errors, records_export
from tavola.protocol import events as codec
from tavola.protocol.envelopes import SPECTATOR, stream_envelopes, to_envelope
from tavola.protocol.records import embedded, record_bytes, scalar, text, varint
from tavola.rules.errors import RulesError
from tavola.rules.messages import render
from tavola.v1 import events_pb2, game_pb2, lobby_pb2

if TYPE_CHECKING:
    from services.engine.app import Ports
    from services.engine.cache import Entry, MatchCache

VIEW_FIELD = game_pb2.GetViewResponse.DESCRIPTOR.fields_by_name["view"].number
LEGAL_FIELD = game_pb2.GetViewResponse.DESCRIPTOR.fields_by_name["legal_actions"].number
_STREAM_FIELDS = game_pb2.StreamEventsResponse.DESCRIPTOR.fields_by_name
STREAM_EVENT_FIELD, STREAM_VIEW_FIELD, STREAM_EVENTS_FIELD = (
    _STREAM_FIELDS["event"].number,
    _STREAM_FIELDS["view"].number,
    _STREAM_FIELDS["events"].number,
)
_EVENT_TAG = bytes([STREAM_EVENT_FIELD << 3 | 2])  # a length-delimited field's key
_EVENTS_TAG = bytes([STREAM_EVENTS_FIELD << 3 | 2])


@dataclass(frozen=True, slots=True)
class StreamItem:
    """An event as a stream sends it: a serialized ``StreamEventsResponse`` (``data``)."""

    version: int
    type: str
    last_in_batch: bool
    data: bytes


def _event_wire(envelope: bytes) -> bytes:
    return embedded(STREAM_EVENT_FIELD, envelope)


def packed_event(data: bytes) -> bytes:
    """A ``StreamItem``'s bytes (``StreamEventsResponse{event}``) as one of a packed
    response's ``events``: the same envelope behind the other field's key."""
    assert data[:1] == _EVENT_TAG
    return _EVENTS_TAG + data[1:]


def _event_wires(envelopes: list[bytes]) -> list[bytes]:
    """``_event_wire`` of each, made once for viewers that see the same envelope (one
    object: ``envelopes_for`` hands them the same)."""
    made: dict[int, bytes] = {}
    out = []
    for envelope in envelopes:
        wire = made.get(id(envelope))
        if wire is None:
            wire = made[id(envelope)] = _event_wire(envelope)
        out.append(wire)
    return out


def view_of(
    state: MatchState, seat: int, locale: str, blocked: bool = True
) -> game_pb2.GetViewResponse:
    """The seat's (or a spectator's) view of the match, with its legal actions and (unless
    ``blocked`` is False: the platform's bots never read them) their labels and the reasons
    its other cards or tiles cannot be played now."""
    return game_pb2.GetViewResponse.FromString(view_bytes(state, seat, locale, blocked))


def view_bytes(
    state: MatchState,
    seat: int,
    locale: str,
    blocked: bool = True,
    shared: tuple[bytes, bytes, bytes, bytes] | None = None,
) -> bytes:
    """``view_of(...).SerializeToString()``, byte for byte, written from parts: what every
    viewer of a version is shown alike (version; to act; finished, standings, game;
    deadlines, away — ``shared_parts``, made once per version for all its viewers) around
    what is the seat's own (its view's record, legal actions, blocked cards), each part in
    its field's place as protobuf orders them (``GetViewResponse``'s numbers)."""
    version, to_act, middle, tail = shared if shared is not None else shared_parts(state)
    game = state.game
    viewer = None if seat == SPECTATOR else seat
    seen = game.view(state.game_state, viewer)
    legal: list[bytes] = []
    refused: list[bytes] = []
    if viewer is not None and state.ended is None:
        encode = game.encode_action
        if blocked:
            describe = game.describe_action
            codes = set()
            for action in game.legal_actions(state.game_state, seat):
                code = encode(action)
                codes.add(code)
                legal.append(embedded(LEGAL_FIELD, text(1, code) + text(2, describe(action))))
            refused = blocked_bytes(state, seat, codes, locale, seen)
        else:  # the platform's bots read the codes only
            legal = [
                embedded(LEGAL_FIELD, text(1, encode(action)))
                for action in game.legal_actions(state.game_state, seat)
            ]
    view = embedded(VIEW_FIELD, record_bytes(seen, _view_name(state)))
    return b"".join([version, view, to_act, *legal, middle, *refused, tail])


def shared_parts(state: MatchState) -> tuple[bytes, bytes, bytes, bytes]:
    """The fields of a version's ``GetViewResponse`` that are the same for every viewer,
    serialized in the four runs its own fields fall between: version (1); to act (3);
    finished, standings, game (5-7); deadlines, away (9-10)."""
    response = game_pb2.GetViewResponse
    return (
        scalar(1, state.version),
        response(to_act=sorted(state.to_act())).SerializeToString(),
        response(
            finished=state.ended is not None, standings=standings_pb(state), game=state.created.game
        ).SerializeToString(),
        response(
            deadlines=[deadline_pb(d) for d in state.deadlines], away=sorted(state.away)
        ).SerializeToString(),
    )


def bot_view_bytes(state: MatchState, seat: int) -> bytes:
    """The serialized ``GetViewResponse`` a bot seat is pushed (``SeatPush.view``): what
    the platform's bots read of ``view_of(state, seat, blocked=False)`` — version, view,
    to act, legal action codes, finished, game — written directly; no labels, reasons,
    standings, deadlines or away seats (a bot asking ``GetView`` gets those too). The
    view's record only for a level that reads it (``Policy.reads_view``: not the easy
    level's uniform choice, for which it was most of the move's cost)."""
    game = state.game
    parts = [scalar(1, state.version)]
    if _reads_view(state.created.game, state.seat(seat).bot_level):
        parts.append(
            embedded(VIEW_FIELD, record_bytes(game.view(state.game_state, seat), _view_name(state)))
        )
    to_act = sorted(state.to_act())
    if to_act:
        parts.append(embedded(3, b"".join(varint(s) for s in to_act)))
    if state.ended is None:
        for action in game.legal_actions(state.game_state, seat):
            parts.append(embedded(LEGAL_FIELD, text(1, game.encode_action(action))))
    else:
        parts.append(b"\x28\x01")  # finished = true
    parts.append(text(7, state.created.game))
    return b"".join(parts)


_READS_VIEW: dict[tuple[str, str], bool] = {}


def _reads_view(game: str, level: str) -> bool:
    """``registry.reads_view``, found once per (game, level); a seat no level of the
    platform plays (a person's, asked for in a test) is given its view."""
    known = _READS_VIEW.get((game, level))
    if known is None:
        known = _READS_VIEW[(game, level)] = not level or reads_view(game, level)
    return known


_VIEW_NAMES: dict[str, str] = {}


def _view_name(state: MatchState) -> str:
    game = state.created.game
    name = _VIEW_NAMES.get(game)
    if name is None:
        name = _VIEW_NAMES[game] = f"{game}.View"
    return name


def _shared(entry: Entry) -> tuple[bytes, bytes, bytes, bytes]:
    """``shared_parts`` of the entry's version, made once for all its viewers."""
    shared = entry.shared
    if shared is None:
        shared = entry.shared = shared_parts(entry.state)
    return shared


def watchable(state: MatchState) -> None:
    """A duplicate table (one of a deal group: every table of a league round dealt the same
    cards) shows its play to no spectator until its seed is revealed, once every table of
    the group has ended: watching one would show the cards another table still holds."""
    if state.created.deal_group and not state.seed_hex:
        raise errors.denied("match.duplicate_running", match_id=state.created.match_id)


class QueryMixin:
    _ports: Ports
    cache: MatchCache

    async def load(self, match_id: str) -> MatchState:
        raise NotImplementedError

    def _fold(self, state: MatchState | None, stored: list[StoredEvent]) -> MatchState:
        raise NotImplementedError

    def _authorize(
        self, state: MatchState, seat: int, token: str, caller: Caller, reading: bool = False
    ) -> None:
        raise NotImplementedError

    async def arrive(self, match_id: str, seat: int, caller: Caller) -> None:
        raise NotImplementedError

    # ----- reading -----------------------------------------------------------------------
    async def view(
        self, request: game_pb2.GetViewRequest, caller: Caller
    ) -> game_pb2.GetViewResponse:
        state = await self._viewable(request, caller)
        seat = request.seat
        if request.at_version:
            if request.at_version > state.version:
                raise errors.invalid(
                    "request.invalid", field="at_version", detail=f"at most {state.version}"
                )
            state = await self._state_at(request.match_id, request.at_version)
            return view_of(state, seat, request.locale or "en", caller is not Service.BOTS)
        blocked = caller is not Service.BOTS
        return self.current_view(request.match_id, state, seat, request.locale or "en", blocked)

    async def stream_view(
        self, request: game_pb2.GetViewRequest, caller: Caller
    ) -> tuple[int, bytes]:
        """``view``'s answer now (``at_version`` is not read), as a stream sends it: its
        version and a serialized ``StreamEventsResponse`` carrying it, made once per
        version for every stream of the seat (no copy, no serializing per stream)."""
        state = await self._viewable(request, caller)
        seat, locale = request.seat, request.locale or "en"
        blocked = caller is not Service.BOTS
        entry = self.cache.peek(request.match_id)
        if entry is None or entry.state is not state:
            view = view_of(state, seat, locale, blocked)
            return state.version, game_pb2.StreamEventsResponse(view=view).SerializeToString()
        key = (seat, locale if blocked else "")
        data = entry.view_wire.get(key)
        if data is None:
            view = entry.views.get(key)
            if view is None:
                made = view_bytes(state, seat, locale, blocked, _shared(entry))
            else:
                made = view.SerializeToString()
            data = entry.view_wire[key] = embedded(STREAM_VIEW_FIELD, made)
        return state.version, data

    async def _viewable(self, request: game_pb2.GetViewRequest, caller: Caller) -> MatchState:
        """The match, once the caller may see the seat's view of it (a seat's reader is
        present at the table)."""
        state = await self.load(request.match_id)
        seat = request.seat
        if seat == SPECTATOR:
            watchable(state)
        else:
            self._authorize(state, seat, request.seat_token, caller, reading=True)
            if state.ended is None:  # a finished match's reader (a referee) is no presence
                await self.arrive(request.match_id, seat, caller)
                state = await self.load(request.match_id)
        return state

    def current_view(
        self, match_id: str, state: MatchState, seat: int, locale: str, blocked: bool = True
    ) -> game_pb2.GetViewResponse:
        """The seat's view at the state's version, computed once per version and copied out
        of memory for each caller (a copy is far cheaper than the rules' view)."""
        entry = self.cache.peek(match_id)
        if entry is None or entry.state is not state:
            return view_of(state, seat, locale, blocked)
        key = (seat, locale if blocked else "")
        cached = entry.views.get(key)
        if cached is None:
            made = view_bytes(state, seat, locale, blocked, _shared(entry))
            cached = entry.views[key] = game_pb2.GetViewResponse.FromString(made)
        answer = game_pb2.GetViewResponse()
        answer.CopyFrom(cached)
        return answer

    async def _state_at(self, match_id: str, version: int) -> MatchState:
        stored = await self._ports.store.read_stream(stream_of(match_id), limit=version)
        return self._fold(None, stored)

    async def explain(
        self, request: game_pb2.ExplainActionRequest, caller: Caller
    ) -> game_pb2.ExplainActionResponse:
        state = await self.load(request.match_id)
        self._authorize(state, request.seat, request.seat_token, caller)
        await self.arrive(request.match_id, request.seat, caller)
        locale = request.locale or "en"
        try:
            aggregate.decide_action(state, request.seat, request.action)
        except RulesError as error:
            text = render(error.reason, locale)
            return game_pb2.ExplainActionResponse(
                legal=False, reason=codec.reason_to_pb(error.reason, text)
            )
        return game_pb2.ExplainActionResponse(legal=True)

    async def export(self, request: game_pb2.ExportMatchRequest) -> game_pb2.ExportMatchResponse:
        """The finished match's events exactly as stored, for offline verification (a
        referee's corrections, which follow the seed's reveal, included)."""
        check_id("match_id", request.match_id)
        stored = await self._ports.store.read_stream(stream_of(request.match_id))
        if not stored:
            raise errors.not_found("match.not_found", match_id=request.match_id)
        if not any(s.type == "match.SeedRevealed" for s in stored):
            raise errors.precondition("match.not_finished", match_id=request.match_id)
        return game_pb2.ExportMatchResponse(
            format=records_export.FORMAT,
            match_id=request.match_id,
            events=[records_export.to_record(s) for s in stored],
        )

    async def hint(
        self, request: game_pb2.GetHintRequest, caller: Caller
    ) -> game_pb2.GetHintResponse:
        """The hard bot's choice for the seat, from exactly what the seat knows."""
        state = await self.load(request.match_id)
        self._authorize(state, request.seat, request.seat_token, caller)
        await self.arrive(request.match_id, request.seat, caller)
        state = await self.load(request.match_id)
        game = state.game
        legal = game.legal_actions(state.game_state, request.seat) if not state.ended else ()
        if not legal:
            raise errors.precondition(
                "game.not_your_turn",
                request.locale or "en",
                seat=request.seat,
                on_turn=",".join(map(str, sorted(state.to_act()))),
            )
        stored = await self._ports.store.read_stream(stream_of(request.match_id))
        prefix = f"{state.created.game}."
        decoded = [
            (s.version, codec.decode_payload(state.created.game, s.type, s.payload))
            for s in stored
            if s.type.startswith(prefix) or s.type == codec.TAKEN_BACK
        ]
        history = visible(  # what was taken back is no longer part of the hand
            [e for _, e in aggregate.effective(decoded)], request.seat
        )
        knowledge = Knowledge(
            request.seat,
            state.players,
            tuple(sorted(state.options().items())),
            game.view(state.game_state, request.seat),
            history,
        )
        seed = decision_seed(request.match_id, request.seat, state.version, "hint")
        action, reason = hint_for(game, knowledge, legal, random.Random(seed))
        if action is None:
            raise errors.precondition(reason.code, request.locale or "en")
        locale = request.locale or "en"
        return game_pb2.GetHintResponse(
            action=game_pb2.LegalAction(
                code=game.encode_action(action), label=game.describe_action(action)
            ),
            reason=codec.reason_to_pb(reason, render(reason, locale)),
        )

    async def get_match(self, request: game_pb2.GetMatchRequest) -> game_pb2.GetMatchResponse:
        state = await self.load(request.match_id)
        created = state.created
        return game_pb2.GetMatchResponse(
            match_id=created.match_id,
            table_id=created.table_id,
            game=created.game,
            options={o.name: o.value for o in created.options},
            house_rules=list(created.house_rules),
            version=state.version,
            finished=state.ended is not None,
            standings=standings_pb(state),
            seed_commitment=created.seed_commitment,
            seed=state.seed_hex or "",
            seats=[
                lobby_pb2.Seat(
                    seat=s.seat,
                    taken=True,
                    player_name=s.player_name,
                    is_bot=s.is_bot,
                    bot_level=s.bot_level,
                    bot_think_ms=s.bot_think_ms,
                    account_id="" if s.bot_level else s.account_id,
                    away=s.seat in state.away,
                )
                for s in (state.seat(i) for i in range(state.players))
            ],
            client_seeds=[s.client_seed_hex for s in created.seats],
        )

    async def events_after(
        self,
        match_id: str,
        viewer: int,
        after_version: int,
        limit: int | None = None,
        locale: str = "",
    ) -> list[events_pb2.EventEnvelope]:
        """The events after a version, redacted for ``viewer``: from the match's tail in
        memory when it reaches back that far (a watched match this engine writes), else
        read from the log."""
        stored, _, table_id = await self._stored_after(match_id, after_version, limit)
        return [to_envelope(s, viewer, table_id, locale) for s in stored]

    async def _stored_after(
        self, match_id: str, after_version: int, limit: int | None
    ) -> tuple[list[StoredEvent], Entry | None, str]:
        """The stored events after a version (at most ``limit``), the match's entry when
        they came from its tail in memory (else ``None``: read from the log), and its
        table id."""
        entry = self.cache.peek(match_id)
        stored = None
        if entry is not None and entry.fresh and self._ports.owns(match_id):
            stored = entry.events_after(after_version)
            if stored is not None and limit is not None:
                stored = stored[:limit]
        tail = entry if stored is not None else None
        if stored is None:
            stored = await self._ports.store.read_stream(stream_of(match_id), after_version, limit)
        if entry is not None:
            table_id = entry.state.created.table_id
        else:  # the same envelopes whichever engine serves them, and whenever
            table_id = (await self.load(match_id)).created.table_id if stored else ""
        return stored, tail, table_id

    async def stream_items(
        self, match_id: str, viewer: int, after_version: int, limit: int, locale: str = ""
    ) -> list[StreamItem]:
        """``events_after`` as a stream sends them: each event's serialized
        ``StreamEventsResponse`` for ``viewer``. From the match's tail, each event is
        serialized once for every viewer (spectator and seats) and kept for the last
        ``WIRE_EVENTS`` versions, so each of the match's streams sends the same bytes."""
        stored, tail, table_id = await self._stored_after(match_id, after_version, limit)
        viewers = range(viewer, viewer + 1)
        wire = None
        if tail is not None and SPECTATOR <= viewer < tail.state.players:
            viewers = range(SPECTATOR, tail.state.players)  # for every stream of the match
            wire = tail.wire
        items = []
        for event in stored:
            made = wire.get(event.version) if wire is not None else None
            if made is None:
                envelopes, last, reasoned = stream_envelopes(event, viewers, table_id)
                made = (_event_wires(envelopes), last, reasoned)
                if wire is not None:
                    wire[event.version] = made
            if made[2] and locale:  # an automatic move's reason, in the stream's language
                data = _event_wire(to_envelope(event, viewer, table_id, locale).SerializeToString())
            else:
                data = made[0][viewer - viewers.start]
            items.append(StreamItem(event.version, event.type, made[1], data))
        return items

    async def authorize_stream(
        self, match_id: str, seat: int, token: str, caller: Caller
    ) -> MatchState:
        state = await self.load(match_id)
        if seat == SPECTATOR:
            watchable(state)
        else:
            self._authorize(state, seat, token, caller, reading=True)
            if state.ended is None:
                await self.arrive(match_id, seat, caller)
                state = await self.load(match_id)
        return state
