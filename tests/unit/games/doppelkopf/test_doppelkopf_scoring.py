"""Who wins and the game value (DDV 7.1 / 7.2): the value is the Re party's net per player."""

from __future__ import annotations

import pytest

from tavola.games.doppelkopf.model import Party, ScoreLine, TrickRecord
from tavola.games.doppelkopf.scoring import SpecialRules, Tally, seat_scores, settle, value_of
from tavola.rules.cards import PlayedCard, cards

RE, KO = Party.RE, Party.KONTRA
NO90, NO60, NO30, SCHWARZ = 2, 3, 4, 5


def game(re_points, re_levels=0, ko_levels=0, re_tricks=6, ko_tricks=6, specials=()):
    t = Tally((re_points, 240 - re_points), (re_tricks, ko_tricks))
    return value_of(t, (re_levels, ko_levels), list(specials))


def labels(result):
    return [
        (line.label.removeprefix("doppelkopf.line."), line.party, line.value)
        for line in result.lines
    ]


# --- unannounced games ------------------------------------------------------------------
def test_re_wins_an_unannounced_game_with_121():
    result = game(121)
    assert (result.winner, result.value) == (RE, 1)


def test_re_loses_an_unannounced_game_with_120():
    result = game(120)
    assert (result.winner, result.value) == (KO, -1)


def test_a_game_won_with_the_opponents_below_90_is_worth_two():
    assert game(151).value == 2
    assert game(150).value == 1


def test_opponents_below_60_and_below_30_add_one_each():
    assert game(181).value == 3
    assert game(211).value == 4


def test_opponents_without_a_trick_add_one_more():
    assert game(240, re_tricks=12, ko_tricks=0).value == 5
    assert game(240, re_tricks=11, ko_tricks=1).value == 4  # a trick of no points


def test_kontra_winning_with_re_below_90_is_worth_two_to_kontra():
    result = game(80)
    assert (result.winner, result.value) == (KO, -2)


# --- 120 : 120 --------------------------------------------------------------------------
def test_at_120_all_without_announcements_kontra_wins():
    assert game(120).value == -1


def test_at_120_all_when_only_kontra_announced_re_wins():
    result = game(120, ko_levels=1)
    assert (result.winner, result.value) == (RE, 3)


def test_when_only_kontra_announced_kontra_needs_121():
    assert game(119, ko_levels=1).value == -3


def test_at_120_all_when_re_announced_kontra_wins():
    assert game(120, re_levels=1).value == -3


def test_at_120_all_when_both_announced_kontra_wins_both_calls():
    result = game(120, re_levels=1, ko_levels=1)
    assert (result.winner, result.value) == (KO, -5)
    assert ("re_announced", KO, 2) in labels(result)
    assert ("kontra_announced", KO, 2) in labels(result)


def test_an_announced_re_won_with_121_is_worth_three():
    assert game(121, re_levels=1).value == 3


# --- denials met and missed ---------------------------------------------------------------
def test_re_no_90_met():
    result = game(151, re_levels=NO90)
    assert labels(result) == [
        ("won", RE, 1),
        ("below_90", RE, 1),
        ("re_announced", RE, 2),
        ("re_no_90", RE, 1),
    ]
    assert result.value == 5


def test_re_no_90_missed_kontra_wins_with_90():
    result = game(150, re_levels=NO90)
    assert (result.winner, result.value) == (KO, -4)


def test_re_no_90_missed_and_kontra_reached_120_against_it():
    result = game(115, re_levels=NO90)
    assert ("reached_120", KO, 1) in labels(result)
    assert result.value == -5


def test_kontra_no_60_met():
    result = game(55, ko_levels=NO60)
    assert (result.winner, result.value) == (KO, -(1 + 2 + 2 + 2))


def test_kontra_no_60_missed_re_wins_with_60():
    result = game(70, ko_levels=NO60)
    assert (result.winner, result.value) == (RE, 5)


def test_kontra_no_60_missed_and_re_reached_90_and_120_against_it():
    result = game(125, ko_levels=NO60)
    assert ("reached_90", RE, 1) in labels(result)
    assert ("reached_120", RE, 1) in labels(result)
    assert result.value == 1 + 2 + 1 + 1 + 2


def test_re_no_30_met_by_a_single_point():
    assert game(211, re_levels=NO30).value == 1 + 3 + 2 + 3


def test_re_no_30_missed_by_a_single_point():
    result = game(210, re_levels=NO30)
    assert (result.winner, result.value) == (KO, -6)


def test_re_schwarz_met():
    result = game(240, re_levels=SCHWARZ, re_tricks=12, ko_tricks=0)
    assert result.value == 1 + 4 + 2 + 4


def test_re_schwarz_missed_by_one_empty_trick():
    result = game(240, re_levels=SCHWARZ, re_tricks=11, ko_tricks=1)
    assert (result.winner, result.value) == (KO, -7)


def test_kontra_reply_to_re_no_90_needs_only_90_to_win():
    result = game(150, re_levels=NO90, ko_levels=1)
    assert (result.winner, result.value) == (KO, -(1 + 2 + 2 + 1))


# --- nobody wins ----------------------------------------------------------------------------
def test_when_both_parties_miss_their_denials_nobody_wins_and_calls_score_nothing():
    result = game(130, re_levels=NO90, ko_levels=NO90)
    assert result.winner is None
    assert labels(result) == [("reached_120", RE, 1)]
    assert result.value == 1


def test_nobody_winning_at_120_all_nets_to_zero():
    result = game(120, re_levels=NO90, ko_levels=NO90)
    assert result.winner is None and result.value == 0


