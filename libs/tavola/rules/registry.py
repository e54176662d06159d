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
