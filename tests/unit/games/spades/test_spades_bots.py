"""Spades bots: legal, deterministic and honest at every level; hard's inferences and
medium's heuristic on scripted deals; medium beats easy in a short arena."""

from __future__ import annotations

import ast
import random
import string
from dataclasses import replace
from pathlib import Path

import pytest

from tavola.bots.arena import pairing
from tavola.bots.interface import LEVELS, Budget
from tavola.bots.knowledge import knowledge_of
from tavola.bots.registry import hint_for, policy_for
from tavola.games.spades import GAME, Bid, CardPlayed, HandDealt, Play, SpadesBroken, TrickTaken
from tavola.games.spades.bots import POLICIES, hint
from tavola.games.spades.bots.bids import (
    hard_bid,
    hard_bid_of,
    medium_bid,
    nil_supported,
    nil_supported_by,
    trick_estimate,
    worth,
)
from tavola.games.spades.bots.deal import _flow, sample
from tavola.games.spades.bots.hard import Reading
from tavola.games.spades.bots.master import master_card
from tavola.games.spades.bots.seen import seen_of
from tavola.games.spades.state import cards_of
from tavola.rules.cards import Card, Suit, card, cards, standard_deck
from tavola.rules.driver import resolve_all_chance

GAME_DECK = standard_deck()
BOTS = Path(__file__).parents[4] / "libs/tavola/games/spades/bots"
SMALL = Budget(samples=3)


# ----- positions of random matches ----------------------------------------------------------
def random_positions(seed: int, count: int, mix: int = 3):
    """``count`` positions (state, events) from one match of mixed-level seats."""
    rng = random.Random(seed)
    levels = ("easy", "medium", "hard")
    state = GAME.initial_state(4, {})
    events: list = []
    out = []
    every = max(1, rng.randrange(mix, mix + 5))
    step = 0
    while len(out) < count:
        state, produced = resolve_all_chance(GAME, state, seed.to_bytes(32, "big"))
        events += produced
        if GAME.is_over(state):
            break
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        if step % every == 0:
            out.append((state, list(events)))
        level = levels[(seat + seed) % 3]
        knowledge = knowledge_of(GAME, state, events, seat)
        action = POLICIES[level].decide(GAME, knowledge, legal, random.Random(step), SMALL)
        produced = GAME.decide(state, seat, action)
        state = GAME.fold(state, produced)
        events += produced
        step += 1
    return out


POSITIONS = [p for seed in range(4) for p in random_positions(seed, 12)]


def decide(level, state, events, rng_seed=11, budget=SMALL):
    seat = min(GAME.to_act(state))
    knowledge = knowledge_of(GAME, state, events, seat)
    legal = GAME.legal_actions(state, seat)
    return POLICIES[level].decide(GAME, knowledge, legal, random.Random(rng_seed), budget), legal


def test_the_positions_cover_bids_and_cards():
    kinds = {type(GAME.legal_actions(s, min(GAME.to_act(s)))[0]) for s, _ in POSITIONS}
    assert kinds == {Bid, Play}


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_returns_a_legal_action(level):
    for state, events in POSITIONS:
        action, legal = decide(level, state, events)
        assert action in legal


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_deterministic_for_the_same_seed(level):
    for state, events in POSITIONS[::3]:
        assert decide(level, state, events, 5)[0] == decide(level, state, events, 5)[0]


def test_the_registry_finds_every_level():
    for level in LEVELS:
        assert policy_for("spades", level) is POLICIES[level]


# ----- honesty ---------------------------------------------------------------------------------
def true_voids(state, events):
    """Suits each seat cannot hold, from the real play of the current hand (test's own)."""
    start = max(i for i, e in enumerate(events) if type(e).__name__ == "HandStarted")
    voids = [set() for _ in range(4)]
    trick: list[Card] = []
    broken = False
    for e in events[start:]:
        if isinstance(e, CardPlayed):
            if trick and e.card.suit != trick[0].suit:
                voids[e.seat].add(trick[0].suit)
            if not trick and e.card.suit == Suit.SPADES and not broken:
                voids[e.seat] |= {Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS}
            trick.append(e.card)
        elif isinstance(e, SpadesBroken):
            broken = True
        elif isinstance(e, TrickTaken):
            trick = []
    return voids


