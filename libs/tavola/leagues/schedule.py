"""What a league's scheduler has to do next, and when (pure: from the league's state).

A round opens (seated, tables created, check-in) ``check_in_seconds`` before its start,
but never before the previous round of the season has ended (its results feed the
seating); opened late, it keeps the whole check-in window and starts that much later.
It starts at its start time, and ends once every table's result is recorded. A halted
round (the scheduler gave up after its bounded retries) waits for the host, and so do the
rounds after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.leagues.state import LeagueState

OPEN = "open"
START = "start"
END = "end"
COLLECT = "collect"  # look for results the bus has not brought (a safety net)
COLLECT_EVERY_MS = 30_000


@dataclass(frozen=True, slots=True)
class Step:
    kind: str
    season: int
    round: int
    at_ms: int  # due from this time on


def steps(league: LeagueState) -> list[Step]:
    season = league.season
    if season is None:
        return []
    check_in_ms = league.format.check_in_seconds * 1000
    out: list[Step] = []
    previous_done = True
    for state in season.ordered_rounds():
        number = season.number
        if state.halted is not None or state.ended is not None:
            previous_done = state.ended is not None
            continue
        if state.opened is None:
            if previous_done:
                out.append(Step(OPEN, number, state.round, state.starts_at_ms - check_in_ms))
        elif state.started is None:
            out.append(Step(START, number, state.round, state.opened.starts_at_ms))
        elif state.complete():
            out.append(Step(END, number, state.round, 0))
        else:
            out.append(Step(COLLECT, number, state.round, 0))
        previous_done = False
    return out


def opened_start(league: LeagueState, scheduled_ms: int, now_ms: int) -> int:
    """When a round opened at ``now_ms`` starts: as scheduled, or later by as much as the
    opening was late (the check-in window is never cut short)."""
    return max(scheduled_ms, now_ms + league.format.check_in_seconds * 1000)
