"""Duplicate leagues (Barbu, Spades): the format, matchpoints by hand, and the standings
of a round whose tables all played the same deals."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest
from league_kit import PaperLeague

from services.lobby.league_app import ruleset
from tavola.leagues import decide, duplicate, formats
from tavola.leagues.events import (
    OpenedTable,
    ResultLine,
    ResultRecorded,
    RoundEnded,
    RoundOpened,
    RoundStarted,
)
from tavola.leagues.standings import standings
from tavola.leagues.state import team_key
from tavola.protocol.errors import ServiceError
from tavola.rules import fairness
from tavola.rules.errors import IllegalAction

DUPLICATE = formats.Format(duplicate=True)


def test_a_duplicate_format_scores_matchpoints_and_only_barbu_and_spades_have_one():
    barbu = formats.checked("barbu", DUPLICATE)
    assert barbu.scoring == formats.MATCHPOINTS
    assert formats.tie_breaks("barbu", barbu) == ("matchpoint_percent", "session_total", "lot")
    spades = formats.checked("spades", DUPLICATE)
    assert formats.tie_breaks("spades", spades) == (
        "matchpoint_percent",
        "point_difference",
        "lot",
    )
    for game in ("fan-tan", "doppelkopf", "dominoes"):
        with pytest.raises(IllegalAction):
            formats.checked(game, DUPLICATE)
    with pytest.raises(IllegalAction):  # matchpoints belong to duplicate leagues only
        formats.checked("barbu", formats.Format(scoring=formats.MATCHPOINTS))
    with pytest.raises(IllegalAction):
        formats.checked("barbu", formats.Format(duplicate=True, scoring="placement"))


def test_duplicate_spades_needs_a_fixed_number_of_hands():
    fmt = formats.checked("spades", DUPLICATE)
    with pytest.raises(ServiceError) as caught:
        ruleset("spades", fmt, {})
    assert caught.value.reason.code == "league.bad_format"
    assert dict(caught.value.reason.params)["field"] == "hands"
    ruleset("spades", fmt, {"hands": "2"})
    ruleset("barbu", formats.checked("barbu", DUPLICATE), {})  # a session is always 28 deals


def test_matchpoints_are_two_per_score_beaten_and_one_per_tie():
    assert duplicate.matchpoints([30, 10, 10]) == (4, 1, 1)
    assert duplicate.matchpoints([-5, -5, -5]) == (2, 2, 2)
    assert duplicate.matchpoints([20, 40, -60]) == (2, 4, 0)
    assert duplicate.matchpoints([7]) == (0,)


def round_of(paper: PaperLeague, scores: list[list[int]], end: bool = True) -> list:
    """Round 1 seated from a seed; table i's seats score ``scores[i]``; ended if ``end``."""
    seed = hashlib.sha256(b"duplicate round").digest()
    paper.add(decide.schedule_round(paper.league, 1, 1000, fairness.commitment(seed), False))
    (seated,) = decide.seat_round(paper.league, 1, seed)
    paper.add(seated)
    assert len(seated.tables) == len(scores)
    tables = [OpenedTable("1", i, f"t{i}", f"m{i}", "") for i in range(len(scores))]
    paper.add(RoundOpened(1, 1, 1000, tuple(tables)), RoundStarted(1, 1, ()))
    for i, table in enumerate(seated.tables):
        ranks = [1 + sum(o > v for o in scores[i]) for v in scores[i]]
        lines = tuple(
            ResultLine(s, table.seats[s], scores[i][s], ranks[s], 0, 28) for s in range(4)
        )
        paper.add(ResultRecorded(1, 1, f"m{i}", lines))
    if end:
        paper.add(RoundEnded(1, 1, seed.hex()))
    return list(seated.tables)


def test_barbu_seats_are_matchpointed_against_the_same_seat_at_the_other_tables():
    paper = PaperLeague("barbu", DUPLICATE)
    paper.register(12)
    paper.start_season()
    scores = [[30, -5, 20, -45], [10, -5, 40, -45], [10, -5, -60, 55]]
    tables = round_of(paper, scores)
    # by hand: seat 0 scored 30/10/10 -> 4, 1, 1; seat 1 tied three ways -> 2 each;
    # seat 2 scored 20/40/-60 -> 2, 4, 0; seat 3 scored -45/-45/55 -> 1, 1, 4
    expected = [[4, 2, 2, 1], [1, 2, 4, 1], [1, 2, 0, 4]]
    rows = {r.entrant: r for r in standings(paper.league, paper.league.season, "1")}
    for t, table in enumerate(tables):
        for seat, player in enumerate(table.seats):
            row = rows[player]
            assert row.points == expected[t][seat], (t, seat)
            assert row.column("matchpoint_percent") == Fraction(100 * expected[t][seat], 4)
            assert row.column("session_total") == scores[t][seat]
            assert row.rounds == (str(expected[t][seat]),)
    top = standings(paper.league, paper.league.season, "1")
    assert [r.points for r in top] == sorted((r.points for r in top), reverse=True)
    # equal matchpoints: the better session score first (the percentage is equal too)
    fours = [r for r in top if r.points == 4]
    assert [r.column("session_total") for r in fours] == [55, 40, 30]


def test_a_duplicate_round_counts_only_once_it_has_ended():
    paper = PaperLeague("barbu", DUPLICATE)
    paper.register(8)
    paper.start_season()
    round_of(paper, [[10, 0, 0, -10], [0, 0, 0, 0]], end=False)
    rows = standings(paper.league, paper.league.season, "1")
    assert all(r.points == 0 and r.played == 0 for r in rows)


def test_spades_sides_are_ranked_apart_north_south_against_north_south():
    paper = PaperLeague("spades", formats.Format(duplicate=True, pairing=formats.ROUND_ROBIN))
    paper.register(8)
    paper.start_season()
    # table 0: N/S 250, E/W 120; table 1: N/S 250, E/W 300
    tables = round_of(paper, [[250, 120, 250, 120], [250, 300, 250, 300]])
    rows = {r.entrant: r for r in standings(paper.league, paper.league.season, "1")}

    def team(table: tuple[str, ...], side: int) -> str:
        return team_key(table[side], table[side + 2])

    # N/S tied 250-250: 1 each; E/W: 300 beat 120: 2 and 0
    assert rows[team(tables[0].seats, 0)].points == 1
    assert rows[team(tables[1].seats, 0)].points == 1
    assert rows[team(tables[1].seats, 1)].points == 2
    assert rows[team(tables[0].seats, 1)].points == 0
    assert rows[team(tables[0].seats, 0)].column("point_difference") == 130
    assert rows[team(tables[1].seats, 0)].column("point_difference") == -50
    assert rows[team(tables[1].seats, 1)].column("matchpoint_percent") == 100
    ranked = standings(paper.league, paper.league.season, "1")
    assert ranked[0].entrant == team(tables[1].seats, 1)
    assert ranked[1].entrant == team(tables[0].seats, 0)  # 1 point, +130 beats -50
