"""Every line of the Spades scoring table, bags, nil, and the end of the match."""

from __future__ import annotations

import pytest

from tavola.games.spades import GAME, ExtraHandCalled, HandScored, MatchEnded, NilResult
from tavola.games.spades.scoring import match_outcome, settle_team


def lines(s):
    return s.contract_points + s.bag_points + s.nil_points + s.bag_penalty


# ----- the table, line by line --------------------------------------------------------------
def test_the_source_example_bid_4_and_3_take_9_scores_72_with_2_bags():
    s = settle_team(0, (4, 3), (5, 4), score_before=0, bags_before=0)
    assert (s.contract, s.made, s.contract_points, s.overtricks) == (7, True, 70, 2)
    assert (s.bags_won, s.bag_points, s.change, s.bags_after) == (2, 2, 72, 2)


def test_a_contract_made_exactly_scores_10_per_trick_bid_and_no_bag():
    s = settle_team(1, (2, 3), (1, 4), score_before=100, bags_before=4)
    assert (s.change, s.bags_won, s.bags_after, s.score_after) == (50, 0, 4, 150)


def test_a_set_contract_loses_10_per_trick_bid_and_scores_nothing_else():
    s = settle_team(0, (5, 4), (3, 5), score_before=0, bags_before=0)
    assert (s.made, s.contract_points, s.bag_points, s.change) == (False, -90, 0, -90)
    assert s.bags_won == 0


def test_each_extra_trick_is_a_bag_worth_one_point():
    s = settle_team(0, (1, 1), (7, 6), score_before=0, bags_before=0)
    assert (s.contract_points, s.overtricks, s.bag_points, s.change) == (20, 11, 11, -69)
    assert (s.bag_penalty, s.bags_struck, s.bags_after) == (-100, 10, 1)


def test_a_nil_made_scores_100_and_the_partners_contract_is_their_bid_alone():
    s = settle_team(0, (0, 4), (0, 6), score_before=0, bags_before=0)
    assert s.contract == 4 and s.nils == (NilResult(0, 0, True, 100),)
    assert (s.contract_points, s.bag_points, s.nil_points, s.change) == (40, 2, 100, 142)


def test_a_nil_made_while_the_partners_contract_is_set():
    s = settle_team(1, (5, 0), (3, 0), score_before=0, bags_before=0)
    assert s.nils == (NilResult(3, 0, True, 100),)
    assert (s.made, s.contract_points, s.nil_points, s.change) == (False, -50, 100, 50)


def test_a_failed_nil_loses_100_and_its_tricks_become_bags_when_the_contract_is_made():
    s = settle_team(0, (0, 3), (2, 4), score_before=0, bags_before=0)
    assert s.nils == (NilResult(0, 2, False, -100),)
    assert (s.contract_tricks, s.overtricks, s.nil_bags, s.bags_won) == (4, 1, 2, 3)
    assert (s.contract_points, s.bag_points, s.change, s.bags_after) == (30, 3, -67, 3)


def test_a_failed_nils_tricks_never_help_the_partners_contract():
    s = settle_team(1, (4, 0), (2, 3), score_before=0, bags_before=0)
    assert (s.contract, s.contract_tricks, s.made) == (4, 2, False)
    assert (s.contract_points, s.nil_points, s.bag_points, s.change) == (-40, -100, 0, -140)


def test_a_failed_nils_tricks_count_as_bags_even_when_the_contract_is_set():
    s = settle_team(1, (4, 0), (2, 3), score_before=0, bags_before=8)
    assert (s.bags_won, s.bag_points) == (3, 0)
    assert (s.bag_penalty, s.bags_struck, s.bags_after, s.change) == (-100, 10, 1, -240)


def test_both_partners_nil_made_score_each_nil_on_its_own():
    s = settle_team(0, (0, 0), (0, 0), score_before=0, bags_before=0)
    assert (s.contract, s.made, s.contract_points) == (0, True, 0)
    assert s.nils == (NilResult(0, 0, True, 100), NilResult(2, 0, True, 100))
    assert s.change == 200


def test_both_partners_nil_every_trick_either_takes_is_a_bag():
    s = settle_team(1, (0, 0), (0, 3), score_before=0, bags_before=0)
    assert (s.made, s.nil_bags, s.bags_won, s.bag_points) == (True, 3, 3, 3)
    assert s.nils == (NilResult(1, 0, True, 100), NilResult(3, 3, False, -100))
    assert (s.nil_points, s.change) == (0, 3)


