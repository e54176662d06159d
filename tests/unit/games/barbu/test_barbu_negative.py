"""The five negative contracts: following suit, the heart-lead restriction, penalties and
the early end once every scoring card is captured."""

from __future__ import annotations

import pytest
from barbu_kit import GAME, SUIT_HANDS, choose, dealt, events_of, play

from tavola.games.barbu import DealEndedEarly, DealScored, TrickWon
from tavola.rules.cards import cards

SHORT = ("AS 2C 5H", "3H 3C 4D", "2S 4C 6H", "KS 5C 7H")

# Four queens spread out; trick by trick (seat: card) they all fall by trick 4.
QUEENS = (
    "QS QH QD QC 2S 3S 4S 5S 6S 7S 8S 9S TS",
    "KS KH KD KC AS JS 2H 3H 4H 5H 6H 7H 8H",
    "AH JH TH 9H 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "AD JD 2C 3C 4C 5C 6C 7C 8C 9C TC JC AC",
)
QUEENS_FOUR_TRICKS = "QS AS 2D 2C  KD 3D AD QD  AC QC KC 4D  JD QH 2H 5D"
QUEENS_KING_FOUR_TRICKS = "QS AS 2D 2C  KD 3D AD QD  AC QC KC 4D  JD QH KH 5D"

# Every heart is discarded on the declarer's spades: all 13 are taken after 5 tricks.
HEARTS = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "6H 7H 8H 9H JD QD KD AD 2C 3C 4C 5C 6C",
    "TH JH QH KH AH 7C 8C 9C TC JC QC KC AC",
)
HEARTS_FIVE_TRICKS = "2S 2H 6H TH  3S 3H 7H JH  4S 4H 8H QH  5S 5H 9H KH  6S 2D JD AH"


def reason_code(state, seat, code):
    reason = GAME.why_illegal(state, seat, GAME.decode_action(code))
    return None if reason is None else reason.code


def test_the_declarer_leads_the_first_trick():
    state = choose(dealt(SHORT, declarer=2), "no-tricks")
    assert GAME.to_act(state) == frozenset({2}) and state.trick.leader == 2


def test_a_player_must_follow_suit_when_able():
    state = choose(dealt(SHORT), "no-tricks")
    state, _ = play(state, "AS 3H")
    assert reason_code(state, 2, "4C") == "barbu.must_follow"
    assert reason_code(state, 2, "6H") == "barbu.must_follow"
    assert [GAME.encode_action(a) for a in GAME.legal_actions(state, 2)] == ["2S"]


def test_a_player_void_in_the_suit_led_may_discard_any_card():
    state = choose(dealt(SHORT), "no-queens")
    state, _ = play(state, "AS")
    assert sorted(GAME.encode_action(a) for a in GAME.legal_actions(state, 1)) == ["3C", "3H", "4D"]


def test_the_highest_card_of_the_suit_led_wins_and_its_winner_leads_next():
    state = choose(dealt(SHORT), "no-tricks")
    state, events = play(state, "2C 3C 4C 5C")
    (won,) = events_of(events, TrickWon)
    assert won.winner == 3 and won.points == -2
    assert GAME.to_act(state) == frozenset({3})


@pytest.mark.parametrize("contract", ["no-hearts", "no-king"])
def test_a_heart_cannot_be_led_while_holding_another_suit(contract):
    state = choose(dealt(SHORT), contract)
    assert reason_code(state, 0, "5H") == "barbu.no_heart_lead"
    assert sorted(GAME.encode_action(a) for a in GAME.legal_actions(state, 0)) == ["2C", "AS"]


@pytest.mark.parametrize("contract", ["no-hearts", "no-king"])
def test_discarding_a_heart_does_not_lift_the_heart_lead_restriction(contract):
    state = choose(dealt(SHORT), contract)
    state, _ = play(state, "AS 3H 2S KS")  # seat 1 discarded a heart; seat 0 won
    assert reason_code(state, 0, "5H") == "barbu.no_heart_lead"


@pytest.mark.parametrize("contract", ["no-hearts", "no-king"])
def test_a_player_holding_only_hearts_may_lead_a_heart(contract):
    state = choose(dealt(SHORT), contract)
    state, _ = play(state, "AS 3H 2S KS  2C 3C 4C 5C")
    assert state.hands[3] == cards("7H")
    assert reason_code(state, 3, "7H") is None


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-last-two"])
def test_hearts_may_be_led_freely_in_the_other_negative_contracts(contract):
    state = choose(dealt(SHORT), contract)
    assert reason_code(state, 0, "5H") is None


def test_no_tricks_costs_two_points_per_trick():
    state = choose(dealt(QUEENS), "no-tricks")
    state, events = play(state, QUEENS_FOUR_TRICKS)
    assert [e.points for e in events_of(events, TrickWon)] == [-2, -2, -2, -2]
    assert state.points == (0, -2, 0, -6)
    assert not events_of(events, DealEndedEarly)


