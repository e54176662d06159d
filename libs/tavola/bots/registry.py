"""Finding a game's bot policies: ``tavola.games.<pkg>.bots.POLICIES`` (level -> policy)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache

from tavola.bots.interface import LEVELS, Policy, RandomPolicy
from tavola.rules import registry


@cache
def _policies(game: str) -> Mapping[str, Policy]:
    module = registry._GAMES[game].split(":")[0]
    try:
        bots = importlib.import_module(f"{module}.bots")
    except ModuleNotFoundError as error:
        if error.name != f"{module}.bots":
            raise
        return {}
    policies: Mapping[str, Policy] = bots.POLICIES
    return policies


def policy_for(game: str, level: str) -> Policy:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return _policies(game).get(level) or RandomPolicy()
