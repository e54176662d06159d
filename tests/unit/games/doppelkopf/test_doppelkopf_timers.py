"""Doppelkopf turn timers as table options — 20 s a reservation, 20 s an Armut answer, 15 s
each card given back, 25 s a card by default — changeable within bounds, off at a table
that says so; announcements are optional and never timed on their own; the automatic move
of every kind of decision with its reason; the pauses between games (20 s) and after the
last game (10 s)."""

from __future__ import annotations

from typing import Any

import pytest

from tavola.games.doppelkopf import GAME, Announce, Call, DokoState, Play, Wait
from tavola.match import aggregate
from tavola.match.events import MatchCreated, PauseStarted, SeatInfo, option_entries
from tavola.rules.errors import IllegalAction
from tavola.rules.messages import render

# Seat 1 holds three trumps (♣Q ♦10 ♦9): with Armut it may declare poverty.
POOR = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",
    "QC TD 9D AC 9C TS KS AH KH 9S KC KS",
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD QS JS 9S",
)
DEFAULTS = {"reservation": 20, "poverty": 20, "return": 15, "card": 25}


def at(doko: Any, kind: str, **options: Any) -> tuple[DokoState, int]:
    """A position where ``seat`` faces a decision of ``kind``."""
    if kind == "reservation":
        return doko.start(options=options), 2
    if kind in ("poverty", "return"):
        state = doko.declare(doko.start(POOR, options={"armut": True, **options}), s1="poverty")
        return (state, 2) if kind == "poverty" else (doko.act(state, 2, "accept"), 2)
    return doko.normal_game(**options), 0


@pytest.mark.parametrize("kind", sorted(DEFAULTS))
def test_every_kind_of_decision_has_its_default_seconds(doko, kind):
    state, seat = at(doko, kind)
    assert GAME.decision(state, seat) == kind
    assert GAME.turn_timer(state, seat) == DEFAULTS[kind]


@pytest.mark.parametrize("kind", sorted(DEFAULTS))
def test_a_table_may_set_the_seconds_of_each_kind(doko, kind):
    state, seat = at(doko, kind, **{f"timer_{kind}": 60})
    assert GAME.turn_timer(state, seat) == 60


@pytest.mark.parametrize("kind", sorted(DEFAULTS))
def test_a_casual_table_without_timers_times_no_decision(doko, kind):
    state, seat = at(doko, kind, timers=False)
    assert GAME.turn_timer(state, seat) is None


def test_timer_seconds_out_of_bounds_are_refused_and_timers_are_no_house_rule():
    with pytest.raises(IllegalAction):
        GAME.parse_options({"timer_reservation": "2"})
    assert GAME.house_rules({"timers": False, "timer_card": 90}) == ()
    assert GAME.parse_options({"preset": "tavern"})["timers"] is True


def test_every_seat_declares_at_once_and_each_has_its_own_reservation_timer(doko):
    state = doko.start()
    assert GAME.to_act(state) == frozenset({0, 1, 2, 3})
    assert {GAME.turn_timer(state, s) for s in range(4)} == {20}
    state = doko.act(state, 1, "healthy")
    assert GAME.turn_timer(state, 1) is None and GAME.turn_timer(state, 0) == 20


def test_a_seat_that_may_only_announce_has_no_timer(doko):
    state = doko.normal_game()
    assert GAME.to_act(state) == frozenset({0, 1, 2, 3}) and state.deal.turn == 0
    for seat in (1, 2, 3):
        assert GAME.decision(state, seat) is None and GAME.turn_timer(state, seat) is None


def test_a_seat_on_turn_announces_within_its_cards_time_and_its_automatic_move_plays(doko):
    state = doko.normal_game()
    assert Announce(Call.RE) in GAME.legal_actions(state, 0)
    action, reason = GAME.automatic_action(state, 0)
    assert isinstance(action, Play) and reason.code == "doppelkopf.auto.card"
    assert (
        render(reason)
        == f"Time ran out: {action.card.label} was played for you (and nothing announced)."
    )


