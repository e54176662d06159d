"""Scripted-deal scenarios for every rule and house rule of Brazilian dominoes.

Deals are written out: full deals go through the real chance path (a crafted permutation
for ``deal/n``); focused positions fold explicit ``HandStarted``/``HandDealt`` events with
chosen tiles (fewer than seven when the rest does not matter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest
from dominoes_kit import DEAL_A, codes, deal, play, scored, start, tiles

from tavola.games.dominoes import (
    GAME,
    BoneyardDrawn,
    Bonus,
    DominoesState,
    End,
    Ending,
    HandBlocked,
    MatchEnded,
    OpeningRule,
    Passed,
    Play,
    PlayerWentOut,
    TileDrawn,
    TilePlayed,
    TilesShown,
)
from tavola.rules.errors import IllegalAction
from tavola.rules.interface import ChanceRequest, Event, OptionValue
from tavola.rules.tiles import Tile


# ----- opening -------------------------------------------------------------------------
def test_the_holder_of_the_double_six_must_open_the_first_partnership_hand_with_it() -> None:
    state = deal(GAME.initial_state(4, {}), DEAL_A)
    assert state.opener == 2 and state.opening_rule is OpeningRule.DOUBLE_SIX
    assert GAME.to_act(state) == {2}
    assert codes(state, 2) == ["6-6"]
    with pytest.raises(IllegalAction) as error:
        GAME.decide(state, 2, GAME.decode_action("6-4"))
    assert error.value.reason.code == "dominoes.must_open_with"
    assert error.value.reason.param_dict() == {"tile": "6-6"}


def test_play_goes_counter_clockwise_so_seat_one_follows_seat_two() -> None:
    state = deal(GAME.initial_state(4, {}), DEAL_A)
    state, events = play(state, 2, "6-6")
    assert events == [TilePlayed(1, 2, Tile(6, 6), None, 6, 6)]
    assert GAME.to_act(state) == {1}
    assert codes(state, 1) == ["6-5"]


def test_a_seat_with_no_tile_that_fits_passes_automatically_and_explicitly() -> None:
    state = deal(GAME.initial_state(4, {}), DEAL_A)
    state, _ = play(state, 2, "6-6")
    state, _ = play(state, 1, "6-5")
    state, events = play(state, 0, "5-5")  # ends 6 and 5: seat 3 has neither
    assert events == [TilePlayed(1, 0, Tile(5, 5), End.RIGHT, 6, 5), Passed(1, 3, 6, 5)]
    assert GAME.to_act(state) == {2}
    assert GAME.view(state, None).passes[0].seat == 3


def test_one_against_one_first_hand_opens_with_the_highest_double_dealt() -> None:
    hands = ("4-4 6-5 6-4 3-1 2-0 1-0 5-0", "5-5 2-2 6-3 5-4 4-2 3-0 1-1")
    state = deal(GAME.initial_state(2, {"mode": "block"}), hands)  # 6-6 is in the boneyard
    assert state.opener == 1 and state.opening_rule is OpeningRule.HIGHEST_DOUBLE
    assert codes(state, 1) == ["5-5"]
    assert len(state.boneyard) == 14 and Tile(6, 6) in state.boneyard


def test_without_a_double_dealt_the_heaviest_tile_opens_and_six_three_beats_five_four() -> None:
    hands = ("5-4 5-3 4-3 2-1 3-0 1-0 2-0", "6-3 6-2 6-1 6-0 5-2 5-1 4-2")
    boneyard = "0-0 1-1 2-2 3-3 4-4 5-5 6-6 6-5 6-4 5-0 4-1 4-0 3-2 3-1"
    state = deal(GAME.initial_state(2, {"mode": "draw"}), hands, boneyard)
    assert state.opener == 1 and state.opening_rule is OpeningRule.HEAVIEST_TILE
    assert codes(state, 1) == ["6-3"]
    assert state.boneyard == tiles(boneyard)


def _blocked_first_hand(options: Mapping[str, OptionValue]) -> DominoesState:
    """Hand 1 opened by seat 2 and blocked at once: seat 2 (side 0) wins it."""
    state = start(
        ("2-2", "3-3", "6-6 0-0", "1-1"), opener=2, rule=OpeningRule.DOUBLE_SIX, options=options
    )
    state, events = play(state, 2, "6-6")
    assert scored(events).winner_seat == 2
    return state


def test_later_hands_are_opened_by_the_next_player_counter_clockwise_with_any_tile() -> None:
    state = deal(_blocked_first_hand({}), DEAL_A)
    assert state.hand == 2
    assert state.opener == 1 and state.opening_rule is OpeningRule.ANY
    assert sorted(codes(state, 1)) == sorted(t.code for t in tiles(DEAL_A[1]))


def test_house_rule_winner_opens_gives_the_next_hand_to_the_previous_winner() -> None:
    state = deal(_blocked_first_hand({"opener": "winner_opens"}), DEAL_A)
    assert state.opener == 2 and state.opening_rule is OpeningRule.ANY
    assert len(codes(state, 2)) == 7


def test_one_against_one_later_hands_alternate_the_opener() -> None:
    state = start(("6-6 0-0", "1-1"), opener=0, options={"mode": "block"})
    state, _ = play(state, 0, "6-6")  # blocked at once
    assert state.phase == "deal"
    hands = ("4-4 6-5 6-4 3-1 2-0 1-0 5-0", "5-5 2-2 6-3 5-4 4-2 3-0 1-1")
    state = deal(state, hands)
    assert state.opener == 1 and state.opening_rule is OpeningRule.ANY
    assert len(codes(state, 1)) == 7


# ----- placing a tile --------------------------------------------------------------------
def _ends_six_and_one() -> DominoesState:
    state = start(("2-1 0-0", "6-2 0-1", "6-6 5-5", "6-1 4-4"), opener=2)
    state, _ = play(state, 2, "6-6")
    state, _ = play(state, 1, "6-2")
    state, _ = play(state, 0, "2-1")
    assert state.ends == (6, 1) and state.turn == 3
    return state


def test_a_tile_fitting_both_different_ends_needs_the_player_to_choose_the_end() -> None:
    state = _ends_six_and_one()
    assert codes(state, 3) == ["6-1 L", "6-1 R"]
    with pytest.raises(IllegalAction) as error:
        GAME.decide(state, 3, GAME.decode_action("6-1"))
    assert error.value.reason.code == "dominoes.choose_end"
    left, _ = play(state, 3, "6-1 L")
    right, _ = play(state, 3, "6-1 R")
    assert left.ends == (1, 1) and right.ends == (6, 6)
    assert left.line[0].tile == Tile(6, 1) and right.line[-1].tile == Tile(6, 1)


def test_with_equal_ends_a_fitting_tile_has_one_action_and_goes_on_the_right() -> None:
    state = start(("2-1", "6-2 0-1", "6-6 5-5", "4-4"), opener=2)
    state, _ = play(state, 2, "6-6")
    assert codes(state, 1) == ["6-2"]
    with pytest.raises(IllegalAction) as error:
        GAME.decide(state, 1, GAME.decode_action("6-2 L"))
    assert error.value.reason.code == "dominoes.single_placement"
    state, events = play(state, 1, "6-2")
    assert events[0] == TilePlayed(1, 1, Tile(6, 2), End.RIGHT, 6, 2)
    assert [(p.tile.code, p.left, p.right) for p in state.line] == [("6-6", 6, 6), ("6-2", 6, 2)]


def test_a_tile_fitting_one_end_has_one_action_and_goes_on_that_end() -> None:
    state = start(("2-1 0-0", "6-2 0-1", "6-6 5-5", "4-4 6-3"), opener=2)
    state, _ = play(state, 2, "6-6")
    state, _ = play(state, 1, "6-2")
    state, _ = play(state, 0, "2-1")  # ends 6 and 1; seat 3 holds 6-3
    assert codes(state, 3) == ["6-3"]
    with pytest.raises(IllegalAction) as error:
        GAME.decide(state, 3, GAME.decode_action("6-3 R"))
    assert error.value.reason.code == "dominoes.does_not_fit_end"
    assert error.value.reason.param_dict() == {"tile": "6-3", "end": "R", "number": 1}
    state, events = play(state, 3, "6-3")
    assert events[0] == TilePlayed(1, 3, Tile(6, 3), End.LEFT, 3, 1)


def test_a_tile_that_fits_neither_end_is_refused_with_the_ends() -> None:
    state = _ends_six_and_one()
    state = replace(state, hands=(*state.hands[:3], (*state.hands[3], Tile(5, 3))))
    with pytest.raises(IllegalAction) as error:
        GAME.decide(state, 3, GAME.decode_action("5-3"))
    assert error.value.reason.code == "dominoes.does_not_fit"
    assert error.value.reason.param_dict() == {"tile": "5-3", "left": 6, "right": 1}


# ----- domino (batida) ----------------------------------------------------------------------
def test_a_domino_scores_only_the_opponents_pips_even_when_the_partner_holds_more() -> None:
    state = start(
        ("6-6 6-1", "3-3 2-0", "6-5 6-4 5-4 5-3 4-3", "5-5 4-4"),
        opener=0,
        rule=OpeningRule.DOUBLE_SIX,
    )
    state, events = play(state, 0, "6-6")
    assert events[-1] == Passed(1, 3, 6, 6)
    state, events = play(state, 2, "6-5")
    assert events[-1] == Passed(1, 1, 6, 5)
    state, events = play(state, 0, "6-1")
    assert PlayerWentOut(1, 0, Tile(6, 1), Bonus.NONE) in events
    result = scored(events)
    assert result.ending is Ending.DOMINO and result.winner_side == 0
    assert result.seat_pips == (0, 8, 34, 18)  # the partner holds 34, the opponents 26
    assert result.side_pips == (34, 26)
    assert result.points == result.base_points == 26
    assert state.scores == (26, 0)
    shown = [e for e in events if isinstance(e, TilesShown)]
    assert [e.pips for e in shown] == [0, 8, 34, 18]


def test_one_against_one_a_domino_scores_the_opponents_pips_not_the_boneyard() -> None:
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, boneyard="6-5 6-4 5-5", options={})
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, events = play(state, 0, "4-4")
    result = scored(events)
    assert result.winner_side == 0 and result.points == 12
    assert state.scores == (12, 0)


# ----- blocked (trancado) -------------------------------------------------------------------
TIED_BLOCK = ("6-6 2-2", "4-4", "3-3 0-0", "6-5 1-1")  # seat 3 blocks; sides 10 and 10


def _blocked(hands: Sequence[str], options: Mapping[str, OptionValue]) -> list[Event]:
    state = start(hands, opener=0, rule=OpeningRule.DOUBLE_SIX, options=options)
    state, _ = play(state, 0, "6-6")
    state, events = play(state, 3, "6-5")  # ends 6 and 5: nobody holds either
    assert events[1] == HandBlocked(1, 3, 6, 5)
    assert GAME.to_act(state) == frozenset()
    return events


def test_a_blocked_game_is_won_by_the_side_with_fewer_pips_scoring_the_others_pips() -> None:
    events = _blocked(("6-6 2-2", "4-4 1-0", "3-3 0-0", "6-5 1-1"), {})
    result = scored(events)
    assert result.ending is Ending.BLOCKED and result.blocker == 3 and not result.tied
    assert result.side_pips == (10, 11)
    assert result.winner_side == 0 and result.points == 11
    assert result.winner_seat == 0  # the winning side's player with fewer pips


def test_a_blocked_game_can_be_won_by_the_blockers_side() -> None:
    events = _blocked(("6-6 2-2", "0-0", "3-3 4-4", "6-5 1-1"), {})
    result = scored(events)
    assert result.side_pips == (18, 2) and result.winner_side == 1 and result.points == 18


def test_a_blocked_tie_is_lost_by_the_side_of_the_player_who_blocked() -> None:
    result = scored(_blocked(TIED_BLOCK, {}))
    assert result.tied and result.side_pips == (10, 10)
    assert result.winner_side == 0 and result.points == 10


def test_house_rule_nobody_scores_on_a_blocked_tie() -> None:
    result = scored(_blocked(TIED_BLOCK, {"blocked_tie": "nobody_scores"}))
    assert result.tied and result.winner_side is None and result.winner_seat is None
    assert result.points == 0 and result.scores == (0, 0)


def test_house_rule_lowest_single_hand_gives_a_blocked_tie_to_the_lowest_player() -> None:
    result = scored(_blocked(TIED_BLOCK, {"blocked_tie": "lowest_single_hand"}))
    assert result.seat_pips == (4, 8, 6, 2)
    assert result.winner_side == 1 and result.winner_seat == 3 and result.points == 10


def test_lowest_single_hand_shared_across_the_sides_falls_back_to_the_blocker_losing() -> None:
    hands = ("6-6 2-0", "4-2", "3-3 0-0", "6-5 1-1")  # seats 0 and 3 both hold 2
    result = scored(_blocked(hands, {"blocked_tie": "lowest_single_hand"}))
    assert result.side_pips == (8, 8) and result.winner_side == 0 and result.points == 8


def test_one_against_one_block_mode_can_block_with_different_ends() -> None:
    state = start(("6-5 1-1", "2-2 3-3"), opener=0, boneyard="4-4 0-0 6-6")
    state, events = play(state, 0, "6-5")
    assert events[1] == HandBlocked(1, 0, 6, 5)
    result = scored(events)
    assert result.winner_side == 0 and result.points == 10


# ----- draw mode ---------------------------------------------------------------------------
def test_in_draw_mode_a_seat_draws_until_a_tile_fits_privately_with_a_public_count() -> None:
    state = start(
        ("6-6 1-0", "5-4 3-2"), opener=0, boneyard="4-4 3-3 6-1 0-0 2-2", options={"mode": "draw"}
    )
    state, events = play(state, 0, "6-6")
    assert events[1:] == [
        TileDrawn(1, 1, Tile(4, 4)),
        BoneyardDrawn(1, 1, 4),
        TileDrawn(1, 1, Tile(3, 3)),
        BoneyardDrawn(1, 1, 3),
        TileDrawn(1, 1, Tile(6, 1)),
        BoneyardDrawn(1, 1, 2),
    ]
    assert events[1].audience() == {1} and events[2].audience() is None
    assert GAME.to_act(state) == {1} and codes(state, 1) == ["6-1"]
    assert GAME.view(state, 0).tile_counts == (1, 5) and GAME.view(state, 0).boneyard_count == 2


def test_in_draw_mode_the_last_two_tiles_of_the_boneyard_are_never_drawn() -> None:
    state = start(
        ("6-6 6-0", "5-4 3-2"), opener=0, boneyard="4-4 3-3 0-0", options={"mode": "draw"}
    )
    state, events = play(state, 0, "6-6")
    assert events[1:] == [TileDrawn(1, 1, Tile(4, 4)), BoneyardDrawn(1, 1, 2), Passed(1, 1, 6, 6)]
    assert state.boneyard == tiles("3-3 0-0")
    assert GAME.to_act(state) == {0}


def test_in_draw_mode_the_hand_blocks_when_nobody_fits_and_two_tiles_remain() -> None:
    state = start(
        ("6-6 1-0", "5-4 3-2"), opener=0, boneyard="4-4 3-3 0-0", options={"mode": "draw"}
    )
    state, events = play(state, 0, "6-6")
    assert [type(e) for e in events[:5]] == [
        TilePlayed,
        TileDrawn,
        BoneyardDrawn,
        Passed,
        HandBlocked,
    ]
    result = scored(events)
    assert result.blocker == 0 and result.seat_pips == (1, 22)
    assert result.winner_side == 0 and result.points == 22


# ----- house-rule bonuses ------------------------------------------------------------------
BONUSES = {"carroca_bonus": 10, "la_e_lo_bonus": 20}


def test_house_rule_going_out_with_a_double_earns_the_carroca_bonus() -> None:
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, options=BONUSES)
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, events = play(state, 0, "4-4")
    result = scored(events)
    assert result.bonus is Bonus.CARROCA and result.bonus_points == 10
    assert result.base_points == 12 and result.points == 22 and state.scores == (22, 0)


def _both_ends_four_and_two(options: Mapping[str, OptionValue]) -> DominoesState:
    state = start(("4-1 4-2 4-4", "2-1 6-6"), opener=0, options=options)
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    assert state.ends == (4, 2)
    return state


def test_house_rule_a_last_tile_fitting_either_end_earns_the_la_e_lo_bonus() -> None:
    state = _both_ends_four_and_two(BONUSES)
    state, events = play(state, 0, "4-4")
    assert events[-1] == Passed(1, 1, 4, 2)
    state, events = play(state, 0, "4-2 R")
    assert state.ends == (4, 4)
    result = scored(events)
    assert result.bonus is Bonus.LA_E_LO and result.points == 12 + 20


def test_house_rule_cruzada_is_worth_the_sum_of_the_other_two_bonuses_by_default() -> None:
    state = _both_ends_four_and_two(BONUSES)
    state, _ = play(state, 0, "4-2 R")  # ends 4 and 4
    state, events = play(state, 0, "4-4")
    result = scored(events)
    assert result.bonus is Bonus.CRUZADA and result.bonus_points == 30 and result.points == 42


def test_house_rule_cruzada_can_have_its_own_bonus() -> None:
    state = _both_ends_four_and_two({**BONUSES, "cruzada_bonus": 50})
    state, _ = play(state, 0, "4-2 R")
    state, events = play(state, 0, "4-4")
    assert scored(events).points == 12 + 50


def test_without_bonus_house_rules_a_cruzada_is_recorded_but_worth_only_the_pips() -> None:
    state = _both_ends_four_and_two({})
    state, _ = play(state, 0, "4-2 R")
    state, events = play(state, 0, "4-4")
    result = scored(events)
    assert result.bonus is Bonus.CRUZADA and result.bonus_points == 0 and result.points == 12


# ----- the match -----------------------------------------------------------------------------
def test_a_match_ends_when_a_side_crosses_the_target_after_a_hand() -> None:
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, scores=(45, 49))
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, events = play(state, 0, "4-4")
    assert events[-1] == MatchEnded(0, (0,), (57, 49))
    assert GAME.is_over(state) and GAME.chance(state) is None and GAME.to_act(state) == set()
    assert [(s.seat, s.score, s.rank) for s in GAME.standings(state)] == [(0, 57, 1), (1, 49, 2)]
    assert GAME.legal_actions(state, 0) == ()


def test_partners_share_the_match_score_and_win_together() -> None:
    state = start(
        ("6-6 6-1", "3-3 2-0", "6-5 6-4 5-4 5-3 4-3", "5-5 4-4"),
        opener=0,
        rule=OpeningRule.DOUBLE_SIX,
        scores=(30, 0),
    )
    for seat, code in ((0, "6-6"), (2, "6-5"), (0, "6-1")):
        state, events = play(state, seat, code)
    assert events[-1] == MatchEnded(0, (0, 2), (56, 0))
    assert [s.score for s in GAME.standings(state)] == [56, 0, 56, 0]
    assert [s.rank for s in GAME.standings(state)] == [1, 2, 1, 2]


def test_below_the_target_the_next_hand_is_dealt() -> None:
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, scores=(0, 0), options={"target": 100})
    state = replace(state, scores=(80, 0))
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, events = play(state, 0, "4-4")
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert state.scores == (92, 0) and GAME.chance(state) == ChanceRequest("deal/2", "shuffle", 28)


# ----- automatic move ------------------------------------------------------------------------
def test_a_timed_out_seat_lays_its_heaviest_playable_tile() -> None:
    state = start(("2-1 0-0", "6-2 0-1", "6-6 5-5", "6-1 6-5 4-4"), opener=2)
    state, _ = play(state, 2, "6-6")
    state, _ = play(state, 1, "6-2")
    state, _ = play(state, 0, "2-1")  # ends 6 and 1
    action, reason = GAME.automatic_action(state, 3)
    assert action == Play(Tile(6, 5))
    assert reason.code == "dominoes.auto.heaviest_tile"


def test_a_timed_out_seat_with_an_end_to_choose_plays_on_the_left() -> None:
    state = _ends_six_and_one()
    action, _ = GAME.automatic_action(state, 3)
    assert action == Play(Tile(6, 1), End.LEFT)
