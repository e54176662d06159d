"""Random playouts (tavola.rules.driver.play_match): at least 1,000 hands per player count,
every invariant checked by ``fantan_checks.Checker``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fantan_checks import check_playout

from tavola.games.fantan import GAME
from tavola.rules.driver import play_match

HANDS_PER_COUNT = 1000
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"penalty": "card_value"},
    {"penalty": "card_value", "face_cards_ten": True},
    {"equal_hands": True},
    {"equal_hands": True, "any_seven_starts": True},
    {"penalty_limit": 30},
    {"hands": 2, "any_seven_starts": True},
]


def seed_of(players: int, i: int) -> bytes:
    return bytes([players]) + i.to_bytes(31, "big")


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_matches_keep_every_invariant_over_a_thousand_hands(players):
    hands = blocked = voided = passes = 0
    i = 0
    while hands < HANDS_PER_COUNT:
        options = OPTION_SETS[i % len(OPTION_SETS)]
        out = play_match(GAME, players, options, seed=seed_of(players, i), rng=random.Random(i))
        checker = check_playout(out, players, options, i)
        hands += checker.hands
        blocked += checker.blocked
        voided += checker.voided
        passes += checker.passes
        i += 1
    assert passes > 0  # forced passes happen
    if players != 4:  # equal hands set cards aside, so some hands block
        assert blocked > 0
    if players >= 5:  # two or more cards aside: 7♦ among them now and then, a redeal
        assert voided > 0


@pytest.mark.parametrize("players", [3, 6])
def test_the_same_seed_and_choices_give_identical_events(players):
    for i in range(3):
        options = OPTION_SETS[i * 2 % len(OPTION_SETS)]
        first = play_match(GAME, players, options, seed=seed_of(9, i), rng=random.Random(i))
        again = play_match(GAME, players, options, seed=seed_of(9, i), rng=random.Random(i))
        assert first.events == again.events
        assert first.state == again.state
