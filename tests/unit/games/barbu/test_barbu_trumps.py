"""Trumps: the declarer names the suit and leads; follow suit; over-trump on a trump lead;
when void, a trump that wins if you have one, else a free discard (or, with
``void_must_trump``, any trump)."""

from __future__ import annotations

from barbu_kit import GAME, SUIT_HANDS, choose, dealt, events_of, play

from tavola.games.barbu import ContractChosen, DealScored, TrickWon
from tavola.rules.cards import Suit

BOOK = ("KH AH 2C 3C", "QS 2D 3D 4D", "3S 9S 5D 6D", "4H 5H 6H 7H")
BOOK_WITH_KING = ("KH AH 2C 3C", "QS 2D 3D 4D", "3S 9S KS 5D", "4H 5H 6H 7H")
TRUMP_LEAD = ("5S 2C 3C 4C", "3S 8S JS 2D", "2S 4S 6D 7D", "2H 3H 4H 5H")


def legal(state, seat):
    return sorted(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))


def reason(state, seat, code):
    found = GAME.why_illegal(state, seat, GAME.decode_action(code))
    return None if found is None else (found.code, found.param_dict())


def test_the_declarer_names_the_trump_suit_and_leads():
    state = dealt(BOOK, declarer=0)
    state2, events = _act_contract(state, "trumps S")
    assert events[0] == ContractChosen(1, 0, _contract("TRUMPS"), Suit.SPADES, None)
    state2 = choose(state, "trumps S")
    assert state2.trump == Suit.SPADES and GAME.to_act(state2) == frozenset({0})
    assert GAME.view(state2, 3).trump == Suit.SPADES


def test_book_example_a_trump_that_cannot_win_leaves_a_free_choice():
    state = choose(dealt(BOOK), "trumps S")
    state, _ = play(state, "KH QS")
    assert legal(state, 2) == ["3S", "5D", "6D", "9S"]


def test_book_example_holding_a_trump_that_wins_it_is_the_only_legal_card():
    state = choose(dealt(BOOK_WITH_KING), "trumps S")
    state, _ = play(state, "KH QS")
    assert legal(state, 2) == ["KS"]
    assert reason(state, 2, "5D") == ("barbu.must_trump_to_win", {"card": "5D", "trump": "QS"})
    assert reason(state, 2, "3S") == ("barbu.must_trump_to_win", {"card": "3S", "trump": "QS"})


def test_a_void_player_must_trump_when_no_trump_is_in_the_trick_yet():
    state = choose(dealt(BOOK), "trumps S")
    state, _ = play(state, "KH")
    assert legal(state, 1) == ["QS"]
    assert reason(state, 1, "2D") == ("barbu.must_trump", {"card": "2D", "suit": "S"})


def test_a_player_holding_the_suit_led_must_follow_it_and_need_not_win():
    state = choose(dealt(BOOK), "trumps S")
    state, _ = play(state, "KH QS 9S")
    assert legal(state, 3) == ["4H", "5H", "6H", "7H"]
    assert reason(state, 3, "7H") is None


def test_on_a_trump_lead_a_player_must_beat_the_highest_trump_if_able():
    state = choose(dealt(TRUMP_LEAD), "trumps S")
    state, _ = play(state, "5S")
    assert legal(state, 1) == ["8S", "JS"]
    assert reason(state, 1, "3S") == ("barbu.must_overtrump", {"card": "3S", "trump": "5S"})
    assert reason(state, 1, "2D")[0] == "barbu.must_follow"


def test_on_a_trump_lead_a_player_who_cannot_beat_it_plays_any_trump():
    state = choose(dealt(TRUMP_LEAD), "trumps S")
    state, _ = play(state, "5S 8S")
    assert legal(state, 2) == ["2S", "4S"]
    assert reason(state, 2, "6D")[0] == "barbu.must_follow"


def test_on_a_trump_lead_a_player_without_trumps_discards_freely():
    state = choose(dealt(TRUMP_LEAD), "trumps S")
    state, _ = play(state, "5S 8S 2S")
    assert legal(state, 3) == ["2H", "3H", "4H", "5H"]


def test_the_highest_trump_wins_the_trick_and_its_winner_leads():
    state = choose(dealt(BOOK_WITH_KING), "trumps S")
    state, events = play(state, "KH QS KS 7H")
    (won,) = events_of(events, TrickWon)
    assert won.winner == 2 and won.points == 5
    assert GAME.to_act(state) == frozenset({2})


def test_the_highest_of_several_trumps_wins():
    state = choose(dealt(TRUMP_LEAD), "trumps D")
    state, events = play(state, "2C 2D 6D 2H")
    assert events_of(events, TrickWon)[0].winner == 2


def test_without_trumps_in_the_trick_the_highest_card_of_the_suit_led_wins():
    state = choose(dealt(("2C AS", "5C KS", "9C QS", "4C JS")), "trumps H")
    state, events = play(state, "2C 5C 9C 4C")
    assert events_of(events, TrickWon)[0].winner == 2


def test_void_must_trump_makes_a_losing_trump_compulsory():
    state = choose(dealt(BOOK, options={"void_must_trump": True}), "trumps S")
    state, _ = play(state, "KH QS")
    assert legal(state, 2) == ["3S", "9S"]
    assert reason(state, 2, "5D") == ("barbu.must_trump", {"card": "5D", "suit": "S"})


def test_void_must_trump_still_requires_the_winning_trump_when_held():
    state = choose(dealt(BOOK_WITH_KING, options={"void_must_trump": True}), "trumps S")
    state, _ = play(state, "KH QS")
    assert legal(state, 2) == ["KS"]


def test_trumps_scores_five_per_trick_sixty_five_in_all():
    state = choose(dealt(SUIT_HANDS), "trumps S")
    ranks = "23456789TJQKA"
    state, events = play(state, " ".join(f"{r}S {r}H {r}D {r}C" for r in ranks))
    assert [t.points for t in events_of(events, TrickWon)] == [5] * 13
    assert events_of(events, DealScored)[0].raw == (65, 0, 0, 0)


def _contract(name):
    from tavola.games.barbu import Contract

    return Contract[name]


def _act_contract(state, code):
    events = GAME.decide(state, state.declarer, GAME.decode_action("contract " + code))
    return GAME.fold(state, events), events
