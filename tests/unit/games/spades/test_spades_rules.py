"""Scenario tests for the Spades table: dealing, bidding, trick play and breaking spades."""

from __future__ import annotations

import pytest

from tavola.games.spades import (
    GAME,
    Bid,
    BidMade,
    BlindNil,
    CardPlayed,
    DealerChosen,
    HandDealt,
    HandScored,
    HandStarted,
    Play,
    PlayStarted,
    SpadesBroken,
    TrickTaken,
)
from tavola.rules.cards import Card, card, cards, standard_deck
from tavola.rules.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from tavola.rules.interface import ChanceRequest


def bid_all(table, state, bids="bid 4, bid 2, bid 3, nil"):
    return table.run(state, bids)[0]


# ----- the table and the deal ---------------------------------------------------------
def test_the_game_is_for_four_players_in_two_partnerships():
    assert GAME.info.min_players == GAME.info.max_players == 4
    assert GAME.info.teams and not GAME.info.lower_score_wins
    assert GAME.info.rules_version == 1
    with pytest.raises(IllegalAction) as err:
        GAME.initial_state(3, {})
    assert err.value.reason.code == "spades.players"


def test_unknown_table_options_are_refused_and_the_rule_book_values_are_the_defaults():
    with pytest.raises(IllegalAction) as err:
        GAME.initial_state(4, {"blind_nil": "true"})
    assert err.value.reason.code == "options.unknown"
    options = GAME.initial_state(4, {}).options
    assert (options.target, options.floor, options.hands) == (500, -200, 0)
    assert GAME.house_rules({"target": 300}) == ("target",)


def test_the_first_dealer_is_drawn_from_the_seed():
    state = GAME.initial_state(4, {})
    request = GAME.chance(state)
    assert request == ChanceRequest("first-dealer", "draw", 4)
    assert GAME.resolve_chance(state, request, (2,)) == [DealerChosen(2)]


def test_each_deal_is_a_shuffle_of_52_named_after_the_hand():
    state = GAME.fold(GAME.initial_state(4, {}), [DealerChosen(2)])
    assert GAME.chance(state) == ChanceRequest("deal/1", "shuffle", 52)


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    state = GAME.fold(GAME.initial_state(4, {}), [DealerChosen(2)])
    events = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    deck = standard_deck()
    assert events[0] == HandStarted(1, 2, (13, 13, 13, 13))
    dealt = {e.seat: e.cards for e in events[1:]}
    assert dealt[3] == tuple(sorted(deck[0::4]))
    assert dealt[0] == tuple(sorted(deck[1::4]))
    assert dealt[2] == tuple(sorted(deck[3::4]))


def test_each_hand_is_seen_only_by_its_owner_and_the_counts_are_public():
    state = GAME.fold(GAME.initial_state(4, {}), [DealerChosen(0)])
    events = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    assert events[0].audience() is None
    for event in events[1:]:
        assert isinstance(event, HandDealt)
        assert event.audience() == frozenset({event.seat})


def test_a_wrong_chance_request_is_refused():
    state = GAME.initial_state(4, {})
    with pytest.raises(ValueError):
        GAME.resolve_chance(state, ChanceRequest("deal/1", "shuffle", 52), tuple(range(52)))


def test_the_deal_passes_one_seat_to_the_left_every_hand(table, suit_hands):
    state = table.deal(suit_hands, dealer=3)
    state, _ = table.run(state, "nil, nil, nil, nil")
    state, _ = table.play_out(state)
    assert state.phase == "deal"
    assert GAME.chance(state) == ChanceRequest("deal/2", "shuffle", 52)
    events = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    assert events[0] == HandStarted(2, 0, (13, 13, 13, 13))
    state = GAME.fold(state, events)
    assert state.turn == 1 and state.bids == (None,) * 4 and state.tricks == (0,) * 4


# ----- bidding ----------------------------------------------------------------------------
def test_bidding_starts_left_of_the_dealer_and_goes_clockwise_once_each(table, suit_hands):
    state = table.deal(suit_hands, dealer=1)
    order = []
    for code in ("bid 3", "bid 2", "nil", "bid 13"):
        order.append(state.turn)
        state, _ = table.act(state, code)
    assert order == [2, 3, 0, 1]
    assert state.bids == (0, 13, 3, 2)


def test_the_last_bid_sets_each_partnerships_contract_and_the_dealers_left_leads(table, suit_hands):
    state = table.deal(suit_hands, dealer=3)
    state, events = table.run(state, "bid 4, nil, bid 3, bid 5")
    assert events[-1] == PlayStarted(1, (7, 5), 0)
    assert state.phase == "play" and state.turn == 0


