"""One-against-one dominoes leagues: single players two a table, paired like teams."""

from __future__ import annotations

import random

import pytest

from tavola.leagues import decide, formats, standings
from tavola.leagues.seating import pair
from tavola.rules.errors import IllegalAction
from tests.unit.leagues.league_kit import PaperLeague


def single(pairing: str = "") -> PaperLeague:
    return PaperLeague("dominoes", formats.Format(partners=formats.SINGLE, pairing=pairing))


def test_the_format_seats_two_and_pairs_by_swiss_unless_told_otherwise():
    fmt = formats.checked("dominoes", formats.Format(partners=formats.SINGLE))
    assert (fmt.table_sizes, fmt.pairing) == ((2,), formats.SWISS)
    assert formats.paired(fmt) and formats.head_to_head(fmt) and not formats.by_teams(fmt)
    with pytest.raises(IllegalAction) as refused:
        formats.checked("dominoes", formats.Format(partners=formats.SINGLE, table_sizes=(4,)))
    assert refused.value.reason.code == "league.bad_format"
    for game in ("spades", "barbu"):  # only dominoes is played one against one
        with pytest.raises(IllegalAction):
            formats.checked(game, formats.Format(partners=formats.SINGLE))


def test_players_register_alone_and_a_partner_is_refused():
    paper = single()
    with pytest.raises(Exception) as refused:
        decide.register(paper.league, "acct-9999", "P9999", False, "acct-0001", "P0001")
    assert "no teams here" in str(refused.value.reason.params)


@pytest.mark.parametrize("pairing", [formats.SWISS, formats.ROUND_ROBIN])
def test_a_season_of_single_players_has_no_rematch_one_bye_each_and_win_loss_standings(
    pairing: str,
) -> None:
    paper = single(pairing)
    players = paper.register(9)
    paper.start_season()
    rng = random.Random(11)
    met: set = set()
    for _ in range(5):
        number = paper.play_round(rng)
        season = paper.league.season
        assert season is not None
        seated = season.rounds[number].seated["1"]
        assert len(seated.tables) == 4 and len(seated.byes) == 1
        for table in seated.tables:
            assert len(table.seats) == 2 and all(table.seats)
            assert pair(*table.seats) not in met  # no rematch that could be avoided
            met.add(pair(*table.seats))
    season = paper.league.season
    assert season is not None
    rows = standings.standings(paper.league, season, "1")
    assert {r.entrant for r in rows} == set(players)
    assert all(r.byes <= 1 for r in rows)
    assert sum(r.points for r in rows) == 5 * 4 + sum(r.byes for r in rows)  # a win a table
    assert [c for c, _ in rows[0].columns] == ["point_balance", "points_for", "head_to_head"]
    balance = sum(r.column("point_balance") for r in rows)
    assert balance == 0  # every table's balance is its winner's gain and its loser's loss


def test_a_round_is_re_derived_from_its_seed() -> None:
    paper = single()
    paper.register(6)
    paper.start_season()
    number = paper.play_round(random.Random(3))
    season = paper.league.season
    assert season is not None
    recorded = season.rounds[number].seated["1"]
    seed = bytes.fromhex(season.rounds[number].ended.seed_hex)  # type: ignore[union-attr]
    before = PaperLeague("dominoes", paper.fmt)
    for event in paper.events:
        if type(event).__name__ == "RoundSeated":
            break
        before.add(event)
    assert decide.seat_round(before.league, number, seed) == [recorded]
