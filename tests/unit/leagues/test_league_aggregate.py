"""The league aggregate: registration, seasons, the codec and re-deriving a seating."""

from __future__ import annotations

import dataclasses
import random
import uuid

import pytest
from league_kit import PaperLeague

from tavola.leagues import codec, decide, formats
from tavola.leagues.state import fold
from tavola.leagues.verify import SeatingMismatch, verify_round
from tavola.rules.errors import IllegalAction, MalformedAction


def played(game: str, count: int, rounds: int, fmt: formats.Format | None = None) -> PaperLeague:
    paper = PaperLeague(game, fmt or formats.Format())
    paper.register(count)
    paper.start_season(divisions=2, promote=1, relegate=1)
    rng = random.Random(game)
    for _ in range(rounds):
        paper.play_round(rng)
    return paper


def test_every_league_event_round_trips_through_the_codec_and_the_fold_is_the_same():
    paper = played("spades", 16, 2)
    stored = codec.new_events(paper.events, uuid.uuid4)
    decoded = [codec.decode(e.type, e.payload) for e in stored]
    assert decoded == paper.events
    assert {e.type for e in stored} >= {
        "league.LeagueCreated",
        "league.RoundSeated",
        "league.ResultRecorded",
    }
    assert fold(decoded) == paper.league


@pytest.mark.parametrize(
    ("game", "fmt"),
    [
        ("barbu", formats.Format()),
        ("fan-tan", formats.Format()),
        ("doppelkopf", formats.Format()),
        ("spades", formats.Format()),
        ("dominoes", formats.Format(pairing=formats.ROUND_ROBIN)),
        ("spades", formats.Format(partners=formats.ROTATING)),
    ],
)
def test_anyone_with_the_revealed_seed_derives_every_round_s_seating_again(game, fmt):
    paper = played(game, 32, 3, fmt)
    for number in (1, 2, 3):
        assert verify_round(paper.events, 1, number) == 2


def test_a_changed_seating_does_not_verify():
    paper = played("barbu", 16, 1)
    index = next(i for i, e in enumerate(paper.events) if type(e).__name__ == "RoundSeated")
    seated = paper.events[index]
    tables = list(seated.tables)
    tables[0], tables[-1] = tables[-1], tables[0]
    paper.events[index] = dataclasses.replace(seated, tables=tuple(tables))
    with pytest.raises(SeatingMismatch):
        verify_round(paper.events, 1, 1)


def test_teams_exist_once_both_partners_named_each_other():
    paper = PaperLeague("spades")
    paper.add(*decide.register(paper.league, "a", "A", False, "b", "B"))
    assert paper.league.active_entrants() == ()
    paper.add(*decide.register(paper.league, "b", "B", False, "a", "A"))
    assert paper.league.active_entrants() == ("team:a+b",)
    with pytest.raises(MalformedAction):
        decide.register(paper.league, "c", "C", False)


def test_bot_accounts_register_only_where_the_host_allows_it():
    paper = PaperLeague("barbu")
    with pytest.raises(IllegalAction):
        decide.register(paper.league, "bot", "Robo", True)
    allowed = PaperLeague("barbu", formats.Format(bot_accounts=True))
    assert decide.register(allowed.league, "bot", "Robo", True)


def test_a_player_registering_during_a_season_joins_the_bottom_division():
    paper = played("barbu", 16, 1)
    paper.add(*decide.register(paper.league, "late", "Late", False))
    season = paper.league.season
    assert season is not None and season.division_of("late") == "2"


def test_a_withdrawn_player_is_seated_in_no_later_round():
    paper = played("barbu", 16, 1)
    gone = paper.league.season.started.divisions[0].entrants[0]
    paper.add(*decide.withdraw(paper.league, gone))
    paper.play_round(random.Random(1))
    seated = paper.league.season.rounds[2].seated
    assert all(gone not in t.seats for s in seated.values() for t in s.tables)


def test_a_season_ends_with_its_moves_and_the_next_starts_with_them_applied():
    paper = played("barbu", 32, 2)
    ended = decide.end_season(paper.league)
    paper.add(ended)
    assert len(ended.moves) == 2
    paper.start_season()
    season = paper.league.season
    assert season is not None and season.number == 2
    for move in ended.moves:
        assert season.division_of(move.entrant) == move.to_division


def test_a_round_that_has_opened_cannot_be_moved():
    paper = played("barbu", 16, 1)
    with pytest.raises(IllegalAction):
        decide.schedule_round(paper.league, 1, 5, "c")
