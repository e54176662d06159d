"""Who is at the table: the engine's live view of each seat's client, and the leaver rule.

A seat's client is *there* while it has a stream open or has called within the grace
period (``TAVOLA_AWAY_GRACE_SECONDS``, 60 by default); otherwise the engine records
``match.SeatAway`` (everyone sees it), and ``match.SeatBack`` when it calls again. What the
engine remembers here is only the clock of those facts: after a restart every seat starts
a fresh grace. The leaver rule counts the seat's automatic moves in a row — a function of
the log's causes, folded with the stream — and after ``TAVOLA_AWAY_MOVES`` (3) applies the
game's rule for a player who left (a bot takes the seat, marked; in Doppelkopf the game
ends unscored), recorded as ``match.SeatLeft{away: true}``; the player may come back and
take the seat back from the bot (``match.SeatReclaimed``).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PresenceSettings:
    grace_ms: int = 60_000
    away_moves: int = 3  # automatic moves in a row before the leaver rule applies
    takeover_level: str = "medium"

    @staticmethod
    def from_env() -> PresenceSettings:
        grace = float(os.environ.get("TAVOLA_AWAY_GRACE_SECONDS", "60") or 60)
        moves = int(os.environ.get("TAVOLA_AWAY_MOVES", "3") or 3)
        level = os.environ.get("TAVOLA_TAKEOVER_LEVEL", "medium") or "medium"
        if level not in ("easy", "medium", "hard", "master") or moves < 1 or grace < 0:
            raise ValueError("TAVOLA_AWAY_*: grace >= 0 s, moves >= 1, a bot level")
        return PresenceSettings(int(grace * 1000), moves, level)


MATCHES = 32_768  # matches whose seats are tracked at most (LRU; the cache's twice)


@dataclass(slots=True)
class _Seats:
    seen: dict[int, int] = field(default_factory=dict)  # seat -> last call, ms
    streams: dict[int, int] = field(default_factory=dict)  # seat -> streams open
    missed: dict[int, int] = field(default_factory=dict)  # seat -> automatic moves in a row


class Presence:
    """Last call and open streams per (match, seat), and the automatic moves in a row.

    Bounded: a match's seats are forgotten when the engine forgets the match (its counts
    are then folded again from the log) and, beyond ``capacity`` matches, the least
    recently touched ones go first."""

    def __init__(
        self, now_ms: Callable[[], int], settings: PresenceSettings, capacity: int = MATCHES
    ) -> None:
        self._now = now_ms
        self.settings = settings
        self.capacity = capacity
        self._matches: OrderedDict[str, _Seats] = OrderedDict()

    def __len__(self) -> int:
        return len(self._matches)

    def _seats(self, match_id: str) -> _Seats:
        seats = self._matches.get(match_id)
        if seats is None:
            seats = self._matches[match_id] = _Seats()
            while len(self._matches) > self.capacity:
                self._matches.popitem(last=False)
        self._matches.move_to_end(match_id)
        return seats

    def seen(self, match_id: str, seat: int) -> None:
        self._seats(match_id).seen[seat] = self._now()

    def stream_opened(self, match_id: str, seat: int) -> None:
        seats = self._seats(match_id)
        seats.streams[seat] = seats.streams.get(seat, 0) + 1
        seats.seen[seat] = self._now()

    def stream_closed(self, match_id: str, seat: int) -> None:
        seats = self._seats(match_id)
        count = seats.streams.get(seat, 0) - 1
        if count > 0:
            seats.streams[seat] = count
        else:
            seats.streams.pop(seat, None)
        seats.seen[seat] = self._now()

    def gone(self, match_id: str, seat: int) -> bool:
        """No stream open and no call within the grace (a seat never seen starts now)."""
        seats = self._seats(match_id)
        if seats.streams.get(seat):
            return False
        since = seats.seen.setdefault(seat, self._now())
        return self._now() - since >= self.settings.grace_ms

    # ----- automatic moves in a row (a fold of the log's causes) --------------------------
    def moved(self, match_id: str, seat: int, automatic: bool) -> int:
        """Count one move of the seat; returns its automatic moves in a row."""
        missed = self._seats(match_id).missed
        count = missed.get(seat, 0) + 1 if automatic else 0
        if count:
            missed[seat] = count
        else:
            missed.pop(seat, None)
        return count

    def moves(self, match_id: str, seat: int, automatic: int, own: bool) -> None:
        """``moved`` for a run of the seat's moves: ``automatic`` of them in a row at its
        end, after one of its own (or its seat taken back) when ``own``."""
        missed = self._seats(match_id).missed
        count = automatic + (0 if own else missed.get(seat, 0))
        if count:
            missed[seat] = count
        else:
            missed.pop(seat, None)

    def missed(self, match_id: str, seat: int) -> int:
        seats = self._matches.get(match_id)
        return seats.missed.get(seat, 0) if seats is not None else 0

    def forget(self, match_id: str) -> None:
        self._matches.pop(match_id, None)
