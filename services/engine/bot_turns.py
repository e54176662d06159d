"""Turns of the platform's bots that wait, told again until the table moves on.

The engine tells the bot service a bot seat's turn once, right after the move before it
commits (``push.BotPush``: plain NATS, nothing acknowledged, nothing stored). The message
may be lost: the bot service down or restarting, the instance that took it killed
mid-decision, the bus away, or its move refused while Postgres was away. So each engine
remembers which of the matches it writes wait for one of the platform's bots
(``BotTurns``) and tells the turn again while the match stays at that version: after the
seat's thinking time and ``RESEND_GRACE_S``, then with the delay doubling up to
``RESEND_CAP_S``, for ``RESEND_FOR_S`` at most. After that it stops asking and waits for a
bot service to say it has (re)connected (``<ns>.bots.hello``): then every waiting turn is
told again, ``RESEND_PER_SWEEP`` every sweep. Telling a turn twice costs nothing but the
message: the bot service decides each (match, seat, version) once, and the log takes one
move per version.

What is remembered is rebuilt from the log whenever an engine gains partitions
(``BotTurnWatch.recover``): a restarted engine finds the unfinished matches it now writes
and tells the turns that wait, so no table of bots depends on a message having arrived.
Tables where someone else plays have a durable bot watchdog besides (a deadline in the
log, ``aggregate.bot_watchdog_seconds``): a person never waits on the bot service.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

import structlog
from prometheus_client import Counter, Gauge

from tavola.match.aggregate import MatchState

log = structlog.get_logger(__name__)

RESEND_GRACE_S = 5.0  # beyond the seat's thinking time, before its turn is told again
RESEND_CAP_S = 60.0  # the longest delay between two tellings
RESEND_FOR_S = 1800.0  # told again for at most this long; then only on a bot service's hello
RESEND_PER_SWEEP = 256  # turns told again per sweep at most (a hello after an outage)
WAITING_MATCHES = 65_536  # matches remembered as waiting (LRU); more: rebuilt at the next gain
RECOVER_AT_ONCE = 8  # matches read from the log at once while recovering

WAITING = Gauge(
    "tavola_engine_bot_turns_waiting", "Matches this engine writes that wait for a platform bot"
)
RESENT = Counter(
    "tavola_engine_bot_turns_resent_total",
    "Bot turns told again (the first telling was lost, or a bot service said hello)",
)
RECOVERED = Counter(
    "tavola_engine_bot_turns_recovered_total",
    "Bot turns found waiting in the log when this engine gained a partition",
)


@dataclass
class _Waiting:
    version: int
    delay: float  # the first delay: the seat's thinking time and the grace
    since: float  # when this version was first told (or the last hello)
    attempts: int
    next_at: float  # math.inf: told enough; waits for a hello
    entry: int = -1  # its live entry in the heap (older ones are skipped)
    entry_at: float = math.inf  # that entry's time


def bot_seats_awaited(state: MatchState, among: Iterable[int] | None = None) -> list[int]:
    """The platform's bot seats the match waits for (``MatchState.awaited``: not one that
    may only make an optional move while others play on); none once it has ended.
    ``among``: the bot seats to act, when the caller has them."""
    if state.ended is not None:
        return []
    if among is None:
        among = [s for s in state.to_act() if state.seat(s).bot_level]
    game, game_state = state.game, state.game_state
    return sorted(s for s in among if game.decision(game_state, s))


def first_delay(state: MatchState, seats: list[int]) -> float:
    think_ms = max((state.seat(s).bot_think_ms for s in seats), default=0)
    return max(think_ms, 1000) / 1000 + RESEND_GRACE_S


class BotTurns:
    """The schedule: which matches wait for a bot, at which version, and when to tell them
    again (a heap of times; an entry whose time changed is skipped when it comes up)."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, capacity: int = WAITING_MATCHES
    ) -> None:
        self._clock = clock
        self._capacity = capacity
        self._waiting: OrderedDict[str, _Waiting] = OrderedDict()
        self._heap: list[tuple[float, int, str]] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._waiting)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._waiting

    def version(self, match_id: str) -> int | None:
        waiting = self._waiting.get(match_id)
        return None if waiting is None else waiting.version

    def told(self, match_id: str, version: int, delay: float) -> None:
        """The match's bot turn at ``version`` was just told (or tried): tell it again
        after ``delay`` unless the match moves on. Telling the same version again keeps
        its schedule. (Every move comes here: the match's entry is updated in place, and
        its place in the heap is corrected only when it comes up early.)"""
        waiting = self._waiting.get(match_id)
        if waiting is not None:
            if waiting.version == version:
                return
            now = self._clock()
            waiting.version, waiting.delay, waiting.since = version, delay, now
            waiting.attempts, waiting.next_at = 0, now + delay
            if waiting.next_at < waiting.entry_at:  # sooner than its entry comes up
                self._schedule(match_id, waiting)
            self._waiting.move_to_end(match_id)
            return
        now = self._clock()
        waiting = self._waiting[match_id] = _Waiting(version, delay, now, 0, now + delay)
        self._schedule(match_id, waiting)
        while len(self._waiting) > self._capacity:
            dropped, _ = self._waiting.popitem(last=False)
            log.warning("bots.turns_forgotten", match_id=dropped)  # found again at a gain

    def settled(self, match_id: str) -> None:
        """The match waits for no bot of the platform (now)."""
        self._waiting.pop(match_id, None)

    def due(self, limit: int = RESEND_PER_SWEEP) -> list[tuple[str, int]]:
        """(match, version) of the turns to tell again now (at most ``limit``), each
        scheduled for its next telling — or for none, once told for ``RESEND_FOR_S``."""
        now = self._clock()
        WAITING.set(len(self._waiting))
        out: list[tuple[str, int]] = []
        while self._heap and self._heap[0][0] <= now and len(out) < limit:
            _, entry, match_id = heapq.heappop(self._heap)
            waiting = self._waiting.get(match_id)
            if waiting is None or waiting.entry != entry:
                continue  # settled, or rescheduled since
            if waiting.next_at > now:  # the match moved on since: its own time now
                self._schedule(match_id, waiting)
                continue
            out.append((match_id, waiting.version))
            waiting.attempts += 1
            delay = min(waiting.delay * 2**waiting.attempts, RESEND_CAP_S)
            if now + delay - waiting.since <= RESEND_FOR_S:
                waiting.next_at = now + delay
                self._schedule(match_id, waiting)
            else:
                waiting.next_at, waiting.entry, waiting.entry_at = math.inf, -1, math.inf
        return out

    def hello(self) -> int:
        """A bot service (re)connected: every waiting turn is due now, its schedule afresh.
        Returns how many wait."""
        now = self._clock()
        for match_id, waiting in self._waiting.items():
            waiting.since, waiting.attempts, waiting.next_at = now, 0, now
            self._schedule(match_id, waiting)
        return len(self._waiting)

    def forget(self, keep: Callable[[str], bool]) -> None:
        """Drop the matches ``keep`` says no (partitions this engine gave up)."""
        for match_id in [m for m in self._waiting if not keep(m)]:
            del self._waiting[match_id]

    def _schedule(self, match_id: str, waiting: _Waiting) -> None:
        waiting.entry, waiting.entry_at = next(self._order), waiting.next_at
        heapq.heappush(self._heap, (waiting.next_at, waiting.entry, match_id))
        if len(self._heap) > 4 * max(len(self._waiting), 1024):
            self._compact()

    def _compact(self) -> None:
        """Drop the heap's stale entries (each waiting match knows its live one)."""
        self._heap = [
            entry
            for entry in self._heap
            if (waiting := self._waiting.get(entry[2])) is not None and waiting.entry == entry[1]
        ]
        heapq.heapify(self._heap)