def redistributed(state, events, seat, rng):
    """Another full state: the other seats' hidden cards dealt again, consistently."""
    voids = true_voids(state, events)
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in state.hands[s]]
    for _ in range(10_000):
        rng.shuffle(pool)
        hands = list(state.hands)
        at = 0
        for s in others:
            hands[s] = tuple(sorted(pool[at : at + len(state.hands[s])]))
            at += len(state.hands[s])
        if all(c.suit not in voids[s] for s in others for c in hands[s]):
            break
    else:
        return None
    played = {
        s: [e.card for e in events if isinstance(e, CardPlayed) and e.seat == s] for s in range(4)
    }
    new_events = [
        replace(e, cards=tuple(sorted((*hands[e.seat], *played[e.seat]))))
        if isinstance(e, HandDealt) and e.seat != seat and e.hand == state.hand
        else e
        for e in events
    ]
    return replace(state, hands=tuple(hands)), new_events


@pytest.mark.parametrize("level", LEVELS)
def test_redistributing_the_hidden_cards_never_changes_a_decision(level):
    rng = random.Random(3)
    checked = 0
    for state, events in POSITIONS:
        seat = min(GAME.to_act(state))
        other = redistributed(state, events, seat, rng)
        if other is None:
            continue
        state2, events2 = other
        assert GAME.view(state2, seat) == GAME.view(state, seat)
        k1 = knowledge_of(GAME, state, events, seat)
        k2 = knowledge_of(GAME, state2, events2, seat)
        assert k1 == k2
        assert decide(level, state, events, 9)[0] == decide(level, state2, events2, 9)[0]
        checked += state2.hands != state.hands
    assert checked >= 10


def test_the_bot_code_has_no_path_to_a_game_state_a_clock_or_global_randomness():
    forbidden = {
        "random",
        "time",
        "datetime",
        "uuid",
        "os",
        "grpc",
        "nats",
        "asyncpg",
        "structlog",
        "prometheus_client",
        "tavola.games.spades.state",
        "tavola.games.spades.game",
    }
    for path in BOTS.glob("*.py"):
        source = path.read_text()
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {node.module or ""}
            else:
                continue
            assert not names & forbidden, (path.name, names)
        assert "SpadesState" not in source and "game." not in source, path.name


# ----- what the hard level infers --------------------------------------------------------------
HANDS = (
    "AS KS QS JS TS 9S 8S 7S 6S 2C 3C 4C 5C",
    "AC KC QC JC TC 9C 8C 7C 6C 2D 3D 4D 5D",
    "6D 7D 8D 9D TD JD QD KD AD 5S 4S 3S 2S",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)


def knowledge_after(table, hands, codes, seat=None, dealer=3):
    state = table.deal(hands, dealer=dealer)
    events = list(state_events(table, hands, dealer))
    state, produced = table.run(state, codes)
    events += produced
    seat = state.turn if seat is None else seat
    return state, knowledge_of(GAME, state, events, seat)


def state_events(table, hands, dealer):
    from tavola.games.spades import DealerChosen, HandStarted

    yield DealerChosen(dealer)
    yield HandStarted(1, dealer, (13,) * 4)
    for s, h in enumerate(hands):
        yield HandDealt(1, s, tuple(sorted(cards(h))))


def test_a_seat_that_does_not_follow_suit_is_known_void_in_it(table):
    _, k = knowledge_after(table, HANDS, "bid 4, bid 4, bid 3, bid 1, 2C AC 6D 2H")
    seen = seen_of(k)
    assert Suit.CLUBS in seen.voids[2] and Suit.CLUBS in seen.voids[3]
    assert Suit.CLUBS not in seen.voids[1]
    assert seen.played == frozenset(cards("2C AC 6D 2H"))


