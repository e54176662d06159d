"""Rule-book review of Brazilian dominoes (``shared/rules/dominoes.md``).

Each test quotes the statement it checks. Statements already covered by the other dominoes
tests are not repeated here; these add edge cases and the cases that tell two readings
apart. A test marked ``xfail(strict=True)`` documents a disagreement with the book (or, where
its reason says so, with the platform path that creates matches).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from dominoes_kit import DEAL_A, codes, deal, play, scored, start, tiles

from tavola.games.dominoes import (
    Bonus,
    DominoesState,
    End,
    Ending,
    HandBlocked,
    HandScored,
    MatchEnded,
    OpeningRule,
    Passed,
    TileDrawn,
    TilePlayed,
)
from tavola.rules import registry
from tavola.rules.interface import Event, OptionValue
from tavola.rules.tiles import Tile

GAME = registry.get("dominoes")


# ----- set, players, defaults ----------------------------------------------------------------
def test_defaults_are_partnership_to_fifty_with_the_default_house_rules() -> None:
    """ "Partnership (default)"; "A match is played to 50 points by default"; the house-rule
    defaults `next_counterclockwise`, `blocker_loses`, `opponents_pips` (no bonuses) and a
    cruzada worth "by default the sum of the other two bonuses"."""
    options = GAME.initial_state(4, {}).options
    assert options.mode == "partnership" and options.target == 50
    assert options.opener == "next_counterclockwise" and options.blocked_tie == "blocker_loses"
    assert (options.carroca_bonus, options.la_e_lo_bonus, options.cruzada_bonus) == (0, 0, -1)
    assert GAME.house_rules(GAME.parse_options({})) == ()


def test_a_tile_is_worth_the_sum_of_its_ends_so_the_double_blank_is_worth_nothing() -> None:
    """ "A tile's value is the sum of its two ends." Going out while the opponent holds only
    the 0-0 scores 0."""
    state = start(("4-1 4-4", "2-1 0-0"), opener=0)
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, events = play(state, 0, "4-4")
    result = scored(events)
    assert result.ending is Ending.DOMINO and result.winner_side == 0
    assert result.seat_pips == (0, 0) and result.points == 0 and state.scores == (0, 0)


def test_counter_clockwise_play_wraps_from_seat_zero_to_seat_three() -> None:
    """ "seats are numbered 0..3 clockwise, so "next player" in this game is seat-1"."""
    state = start(("6-6 0-0", "1-1", "6-2", "6-1 3-3"), opener=0, rule=OpeningRule.DOUBLE_SIX)
    state, _ = play(state, 0, "6-6")
    assert GAME.to_act(state) == {3}
    state, _ = play(state, 3, "6-1")
    assert GAME.to_act(state) == {2}


# ----- opening a hand ---------------------------------------------------------------------
def test_one_against_one_a_low_double_opens_before_any_heavier_non_double() -> None:
    """ "the holder of the highest double opens with it; if nobody holds a double, the holder
    of the heaviest tile opens": the only double dealt, 0-0, beats the 6-5."""
    hands = ("6-5 6-4 6-3 5-4 5-3 4-3 6-2", "0-0 1-0 2-0 2-1 3-0 3-1 4-0")
    state = deal(GAME.initial_state(2, {"mode": "block"}), hands)
    assert state.opener == 1 and state.opening_rule is OpeningRule.HIGHEST_DOUBLE
    assert codes(state, 1) == ["0-0"]


def test_one_against_one_the_highest_double_counts_only_the_dealt_hands() -> None:
    """Draw mode: the 6-6 and 5-5 lie in the boneyard, so the 4-4 holder opens with it."""
    hands = ("4-4 6-5 6-4 3-1 2-0 1-0 5-0", "3-3 2-2 6-3 5-4 4-2 3-0 1-1")
    state = deal(GAME.initial_state(2, {"mode": "draw"}), hands)
    assert state.opener == 0 and codes(state, 0) == ["4-4"]
    assert Tile(6, 6) in state.boneyard and Tile(5, 5) in state.boneyard


