"""Play: 7♦ opens, sevens open rows, rows build one rank at a time, must play, forced passes."""

from __future__ import annotations

from fantan_kit import GAME, act, deal, illegal, moves

from tavola.games.fantan import CardPlayed, HandScored, HandWon, Passed, Play
from tavola.rules.cards import card
from tavola.rules.errors import NotYourTurn, Reason

CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
DIAMONDS = CLUBS.replace("C", "D")
HEARTS = CLUBS.replace("C", "H")
SPADES = CLUBS.replace("C", "S")
UP = "789TJQK"
DOWN = "65432A"


def one_suit_each():
    """4 players, dealer 3, a whole suit each: seat 0 ♣, 1 ♦, 2 ♥, 3 ♠ (13 cards each)."""
    return deal([CLUBS, DIAMONDS, HEARTS, SPADES], dealer=3)


def legal_codes(state, seat):
    return sorted(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))


def test_the_seven_of_diamonds_holder_is_on_turn_and_may_only_play_the_seven_of_diamonds():
    state = one_suit_each()
    assert GAME.to_act(state) == frozenset({1})
    assert legal_codes(state, 1) == ["7D"]
    for seat in (0, 2, 3):
        assert GAME.legal_actions(state, seat) == ()


def test_any_other_first_card_is_refused_because_the_seven_of_diamonds_opens():
    state = one_suit_each()
    assert illegal(state, 1, "8D") == Reason.of("fantan.seven_of_diamonds_first", card="8D")
    assert illegal(state, 0, "7C", NotYourTurn).code == "game.not_your_turn"


def test_turns_go_clockwise_from_the_holder_of_the_seven_of_diamonds():
    state = one_suit_each()
    order = []
    for seat, code in [(1, "7D"), (2, "7H"), (3, "7S"), (0, "7C"), (1, "8D"), (2, "8H")]:
        state, events = act(state, seat, code)
        assert events == [CardPlayed(seat, card(code))]
        order.append(min(GAME.to_act(state)))
    assert order == [2, 3, 0, 1, 2, 3]


def test_a_seven_opens_its_row_and_is_the_only_card_of_an_unopened_suit():
    state, _ = moves(one_suit_each(), "1:7D")
    assert legal_codes(state, 2) == ["7H"]
    assert illegal(state, 2, "8H") == Reason.of("fantan.row_not_open", card="8H", suit="H")
    state, _ = act(state, 2, "7H")
    assert state.rows[card("7H").suit] == (7, 7)


def test_rows_build_up_to_the_king_and_down_to_the_ace_one_rank_at_a_time():
    state, _ = moves(one_suit_each(), "1:7D 2:7H 3:7S 0:7C")
    suit_of = {0: "C", 1: "D", 2: "H", 3: "S"}
    for rank in UP[1:] + DOWN[:-1]:
        for seat in (1, 2, 3, 0):
            state, _ = act(state, seat, rank + suit_of[seat])
    assert state.rows == ((2, 13), (2, 13), (2, 13), (2, 13))
    assert legal_codes(state, 1) == ["AD"]
    state, events = act(state, 1, "AD")  # seat 1 played first every round: it goes out first
    assert events[:2] == [CardPlayed(1, card("AD")), HandWon(1, 1)]
    assert events[2] == HandScored(1, (1, 0, 1, 1), (1, 0, 1, 1), (1, 0, 1, 1))


def test_a_card_must_sit_next_to_an_end_of_its_row():
    state, _ = moves(one_suit_each(), "1:7D 2:7H 3:7S 0:7C")
    assert legal_codes(state, 1) == ["6D", "8D"]
    assert illegal(state, 1, "9D") == Reason.of(
        "fantan.not_adjacent", card="9D", low="7D", high="7D"
    )
    state, _ = moves(state, "1:8D 2:8H 3:8S 0:8C 1:6D 2:6H 3:6S 0:6C 1:5D 2:9H 3:9S 0:9C")
    assert legal_codes(state, 1) == ["4D", "9D"]
    assert illegal(state, 1, "3D") == Reason.of(
        "fantan.not_adjacent", card="3D", low="5D", high="8D"
    )


def test_the_ace_is_low_so_it_cannot_follow_the_king():
    state = deal(["7D 8D 9D TD JD QD KD AD 7S", "3C", "4C"], dealer=2)
    state, _ = moves(state, "0:7D 0:8D 0:9D 0:TD 0:JD 0:QD 0:KD")
    assert illegal(state, 0, "AD") == Reason.of(
        "fantan.not_adjacent", card="AD", low="7D", high="KD"
    )


