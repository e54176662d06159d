"""Cards, points, trump orders, trick winners and following suit."""

from __future__ import annotations

import pytest

from tavola.games.doppelkopf.model import Contract
from tavola.games.doppelkopf.trumps import (
    card_points,
    card_rules,
    deck,
    playable,
    trick_winner,
    trump_order,
)
from tavola.rules.cards import PlayedCard, card, cards
from tavola.rules.errors import IllegalAction


def plays(text: str, first: int = 0) -> tuple[PlayedCard, ...]:
    return tuple(PlayedCard((first + i) % 4, c) for i, c in enumerate(cards(text)))


def winner(text: str, contract: Contract = Contract.NORMAL, **kw: bool) -> int:
    second = kw.pop("second_dulle", False)
    return trick_winner(plays(text), card_rules(contract, **kw), second)


def test_the_double_deck_has_48_cards_worth_240_points():
    assert len(deck()) == 48
    assert card_points(deck()) == 240
    assert all(deck().count(c) == 2 for c in set(deck()))


def test_without_nines_the_deck_has_40_cards_still_worth_240_points():
    assert len(deck(without_nines=True)) == 40
    assert card_points(deck(without_nines=True)) == 240


def test_card_points_are_ace_11_ten_10_king_4_queen_3_jack_2_nine_0():
    assert [card_points([card(c)]) for c in ["AS", "TS", "KS", "QS", "JS", "9S"]] == [
        11,
        10,
        4,
        3,
        2,
        0,
    ]


def test_the_normal_game_trumps_run_from_the_dulle_down_to_the_nine_of_diamonds():
    expected = cards("TH QC QS QH QD JC JS JH JD AD TD KD 9D")
    assert trump_order(Contract.NORMAL) == expected


def test_plain_hearts_are_ace_king_nine_in_a_normal_game():
    rules = card_rules(Contract.NORMAL)
    hearts = [c for c in set(deck()) if c.suit.letter == "H" and not rules.is_trump(c)]
    assert sorted(c.code for c in hearts) == ["9H", "AH", "KH"]


def test_the_dulle_beats_the_club_queen():
    assert winner("QC TH 9D AS") == 1


def test_of_two_identical_cards_the_first_played_wins():
    assert winner("9S QC QC 9S") == 1


def test_of_two_dullen_the_first_wins_in_the_official_rules():
    assert winner("TH TH 9D 9D") == 0


def test_with_the_second_dulle_house_rule_the_second_dulle_beats_the_first():
    assert winner("TH TH 9D 9D", second_dulle=True) == 1


def test_a_trump_beats_any_plain_card():
    assert winner("AC TC 9D KC") == 2


def test_the_highest_card_of_the_suit_led_wins_when_no_trump_falls():
    assert winner("KS AS 9S AC") == 1


def test_a_card_of_another_plain_suit_never_wins():
    assert winner("9S AC AH KS") == 3


def test_the_ten_beats_the_king_in_a_plain_suit():
    assert winner("KC TC 9C 9C") == 1


def test_trumps_count_as_one_suit_for_following():
    rules = card_rules(Contract.NORMAL)
    hand = cards("QS 9D AS KH")
    assert set(playable(hand, card("JC"), rules)) == set(cards("QS 9D"))


def test_a_heart_ten_does_not_follow_hearts_it_is_a_trump():
    rules = card_rules(Contract.NORMAL)
    hand = cards("TH 9S")
    assert set(playable(hand, card("AH"), rules)) == set(cards("TH 9S"))


def test_a_player_without_the_suit_led_may_play_any_card():
    rules = card_rules(Contract.NORMAL)
    hand = cards("AS QC")
    assert set(playable(hand, card("AH"), rules)) == set(hand)


def test_in_a_queen_solo_only_the_queens_are_trumps():
    assert trump_order(Contract.QUEEN_SOLO) == cards("QC QS QH QD")
    assert winner("TH QD 9H AH", Contract.QUEEN_SOLO) == 1
    assert winner("JH AH KH 9H", Contract.QUEEN_SOLO) == 1


