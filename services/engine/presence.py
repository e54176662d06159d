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
from collections.abc import Callable
from dataclasses import dataclass


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


class Presence:
    """Last call and open streams per (match, seat); bounded by the matches tracked."""

    def __init__(self, now_ms: Callable[[], int], settings: PresenceSettings) -> None:
        self._now = now_ms
        self.settings = settings
        self._seen: dict[tuple[str, int], int] = {}
        self._streams: dict[tuple[str, int], int] = {}
        self._missed: dict[tuple[str, int], int] = {}

    def seen(self, match_id: str, seat: int) -> None:
        self._seen[(match_id, seat)] = self._now()

    def stream_opened(self, match_id: str, seat: int) -> None:
        key = (match_id, seat)
        self._streams[key] = self._streams.get(key, 0) + 1
        self._seen[key] = self._now()

    def stream_closed(self, match_id: str, seat: int) -> None:
        key = (match_id, seat)
        count = self._streams.get(key, 0) - 1
        if count > 0:
            self._streams[key] = count
        else:
            self._streams.pop(key, None)
        self._seen[key] = self._now()

    def gone(self, match_id: str, seat: int) -> bool:
        """No stream open and no call within the grace (a seat never seen starts now)."""
        key = (match_id, seat)
        if self._streams.get(key):
            return False
        since = self._seen.setdefault(key, self._now())
        return self._now() - since >= self.settings.grace_ms

    # ----- automatic moves in a row (a fold of the log's causes) --------------------------
    def moved(self, match_id: str, seat: int, automatic: bool) -> int:
        """Count one move of the seat; returns its automatic moves in a row."""
        key = (match_id, seat)
        count = self._missed.get(key, 0) + 1 if automatic else 0
        if count:
            self._missed[key] = count
        else:
            self._missed.pop(key, None)
        return count

    def missed(self, match_id: str, seat: int) -> int:
        return self._missed.get((match_id, seat), 0)

    def forget(self, match_id: str) -> None:
        for table in (self._seen, self._streams, self._missed):
            for key in [k for k in table if k[0] == match_id]:
                del table[key]