def _hand_won_by_seat_three_opened_by_seat_one(options: Mapping[str, OptionValue]) -> DominoesState:
    """Seat 1 opens, seat 0 passes, seat 3 goes out at once."""
    state = start(("2-2 3-3", "6-6 1-1", "4-4", "6-5"), opener=1, options=options)
    state, _ = play(state, 1, "6-6")
    assert GAME.to_act(state) == {3}  # seat 0 passed
    state, events = play(state, 3, "6-5")
    result = scored(events)
    assert result.ending is Ending.DOMINO and result.winner_seat == 3
    assert result.points == 18  # seats 0 and 2 hold 10 + 8; the partner's 1-1 is not counted
    return state


def test_the_next_hand_is_opened_after_the_previous_opener_not_by_the_winner() -> None:
    """ "Later hands, by default: the next player counter-clockwise after the previous hand's
    opener opens, with any tile." Opener was seat 1, winner seat 3: seat 0 opens."""
    state = deal(_hand_won_by_seat_three_opened_by_seat_one({}), DEAL_A)
    assert state.opener == 0 and state.opening_rule is OpeningRule.ANY
    assert sorted(codes(state, 0)) == sorted(t.code for t in tiles(DEAL_A[0]))


def test_winner_opens_gives_the_next_hand_to_the_player_who_went_out() -> None:
    """House rule `winner_opens`: "the winner of the previous hand opens (any tile)"."""
    state = deal(_hand_won_by_seat_three_opened_by_seat_one({"opener": "winner_opens"}), DEAL_A)
    assert state.opener == 3 and state.opening_rule is OpeningRule.ANY
    assert len(codes(state, 3)) == 7


def test_one_against_one_winner_opens_keeps_the_opening_with_the_winner() -> None:
    """`winner_opens` one against one: the winner (not the other player) opens again."""
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, options={"opener": "winner_opens"})
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, _ = play(state, 0, "4-4")
    hands = ("4-4 6-5 6-4 3-1 2-0 1-0 5-0", "5-5 2-2 6-3 5-4 4-2 3-0 1-1")
    state = deal(state, hands)
    assert state.opener == 0 and state.opening_rule is OpeningRule.ANY


# ----- play ----------------------------------------------------------------------------------
def test_a_double_inside_the_line_opens_no_extra_end() -> None:
    """ "Doubles are placed like any other tile (no spinner)": a 5-5 laid on the 5 end keeps
    two ends (6 and 5); the next tile can only go on those two ends."""
    state = start(("6-5 5-3", "5-5 6-1 5-2"), opener=0)
    state, _ = play(state, 0, "6-5")
    assert codes(state, 1) == ["5-5", "6-1", "5-2"]
    state, events = play(state, 1, "5-5")
    assert events[0] == TilePlayed(1, 1, Tile(5, 5), End.RIGHT, 6, 5)
    assert codes(state, 0) == ["5-3"]
    state, _ = play(state, 0, "5-3")
    assert state.ends == (6, 3)
    assert [(p.left, p.right) for p in state.line] == [(6, 5), (5, 5), (5, 3)]


def test_block_mode_never_draws_a_seat_with_no_fitting_tile_passes() -> None:
    """ "block (traditional: no drawing)": the 6-1 waits in the boneyard, seat 1 passes."""
    state = start(("6-6 6-4", "2-0 3-0"), opener=0, boneyard="6-1 5-5 4-4")
    state, events = play(state, 0, "6-6")
    assert events[1:] == [Passed(1, 1, 6, 6)]
    assert not any(isinstance(e, TileDrawn) for e in events)
    assert state.boneyard == tiles("6-1 5-5 4-4") and GAME.to_act(state) == {0}


def test_draw_mode_a_seat_that_can_play_does_not_draw() -> None:
    """ "With no tile that fits, pass (in draw mode: draw ...)": drawing only without a fit."""
    state = start(
        ("6-6 1-0", "6-2 3-2"), opener=0, boneyard="4-4 3-3 6-1", options={"mode": "draw"}
    )
    state, events = play(state, 0, "6-6")
    assert events == [TilePlayed(1, 0, Tile(6, 6), None, 6, 6)]
    assert len(state.boneyard) == 3 and codes(state, 1) == ["6-2"]


