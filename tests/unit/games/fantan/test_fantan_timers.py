"""Fan Tan turn timers as table options: 20 s a card by default, changeable within bounds,
off at a table that says so; a pass is automatic, never timed; the automatic card with its
reason; no pauses between hands."""

from __future__ import annotations

import pytest
from fantan_kit import GAME, act, deal

from tavola.games.fantan import Passed, Play
from tavola.rules.cards import card
from tavola.rules.errors import IllegalAction, Reason
from tavola.rules.messages import render

HANDS = ["KH", "7D 8D 7C 6D 2S", "5D 8S"]


def test_a_card_has_twenty_seconds_by_default():
    state = deal(HANDS, dealer=0)
    assert GAME.decision(state, 1) == "card"
    assert GAME.turn_timer(state, 1) == 20


def test_only_the_seat_on_turn_has_a_timer():
    state = deal(HANDS, dealer=0)
    assert [GAME.turn_timer(state, s) for s in (0, 2)] == [None, None]
    assert [GAME.decision(state, s) for s in (0, 2)] == [None, None]


def test_a_table_may_set_the_seconds_of_a_card():
    assert GAME.turn_timer(deal(HANDS, dealer=0, options={"timer_card": "8"}), 1) == 8
    assert GAME.turn_timer(deal(HANDS, dealer=0, options={"timer_card": 300}), 1) == 300


def test_a_casual_table_without_timers_times_no_card():
    assert GAME.turn_timer(deal(HANDS, dealer=0, options={"timers": "off"}), 1) is None


@pytest.mark.parametrize("value", ["0", "4", "301"])
def test_timer_seconds_out_of_bounds_are_refused(value):
    with pytest.raises(IllegalAction) as refused:
        GAME.parse_options({"timer_card": value})
    assert refused.value.reason.code == "options.invalid"


def test_timer_options_are_not_house_rules():
    assert GAME.house_rules({"timers": False, "timer_card": 60}) == ()


def test_a_pass_is_never_a_decision_it_is_made_for_the_seat_at_once():
    state, events = act(deal(HANDS, dealer=0), 1, "7D")
    assert Passed(2) in events and Passed(0) in events and state.turn == 1
    assert [GAME.turn_timer(state, s) for s in range(3)] == [None, 20, None]


def test_the_automatic_card_opens_least_for_the_others_with_its_reason():
    state = deal(HANDS, dealer=0)
    for seat, code in ((1, "7D"), (1, "6D"), (2, "5D")):
        state, _ = act(state, seat, code)
    action, reason = GAME.automatic_action(state, 1)
    assert action == Play(card("8D"))  # not the seven of clubs, which opens a row
    assert reason == Reason.of("fantan.auto.safe_card", card="8D")
    assert render(reason, "pt") == "O tempo acabou: o 8♦ foi jogado por você."
    assert render(reason, "pt-PT") == "O tempo acabou: foi jogado o 8♦ por ti."
    GAME.decide(state, 1, action)


def test_fan_tan_pauses_neither_between_hands_nor_before_the_end():
    state, _ = act(deal(["7D", "8D", "9D"], dealer=0, options={"hands": 1}), 0, "7D")
    assert GAME.is_over(state) and GAME.pause_before_end(state) is None
    state, _ = act(deal(["7D", "8D", "9D"], dealer=0, options={"hands": 2}), 0, "7D")
    assert GAME.chance(state) is not None and GAME.pause_before_chance(state) is None
