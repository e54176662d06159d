"""The engine's application layer: commands in, events appended, views out.

One writer per match inside a process (an asyncio lock per match); across processes the
log's expected-version check makes sure two engines never both append move N. The cache
is only a speed-up: every read catches up from the log first, and any entry may be dropped.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

import structlog

from services.engine import metrics
from services.engine.callers import Caller, Service, client_id_problem, command_key, platform_key
from services.engine.codec import batches_to_new_events
from services.engine.mapping import (
    MAX_ACTION,
    check_id,
    check_text,
    duplicate_response,
    request_fingerprint,
    stream_of,
    take_back_fingerprint,
)
from services.engine.presence import Presence, PresenceSettings
from services.engine.queries import QueryMixin
from services.engine.timers import PAUSE, Due, TimerWheel
from tavola.accounts.model import BOT, PLAY, REFEREE, Principal
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.model import EventStore, StoredEvent
from tavola.match import aggregate
from tavola.match.aggregate import Batch, MatchState
from tavola.match.events import (
    MatchCreated,
    SeatAway,
    SeatBack,
    SeatCredentials,
    SeatInfo,
    SeatReclaimed,
    option_entries,
)
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules import fairness, registry
from tavola.rules.errors import RulesError
from tavola.rules.interface import Event
from tavola.rules.registry import UnknownGame
from tavola.service.failures import is_outage
from tavola.v1 import events_pb2, game_pb2, internal_pb2

log = structlog.get_logger(__name__)
RECLAIMED = "match.SeatReclaimed"
TIMER_ATTEMPTS = 20  # a deadline delayed by an outage is tried at most this many times
TIMER_RETRY_MS = 500
TIMER_RETRY_CAP_MS = 30_000


class SeedVault(Protocol):
    async def seed(self, match_id: str) -> bytes: ...


class TimerIndex(Protocol):
    async def matches_with_deadlines(self) -> list[str]: ...


@dataclass
class Ports:
    store: EventStore
    seeds: SeedVault
    new_id: Callable[[], UUID]
    salt: Callable[[int], bytes]
    now_ms: Callable[[], int]
    timer_index: TimerIndex | None = None
    presence: PresenceSettings = field(default_factory=PresenceSettings)


class Engine(QueryMixin):
    def __init__(self, ports: Ports) -> None:
        self._ports = ports
        self.presence = Presence(ports.now_ms, ports.presence)
        self._cache: dict[str, MatchState] = {}
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._watchers: defaultdict[str, set[asyncio.Event]] = defaultdict(set)
        self._attempts: dict[Due, int] = {}
        self.timers = TimerWheel()

    # ----- watching ----------------------------------------------------------------------
    def watch(self, match_id: str) -> asyncio.Event:
        """An event set whenever this engine appends to the match (streams wait on it)."""
        wakeup = asyncio.Event()
        self._watchers[match_id].add(wakeup)
        return wakeup

    def unwatch(self, match_id: str, wakeup: asyncio.Event) -> None:
        watchers = self._watchers.get(match_id)
        if watchers is not None:
            watchers.discard(wakeup)
            if not watchers:
                del self._watchers[match_id]

    def appended_elsewhere(self, match_id: str) -> None:
        """Another engine appended to the match (seen on the bus): wake its streams."""
        self._wake(match_id)

    def _wake(self, match_id: str) -> None:
        for wakeup in self._watchers.get(match_id, ()):
            wakeup.set()

    # ----- loading ---------------------------------------------------------------------
    async def load(self, match_id: str) -> MatchState:
        """The match as the log has it now (cached state caught up from the log)."""
        check_id("match_id", match_id)
        cached = self._cache.get(match_id)
        after = cached.version if cached else 0
        stored = await self._ports.store.read_stream(stream_of(match_id), after_version=after)
        if cached is None and not stored:
            raise errors.not_found("match.not_found", match_id=match_id)
        if cached is None:
            self.presence.forget(match_id)  # its counts are folded again from the start
        state = self._fold(cached, stored)
        self._count_moves(match_id, stored)
        self._cache[match_id] = state
        metrics.CACHED_MATCHES.set(len(self._cache))
        return state

    def _fold(self, state: MatchState | None, stored: list[StoredEvent]) -> MatchState:
        for item in stored:
            event = codec.decode_payload(
                state.created.game if state else "", item.type, item.payload
            )
            state = aggregate.evolve(state, event)
        assert state is not None
        return state

    def _count_moves(self, match_id: str, stored: list[StoredEvent]) -> None:
        """Fold the seats' automatic moves in a row from the log's causes (leaver rule); a
        player who takes their seat back starts again from none."""
        for item in stored:
            if item.type == RECLAIMED:
                reclaimed = codec.decode_payload("", item.type, item.payload)
                assert isinstance(reclaimed, SeatReclaimed)
                self.presence.moved(match_id, reclaimed.seat, automatic=False)
                continue
            cause = codec.decode_metadata(item.metadata)
            if cause.last_in_batch and cause.cause.seat >= 0:
                kind = codec.KINDS.get(cause.cause.kind, "system")
                if kind in ("action", "timeout", "take_back"):
                    self.presence.moved(match_id, cause.cause.seat, kind == "timeout")

    def forget(self, match_id: str) -> None:
        self._cache.pop(match_id, None)

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
                    s.client_seed.hex(),
                    s.bot_think_ms,
                    s.account_id,
                )
                for s in request.seats
            ),
            seed_commitment=fairness.commitment(seed),
            fairness=fairness.ALGORITHM,
        )
        credentials = SeatCredentials(tuple(s.token_sha256 for s in request.seats))
        opening = Batch("system", (created, credentials))
        state = aggregate.fold(opening.events)
        batches = self._with_deadlines(
            state, [opening, *aggregate.settle(state, seed, self._ports.now_ms())]
        )
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

    # ----- acting ------------------------------------------------------------------------
    async def submit(
        self, request: game_pb2.SubmitActionRequest, caller: Caller
    ) -> game_pb2.SubmitActionResponse:
        started = time.perf_counter()
        check_command_id(request.command_id)
        check_text("action", request.action, MAX_ACTION)
        fingerprint = request_fingerprint(request)
        game_name = "unknown"
        outcome = "error"
        try:
            async with self._locks[request.match_id]:
                state = await self.load(request.match_id)
                game_name = state.created.game
                self._authorize(state, request.seat, request.seat_token, caller)
                state = await self._arrive_held(state, request.seat, caller)
                key = command_key(caller, request.seat, request.command_id)
                stream = stream_of(request.match_id)
                previous = await self._ports.store.find_command(stream, key)
                if previous is not None:
                    outcome = "duplicate"
                    return duplicate_response(previous.result, fingerprint, request.command_id)
                if request.expected_version and request.expected_version != state.version:
                    outcome = "stale"
                    raise errors.aborted(
                        "command.stale",
                        request.locale or "en",
                        expected=request.expected_version,
                        actual=state.version,
                    )
                response = await self._decide_and_append(state, request, fingerprint, caller, key)
                outcome = "duplicate" if response.duplicate else "ok"
                return response
        except RulesError as error:
            outcome = "illegal"
            raise errors.from_rules_error(error, request.locale or "en") from None
        finally:
            metrics.COMMANDS.labels(game=game_name, outcome=outcome).inc()
            metrics.COMMAND_SECONDS.labels(game=game_name).observe(time.perf_counter() - started)

    async def _decide_and_append(
        self,
        state: MatchState,
        request: game_pb2.SubmitActionRequest,
        fingerprint: bytes,
        caller: Caller,
        key: str,
    ) -> game_pb2.SubmitActionResponse:
        batch = aggregate.decide_action(state, request.seat, request.action)
        after = aggregate.fold(batch.events, state)
        seed = await self._ports.seeds.seed(request.match_id)
        batches = self._with_deadlines(
            state, [batch, *aggregate.settle(after, seed, self._ports.now_ms())], acted=request.seat
        )
        count = sum(len(b.events) for b in batches)
        response = game_pb2.SubmitActionResponse(
            version=state.version + count, first_version=state.version + 1
        )
        try:
            bot = caller is Service.BOTS or (
                isinstance(caller, Principal) and caller.is_bot and state.seat(request.seat).is_bot
            )
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
        except ConcurrencyConflict:
            self.forget(request.match_id)
            raise errors.aborted(
                "command.stale", request.locale or "en", expected=state.version, actual=-1
            ) from None
        structlog.get_logger(__name__).info(
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
        rules_version = registry.get(game).info.rules_version
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
        appended = await self._ports.store.append(
            stream_of(match_id),
            state.version if state else 0,
            new_events,
            command_id=command_id,
            command_result=result,
        )
        self._cache[match_id] = after
        self.timers.track(match_id, after)
        self._wake(match_id)
        for batch in batches:
            if batch.kind in ("action", "timeout", "take_back") and batch.seat >= 0:
                self.presence.moved(match_id, batch.seat, batch.kind == "timeout")
            for event in batch.events:
                if isinstance(event, SeatReclaimed):
                    self.presence.moved(match_id, event.seat, automatic=False)
        metrics.EVENTS_APPENDED.labels(game=game).inc(len(new_events))
        if after.ended is not None and (state is None or state.ended is None):
            metrics.MATCHES_FINISHED.labels(game=game).inc()
        return appended.last_version

    def _with_deadlines(
        self, state: MatchState | None, batches: list[Batch], acted: int | None = None
    ) -> list[Batch]:
        """Append the deadlines the new position starts (timed seats now to act)."""
        after = state
        for batch in batches:
            after = aggregate.fold(batch.events, after)
        assert after is not None
        due = aggregate.deadlines_due(after, self._ports.now_ms(), acted)
        return [*batches, due] if due else batches

    async def leave(
        self, request: game_pb2.LeaveMatchRequest, caller: Caller
    ) -> game_pb2.LeaveMatchResponse:
        """A player leaves for good (idempotent per seat)."""
        async with self._locks[request.match_id]:
            state = await self.load(request.match_id)
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
        async with self._locks[request.match_id]:
            state = await self.load(request.match_id)
            self._authorize(state, request.seat, request.seat_token, caller)
            state = await self._arrive_held(state, request.seat, caller)
            key = command_key(caller, request.seat, request.command_id)
            previous = await self._ports.store.find_command(stream_of(request.match_id), key)
            if previous is not None:
                return duplicate_response(
                    previous.result, fingerprint, request.command_id, game_pb2.TakeBackResponse
                )
            last_move = await self._last_move(state, request.match_id, request.seat)
            try:
                batch = aggregate.decide_take_back(state, request.seat, last_move)
            except RulesError as error:
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
                    duplicate.record.result,
                    fingerprint,
                    request.command_id,
                    game_pb2.TakeBackResponse,
                )
            except ConcurrencyConflict:
                self.forget(request.match_id)
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

    # ----- timers ------------------------------------------------------------------------
    async def fire(self, due: Due) -> bool:
        """Act for a seat whose deadline passed (if it still runs); True if appended."""
        if due.seat == PAUSE:
            return await self._resume(due)
        async with self._locks[due.match_id]:
            state = await self.load(due.match_id)
            live = {d.seat: d.deadline_ms for d in state.deadlines}
            if live.get(due.seat) != due.deadline_ms or due.seat not in state.to_act():
                return False
            batch = aggregate.decide_timeout(state, due.seat)
            after = aggregate.fold(batch.events, state)
            seed = await self._ports.seeds.seed(due.match_id)
            batches = self._with_deadlines(
                state, [batch, *aggregate.settle(after, seed, self._ports.now_ms())], acted=due.seat
            )
            command = platform_key("timeout", due.seat, due.deadline_ms)
            try:
                await self._append(state, due.match_id, state.created.game, batches, command)
            except (DuplicateCommand, ConcurrencyConflict):
                self.forget(due.match_id)
                return False
            metrics.TIMER_EXPIRIES.labels(game=state.created.game).inc()
            log.info(
                "timer.expired",
                match_id=due.match_id,
                seat=due.seat,
                action=batch.action,
                reason=batch.reason.code if batch.reason else "",
            )
            await self._leaver_rule(due.match_id, due.seat)
            return True

    async def _leaver_rule(self, match_id: str, seat: int) -> None:
        """After too many automatic moves in a row, the game's rule for a player who left
        applies (lock held): a bot takes the seat (the player may come back), or the
        game's own rule (Doppelkopf: the game ends unscored)."""
        settings = self.presence.settings
        state = self._cache[match_id]
        if (
            state.ended is not None
            or not state.person(seat)
            or state.has_left(seat)
            or self.presence.missed(match_id, seat) < settings.away_moves
        ):
            return
        batch = aggregate.decide_leave(state, seat, settings.takeover_level, away=True)
        after = aggregate.fold(batch.events, state)
        seed = await self._ports.seeds.seed(match_id)
        batches = self._with_deadlines(
            state, [batch, *aggregate.settle(after, seed, self._ports.now_ms())]
        )
        key = platform_key("leave", seat, "away", state.version)
        try:
            await self._append(state, match_id, state.created.game, batches, key)
        except (DuplicateCommand, ConcurrencyConflict):
            self.forget(match_id)
            return
        metrics.LEAVER_RULE.labels(game=state.created.game).inc()
        log.info(
            "seat.taken_over", match_id=match_id, seat=seat, replaced_by=settings.takeover_level
        )

    # ----- presence ----------------------------------------------------------------------
    async def arrive(self, match_id: str, seat: int, caller: Caller) -> None:
        """A seat's own client called: if it was away, it is back (``SeatBack``); if the
        leaver rule had given its seat to a bot, it takes it back (``SeatReclaimed``)."""
        if not isinstance(caller, Principal) or seat < 0:
            return
        self.presence.seen(match_id, seat)
        state = self._cache.get(match_id)
        if state is None or (seat not in state.away and not state.reclaimable(seat)):
            return
        async with self._locks[match_id]:
            await self._arrive_locked(match_id, seat)

    async def _arrive_held(self, state: MatchState, seat: int, caller: Caller) -> MatchState:
        """``arrive`` for a caller already holding the match's lock; the state after."""
        if not isinstance(caller, Principal) or seat < 0:
            return state
        match_id = state.created.match_id
        self.presence.seen(match_id, seat)
        if seat not in state.away and not state.reclaimable(seat):
            return state
        await self._arrive_locked(match_id, seat)
        return self._cache.get(match_id) or await self.load(match_id)

    async def _arrive_locked(self, match_id: str, seat: int) -> None:
        state = await self.load(match_id)
        if state.ended is not None:
            return
        events: list[Event] = []
        if state.reclaimable(seat):
            events.append(SeatReclaimed(seat))
        if seat in state.away:
            events.append(SeatBack(seat))
        if not events:
            return
        after = aggregate.fold(events, state)
        batches = self._with_deadlines(state, [Batch("system", tuple(events))])
        key = platform_key("back", seat, state.version)
        try:
            await self._append(state, match_id, state.created.game, batches, key)
        except (DuplicateCommand, ConcurrencyConflict):
            self.forget(match_id)
            return
        if after.seat(seat) != state.seat(seat):
            log.info("seat.reclaimed", match_id=match_id, seat=seat)

    async def sweep_presence(self) -> int:
        """Record ``SeatAway`` for every seat of a running match whose client is gone."""
        marked = 0
        for match_id, state in list(self._cache.items()):
            if state.ended is not None:
                continue
            gone = [
                s
                for s in range(state.players)
                if state.person(s)
                and not state.has_left(s)
                and s not in state.away
                and self.presence.gone(match_id, s)
            ]
            if not gone:
                continue
            async with self._locks[match_id]:
                state = await self.load(match_id)
                events: list[Event] = [SeatAway(s) for s in gone if s not in state.away]
                if not events or state.ended is not None:
                    continue
                try:
                    await self._append(
                        state,
                        match_id,
                        state.created.game,
                        [Batch("system", tuple(events))],
                        platform_key("away", state.version),
                    )
                except (DuplicateCommand, ConcurrencyConflict):
                    self.forget(match_id)
                    continue
                marked += len(events)
                metrics.SEATS_AWAY.labels(game=state.created.game).inc(len(events))
                log.info("seat.away", match_id=match_id, seats=[e.seat for e in events])
        return marked

    async def _resume(self, due: Due) -> bool:
        """A pause between games has passed: deal on."""
        async with self._locks[due.match_id]:
            state = await self.load(due.match_id)
            pause = state.pause
            if pause is None or pause.until_ms != due.deadline_ms or state.ended is not None:
                return False
            seed = await self._ports.seeds.seed(due.match_id)
            batches = self._with_deadlines(
                state, aggregate.settle(state, seed, self._ports.now_ms())
            )
            if not any(b.events for b in batches):
                return False
            try:
                await self._append(
                    state,
                    due.match_id,
                    state.created.game,
                    batches,
                    platform_key("resume", pause.purpose),
                )
            except (DuplicateCommand, ConcurrencyConflict):
                self.forget(due.match_id)
                return False
            return True

    async def fire_due(self) -> int:
        """Fire every deadline that has passed. A dependency that is down (Postgres) only
        delays a deadline — retried with a growing delay, at most ``TIMER_ATTEMPTS`` times
        in a row; an automatic move that cannot be made is a bug: logged once with its
        traceback, counted (``tavola_engine_timer_failures_total``), and the deadline is
        given up in this process rather than retried in a loop."""
        fired = 0
        now = self._ports.now_ms()
        for due in self.timers.due(now):
            try:
                fired += await self.fire(due)
                self._attempts.pop(due, None)
            except Exception as error:
                game = self._cache[due.match_id].created.game if due.match_id in self._cache else ""
                attempts = self._attempts.get(due, 0) + 1
                if is_outage(error) and attempts < TIMER_ATTEMPTS:
                    self._attempts[due] = attempts
                    delay = min(TIMER_RETRY_MS * 2 ** (attempts - 1), TIMER_RETRY_CAP_MS)
                    log.warning(
                        "timer.delayed", match_id=due.match_id, seat=due.seat, attempt=attempts
                    )
                    self.timers.retry(due, now + delay)
                    continue
                self._attempts.pop(due, None)
                self.timers.give_up(due)
                metrics.TIMER_FAILURES.labels(game=game or "unknown").inc()
                log.exception(
                    "timer.broken",
                    match_id=due.match_id,
                    seat=due.seat,
                    deadline_ms=due.deadline_ms,
                    game=game,
                )
        return fired

    async def recover_timers(self) -> int:
        """After a start: load every unfinished match with deadlines and track them."""
        index = self._ports.timer_index
        if index is None:
            return 0
        matches = await index.matches_with_deadlines()
        for stream_id in matches:
            match_id = stream_id.removeprefix("match-")
            self.timers.track(match_id, await self.load(match_id))
        return len(matches)

    def _authorize(
        self, state: MatchState, seat: int, token: str, caller: Caller, reading: bool = False
    ) -> None:
        """May ``caller`` act (or, ``reading``, look) as ``seat``? The bot service only for
        the platform's bot seats; an account only for a seat it sat down at, with that
        seat's token — or, to read, a referee once the match has ended."""
        if not 0 <= seat < state.players:
            raise errors.invalid("game.no_such_seat", seat=seat)
        if caller is Service.BOTS:
            if not state.seat(seat).bot_level:
                raise errors.denied("seat.not_bot", seat=seat)
            return
        if not isinstance(caller, Principal):
            raise errors.denied("seat.not_yours", seat=seat)
        if reading and state.ended is not None and caller.has(REFEREE):
            return
        if not caller.has(PLAY, BOT):
            raise errors.denied("auth.scope_missing", scope="play|bot")
        if state.has_left(seat) and not state.reclaimable(seat):
            raise errors.denied("seat.already_left", seat=seat)
        owner = state.created.seats[seat].account_id
        if not owner or owner != caller.account_id:
            raise errors.denied("seat.not_yours", seat=seat)
        if not aggregate.token_matches(state, seat, token):
            raise errors.denied("seat.bad_token", seat=seat)


def check_command_id(command_id: str) -> None:
    check_id("command_id", command_id)
    problem = client_id_problem(command_id)
    if problem is not None:
        raise errors.invalid(problem, field="command_id")


__all__ = ["Engine", "Ports", "SeedVault", "stream_of"]
