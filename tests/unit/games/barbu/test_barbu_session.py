"""The session: drawing the first declarer, dealing, rotation, contract choice, match end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from barbu_kit import (
    GAME,
    SUIT_HANDS,
    act,
    auto_deal,
    deal_permutation,
    dealt,
    events_of,
    resolve,
)

from tavola.games.barbu import (
    Contract,
    DealScored,
    DealStarted,
    FirstDeclarerDrawn,
    HandDealt,
    SessionEnded,
)
from tavola.games.barbu.scoring import score_deal
from tavola.rules.cards import cards, standard_deck
from tavola.rules.errors import IllegalAction
from tavola.rules.interface import ChanceRequest


def test_the_first_declarer_is_drawn_by_lot_then_each_deal_is_one_shuffle():
    state = GAME.initial_state(4, {})
    assert GAME.chance(state) == ChanceRequest("first-declarer", "draw", 4)
    assert GAME.to_act(state) == frozenset()
    events = GAME.resolve_chance(state, GAME.chance(state), (2,))
    assert events == [FirstDeclarerDrawn(2)]
    state = GAME.fold(state, events)
    assert GAME.chance(state) == ChanceRequest("deal/1", "shuffle", 52)


def test_the_dealer_sits_on_the_declarers_right_and_the_player_opposite_cuts():
    state = GAME.fold(GAME.initial_state(4, {}), [FirstDeclarerDrawn(2)])
    events = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    assert events[0] == DealStarted(1, declarer=2, dealer=1, cutter=0, counts=(13,) * 4)


def test_thirteen_cards_are_dealt_to_each_seat_clockwise_from_the_declarer():
    state = GAME.fold(GAME.initial_state(4, {}), [FirstDeclarerDrawn(3)])
    events = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    hands = {e.seat: e.cards for e in events_of(events, HandDealt)}
    deck = standard_deck()
    assert hands[3] == tuple(sorted(deck[0::4]))  # the declarer receives the first card
    assert hands[0] == tuple(sorted(deck[1::4]))
    assert hands[2] == tuple(sorted(deck[3::4]))  # the dealer receives the last card
    crafted = deal_permutation(SUIT_HANDS, declarer=3)
    events = GAME.resolve_chance(state, GAME.chance(state), crafted)
    assert [e.cards for e in events_of(events, HandDealt)] == [cards(h) for h in SUIT_HANDS]


def test_each_hand_is_private_to_its_owner_and_the_deal_itself_is_public():
    state = GAME.fold(GAME.initial_state(4, {}), [FirstDeclarerDrawn(0)])
    events = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    assert events[0].audience() is None
    assert [e.audience() for e in events[1:]] == [frozenset({s}) for s in range(4)]


def test_the_declarer_keeps_the_role_for_seven_deals_then_it_passes_to_the_left():
    state, events = resolve(GAME.initial_state(4, {}), b"\x01" * 32)
    first = state.declarer
    starts: list[DealStarted] = events_of(events, DealStarted)
    while not GAME.is_over(state):
        state, events = auto_deal(state)
        state, events2 = resolve(state, b"\x01" * 32)
        starts += events_of(events + events2, DealStarted)
    assert [s.deal for s in starts] == list(range(1, 29))
    assert [s.declarer for s in starts] == [(first + d // 7) % 4 for d in range(28)]
    assert all(s.dealer == (s.declarer - 1) % 4 for s in starts)
    assert all(s.cutter == (s.declarer + 2) % 4 for s in starts)


def test_the_declarer_chooses_a_contract_after_seeing_their_cards():
    state = dealt(SUIT_HANDS, declarer=1)
    assert state.phase == "contract"
    assert GAME.to_act(state) == frozenset({1})
    assert GAME.view(state, 1).hand == cards(SUIT_HANDS[1])
    codes = [GAME.encode_action(a) for a in GAME.legal_actions(state, 1)]
    assert codes[:5] == [
        "contract no-tricks",
        "contract no-queens",
        "contract no-last-two",
        "contract no-hearts",
        "contract no-king",
    ]
    assert codes[5:9] == [
        "contract trumps C",
        "contract trumps D",
        "contract trumps H",
        "contract trumps S",
    ]
    assert codes[9:] == [f"contract domino {r}" for r in "23456789TJQKA"]


def test_a_declarer_cannot_choose_a_contract_already_played_in_the_block():
    state = dealt(SUIT_HANDS, declarer=0)
    state, _ = act(state, 0, "contract no-king")
    state, _ = auto_deal(state)
    state, _ = resolve(state)
    assert state.deal == 2 and state.declarer == 0
    assert Contract.NO_KING not in state.remaining[0]
    reason = GAME.why_illegal(state, 0, GAME.decode_action("contract no-king"))
    assert reason is not None and reason.code == "barbu.contract_used"
    with pytest.raises(IllegalAction):
        GAME.decide(state, 0, GAME.decode_action("contract no-king"))
    assert len(GAME.legal_actions(state, 0)) == 4 + 4 + 13


def test_with_fixed_order_the_declarer_must_take_the_next_contract_of_the_book():
    state = dealt(SUIT_HANDS, options={"fixed_order": True})
    assert [GAME.encode_action(a) for a in GAME.legal_actions(state, 0)] == ["contract no-tricks"]
    reason = GAME.why_illegal(state, 0, GAME.decode_action("contract no-queens"))
    assert reason is not None and reason.code == "barbu.fixed_order"
    assert reason.param_dict() == {"contract": "no-tricks"}
    remaining = (Contract.TRUMPS, Contract.DOMINO)
    later = replace(state, remaining=(remaining,) * 4)
    assert [GAME.encode_action(a) for a in GAME.legal_actions(later, 0)] == [
        "contract trumps C",
        "contract trumps D",
        "contract trumps H",
        "contract trumps S",
    ]


def test_fixed_order_plays_the_seven_contracts_in_the_books_order_for_every_declarer():
    state, _ = resolve(GAME.initial_state(4, {"fixed_order": True}), b"\x02" * 32)
    contracts = []
    while not GAME.is_over(state):
        state, events = auto_deal(state)
        contracts += [e.contract for e in events_of(events, DealScored)]
        state, _ = resolve(state, b"\x02" * 32)
    assert contracts == list(Contract) * 4


def test_the_session_ends_after_28_deals_and_the_highest_total_wins():
    state, _ = resolve(GAME.initial_state(4, {}), b"\x03" * 32)
    events = []
    while not GAME.is_over(state):
        state, new = auto_deal(state)
        events += new
        state, _ = resolve(state, b"\x03" * 32)
    scored = events_of(events, DealScored)
    assert len(scored) == 28 and scored[-1].deal == 28
    (ended,) = events_of(events, SessionEnded)
    assert ended.totals == state.totals
    best = max(state.totals)
    assert ended.winners == tuple(s for s in range(4) if state.totals[s] == best)
    assert GAME.to_act(state) == frozenset() and GAME.chance(state) is None
    assert all(GAME.legal_actions(state, s) == () for s in range(4))
    ranks = {s.seat: s.rank for s in GAME.standings(state)}
    assert all(ranks[w] == 1 for w in ended.winners)


def test_a_tie_for_the_highest_total_shares_the_victory():
    state = dealt(SUIT_HANDS, deal=28)
    state = replace(
        state, contract=Contract.NO_TRICKS, totals=(30, 30, -20, -40), points=(0, 0, 0, 0)
    )
    events = score_deal(state)
    assert events[-1] == SessionEnded(totals=(30, 30, -20, -40), winners=(0, 1))
    state = GAME.fold(state, events)
    assert GAME.is_over(state)
    assert [s.rank for s in GAME.standings(state)] == [1, 1, 3, 4]


def test_barbu_needs_exactly_four_players():
    with pytest.raises(IllegalAction) as caught:
        GAME.initial_state(3, {})
    assert caught.value.reason.code == "barbu.four_players"


def test_table_options_are_declared_and_house_rules_are_flagged():
    info = GAME.info
    assert info.name == "barbu" and info.rules_version == 1
    assert info.min_players == info.max_players == 4
    assert not info.lower_score_wins and not info.teams
    names = {o.name: o for o in info.options}
    assert set(names) == {
        "fixed_order",
        "no_doubling",
        "play_out_all_tricks",
        "void_must_trump",
        "blocks",
        "timers",
        "timer_contract",
        "timer_double",
        "timer_card",
        "timer_domino",
    }
    flagged = GAME.house_rules(
        {
            "play_out_all_tricks": True,
            "void_must_trump": True,
            "fixed_order": True,
            "no_doubling": True,
        }
    )
    assert flagged == ("play_out_all_tricks", "void_must_trump")
    state = GAME.initial_state(4, {"fixed_order": "true", "no_doubling": "yes"})
    assert state.options.fixed_order and state.options.no_doubling
    with pytest.raises(IllegalAction):
        GAME.initial_state(4, {"doubling_limit": 3})


def test_a_shorter_session_plays_whole_blocks_and_still_sums_to_zero():
    import random

    from tavola.rules import driver

    out = driver.play_match(GAME, 4, {"blocks": 1}, seed=b"s" * 32, rng=random.Random(3))
    assert out.state.deal == 7 and GAME.is_over(out.state)
    assert sum(s.score for s in GAME.standings(out.state)) == 0
    assert GAME.house_rules({"blocks": 2}) == ("blocks",)
