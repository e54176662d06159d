"""Rule-book review of Spades (``shared/rules/spades.md``): statements, worked examples and
edge cases not already pinned by the other Spades tests."""

from __future__ import annotations

import pytest

from tavola.games.spades import (
    GAME,
    Bid,
    DealerChosen,
    ExtraHandCalled,
    HandScored,
    HandStarted,
    MatchEnded,
    Play,
    PlayStarted,
    SpadesBroken,
    TrickTaken,
)
from tavola.games.spades.scoring import settle_hand, settle_team
from tavola.games.spades.state import SpadesOptions
from tavola.rules import registry
from tavola.rules.cards import Suit, card, cards

# ----- shared deals ----------------------------------------------------------------------------
# Seat 0 holds four top clubs and nine spades; after four club tricks it holds only spades
# while spades are still unbroken (nobody else has played a spade).
ONLY_SPADES_LATER = (
    "AC KC QC JC AS KS QS JS TS 9S 8S 7S 6S",
    "2C 3C 4C 5C 2H 3H 4H 5H 6H 7H 8H 9H TH",
    "6C 7C 8C 9C 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "TC 5S 4S 3S 2S JH QH KH AH JD QD KD AD",
)
# Seat 0 wins the first two club tricks, then leads 2♦ and seat 1 wins it with A♦; seat 2,
# void in diamonds and holding hearts and spades, may ruff or discard.
RUFF_OR_DISCARD = (
    "AC KC QC JC TC 2D 3D 4D 5D 6D 7D 8D 9D",
    "2C 3C 4C TD JD QD KD AD 2H 3H 4H 5H 6H",
    "8C 9C 7H 8H 9H TH JH QH 2S 3S 4S 5S 6S",
    "5C 6C 7C KH AH 7S 8S 9S TS JS QS KS AS",
)
# Seat 0 holds a hand worth nothing by any count.
WORTHLESS = (
    "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 6H 7H",
    "6C 7C 8C 9C TC JC QC KC AC 6D 7D 8D 9D",
    "TD JD QD KD AD 5H 8H 9H TH JH QH KH AH",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
)
# From test_spades_auto: seat 1 bids and leads 5♥; seat 3 holds 3♥ 9♥ K♥.
COVER_HANDS = (
    "7H 8H TH JH QH AH AS KS QS JS TS 9S 8S",
    "5H 6H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "2H 4H KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "3H 9H KH JD QD KD AD 7S 6S 5S 4S 3S 2S",
)


def _finish(table, state, bids):
    state, _ = table.run(state, bids)
    return table.play_out(state)


# ----- Table ---------------------------------------------------------------------------------
def test_the_registry_serves_spades_for_four_players_in_two_partnerships():
    game = registry.get("spades")
    assert game is GAME
    assert game.info.min_players == game.info.max_players == 4 and game.info.teams


def test_partners_sit_opposite_so_play_goes_you_opponent_partner_opponent(table, suit_hands):
    state = table.deal(suit_hands, dealer=1)  # seat 2 bids first
    order = []
    for code in ("bid 1", "bid 1", "bid 1", "bid 1"):
        order.append(state.turn)
        state, _ = table.act(state, code)
    assert order == [2, 3, 0, 1]
    # 2 and 0 are partners (team 0), 3 and 1 the opponents (team 1): alternate teams.
    assert [s % 2 for s in order] == [0, 1, 0, 1]
    assert [s.team for s in GAME.view(state, None).seats] == [0, 1, 0, 1]


def test_the_deal_passes_left_every_hand_and_left_of_the_dealer_bids_and_leads():
    state = GAME.initial_state(4, {"target": 2000, "floor": -2000})
    state = GAME.fold(state, GAME.resolve_chance(state, GAME.chance(state), (2,)))
    assert state.dealer == 2
    for number in range(1, 6):
        request = GAME.chance(state)
        assert request is not None and request.purpose == f"deal/{number}"
        events = GAME.resolve_chance(state, request, tuple(range(52)))
        dealer = (2 + number - 1) % 4
        assert events[0] == HandStarted(number, dealer, (13,) * 4)
        state = GAME.fold(state, events)
        assert state.turn == (dealer + 1) % 4 and not state.spades_broken
        assert all(len(h) == 13 for h in state.hands)
        produced = []
        while state.phase == "bidding":
            ev = GAME.decide(state, state.turn, Bid(1))
            state = GAME.fold(state, ev)
            produced += ev
        assert isinstance(produced[-1], PlayStarted) and produced[-1].leader == (dealer + 1) % 4
        leader = state.turn
        lead = GAME.legal_actions(state, leader)
        holds_other = any(c.suit != Suit.SPADES for c in state.hands[leader])
        assert not holds_other or all(a.card.suit != Suit.SPADES for a in lead)
        while state.phase == "play":
            ev = GAME.decide(state, state.turn, GAME.legal_actions(state, state.turn)[0])
            state = GAME.fold(state, ev)
        assert state.phase == "deal"


