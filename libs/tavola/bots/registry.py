"""Finding a game's bots: ``Game.bots()`` of the registered game, a typed ``GameBots``.

Each game declares its bots once, as ``BOTS = GameBots(...)`` in its own package
(``tavola.games.<game>.bots``), and its ``Game.bots()`` returns it. This module holds no
list of games: a sixth game touches its own folder and its one line in
``tavola.rules.registry``, nothing here. A game without bots of its own returns
``GameBots.none()``; a level a game does not provide plays uniformly at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tavola.bots.interface import (
    FIRST_POLICY_VERSION,
    LEVELS,
    Budget,
    GameBots,
    Knowledge,
    Policy,
    RandomPolicy,
)
from tavola.rules import registry
from tavola.rules.errors import Reason
from tavola.rules.interface import Game

__all__ = [
    "DEFAULT_THINK_MS",
    "FIRST_POLICY_VERSION",
    "bots_for",
    "budget_for",
    "default_budget",
    "hint_for",
    "policy_for",
    "policy_version",
    "reads_view",
]


def bots_for(game: str) -> GameBots:
    """The bots of a registered game (``UnknownGame`` for any other name)."""
    return registry.get(game).bots()


def policy_for(game: str, level: str) -> Policy:
    """The game's policy for ``level``; uniform random choice when the game has none."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return bots_for(game).policies.get(level) or RandomPolicy()


def reads_view(game: str, level: str) -> bool:
    """Whether the game's ``level`` ever reads a seat's view (``Policy.reads_view``)."""
    return policy_for(game, level).reads_view


def hint_for(
    game: Game[Any, Any], knowledge: Knowledge, legal: Sequence[Any], rng: random.Random
) -> tuple[Any, Reason]:
    """The hint for a person: the game's own ``hint`` if it has one, else the hard level's
    choice with a generic reason."""
    own = game.bots().hint
    if own is not None:
        return own(game, knowledge, legal)
    action = policy_for(game.info.name, "hard").decide(game, knowledge, legal, rng, Budget())
    return action, Reason.of("hint.hard_choice", action=game.describe_action(action))


DEFAULT_THINK_MS = 1000  # what each game's ``GameBots.master_samples`` is calibrated to


def budget_for(game: str, think_ms: int = 0) -> Budget:
    """The master's budget at a table: the game's default (about 1 s) scaled to the table's
    thinking time per decision (``think_ms``; 0 keeps the default), never below one deal."""
    default = default_budget(game)
    if think_ms <= 0:
        return default
    return Budget(samples=max(1, round(default.samples * think_ms / DEFAULT_THINK_MS)))


def default_budget(game: str) -> Budget:
    """The master's default budget for a game: its ``GameBots.master_samples`` (calibrated
    to about 1 s per decision on one core)."""
    return Budget(samples=bots_for(game).master_samples)


def policy_version(game: str) -> int:
    """The version of a game's bots, recorded with each decision
    (``BotDecision.policy_version``): its ``GameBots.policy_version``
    (``FIRST_POLICY_VERSION`` for a game without bots of its own).

    A game bumps its own whenever any of its levels would decide differently from the same
    knowledge, seed and budget; the audit (``tavola.bots.audit``) re-derives the decisions
    of the current version and counts the others as skipped, so changing one game's bots
    leaves every other game's recorded decisions auditable."""
    return bots_for(game).policy_version
