"""The suggested bid and the safe card: documented, deterministic, used by the timers."""

from __future__ import annotations

import random

import pytest

from tavola.games.spades import GAME, Bid, Play, safe_card_for, suggested_bid
from tavola.rules.cards import card, cards, standard_deck


@pytest.mark.parametrize(
    ("hand", "bid"),
    [
        # A♠ K♠ (2 spades) + side aces: 2 + 3 = 5
        ("AS KS AC 2C 3C AD 2D 3D AH 2H 3H 4H 5H", 5),
        # seven spades A K Q J T 9 8: 3 honours + 4 length; void clubs and diamonds: +2
        ("AS KS QS JS TS 9S 8S 2H 3H 4H 5H 6H 7H", 9),
        # K♠ alone is not protected; K♣ in a 2-card suit is; K♥ in a 6-card suit is not
        ("KS 2C KC 3D 4D 5D 6D KH QH JH TH 9H 8H", 1),
        # nothing at all: still 1, never nil
        ("2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 6H 7H", 1),
        # all thirteen spades: 3 honours + 10 length (+3 voids) clamped to 13
        ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", 13),
    ],
)
def test_the_suggested_bid_counts_likely_tricks(hand, bid):
    assert suggested_bid(cards(hand)) == bid


def test_the_suggested_bid_is_never_nil_and_is_deterministic():
    rng = random.Random(7)
    deck = list(standard_deck())
    for _ in range(2000):
        rng.shuffle(deck)
        hand = tuple(deck[:13])
        bid = suggested_bid(hand)
        assert 1 <= bid <= 13
        assert suggested_bid(tuple(reversed(hand))) == bid == suggested_bid(sorted(hand))


def test_the_view_shows_the_suggested_bid_only_to_the_seat_on_turn(table, example_hands):
    state = table.deal(example_hands)
    assert GAME.view(state, 0).suggested_bid == suggested_bid(cards(example_hands[0])) == 11
    assert GAME.view(state, 1).suggested_bid is None
    assert GAME.view(state, None).suggested_bid is None
    state, _ = table.act(state, "bid 4")
    assert GAME.view(state, 1).suggested_bid == suggested_bid(cards(example_hands[1]))


def test_a_bid_timer_bids_the_suggested_bid_with_a_reason(table, example_hands):
    state = table.deal(example_hands)
    action, reason = GAME.automatic_action(state, 0)
    assert action == Bid(11)  # 9 spades: A K Q + 6 beyond the third; 2 voids
    assert reason.code == "spades.auto.bid" and reason.param_dict() == {"bid": 11}
    GAME.decide(state, 0, action)