# ----- Tricks ----------------------------------------------------------------------------------
def test_any_spade_beats_the_ace_of_the_suit_led(table, example_hands):
    state = table.run(table.deal(example_hands), "bid 4, bid 4, bid 3, bid 1")[0]
    state, events = table.run(state, "2C AC 2S 2H")
    assert events[-1] == TrickTaken(1, 1, 2)
    assert state.turn == 2


def test_an_off_suit_ace_discarded_does_not_win(table, example_hands):
    state = table.run(table.deal(example_hands), "bid 4, bid 4, bid 3, bid 1")[0]
    state, events = table.run(state, "3C 6C 6D AH")
    assert events[-1] == TrickTaken(1, 1, 1)


def test_the_ace_is_high_in_the_suit_led(table):
    state = table.run(table.deal(RUFF_OR_DISCARD), "bid 1, bid 1, bid 1, bid 1")[0]
    _, events = table.run(state, "JC 2C 9C 7C")
    assert events[-1] == TrickTaken(1, 1, 0)
    state = table.run(table.deal(RUFF_OR_DISCARD), "bid 1, bid 1, bid 1, bid 1")[0]
    _, events = table.run(state, "AC 2C 8C 5C")
    assert events[-1] == TrickTaken(1, 1, 0)


def test_a_player_left_holding_only_spades_may_lead_one_before_they_are_broken(table):
    state = table.run(table.deal(ONLY_SPADES_LATER), "bid 4, bid 1, bid 1, bid 1")[0]
    state, _ = table.run(state, "AC 2C 6C TC  KC 3C 7C JH  QC 4C 8C QH  JC 5C 9C KH")
    assert state.turn == 0 and not state.spades_broken
    assert all(c.suit == Suit.SPADES for c in state.hands[0])
    assert Play(card("AS")) in GAME.legal_actions(state, 0)
    assert GAME.why_illegal(state, 0, Play(card("AS"))) is None
    state, events = table.act(state, "AS")
    assert SpadesBroken(1, 0) in events and state.spades_broken


def test_spades_are_unbroken_again_at_the_start_of_every_hand(table, suit_hands):
    state = table.deal(suit_hands)
    state, _ = _finish(table, state, "bid 1, bid 1, bid 1, bid 1")
    state = GAME.fold(state, GAME.resolve_chance(state, GAME.chance(state), tuple(range(52))))
    assert not state.spades_broken and GAME.view(state, 1).spades_broken is False


# ----- Bidding ---------------------------------------------------------------------------------
def test_both_partners_nil_make_a_contract_of_zero(table, example_hands):
    state = table.deal(example_hands)
    state, events = table.run(state, "nil, bid 2, nil, bid 3")
    assert events[-1] == PlayStarted(1, (0, 5), 0)
    team0 = GAME.view(state, 0).teams[0]
    assert (team0.contract, team0.missing) == (0, 0)


def test_a_nil_bidders_tricks_do_not_count_towards_the_partners_contract_in_the_view(
    table, example_hands
):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, nil, bid 3, bid 2, 2C AC 6D 2H")
    seat1 = GAME.view(state, 0).seats[1]
    team1 = GAME.view(state, 0).teams[1]
    assert (seat1.bid, seat1.tricks, seat1.missing) == (0, 1, 0)
    assert (team1.contract, team1.contract_tricks, team1.tricks, team1.missing) == (2, 0, 1, 2)


# ----- Score of a hand: the worked example and its neighbours ----------------------------------
@pytest.mark.parametrize("split", [(5, 4), (9, 0), (0, 9), (2, 7)])
def test_the_source_example_bid_4_and_3_take_9_is_72_however_the_tricks_split(split):
    s = settle_team(0, (4, 3), split, score_before=0, bags_before=0)
    assert (s.contract, s.contract_points, s.bags_won, s.bag_points, s.change) == (
        7,
        70,
        2,
        2,
        72,
    )


