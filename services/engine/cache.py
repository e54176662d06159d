"""The engine's memory of its matches: bounded, and the authority only where it may be.

An ``Entry`` holds a match's state folded from the log, the views computed at that version
(per seat and locale) and — while streams watch the match — the last events appended
(``tail``), so a woken stream sends them without reading the log. ``fresh`` says the state
is the log's head as far as anyone can know: it was caught up from the log while this
engine held the match's partition, and every append since was this engine's. Only then is
it served without reading the log; otherwise a read catches up first (``Engine.load``).

``MatchCache`` is an LRU of entries (``TAVOLA_ENGINE_CACHE_MATCHES``, 16,384 by default —
above the 10,000 open tables one engine is sized for); a match that is watched or being
changed is not evicted. An evicted match is simply folded again from the log when next
needed (its timers stay in the timer wheel); a match whose lock is held is never evicted.
``Locks`` hands out one asyncio lock per match and forgets it when nobody holds or waits
for it, so locks are bounded by the commands in flight, not by the matches ever seen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from tavola.eventlog.model import StoredEvent
from tavola.match.aggregate import MatchState
from tavola.v1 import game_pb2

CACHE_MATCHES = 16_384
TAIL_EVENTS = 64  # events kept for watched matches; a stream further behind reads the log
WIRE_EVENTS = 16  # of them, the last ones kept serialized for the streams (``Entry.wire``)


@dataclass
class Entry:
    state: MatchState
    fresh: bool = False
    views: dict[tuple[int, str], game_pb2.GetViewResponse] = field(
        default_factory=dict
    )  # key: (seat, locale; "" without blocked)
    # the views' bytes as a stream sends them (a serialized StreamEventsResponse), same keys
    view_wire: dict[tuple[int, str], bytes] = field(default_factory=dict)
    # what the views of this version show every viewer alike (``queries.shared_parts``)
    shared: tuple[bytes, bytes, bytes, bytes] | None = None
    tail: deque[StoredEvent] | None = None  # only while watched
    # the tail's events as streams send them: per version, each viewer's serialized
    # StreamEventsResponse (spectator first, then seat 0, 1, ...), ``last_in_batch`` and
    # whether a locale changes it (``stream_envelopes``); made once for all the match's
    # streams (a committed event never changes), the last ``WIRE_EVENTS`` versions kept
    # (viewers that see an event alike share one bytes object)
    wire: dict[int, tuple[list[bytes], bool, bool]] = field(default_factory=dict)
    watchers: set[asyncio.Event] = field(default_factory=set)

    def advance(
        self, state: MatchState, stored: tuple[StoredEvent, ...] | list[StoredEvent]
    ) -> None:
        """The match moved on to ``state`` with ``stored``: views are of the past now."""
        self.state = state
        self.forget_views()
        if self.tail is not None:
            self.tail.extend(stored)
            if len(self.wire) > WIRE_EVENTS:
                oldest = state.version - WIRE_EVENTS
                for version in [v for v in self.wire if v <= oldest]:
                    del self.wire[version]

    def forget_views(self) -> None:
        self.views.clear()
        self.view_wire.clear()
        self.shared = None

    def events_after(self, version: int) -> list[StoredEvent] | None:
        """The tail's events after ``version``, if the tail reaches back that far."""
        if self.tail is None:
            return None
        if version >= self.state.version:
            return []
        if not self.tail or self.tail[0].version > version + 1:
            return None
        return [e for e in self.tail if e.version > version]


class MatchCache:
    def __init__(
        self,
        capacity: int = CACHE_MATCHES,
        on_evict: Callable[[str], None] | None = None,
        busy: Callable[[str], bool] | None = None,
    ) -> None:
        if capacity < 1:
            raise ValueError("the match cache needs room for one match")
        self.capacity = capacity
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._on_evict = on_evict
        self._busy = busy or (lambda _match_id: False)  # a command holds the match

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, match_id: str) -> bool:
        return match_id in self._entries

    def get(self, match_id: str) -> Entry | None:
        entry = self._entries.get(match_id)
        if entry is not None:
            self._entries.move_to_end(match_id)
        return entry

    def peek(self, match_id: str) -> Entry | None:
        """The entry without counting it as used."""
        return self._entries.get(match_id)

    def put(self, match_id: str, state: MatchState, fresh: bool) -> Entry:
        entry = self._entries.get(match_id)
        if entry is None:
            entry = Entry(state, fresh)
            self._entries[match_id] = entry
            self._evict()
        else:
            entry.state, entry.fresh = state, fresh
            entry.forget_views()
        self._entries.move_to_end(match_id)
        return entry

    def doubt(self, match_id: str) -> None:
        """Someone else may have appended (a conflict, an outcome not known): the state is
        still a true prefix of the log, to be caught up before it is used again."""
        entry = self._entries.get(match_id)
        if entry is not None:
            entry.fresh = False
            entry.forget_views()
            if entry.tail is not None:
                entry.tail.clear()  # the tail must be continuous: start again

    def remove(self, match_id: str) -> bool:
        """Throw a match's entry away (not while watched: then it is only doubted)."""
        entry = self._entries.get(match_id)
        if entry is None:
            return False
        if entry.watchers or self._busy(match_id):
            self.doubt(match_id)
            return False
        del self._entries[match_id]
        if self._on_evict is not None:
            self._on_evict(match_id)
        return True

    def items(self) -> list[tuple[str, Entry]]:
        return list(self._entries.items())

    def stale(self, belongs: Callable[[str], bool]) -> int:
        """Mark every entry ``belongs`` selects as needing a catch-up, and wake its streams
        (another engine writes it now: they follow it on the bus from here); how many."""
        marked = 0
        for match_id, entry in self._entries.items():
            if belongs(match_id):
                for wakeup in entry.watchers:
                    wakeup.set()
                if entry.fresh:
                    entry.fresh = False
                    marked += 1
        return marked

    def _evict(self) -> None:
        if len(self._entries) <= self.capacity:
            return
        for match_id in list(self._entries):
            if len(self._entries) <= self.capacity:
                return
            entry = self._entries[match_id]
            if entry.watchers or self._busy(match_id):
                continue
            del self._entries[match_id]
            if self._on_evict is not None:
                self._on_evict(match_id)


class Locks:
    """One lock per match, kept only while someone holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    def __contains__(self, match_id: str) -> bool:
        """Someone holds or waits for the match's lock."""
        return match_id in self._locks

    @contextlib.asynccontextmanager
    async def hold(self, match_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(match_id) or (asyncio.Lock(), 0)
        self._locks[match_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[match_id]
            if users == 1:
                del self._locks[match_id]
            else:
                self._locks[match_id] = (lock, users - 1)
