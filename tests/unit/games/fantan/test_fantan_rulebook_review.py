"""Rule-book review: statements of ``shared/rules/fan-tan.md`` (and the worked example of
``shared/seeds/fan-tan.pt.txt``) that the other Fan Tan tests do not pin down yet."""

from __future__ import annotations

import pytest
from fantan_kit import GAME, act, crafted_deck, deal, illegal, moves, permutation

from tavola.games.fantan import (
    CardPlayed,
    CardsSetAside,
    DealerChosen,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    HandWon,
    Passed,
)
from tavola.rules.cards import card, standard_deck
from tavola.rules.errors import Reason
from tavola.rules.interface import SeatScore

IDENTITY = tuple(range(52))
CLUBS = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
DIAMONDS = CLUBS.replace("C", "D")


def dealt(players, dealer, outcome=IDENTITY, options=None):
    """The state before the first deal and the events of that deal."""
    state = GAME.fold(GAME.initial_state(players, options or {}), [DealerChosen(dealer)])
    return state, GAME.resolve_chance(state, GAME.chance(state), outcome)


def legal_codes(state, seat):
    return sorted(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))


# ----- Players and deal ------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_whole_deck_is_dealt_one_at_a_time_from_the_left_of_the_last_seat_dealer(players):
    # "left of X" is X+1, so with the dealer in seat N-1 the deal starts at seat 0.
    dealer = players - 1
    _, events = dealt(players, dealer)
    assert not any(isinstance(e, CardsSetAside) for e in events)
    hands = {e.seat: e.cards for e in events if isinstance(e, HandDealt)}
    deck = standard_deck()
    for seat in range(players):
        position = (seat - dealer - 1) % players  # 0 for the seat left of the dealer
        assert hands[seat] == tuple(sorted(deck[position::players]))
        extra = 1 if position < 52 % players else 0  # the first seats get the extra cards
        assert len(hands[seat]) == 52 // players + extra
    assert sorted(c for h in hands.values() for c in h) == sorted(deck)


def test_seven_players_the_three_seats_after_the_dealer_hold_eight_cards():
    _, events = dealt(7, 4)
    assert events[0] == HandStarted(1, 4, (8, 7, 7, 7, 7, 8, 8))


# ----- Ranks: A low, K high ----------------------------------------------------------------
def test_the_ace_goes_under_the_two_and_a_suit_is_complete_with_its_ace_and_king():
    state = deal([DIAMONDS + " 7S", "2C", "3C"], dealer=2)
    script = " ".join(f"0:{r}D" for r in "789TJQK65432")
    state, events = moves(state, script)
    assert all(e in (Passed(1), Passed(2)) for e in events if isinstance(e, Passed))
    assert state.rows[card("7D").suit] == (2, 13)
    assert legal_codes(state, 0) == ["7S", "AD"]
    state, _ = act(state, 0, "AD")
    assert state.rows[card("7D").suit] == (1, 13)  # complete: A and K both down
    state, events = act(state, 0, "7S")
    assert events[1] == HandWon(1, 0)


# ----- Opening and turns -------------------------------------------------------------------
def test_the_seven_of_diamonds_is_the_only_first_card_even_for_a_holder_of_other_sevens():
    state = deal(["2H", "7C 7D 7H 7S", "3H"], dealer=0)
    assert legal_codes(state, 1) == ["7D"]
    assert illegal(state, 1, "7S") == Reason.of("fantan.seven_of_diamonds_first", card="7S")


def test_when_the_dealer_holds_the_seven_of_diamonds_play_continues_at_seat_zero():
    state = deal(["7C 2H", "3H", "4H", "5H", "7D 6H"], dealer=4)
    assert GAME.to_act(state) == frozenset({4})
    state, events = act(state, 4, "7D")
    assert events == [CardPlayed(4, card("7D"))]
    assert GAME.to_act(state) == frozenset({0})  # left of seat 4 is seat 0


def test_with_any_seven_starts_the_opener_of_another_suit_leaves_diamonds_closed():
    options = {"any_seven_starts": True, "equal_hands": True}
    state = deal(["7H 8D", "8H 9D", "7S 6D"], dealer=0, options=options, aside="7D")
    assert GAME.to_act(state) == frozenset({2})  # seat 1 holds no seven
    state, events = act(state, 2, "7S")
    assert events == [CardPlayed(2, card("7S"))]
    assert legal_codes(state, 0) == ["7H"]
    assert illegal(state, 0, "8D") == Reason.of("fantan.row_not_open", card="8D", suit="D")
    state, events = act(state, 0, "7H")
    assert events == [CardPlayed(0, card("7H"))]
    state, events = act(state, 1, "8H")
    # Diamonds can never open (7♦ is aside): nobody can move any more.
    assert events[1:4] == [Passed(2), Passed(0), Passed(1)]
    assert events[4:] == [HandBlocked(1), HandScored(1, (1, 1, 1), (1, 1, 1), (1, 1, 1))]


