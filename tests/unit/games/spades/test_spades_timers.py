"""Spades turn timers as table options: 30 s a bid and 25 s a card by default (the rule
book's), changeable within bounds, off at a table that says so; the automatic moves with
their reasons; no pauses between hands."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tavola.games.spades import GAME, Bid, Play, SpadesState, safe_card_for, suggested_bid
from tavola.match import aggregate
from tavola.match.events import MatchCreated, OptionEntry, SeatInfo
from tavola.rules.cards import cards
from tavola.rules.errors import IllegalAction
from tavola.rules.messages import render


def with_options(state: SpadesState, **options: Any) -> SpadesState:
    return replace(state, options=GAME.initial_state(4, options).options)


def bidding(table: Any, hands: tuple[str, ...], **options: Any) -> SpadesState:
    return with_options(table.deal(hands), **options)


def playing(table: Any, hands: tuple[str, ...], **options: Any) -> SpadesState:
    state, _ = table.run(table.deal(hands), "bid 4, bid 4, bid 3, bid 1")
    return with_options(state, **options)


def test_a_bid_has_thirty_seconds_and_a_card_twenty_five_by_default(table, example_hands):
    state = bidding(table, example_hands)
    assert GAME.decision(state, 0) == "bid" and GAME.turn_timer(state, 0) == 30
    state = playing(table, example_hands)
    assert GAME.decision(state, 0) == "card" and GAME.turn_timer(state, 0) == 25


def test_only_the_seat_on_turn_has_a_timer(table, example_hands):
    for state in (bidding(table, example_hands), playing(table, example_hands)):
        assert [GAME.turn_timer(state, s) for s in (1, 2, 3)] == [None, None, None]
        assert [GAME.decision(state, s) for s in (1, 2, 3)] == [None, None, None]


def test_a_table_may_set_the_seconds_of_a_bid_and_of_a_card(table, example_hands):
    assert GAME.turn_timer(bidding(table, example_hands, timer_bid=45), 0) == 45
    assert GAME.turn_timer(playing(table, example_hands, timer_card="10"), 0) == 10
    assert GAME.turn_timer(playing(table, example_hands, timer_bid=45), 0) == 25


def test_a_casual_table_without_timers_times_no_decision(table, example_hands):
    assert GAME.turn_timer(bidding(table, example_hands, timers="false"), 0) is None
    assert GAME.turn_timer(playing(table, example_hands, timers=False), 0) is None


@pytest.mark.parametrize("value", ["4", "301", "soon"])
def test_timer_seconds_out_of_bounds_are_refused(value):
    with pytest.raises(IllegalAction) as refused:
        GAME.parse_options({"timer_card": value})
    assert refused.value.reason.code == "options.invalid"


def test_timer_options_are_described_in_both_languages_and_are_not_house_rules():
    specs = {s.name: s for s in GAME.info.options if s.name.startswith("timer")}
    assert set(specs) == {"timers", "timer_bid", "timer_card"}
    assert GAME.house_rules({"timers": False, "timer_bid": 60, "timer_card": 5}) == ()
    for spec in specs.values():
        assert {"en", "pt"} <= set(GAME.messages()[spec.description])


def test_a_match_recorded_before_timer_options_keeps_the_rule_books_timers():
    created = MatchCreated(
        match_id="m",
        table_id="t",
        game="spades",
        rules_version=1,
        options=tuple(OptionEntry(n, v) for n, v in (("floor", "-200"), ("hands", "0"))),
        house_rules=(),
        seats=tuple(SeatInfo(s, f"P{s}", False, "", "") for s in range(4)),
        seed_commitment="",
        fairness="tavola-fair-v1",
    )
    state = aggregate.fold([created])
    for batch in aggregate.settle(state, b"\x05" * 32):
        state = aggregate.fold(batch.events, state)
    (seat,) = state.to_act()
    assert state.timer_seconds(seat) == 30


def test_the_automatic_bid_is_what_the_hand_is_worth_and_never_nil(table, example_hands):
    state = bidding(table, example_hands)
    action, reason = GAME.automatic_action(state, 0)
    assert action == Bid(suggested_bid(cards(example_hands[0]))) == Bid(11)
    assert reason.code == "spades.auto.bid" and reason.param_dict() == {"bid": 11}
    assert render(reason, "pt") == "O tempo acabou: a mesa deu o lance de 11, o que a sua mão vale."


def test_the_automatic_card_is_the_safe_card_of_the_seats_view(table, example_hands):
    state = playing(table, example_hands)
    action, reason = GAME.automatic_action(state, 0)
    assert action == Play(safe_card_for(GAME.view(state, 0)))
    assert reason.code == "spades.auto.card"
    assert reason.param_dict() == {"card": action.card.code}
    GAME.decide(state, 0, action)


def test_timers_off_keep_the_automatic_moves_for_the_platforms_watchdog(table, example_hands):
    state = bidding(table, example_hands, timers=False)
    assert GAME.automatic_action(state, 0)[0] == Bid(11)


def test_spades_pauses_neither_between_hands_nor_before_the_end(table, suit_hands):
    state, _ = table.run(table.deal(suit_hands), "bid 13, bid 1, bid 1, bid 1")
    state, _ = table.play_out(state)
    assert GAME.chance(state) is not None
    assert GAME.pause_before_chance(state) is None and GAME.pause_before_end(state) is None
