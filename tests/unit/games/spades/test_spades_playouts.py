"""Random playouts of whole matches: invariants, replay, determinism, privacy, legality."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import defaultdict

import pytest

from tavola.games.spades import (
    GAME,
    Bid,
    BlindNil,
    CardPlayed,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    TrickTaken,
    suggested_bid,
)
from tavola.rules.cards import Card, standard_deck
from tavola.rules.driver import play_match, random_choice
from tavola.rules.errors import IllegalAction, NotYourTurn

TARGET_HANDS = 5000
ALL_CODES = (
    [c.code for c in standard_deck()] + [f"bid {n}" for n in range(-1, 15)] + ["nil", "blind nil"]
)


def seed(n: int) -> bytes:
    return n.to_bytes(32, "big")


def sensible(game, state, seat, legal, rng):
    """Bids near what the hand is worth (so matches run long and bags pile up)."""
    if isinstance(legal[0], Bid):
        if rng.random() < 0.1:
            return Bid(0)
        return Bid(max(1, suggested_bid(state.hands[seat]) + rng.choice((-1, 0, 0, 1))))
    return legal[rng.randrange(len(legal))]


def timers_only(game, state, seat, legal, rng):
    return game.automatic_action(state, seat)[0]


def cards_in(value) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple):
        return [c for v in value for c in cards_in(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [c for f in dataclasses.fields(value) for c in cards_in(getattr(value, f.name))]
    return []


def check_hand(hand_events, scores_before, bags_before):
    """Invariants of one hand's events; returns the scores and bags after it."""
    started = hand_events[0]
    assert isinstance(started, HandStarted)
    dealt = {e.seat: e.cards for e in hand_events if isinstance(e, HandDealt)}
    assert sorted(c for h in dealt.values() for c in h) == sorted(standard_deck())
    plays = [e for e in hand_events if isinstance(e, CardPlayed)]
    assert len(plays) == 52 and len({p.card for p in plays}) == 52
    assert all(p.card in dealt[p.seat] for p in plays)
    tricks = [e for e in hand_events if isinstance(e, TrickTaken)]
    assert [t.number for t in tricks] == list(range(1, 14))
    scored = next(e for e in hand_events if isinstance(e, HandScored))
    for team, settlement in enumerate(scored.teams):
        s = settlement
        assert s.change == s.contract_points + s.bag_points + s.nil_points + s.bag_penalty
        assert s.score_before == scores_before[team] and s.bags_before == bags_before[team]
        assert s.score_after == s.score_before + s.change
        assert s.bags_after == s.bags_before + s.bags_won - s.bags_struck
        assert 0 <= s.bags_after <= 9 and s.bags_struck % 10 == 0
        assert s.contract == sum(s.bids)
    won = [0] * 4
    for t in tricks:
        won[t.seat] += 1
    for team in (0, 1):
        s = scored.teams[team]
        assert s.contract_tricks + s.nil_bags == won[team] + won[team + 2]
    return scored.scores, scored.bags


def check_match(out):
    """Invariants over one whole match's events."""
    events = out.events
    starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
    scores, bags, dealers = (0, 0), (0, 0), []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(events)
        scores, bags = check_hand(events[start:end], scores, bags)
        dealers.append(events[start].dealer)
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(dealers))
    assert isinstance(events[-1], MatchEnded) and GAME.is_over(out.state)
    ended = events[-1]
    assert ended.scores == scores and scores[ended.winner] > scores[1 - ended.winner]
    assert GAME.to_act(out.state) == frozenset() and GAME.chance(out.state) is None
    return len(starts)


CARDLESS = tuple(t for t in GAME.info.event_types if t not in (CardPlayed, HandDealt, HandScored))


def check_privacy(events):
    """No public event shows a card before its owner plays it."""
    played: set[Card] = set()
    for event in events:
        if isinstance(event, CardPlayed):
            played.add(event.card)
        if event.audience() is None and not isinstance(event, CARDLESS):
            assert set(cards_in(event)) <= played, event
        if isinstance(event, HandStarted):
            played = set()


