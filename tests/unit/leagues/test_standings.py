"""Standings by each game's own scoring, the tie-break columns in order, promotion."""

from __future__ import annotations

import random
from fractions import Fraction

from league_kit import PaperLeague

from tavola.leagues import formats
from tavola.leagues.events import ResultLine, ResultRecorded
from tavola.leagues.standings import normalised, placement_points, season_moves, standings


def test_placement_points_are_three_one_minus_one_minus_three_and_shared_places_average():
    assert [placement_points(4, r, 1) for r in (1, 2, 3, 4)] == [3, 1, -1, -3]
    assert placement_points(4, 1, 2) == 2  # two share first: (3 + 1) / 2
    assert placement_points(4, 2, 3) == -1  # three share second
    assert [placement_points(5, r, 1) for r in range(1, 6)] == [4, 2, 0, -2, -4]


def test_fan_tan_placement_is_normalised_to_the_table_size():
    assert [normalised(5, r, 1) for r in range(1, 6)] == [
        1,
        Fraction(3, 4),
        Fraction(1, 2),
        Fraction(1, 4),
        0,
    ]
    assert normalised(3, 1, 1) == 1 and normalised(3, 3, 1) == 0
    assert normalised(4, 1, 2) == Fraction(5, 6)


def rows(paper: PaperLeague, division: str = "1") -> list:
    season = paper.league.season
    assert season is not None
    return standings(paper.league, season, division)


def test_barbu_standings_sum_placement_points_and_break_ties_by_session_totals():
    paper = PaperLeague("barbu")
    paper.register(16)
    paper.start_season()
    rng = random.Random(1)
    for _ in range(3):
        paper.play_round(rng)
    table = rows(paper)
    assert [r.rank for r in table] == list(range(1, 17))
    assert sum(r.points for r in table) == 0  # placement points sum to zero at every table
    keys = [(r.points, r.column("session_total"), r.column("table_wins")) for r in table]
    assert keys == sorted(keys, reverse=True)
    assert all(r.played == 3 for r in table)


def test_an_absent_player_scores_nothing_and_is_shown_absent():
    paper = PaperLeague("doppelkopf")
    ids = paper.register(16)
    paper.start_season()
    paper.play_round(random.Random(2), absent=frozenset({ids[3]}))
    row = next(r for r in rows(paper) if r.entrant == ids[3])
    assert row.points == 0 and row.absences == 1 and row.played == 0 and row.rounds == ("absent",)


def test_spades_teams_score_wins_and_break_ties_by_point_difference_then_opponents_wins():
    paper = PaperLeague("spades")
    paper.register(18)  # nine teams: one bye a round
    paper.start_season()
    rng = random.Random(3)
    for _ in range(3):
        paper.play_round(rng)
    table = rows(paper)
    assert len(table) == 9
    assert sum(r.byes for r in table) == 3 and max(r.byes for r in table) == 1
    keys = [(r.points, r.column("point_difference"), r.column("opponents_wins")) for r in table]
    assert keys == sorted(keys, reverse=True)
    bye = next(r for r in table if r.byes)
    assert "bye" in bye.rounds


def test_head_to_head_separates_two_teams_level_on_everything_before_it():
    paper = PaperLeague("dominoes")
    paper.register(4)
    paper.start_season()
    season = paper.league.season
    assert season is not None
    paper.play_round(random.Random(4))
    (result,) = paper.league.season.rounds[1].results.values()
    winner = next(line.seat % 2 for line in result.lines if line.rank == 1)
    table = rows(paper)
    assert table[0].entrant.endswith(table[0].entrant.split("+")[-1])
    assert table[0].points == 1 and table[1].points == 0
    seated = paper.league.season.rounds[1].seated["1"].tables[0].seats
    assert seated[winner] in table[0].entrant


def test_average_per_round_played_ranks_a_late_joiner_fairly():
    paper = PaperLeague("doppelkopf", formats.Format(average=True))
    ids = paper.register(16)
    paper.start_season()
    rng = random.Random(5)
    paper.play_round(rng, absent=frozenset({ids[0]}))
    paper.play_round(rng)
    row = next(r for r in rows(paper) if r.entrant == ids[0])
    assert row.played == 1 and row.absences == 1


def test_promotion_and_relegation_move_the_counts_the_host_set():
    paper = PaperLeague("barbu")
    paper.register(32)
    paper.start_season(divisions=2, promote=2, relegate=2)
    paper.play_round(random.Random(6))
    season = paper.league.season
    assert season is not None
    moves = season_moves(paper.league, season)
    top, bottom = rows(paper, "1"), rows(paper, "2")
    assert {m.entrant for m in moves if m.to_division == "2"} == {r.entrant for r in top[-2:]}
    assert {m.entrant for m in moves if m.to_division == "1"} == {r.entrant for r in bottom[:2]}


def test_a_later_revision_of_a_result_replaces_the_earlier_one():
    paper = PaperLeague("barbu")
    paper.register(4)
    paper.start_season()
    paper.play_round(random.Random(7))
    season = paper.league.season
    assert season is not None
    (result,) = season.rounds[1].results.values()
    flipped = tuple(
        ResultLine(line.seat, line.account_id, -line.score, 5 - line.rank, 0, 4)
        for line in result.lines
    )
    before = {r.entrant: r.points for r in rows(paper)}
    paper.add(ResultRecorded(1, 1, result.match_id, flipped, revision=1))
    after = {r.entrant: r.points for r in rows(paper)}
    assert after == {e: -p for e, p in before.items()}
