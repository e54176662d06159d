"""Seating by standings (issue #14): players of similar standings points meet, the swap
search limited to a score band, and the seating still re-derives from the seed."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from league_kit import PaperLeague

from services.lobby.league_rpc import format_from_pb, format_pb
from tavola.cli.league import _format
from tavola.cli.main import parser
from tavola.leagues import decide, formats, seating, standings
from tavola.leagues.seating import BOT, evenness
from tavola.leagues.verify import verify_round
from tavola.rules import fairness
from tavola.rules.errors import IllegalAction

BY_STANDINGS = formats.Format(seating=formats.STANDINGS)


def played(game: str, count: int, rounds: int, fmt: formats.Format, divisions: int = 1):
    paper = PaperLeague(game, fmt)
    players = paper.register(count)
    paper.start_season(divisions=divisions)
    rng = random.Random(f"{game}-{count}")
    for _ in range(rounds):
        paper.play_round(rng)
    return paper, players


def rounds_of(paper: PaperLeague, division: str = "1") -> list:
    season = paper.league.season
    assert season is not None
    return [[t.seats for t in r.seated[division].tables] for r in season.ordered_rounds()]


def spread(values: list[Fraction]) -> Fraction:
    return max(values) - min(values)


def test_every_table_lies_within_the_band_unless_the_standings_themselves_are_wider():
    paper, _ = played("barbu", 200, 6, BY_STANDINGS)
    band = paper.league.format.band
    season = paper.league.season
    assert season is not None and band == 2
    wider = 0
    for number in range(2, 7):
        table = standings.standings(paper.league, season, "1", number - 1)
        points = {row.entrant: row.points for row in table}
        ranked = sorted(points.values(), reverse=True)  # as dealt: best first, in fours
        for index, seats in enumerate(season.rounds[number].seated["1"].tables):
            dealt = spread(ranked[4 * index : 4 * index + 4])
            assert spread([points[p] for p in seats.seats]) <= max(band, dealt)
            wider += dealt > band
    assert wider <= 10  # of 250 tables: only where a score group is too small to fill one


def test_two_hundred_players_over_six_rounds_repeat_far_fewer_pairs_with_the_swap_search(
    monkeypatch: pytest.MonkeyPatch,
):
    paper, players = played("barbu", 200, 6, BY_STANDINGS)
    searched = evenness(rounds_of(paper), players)
    monkeypatch.setattr(seating, "_hill_climb", lambda *args: None)
    monkeypatch.setattr(seating, "_anneal", lambda tables, costs, draw, total, band: total)
    dealt, _ = played("barbu", 200, 6, BY_STANDINGS)
    plain = evenness(rounds_of(dealt), players)
    # leagues.md: "about 67" without the swap search (measured over six seeds: 52 to 79,
    # mean 67); with it 3 to 8 (mean 6), max 2 or 3, at least 14 distinct opponents each
    assert plain.repeated_pairs > 45
    assert searched.repeated_pairs <= 10 and searched.max_meetings <= 3
    assert searched.repeated_pairs * 5 < plain.repeated_pairs
    assert searched.fewest_opponents >= 14


def test_fan_tan_by_normalised_standings_still_meets_everyone_at_most_once():
    paper, players = played("fan-tan", 200, 6, BY_STANDINGS)
    measure = evenness(rounds_of(paper), players)
    assert measure.repeated_pairs == 0 and measure.max_meetings == 1


def test_the_first_round_has_no_standings_yet_so_it_is_the_even_seating():
    even, _ = played("doppelkopf", 40, 1, formats.Format())
    ranked, _ = played("doppelkopf", 40, 1, formats.Format(seating=formats.STANDINGS))
    assert rounds_of(even) == rounds_of(ranked)


def test_the_same_seed_and_log_give_the_same_seating_whatever_global_random_does():
    paper, _ = played("doppelkopf", 42, 3, formats.Format(seating=formats.STANDINGS))
    seed = bytes(range(32))
    paper.add(decide.schedule_round(paper.league, 4, 4000, fairness.commitment(seed)))
    league = paper.league
    random.seed(1)
    first = decide.seat_round(league, 4, seed)
    random.seed(2)
    assert decide.seat_round(league, 4, seed) == first
    assert decide.seat_round(league, 4, bytes(32)) != first
    assert all(BOT not in t.seats for s in first for t in s.tables)


@pytest.mark.parametrize(
    ("game", "fmt"),
    [
        ("barbu", BY_STANDINGS),
        ("barbu", formats.Format(seating=formats.STANDINGS, remainder=formats.BYES, band=4)),
        ("fan-tan", BY_STANDINGS),
        ("doppelkopf", BY_STANDINGS),
        ("doppelkopf", formats.Format(seating=formats.STANDINGS, scoring="placement")),
    ],
)
def test_anyone_with_the_revealed_seed_derives_a_seating_by_standings_again(game, fmt):
    paper, _ = played(game, 34, 3, fmt, divisions=2)
    for number in (1, 2, 3):
        assert verify_round(paper.events, 1, number) == 2


@pytest.mark.parametrize(
    ("game", "scoring", "band"),
    [
        ("barbu", "placement", 2),
        ("barbu", "raw", 50),
        ("doppelkopf", "game_points", 20),
        ("doppelkopf", "placement", 2),
        ("fan-tan", "normalised", 1),
        ("fan-tan", "raw", 10),
    ],
)
def test_a_band_of_zero_is_the_scoring_s_documented_default(game, scoring, band):
    fmt = formats.checked(game, formats.Format(seating=formats.STANDINGS, scoring=scoring))
    assert fmt.band == band == formats.DEFAULT_BANDS[(game, scoring)]
    given = formats.Format(seating=formats.STANDINGS, scoring=scoring, band=7)
    assert formats.checked(game, given).band == 7


def test_even_seating_is_the_default_and_has_no_band():
    assert formats.checked("barbu", formats.Format()) == formats.checked(
        "barbu", formats.Format(seating=formats.EVEN)
    )
    assert formats.checked("barbu", formats.Format()).band == 0


@pytest.mark.parametrize(
    ("game", "fmt", "field"),
    [
        ("barbu", formats.Format(seating="by-rating"), "seating"),
        ("spades", formats.Format(seating=formats.STANDINGS), "seating"),
        ("dominoes", formats.Format(seating=formats.STANDINGS), "seating"),
        (
            "spades",
            formats.Format(partners=formats.ROTATING, seating=formats.STANDINGS),
            "seating",
        ),
        ("barbu", formats.Format(seating=formats.STANDINGS, band=-1), "band"),
        ("barbu", formats.Format(seating=formats.STANDINGS, band=formats.MAX_BAND + 1), "band"),
        ("fan-tan", formats.Format(band=3), "band"),
    ],
)
def test_a_bad_seating_or_band_is_refused(game, fmt, field):
    with pytest.raises(IllegalAction) as refused:
        formats.checked(game, fmt)
    assert refused.value.reason.code == "league.bad_format"
    assert refused.value.reason.param_dict()["field"] == field


def test_the_cli_and_the_api_carry_seating_and_band():
    args = parser().parse_args(
        ["league", "create", "Ranked", "barbu", "--seating", "standings", "--band", "4"]
    )
    message = _format(args)
    assert (message.seating, message.band) == ("standings", 4)
    fmt = formats.checked("barbu", format_from_pb(message))
    assert (fmt.seating, fmt.band) == (formats.STANDINGS, 4)
    assert format_from_pb(format_pb("barbu", fmt)) == fmt
    assert format_from_pb(format_pb("barbu", formats.checked("barbu", formats.Format()))) == (
        formats.checked("barbu", formats.Format())
    )