def test_the_source_example_for_the_other_partnership():
    s = settle_team(1, (3, 4), (6, 3), score_before=0, bags_before=0)
    assert (s.change, s.bags_after) == (72, 2)


def test_the_source_example_with_8_bags_already_costs_100_and_strikes_10():
    s = settle_team(0, (4, 3), (5, 4), score_before=0, bags_before=8)
    assert (s.bag_points, s.bag_penalty, s.bags_struck, s.bags_after, s.change) == (
        2,
        -100,
        10,
        0,
        -28,
    )


def test_the_source_contract_of_7_set_by_one_trick_loses_70():
    s = settle_team(0, (4, 3), (4, 2), score_before=0, bags_before=3)
    assert (s.made, s.change, s.bags_won, s.bags_after) == (False, -70, 0, 3)


def test_settle_hand_scores_each_partnership_from_seat_ordered_bids_and_tricks():
    t0, t1 = settle_hand((4, 4, 3, 0), (9, 4, 0, 0), (10, 20), (1, 2))
    assert (t0.bids, t0.change, t0.score_after, t0.bags_after) == ((4, 3), 72, 82, 3)
    assert (t1.bids, t1.contract, t1.change, t1.score_after) == ((4, 0), 4, 140, 160)


def test_a_failed_nil_whose_partner_is_set_still_pays_the_bag_penalty():
    # nil took 2 (bags), partner bid 5 took 4 (set): -50 - 100, and 9 + 2 bags cross 10.
    s = settle_team(0, (0, 5), (2, 4), score_before=0, bags_before=9)
    assert (s.contract_points, s.nil_points, s.bag_points) == (-50, -100, 0)
    assert (s.bag_penalty, s.bags_after, s.change) == (-100, 1, -250)


def test_bags_are_carried_by_the_match_state_from_hand_to_hand(table, suit_hands):
    state = table.deal(suit_hands, bags=(7, 0))
    state, events = _finish(table, state, "bid 10, bid 1, nil, bid 1")  # 3 bags for team 0
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.teams[0].bag_penalty == -100 and scored.bags == (0, 0)
    assert scored.teams[0].change == 100 + 3 + 100 - 100 and state.bags == (0, 0)


# ----- End of the match --------------------------------------------------------------------------
# With SUIT_HANDS seat 0 takes all 13 tricks: "bid 13, bid 1, nil, bid 1" scores +230, -20.
@pytest.mark.parametrize(
    ("before", "after", "ends"),
    [
        ((270, 100), (500, 80), True),  # exactly 500
        ((269, 100), (499, 80), False),  # one short
        ((0, -180), (230, -200), True),  # exactly -200
        ((0, -179), (230, -199), False),
    ],
)
def test_the_thresholds_are_500_or_more_and_minus_200_or_less(
    table, suit_hands, before, after, ends
):
    state = table.deal(suit_hands, scores=before)
    state, events = _finish(table, state, "bid 13, bid 1, nil, bid 1")
    assert state.scores == after
    if ends:
        assert events[-1] == MatchEnded(1, 0, after) and GAME.is_over(state)
    else:
        assert isinstance(events[-1], HandScored) and state.phase == "deal"


def test_a_tie_at_exactly_500_calls_one_more_hand_dealt_by_the_next_seat(table, suit_hands):
    state = table.deal(suit_hands, dealer=3, scores=(270, 520))
    state, events = _finish(table, state, "bid 13, bid 1, nil, bid 1")
    assert events[-1] == ExtraHandCalled(1, 500) and state.deciding
    dealt = GAME.resolve_chance(state, GAME.chance(state), tuple(range(52)))
    assert dealt[0] == HandStarted(2, 0, (13,) * 4)
    assert GAME.view(GAME.fold(state, dealt), 0).extra_hand


def test_a_tie_below_the_thresholds_is_no_reason_for_an_extra_hand(table, suit_hands):
    state = table.deal(suit_hands, scores=(-110, 140))
    state, events = _finish(table, state, "bid 13, bid 1, nil, bid 1")
    assert state.scores == (120, 120)
    assert isinstance(events[-1], HandScored) and not state.deciding


