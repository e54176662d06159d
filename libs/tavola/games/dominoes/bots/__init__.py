"""Bots for Brazilian dominoes: four honest levels and the hint (``docs/games/dominoes-bots.md``).

* ``easy`` — any legal move;
* ``medium`` — the heaviest playable tile;
* ``hard`` — counts the tiles seen, infers from passes (and draws, and first-hand openings)
  which numbers each rival lacks, and scores each placement with that knowledge;
* ``master`` — samples ``Budget.samples`` deals of the unseen tiles consistent with what the
  hard level knows, plays every candidate out on each, and picks the best mean points.

Every level also chooses the end when a tile fits both. ``hint`` is the hard level's move
with a ``dominoes.hint.*`` reason. ``BOTS.arena`` is the bench table: a partnership match of
one hand (target 1).
"""

from collections.abc import Mapping

from tavola.bots.interface import ArenaSettings, GameBots, HintPolicy, Policy, RandomPolicy
from tavola.games.dominoes.bots.policies import (
    MasterPolicy,
    MediumPolicy,
    hint,
)

POLICIES: Mapping[str, Policy] = {
    "easy": RandomPolicy(),
    "medium": MediumPolicy(),
    "hard": HintPolicy(hint),
    "master": MasterPolicy(),
}

BOTS = GameBots(
    policies=POLICIES,
    hint=hint,
    master_samples=800,  # about 1 s per decision on one core (docs/games/dominoes-bots.md)
    policy_version=2,
    arena=ArenaSettings(players=4, options={"mode": "partnership", "target": 1}, deals=400),
)

__all__ = ["BOTS", "POLICIES", "MasterPolicy", "MediumPolicy", "hint"]
