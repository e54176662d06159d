"""Playoffs: a knockout after the regular rounds, per division or across the divisions
(group stage plus knockout), seeded from the standings, decided by the results."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tavola.leagues import decide, formats, playoff, standings
from tavola.leagues.events import ResultRecorded
from tavola.leagues.verify import verify_round
from tavola.rules.errors import IllegalAction
from tests.unit.leagues.league_kit import PaperLeague


def spades(size: int = 4, mode: str = "") -> PaperLeague:
    return PaperLeague("spades", formats.Format(playoff=size, playoff_mode=mode))


def test_the_bracket_keeps_the_best_two_seeds_apart_until_the_final():
    assert playoff.bracket_order(2) == [1, 2]
    assert playoff.bracket_order(4) == [1, 4, 2, 3]
    assert playoff.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = playoff.bracket_order(16)
    assert sorted(order) == list(range(1, 17))
    assert order.index(1) < 8 <= order.index(2)  # opposite halves


def test_the_format_takes_a_playoff_only_where_a_table_is_one_side_against_another():
    fmt = formats.checked("spades", formats.Format(playoff=8))
    assert fmt.playoff_mode == "division"
    assert formats.checked("dominoes", formats.Format(partners="single", playoff=4)).playoff
    for game, given in (
        ("barbu", formats.Format(playoff=4)),
        ("spades", formats.Format(partners="rotating", playoff=4)),
        ("spades", formats.Format(playoff=6)),
        ("spades", formats.Format(playoff=4, playoff_mode="both")),
        ("spades", formats.Format(playoff_mode="across")),
    ):
        with pytest.raises(IllegalAction) as refused:
            formats.checked(game, given)
        assert refused.value.reason.code == "league.bad_format"


def _regular(paper: PaperLeague, teams: int, rounds: int, divisions: int = 1) -> None:
    paper.register(2 * teams)
    paper.start_season(divisions)
    rng = random.Random(17)
    for _ in range(rounds):
        paper.play_round(rng)


def test_a_division_s_best_four_play_semi_finals_then_a_final_with_one_champion():
    paper = spades(4)
    _regular(paper, teams=7, rounds=3)
    season = paper.league.season
    assert season is not None
    table = [r.entrant for r in standings.standings(paper.league, season, "1")]
    before = standings.standings(paper.league, season, "1")
    semi = paper.play_round(random.Random(2), playoff=True)
    season = paper.league.season
    assert season is not None
    seated = season.rounds[semi].seated["1"]
    assert seated.entrants == (table[0], table[3], table[1], table[2])  # 1 v 4, 2 v 3
    assert len(seated.tables) == 2 and not seated.byes
    assert standings.standings(paper.league, season, "1") == before  # the knockout is apart
    with pytest.raises(IllegalAction) as refused:  # no regular round after the knockout
        decide.schedule_round(paper.league, 0, 10**9, "c")
    assert refused.value.reason.code == "league.playoff_started"
    final = paper.play_round(random.Random(3), playoff=True)
    season = paper.league.season
    assert season is not None
    (bracket,) = playoff.brackets(paper.league, season)
    semis, last = bracket.rounds
    assert [t.winner for t in semis.ties] == list(season.rounds[final].seated["1"].entrants)
    assert len(last.ties) == 1 and bracket.champion == last.ties[0].winner
    result = next(iter(season.rounds[final].results.values()))
    first = min(result.lines, key=lambda line: line.rank)
    winner_seat = season.rounds[final].seated["1"].tables[0].seats[first.seat]
    assert winner_seat in bracket.champion  # the team that ranked first in the final
    with pytest.raises(IllegalAction) as over:
        decide.schedule_round(paper.league, 0, 10**9, "c", True)
    assert over.value.reason.code == "league.playoff_over"
    for number in (semi, final):  # anyone re-derives the knockout's seating from the log
        assert verify_round(paper.events, 1, number) == 1
    paper.add(decide.end_season(paper.league))  # the season ends; moves by regular standings


def test_group_stage_and_knockout_crosses_group_winners_with_the_other_group_s_runners_up():
    paper = spades(2, "across")
    _regular(paper, teams=8, rounds=2, divisions=2)
    season = paper.league.season
    assert season is not None
    top = {d: [r.entrant for r in standings.standings(paper.league, season, d)] for d in "12"}
    number = paper.play_round(random.Random(5), playoff=True)
    season = paper.league.season
    assert season is not None
    seated = season.rounds[number].seated
    assert list(seated) == [playoff.KNOCKOUT]
    slots = seated[playoff.KNOCKOUT].entrants
    assert slots == (top["1"][0], top["2"][1], top["2"][0], top["1"][1])  # A1-B2, B1-A2
    paper.play_round(random.Random(6), playoff=True)
    (bracket,) = playoff.brackets(paper.league, paper.league.season)  # type: ignore[arg-type]
    assert bracket.group == playoff.KNOCKOUT and bracket.champion


def test_an_absent_side_loses_and_an_undecided_match_goes_to_the_better_seed():
    paper = spades(2)
    _regular(paper, teams=4, rounds=2)
    season = paper.league.season
    assert season is not None
    ranking = [r.entrant for r in standings.standings(paper.league, season, "1")]
    from tavola.leagues.state import members

    absent = frozenset(members(ranking[0]))  # the first seed does not turn up
    number = paper.play_round(random.Random(8), absent=absent, playoff=True)
    season = paper.league.season
    assert season is not None
    (bracket,) = playoff.brackets(paper.league, season)
    assert bracket.champion == ranking[1]
    # a voided final (no lines): the better seed advances, never chance
    state = season.rounds[number]
    match_id = next(iter(state.results))
    voided = replace(state.results[match_id], lines=(), revision=1)
    paper.add(ResultRecorded(voided.season, voided.round, voided.match_id, (), 1))
    state = paper.league.season.rounds[number]  # type: ignore[union-attr]
    ranks = playoff.seed_ranks(state.seated["1"])
    assert (
        playoff.winner(paper.league, replace(state, started=None), state.seated["1"], 0, ranks)
        == ranking[0]
    )


def test_a_withdrawn_qualifier_gives_its_opponent_a_walkover():
    paper = spades(4)
    _regular(paper, teams=6, rounds=2)
    semi = paper.play_round(random.Random(9), playoff=True)
    season = paper.league.season
    assert season is not None
    winners = [t.winner for t in playoff.brackets(paper.league, season)[0].rounds[0].ties]
    from tavola.leagues.state import members

    paper.add(*decide.withdraw(paper.league, members(winners[0])[0]))
    final = paper.play_round(random.Random(10), playoff=True)
    season = paper.league.season
    assert season is not None and final == semi + 1
    seated = season.rounds[final].seated["1"]
    assert seated.tables == () and seated.byes == (winners[1],)
    assert playoff.brackets(paper.league, season)[0].champion == winners[1]
