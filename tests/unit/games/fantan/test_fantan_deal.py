"""The deal: first dealer, unequal hands from the dealer's left, who opens, the house deals."""

from __future__ import annotations

import pytest
from fantan_kit import GAME, crafted_deck, deal, permutation

from tavola.games.fantan import (
    CardsSetAside,
    DealerChosen,
    DealVoided,
    HandDealt,
    HandStarted,
)
from tavola.rules.cards import card, standard_deck
from tavola.rules.interface import ChanceRequest

IDENTITY = tuple(range(52))
SIZES = {
    3: (17, 18, 17),  # dealer 0 → seat 1 first
    4: (13, 13, 13, 13),
    5: (10, 11, 11, 10, 10),
    6: (8, 9, 9, 9, 9, 8),
    7: (7, 8, 8, 8, 7, 7, 7),
}


def dealt_from(players: int, dealer: int, outcome: tuple[int, ...], options=None):
    state = GAME.initial_state(players, options or {})
    state = GAME.fold(state, [DealerChosen(dealer)])
    request = GAME.chance(state)
    return state, request, GAME.resolve_chance(state, request, outcome)


def test_the_first_dealer_is_drawn_among_the_seats():
    state = GAME.initial_state(5, {})
    request = GAME.chance(state)
    assert request == ChanceRequest("first-dealer", "draw", 5)
    events = GAME.resolve_chance(state, request, (3,))
    assert events == [DealerChosen(3)]
    state = GAME.fold(state, events)
    assert state.dealer == 3
    assert GAME.chance(state) == ChanceRequest("deal/1", "shuffle", 52)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_whole_deck_is_dealt_and_the_first_seats_after_the_dealer_get_the_extra_cards(
    players,
):
    _, _, events = dealt_from(players, 0, IDENTITY)
    started = events[0]
    assert started == HandStarted(1, 0, SIZES[players])
    assert sum(started.counts) == 52
    extra = 52 % players
    for step in range(1, players + 1):
        seat = step % players
        assert started.counts[seat] == 52 // players + (1 if step <= extra else 0)


def test_cards_are_dealt_one_at_a_time_clockwise_starting_left_of_the_dealer():
    _, _, events = dealt_from(5, 2, IDENTITY)
    hands = {e.seat: e.cards for e in events if isinstance(e, HandDealt)}
    deck = standard_deck()
    assert hands[3] == tuple(sorted(deck[0::5]))  # left of the dealer: cards 1, 6, 11, …
    assert hands[4] == tuple(sorted(deck[1::5]))
    assert hands[2] == tuple(sorted(deck[4::5]))  # the dealer gets the fifth card
    assert [len(hands[s]) for s in range(5)] == [10, 10, 10, 11, 11]


def test_each_hand_is_private_to_its_seat_and_the_counts_are_public():
    _, _, events = dealt_from(4, 1, IDENTITY)
    assert events[0].audience() is None
    for event in events[1:]:
        assert isinstance(event, HandDealt)
        assert event.audience() == frozenset({event.seat})


def test_the_holder_of_the_seven_of_diamonds_is_on_turn_after_the_deal():
    deck = crafted_deck(4, dealer=0, fixed={3: "7D"})
    state, _request, events = dealt_from(4, 0, permutation(deck))
    state = GAME.fold(state, events)
    assert GAME.to_act(state) == frozenset({3})
    assert GAME.chance(state) is None


def test_equal_hands_deals_the_same_number_to_everyone_and_sets_the_rest_aside_unseen():
    deck = crafted_deck(5, dealer=0, fixed={1: "7D"}, aside="2C 3C", equal=True)
    _, _, events = dealt_from(5, 0, permutation(deck), {"equal_hands": True})
    assert events[0].counts == (10, 10, 10, 10, 10)
    aside = events[-1]
    assert aside == CardsSetAside(1, (card("2C"), card("3C")))
    assert aside.audience() == frozenset()


def test_without_the_house_rule_a_deal_that_sets_aside_the_seven_of_diamonds_is_dealt_again():
    deck = crafted_deck(3, dealer=1, fixed={}, aside="7D", equal=True)
    state, request, events = dealt_from(3, 1, permutation(deck), {"equal_hands": True})
    assert request.purpose == "deal/1"
    assert events == [DealVoided(1)]
    state = GAME.fold(state, events)
    assert GAME.to_act(state) == frozenset()
    assert GAME.chance(state) == ChanceRequest("deal/1/redeal-1", "shuffle", 52)
    again = GAME.resolve_chance(state, GAME.chance(state), IDENTITY)
    assert again[0] == HandStarted(1, 1, (17, 17, 17))  # same dealer, same hand number
    state = GAME.fold(state, again)
    assert state.redeals == 0
    holder = next(e.seat for e in again if isinstance(e, HandDealt) and card("7D") in e.cards)
    assert GAME.to_act(state) == frozenset({holder})


def test_a_second_void_deal_asks_for_redeal_two():
    deck = crafted_deck(3, dealer=0, fixed={}, aside="7D", equal=True)
    state, _, events = dealt_from(3, 0, permutation(deck), {"equal_hands": True})
    state = GAME.fold(state, events)
    events = GAME.resolve_chance(state, GAME.chance(state), permutation(deck))
    assert events == [DealVoided(1)]
    state = GAME.fold(state, events)
    assert GAME.chance(state).purpose == "deal/1/redeal-2"


def test_with_any_seven_starts_the_first_seat_from_the_dealers_left_holding_a_seven_opens():
    # 5 players, dealer 3: seat 4 is first, then 0; 7♦ is set aside.
    deck = crafted_deck(
        5,
        dealer=3,
        fixed={4: "2C 3C 4C 5C 6C 8C 9C TC JC QC", 0: "7S 7H", 1: "7C"},
        aside="7D 2D",
        equal=True,
    )
    options = {"equal_hands": True, "any_seven_starts": True}
    state, _, events = dealt_from(5, 3, permutation(deck), options)
    state = GAME.fold(state, events)
    assert GAME.to_act(state) == frozenset({0})
    assert {a.card.code for a in GAME.legal_actions(state, 0)} == {"7S", "7H"}


def test_with_any_seven_starts_a_deal_with_no_seven_at_all_is_dealt_again():
    # 6 players with equal hands set 4 cards aside: here the four sevens.
    deck = crafted_deck(6, dealer=0, fixed={}, aside="7C 7D 7H 7S", equal=True)
    options = {"equal_hands": True, "any_seven_starts": True}
    state, _, events = dealt_from(6, 0, permutation(deck), options)
    assert events == [DealVoided(1)]
    assert GAME.chance(GAME.fold(state, events)).purpose == "deal/1/redeal-1"


def test_with_any_seven_starts_the_seven_of_diamonds_still_opens_when_it_was_dealt():
    state = deal(["7C 2D", "7D 3D", "7H 4D"], dealer=0, options={"any_seven_starts": True})
    assert GAME.to_act(state) == frozenset({1})
    assert [a.card.code for a in GAME.legal_actions(state, 1)] == ["7D"]


def test_the_dealer_moves_one_seat_to_the_left_for_the_next_hand():
    state = deal(["7D", "2C", "3C"], dealer=2, options={"hands": 2})
    state = GAME.fold(state, GAME.decide(state, 0, GAME.decode_action("7D")))
    assert state.phase == "deal"
    events = GAME.resolve_chance(state, GAME.chance(state), IDENTITY)
    assert GAME.chance(state).purpose == "deal/2"
    assert events[0] == HandStarted(2, 0, (17, 18, 17))  # dealer 0: seat 1 gets the extra card