# ----- A turn: the worked example ----------------------------------------------------------
@pytest.mark.parametrize(
    ("choice", "opened"),
    [("7C", ["6C", "8C"]), ("6D", ["5D"]), ("9D", ["TD"])],
)
def test_the_worked_example_the_seven_opens_a_suit_the_six_or_nine_one_card(choice, opened):
    # ♦7 and ♦8 are down; seat 1 holds 9♦, 6♦ and 7♣: all three are valid.
    state = deal(["KH QH", "7D 9D 6D 7C", "8D 5D TD 6C 8C"], dealer=0)
    state, _ = moves(state, "1:7D 2:8D")
    assert GAME.to_act(state) == frozenset({1})
    assert legal_codes(state, 1) == ["6D", "7C", "9D"]
    state, events = act(state, 1, choice)
    assert events == [CardPlayed(1, card(choice))]
    assert legal_codes(state, 2) == opened


def test_a_seat_whose_only_playable_card_is_a_seven_must_play_it():
    # Holding a seven blocks a suit, but "if you can play you must".
    state = deal(["KH", "7D 9S", "7C 2H 3H"], dealer=0)
    state, _ = act(state, 1, "7D")
    assert legal_codes(state, 2) == ["7C"]
    assert illegal(state, 2, "pass") == Reason.of("fantan.must_play")


def test_a_seat_that_cannot_play_passes_and_keeps_its_cards():
    state = deal(["KH QH", "7D 8D 9S", "2C 3C"], dealer=0)
    state, events = act(state, 1, "7D")
    assert events == [CardPlayed(1, card("7D")), Passed(2), Passed(0)]
    assert [len(h) for h in state.hands] == [2, 2, 2]
    assert GAME.to_act(state) == frozenset({1})


# ----- End and score -----------------------------------------------------------------------
def test_the_hand_ends_as_soon_as_a_seat_plays_its_last_card():
    # Seat 2 goes out with 8♦; seat 1 could have gone out next turn with 9♦ but never plays.
    state = deal(["5D 4D", "7D 9D", "8D"], dealer=0)
    state, events = moves(state, "1:7D 2:8D")
    assert events[-2:] == [HandWon(1, 2), HandScored(1, (2, 1, 0), (2, 1, 0), (2, 1, 0))]
    assert GAME.to_act(state) == frozenset()


@pytest.mark.parametrize(
    ("options", "clubs"),
    [
        ({}, 13),
        ({"penalty": "card_value"}, sum(range(1, 14))),  # A=1 … K=13: 91
        ({"penalty": "card_value", "face_cards_ten": True}, sum(range(1, 11)) + 30),  # 85
    ],
)
def test_penalties_for_a_whole_suit_left_in_hand(options, clubs):
    state = deal([CLUBS, "7D", "TH"], dealer=0, options=options)
    state, events = act(state, 1, "7D")
    ten = 1 if not options else 10
    assert events[1:] == [
        HandWon(1, 1),
        HandScored(1, (clubs, 0, ten), (clubs, 0, ten), (13, 0, 1)),
    ]


@pytest.mark.parametrize(("limit", "over"), [(3, True), (4, True), (5, False)])
def test_a_penalty_limit_ends_the_match_once_a_total_reaches_it(limit, over):
    state = deal(["AC 5H KS JD", "7D", "QH 2S"], dealer=0, options={"penalty_limit": limit})
    state, events = act(state, 1, "7D")
    assert events[-1].totals == (4, 0, 2)
    assert GAME.is_over(state) is over
    assert state.phase == ("over" if over else "deal")


def test_a_penalty_limit_counts_card_values_under_the_card_value_option():
    options = {"penalty_limit": 30, "penalty": "card_value"}
    state = deal(["AC 5H KS JD", "7D", "QH 2S"], dealer=0, options=options)
    state, events = act(state, 1, "7D")
    assert events[-1].totals == (30, 0, 14)
    assert GAME.is_over(state)


def test_a_tie_for_the_lowest_total_shares_first_place():
    state = deal(["7D", "2C 3C", "4C 5C"], options={"hands": 1})
    state = GAME.fold(
        state,
        [CardPlayed(0, card("7D")), HandWon(1, 0), HandScored(1, (2, 2, 5), (2, 2, 5), (1, 1, 1))],
    )
    assert GAME.standings(state) == (SeatScore(0, 2, 1), SeatScore(1, 2, 1), SeatScore(2, 5, 3))


def test_the_second_hand_is_dealt_by_the_next_seat_and_opened_by_its_seven_of_diamonds_holder():
    state = deal(["7D", "2C", "3C"], dealer=2, options={"hands": 2})
    state, _ = act(state, 0, "7D")
    assert state.totals == (0, 1, 1) and state.phase == "deal"
    deck = crafted_deck(3, dealer=0, fixed={2: "7D"})
    state = GAME.fold(state, GAME.resolve_chance(state, GAME.chance(state), permutation(deck)))
    assert state.dealer == 0 and state.hand == 2
    assert GAME.to_act(state) == frozenset({2})
    assert legal_codes(state, 2) == ["7D"]
