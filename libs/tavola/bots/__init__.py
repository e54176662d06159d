"""Bots: honest players of every game, at four levels (easy, medium, hard, master).

A bot is a pure function of what its seat may know — the seat's view, the events its seat
was shown (hidden ones are absent), its legal actions — plus its own seeded RNG and a time
budget. It never receives a game state, so it has no path to another seat's cards.

Each game declares its bots once, as a typed ``GameBots`` (``BOTS`` in
``tavola.games.<game>.bots``: policies by level, hint, master budget, version, arena table),
returned by its ``Game.bots()``; a level the game does not provide plays uniformly at
random. Each game versions its own bots (``GameBots.policy_version``,
``policy_version(game)`` here).
"""

from __future__ import annotations

import hashlib

from tavola.bots.interface import LEVELS, Budget, Knowledge, Policy, RandomPolicy
from tavola.bots.registry import policy_for, policy_version

__all__ = [
    "LEVELS",
    "Budget",
    "Knowledge",
    "Policy",
    "RandomPolicy",
    "decision_seed",
    "policy_for",
    "policy_version",
]


def decision_seed(match_id: str, seat: int, version: int, level: str) -> int:
    """The RNG seed of one bot decision: recorded facts re-derive it."""
    digest = hashlib.sha256(f"tavola-bot|{match_id}|{seat}|{version}|{level}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
