"""Every game declares its bots as one typed ``GameBots``, found through its ``Game``."""

from __future__ import annotations

import pytest

from tavola.bots.interface import LEVELS, PAIRINGS, ArenaSettings, Budget, GameBots, RandomPolicy
from tavola.bots.registry import bots_for, default_budget, policy_for, policy_version
from tavola.rules import registry
from tavola.rules.errors import Reason


@pytest.mark.parametrize("name", registry.names())
def test_every_game_declares_typed_bots_for_every_level_and_an_arena(name):
    game = registry.get(name)
    bots = game.bots()
    assert isinstance(bots, GameBots) and bots is bots_for(name)
    assert set(bots.policies) == set(LEVELS)
    assert bots.hint is not None and bots.master_samples >= 1 and bots.policy_version >= 1
    assert isinstance(bots.arena, ArenaSettings)
    assert game.info.min_players <= bots.arena.players <= game.info.max_players
    game.parse_options(bots.arena.options, bots.arena.players)
    assert all(bots.arena.deals_for(better, worse) >= 1 for better, worse in PAIRINGS)


def test_a_game_without_bots_of_its_own_plays_at_random(monkeypatch):
    game = registry.get("fan-tan")
    monkeypatch.setattr(type(game), "bots", lambda self: GameBots.none())
    assert isinstance(policy_for("fan-tan", "master"), RandomPolicy)
    assert default_budget("fan-tan") == Budget()
    assert policy_version("fan-tan") == 1


def test_an_arena_naming_pairings_must_name_them_all():
    with pytest.raises(ValueError, match="master/hard"):
        ArenaSettings(players=4, options={}, deals={"medium/easy": 1, "hard/medium": 1})
    assert ArenaSettings(players=4, options={}, deals=7).deals_for("hard", "medium") == 7


def test_the_registry_holds_each_game_under_its_own_name():
    assert registry.names() == tuple(game.info.name for game in registry.GAMES)
    assert registry.all_games() == registry.GAMES
    with pytest.raises(registry.UnknownGame) as raised:
        registry.get("chess")
    assert raised.value.reason == Reason.of("game.unknown", game="chess")
