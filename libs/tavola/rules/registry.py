"""The registry of games: the lobby, engine, bots and tests enumerate it.

It holds the games' ``Game`` objects themselves, each registered under its
``info.name``. Adding a game: write its package under ``tavola.games`` (rules, and its bots
behind ``Game.bots()``) and add its ``GAME`` to ``GAMES`` below — a sixth game touches one
folder and one line here, nothing else.

The games are imported with this module; none of them imports it (a game's bots do,
through ``tavola.bots``, but only when ``Game.bots()`` is first called).
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType
from typing import Any

from tavola.games.barbu import GAME as BARBU
from tavola.games.dominoes import GAME as DOMINOES
from tavola.games.doppelkopf import GAME as DOPPELKOPF
from tavola.games.fantan import GAME as FAN_TAN
from tavola.games.spades import GAME as SPADES
from tavola.rules.errors import Reason, RulesError
from tavola.rules.interface import Game

# The registered games, in registry order (the lobby's, the tests'). One line per game.
GAMES: tuple[Game[Any, Any], ...] = (
    FAN_TAN,
    SPADES,
    BARBU,
    DOMINOES,
    DOPPELKOPF,
)

_BY_NAME = MappingProxyType({game.info.name: game for game in GAMES})
if len(_BY_NAME) != len(GAMES):
    raise ValueError("two registered games share a name")
_NAMES = tuple(_BY_NAME)


class UnknownGame(RulesError):
    pass


def names() -> tuple[str, ...]:
    """Registered games, in registry order."""
    return _NAMES


def get(name: str) -> Game[Any, Any]:
    """The registered game called ``name``; ``UnknownGame`` (``game.unknown``) otherwise."""
    game = _BY_NAME.get(name)
    if game is None:
        raise UnknownGame(Reason.of("game.unknown", game=name))
    return game


def all_games() -> tuple[Game[Any, Any], ...]:
    """Every registered game, in registry order (each as ``get`` returns it)."""
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
