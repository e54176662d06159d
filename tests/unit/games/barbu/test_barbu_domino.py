"""Domino: the starting rank opens a suit's row, rows grow one rank at either end (aces
high, no wrap), play is compulsory, forced passes are automatic and explicit, finishing
order scores +45 +20 +5 -5."""

from __future__ import annotations

from barbu_kit import GAME, act, choose, dealt, events_of, play

from tavola.games.barbu import DealScored, DoublesDeclared, Passed, WentOut
from tavola.rules.cards import Rank

GOING_OUT = ("7H 7S", "8H", "6H 8S", "9H 6S 5S")
NO_SEVEN = ("2C 8H", "7H 3C", "9H", "7S 6H")


def legal(state, seat):
    return sorted(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))


def reason(state, seat, code):
    found = GAME.why_illegal(state, seat, GAME.decode_action(code))
    return None if found is None else found.code


def test_the_declarer_names_the_starting_rank_and_plays_first_with_a_card_of_it():
    state = choose(dealt(GOING_OUT), "domino 7")
    assert state.start_rank == Rank.SEVEN and GAME.to_act(state) == frozenset({0})
    assert legal(state, 0) == ["7H", "7S"]
    assert GAME.view(state, 2).start_rank == Rank.SEVEN


def test_a_card_of_the_starting_rank_opens_its_suits_row_and_others_wait():
    state = choose(dealt(GOING_OUT), "domino 7")
    state, _ = play(state, "7H 8H")
    assert legal(state, 2) == ["6H"]
    assert reason(state, 2, "8S") == "barbu.domino_row_not_open"


def test_a_row_grows_one_rank_at_a_time_at_either_end():
    state = choose(dealt(("7H 5H", "6H 9H", "8H", "4H")), "domino 7")
    state, _ = play(state, "7H")
    assert legal(state, 1) == ["6H"]
    assert reason(state, 1, "9H") == "barbu.domino_not_adjacent"
    found = GAME.why_illegal(state, 1, GAME.decode_action("9H"))
    assert found.param_dict() == {"card": "9H", "low": "7H", "high": "7H"}
    state, _ = play(state, "6H 8H")
    assert [(r.suit.letter, r.low, r.high) for r in GAME.view(state, None).rows] == [
        ("H", Rank.SIX, Rank.EIGHT)
    ]


def test_aces_are_high_so_a_row_started_at_ace_only_grows_downwards():
    state = choose(dealt(("AH 3C", "KH 2H", "QH", "JH")), "domino A")
    state, _ = play(state, "AH")
    assert legal(state, 1) == ["KH"]
    assert reason(state, 1, "2H") == "barbu.domino_not_adjacent"


def test_a_row_started_at_two_only_grows_upwards_there_is_no_wrap_around():
    state = choose(dealt(("2H 3C", "AH 3H", "QH", "JH")), "domino 2")
    state, _ = play(state, "2H")
    assert legal(state, 1) == ["3H"]
    assert reason(state, 1, "AH") == "barbu.domino_not_adjacent"


def test_a_declarer_without_the_starting_rank_passes_automatically():
    state = dealt(NO_SEVEN, options={"no_doubling": True})
    state, events = act(state, 0, "contract domino 7")
    assert events[1:] == [Passed(0)]
    assert GAME.to_act(state) == frozenset({1})


def test_the_automatic_pass_follows_the_last_doubling_turn():
    state = dealt(NO_SEVEN)
    state, _ = act(state, 0, "contract domino 7")
    state, _ = act(state, 1, "pass")
    state, _ = act(state, 2, "pass")
    state, events = act(state, 3, "pass")
    assert events == [
        DoublesDeclared(1, 3, (), False),
        DoublesDeclared(1, 0, (), True),
        Passed(0),
    ]


def test_every_seat_that_cannot_play_passes_explicitly_and_play_moves_on():
    state = choose(dealt(NO_SEVEN), "domino 7")
    state, events = act(state, 1, "7H")
    assert events[1:] == [Passed(2)]
    assert GAME.to_act(state) == frozenset({3})


def test_a_player_who_can_play_must_play():
    state = choose(dealt(GOING_OUT), "domino 7")
    assert reason(state, 0, "pass") == "barbu.must_play"


def test_players_go_out_in_order_and_the_rest_play_on():
    state = choose(dealt(GOING_OUT), "domino 7")
    state, events = play(state, "7H 8H")
    assert events_of(events, WentOut) == [WentOut(1, 1, 45)]
    assert GAME.to_act(state) == frozenset({2})
    state, events = play(state, "6H 9H 7S")
    assert events_of(events, WentOut) == [WentOut(0, 2, 20)]
    assert GAME.to_act(state) == frozenset({2})  # seat 1 is out and skipped


def test_finishing_order_scores_45_20_5_and_minus_5():
    state = choose(dealt(GOING_OUT), "domino 7")
    state, events = play(state, "7H 8H 6H 9H 7S 8S")
    assert events_of(events, WentOut)[-1] == WentOut(2, 3, 5)
    (scored,) = events_of(events, DealScored)
    assert scored.raw == (20, 45, 5, -5) and sum(scored.raw) == 65
    assert GAME.view(state, None).finished == (1, 0, 2)
