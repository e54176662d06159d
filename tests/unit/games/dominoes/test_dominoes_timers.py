"""Dominoes turn timers as table options: 20 s a tile (its end included) by default,
changeable within bounds, off at a table that says so; passing and drawing are automatic,
never timed; the automatic tile with its reason; no pauses between hands."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from dominoes_kit import GAME, play, start

from tavola.games.dominoes import DominoesState, End, Passed, Play, TileDrawn
from tavola.rules.errors import IllegalAction
from tavola.rules.interface import OptionValue
from tavola.rules.messages import render
from tavola.rules.tiles import Tile


def ends_six_and_one(options: Mapping[str, OptionValue] | None = None) -> DominoesState:
    """Seat 3 on turn holding 6-1, which fits both ends (6 and 1) with different lines."""
    state = start(("2-1 0-0", "6-2 0-1", "6-6 5-5", "6-1 4-4"), opener=2, options=options)
    for seat, code in ((2, "6-6"), (1, "6-2"), (0, "2-1")):
        state, _ = play(state, seat, code)
    assert state.ends == (6, 1) and state.turn == 3
    return state


def test_a_tile_has_twenty_seconds_by_default_and_only_the_seat_on_turn_is_timed():
    state = ends_six_and_one()
    assert GAME.decision(state, 3) == "tile" and GAME.turn_timer(state, 3) == 20
    assert [GAME.turn_timer(state, s) for s in (0, 1, 2)] == [None, None, None]


def test_choosing_the_end_is_part_of_the_tiles_decision_and_its_time():
    state = ends_six_and_one()
    codes = {GAME.encode_action(a) for a in GAME.legal_actions(state, 3)}
    assert {"6-1 L", "6-1 R"} <= codes
    assert GAME.turn_timer(state, 3) == 20


def test_a_table_may_set_the_seconds_of_a_tile_or_switch_timers_off():
    assert GAME.turn_timer(ends_six_and_one({"timer_tile": 45}), 3) == 45
    assert GAME.turn_timer(ends_six_and_one({"timers": False}), 3) is None


@pytest.mark.parametrize("value", ["4", "301"])
def test_timer_seconds_out_of_bounds_are_refused(value):
    with pytest.raises(IllegalAction) as refused:
        GAME.parse_options({"timer_tile": value})
    assert refused.value.reason.code == "options.invalid"
    assert GAME.house_rules({"timers": False, "timer_tile": 90}) == ()


def test_passing_is_automatic_and_never_timed():
    state = start(("6-6 6-1 0-0", "5-5 1-1"), opener=0, options={"mode": "block"})
    state, events = play(state, 0, "6-6")
    assert any(isinstance(e, Passed) and e.seat == 1 for e in events)
    assert state.turn == 0 and GAME.turn_timer(state, 1) is None


def test_drawing_is_automatic_and_never_timed():
    state = start(
        ("6-6 0-0", "5-5 1-1"), opener=0, boneyard="6-5 2-2 3-3", options={"mode": "draw"}
    )
    state, events = play(state, 0, "6-6")
    assert any(isinstance(e, TileDrawn) and e.seat == 1 for e in events)
    assert state.turn == 1 and GAME.turn_timer(state, 1) == 20  # it drew 6-5, which fits


def test_the_automatic_move_lays_the_heaviest_playable_tile_on_the_left_end():
    state = ends_six_and_one()
    action, reason = GAME.automatic_action(state, 3)
    assert action == Play(Tile(6, 1), End.LEFT)
    assert reason.code == "dominoes.auto.heaviest_tile"
    assert reason.param_dict() == {"tile": "6-1"}
    assert render(reason, "pt")
    GAME.decide(state, 3, action)


def test_dominoes_pauses_neither_between_hands_nor_before_the_end():
    state = start(("4-1 4-4", "2-1 6-6"), opener=0, options={"mode": "block", "target": 1})
    for seat, code in ((0, "4-1"), (1, "2-1"), (0, "4-4")):
        state, _ = play(state, seat, code)
    assert GAME.is_over(state) and GAME.pause_before_end(state) is None
    assert GAME.pause_before_chance(state) is None
