"""Arenas give the same figures whether the deals are played in one process or several."""

from __future__ import annotations

from tavola.bots.arena import DecisionTimes, pairing
from tavola.bots.interface import Budget
from tavola.rules.registry import get


def test_splitting_an_arena_over_processes_changes_no_figure():
    game = get("fan-tan")
    alone, split = DecisionTimes(), DecisionTimes()
    one = pairing(game, 4, {"hands": 1}, "hard", "medium", 6, Budget(4), times=alone)
    two = pairing(game, 4, {"hands": 1}, "hard", "medium", 6, Budget(4), times=split, jobs=2)
    assert one == two and one.matches == 6
    assert alone.by_level.keys() == split.by_level.keys() == set()  # no clock, no timings


def still() -> float:
    """A clock that never moves (a module-level function, so processes can receive it)."""
    return 0.0


def test_decision_times_come_back_from_every_process():
    times = DecisionTimes()
    pairing(get("fan-tan"), 4, {"hands": 1}, "medium", "easy", 4, Budget(4), still, times, 2)
    assert set(times.by_level) == {"medium", "easy"}
    assert all(t == 0.0 for values in times.by_level.values() for t in values)
