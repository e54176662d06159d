"""What the engine does on its own: turn timers, pauses, presence and the leaver rule.

Mixed into ``Engine``. Deadlines are facts in the log; the timer wheel only remembers when
to look. Only the writer of a match acts for it (the engine holding its partition, or any
engine when partitions are not in use): its command id (``p/timeout/<seat>/<deadline>``...)
makes sure only one automatic move is ever appended anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import structlog

from services.engine import metrics
from services.engine.callers import Caller, platform_key
from services.engine.timers import PAUSE, Due
from tavola.accounts.model import Principal
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.match import aggregate
from tavola.match.aggregate import Batch, MatchState
from tavola.match.events import SeatAway, SeatBack, SeatReclaimed
from tavola.rules.interface import Event
from tavola.service.failures import is_outage

if TYPE_CHECKING:
    from services.engine.app import Ports
    from services.engine.cache import Locks, MatchCache
    from services.engine.presence import Presence
    from services.engine.timers import TimerWheel

log = structlog.get_logger(__name__)
TIMER_ATTEMPTS = 20  # a deadline delayed by an outage is tried at most this many times
TIMER_RETRY_MS = 500
TIMER_RETRY_CAP_MS = 30_000


class AutomaticMixin:
    _ports: Ports
    cache: MatchCache
    locks: Locks
    presence: Presence
    timers: TimerWheel
    _attempts: dict[Due, int]

    async def _load_held(self, match_id: str) -> MatchState:
        raise NotImplementedError

    async def _append(
        self,
        state: MatchState | None,
        match_id: str,
        game: str,
        batches: list[Batch],
        command_id: str,
        *args: Any,
        **kwargs: Any,
    ) -> int:
        raise NotImplementedError

    def _with_deadlines(
        self,
        state: MatchState | None,
        batches: list[Batch],
        acted: int | None = None,
        first_folded: MatchState | None = None,
    ) -> list[Batch]:
        raise NotImplementedError

    # ----- timers ------------------------------------------------------------------------
    async def fire(self, due: Due) -> bool:
        """Act for a seat whose deadline passed (if it still runs); True if appended."""
        if due.seat == PAUSE:
            return await self._resume(due)
        async with self.locks.hold(due.match_id):
            state = await self._load_held(due.match_id)
            live = {d.seat: d.deadline_ms for d in state.deadlines}
            if live.get(due.seat) != due.deadline_ms or due.seat not in state.to_act():
                return False
            batch = aggregate.decide_timeout(state, due.seat)
            after = aggregate.fold(batch.events, state)
            seed = await self._ports.seeds.seed(due.match_id)
            batches = self._with_deadlines(
                state,
                [batch, *aggregate.settle(after, seed, self._ports.now_ms())],
                acted=due.seat,
                first_folded=after,
            )
            command = platform_key("timeout", due.seat, due.deadline_ms)
            try:
                await self._append(state, due.match_id, state.created.game, batches, command)
            except (DuplicateCommand, ConcurrencyConflict):
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
        state = await self._load_held(match_id)
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
            state, [batch, *aggregate.settle(after, seed, self._ports.now_ms())], first_folded=after
        )
        key = platform_key("leave", seat, "away", state.version)
        try:
            await self._append(state, match_id, state.created.game, batches, key)
        except (DuplicateCommand, ConcurrencyConflict):
            return
        metrics.LEAVER_RULE.labels(game=state.created.game).inc()
        log.info(
            "seat.taken_over", match_id=match_id, seat=seat, replaced_by=settings.takeover_level
        )

    async def _resume(self, due: Due) -> bool:
        """A pause between games has passed: deal on."""
        async with self.locks.hold(due.match_id):
            state = await self._load_held(due.match_id)
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
                return False
            return True

    async def fire_due(self) -> int:
        """Fire every deadline that has passed (of matches this engine writes). A dependency
        that is down (Postgres) only delays a deadline — retried with a growing delay, at
        most ``TIMER_ATTEMPTS`` times in a row; an automatic move that cannot be made is a
        bug: logged once with its traceback, counted (``tavola_engine_timer_failures_total``),
        and the deadline is given up in this process rather than retried in a loop."""
        fired = 0
        now = self._ports.now_ms()
        for due in self.timers.due(now):
            if not self._ports.owns(due.match_id):
                continue  # its writer fires it (recover_timers hands it back if we get it)
            try:
                fired += await self.fire(due)
                self._attempts.pop(due, None)
            except Exception as error:
                entry = self.cache.peek(due.match_id)
                game = entry.state.created.game if entry is not None else ""
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
        """Track the deadlines of every unfinished match this engine writes (after a start,
        on gaining a partition, and every few seconds for deadlines others recorded)."""
        index = self._ports.timer_index
        if index is None:
            return 0
        matches = [
            stream_id.removeprefix("match-")
            for stream_id in await index.matches_with_deadlines()
            if self._ports.owns(stream_id.removeprefix("match-"))
        ]
        for match_id in matches:
            async with self.locks.hold(match_id):
                self.timers.track(match_id, await self._load_held(match_id))
        return len(matches)

    # ----- presence ----------------------------------------------------------------------
    async def arrive(self, match_id: str, seat: int, caller: Caller) -> None:
        """A seat's own client called: if it was away, it is back (``SeatBack``); if the
        leaver rule had given its seat to a bot, it takes it back (``SeatReclaimed``)."""
        if not isinstance(caller, Principal) or seat < 0:
            return
        self.presence.seen(match_id, seat)
        entry = self.cache.peek(match_id)
        if entry is None or (seat not in entry.state.away and not entry.state.reclaimable(seat)):
            return
        async with self.locks.hold(match_id):
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
        return await self._load_held(match_id)

    async def _arrive_locked(self, match_id: str, seat: int) -> None:
        state = await self._load_held(match_id)
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
            return
        if after.seat(seat) != state.seat(seat):
            log.info("seat.reclaimed", match_id=match_id, seat=seat)

    async def sweep_presence(self) -> int:
        """Record ``SeatAway`` for every seat of a running match (this engine writes) whose
        client is gone."""
        marked = 0
        for match_id, entry in self.cache.items():
            state = entry.state
            if state.ended is not None or not self._ports.owns(match_id):
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
            async with self.locks.hold(match_id):
                state = await self._load_held(match_id)
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
                    continue
                marked += len(events)
                metrics.SEATS_AWAY.labels(game=state.created.game).inc(len(events))
                log.info("seat.away", match_id=match_id, seats=[e.seat for e in events])
        return marked
