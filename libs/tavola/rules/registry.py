"""The registry of games: the lobby, engine, bots and tests enumerate it.

Adding a game: write its package under ``tavola.games`` and add one line below.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from tavola.rules.errors import Reason, RulesError
from tavola.rules.interface import Game

# name -> "module:attribute" of the game's instance. One line per game.
_GAMES: dict[str, str] = {
    "fan-tan": "tavola.games.fantan:GAME",
    "spades": "tavola.games.spades:GAME",
    "barbu": "tavola.games.barbu:GAME",
    "dominoes": "tavola.games.dominoes:GAME",
    "doppelkopf": "tavola.games.doppelkopf:GAME",
}


class UnknownGame(RulesError):
    pass


def names() -> tuple[str, ...]:
    """Registered games, in registry order."""
    return tuple(_GAMES)


@cache
def get(name: str) -> Game[Any, Any]:
    target = _GAMES.get(name)
    if target is None:
        raise UnknownGame(Reason.of("game.unknown", game=name))
    module, attribute = target.split(":")
    game: Game[Any, Any] = getattr(importlib.import_module(module), attribute)
    return game


def all_games() -> tuple[Game[Any, Any], ...]:
    return tuple(get(name) for name in names())


@cache
def played(name: str, rules_version: int) -> Game[Any, Any]:
    """The game under the rules version a match was played with (``MatchCreated``); the
    current rules when the game keeps no such version (``known`` tells)."""
    current = get(name)
    return current.rules_versions().get(rules_version, current)


def known(name: str, rules_version: int) -> bool:
    """Whether this installation can play and verify ``name`` under ``rules_version``."""
    return rules_version in get(name).rules_versions()
