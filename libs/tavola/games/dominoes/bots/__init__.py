"""Bots for Brazilian dominoes: four honest levels and the hint (``docs/games/dominoes-bots.md``).

* ``easy`` — any legal move;
* ``medium`` — the heaviest playable tile;
* ``hard`` — counts the tiles seen, infers from passes (and draws, and first-hand openings)
  which numbers each rival lacks, and scores each placement with that knowledge;
* ``master`` — samples ``Budget.samples`` deals of the unseen tiles consistent with what the
  hard level knows, plays every candidate out on each, and picks the best mean points.

Every level also chooses the end when a tile fits both. ``hint`` is the hard level's move
with a ``dominoes.hint.*`` reason. ``ARENA`` is the bench table: a partnership match of one
hand (target 1).
"""

from tavola.bots.interface import HintPolicy, RandomPolicy
from tavola.games.dominoes.bots.policies import (
    MasterPolicy,
    MediumPolicy,
    hint,
)

POLICIES = {
    "easy": RandomPolicy(),
    "medium": MediumPolicy(),
    "hard": HintPolicy(hint),
    "master": MasterPolicy(),
}

ARENA = {"players": 4, "options": {"mode": "partnership", "target": 1}, "deals": 400}

__all__ = ["ARENA", "POLICIES", "POLICY_VERSION", "MasterPolicy", "MediumPolicy", "hint"]

# About 1 s per decision on one core (see docs/games/dominoes-bots.md).
MASTER_SAMPLES = 800

POLICY_VERSION = 2
"""This game's bots' version (``tavola.bots.registry.policy_version``): bump it whenever a
level would decide differently from the same knowledge, seed and budget."""
