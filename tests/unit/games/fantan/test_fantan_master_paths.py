"""The master's fast paths against their plain descriptions: the sampled deals (``deals``)
and the playouts (``master.play_out``) must give the same hands from the same draws, so
that every decision stays what the plain code decided."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from fantan_kit import GAME

from tavola.bots.interface import Budget, Rng
from tavola.bots.knowledge import knowledge_of
from tavola.bots.registry import policy_for
from tavola.games.fantan import Play
from tavola.games.fantan.bots import deals
from tavola.games.fantan.bots.deals import deal
from tavola.games.fantan.bots.master import (
    Playout,
    choose_as_hard,
    choose_in_playout,
    hand_penalty,
    penalty_of,
    play_out,
)
from tavola.games.fantan.bots.model import Seen, bit_of, bits, ends_mask, read, with_card
from tavola.rules.driver import resolve_all_chance
from tavola.rules.interface import Event

TABLES: list[tuple[int, dict[str, Any]]] = [
    (3, {"hands": 1, "penalty": "card_value"}),
    (4, {"hands": 1}),
    (5, {"hands": 1, "equal_hands": True, "any_seven_starts": True}),
    (7, {"hands": 1, "equal_hands": True, "penalty": "card_value", "face_cards_ten": True}),
]


def seen_positions(every: int = 3) -> Iterator[tuple[Seen, list[int]]]:
    """Knowledge (as ``Seen``) and the playable cards at decisions of matches played by
    medium and hard seats (so passes, hence proven gaps, come up)."""
    for t, (players, options) in enumerate(TABLES):
        rng = random.Random(t)
        state = GAME.initial_state(players, options)
        events: list[Event] = []
        step = 0
        while True:
            state, produced = resolve_all_chance(GAME, state, (40 + t).to_bytes(32, "big"))
            events += produced
            if GAME.is_over(state):
                break
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            knowledge = knowledge_of(GAME, state, events, seat, options)
            if len(legal) > 1 and step % every == 0:
                yield read(knowledge), [bit_of(a.card) for a in legal if isinstance(a, Play)]
            level = ("medium", "hard")[rng.randrange(2)]
            action = policy_for("fan-tan", level).decide(
                GAME, knowledge, legal, random.Random(step), Budget(1)
            )
            produced = GAME.decide(state, seat, action)
            state = GAME.fold(state, produced)
            events += produced
            step += 1


def plain_deal(seen: Seen, rng: Rng) -> list[int]:
    """The determinization as ``deals`` describes it, written plainly."""
    room = {s: seen.counts[s] for s in range(seen.players) if s != seen.seat}
    if seen.aside:
        room[-1] = seen.aside
    cards = bits(seen.unseen)
    rng.shuffle(cards)
    allowed = {c: seen.holders(c) for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))
    held: dict[int, list[int]] = {s: [] for s in room}
    for card in cards:
        free = [s for s in allowed[card] if len(held[s]) < room[s]]
        if free:
            pick = rng.randrange(sum(room[s] - len(held[s]) for s in free))
            for seat in free:
                pick -= room[seat] - len(held[seat])
                if pick < 0:
                    break
            held[seat].append(card)
        else:
            assert deals._augment(card, allowed, room, held, set(), rng)  # unchanged
    hands = [0] * seen.players
    hands[seen.seat] = seen.hand
    for seat, owned in held.items():
        for card in owned:
            if seat >= 0:
                hands[seat] |= 1 << card
    return hands


def plain_play_out(hands: list[int], ends: int, turn: int, rng: Playout, me: int) -> list[int]:
    """The playout as ``master`` describes it: one chooser call per choice."""
    seat, passes = turn, 0
    while True:
        playable = hands[seat] & ends
        if playable:
            if playable & (playable - 1):
                chooser = choose_as_hard if seat == me else choose_in_playout
                card = chooser(hands[seat], playable, rng)
            else:
                card = playable.bit_length() - 1
            hands[seat] &= ~(1 << card)
            if not hands[seat]:
                return hands
            ends = _ends_after(ends, card)
            passes = 0
        else:
            passes += 1
            if passes >= len(hands):
                return hands
        seat = (seat + 1) % len(hands)


def _ends_after(ends: int, card: int) -> int:
    """The playable cards once ``card`` is played from ``ends``: it leaves, the next card
    outward in its direction(s) (both, for a seven) comes in."""
    pos = card % 13
    ends &= ~(1 << card)
    if 0 < pos <= 6:
        ends |= 1 << (card - 1)
    if 6 <= pos < 12:
        ends |= 1 << (card + 1)
    return ends


def test_the_dealer_deals_what_the_plain_determinization_deals_from_the_same_draws():
    count = constrained = 0
    for n, (seen, _cards) in enumerate(seen_positions(every=1)):
        fast, plain = random.Random(n), random.Random(n)
        for _ in range(4):
            assert deal(seen, fast) == plain_deal(seen, plain)
        assert fast.random() == plain.random()  # the same draws were consumed
        count += 1
        constrained += any(seen.lacks)
    assert count > 80 and constrained > 40


def test_the_playout_plays_what_the_choosers_play_from_the_same_stream():
    count = 0
    for n, (seen, cards) in enumerate(seen_positions(every=2)):
        hands = deal(seen, random.Random(n))
        for card in cards:
            start = list(hands)
            start[seen.seat] &= ~(1 << card)
            if not start[seen.seat]:
                continue
            ends = ends_mask(with_card(seen.rows, card))
            turn = (seen.seat + 1) % seen.players
            fast, plain = Playout(n), Playout(n)
            assert play_out(list(start), ends, turn, fast, seen.seat) == plain_play_out(
                list(start), ends, turn, plain, seen.seat
            )
            assert fast.state == plain.state
            count += 1
    assert count > 60


def test_a_dead_end_is_repaired_from_the_same_draws(monkeypatch):
    # Seats 1-3 hold one unseen card each; 1 lacks 3C, 2 lacks 4C, 3 lacks 2C. Dealing 2C to
    # seat 1 and then 3C to seat 3 leaves 4C no room: the augmenting path must move a card.
    two, three, four = 0, 1, 2  # 2C, 3C, 4C
    lacks = (0, 1 << three, 1 << four, 1 << two)
    may_hold = tuple(tuple(s for s in (1, 2, 3) if not lacks[s] >> card & 1) for card in range(52))
    rest = ((1 << 52) - 1) & ~0b111
    seen = Seen(
        seat=0,
        players=4,
        hand=rest,
        counts=(49, 1, 1, 1),
        rows=(None, None, None, None),
        started=False,
        unseen=0b111,
        lacks=lacks,
        aside=0,
        penalty=(1,) * 52,
        may_hold=may_hold,
    )
    repairs = []
    augment = deals._augment
    monkeypatch.setattr(deals, "_augment", lambda *a: repairs.append(1) or augment(*a))
    for n in range(40):
        fast, plain = random.Random(n), random.Random(n)
        hands = deal(seen, fast)
        assert hands == plain_deal(seen, plain)
        assert fast.random() == plain.random()
        assert all(not hands[s] & lacks[s] for s in (1, 2, 3))
    assert repairs


def test_the_penalty_tables_count_what_the_cards_cost():
    rng = random.Random(3)
    schemes = set()
    for seen, _cards in seen_positions(every=2):
        penalty = hand_penalty(seen)
        for _ in range(50):
            hand = rng.getrandbits(52)
            assert penalty(hand) == penalty_of(seen, hand)
        schemes.add(seen.penalty)
    assert len(schemes) == 3  # one per card, card value, face cards ten