def test_both_partners_nil_failed():
    s = settle_team(0, (0, 0), (1, 2), score_before=0, bags_before=0)
    assert (s.nil_points, s.bag_points, s.change, s.bags_after) == (-200, 3, -197, 3)


# ----- bags ------------------------------------------------------------------------------------
def test_bags_accumulate_from_hand_to_hand():
    s = settle_team(0, (3, 3), (4, 4), score_before=0, bags_before=5)
    assert (s.bags_before, s.bags_won, s.bags_after, s.bag_penalty) == (5, 2, 7, 0)


def test_reaching_10_bags_costs_100_and_strikes_those_10():
    s = settle_team(0, (3, 3), (4, 4), score_before=200, bags_before=8)
    assert (s.bag_penalty, s.bags_struck, s.bags_after) == (-100, 10, 0)
    assert (s.change, s.score_after) == (62 - 100, 162)


def test_bags_beyond_10_carry_on():
    s = settle_team(1, (2, 2), (6, 3), score_before=50, bags_before=7)
    assert (s.bags_won, s.bag_penalty, s.bags_after, s.change) == (5, -100, 2, 45 - 100)


def test_bags_crossing_10_from_a_negative_score():
    s = settle_team(0, (2, 1), (3, 3), score_before=-150, bags_before=9)
    assert (s.bags_won, s.bag_penalty, s.bags_after) == (3, -100, 2)
    assert (s.change, s.score_after) == (33 - 100, -217)


def test_crossing_20_bags_in_one_hand_costs_200():
    s = settle_team(0, (1, 0), (10, 3), score_before=0, bags_before=9)
    assert (s.bags_won, s.bag_penalty, s.bags_struck, s.bags_after) == (12, -200, 20, 1)


@pytest.mark.parametrize(
    ("bids", "tricks", "bags"),
    [
        ((4, 3), (5, 4), 0),
        ((0, 4), (2, 7), 9),
        ((0, 0), (6, 7), 5),
        ((13, 0), (0, 0), 3),
        ((6, 6), (6, 7), 9),
        ((0, 1), (0, 0), 0),
    ],
)
def test_the_change_is_the_sum_of_the_itemised_lines(bids, tricks, bags):
    s = settle_team(0, bids, tricks, score_before=10, bags_before=bags)
    assert s.change == lines(s) and s.score_after == 10 + s.change
    assert s.bags_after == bags + s.bags_won - s.bags_struck and 0 <= s.bags_after <= 9


# ----- whole hands ------------------------------------------------------------------------------
def test_the_worked_example_played_out(table, example_hands, example_play):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, bid 4, bid 3, nil")
    state, events = table.run(state, example_play)
    scored = events[-1]
    assert isinstance(scored, HandScored)
    team0, team1 = scored.teams
    assert (team0.contract, team0.contract_tricks, team0.change, team0.bags_after) == (7, 9, 72, 2)
    assert team1.nils == (NilResult(3, 0, True, 100),)
    assert (team1.contract, team1.contract_points, team1.change) == (4, 40, 140)
    assert scored.scores == (72, 140) and scored.bags == (2, 0)
    assert state.scores == (72, 140) and state.bags == (2, 0)


def test_a_failed_nil_and_set_partner_played_out(table, suit_hands):
    state = table.deal(suit_hands, bags=(0, 4))
    state, _ = table.run(state, "nil, bid 3, bid 1, bid 2")
    state, events = table.play_out(state)
    team0 = next(e for e in events if isinstance(e, HandScored)).teams[0]
    assert team0.nils == (NilResult(0, 13, False, -100),)
    assert (team0.contract, team0.made, team0.contract_points) == (1, False, -10)
    assert (team0.nil_bags, team0.bag_points, team0.bag_penalty, team0.bags_after) == (
        13,
        0,
        -100,
        3,
    )
    assert team0.change == -210


def test_the_hand_scored_event_is_public_and_carries_both_partnerships(table, suit_hands):
    state = table.deal(suit_hands)
    state, _ = table.run(state, "bid 13, nil, nil, nil")
    _, events = table.play_out(state)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.audience() is None and [t.team for t in scored.teams] == [0, 1]
    assert scored.teams[1].change == 200 and scored.teams[0].change == 130 + 100


