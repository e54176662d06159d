"""Bot policies: pure functions of a seat's view and legal actions, with their own RNG.

A bot never receives more than its seat's view (the same ``GetView`` a client gets). Each
decision is reproducible: its RNG is seeded from (match, seat, version, level).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

LEVELS = ("easy", "medium", "hard", "master")


def decision_seed(match_id: str, seat: int, version: int, level: str) -> int:
    digest = hashlib.sha256(f"tavola-bot|{match_id}|{seat}|{version}|{level}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(level: str, legal_codes: Sequence[str], rng: random.Random) -> str:
    """Pick an action code. Every level plays a uniformly random legal action for now
    (the levels' own strategies are issue #7)."""
    if not legal_codes:
        raise ValueError("no legal action to choose from")
    return legal_codes[rng.randrange(len(legal_codes))]
