"""A bot's knowledge may carry a view decoded only when a policy reads it: the easy level
(a uniform choice) never does, every other level reads the same view it would have been
given, and the knowledge stays immutable and equal to the eager one."""

from __future__ import annotations

import random

import pytest

from tavola.bots import policy_for
from tavola.bots.interface import Budget, Knowledge
from tavola.rules import driver, registry


def _counted(view: object) -> tuple[list[int], Knowledge]:
    calls: list[int] = []

    def decode() -> object:
        calls.append(1)
        return view

    return calls, Knowledge.deferred(0, 4, (), decode, ())


def test_the_view_is_decoded_once_when_first_read() -> None:
    calls, knowledge = _counted("the view")
    assert calls == []
    assert knowledge.view == "the view" and knowledge.view == "the view"
    assert calls == [1]
    assert knowledge == Knowledge(0, 4, (), "the view", ())
    assert hash(knowledge) == hash(Knowledge(0, 4, (), "the view", ()))


def test_knowledge_is_immutable() -> None:
    knowledge = Knowledge(0, 4, (), "the view", ())
    with pytest.raises(AttributeError):
        knowledge.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize("game_name", registry.names())
def test_the_easy_level_decides_without_decoding_the_view(game_name: str) -> None:
    game = registry.get(game_name)
    players = min(max(4, game.info.min_players), game.info.max_players)
    state = game.initial_state(players, game.parse_options(game.info.short, players))
    state, _ = driver.resolve_all_chance(game, state, b"\x07" * 32)
    seat = min(game.to_act(state))
    legal = list(game.legal_actions(state, seat))
    calls, knowledge = _counted(game.view(state, seat))
    action = policy_for(game_name, "easy").decide(
        game, knowledge, legal, random.Random(1), Budget()
    )
    assert action in legal and calls == []


def _states(game_name: str, count: int = 60):  # type: ignore[no-untyped-def]
    """(state, seat to act) along a random playout of the game's short match."""
    game = registry.get(game_name)
    players = min(max(4, game.info.min_players), game.info.max_players)
    state = game.initial_state(players, game.parse_options(game.info.short, players))
    rng = random.Random(game_name)
    out = []
    while len(out) < count and not game.is_over(state):
        state, _ = driver.resolve_all_chance(game, state, b"\x07" * 32)
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        out.append((state, seat))
        action = rng.choice(list(game.legal_actions(state, seat)))
        state = game.fold(state, game.decide(state, seat, action))
    return out


@pytest.mark.parametrize("game_name", registry.names())
def test_a_level_that_says_it_reads_no_view_never_reads_one(game_name: str) -> None:
    """The engine pushes no view to such a level (``Policy.reads_view``): at every turn of
    a playout, every such level of the game decides without touching ``knowledge.view``,
    and a level that reads views says so."""
    from tavola.bots.interface import LEVELS

    game = registry.get(game_name)
    blind = [level for level in LEVELS if not policy_for(game_name, level).reads_view]
    assert "easy" in blind and "master" not in blind
    for state, seat in _states(game_name):
        legal = list(game.legal_actions(state, seat))
        for level in blind:
            calls, knowledge = _counted(game.view(state, seat))
            policy_for(game_name, level).decide(game, knowledge, legal, random.Random(3), Budget())
            assert calls == [], f"{level} read the view"
