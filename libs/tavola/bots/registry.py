"""Finding a game's bot policies: ``tavola.games.<pkg>.bots.POLICIES`` (level -> policy)."""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import Any

from tavola.bots.interface import LEVELS, Budget, Knowledge, Policy, RandomPolicy
from tavola.rules import registry
from tavola.rules.errors import Reason
from tavola.rules.interface import Game


@cache
def _bots_module(game: str) -> ModuleType | None:
    """``tavola.games.<pkg>.bots`` of a registered game, or None if it has none."""
    module = registry._GAMES[game].split(":")[0]
    try:
        return importlib.import_module(f"{module}.bots")
    except ModuleNotFoundError as error:
        if error.name != f"{module}.bots":
            raise
        return None


def _policies(game: str) -> Mapping[str, Policy]:
    bots = _bots_module(game)
    policies: Mapping[str, Policy] = bots.POLICIES if bots is not None else {}
    return policies


def policy_for(game: str, level: str) -> Policy:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return _policies(game).get(level) or RandomPolicy()


def hint_for(
    game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any], rng: random.Random
) -> tuple[Any, Reason]:
    """The hint for a person: the game's own ``hint`` if it has one, else the hard level's
    choice with a generic reason."""
    own = getattr(_bots_module(game.info.name), "hint", None)
    if own is not None:
        result: tuple[Any, Reason] = own(game, knowledge, legal)
        return result
    action = policy_for(game.info.name, "hard").decide(game, knowledge, legal, rng, Budget())
    return action, Reason.of("hint.hard_choice", action=game.describe_action(action))


DEFAULT_THINK_MS = 1000  # what each game's MASTER_SAMPLES is calibrated to


def budget_for(game: str, think_ms: int = 0) -> Budget:
    """The master's budget at a table: the game's default (about 1 s) scaled to the table's
    thinking time per decision (``think_ms``; 0 keeps the default), never below one deal."""
    default = default_budget(game)
    if think_ms <= 0:
        return default
    return Budget(samples=max(1, round(default.samples * think_ms / DEFAULT_THINK_MS)))


def default_budget(game: str) -> Budget:
    """The master's default budget for a game: its bots module's ``MASTER_SAMPLES``
    (calibrated to about 1 s per decision on one core), else the interface default."""
    return Budget(samples=int(getattr(_bots_module(game), "MASTER_SAMPLES", Budget().samples)))


FIRST_POLICY_VERSION = 1


def policy_version(game: str) -> int:
    """The version of a game's bots, recorded with each decision
    (``BotDecision.policy_version``): its bots module's ``POLICY_VERSION``, else 1.

    A game bumps its own whenever any of its levels would decide differently from the same
    knowledge, seed and budget; the audit (``tavola.bots.audit``) re-derives the decisions
    of the current version and counts the others as skipped, so changing one game's bots
    leaves every other game's recorded decisions auditable."""
    return int(getattr(_bots_module(game), "POLICY_VERSION", FIRST_POLICY_VERSION))