# ----- The online table: timers, automatic moves, reasons ----------------------------------------
def test_timers_are_30_seconds_a_bid_and_25_a_card(table, example_hands):
    state = table.deal(example_hands)
    assert GAME.turn_timer(state, 0) == 30
    assert all(GAME.turn_timer(state, s) is None for s in (1, 2, 3))
    state, _ = table.run(state, "bid 4, bid 4, bid 3, bid 1")
    assert GAME.turn_timer(state, 0) == 25
    assert GAME.turn_timer(state, 1) is None


def test_the_bid_timer_never_bids_nil_even_for_a_worthless_hand(table):
    state = table.deal(WORTHLESS)
    assert GAME.view(state, 0).suggested_bid == 1
    action, reason = GAME.automatic_action(state, 0)
    assert action == Bid(1) and reason.code == "spades.auto.bid"


@pytest.mark.parametrize(("seat_0_bid", "expected"), [("bid 1", "7H"), ("bid 2", "2S")])
def test_a_void_seat_discards_when_its_side_has_its_tricks_and_ruffs_cheaply_otherwise(
    table, seat_0_bid, expected
):
    state = table.deal(RUFF_OR_DISCARD)
    state, _ = table.run(state, f"{seat_0_bid}, bid 1, bid 1, bid 1")
    state, _ = table.run(state, "AC 2C 8C 5C  KC 3C 9C 6C  2D AD")
    assert state.turn == 2 and state.tricks[0] == 2
    action, reason = GAME.automatic_action(state, 2)
    assert action == Play(card(expected))
    assert reason.param_dict() == {"card": expected}


def test_a_side_that_needs_tricks_does_not_overtake_its_partner_who_is_winning(table):
    """The book's safe card is "the legal card least likely to cost the player"; its two
    cases (lowest loser when the side has its tricks, cheapest winner otherwise) leave the
    partner's trick open. Overtaking a winning partner cannot win the side a trick and
    spends a higher card, so the table ducks (docs/games/spades.md, "Card timer")."""
    state = table.deal(COVER_HANDS, dealer=0)
    state, _ = table.run(state, "bid 3, bid 3, bid 3, bid 3, 5H 2H")
    assert GAME.view(state, 3).teams[1].missing == 6
    assert GAME.automatic_action(state, 3)[0] == Play(card("3H"))


def test_the_reasons_read_as_the_rule_book_examples(table, example_hands):
    state = table.run(table.deal(example_hands), "bid 4, bid 4, bid 3, bid 1")[0]
    reason = GAME.why_illegal(state, 0, Play(card("AS")))
    assert reason is not None and reason.code == "spades.spades_not_broken"
    assert "not broken" in GAME.messages()[reason.code]["en"].format(**reason.param_dict())
    state, _ = table.run(state, "2C AC 6D 2H  KC 7D 3H 3C  QC 8D 4H 4C  JC 9D 5H 5C")
    state, _ = table.run(state, "TC TD 6H 6S  AS")  # seat 0 leads A♠; seat 1 has no spade
    state, _ = table.run(state, "9C 5S")
    reason = GAME.why_illegal(state, 3, Play(card("2C")))
    assert reason is not None and reason.code == "spades.not_in_hand"
    state = table.run(table.deal(COVER_HANDS, dealer=0), "bid 3, bid 3, bid 3, bid 3, 5H")[0]
    reason = GAME.why_illegal(state, 2, Play(card("KC")))
    assert reason is not None and reason.code == "spades.must_follow_hearts"
    assert "must follow hearts" in GAME.messages()[reason.code]["en"]


def test_only_playable_cards_are_offered(table):
    state = table.run(table.deal(COVER_HANDS, dealer=0), "bid 3, bid 3, bid 3, bid 3, 5H")[0]
    assert [a.card for a in GAME.legal_actions(state, 2)] == list(cards("2H 4H"))
    assert all(GAME.why_illegal(state, 2, a) is None for a in GAME.legal_actions(state, 2))


# ----- Options -----------------------------------------------------------------------------------
def test_the_rule_book_has_no_table_options_beyond_match_length_timers_and_no_blind_nil():
    names = {spec.name for spec in GAME.info.options}
    assert names == {"target", "floor", "hands", "timers", "timer_bid", "timer_card"}
    assert GAME.house_rules({}) == ()
    assert GAME.initial_state(4, {}).options == SpadesOptions(target=500, floor=-200, hands=0)


def test_the_first_dealer_may_be_any_seat():
    state = GAME.initial_state(4, {})
    for seat in range(4):
        assert GAME.resolve_chance(state, GAME.chance(state), (seat,)) == [DealerChosen(seat)]