def test_a_spade_led_before_spades_are_broken_shows_a_hand_of_spades_only(table):
    hands = (
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        "AC KC QC JC TC 9C 8C 7C 6C 2D 3D 4D 5D",
        "6D 7D 8D 9D TD JD QD KD AD 6H 4H 3H 2H",
        "5H 7H 8H 9H TH JH QH KH AH 2C 3C 4C 5C",
    )
    _, k = knowledge_after(table, hands, "bid 13, bid 4, bid 2, bid 1, 2S", seat=1)
    assert seen_of(k).voids[0] >= {Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS}


CASH_HANDS = (
    "AC 2C 3C 4C 5C AD 2D 3D 4D 2S 3S 4S 5S",
    "KC QC JC TC 6C 5D 6D 7D 8D 6S 7S 8S 9S",
    "9C 8C 7C 9D TD JD QD KD 2H 3H TS JS QS",
    "6H 7H 8H 9H TH JH QH KH AH 4H 5H KS AS",
)


def test_the_hard_level_cashes_a_card_nobody_can_beat(table):
    state, k = knowledge_after(table, CASH_HANDS, "bid 3, bid 2, bid 3, bid 4")
    action, reason = hint(GAME, k, GAME.legal_actions(state, 0))
    assert action == Play(card("AC")) and reason.code == "spades.hint.cash"


def test_the_hard_level_does_not_cash_a_master_a_void_opponent_may_ruff(table):
    # Seat 2 showed a club void and may hold spades: seat 1's K♣ (the master club now)
    # is not sure, so seat 1 leads low instead.
    state, k = knowledge_after(table, HANDS, "bid 4, bid 4, bid 3, bid 1, 2C AC 6D 2H")
    seen = seen_of(k)
    assert Suit.CLUBS in seen.voids[2]
    reading = Reading(seen)
    assert reading.wins_now(card("KC")) and not reading.sure(card("KC"))
    action, reason = hint(GAME, k, GAME.legal_actions(state, 1))
    assert reason.code == "spades.hint.lead_low" and action == Play(card("2D"))


def test_the_hard_level_lets_a_partners_sure_card_ride(table):
    state, k = knowledge_after(table, HANDS, "bid 4, bid 4, bid 3, bid 1, 2C AC 6D 2H KC 7D")
    # seat 3 plays on seat 1's K♣, which no club left in play beats
    action, reason = hint(GAME, k, GAME.legal_actions(state, 3))
    assert reason.code == "spades.hint.partner_wins" and action == Play(card("3H"))


# ----- the medium heuristic on scripted deals --------------------------------------------------
def medium(table, codes, hands=HANDS, dealer=3):
    state, k = knowledge_after(table, hands, codes, dealer=dealer)
    legal = GAME.legal_actions(state, state.turn)
    return POLICIES["medium"].decide(GAME, k, legal, random.Random(0), SMALL)


def test_medium_wins_cheaply_when_it_can(table):
    assert medium(table, "bid 4, bid 4, bid 3, bid 1, 2C") == Play(card("6C"))


def test_medium_ducks_with_its_lowest_card_when_the_trick_is_lost(table):
    assert medium(table, "bid 4, bid 4, bid 3, bid 1, 2C AC 2S") == Play(card("2H"))


def test_medium_does_not_overtake_its_winning_partner(table):
    assert medium(table, "bid 4, bid 4, bid 3, bid 1, 2C AC 6D") == Play(card("2H"))


def test_medium_leads_a_side_ace(table):
    # dealer 1: seat 2 bids first and leads; it holds A♦
    assert medium(table, "bid 3, bid 1, bid 4, bid 4", dealer=1) == Play(card("AD"))


def test_a_medium_nil_bidder_sheds_its_highest_losing_card(table):
    assert medium(table, "bid 3, nil, bid 3, bid 4, AD", CASH_HANDS) == Play(card("8D"))