def test_every_bid_from_nil_to_13_is_legal(table, suit_hands):
    state = table.deal(suit_hands)
    assert list(GAME.legal_actions(state, 0)) == [Bid(n) for n in range(14)]


def test_there_is_no_limit_on_the_sum_of_the_partners_bids(table, suit_hands):
    state = table.deal(suit_hands)
    state, events = table.run(state, "bid 13, bid 13, bid 13, bid 13")
    assert events[-1] == PlayStarted(1, (26, 26), 0)


@pytest.mark.parametrize("code", ["bid 14", "bid -1", "bid 99"])
def test_bids_are_from_0_to_13(table, suit_hands, code):
    state = table.deal(suit_hands)
    with pytest.raises(IllegalAction) as err:
        table.act(state, code)
    assert err.value.reason.code == "spades.bid_out_of_range"


def test_there_is_no_blind_nil(table, suit_hands):
    state = table.deal(suit_hands)
    with pytest.raises(IllegalAction) as err:
        table.act(state, "blind nil")
    assert err.value.reason.code == "spades.no_blind_nil"


def test_a_card_cannot_be_played_before_the_bidding_is_over(table, suit_hands):
    state = table.deal(suit_hands)
    with pytest.raises(IllegalAction) as err:
        table.act(state, "AS")
    assert err.value.reason.code == "spades.bid_first"


def test_nobody_bids_again_once_play_has_started(table, suit_hands):
    state = bid_all(table, table.deal(suit_hands))
    for code in ("bid 3", "nil", "blind nil"):
        with pytest.raises(IllegalAction) as err:
            table.act(state, code)
        assert err.value.reason.code == "spades.bidding_over"


def test_a_seat_out_of_turn_cannot_bid(table, suit_hands):
    state = table.deal(suit_hands, dealer=3)
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 2, Bid(3))
    assert GAME.why_illegal(state, 2, Bid(3)).code == "game.not_your_turn"