def test_in_a_jack_solo_only_the_jacks_are_trumps_and_queens_are_plain():
    assert trump_order(Contract.JACK_SOLO) == cards("JC JS JH JD")
    assert winner("QS AS JD KS", Contract.JACK_SOLO) == 2
    assert winner("QS KS TS 9S", Contract.JACK_SOLO) == 2


def test_in_a_suit_solo_the_chosen_suit_takes_the_place_of_diamonds():
    assert trump_order(Contract.CLUBS_SOLO) == cards("TH QC QS QH QD JC JS JH JD AC TC KC 9C")
    assert winner("AD 9C KD TD", Contract.CLUBS_SOLO) == 1


def test_in_a_hearts_solo_the_dulle_stays_highest_and_hearts_are_ace_king_nine():
    assert trump_order(Contract.HEARTS_SOLO) == cards("TH QC QS QH QD JC JS JH JD AH KH 9H")
    assert winner("AD 9H TD KD", Contract.HEARTS_SOLO) == 1


def test_in_a_diamonds_solo_the_trumps_are_those_of_the_normal_game():
    assert trump_order(Contract.DIAMONDS_SOLO) == trump_order(Contract.NORMAL)


def test_in_fleischlos_there_are_no_trumps_and_suits_run_ace_ten_king_queen_jack_nine():
    assert trump_order(Contract.FLEISCHLOS) == ()
    assert winner("QS JS AS TH", Contract.FLEISCHLOS) == 2
    assert winner("JS QS 9S KS", Contract.FLEISCHLOS) == 3


def test_with_schweinchen_the_diamond_aces_are_above_the_dullen():
    assert trump_order(Contract.NORMAL, schweinchen=True)[:2] == cards("AD TH")
    assert winner("TH AD QC 9D", schweinchen=True) == 1


def test_a_card_that_is_not_in_the_deck_cannot_be_decoded():
    from tavola.games.doppelkopf import GAME
    from tavola.rules.errors import MalformedAction

    with pytest.raises(MalformedAction):
        GAME.decode_action("7D")
    with pytest.raises(MalformedAction):
        GAME.decode_action("give ZZ")
    assert issubclass(MalformedAction, Exception)
    assert not issubclass(MalformedAction, IllegalAction)


PIGS = (
    "QC TH JC AD KD 9D AC TC KC AS AD KH",  # seat 0: both ♦A
    "QC QS JS TD 9D AC 9C TS KS AH KH 9S",
    "TH QS QH JH 9H KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD KC KS 9S",
)


def test_schweinchen_are_shown_when_the_first_is_played_and_beat_the_dulle(doko):
    from tavola.games.doppelkopf import GAME
    from tavola.games.doppelkopf import events as ev

    state = doko.healthy(doko.start(PIGS, options={"schweinchen": True}))
    assert GAME.view(state, 1).schweinchen is None
    events = doko.events(state, 0, "AD")
    assert ev.SchweinchenShown(0) in events
    state = doko.play(state, "AD TD TH QD")
    assert GAME.view(state, 1).schweinchen == 0
    assert state.deal.tricks[-1].winner == 0


def test_without_the_house_rule_the_diamond_ace_is_a_low_trump(doko):
    state = doko.play(doko.healthy(doko.start(PIGS)), "AD TD TH QD")
    assert state.deal.tricks[-1].winner == 2


def test_schweinchen_do_not_apply_in_a_solo(doko):
    state = doko.declare(doko.start(PIGS, options={"schweinchen": True}), s1="solo D")
    assert state.deal.schweinchen is None


def test_the_second_dulle_wins_a_played_trick_only_with_the_house_rule(doko):
    state = doko.play(doko.healthy(doko.start(PIGS)), "TH QS TH QD")
    assert state.deal.tricks[-1].winner == 0
    state = doko.healthy(doko.start(PIGS, options={"second_dulle": True}))
    state = doko.play(state, "TH QS TH QD")
    assert state.deal.tricks[-1].winner == 2