def test_no_tricks_is_always_played_out_and_totals_minus_26():
    state = choose(dealt(SUIT_HANDS), "no-tricks")
    state, events = play(state, _suit_hands_tricks())
    assert len(events_of(events, TrickWon)) == 13
    (scored,) = events_of(events, DealScored)
    assert scored.raw == (-26, 0, 0, 0) and scored.adjusted == scored.raw


def test_no_queens_costs_six_per_queen_and_ends_when_the_fourth_is_taken():
    state = choose(dealt(QUEENS), "no-queens")
    state, events = play(state, QUEENS_FOUR_TRICKS)
    tricks = events_of(events, TrickWon)
    assert [(t.winner, t.points) for t in tricks] == [(1, -6), (3, -6), (3, -6), (3, -6)]
    assert tricks[-1].penalty_cards == cards("QH")
    assert events_of(events, DealEndedEarly) == [DealEndedEarly(1, 4)]
    (scored,) = events_of(events, DealScored)
    assert scored.raw == (0, -6, 0, -18) and sum(scored.raw) == -24
    assert state.phase == "deal" and GAME.to_act(state) == frozenset()


def test_with_play_out_all_tricks_the_deal_goes_on_after_the_fourth_queen():
    state = choose(dealt(QUEENS, options={"play_out_all_tricks": True}), "no-queens")
    state, events = play(state, QUEENS_FOUR_TRICKS)
    assert not events_of(events, DealEndedEarly) and not events_of(events, DealScored)
    assert state.phase == "play" and GAME.to_act(state) == frozenset({3})
    assert state.points == (0, -6, 0, -18)


def test_no_last_two_costs_ten_for_the_twelfth_trick_and_twenty_for_the_thirteenth():
    hands = (
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 2C 3C",
        SUIT_HANDS[1],
        SUIT_HANDS[2],
        "2S 3S 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    spades = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"]
    diamonds = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"]
    last = ["2S", "3S", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]
    tricks = [f"{s} {h} {d} {c}" for s, h, d, c in zip(spades, hearts, diamonds, last, strict=True)]
    tricks += ["2C KH KD KC", "AC 3C AH AD"]
    state = choose(dealt(hands), "no-last-two")
    state, events = play(state, " ".join(tricks))
    won = events_of(events, TrickWon)
    assert [t.points for t in won[:11]] == [0] * 11
    assert (won[11].winner, won[11].points) == (3, -10)
    assert (won[12].winner, won[12].points) == (3, -20)
    assert events_of(events, DealScored)[0].raw == (0, 0, 0, -30)


def test_no_last_two_is_always_played_out():
    state = choose(dealt(QUEENS), "no-last-two")
    state, events = play(state, QUEENS_FOUR_TRICKS)
    assert not events_of(events, DealEndedEarly) and state.tricks_played == 4


def test_no_hearts_costs_two_per_heart_and_six_for_the_ace_and_ends_with_the_last_heart():
    state = choose(dealt(HEARTS), "no-hearts")
    state, events = play(state, HEARTS_FIVE_TRICKS)
    assert [t.points for t in events_of(events, TrickWon)] == [-6, -6, -6, -6, -6]
    assert events_of(events, DealEndedEarly) == [DealEndedEarly(1, 5)]
    assert events_of(events, DealScored)[0].raw == (-30, 0, 0, 0)
    assert len(state.captured[0]) == 13


def test_no_king_of_hearts_costs_twenty_and_ends_when_the_king_is_taken():
    state = choose(dealt(QUEENS), "no-king")
    state, events = play(state, QUEENS_KING_FOUR_TRICKS)
    assert [t.points for t in events_of(events, TrickWon)] == [0, 0, 0, -20]
    assert events_of(events, DealEndedEarly) == [DealEndedEarly(1, 4)]
    assert events_of(events, DealScored)[0].raw == (0, 0, 0, -20)


def test_captured_penalty_cards_are_shown_face_up_to_everyone():
    state = choose(dealt(QUEENS, options={"play_out_all_tricks": True}), "no-queens")
    state, _ = play(state, QUEENS_FOUR_TRICKS)
    for seat in (None, 0, 1, 2, 3):
        captured = {c.seat: c.cards for c in GAME.view(state, seat).captured}
        assert captured == {0: (), 1: cards("QS"), 2: (), 3: cards("QD QC QH")}


def _suit_hands_tricks() -> str:
    """SUIT_HANDS: the declarer (spades) leads low to high, the others discard low to high."""
    ranks = "23456789TJQKA"
    return " ".join(f"{r}S {r}H {r}D {r}C" for r in ranks)
