"""The master's playouts (``bots.sim``): the bit tricks of the hot loop against plain
readings of the same rules, and ``finish`` against the rollout policy card by card."""

from __future__ import annotations

import random

from tavola.games.spades.bots.sim import (
    ABOVE,
    SUIT,
    Hand,
    _take,
    high_card,
    low_card,
    margin,
)
from tavola.games.spades.play import low_key
from tavola.rules.cards import standard_deck

DECK = standard_deck()


def _cards(m: int) -> list[int]:
    return [i for i in range(52) if m >> i & 1]


def _random_masks(rng: random.Random, count: int) -> list[int]:
    out = []
    for _ in range(count):
        size = rng.randrange(1, 14)
        out.append(sum(1 << i for i in rng.sample(range(52), size)))
    return out


def test_low_and_high_card_are_the_plain_orders():
    rng = random.Random(3)
    for m in _random_masks(rng, 3000):
        held = _cards(m)
        assert low_card(m) == min(held, key=lambda i: low_key(DECK[i]))
        side = [i for i in held if i < 39]
        # the highest side rank, the first suit of equal ranks; else the highest spade
        expected = max(side, key=lambda i: (i % 13, -i)) if side else max(held)
        assert high_card(m) == expected


def test_a_lead_cashes_the_first_suit_whose_top_card_nobody_else_beats():
    rng = random.Random(4)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randrange(2, 27))
        cut = rng.randrange(1, len(cards))
        m = sum(1 << i for i in cards[:cut])
        others = sum(1 << i for i in cards[cut:])
        broken = rng.random() < 0.5
        sure = [
            top
            for s in range(4)
            if (held := m & SUIT[s])
            and not others & ABOVE[top := held.bit_length() - 1]
            and (s < 3 or broken)
        ]
        expected = sure[0] if sure else low_card(m)
        assert _take(others, 0, m, -1, -1, -1, 0, broken) == expected


def _deal(rng: random.Random) -> list[int]:
    order = list(range(52))
    rng.shuffle(order)
    return [sum(1 << i for i in order[13 * s : 13 * s + 13]) for s in range(4)]


def test_finish_plays_the_rollout_policy_card_by_card():
    rng = random.Random(7)
    for n in range(300):
        hands = _deal(rng)
        bids = [rng.choice((0, 0, 1, 2, 3, 4, 5)) for _ in range(4)]
        fast = Hand(list(hands), bids, (0, 0, 0, 0), False, (), n % 4)
        slow = Hand(list(hands), bids, (0, 0, 0, 0), False, (), n % 4)
        if n % 3:  # from a later trick, on a start shared through ``dealt``
            for _ in range(4 * rng.randrange(1, 8)):
                slow.play(slow.turn, slow.choose(slow.turn))
            start = Hand([0] * 4, bids, slow.tricks, slow.broken, (), slow.turn)
            fast = start.dealt(list(slow.hands))
        fast.finish()
        while slow.hands[slow.turn]:
            slow.play(slow.turn, slow.choose(slow.turn))
        assert fast.tricks == slow.tricks and sum(fast.tricks) == 13
        assert margin(fast, 0, (3, 9)) == margin(slow, 0, (3, 9))
