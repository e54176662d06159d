"""End of a hand, penalties, blocked hands and the length of a match."""

from __future__ import annotations

import random

import pytest
from fantan_kit import GAME, act, deal, illegal, moves

from tavola.games.fantan import (
    CardPlayed,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    HandWon,
    Passed,
)
from tavola.rules.cards import card
from tavola.rules.driver import play_match
from tavola.rules.errors import GameOver
from tavola.rules.interface import SeatScore

# Seat 1 holds only 7♦: it opens and goes out at once.
LEFTOVERS = ["AC 5H KS JD", "7D", "QH 2S"]


def first_hand_scored(options):
    state = deal(LEFTOVERS, dealer=0, options=options)
    state, events = act(state, 1, "7D")
    assert events[:2] == [CardPlayed(1, card("7D")), HandWon(1, 1)]
    return state, events[2]


def test_the_first_player_to_play_their_last_card_wins_and_the_others_pay_one_per_card():
    state, scored = first_hand_scored({})
    assert scored == HandScored(1, penalties=(4, 0, 2), totals=(4, 0, 2), cards_left=(4, 0, 2))
    assert state.totals == (4, 0, 2)


def test_card_value_penalties_count_ace_one_to_king_thirteen():
    _, scored = first_hand_scored({"penalty": "card_value"})
    assert scored.penalties == (1 + 5 + 13 + 11, 0, 12 + 2)


def test_face_cards_ten_counts_jack_queen_and_king_as_ten_under_card_value():
    _, scored = first_hand_scored({"penalty": "card_value", "face_cards_ten": True})
    assert scored.penalties == (1 + 5 + 10 + 10, 0, 10 + 2)


def test_face_cards_ten_alone_leaves_the_one_per_card_penalty():
    _, scored = first_hand_scored({"face_cards_ten": True})
    assert scored.penalties == (4, 0, 2)


def test_totals_add_each_hands_penalties_to_the_previous_totals():
    state, _ = first_hand_scored({"hands": 2})
    assert state.phase == "deal"
    hand2 = [
        HandStarted(2, 1, (2, 2, 1)),
        HandDealt(2, 0, (card("2H"), card("7D"))),
        HandDealt(2, 1, (card("2C"), card("3C"))),
        HandDealt(2, 2, (card("8D"),)),
    ]
    state = GAME.fold(state, hand2)
    state, events = moves(state, "0:7D 2:8D")
    assert Passed(1) in events
    assert events[-2:] == [HandWon(2, 2), HandScored(2, (1, 2, 0), (5, 2, 2), (1, 2, 0))]
    assert GAME.is_over(state)


def test_a_blocked_hand_with_cards_set_aside_ends_with_everyone_penalised():
    # 8♥ was set aside: once 7♥ is down nobody can move, and nobody has gone out.
    options = {"equal_hands": True, "penalty": "card_value"}
    state = deal(["9H", "7D 7H JH", "TH"], dealer=0, options=options, aside="8H")
    state, events = act(state, 1, "7D")
    assert events == [CardPlayed(1, card("7D")), Passed(2), Passed(0)]
    state, events = act(state, 1, "7H")
    assert events == [
        CardPlayed(1, card("7H")),
        Passed(2),
        Passed(0),
        Passed(1),
        HandBlocked(1),
        HandScored(1, (9, 11, 10), (9, 11, 10), (1, 1, 1)),
    ]
    assert GAME.to_act(state) == frozenset()
    assert state.last_winner is None


@pytest.mark.parametrize("players", [3, 5, 7])
def test_a_match_is_one_hand_per_player_and_the_dealer_moves_left_each_hand(players):
    out = play_match(GAME, players, seed=bytes([players]) * 32, rng=random.Random(players))
    started = [e for e in out.events if isinstance(e, HandStarted)]
    assert len(started) == players
    assert len([e for e in out.events if isinstance(e, HandScored)]) == players
    first = started[0].dealer
    assert [e.dealer for e in started] == [(first + i) % players for i in range(players)]
    assert GAME.view(out.state, None).hands_in_match == players


def test_the_hands_option_sets_the_length_of_the_match():
    out = play_match(GAME, 4, {"hands": 6}, seed=b"\x07" * 32)
    assert len([e for e in out.events if isinstance(e, HandScored)]) == 6


def test_a_penalty_limit_ends_the_match_at_the_hand_where_someone_reaches_it():
    out = play_match(GAME, 4, {"penalty_limit": 25}, seed=b"\x08" * 32)
    scored = [e for e in out.events if isinstance(e, HandScored)]
    assert max(scored[-1].totals) >= 25
    assert all(max(e.totals) < 25 for e in scored[:-1])
    assert GAME.view(out.state, None).hands_in_match == 0  # open-ended


def test_with_both_a_hand_count_and_a_limit_the_match_ends_at_whichever_comes_first():
    out = play_match(GAME, 3, {"hands": 2, "penalty_limit": 1000}, seed=b"\x09" * 32)
    assert len([e for e in out.events if isinstance(e, HandScored)]) == 2
    out = play_match(GAME, 3, {"hands": 50, "penalty_limit": 8}, seed=b"\x09" * 32)
    scored = [e for e in out.events if isinstance(e, HandScored)]
    assert max(scored[-1].totals) >= 8 and len(scored) < 50


def test_the_lowest_total_wins_and_equal_totals_share_a_rank():
    state, _ = first_hand_scored({"hands": 1})
    assert GAME.is_over(state)
    assert GAME.standings(state) == (SeatScore(0, 4, 3), SeatScore(1, 0, 1), SeatScore(2, 2, 2))
    tied = GAME.fold(
        deal(["7D", "2C", "3C"], options={"hands": 1}),
        [CardPlayed(0, card("7D")), HandWon(1, 0), HandScored(1, (0, 1, 1), (0, 1, 1), (0, 1, 1))],
    )
    assert [s.rank for s in GAME.standings(tied)] == [1, 2, 2]
    assert GAME.info.lower_score_wins


def test_once_the_match_is_over_nobody_acts_and_no_chance_is_asked():
    state, _ = first_hand_scored({"hands": 1})
    assert GAME.is_over(state)
    assert GAME.to_act(state) == frozenset()
    assert GAME.chance(state) is None
    assert illegal(state, 0, "AC", GameOver).code == "game.over"
