"""At every version of a match — between two events of one batch too, where GetView with
``at_version`` and a replay from a version may stop — every seat's legal actions and view
are answered (a regression: Spades raised between a hand's last card and its trick's
taking)."""

from __future__ import annotations

import random

import pytest

from tavola.rules import driver, registry


@pytest.mark.parametrize("name", registry.names())
def test_legal_actions_and_views_answer_at_every_version(name: str) -> None:
    game = registry.get(name)
    players = 4 if game.info.min_players <= 4 <= game.info.max_players else game.info.min_players
    for match in range(6):
        out = driver.play_match(
            game, players, {}, seed=match.to_bytes(32, "big"), rng=random.Random(match)
        )
        state = game.initial_state(players, game.parse_options({}, players))
        for event in out.events:
            state = game.evolve(state, event)
            for seat in range(-1, players):
                if seat >= 0:
                    game.legal_actions(state, seat)
                game.view(state, seat)
