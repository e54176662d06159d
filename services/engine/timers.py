"""Turn timers: deadlines are facts in the log (``match.DeadlineSet``); this keeps the ones
still running in memory so the engine can act when they pass. Rebuilt at start from the
log (``Engine.recover_timers``), so a restart loses no timer."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from tavola.match.aggregate import MatchState


@dataclass(order=True, frozen=True)
class Due:
    fire_at_ms: int
    match_id: str
    seat: int
    deadline_ms: int


PAUSE = -1  # the "seat" of a table-wide pause (between games, or before the end)


class TimerWheel:
    def __init__(self) -> None:
        self._heap: list[Due] = []
        self._live: dict[tuple[str, int], int] = {}
        self._broken: set[tuple[str, int, int]] = set()  # (match, seat, deadline) given up

    def track(self, match_id: str, state: MatchState) -> None:
        """Replace what is known of a match's running deadlines by the state's."""
        for key in [k for k in self._live if k[0] == match_id]:
            del self._live[key]
        for deadline in state.deadlines:
            self._live[(match_id, deadline.seat)] = deadline.deadline_ms
            heapq.heappush(
                self._heap, Due(deadline.deadline_ms, match_id, deadline.seat, deadline.deadline_ms)
            )
        pause = state.pause
        game = state.game
        if (
            pause is not None
            and state.ended is None
            and (game.chance(state.game_state) is not None or game.is_over(state.game_state))
        ):
            self._live[(match_id, PAUSE)] = pause.until_ms
            heapq.heappush(self._heap, Due(pause.until_ms, match_id, PAUSE, pause.until_ms))

    def due(self, now_ms: int) -> list[Due]:
        """Deadlines passed and still running."""
        out = []
        while self._heap and self._heap[0].fire_at_ms <= now_ms:
            item = heapq.heappop(self._heap)
            if (item.match_id, item.seat, item.deadline_ms) in self._broken:
                continue
            if self._live.get((item.match_id, item.seat)) == item.deadline_ms:
                out.append(item)
        return out

    def give_up(self, item: Due) -> None:
        """Never fire this deadline again in this process (its automatic move cannot be
        made: a bug, reported once — the table is flagged, not retried in a loop)."""
        self._broken.add((item.match_id, item.seat, item.deadline_ms))

    def is_broken(self, item: Due) -> bool:
        return (item.match_id, item.seat, item.deadline_ms) in self._broken

    def retry(self, item: Due, at_ms: int) -> None:
        """Try again later (the engine could not act now, e.g. a transient error)."""
        heapq.heappush(self._heap, Due(at_ms, item.match_id, item.seat, item.deadline_ms))

    def __len__(self) -> int:
        return len(self._live)
