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