def test_medium_and_hard_bid_nil_only_on_a_hand_that_supports_it():
    nil_hand = cards("2S 5S 2H 3H 4H 9H 2D 3D 6D 8D 3C 4C 7C")
    assert nil_supported(nil_hand, None) and medium_bid(nil_hand, 3) == 0
    assert hard_bid(nil_hand, 3) == 0
    assert medium_bid(nil_hand, 0) > 0 and hard_bid(nil_hand, 0) > 0  # partner bid nil
    for bad in ("TS", "AH", "KC"):
        hand = (*cards(" ".join(c.code for c in nil_hand[1:])), card(bad))
        assert not nil_supported(hand, None), bad
    strong = cards("AS KS QS JS 2S AC KC 2C AD 2D 3D AH 2H")
    assert medium_bid(strong, None) >= 7 and hard_bid(strong, None) >= 7


def test_the_bids_on_bits_are_the_bids_on_cards():
    """The master's table-driven counts give the very same floats and bids as the cards'."""
    rng = random.Random(5)
    deck = list(GAME_DECK)
    for n in (*range(14), *[13] * 400):
        hand = rng.sample(deck, n)
        bits = sum(1 << c.index for c in hand)
        assert worth(bits) == trick_estimate(hand)
        for partner in (None, 0, 3):
            assert nil_supported_by(bits, partner) == nil_supported(hand, partner)
            assert hard_bid_of(bits, partner) == hard_bid(hand, partner)


# ----- determinization -------------------------------------------------------------------------
def test_sampled_deals_respect_counts_and_voids(table):
    _, k = knowledge_after(table, HANDS, "bid 4, bid 4, bid 3, bid 1, 2C AC 6D 2H KC 7D")
    seen = seen_of(k)
    rng = random.Random(1)
    others = [s for s in range(4) if s != seen.seat]
    unseen = [c.index for c in seen.unseen()]
    for _ in range(50):
        deal = sample(seen, rng)
        assert cards_of(deal[seen.seat]) == seen.hand
        assert sorted(c for s in others for c in cards_of(deal[s])) == sorted(seen.unseen())
        for s in others:
            assert len(cards_of(deal[s])) == seen.counts[s]
            assert not any(c.suit in seen.voids[s] for c in cards_of(deal[s]))
        flow = _flow(seen, unseen, rng)
        assert sum(flow) == sum(1 << i for i in unseen)
        assert all(not any(c.suit in seen.voids[s] for c in cards_of(flow[s])) for s in others)


def test_master_takes_a_sure_trick_at_the_end(table):
    _, k = knowledge_after(table, HANDS, "bid 4, bid 4, bid 3, bid 1, 2C AC 6D 2H")
    seen = seen_of(k)
    chosen = master_card(seen, list(seen.hand), random.Random(0), 20)
    assert chosen in seen.hand


# ----- hints and the catalogue -----------------------------------------------------------------
def test_every_hint_is_the_hard_choice_with_a_reason_in_both_languages():
    catalogue = GAME.messages()
    for state, events in POSITIONS:
        seat = min(GAME.to_act(state))
        knowledge = knowledge_of(GAME, state, events, seat)
        legal = GAME.legal_actions(state, seat)
        action, reason = hint_for(GAME, knowledge, legal, random.Random(0))
        assert action in legal
        assert action == POLICIES["hard"].decide(GAME, knowledge, legal, random.Random(0), SMALL)
        for language in ("en", "pt"):
            text = catalogue[reason.code][language]
            names = {n for _, n, _, _ in string.Formatter().parse(text) if n}
            assert names <= set(reason.param_dict())
            assert text.format(**reason.param_dict())


# ----- a short arena ---------------------------------------------------------------------------
def test_medium_beats_easy_in_a_short_arena():
    result = pairing(GAME, 4, {}, "medium", "easy", deals=6, budget=SMALL)
    assert result.low > 0
