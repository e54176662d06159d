"""The engine's application layer: commands in, events appended, views out.

**One writer per table.** Inside a process a match's commands run one at a time (a lock
per match); across processes, tables are sharded (``shards.py``): the engine holding a
table's partition is its writer, and its memory of the match is the authority — a command
decides against the state in memory and appends with one statement, without reading the
log. Anywhere else, and whenever that memory may be behind (no partition held, a conflict,
an append whose outcome is not known), the state is caught up from the log first. The
log's expected-version check still makes sure no two writers ever both append move N:
memory is a speed-up, and any entry may be dropped and folded again.

**Exactly once per command.** A command's id is looked up in the log only when the command
would otherwise be refused (stale, illegal): a retry of an applied command is refused by
the rules or by its expected version, and the lookup then answers with the original
result; a retry the rules would accept again is refused by the append itself (its id is
recorded) and answered the same way. Authorisation comes first, always.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

import structlog

from services.engine import metrics
from services.engine.automatic import AutomaticMixin
from services.engine.cache import CACHE_MATCHES, TAIL_EVENTS, Locks, MatchCache
from services.engine.callers import Caller, Service, client_id_problem, command_key, platform_key
from services.engine.codec import batches_to_new_events
from services.engine.mapping import (
    MAX_ACTION,
    Answer,
    check_id,
    check_text,
    duplicate_response,
    request_fingerprint,
    stream_of,
    take_back_fingerprint,
)
from services.engine.presence import Presence, PresenceSettings
from services.engine.queries import QueryMixin
from services.engine.referee import RefereeMixin
from services.engine.timers import Due, TimerWheel
from tavola.accounts.model import ADMIN, BOT, PLAY, REFEREE, Principal
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.model import EventStore, StoredEvent
from tavola.match import aggregate
from tavola.match.aggregate import Batch, MatchState
from tavola.match.events import (
    MatchCreated,
    SeatCredentials,
    SeatInfo,
    SeatReclaimed,
    option_entries,
)
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules import fairness, registry
from tavola.rules.errors import RulesError
from tavola.rules.registry import UnknownGame
from tavola.v1 import events_pb2, game_pb2, internal_pb2

log = structlog.get_logger(__name__)
RECLAIMED = "match.SeatReclaimed"
ATTEMPTS = 2  # a command whose memory of the match was behind is decided again, once


class SeedVault(Protocol):
    async def seed(self, match_id: str) -> bytes: ...


class TimerIndex(Protocol):
    async def matches_with_deadlines(self) -> list[str]: ...


@dataclass(frozen=True)
class Appended:
    """What one append changed, for the engine's listeners (the relay, the bots' pushes)."""

    match_id: str
    state: MatchState  # the match after it
    events: tuple[StoredEvent, ...]


def _everywhere(_match_id: str) -> bool:
    return True


@dataclass
class Ports:
    store: EventStore
    seeds: SeedVault
    new_id: Callable[[], UUID]
    salt: Callable[[int], bytes]
    now_ms: Callable[[], int]
    timer_index: TimerIndex | None = None
    presence: PresenceSettings = field(default_factory=PresenceSettings)
    owns: Callable[[str], bool] = _everywhere  # holds the match's partition (shards.py)
    cache_matches: int = CACHE_MATCHES


Listener = Callable[[Appended], Awaitable[None]]


class Engine(AutomaticMixin, RefereeMixin, QueryMixin):
    def __init__(self, ports: Ports) -> None:
        self._ports = ports
        self.presence = Presence(ports.now_ms, ports.presence)
        self.locks = Locks()
        self.cache = MatchCache(
            ports.cache_matches, on_evict=self._evicted, busy=self.locks.__contains__
        )
        self._attempts: dict[Due, int] = {}
        self.timers = TimerWheel()
        self.listeners: list[Listener] = []  # told of every append (relay, bots' pushes)

    def _evicted(self, match_id: str) -> None:
        self.presence.forget(match_id)  # its counts are folded again with the match
        metrics.CACHED_MATCHES.set(len(self.cache))

    # ----- watching ----------------------------------------------------------------------
    def watch(self, match_id: str) -> asyncio.Event:
        """An event set whenever the match is appended to (streams wait on it); while a match
        is watched, its last events are kept in memory for the streams."""
        wakeup = asyncio.Event()
        entry = self.cache.peek(match_id)
        if entry is not None:
            entry.watchers.add(wakeup)
            if entry.tail is None:
                entry.tail = _tail()
        return wakeup

    def watching(self, match_id: str, wakeup: asyncio.Event) -> bool:
        """``wakeup`` is set by this engine's appends to the match (its entry holds it)."""
        entry = self.cache.peek(match_id)
        return entry is not None and wakeup in entry.watchers

    def unwatch(self, match_id: str, wakeup: asyncio.Event) -> None:
        entry = self.cache.peek(match_id)
        if entry is not None:
            entry.watchers.discard(wakeup)
            if not entry.watchers:
                entry.tail = None
                entry.wire.clear()

    def appended_elsewhere(self, match_id: str) -> None:
        """Another engine appended to the match (seen on the bus): wake its streams."""
        self._wake(match_id)

    def _wake(self, match_id: str) -> None:
        entry = self.cache.peek(match_id)
        if entry is not None:
            for wakeup in entry.watchers:
                wakeup.set()

    # ----- loading ---------------------------------------------------------------------
    async def load(self, match_id: str) -> MatchState:
        """The match as the log has it now: from memory where this engine is its writer and
        nothing says otherwise, else caught up from the log (one catch-up at a time)."""
        check_id("match_id", match_id)
        entry = self.cache.get(match_id)
        if entry is not None and entry.fresh and self._ports.owns(match_id):
            return entry.state
        async with self.locks.hold(match_id):
            return await self._load_held(match_id)

    async def _load_held(self, match_id: str) -> MatchState:
        """``load`` for a caller holding the match's lock."""
        check_id("match_id", match_id)
        entry = self.cache.get(match_id)
        owned = self._ports.owns(match_id)
        if entry is not None and entry.fresh and owned:
            return entry.state
        after = entry.state.version if entry else 0
        stored = await self._ports.store.read_stream(stream_of(match_id), after_version=after)
        if entry is None and not stored:
            raise errors.not_found("match.not_found", match_id=match_id)
        state = self._fold(entry.state if entry else None, stored)
        if entry is None:
            self.presence.forget(match_id)  # its counts are folded again from the start
            entry = self.cache.put(match_id, state, fresh=owned)
        else:
            entry.advance(state, stored)
            entry.fresh = owned
        self._count_moves(match_id, stored, state.players)
        metrics.CACHED_MATCHES.set(len(self.cache))
        return state

    def _fold(self, state: MatchState | None, stored: list[StoredEvent]) -> MatchState:
        """Decode and fold; the events after ``MatchCreated`` in one ``aggregate.fold``
        (which folds runs of rules events without a match state per event)."""
        rest = stored
        if state is None and stored:
            first = stored[0]
            state = aggregate.evolve(None, codec.decode_payload("", first.type, first.payload))
            rest = stored[1:]
        assert state is not None
        game = state.created.game
        return aggregate.fold(codec.decode_payloads(game, rest), state)

    def _count_moves(self, match_id: str, stored: list[StoredEvent], players: int) -> None:
        """Fold the seats' automatic moves in a row from the log's causes (leaver rule); a
        player who takes their seat back starts again from none. Read from the newest
        event back: a seat's count needs only its moves since its last own move, so a
        long match's replay stops once every seat has made one."""
        automatic: dict[int, int] = {}
        reset: set[int] = set()
        for item in reversed(stored):
            if len(reset) >= players:
                break
            if item.type == RECLAIMED:
                reclaimed = codec.decode_payload("", item.type, item.payload)
                assert isinstance(reclaimed, SeatReclaimed)
                reset.add(reclaimed.seat)
                continue
            cause = codec.decode_metadata(item.metadata)
            seat = cause.cause.seat
            if not cause.last_in_batch or seat < 0 or seat in reset:
                continue
            kind = codec.KINDS.get(cause.cause.kind, "system")
            if kind == "timeout":
                automatic[seat] = automatic.get(seat, 0) + 1
            elif kind in ("action", "take_back"):
                reset.add(seat)
        for seat in reset | set(automatic):
            self.presence.moves(match_id, seat, automatic.get(seat, 0), seat in reset)

    def forget(self, match_id: str) -> None:
        """Throw the match's memory away (it is folded again from the log when needed)."""
        self.cache.remove(match_id)

    # ----- creating ----------------------------------------------------------------------
    async def create_match(
        self, request: internal_pb2.CreateMatchRequest
    ) -> internal_pb2.CreateMatchResponse:
        try:
            game = registry.get(request.game)
            options = game.parse_options(dict(request.options), len(request.seats))
        except (UnknownGame, RulesError) as error:
            raise errors.from_rules_error(error) from None
        seed = await self._ports.seeds.seed(request.match_id)
        created = MatchCreated(
            match_id=request.match_id,
            table_id=request.table_id,
            game=request.game,
            rules_version=game.info.rules_version,
            options=option_entries(options),
            house_rules=game.house_rules(options),
            seats=tuple(
                SeatInfo(
                    s.seat,
                    s.player_name,
                    s.is_bot,
                    s.bot_level,
                    "" if request.deal_group else s.client_seed.hex(),  # the group's deals
                    s.bot_think_ms,
                    s.account_id,
                )
                for s in request.seats
            ),
            seed_commitment=fairness.commitment(seed),
            fairness=fairness.ALGORITHM,
            deal_group=request.deal_group,
        )
        credentials = SeatCredentials(tuple(s.token_sha256 for s in request.seats))
        opening = Batch("system", (created, credentials))
        state = aggregate.fold(opening.events)
        batches = self._with_deadlines(
            state, [opening, *aggregate.settle(state, seed, self._ports.now_ms())]
        )
        async with self.locks.hold(request.match_id):
            try:
                result = await self._append(
                    None, request.match_id, request.game, batches, platform_key("create")
                )
            except DuplicateCommand as duplicate:
                return internal_pb2.CreateMatchResponse(version=duplicate.record.last_version)
        log.info(
            "match.created", match_id=request.match_id, table_id=request.table_id, game=request.game
        )
        metrics.MATCHES_CREATED.labels(game=request.game).inc()
        return internal_pb2.CreateMatchResponse(version=result)

    async def reveal_seed(
        self, request: internal_pb2.RevealSeedRequest
    ) -> internal_pb2.RevealSeedResponse:
        """The lobby: every match of this finished match's deal group has ended, so its seed
        may be revealed now (idempotent: an unrevealed seed is revealed once)."""
        async with self.locks.hold(request.match_id):
            state = await self._load_held(request.match_id)
            seed = await self._ports.seeds.seed(request.match_id)
            try:
                batch = aggregate.reveal(state, seed)
            except RulesError as error:
                raise errors.from_rules_error(error) from None
            if batch is None:
                return internal_pb2.RevealSeedResponse(version=state.version, revealed=False)
            version = await self._append(
                state, request.match_id, state.created.game, [batch], platform_key("reveal")
            )
        log.info("match.seed_revealed", match_id=request.match_id)
        return internal_pb2.RevealSeedResponse(version=version, revealed=True)

    # ----- acting ------------------------------------------------------------------------
    async def submit(
        self, request: game_pb2.SubmitActionRequest, caller: Caller
    ) -> game_pb2.SubmitActionResponse:
        started = time.perf_counter()
        check_command_id(request.command_id)
        check_text("action", request.action, MAX_ACTION)
        fingerprint = request_fingerprint(request)
        outcome = ["error", "unknown"]  # outcome, game
        try:
            for attempt in range(ATTEMPTS):
                try:
                    response = await self._submit(request, caller, fingerprint, outcome)
                except ConcurrencyConflict as conflict:
                    if attempt + 1 < ATTEMPTS:
                        continue  # memory was behind: caught up and decided again
                    outcome[0] = "stale"
                    raise errors.aborted(
                        "command.stale",
                        request.locale or "en",
                        expected=conflict.expected,
                        actual=conflict.actual,
                    ) from None
                outcome[0] = "duplicate" if response.duplicate else "ok"
                return response
            raise AssertionError("unreachable")  # pragma: no cover
        except RulesError as error:
            outcome[0] = "illegal"
            raise errors.from_rules_error(error, request.locale or "en") from None
        finally:
            game, result = outcome[1], outcome[0]
            metrics.series(metrics.COMMANDS, game, result).inc()
            metrics.series(metrics.COMMAND_SECONDS, game).observe(time.perf_counter() - started)

    async def _submit(
        self,
        request: game_pb2.SubmitActionRequest,
        caller: Caller,
        fingerprint: bytes,
        outcome: list[str],
    ) -> game_pb2.SubmitActionResponse:
        match_id = request.match_id
        async with self.locks.hold(match_id):
            checked = False  # memory checked against the log once, before a refusal
            while True:
                state = await self._load_held(match_id)
                outcome[1] = state.created.game
                self._authorize(state, request.seat, request.seat_token, caller)
                state = await self._arrive_held(state, request.seat, caller)
                key = command_key(caller, request.seat, request.command_id)
                if request.expected_version and request.expected_version != state.version:
                    if not checked and await self._was_behind(match_id, state):
                        checked = True
                        continue
                    recorded = await self._recorded(match_id, key, fingerprint, request.command_id)
                    if recorded is not None:
                        return recorded
                    outcome[0] = "stale"
                    raise errors.aborted(
                        "command.stale",
                        request.locale or "en",
                        expected=request.expected_version,
                        actual=state.version,
                    )
                try:
                    batch = aggregate.decide_action(state, request.seat, request.action)
                except RulesError:
                    if not checked and await self._was_behind(match_id, state):
                        checked = True
                        continue
                    recorded = await self._recorded(match_id, key, fingerprint, request.command_id)
                    if recorded is not None:
                        return recorded
                    raise
                return await self._decide_and_append(
                    state, request, fingerprint, caller, key, batch
                )

    async def _was_behind(self, match_id: str, state: MatchState) -> bool:
        """Before refusing a command decided from memory: was memory behind the log (a
        handover between engines)? Caught up if so — then the command is decided again."""
        entry = self.cache.peek(match_id)
        if entry is None or not entry.fresh:
            return False  # just read from the log
        self.cache.doubt(match_id)
        return (await self._load_held(match_id)).version != state.version

    async def _recorded(
        self,
        match_id: str,
        key: str,
        fingerprint: bytes,
        command_id: str,
        answer: type[Answer] = game_pb2.SubmitActionResponse,  # type: ignore[assignment]
    ) -> Answer | None:
        """A command about to be refused may be a retry of one applied before: its recorded
        answer, if its id is recorded (ALREADY_EXISTS if that id was another command's)."""
        previous = await self._ports.store.find_command(stream_of(match_id), key)
        if previous is None:
            return None
        return duplicate_response(previous.result, fingerprint, command_id, answer)

    async def _decide_and_append(
        self,
        state: MatchState,
        request: game_pb2.SubmitActionRequest,
        fingerprint: bytes,
        caller: Caller,
        key: str,
        batch: Batch,
    ) -> game_pb2.SubmitActionResponse:
        after = aggregate.fold(batch.events, state)
        seed = await self._ports.seeds.seed(request.match_id)
        batches = self._with_deadlines(
            state,
            [batch, *aggregate.settle(after, seed, self._ports.now_ms())],
            acted=request.seat,
            first_folded=after,
        )
        count = sum(len(b.events) for b in batches)
        response = game_pb2.SubmitActionResponse(
            version=state.version + count, first_version=state.version + 1
        )
        bot = caller is Service.BOTS or (
            isinstance(caller, Principal) and caller.is_bot and state.seat(request.seat).is_bot
        )
        try:
            await self._append(
                state,
                request.match_id,
                state.created.game,
                batches,
                key,
                fingerprint + response.SerializeToString(),
                by_bot=bot,
                bot_decision=request.bot_decision
                if caller is Service.BOTS and request.HasField("bot_decision")
                else None,
            )
        except DuplicateCommand as duplicate:
            return duplicate_response(duplicate.record.result, fingerprint, request.command_id)
        log.debug(  # every move: at info, the log would cost more than the move
            "action.applied",
            match_id=request.match_id,
            seat=request.seat,
            action=request.action,
            version=response.version,
        )
        return response

    async def _append(
        self,
        state: MatchState | None,
        match_id: str,
        game: str,
        batches: list[Batch],
        command_id: str,
        result: bytes = b"",
        by_bot: bool = False,
        bot_decision: events_pb2.BotDecision | None = None,
    ) -> int:
        """Append the batches as one command (the match's lock held); memory follows only
        what was committed."""
        rules_version = (  # a match is played on under the rules version it began with
            state.created.rules_version if state else registry.get(game).info.rules_version
        )
        new_events, after = batches_to_new_events(
            state,
            batches,
            game=game,
            rules_version=rules_version,
            new_id=self._ports.new_id,
            salt=self._ports.salt,
            command_id=command_id,
            by_bot=by_bot,
            bot_decision=bot_decision,
        )
        try:
            appended = await self._ports.store.append(
                stream_of(match_id),
                state.version if state else 0,
                new_events,
                command_id=command_id,
                command_result=result,
            )
        except BaseException:  # refused, or an outcome not known: catch up before trusting
            self.cache.doubt(match_id)
            raise
        entry = self.cache.peek(match_id)
        if entry is None:
            entry = self.cache.put(match_id, after, fresh=self._ports.owns(match_id))
        else:
            entry.advance(after, appended.events)
            entry.fresh = entry.fresh and self._ports.owns(match_id)
        self.timers.track(match_id, after)
        self._wake(match_id)
        for batch in batches:
            if batch.kind in ("action", "timeout", "take_back") and batch.seat >= 0:
                self.presence.moved(match_id, batch.seat, batch.kind == "timeout")
            for event in batch.events:
                if isinstance(event, SeatReclaimed):
                    self.presence.moved(match_id, event.seat, automatic=False)
        metrics.series(metrics.EVENTS_APPENDED, game).inc(len(new_events))
        metrics.CACHED_MATCHES.set(len(self.cache))
        if after.ended is not None and (state is None or state.ended is None):
            metrics.MATCHES_FINISHED.labels(game=game).inc()
        if self.listeners:
            change = Appended(match_id, after, appended.events)
            for listener in self.listeners:  # each deals with its own failures
                await listener(change)
        return appended.last_version

    def _with_deadlines(
        self,
        state: MatchState | None,
        batches: list[Batch],
        acted: int | None = None,
        first_folded: MatchState | None = None,
    ) -> list[Batch]:
        """Append the deadlines the new position starts (timed seats now to act).
        ``first_folded``: the state after the first batch, when the caller has it."""
        after = state
        rest = batches
        if first_folded is not None and batches:
            after, rest = first_folded, batches[1:]
        for batch in rest:
            after = aggregate.fold(batch.events, after)
        assert after is not None
        due = aggregate.deadlines_due(after, self._ports.now_ms(), acted)
        return [*batches, due] if due else batches

    async def leave(
        self, request: game_pb2.LeaveMatchRequest, caller: Caller
    ) -> game_pb2.LeaveMatchResponse:
        """A player leaves for good (idempotent per seat)."""
        async with self.locks.hold(request.match_id):
            state = await self._load_held(request.match_id)
            self._authorize(state, request.seat, request.seat_token, caller)
            state = await self._arrive_held(state, request.seat, caller)
            try:
                batch = aggregate.decide_leave(state, request.seat)
            except RulesError as error:
                raise errors.from_rules_error(error) from None
            after = aggregate.fold(batch.events, state)
            seed = await self._ports.seeds.seed(request.match_id)
            batches = self._with_deadlines(
                state, [batch, *aggregate.settle(after, seed, self._ports.now_ms())]
            )
            version = await self._append(
                state,
                request.match_id,
                state.created.game,
                batches,
                platform_key("leave", request.seat),
            )
        replaced = after.seat(request.seat).bot_level if batch.events else ""
        log.info("seat.left", match_id=request.match_id, seat=request.seat, replaced_by=replaced)
        return game_pb2.LeaveMatchResponse(version=version, replaced_by=replaced)

    async def take_back(
        self, request: game_pb2.TakeBackRequest, caller: Caller
    ) -> game_pb2.TakeBackResponse:
        """The person at a practice table takes back their last move of this hand (and the
        bots' moves since). Idempotent by command id."""
        check_command_id(request.command_id)
        locale = request.locale or "en"
        fingerprint = take_back_fingerprint(request)
        answer = game_pb2.TakeBackResponse
        async with self.locks.hold(request.match_id):
            state = await self._load_held(request.match_id)
            self._authorize(state, request.seat, request.seat_token, caller)
            state = await self._arrive_held(state, request.seat, caller)
            key = command_key(caller, request.seat, request.command_id)
            last_move = await self._last_move(state, request.match_id, request.seat)
            try:
                batch = aggregate.decide_take_back(state, request.seat, last_move)
            except RulesError as error:
                recorded = await self._recorded(
                    request.match_id, key, fingerprint, request.command_id, answer
                )
                if recorded is not None:
                    return recorded
                raise errors.from_rules_error(error, locale) from None
            batches = self._with_deadlines(state, [batch])
            count = sum(len(b.events) for b in batches)
            response = game_pb2.TakeBackResponse(
                version=state.version + count, restored_version=last_move or 0
            )
            try:
                await self._append(
                    state,
                    request.match_id,
                    state.created.game,
                    batches,
                    key,
                    fingerprint + response.SerializeToString(),
                )
            except DuplicateCommand as duplicate:
                return duplicate_response(
                    duplicate.record.result, fingerprint, request.command_id, answer
                )
            except ConcurrencyConflict:
                raise errors.aborted(
                    "command.stale", locale, expected=state.version, actual=-1
                ) from None
        log.info(
            "moves.taken_back",
            match_id=request.match_id,
            seat=request.seat,
            restored_version=last_move,
            version=response.version,
        )
        metrics.TAKE_BACKS.labels(game=state.created.game).inc()
        return response

    async def _last_move(self, state: MatchState, match_id: str, seat: int) -> int | None:
        """The version before the seat's last move, read from the log's causes — only the
        part since the hand's first checkpoint (nothing earlier can be taken back)."""
        if not state.checkpoints:
            return None
        after = state.checkpoints[0].version
        stored = await self._ports.store.read_stream(stream_of(match_id), after_version=after)
        recorded = codec.decode_recorded(stored, state.created.game)
        return aggregate.last_move_of(recorded, seat)

    def _authorize(
        self, state: MatchState, seat: int, token: str, caller: Caller, reading: bool = False
    ) -> None:
        """May ``caller`` act (or, ``reading``, look) as ``seat``? The bot service only for
        the platform's bot seats; an account only for a seat it sat down at, with that
        seat's token — or, to read any seat without its token, a referee (or an admin) once
        the match has ended; nobody else reads a running match's hidden cards
        (``match.running``)."""
        if not 0 <= seat < state.players:
            raise errors.invalid("game.no_such_seat", seat=seat)
        if caller is Service.BOTS:
            if not state.seat(seat).bot_level:
                raise errors.denied("seat.not_bot", seat=seat)
            return
        if not isinstance(caller, Principal):
            raise errors.denied("seat.not_yours", seat=seat)
        if reading and caller.has(REFEREE, ADMIN):
            if state.ended is not None:
                return  # a finished match: every seat's view, at any version
            if state.created.seats[seat].account_id != caller.account_id:
                raise errors.denied("match.running", match_id=state.created.match_id, seat=seat)
        if not caller.has(PLAY, BOT):
            raise errors.denied("auth.scope_missing", scope="play|bot")
        if state.has_left(seat) and not state.reclaimable(seat):
            raise errors.denied("seat.already_left", seat=seat)
        owner = state.created.seats[seat].account_id
        if not owner or owner != caller.account_id:
            raise errors.denied("seat.not_yours", seat=seat)
        if not aggregate.token_matches(state, seat, token):
            raise errors.denied("seat.bad_token", seat=seat)


def _tail() -> deque[StoredEvent]:
    return deque(maxlen=TAIL_EVENTS)


def check_command_id(command_id: str) -> None:
    check_id("command_id", command_id)
    problem = client_id_problem(command_id)
    if problem is not None:
        raise errors.invalid(problem, field="command_id")


__all__ = ["Appended", "Engine", "Ports", "SeedVault", "stream_of"]