# ----- the safe card ----------------------------------------------------------------------------
def test_a_side_that_needs_tricks_plays_the_cheapest_winning_card(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, bid 4, bid 3, bid 1, 2C")
    action, reason = GAME.automatic_action(state, 1)
    assert action == Play(card("6C"))  # the lowest club that beats 2♣
    assert reason.code == "spades.auto.card" and reason.param_dict() == {"card": "6C"}


def test_a_player_who_cannot_win_plays_his_lowest_card(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, bid 4, bid 3, bid 1, 2C AC")
    assert GAME.automatic_action(state, 2)[0] == Play(card("2S"))  # void: ruff cheaply
    state, _ = table.act(state, "2S")
    assert GAME.automatic_action(state, 3)[0] == Play(card("2H"))  # only hearts: lowest


def test_a_player_ruffs_with_the_lowest_spade_when_his_side_needs_tricks(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, bid 4, bid 3, bid 1")
    state, _ = table.run(state, "2C AC 6D 2H  KC 7D 3H 3C  QC 8D 4H 4C  JC 9D 5H 5C  TC TD 6H")
    assert GAME.automatic_action(state, 0)[0] == Play(card("6S"))


def test_a_nil_bidder_plays_the_lowest_card_that_cannot_win(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, nil, bid 3, bid 1, 5C")
    assert GAME.automatic_action(state, 1)[0] == Play(card("6C"))
    state, _ = table.run(state, "AC 6D 2H")
    state, _ = table.run(state, "9C")  # seat 1 leads; seat 2 (bid 3) is void in clubs
    state, _ = table.act(state, "2S")  # seat 2 ruffs
    state, _ = table.act(state, "3H")
    assert GAME.automatic_action(state, 0)[0] == Play(card("2C"))


def test_a_side_with_its_tricks_ducks_with_the_lowest_losing_card(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 1, bid 1, bid 1, bid 1")
    state, _ = table.run(state, "2C AC 6D 2H  KC 7D 3H 3C  QC 8D 4H 4C  JC 9D 5H 5C  TC TD 6H 6S")
    state, _ = table.run(state, "AS")  # seat 0 leads; team 1 has 4 tricks for a contract of 2
    assert GAME.automatic_action(state, 1)[0] == Play(card("2D"))  # lowest that cannot win
    state, _ = table.run(state, "2D")
    assert GAME.automatic_action(state, 2)[0] == Play(card("2S"))  # must follow: lowest spade


def test_a_player_does_not_overtake_a_partner_who_is_winning(table):
    hands = (
        "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    )
    state = table.deal(hands, dealer=0)  # seat 1 bids and leads
    state, _ = table.run(state, "bid 3, bid 3, bid 3, bid 3, 2D")
    assert GAME.automatic_action(state, 2)[0] == Play(card("2H"))  # no diamond: cheapest
    state, _ = table.run(state, "2H")
    assert GAME.automatic_action(state, 3)[0] == Play(card("2S"))  # cheapest winner: ruff
    state, _ = table.run(state, "2S")
    assert GAME.automatic_action(state, 0)[0] == Play(card("2C"))  # partner wins: duck


def test_on_a_lead_the_safe_card_is_the_lowest_legal_card(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, bid 4, bid 3, bid 1")
    assert GAME.automatic_action(state, 0)[0] == Play(card("2C"))


def test_the_safe_card_depends_only_on_the_seats_view(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.run(state, "bid 4, bid 4, bid 3, bid 1, 2C")
    view = GAME.view(state, 1)
    assert safe_card_for(view) == GAME.automatic_action(state, 1)[0].card


COVER_HANDS = (
    "7H 8H TH JH QH AH AS KS QS JS TS 9S 8S",
    "5H 6H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "2H 4H KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "3H 9H KH JD QD KD AD 7S 6S 5S 4S 3S 2S",
)


@pytest.mark.parametrize(("seat_1_bids", "expected"), [("nil", "9H"), ("bid 3", "3H")])
def test_a_player_covers_a_nil_partner_but_not_a_partner_who_bid(table, seat_1_bids, expected):
    state = table.deal(COVER_HANDS, dealer=0)  # seat 1 bids first and leads
    state, _ = table.run(state, f"{seat_1_bids}, bid 3, bid 3, bid 3, 5H 2H")
    assert GAME.automatic_action(state, 3)[0] == Play(card(expected))


def test_the_view_shows_bids_tricks_and_what_is_still_missing(table, example_hands):
    state = table.deal(example_hands, scores=(120, -40), bags=(3, 7))
    state, _ = table.run(state, "bid 4, bid 4, bid 3, nil")
    state, _ = table.run(state, "2C AC 6D 2H  KC 7D 3H 3C  QC 8D")
    view = GAME.view(state, 3)
    assert view.hand == cards(example_hands[3])[2:] and view.seat == 3
    assert [(s.bid, s.tricks, s.missing, s.cards) for s in view.seats] == [
        (4, 0, 4, 11),
        (4, 2, 2, 10),
        (3, 0, 3, 10),
        (0, 0, 0, 11),
    ]
    team0, team1 = view.teams
    assert (team0.contract, team0.contract_tricks, team0.missing, team0.score, team0.bags) == (
        7,
        0,
        7,
        120,
        3,
    )
    assert (team1.contract, team1.contract_tricks, team1.missing, team1.score, team1.bags) == (
        4,
        2,
        2,
        -40,
        7,
    )
    assert tuple(p.card for p in view.trick) == cards("QC 8D") and view.trick_leader == 1
    assert tuple(p.card for p in view.last_trick) == cards("KC 7D 3H 3C")
    assert view.last_trick_winner == 1 and view.tricks_played == 2
    assert (view.phase, view.turn, view.dealer, view.hand_number) == ("play", 3, 3, 1)
    assert not view.spades_broken and view.suggested_bid is None
    assert GAME.view(state, None).hand == () and GAME.view(state, None).seat is None


def test_before_the_bids_the_view_has_no_contract(table, example_hands):
    state = table.deal(example_hands)
    state, _ = table.act(state, "bid 4")
    view = GAME.view(state, 1)
    assert view.seats[0].bid == 4 and view.seats[1].bid is None
    assert view.seats[1].missing is None and view.teams[0].contract is None