def test_the_rule_book_example_a_nine_a_six_and_another_seven_are_all_playable():
    # ♦7 and ♦8 are on the table; seat 1 holds 9♦, 6♦ and 7♣.
    state = deal(["KH QH", "7D 9D 6D 7C", "8D KS"], dealer=0)
    state, events = moves(state, "1:7D 2:8D")
    assert events[-1] == Passed(0)  # seat 0 holds nothing playable
    assert state.rows[card("7D").suit] == (7, 8)
    assert legal_codes(state, 1) == ["6D", "7C", "9D"]


def test_a_seat_that_can_play_must_play_so_pass_is_refused():
    state = one_suit_each()
    assert illegal(state, 1, "pass") == Reason.of("fantan.must_play")
    state, _ = act(state, 1, "7D")
    assert illegal(state, 2, "pass") == Reason.of("fantan.must_play")
    assert illegal(state, 3, "pass", NotYourTurn).code == "game.not_your_turn"


def test_a_seat_with_nothing_playable_passes_automatically_with_an_explicit_event():
    # 3 players, dealer 0, the whole deck: seat 1 gets 18 cards, seats 2 and 0 get 17.
    seat1 = DIAMONDS + " 2S 3S 4S 5S 6S"
    seat2 = "2C 3C 4C 5C 6C 8C 9C TC JC QC KC AC 2H 3H 4H 5H 6H"
    seat0 = "7C 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS"
    state = deal([seat0, seat1, seat2], dealer=0)
    assert [len(h) for h in state.hands] == [17, 18, 17]
    state, events = act(state, 1, "7D")
    assert events == [CardPlayed(1, card("7D")), Passed(2)]  # seat 2: no seven, no open row
    assert GAME.to_act(state) == frozenset({0})
    state, events = act(state, 0, "7S")
    assert events == [CardPlayed(0, card("7S"))]
    state, events = act(state, 1, "6S")
    assert events == [CardPlayed(1, card("6S")), Passed(2)]
    assert GAME.to_act(state) == frozenset({0})
    state, events = act(state, 0, "7C")  # now seat 2 can play clubs
    state, events = act(state, 1, "8D")
    assert events == [CardPlayed(1, card("8D"))]
    assert legal_codes(state, 2) == ["6C", "8C"]


def test_forced_passes_skip_every_seat_until_one_can_play_even_the_one_who_just_played():
    state = deal(["KH", "7D 8D 9D", "QS 2C"], dealer=0)
    state, events = act(state, 1, "7D")
    assert events == [CardPlayed(1, card("7D")), Passed(2), Passed(0)]
    assert GAME.to_act(state) == frozenset({1})


def test_a_seven_may_be_played_at_any_time_after_the_opening():
    state = deal(["7S 2H", "7D 8D", "7C 3H"], dealer=0)
    state, _ = act(state, 1, "7D")
    assert legal_codes(state, 2) == ["7C"]
    state, _ = act(state, 2, "7C")
    assert legal_codes(state, 0) == ["7S"]


def test_a_card_not_in_hand_is_refused():
    state = one_suit_each()
    assert illegal(state, 1, "7C") == Reason.of("fantan.not_in_hand", card="7C")


def test_with_any_seven_starts_and_no_seven_of_diamonds_only_a_seven_may_open():
    options = {"any_seven_starts": True, "equal_hands": True}
    state = deal(["2C 7S", "7H 8H", "9H 3C"], dealer=2, options=options, aside="7D")
    assert GAME.to_act(state) == frozenset({0})  # seat 0 is the dealer's left
    assert legal_codes(state, 0) == ["7S"]
    assert illegal(state, 0, "2C") == Reason.of("fantan.seven_first", card="2C")
    state, _events = act(state, 0, "7S")
    assert GAME.to_act(state) == frozenset({1})


def test_a_legal_play_is_exactly_one_for_which_why_illegal_gives_none():
    state, _ = moves(one_suit_each(), "1:7D 2:7H 3:7S 0:7C 1:8D")
    for seat in range(4):
        for code in [*CLUBS.split(), *DIAMONDS.split(), *HEARTS.split(), *SPADES.split()]:
            action = Play(card(code))
            legal = action in GAME.legal_actions(state, seat)
            if seat in GAME.to_act(state):
                assert legal == (GAME.why_illegal(state, seat, action) is None)
            else:
                assert not legal