def test_nobody_winning_still_counts_below_points_and_reached_points():
    result = game(200, re_levels=SCHWARZ, ko_levels=NO90, re_tricks=11, ko_tricks=1)
    assert result.winner is None
    assert labels(result) == [
        ("below_90", RE, 1),
        ("below_60", RE, 1),
        ("reached_120", RE, 1),
        ("reached_30", KO, 1),
    ]
    assert result.value == 2


# --- special points ---------------------------------------------------------------------------
def test_special_points_are_netted_so_the_winners_may_end_negative():
    specials = [ScoreLine("doppelkopf.line.doppelkopf", KO, 1)] * 2
    result = game(125, specials=specials)
    assert (result.winner, result.value) == (RE, -1)


def trick(number, text, winner, first=0):
    plays = tuple(PlayedCard((first + i) % 4, c) for i, c in enumerate(cards(text)))
    return TrickRecord(number, plays, winner)


RE_SEATS = (True, True, False, False)


def special(tricks, winner=None, **options):
    return settle(tricks, RE_SEATS, (0, 0), SpecialRules(True, **options)).lines


def test_a_trick_of_40_points_is_a_doppelkopf_for_the_party_that_won_it():
    lines = special([trick(1, "AS AS TS TS", 2), trick(2, "9S 9S KS KS", 0)])
    assert ScoreLine("doppelkopf.line.doppelkopf", KO, 1) in lines
    assert sum(1 for ln in lines if ln.label.endswith(".doppelkopf")) == 1


def test_a_fox_caught_by_the_other_party_scores_and_one_kept_does_not():
    lines = special([trick(1, "AD 9D QC KD", 2), trick(2, "AD QD 9D KD", 1)])
    foxes = [ln for ln in lines if ln.label.endswith(".fox")]
    assert foxes == [ScoreLine("doppelkopf.line.fox", KO, 1)]


def test_karlchen_wins_the_last_trick():
    lines = special([trick(1, "9S JC 9D KD", 1)])
    assert ScoreLine("doppelkopf.line.karlchen", RE, 1) in lines


def test_a_club_jack_that_does_not_win_the_last_trick_is_no_karlchen():
    lines = special([trick(1, "JC QD 9D KD", 1)])
    assert not any(ln.label.endswith(".karlchen") for ln in lines)


def test_kontra_winning_scores_against_the_old_ones():
    tricks = [
        trick(1, "AS AS TS TS", 2),
        trick(2, "AH AH TC TC", 3),
        trick(3, "AC AC KS KS", 2),
        trick(4, "KH KH KC KC", 2),
    ]
    result = settle(tricks, RE_SEATS, (0, 0), SpecialRules())
    assert result.winner == KO
    assert ScoreLine("doppelkopf.line.against_the_old", KO, 1) in result.lines


def test_fuchs_am_end_scores_only_with_the_house_rule():
    tricks = [trick(1, "9D AD KD 9D", 1)]
    assert not any(ln.label.endswith("fox_last") for ln in special(tricks))
    assert ScoreLine("doppelkopf.line.fox_last", RE, 1) in special(tricks, fuchs_am_end=True)


def test_karlchen_fangen_scores_an_opposing_club_jack_beaten_in_the_last_trick():
    tricks = [trick(1, "JC QD 9D KD", 3)]
    assert not any(ln.label.endswith("karlchen_caught") for ln in special(tricks))
    lines = special(tricks, karlchen_fangen=True)
    assert ScoreLine("doppelkopf.line.karlchen_caught", KO, 1) in lines


def test_a_solo_has_no_special_points():
    tricks = [trick(1, "AS AS TS TS", 2), trick(2, "9S JC 9D KD", 1)]
    result = settle(tricks, RE_SEATS, (0, 0), SpecialRules(enabled=False))
    names = {ln.label.removeprefix("doppelkopf.line.") for ln in result.lines}
    assert not names & {"doppelkopf", "fox", "karlchen", "against_the_old"}
    assert "won" not in names or result.winner is not None


# --- seat scores --------------------------------------------------------------------------
def test_a_normal_game_pays_each_winner_the_value_and_each_loser_minus_the_value():
    assert seat_scores(4, (0, 1, 2, 3), RE_SEATS, 3, solo=False) == (3, 3, -3, -3)


def test_a_won_solo_counts_three_times_for_the_soloist():
    scores = seat_scores(4, (0, 1, 2, 3), (False, False, True, False), 4, solo=True)
    assert scores == (-4, -4, 12, -4) and sum(scores) == 0


def test_a_lost_solo_costs_the_soloist_three_times():
    result = game(100, re_levels=1)  # soloist announced Re, and lost with 100
    scores = seat_scores(4, (0, 1, 2, 3), (True, False, False, False), result.value, True)
    assert scores == (-9, 3, 3, 3)


def test_with_five_players_the_dealer_scores_nothing():
    scores = seat_scores(5, (1, 2, 3, 4), (False, True, False, True, False), 2, solo=False)
    assert scores == (0, 2, -2, 2, -2)


@pytest.mark.parametrize("announce", [(), ("re",), ("re", "kontra"), ("no 90",)])
def test_a_played_game_settles_with_itemised_lines_that_add_up(doko, announce):
    state = doko.normal_game()
    for code in announce:
        seat = 0 if code != "kontra" else 2
        state = doko.act(state, seat, code)
    state, scored = doko.finish_scored(state)
    assert scored.re_points + scored.kontra_points == 240
    net = sum(ln.value if ln.party == RE else -ln.value for ln in scored.lines)
    assert net == scored.value
    assert scored.scores == (net, net, -net, -net)
    assert state.totals == scored.scores
