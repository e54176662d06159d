"""What the scheduler must do next, from the league's state alone."""

from __future__ import annotations

import random

from league_kit import PaperLeague

from tavola.leagues import decide, formats, schedule
from tavola.leagues.events import RoundHalted, RoundResumed


def league(check_in: int = 600) -> PaperLeague:
    paper = PaperLeague("barbu", formats.Format(check_in_seconds=check_in))
    paper.register(16)
    paper.start_season()
    return paper


def test_a_scheduled_round_opens_its_check_in_window_before_its_start():
    paper = league()
    paper.add(decide.schedule_round(paper.league, 0, 1_000_000, "c"))
    assert schedule.steps(paper.league) == [schedule.Step(schedule.OPEN, 1, 1, 400_000)]


def test_the_next_round_waits_until_the_previous_one_has_ended():
    paper = league()
    paper.play_round(random.Random(1))
    paper.add(decide.schedule_round(paper.league, 0, 5_000_000, "c2"))
    paper.add(decide.schedule_round(paper.league, 0, 9_000_000, "c3"))
    assert [s.round for s in schedule.steps(paper.league)] == [2]


def test_a_halted_round_waits_for_the_host_and_so_do_the_rounds_after_it():
    paper = league()
    paper.add(decide.schedule_round(paper.league, 0, 1_000_000, "c"))
    paper.add(RoundHalted(1, 1, "open", "service.unavailable"))
    assert schedule.steps(paper.league) == []
    paper.add(RoundResumed(1, 1))
    assert [s.kind for s in schedule.steps(paper.league)] == [schedule.OPEN]


def test_a_round_opened_late_keeps_its_whole_check_in_window():
    paper = league(check_in=60)
    assert schedule.opened_start(paper.league, 100_000, 90_000) == 150_000
    assert schedule.opened_start(paper.league, 200_000, 90_000) == 200_000


def test_no_season_means_nothing_to_do():
    paper = PaperLeague("spades")
    assert schedule.steps(paper.league) == []