def test_thousands_of_random_hands_keep_every_invariant():
    hands, matches, n = 0, 0, 0
    while hands < TARGET_HANDS:
        choose = random_choice if n % 2 == 0 else sensible
        out = play_match(GAME, 4, seed=seed(n), rng=random.Random(n), choose=choose)
        hands += check_match(out)
        check_privacy(out.events)
        if n % 3 == 0:
            assert GAME.fold(GAME.initial_state(4, {}), out.events) == out.state
        matches, n = matches + 1, n + 1
    assert matches > 100


def test_matches_played_by_the_timers_alone_end():
    for n in range(15):
        out = play_match(GAME, 4, seed=seed(10_000 + n), choose=timers_only)
        check_match(out)


def test_long_matches_reach_500_and_pay_bag_penalties():
    penalties = wins_at_500 = 0
    for n in range(60):
        out = play_match(GAME, 4, seed=seed(20_000 + n), rng=random.Random(n), choose=sensible)
        check_match(out)
        penalties += sum(
            t.bag_penalty < 0 for e in out.events if isinstance(e, HandScored) for t in e.teams
        )
        wins_at_500 += max(out.state.scores) >= 500
    assert penalties > 0 and wins_at_500 > 0


def test_the_same_seed_and_choices_give_identical_events_even_with_global_random_disturbed():
    for n in range(15):
        first = play_match(GAME, 4, seed=seed(n), rng=random.Random(n))

        def disturbing(game, state, seat, legal, rng):
            random.random()
            return random_choice(game, state, seat, legal, rng)

        second = play_match(GAME, 4, seed=seed(n), rng=random.Random(n), choose=disturbing)
        assert first.events == second.events


def checking(game, state, seat, legal, rng):
    """A random chooser that checks views, legality, encoding and timers at every step."""
    codes_legal = {game.encode_action(a) for a in legal}
    for action in legal:
        assert game.decode_action(game.encode_action(action)) == action
    for code in ALL_CODES:
        action = game.decode_action(code)
        reason = game.why_illegal(state, seat, action)
        assert (reason is None) == (action in legal), (code, reason)
        if reason is not None:
            assert reason.code in game.messages() or reason.code.startswith("game.")
            with pytest.raises(IllegalAction):
                game.decide(state, seat, action)
    assert len(codes_legal) == len(legal)
    for other in range(4):
        if other != seat:
            assert game.legal_actions(state, other) == ()
            with pytest.raises(NotYourTurn):
                game.decide(state, other, legal[0])
    auto, reason = game.automatic_action(state, seat)
    assert auto in legal and reason.code in game.messages()
    assert not isinstance(auto, BlindNil) and auto != Bid(0)
    check_views(game, state)
    return legal[rng.randrange(len(legal))]


def check_views(game, state):
    in_hands = {c: s for s, hand in enumerate(state.hands) for c in hand}
    for viewer in (0, 1, 2, 3, None):
        view = game.view(state, viewer)
        assert view.hand == (state.hands[viewer] if viewer is not None else ())
        for c in cards_in(view):
            owner = in_hands.get(c)
            assert owner is None or owner == viewer, (viewer, c)


def test_random_positions_agree_on_legality_and_views_hide_other_hands():
    for n in range(12):
        out = play_match(GAME, 4, seed=seed(30_000 + n), rng=random.Random(n), choose=checking)
        check_match(out)


def test_tricks_are_won_by_the_right_card():
    out = play_match(GAME, 4, seed=seed(5), rng=random.Random(5))
    plays: dict[int, list[CardPlayed]] = defaultdict(list)
    trick = []
    for event in out.events:
        if isinstance(event, CardPlayed):
            trick.append(event)
        if isinstance(event, TrickTaken):
            led = trick[0].card.suit
            spades = [p for p in trick if p.card.suit == 3]
            pool = spades or [p for p in trick if p.card.suit == led]
            assert max(pool, key=lambda p: p.card.rank).seat == event.seat
            plays[event.hand] += trick
            trick = []
    assert all(len(p) == 52 for p in plays.values())
