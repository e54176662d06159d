"""Illegal actions raise with the right reason and change nothing; automatic moves."""

from __future__ import annotations

import pytest

from tavola.games.doppelkopf import GAME
from tavola.rules.driver import play_match
from tavola.rules.errors import GameOver, IllegalAction, NotYourTurn


def refused(state, seat, code, error=IllegalAction):
    before = state
    with pytest.raises(error) as err:
        GAME.decide(state, seat, GAME.decode_action(code))
    assert state == before
    return err.value.reason.code


def test_a_card_that_does_not_follow_suit_is_refused(doko):
    state = doko.play(doko.normal_game(), "AC")  # seat 1 holds ♣A and ♣9
    assert refused(state, 1, "QC") == "doppelkopf.must_follow"
    assert GAME.why_illegal(state, 1, GAME.decode_action("QC")).param_dict()["led"] == "C"


def test_a_trump_lead_must_be_followed_with_a_trump(doko):
    state = doko.play(doko.normal_game(), "QC")
    assert refused(state, 1, "AC") == "doppelkopf.must_follow"
    assert GAME.why_illegal(state, 1, GAME.decode_action("AC")).param_dict()["led"] == "trump"


def test_a_card_not_in_hand_is_refused(doko):
    assert refused(doko.normal_game(), 0, "QS") == "doppelkopf.not_in_hand"


def test_a_seat_that_may_not_act_gets_not_your_turn(doko):
    state = doko.play(doko.normal_game(), "AC")
    state = doko.tricks(state, 3)  # nobody can announce any more; one seat on turn
    others = [s for s in range(4) if s not in GAME.to_act(state)]
    assert others
    assert refused(state, others[0], "9S", NotYourTurn) == "game.not_your_turn"


def test_declaring_twice_is_refused(doko):
    state = doko.act(doko.start(), 0, "healthy")
    assert GAME.why_illegal(state, 0, GAME.decode_action("solo Q")).code == (
        "doppelkopf.already_declared"
    )


def test_actions_of_another_phase_are_refused(doko):
    state = doko.normal_game()
    assert refused(state, 0, "accept") == "doppelkopf.not_now"
    assert refused(state, 0, "give 9S") == "doppelkopf.not_now"
    assert refused(state, 0, "healthy") == "doppelkopf.not_now"
    assert refused(doko.start(), 0, "re") == "doppelkopf.not_now"
    assert refused(doko.start(), 0, "QC") == "doppelkopf.not_now"


def test_nothing_is_accepted_after_the_match():
    out = play_match(GAME, 4, {"match": "one_game"}, seed=b"\x31" * 32)
    assert refused(out.state, 0, "healthy", GameOver) == "game.over"


def test_the_automatic_move_is_healthy_then_the_cheapest_legal_card(doko):
    state = doko.start()
    action, reason = GAME.automatic_action(state, 2)
    assert GAME.encode_action(action) == "healthy" and reason.code == "doppelkopf.auto.healthy"
    state = doko.play(doko.normal_game(), "AC")
    action, reason = GAME.automatic_action(state, 1)
    assert GAME.encode_action(action) == "9C" and reason.code == "doppelkopf.auto.card"
    assert reason.code in GAME.messages()


def test_a_seat_that_may_only_announce_waits_as_its_automatic_move(doko):
    state = doko.normal_game()
    assert 2 in GAME.to_act(state)
    action, reason = GAME.automatic_action(state, 2)
    assert GAME.encode_action(action) == "wait" and reason.code == "doppelkopf.auto.wait"
    after = doko.act(state, 2, "wait")
    assert 2 not in GAME.to_act(after)


def test_a_seat_not_to_act_has_no_automatic_move(doko):
    state = doko.act(doko.normal_game(), 2, "wait")
    with pytest.raises(NotYourTurn) as err:
        GAME.automatic_action(state, 2)
    assert err.value.reason.code == "game.not_your_turn"


def test_the_automatic_answer_to_an_armut_is_decline(doko):
    poor = (
        "QC TH JC AD KD 9D AC TC KC AS 9H KH",
        "QC TD 9D AC 9C TS KS AH KH 9S KC KS",
        "TH QS QH JH AD KD TC 9C AS TS AH 9H",
        "QH QD QD JC JS JH JD JD TD QS JS 9S",
    )
    state = doko.declare(doko.start(poor, options={"armut": True}), s1="poverty")
    action, reason = GAME.automatic_action(state, 2)
    assert GAME.encode_action(action) == "decline" and reason.code == "doppelkopf.auto.decline"
    state = doko.act(state, 2, "accept")
    action, reason = GAME.automatic_action(state, 2)
    assert GAME.encode_action(action) == "give 9C" and reason.code == "doppelkopf.auto.give"


def test_every_reason_code_has_english_and_portuguese_text():
    catalogue = GAME.messages()
    for code in [
        "doppelkopf.must_follow",
        "doppelkopf.too_late",
        "doppelkopf.not_now",
        "doppelkopf.line.won",
        "doppelkopf.bock.tie",
        "doppelkopf.redeal.thrown",
    ]:
        assert catalogue[code]["en"] and catalogue[code]["pt"]
    text = catalogue["doppelkopf.too_late"]["pt"].format(call="re", cards=11)
    assert "11" in text
