"""Every game's ``GameInfo.short``: options of the game, valid for it, typed as the game
reads them, and a match under them ends (what tests, the bench and demos rely on)."""

from __future__ import annotations

import random

import pytest

from tavola.match.events import option_texts
from tavola.rules import driver, registry

# the longest short match (a block of Barbu) takes about 400 random moves
MOVES = 1_000


@pytest.mark.parametrize("name", registry.names())
def test_short_names_only_options_of_the_game_with_values_it_accepts(name: str) -> None:
    game = registry.get(name)
    short = game.info.short
    assert set(short) <= {spec.name for spec in game.info.options}
    for players in sorted({game.info.min_players, game.info.max_players}):
        parsed = game.parse_options(short, players)
        assert {key: parsed[key] for key in short} == dict(short)  # typed as parsed
        assert game.parse_options(option_texts(short), players) == parsed  # and on the wire


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", registry.names())
def test_a_random_match_under_short_ends_within_a_bounded_number_of_moves(
    name: str, seed: int
) -> None:
    game = registry.get(name)
    for players in sorted({game.info.min_players, game.info.max_players}):
        out = driver.play_match(
            game,
            players,
            game.parse_options(game.info.short, players),
            seed=seed.to_bytes(32, "big"),
            rng=random.Random(seed),
            max_actions=MOVES,
        )
        assert game.is_over(out.state)
        assert out.actions <= MOVES