def test_draw_mode_is_not_blocked_while_more_than_two_tiles_remain() -> None:
    """Neither player fits, but four tiles remain: seat 1 must draw, it is not trancado."""
    state = start(
        ("6-6 1-0", "5-4 3-2"), opener=0, boneyard="4-4 6-3 0-0 2-2", options={"mode": "draw"}
    )
    state, events = play(state, 0, "6-6")
    assert not any(isinstance(e, HandBlocked) for e in events)
    assert TileDrawn(1, 1, Tile(4, 4)) in events and TileDrawn(1, 1, Tile(6, 3)) in events
    assert GAME.to_act(state) == {1} and codes(state, 1) == ["6-3"]


# ----- domino (batida) ------------------------------------------------------------------------
def test_draw_mode_a_domino_scores_the_opponents_hand_not_the_boneyard() -> None:
    """ "Their partnership scores the total value of the tiles left in the opponents' hands";
    "One against one uses the same scoring with single players" — also in draw mode."""
    state = start(
        ("4-1 4-4", "2-1 6-6"), opener=0, boneyard="6-5 6-4 5-5", options={"mode": "draw"}
    )
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, events = play(state, 0, "4-4")
    assert scored(events).points == 12 and state.scores == (12, 0)


# ----- blocked (trancado) ---------------------------------------------------------------------
PARTNER_BLOCK = ("6-6 0-0", "1-1", "4-4 4-3", "6-5 4-2 3-2")  # seat 3 blocks; sides 15 and 13


def _blocked(hands: Sequence[str], options: Mapping[str, OptionValue]) -> HandScored:
    state = start(hands, opener=0, rule=OpeningRule.DOUBLE_SIX, options=options)
    state, _ = play(state, 0, "6-6")
    state, events = play(state, 3, "6-5")
    assert events[1] == HandBlocked(1, 3, 6, 5)
    return scored(events)


@pytest.mark.parametrize("tie_rule", ["blocker_loses", "nobody_scores", "lowest_single_hand"])
def test_a_blocked_game_compares_partnership_totals_not_single_hands(tie_rule: str) -> None:
    """ "The partnership with fewer points in hand wins and scores the points in the other
    partnership's hands." Seat 0 holds the fewest (0), but its side holds 15 against 13; the
    tie rules (even `lowest_single_hand`) apply only on a tie."""
    result = _blocked(PARTNER_BLOCK, {"blocked_tie": tie_rule})
    assert result.seat_pips == (0, 2, 15, 11) and result.side_pips == (15, 13)
    assert not result.tied and result.winner_side == 1 and result.points == 15


def test_bonuses_never_apply_to_a_blocked_game() -> None:
    """The bonuses are for how "a domino" is won; a trancado scores the pips only."""
    options = {"carroca_bonus": 10, "la_e_lo_bonus": 20, "cruzada_bonus": 40}
    result = _blocked(PARTNER_BLOCK, options)
    assert result.bonus is Bonus.NONE and result.bonus_points == 0 and result.points == 15


def _one_against_one_tie(options: Mapping[str, OptionValue]) -> HandScored:
    state = start(("6-5 1-1", "2-0"), opener=0, options=options)
    state, events = play(state, 0, "6-5")  # nothing fits 6 or 5: seat 0 blocked it
    assert HandBlocked(1, 0, 6, 5) in events
    return scored(events)


def test_one_against_one_blocked_tie_is_lost_by_the_blocker() -> None:
    """ "On a tie, the partnership of the player who made the blocking move loses";
    "One against one uses the same scoring with single players"."""
    result = _one_against_one_tie({})
    assert result.tied and result.seat_pips == (2, 2)
    assert result.winner_side == 1 and result.winner_seat == 1 and result.points == 2


def test_one_against_one_blocked_tie_nobody_scores() -> None:
    result = _one_against_one_tie({"blocked_tie": "nobody_scores"})
    assert result.tied and result.winner_side is None and result.points == 0