Load = Callable[[str], Awaitable[MatchState]]
Tell = Callable[[MatchState, list[int]], Awaitable[None]]
Running = Callable[[], Awaitable[list[str]]]


class BotTurnWatch:
    """Tells the waiting turns again (``sweep``, from the engine's timer loop) and finds
    them in the log after a partition is gained (``recover``)."""

    def __init__(self, turns: BotTurns, load: Load, tell: Tell, owns: Callable[[str], bool]):
        self.turns = turns
        self._load = load
        self._tell = tell
        self._owns = owns
        self._recovering: asyncio.Task[None] | None = None
        self._again = False

    def expect(self, state: MatchState) -> list[int]:
        """Remember whether ``state`` waits for a bot; the seats it waits for."""
        seats = bot_seats_awaited(state)
        match_id = state.created.match_id
        if seats:
            self.turns.told(match_id, state.version, first_delay(state, seats))
        else:
            self.turns.settled(match_id)
        return seats

    async def sweep(self) -> int:
        """Tell again the turns that are due; how many were told."""
        told = 0
        for match_id, version in self.turns.due():
            if not self._owns(match_id):
                self.turns.settled(match_id)  # its writer is another engine now
                continue
            try:
                state = await self._load(match_id)
            except Exception as error:  # the log is away: it stays scheduled
                log.warning("bots.turn_load_failed", match_id=match_id, error=type(error).__name__)
                continue
            if state.version != version:  # moved on without this engine hearing of it
                if self.expect(state):
                    await self._tell(state, bot_seats_awaited(state))
                continue
            seats = bot_seats_awaited(state)
            if not seats:
                self.turns.settled(match_id)
                continue
            await self._tell(state, seats)
            RESENT.inc()
            told += 1
        return told

    def recover(self, running: Running) -> None:
        """After gaining partitions: read the unfinished matches this engine now writes
        and tell the bot turns they wait for (in the background; once more if asked
        again meanwhile)."""
        if self._recovering is not None and not self._recovering.done():
            self._again = True
            return
        self._recovering = asyncio.create_task(self._recover(running))

    async def _recover(self, running: Running) -> None:
        while True:
            self._again = False
            try:
                found = await self._recover_once(running)
            except Exception as error:  # the next gain (or rescan) tries again
                log.warning("bots.recover_failed", error=type(error).__name__)
            else:
                if found:
                    log.info("bots.turns_recovered", matches=found)
            if not self._again:
                return

    async def _recover_once(self, running: Running) -> int:
        matches = [m for m in (s.removeprefix("match-") for s in await running()) if self._owns(m)]
        found = 0
        gate = asyncio.Semaphore(RECOVER_AT_ONCE)

        async def one(match_id: str) -> None:
            nonlocal found
            async with gate:
                if match_id in self.turns or not self._owns(match_id):
                    return
                state = await self._load(match_id)
                seats = self.expect(state)
                if seats:
                    found += 1
                    RECOVERED.inc()
                    await self._tell(state, seats)

        results = await asyncio.gather(*(one(m) for m in matches), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            log.warning("bots.recover_some_failed", failed=len(failed), of=len(matches))
        return found

    async def stop(self) -> None:
        if self._recovering is not None:
            self._recovering.cancel()
            await asyncio.gather(self._recovering, return_exceptions=True)