def test_the_automatic_reservation_is_healthy(doko):
    action, reason = GAME.automatic_action(doko.start(), 2)
    assert GAME.encode_action(action) == "healthy" and reason.code == "doppelkopf.auto.healthy"


def test_the_automatic_answer_to_an_armut_declines_and_the_return_gives_the_cheapest(doko):
    state, seat = at(doko, "poverty")
    action, reason = GAME.automatic_action(state, seat)
    assert GAME.encode_action(action) == "decline" and reason.code == "doppelkopf.auto.decline"
    state, seat = at(doko, "return")
    action, reason = GAME.automatic_action(state, seat)
    assert GAME.encode_action(action) == "give 9C" and reason.code == "doppelkopf.auto.give"
    assert reason.param_dict() == {"card": "9C"}


def test_a_seat_that_may_only_announce_waits_until_the_next_card_or_announcement(doko):
    state = doko.normal_game()
    action, reason = GAME.automatic_action(state, 2)
    assert action == Wait() and reason.code == "doppelkopf.auto.wait"
    assert GAME.encode_action(action) == "wait" and GAME.decode_action("wait") == Wait()
    state = doko.act(state, 2, "wait")
    assert 2 not in GAME.to_act(state) and GAME.legal_actions(state, 2) == ()
    assert GAME.why_illegal(state, 2, Announce(Call.KONTRA)).code == "doppelkopf.waiting"
    after_card = doko.play(state, "AC")
    assert 2 in GAME.to_act(after_card)
    after_call = doko.act(state, 0, "re")
    assert 2 in GAME.to_act(after_call)


def test_the_seat_on_turn_may_not_wait(doko):
    state = doko.normal_game()
    assert Wait() not in GAME.legal_actions(state, 0)
    assert GAME.why_illegal(state, 0, Wait()).code == "doppelkopf.wait_on_turn"


def test_between_games_the_table_pauses_twenty_seconds(doko):
    state = doko.finish(doko.normal_game(match="1_round"))
    assert state.phase == "deal" and GAME.pause_before_chance(state) == 20
    assert GAME.pause_before_end(state) is None


def test_after_the_last_game_the_table_pauses_ten_seconds(doko):
    state = doko.finish(doko.normal_game(match="one_game"))
    assert GAME.is_over(state) and GAME.pause_before_end(state) == 10


def test_a_match_ended_by_a_player_leaving_mid_game_does_not_pause(doko):
    state = doko.normal_game(match="one_game")
    state = GAME.fold(state, GAME.seat_left(state, 1))
    assert GAME.is_over(state) and GAME.pause_before_end(state) is None


def test_a_timed_table_records_the_last_pause_then_the_end_and_the_verifier_needs_no_clock(
    doko,
):
    created = MatchCreated(
        match_id="m",
        table_id="t",
        game="doppelkopf",
        rules_version=1,
        options=option_entries(GAME.parse_options({"match": "one_game"})),
        house_rules=(),
        seats=tuple(SeatInfo(s, f"P{s}", False, "", "") for s in range(4)),
        seed_commitment="",
        fairness="tavola-fair-v1",
    )
    played = doko.finish(doko.normal_game(match="one_game"))
    state = aggregate.MatchState(created, played, version=99)
    (pause,) = aggregate.settle(state, b"s" * 32, now_ms=1_000)
    assert pause.events == (PauseStarted(aggregate.PAUSE_BEFORE_END, 11_000, 10),)
    state = aggregate.fold(pause.events, state)
    assert aggregate.settle(state, b"s" * 32, now_ms=10_999) == []
    (end,) = aggregate.settle(state, b"s" * 32, now_ms=11_000)
    assert [type(e).__name__ for e in end.events] == ["MatchEnded", "SeedRevealed"]
    assert aggregate.settle(state, b"s" * 32) == [end]  # no clock: no pause