# ----- house-rule bonuses ---------------------------------------------------------------------
def test_a_last_non_double_on_two_equal_ends_is_not_la_e_lo() -> None:
    """lá-e-lô: "after it both ends show the same number". A 4-2 laid last on ends 4 and 4
    leaves 4 and 2, so no bonus (the book's parenthetical settles "fitted either end")."""
    state = start(("4-4 4-2", "6-6"), opener=0, options={"la_e_lo_bonus": 20})
    state, events = play(state, 0, "4-4")
    assert events[-1] == Passed(1, 1, 4, 4)
    state, events = play(state, 0, "4-2")
    result = scored(events)
    assert state.ends == (4, 2) and result.bonus is Bonus.NONE and result.points == 12


def test_cruzada_defaults_to_the_sum_even_when_only_one_other_bonus_is_set() -> None:
    """cruzada "by default the sum of the other two bonuses": 0 + 20."""
    state = start(("4-1 4-2 4-4", "2-1 6-6"), opener=0, options={"la_e_lo_bonus": 20})
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    state, _ = play(state, 0, "4-2 R")  # ends 4 and 4; seat 1 passes
    state, events = play(state, 0, "4-4")
    result = scored(events)
    assert result.bonus is Bonus.CRUZADA and result.bonus_points == 20 and result.points == 32


def test_a_partnership_domino_bonus_goes_to_the_side_with_the_pips() -> None:
    """Going out with a double in partnership: the side scores the opponents' pips plus the
    carroça bonus."""
    state = start(
        ("6-6 5-5", "3-3 2-0", "6-5 6-4 5-4", "1-1 4-4"),
        opener=0,
        rule=OpeningRule.DOUBLE_SIX,
        options={"carroca_bonus": 10},
    )
    state, _ = play(state, 0, "6-6")  # seat 3 passes
    state, _ = play(state, 2, "6-5")  # seat 1 passes; ends 6 and 5
    state, events = play(state, 0, "5-5")
    result = scored(events)
    assert result.bonus is Bonus.CARROCA and result.base_points == 8 + 10
    assert result.points == 28 and state.scores == (28, 0)


# ----- the match ------------------------------------------------------------------------------
def _domino_worth_twelve(scores: tuple[int, int], target: int = 50) -> list[Event]:
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, scores=scores, options={"target": target})
    state, _ = play(state, 0, "4-1")
    state, _ = play(state, 1, "2-1")
    _, events = play(state, 0, "4-4")
    return events


def test_reaching_the_target_exactly_wins_the_match() -> None:
    """ "The first partnership to reach the target after a hand wins": 38 + 12 = 50."""
    events = _domino_worth_twelve((38, 0))
    assert events[-1] == MatchEnded(0, (0,), (50, 0))


def test_one_point_short_of_the_target_does_not_win() -> None:
    events = _domino_worth_twelve((37, 0))
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert scored(events).scores == (49, 0)


def test_a_custom_target_is_honoured() -> None:
    """ "match target (default 50)" is a table option."""
    assert not any(isinstance(e, MatchEnded) for e in _domino_worth_twelve((45, 0), target=60))
    assert isinstance(_domino_worth_twelve((48, 0), target=60)[-1], MatchEnded)


def test_every_house_rule_is_flagged_and_the_mode_is_not() -> None:
    """ "House rules (table options, visible to everyone; matches using them are flagged)"."""
    raw = {
        "mode": "draw",
        "opener": "winner_opens",
        "blocked_tie": "nobody_scores",
        "carroca_bonus": "10",
        "la_e_lo_bonus": "20",
        "cruzada_bonus": "50",
        "target": "100",
    }
    flagged = set(GAME.house_rules(GAME.parse_options(raw)))
    assert flagged == set(raw) - {"mode"}


def test_a_two_player_table_created_with_default_options_starts_a_one_against_one_game() -> None:
    """The lobby and the engine parse a table's options knowing its size; without an
    explicit mode a two-player table plays one against one (block), and says so."""
    options = GAME.parse_options({}, players=2)
    assert options["mode"] == "block"
    assert GAME.initial_state(2, options).options.mode == "block"
    assert GAME.parse_options({"mode": "draw"}, players=2)["mode"] == "draw"
    assert GAME.parse_options({}, players=4)["mode"] == "partnership"