# ----- the end of the match ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scores", "outcome"),
    [
        ((499, 0), "continue"),
        ((0, -199), "continue"),
        ((500, 0), "ended"),
        ((0, -200), "ended"),
        ((510, 530), "ended"),
        ((520, -230), "ended"),
        ((-210, -250), "ended"),
        ((500, 500), "extra"),
        ((-200, -200), "extra"),
        ((120, 120), "continue"),
    ],
)
def test_the_match_ends_after_a_hand_reaching_500_or_minus_200(scores, outcome):
    assert match_outcome(scores, deciding=False) == outcome


def test_an_extra_hand_ends_the_match_as_soon_as_the_tie_is_broken():
    assert match_outcome((480, 470), deciding=True) == "ended"
    assert match_outcome((480, 480), deciding=True) == "extra"


def _finish(table, state, bids):
    state, _ = table.run(state, bids)
    return table.play_out(state)


def test_a_partnership_reaching_500_wins(table, suit_hands):
    state = table.deal(suit_hands, scores=(300, 450))
    state, events = _finish(table, state, "bid 13, bid 1, nil, bid 1")  # +230, -20
    assert events[-1] == MatchEnded(1, 0, (530, 430))
    assert GAME.is_over(state) and state.winner == 0
    assert [s.rank for s in GAME.standings(state)] == [1, 2, 1, 2]


def test_a_partnership_falling_to_minus_200_loses(table, suit_hands):
    state = table.deal(suit_hands, scores=(-150, 40))
    state, events = _finish(table, state, "nil, bid 1, bid 1, bid 1")  # -210, -20
    assert events[-1] == MatchEnded(1, 1, (-360, 20))
    assert [s.rank for s in GAME.standings(state)] == [2, 1, 2, 1]


def test_when_both_pass_500_the_higher_score_wins(table, suit_hands):
    state = table.deal(suit_hands, scores=(280, 490))
    state, events = _finish(table, state, "bid 13, nil, nil, nil")  # +230, +200
    assert events[-1] == MatchEnded(1, 1, (510, 690))


def test_when_one_passes_500_and_the_other_falls_below_minus_200(table, suit_hands):
    state = table.deal(suit_hands, scores=(300, -100))
    state, events = _finish(table, state, "bid 13, bid 5, nil, bid 5")  # +230, -100
    assert events[-1] == MatchEnded(1, 0, (530, -200))


def test_when_both_fall_below_minus_200_the_higher_score_wins(table, suit_hands):
    state = table.deal(suit_hands, scores=(-100, 0))
    state, events = _finish(table, state, "nil, bid 13, bid 1, bid 10")  # -210, -230
    assert events[-1] == MatchEnded(1, 1, (-310, -230))


def test_an_exact_tie_at_the_end_plays_one_more_hand(table, suit_hands):
    state = table.deal(suit_hands)
    state, events = _finish(table, state, "nil, bid 13, bid 1, bid 8")  # -210 each
    assert events[-1] == ExtraHandCalled(1, -210)
    assert not GAME.is_over(state) and state.deciding and state.phase == "deal"
    assert GAME.chance(state).purpose == "deal/2"


def test_the_extra_hand_is_played_again_while_the_scores_stay_tied(table, suit_hands):
    state = table.deal(suit_hands, hand=2, dealer=3, scores=(600, 600), deciding=True)
    state, events = _finish(table, state, "nil, bid 13, bid 1, bid 8")  # -210 each
    assert events[-1] == ExtraHandCalled(2, 390)
    assert state.deciding and not GAME.is_over(state)


def test_the_first_untied_extra_hand_ends_the_match_even_below_500(table, suit_hands):
    state = table.deal(suit_hands, hand=2, dealer=3, scores=(500, 500), deciding=True)
    state, events = _finish(table, state, "nil, bid 13, bid 1, bid 9")  # -210, -220
    assert events[-1] == MatchEnded(2, 0, (290, 280))
    assert GAME.is_over(state)


def test_a_table_may_fix_the_number_of_hands_and_the_higher_score_then_wins():
    assert match_outcome((120, 80), False, hands_played=3, hands=4) == "continue"
    assert match_outcome((120, 80), False, hands_played=4, hands=4) == "ended"
    assert match_outcome((100, 100), False, hands_played=4, hands=4) == "extra"


def test_a_table_may_move_the_thresholds():
    assert match_outcome((300, 10), False, target=300) == "ended"
    assert match_outcome((300, 10), False) == "continue"
    assert match_outcome((10, -100), False, floor=-100) == "ended"