# ----- trick play -------------------------------------------------------------------------
def test_the_first_lead_is_never_a_spade_when_the_leader_holds_another_suit(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    with pytest.raises(IllegalAction) as err:
        table.act(state, "AS")
    assert err.value.reason.code == "spades.spades_not_broken"
    assert err.value.reason.param_dict() == {"card": "AS"}
    assert [a.card for a in GAME.legal_actions(state, 0)] == list(cards("2C 3C 4C 5C"))


def test_a_player_holding_only_spades_may_lead_one_at_any_time(table, suit_hands):
    state = bid_all(table, table.deal(suit_hands))
    state, events = table.act(state, "2S")
    assert events == [CardPlayed(0, card("2S")), SpadesBroken(1, 0)]
    assert state.spades_broken


def test_you_must_follow_the_suit_led_if_you_can(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    state, _ = table.act(state, "2C")
    with pytest.raises(IllegalAction) as err:
        table.act(state, "2D")
    assert err.value.reason.code == "spades.must_follow_clubs"
    assert err.value.reason.param_dict() == {"card": "2D", "suit": "C"}
    assert all(a.card.suit == card("AC").suit for a in GAME.legal_actions(state, 1))


def test_a_player_who_cannot_follow_may_play_any_card_spades_included(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    state, _ = table.run(state, "2C AC")
    legal = {a.card for a in GAME.legal_actions(state, 2)}
    assert legal == set(cards(example_hands[2]))
    state, events = table.act(state, "5S")
    assert events == [CardPlayed(2, card("5S")), SpadesBroken(1, 2)]


def test_the_highest_card_of_the_suit_led_wins_without_spades(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    state, events = table.run(state, "2C AC 6D 2H")
    assert events[-1] == TrickTaken(1, 1, 1)
    assert state.turn == 1 and state.tricks == (0, 1, 0, 0)


def test_the_highest_spade_wins_the_trick(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    state, _ = table.run(state, "2C AC 6D 2H  KC 7D 3H 3C  QC 8D 4H 4C  JC 9D 5H 5C")
    state, events = table.run(state, "TC TD 6H 6S")
    assert TrickTaken(1, 5, 0) in events and SpadesBroken(1, 0) in events
    assert state.turn == 0


def test_a_spade_cannot_be_led_before_spades_are_broken(table):
    hands = (
        "AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "KS AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
        "QS KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "JS TS 9S 8S 7S 6S 5S 4S 3S 2S QH KH AH",
    )
    state = bid_all(table, table.deal(hands))
    state, _ = table.run(state, "2C AC KD QH")  # seat 1 wins with the ace of clubs
    with pytest.raises(IllegalAction) as err:
        table.act(state, "KS")
    assert err.value.reason.code == "spades.spades_not_broken"
    state, _ = table.run(state, "2D AD AH 3C")  # seat 2 wins with A♦
    assert state.turn == 2
    assert not state.spades_broken


def test_spades_are_broken_by_a_spade_discarded_on_another_suit(table):
    hands = (
        "AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "KS AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
        "QS 9S KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH",
        "JS TS 8S 7S 6S 5S 4S 3S 2S JH QH KH AH",
    )
    state = bid_all(table, table.deal(hands))
    state, events = table.run(state, "2C AC QS 2S")  # seat 2 ruffs with Q♠
    assert SpadesBroken(1, 2) in events and TrickTaken(1, 1, 2) in events
    assert state.turn == 2 and state.spades_broken
    assert Play(card("9S")) in GAME.legal_actions(state, 2)
    state, events = table.act(state, "9S")
    assert events == [CardPlayed(2, card("9S"))]  # broken once, announced once


def test_the_winner_of_a_trick_leads_the_next(table, example_hands, example_play):
    state = bid_all(table, table.deal(example_hands))
    winners = []
    for trick in example_play.split("  "):
        state, events = table.run(state, trick)
        winners += [e.seat for e in events if isinstance(e, TrickTaken)]
    assert winners == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert state.tricks == (9, 4, 0, 0)


def test_a_hand_has_13_tricks_and_then_is_scored(table, example_hands, example_play):
    state = bid_all(table, table.deal(example_hands))
    state, events = table.run(state, example_play)
    assert sum(isinstance(e, TrickTaken) for e in events) == 13
    assert isinstance(events[-1], HandScored)
    assert state.phase == "deal" and state.hands == ((),) * 4


def test_a_card_not_in_hand_cannot_be_played(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    with pytest.raises(IllegalAction) as err:
        table.act(state, "AH")
    assert err.value.reason.code == "spades.not_in_hand"


def test_an_illegal_action_changes_nothing(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    before = state
    for code in ("AS", "AH", "bid 3", "blind nil"):
        with pytest.raises(IllegalAction):
            table.act(state, code)
    assert state == before


def test_a_seat_out_of_turn_cannot_play(table, example_hands):
    state = bid_all(table, table.deal(example_hands))
    with pytest.raises(NotYourTurn) as err:
        GAME.decide(state, 1, Play(card("AC")))
    assert err.value.reason.code == "game.not_your_turn"
    assert GAME.legal_actions(state, 1) == ()


def test_nothing_is_accepted_after_the_match(table, suit_hands):
    state = table.deal(suit_hands, scores=(480, 0))
    state, _ = table.run(state, "bid 13, bid 1, nil, bid 1")
    state, _ = table.play_out(state)
    assert GAME.is_over(state) and GAME.to_act(state) == frozenset()
    assert GAME.chance(state) is None
    with pytest.raises(GameOver):
        GAME.decide(state, 0, Bid(3))
    assert all(GAME.legal_actions(state, s) == () for s in range(4))


# ----- encoding ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "action", "label"),
    [
        ("bid 4", Bid(4), "Bid 4"),
        ("nil", Bid(0), "Nil"),
        ("blind nil", BlindNil(), "Blind nil"),
        ("QS", Play(card("QS")), "Q♠"),
        ("TH", Play(card("TH")), "10♥"),
    ],
)
def test_actions_have_stable_codes_and_human_labels(code, action, label):
    assert GAME.decode_action(code) == action
    assert GAME.encode_action(action) == code
    assert GAME.describe_action(action) == label


def test_bid_0_and_other_spellings_decode():
    assert GAME.decode_action("bid 0") == Bid(0)
    assert GAME.decode_action(" BID  7 ") == Bid(7)
    assert GAME.decode_action("10H") == Play(Card.parse("TH"))
    assert GAME.decode_action("7♦") == Play(card("7D"))


@pytest.mark.parametrize("code", ["", "bid", "bid four", "nil nil", "1X", "play QS", "blind"])
def test_unparseable_codes_are_malformed(code):
    with pytest.raises(MalformedAction) as err:
        GAME.decode_action(code)
    assert err.value.reason.code == "action.malformed"


def test_bids_are_public_events():
    assert BidMade(0, 3).audience() is None
