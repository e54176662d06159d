"""Barbu turn timers as table options — 45 s to choose a contract, 20 s a doubling turn,
25 s a card, 20 s a Domino card by default — changeable within bounds, off at a table
that says so; the automatic move of every kind of decision with its reason; no pauses
between deals."""

from __future__ import annotations

from typing import Any

import pytest
from barbu_kit import GAME, SUIT_HANDS, act, choose, dealt, on_turn

from tavola.games.barbu import BarbuState
from tavola.rules.errors import IllegalAction
from tavola.rules.messages import render

DEFAULTS = {"contract": 45, "double": 20, "card": 25, "domino": 20}


def at(kind: str, **options: Any) -> BarbuState:
    """A position where the seat on turn faces a decision of ``kind``."""
    state = dealt(SUIT_HANDS, options=options)
    if kind == "double":
        return act(state, 0, "contract no-tricks")[0]
    if kind == "card":
        return choose(state, "no-queens")
    if kind == "domino":
        return choose(state, "domino 7")
    return state


@pytest.mark.parametrize("kind", sorted(DEFAULTS))
def test_every_kind_of_decision_has_its_default_seconds(kind):
    state = at(kind)
    seat = on_turn(state)
    assert GAME.decision(state, seat) == kind
    assert GAME.turn_timer(state, seat) == DEFAULTS[kind]
    assert all(GAME.turn_timer(state, s) is None for s in range(4) if s != seat)


@pytest.mark.parametrize("kind", sorted(DEFAULTS))
def test_a_table_may_set_the_seconds_of_each_kind(kind):
    state = at(kind, **{f"timer_{kind}": 77})
    assert GAME.turn_timer(state, on_turn(state)) == 77
    other = next(k for k in DEFAULTS if k != kind)
    state = at(kind, **{f"timer_{other}": 77})
    assert GAME.turn_timer(state, on_turn(state)) == DEFAULTS[kind]


@pytest.mark.parametrize("kind", sorted(DEFAULTS))
def test_a_casual_table_without_timers_times_no_decision(kind):
    state = at(kind, timers="false")
    assert GAME.turn_timer(state, on_turn(state)) is None


def test_timer_seconds_out_of_bounds_are_refused_and_timers_are_no_house_rule():
    with pytest.raises(IllegalAction):
        GAME.parse_options({"timer_contract": "301"})
    assert GAME.house_rules({"timers": False, "timer_contract": 120}) == ()


def test_a_timed_out_declarer_takes_the_first_contract_left_in_the_books_order():
    action, reason = GAME.automatic_action(at("contract"), 0)
    assert GAME.encode_action(action) == "contract no-tricks"
    assert reason.code == "barbu.auto.contract"
    assert render(reason) == "Time ran out: contract no-tricks was chosen for you."


def test_a_timed_out_doubler_doubles_nobody():
    state = at("double")
    action, reason = GAME.automatic_action(state, on_turn(state))
    assert GAME.encode_action(action) == "pass" and reason.code == "barbu.auto.pass"


def test_a_timed_out_doubler_who_must_double_doubles_only_the_declarer():
    state = act(dealt(SUIT_HANDS, deal=6), 0, "contract no-tricks")[0]
    action, reason = GAME.automatic_action(state, 1)
    assert GAME.encode_action(action) == "double 0"
    assert reason.code == "barbu.auto.double_declarer"


@pytest.mark.parametrize("kind", ["card", "domino"])
def test_a_timed_out_player_plays_the_lowest_legal_card(kind):
    state = at(kind)
    seat = on_turn(state)
    action, reason = GAME.automatic_action(state, seat)
    assert reason.code == "barbu.auto.card"
    assert reason.param_dict() == {"card": GAME.encode_action(action)}
    assert GAME.encode_action(action) == ("2S" if kind == "card" else "7S")
    GAME.decide(state, seat, action)


def test_barbu_pauses_neither_between_deals_nor_before_the_end():
    state = at("card")
    assert GAME.pause_before_chance(state) is None and GAME.pause_before_end(state) is None
